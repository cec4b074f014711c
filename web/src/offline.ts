// Offline play (issue 14): a whole match against three bots (easy, medium or hard) with no server, run by
// the WebAssembly engine (engine.ts). It feeds the app the same `table` messages the server
// sends (docs/protocol.md), so the table view is the online game's. The bots act one action
// at a time, `botDelayMs` apart, so that the human can follow the cards, and wait for the round
// summary after a deal as the server's bots do (`summary_ms` in the table message).
import { loadEngine, randomSeed, type Engine, type HintReply, type OfflineMatch, type Reply } from './engine';
import type { Action, TableView } from './protocol';
import type { OfflineLevel } from './bot_levels';
import { botToAct, newRecord, replayRecord, withAction, type OfflineRecord } from './offline_store';

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
  /** The bots' level (default medium); kept in the match's record, so a resumed match keeps it. */
  level?: OfflineLevel;
  /** Keeps the match's record after each of the person's actions (offline_store.ts); null: the match is over or left. */
  store?: (r: OfflineRecord | null) => void;
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

/** One offline match at a time; `restart` plays another with the same settings, `resume` a kept one. */
export class OfflineGame {
  private match: OfflineMatch | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private last: TableView | null = null;
  private record: OfflineRecord | null = null;

  constructor(
    private engine: Engine,
    private host: OfflineHost,
    private options: OfflineOptions,
  ) {}

  /** Deals a new match (a fresh seed from crypto.getRandomValues). */
  restart(): void {
    this.stop();
    const { preset, target, name, summaryMs, level } = this.options;
    const settings = {
      preset, target, name, seed: randomSeed(),
      ...(summaryMs === undefined ? {} : { summary_ms: summaryMs }),
      ...(level === undefined ? {} : { level }),
    };
    const { match, table } = this.engine.startMatch(settings);
    this.match = match;
    this.keep(newRecord(settings));
    this.show(table);
  }

  /**
   * Goes on with a kept match (after a reload): its record replayed by the engine, the table as
   * it was after the person's last action, the bots going on from there. False (nothing kept
   * any more) when the record does not replay.
   */
  resume(r: OfflineRecord): boolean {
    this.stop();
    const replayed = replayRecord(this.engine, r);
    if (!replayed) {
      this.options.store?.(null);
      return false;
    }
    this.match = replayed.match;
    this.keep(r);
    this.show(replayed.table);
    return true;
  }

  /** The human's action; a refusal changes nothing and is reported with its code. */
  act(action: Action): void {
    if (!this.match) return;
    const r = this.match.act(action);
    if (r.type !== 'error' && this.record) this.keep(withAction(this.record, action));
    this.show(r);
  }

  /** The heuristic bot's choice for the human's turn (the server's `hint`), or null when there is none. */
  hint(): HintReply | null {
    return this.match ? this.match.hint() : null;
  }

  /** Ends the match and frees it; its record is forgotten. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.match?.dispose();
    this.match = null;
    this.last = null;
    if (this.record) this.keep(null);
  }

  private keep(r: OfflineRecord | null): void {
    this.record = r;
    this.options.store?.(r);
  }

  private show(r: Reply): void {
    if (r.type === 'error') {
      this.host.error(r.code, r.message);
      return;
    }
    this.last = r;
    // a finished match is not resumed: a reload then shows the start screen
    if (r.state === 'finished' && this.record) this.keep(null);
    this.host.table(r);
    this.schedule();
  }

  /** While a bot is to act, one step after the delay (and after the round summary's pause, `summary_ms`, as online). */
  private schedule(): void {
    const t = this.last;
    if (this.timer || !t || !botToAct(t)) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.match) this.show(this.match.step());
    }, (t.summary_ms ?? 0) + (this.options.botDelayMs ?? 700));
  }
}
