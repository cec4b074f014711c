// Offline play (issue 14): a whole match against three heuristic bots with no server, run by
// the WebAssembly engine (engine.ts). It feeds the app the same `table` messages the server
// sends (docs/protocol.md), so the table view is the online game's. The bots act one action
// at a time, `botDelayMs` apart, so that the human can follow the cards, and wait for the round
// summary after a deal as the server's bots do (`summary_ms` in the table message).
import { loadEngine, randomSeed, type Engine, type HintReply, type OfflineMatch, type Reply } from './engine';
import type { Action, TableView } from './protocol';

/** What the app gives an offline game: where its table messages and refusals go. */
export interface OfflineHost {
  /** A table message, exactly as if the server had sent it. */
  table(t: TableView): void;
  /** A refused action or a failure (a stable code: the server's, or `engine_unavailable`). */
  error(code: string, message?: string): void;
}

export interface OfflineOptions {
  preset: 'levantine' | 'classic';
  target: number;
  name: string;
  /** The pause before each bot action, ms (default 700). */
  botDelayMs?: number;
  /** The round summary's pause, ms (default 4000, as the server's: engine.ts OfflineSettings). */
  summaryMs?: number;
}

let enginePromise: Promise<Engine> | null = null;

/** The page's one engine, loaded on first use (a failed load is tried again next time). */
export function pageEngine(): Promise<Engine> {
  if (!enginePromise) enginePromise = loadEngine().catch((e) => {
    enginePromise = null;
    throw e;
  });
  return enginePromise;
}

/** One offline match at a time; `restart` plays another with the same settings. */
export class OfflineGame {
  private match: OfflineMatch | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private last: TableView | null = null;

  constructor(
    private engine: Engine,
    private host: OfflineHost,
    private options: OfflineOptions,
  ) {}

  /** Deals a new match (a fresh seed from crypto.getRandomValues). */
  restart(): void {
    this.stop();
    const { preset, target, name, summaryMs } = this.options;
    const { match, table } = this.engine.startMatch({
      preset, target, name, seed: randomSeed(), ...(summaryMs === undefined ? {} : { summary_ms: summaryMs }),
    });
    this.match = match;
    this.show(table);
  }

  /** The human's action; a refusal changes nothing and is reported with its code. */
  act(action: Action): void {
    if (!this.match) return;
    this.show(this.match.act(action));
  }

  /** The heuristic bot's choice for the human's turn (the server's `hint`), or null when there is none. */
  hint(): HintReply | null {
    return this.match ? this.match.hint() : null;
  }

  /** Ends the match and frees it. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.match?.dispose();
    this.match = null;
    this.last = null;
  }

  private show(r: Reply): void {
    if (r.type === 'error') {
      this.host.error(r.code, r.message);
      return;
    }
    this.last = r;
    this.host.table(r);
    this.schedule();
  }

  /** While a bot is to act, one step after the delay (and after the round summary's pause, `summary_ms`, as online). */
  private schedule(): void {
    const t = this.last;
    if (this.timer || !t || t.state !== 'playing' || !t.round || t.round.to_act === null || t.round.to_act === t.you) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.match) this.show(this.match.step());
    }, (t.summary_ms ?? 0) + (this.options.botDelayMs ?? 700));
  }
}
