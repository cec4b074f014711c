// The rules engine in the page: the C++ engine, game room and heuristic bot compiled to
// WebAssembly (wasm/offline.cpp, built by scripts/build-wasm.sh into public/wasm/), for playing
// offline against three bots (offline.ts). There is no TypeScript copy of the rules: every
// legal action, trick winner and score comes from the same C++ code the server runs, and the
// engine speaks the server's shapes (docs/protocol.md: the `table` message, actions, errors).
//
// Hidden information: the wasm module builds each table message for seat 0 from that seat's
// view (server::table_message_json), so the other hands never reach JavaScript.
import type { Action, ErrorMsg, TableView } from './protocol';
import type { OfflineLevel } from './bot_levels';

/** How an offline match is set up. */
export interface OfflineSettings {
  /** The rules preset (docs/rules.md); default levantine. */
  preset?: 'levantine' | 'classic';
  /** Points to win, 1..500 (default 31): a low target makes a short match. */
  target?: number;
  /** The match seed, 1–16 hex digits: the same seed deals the same cards and the bots decide the same. */
  seed: string;
  /** The human's display name (seat 0); default "You". */
  name?: string;
  /** The round summary's pause before the next deal's bots act, ms (0..60000; default 4000, as the server's). */
  summary_ms?: number;
  /** The bots' level (bot_levels.ts OFFLINE_LEVELS: the levels this build has); default medium. */
  level?: OfflineLevel;
}

/** A refusal: `code` is the server's stable code (e.g. `must_follow_suit`, `out_of_turn`, `bad_action`). */
export type EngineError = ErrorMsg;

/** Either the new table message or a refusal that changed nothing. */
export type Reply = TableView | EngineError;

/** The server's `hint` answer (docs/protocol.md "hint"): `action` for the table at `version`. */
export type HintReply = { type: 'hint'; version: number; action: Action } | EngineError;

/** One match: the human at seat 0, bots at seats 1–3 (of the settings' level), no turn timer. */
export interface OfflineMatch {
  /** The table message for seat 0 now (`events` empty unless some were not reported yet). */
  table(): TableView;
  /** The human's action (one of `table().legal`); a refused action leaves the match unchanged. */
  act(action: Action): Reply;
  /** The bot seat to act plays one action, now even during the round summary's pause (the caller
   * waits `summary_ms` first to follow the server's timing); `out_of_turn` when it is the human's
   * turn or the match is over. */
  step(): Reply;
  /** The heuristic bot's choice for seat 0 from seat 0's view (the server's `hint`); `out_of_turn` when not seat 0's turn. */
  hint(): HintReply;
  /** Frees the match's memory in the wasm module; the object is unusable afterwards. */
  dispose(): void;
}

/** The tarneeb-result/1 object (docs/record-format.md "Result"), as `tarneeb replay` prints it. */
export interface ReplayResult {
  format: 'tarneeb-result/1';
  ok: boolean;
  status: string;
  winner: 0 | 1 | null;
  totals: [number, number];
  scored_rounds: number;
  deals: unknown[];
  error: { code: string; deal: number | null; phase: string; index: number | null } | null;
}

/** The engine loaded from WebAssembly. */
export interface Engine {
  /** Starts a match; throws an Error whose message is the refusal's code for bad settings (`bad_settings`). */
  startMatch(settings: OfflineSettings): { match: OfflineMatch; table: TableView };
  /** Checks a tarneeb-record/1 (JSON text) and returns its tarneeb-result/1, as `tarneeb replay` does. */
  replay(recordJson: string): ReplayResult;
}

/** Where the module lives and, outside a browser, its bytes. */
export interface LoadOptions {
  /** The URL of tarneeb-offline.mjs; default `wasm/tarneeb-offline.mjs` beside the page. */
  moduleUrl?: string;
  /** The .wasm's bytes (Node, tests): skips fetching it. */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

/** A fresh match seed from the browser's CSPRNG (crypto.getRandomValues): 16 hex digits. */
export function randomSeed(): string {
  const w = new Uint32Array(2);
  crypto.getRandomValues(w);
  return [...w].map((x) => x.toString(16).padStart(8, '0')).join('');
}

// The embind class of wasm/offline.cpp: JSON text in and out, `now` in Unix ms.
interface WasmMatch {
  start(settings: string, now: number): string;
  table(now: number): string;
  act(action: string, now: number): string;
  step(now: number): string;
  hint(): string;
  delete(): void;
}
interface WasmModule {
  OfflineMatch: new () => WasmMatch;
  replay(record: string): string;
}

const parse = (text: string): Reply => JSON.parse(text) as Reply;

/** Loads the WebAssembly engine (once per call: the page keeps the Engine it got). */
export async function loadEngine(options: LoadOptions = {}): Promise<Engine> {
  const url = options.moduleUrl ?? new URL('wasm/tarneeb-offline.mjs', document.baseURI).href;
  const factory = (await import(/* @vite-ignore */ url)).default as (m: object) => Promise<WasmModule>;
  const m = await factory(options.wasmBinary ? { wasmBinary: options.wasmBinary } : {});
  return {
    startMatch(settings) {
      const w = new m.OfflineMatch();
      const first = parse(w.start(JSON.stringify(settings), Date.now()));
      if (first.type === 'error') {
        w.delete();
        throw new Error(first.code);
      }
      let live = true;
      const use = () => {
        if (!live) throw new Error('disposed');
        return w;
      };
      const match: OfflineMatch = {
        table: () => parse(use().table(Date.now())) as TableView,
        act: (action) => parse(use().act(JSON.stringify(action), Date.now())),
        step: () => parse(use().step(Date.now())),
        hint: () => JSON.parse(use().hint()) as HintReply,
        dispose: () => {
          if (live) w.delete();
          live = false;
        },
      };
      return { match, table: first };
    },
    replay: (recordJson) => JSON.parse(m.replay(recordJson)) as ReplayResult,
  };
}
