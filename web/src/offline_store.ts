// An offline match survives a reload (issue 28): after every action of the person, the match's
// record is kept in localStorage — its settings, its seed and the person's actions in order. The
// engine is deterministic (wasm/offline.cpp: the seed deals every card and seeds the bots, and a
// bot's choice does not depend on the time), so replaying the record gives the same match: the
// same deals, the same bot plays, the same versions. No rule is computed here: each bot turn is
// the engine's `step()`, each of the person's actions its `act()`.
import type { Engine, OfflineMatch, OfflineSettings } from './engine';
import type { Action, TableView } from './protocol';

/** What is kept of an offline match (key `tarneeb.offline`). */
export interface OfflineRecord {
  format: 'tarneeb-offline/1';
  settings: OfflineSettings & { seed: string };
  /** The person's (seat 0's) actions, in order; the bots' are replayed by the engine. */
  actions: Action[];
  /** Unix ms of the last action (for the person's information only). */
  saved_at: number;
}

export const OFFLINE_KEY = 'tarneeb.offline';

/** A new record for a match just started with `settings`. */
export function newRecord(settings: OfflineSettings & { seed: string }, now = Date.now()): OfflineRecord {
  return { format: 'tarneeb-offline/1', settings, actions: [], saved_at: now };
}

/** The record with one more action of the person. */
export function withAction(r: OfflineRecord, action: Action, now = Date.now()): OfflineRecord {
  return { ...r, actions: [...r.actions, action], saved_at: now };
}

/** Stores the record (null forgets it); a full or disabled storage only loses the resume. */
export function saveRecord(store: Storage | undefined, r: OfflineRecord | null): void {
  try {
    if (r) store?.setItem(OFFLINE_KEY, JSON.stringify(r));
    else store?.removeItem(OFFLINE_KEY);
  } catch {
    /* storage full or disabled */
  }
}

/** The stored record, or null when there is none or it is not one. */
export function loadRecord(store: Storage | undefined): OfflineRecord | null {
  try {
    const v = store?.getItem(OFFLINE_KEY);
    if (!v) return null;
    const r = JSON.parse(v) as OfflineRecord;
    if (r?.format !== 'tarneeb-offline/1' || typeof r.settings?.seed !== 'string' || !Array.isArray(r.actions)) return null;
    return r;
  } catch {
    return null;
  }
}

/** Whether a bot is to act in `t` (a playing table whose turn is not the person's). */
export function botToAct(t: TableView): boolean {
  return t.state === 'playing' && !!t.round && t.round.to_act !== null && t.round.to_act !== t.you;
}

/**
 * Plays the record again on a new match of `engine`: from the start, the bots' turns stepped up
 * to each of the person's actions, then the action. Resolves with the match and its table now
 * (with the whole `history`, as a reload from the server gets it); null when the record does not
 * replay (an engine of another build that refuses one of its actions): the match is freed then.
 */
export function replayRecord(engine: Engine, r: OfflineRecord): { match: OfflineMatch; table: TableView } | null {
  let started: { match: OfflineMatch; table: TableView };
  try {
    started = engine.startMatch(r.settings);
  } catch {
    return null;
  }
  const { match } = started;
  let t = started.table;
  for (const action of r.actions) {
    // at most one deal's worth of bot turns in a row (52 cards and the auction): more is a loop
    for (let guard = 0; botToAct(t); guard++) {
      const s = guard < 200 ? match.step() : null;
      if (!s || s.type === 'error') {
        match.dispose();
        return null;
      }
      t = s;
    }
    const a = match.act(action);
    if (a.type === 'error') {
      match.dispose();
      return null;
    }
    t = a;
  }
  return { match, table: { ...match.table(), events: [] } };
}
