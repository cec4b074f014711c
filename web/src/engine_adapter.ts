/// <reference types="vite/client" />
// A record file opened from disk is replayed by the rules engine compiled to WebAssembly:
// `web/src/engine.ts` (branch `offline`) exports `loadEngine(): Promise<Engine>` with
// `Engine.replay(recordJson)` → the `tarneeb-result/1` (with each deal's trick_list), as `tarneeb
// replay` prints it: parsed already (the branch's engine.ts) or as JSON text (both are read).
// This file is the only place the replay viewer touches it. The module is looked up with
// `import.meta.glob`, so that the client builds whether or not engine.ts is there yet; without
// it, opening a file says the engine is unavailable (stored matches still replay: the server
// sends their result). No rule is computed in TypeScript.
import type { MatchResult } from './replay_model';

/** The part of branch `offline`'s Engine used here. */
export interface Engine {
  replay(recordJson: string): unknown;
}

/** No engine in this build (engine.ts absent), or it failed to load. */
export class EngineUnavailable extends Error {}

type EngineModule = { loadEngine: () => Promise<Engine> };
const modules = import.meta.glob<EngineModule>('./engine.ts');

let engine: Promise<Engine> | null = null;

/** Loads the engine once; rejects with EngineUnavailable. */
export function engineLoader(): Promise<Engine> {
  const load = modules['./engine.ts'];
  if (!load) return Promise.reject(new EngineUnavailable('engine.ts is not part of this build'));
  engine ??= load()
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
