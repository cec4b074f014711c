// A record file opened from disk is replayed by the rules engine compiled to WebAssembly
// (engine.ts: `loadEngine()`, `Engine.replay(recordJson)` → the `tarneeb-result/1` with each
// deal's trick_list, as `tarneeb replay` prints it). This file is the only place the replay
// viewer touches the engine; the module is imported when a file is first opened (stored matches
// need no engine: the server sends their result). No rule is computed in TypeScript.
import type { MatchResult } from './replay_model';

/** The part of engine.ts's Engine used here (its result parsed, or JSON text: both are read). */
export interface Engine {
  replay(recordJson: string): unknown;
}

/** The engine could not be loaded (its WebAssembly missing from the build, or refused). */
export class EngineUnavailable extends Error {}

let engine: Promise<Engine> | null = null;

/** Loads the engine once; rejects with EngineUnavailable. */
export function engineLoader(): Promise<Engine> {
  engine ??= import('./engine')
    .then((m) => m.loadEngine())
    .catch((e: unknown) => {
      engine = null;
      throw new EngineUnavailable((e as Error)?.message ?? String(e));
    });
  return engine;
}

/** The `tarneeb-result/1` of a record's text, computed by the engine (rejected records have `ok: false`). */
export async function replayRecord(recordJson: string, load: () => Promise<Engine> = engineLoader): Promise<MatchResult> {
  const e = await load();
  const r = e.replay(recordJson);
  return (typeof r === 'string' ? JSON.parse(r) : r) as MatchResult;
}
