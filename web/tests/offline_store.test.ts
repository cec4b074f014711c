// An offline match kept across a reload (offline_store.ts, issue 28): the record of the person's
// actions, replayed by the real WebAssembly engine, gives the same match; OfflineGame keeps the
// record after each action and resumes from it.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEngine, type Engine, type OfflineMatch } from '../src/engine';
import { OfflineGame } from '../src/offline';
import { botToAct, loadRecord, newRecord, replayRecord, saveRecord, withAction, OFFLINE_KEY, type OfflineRecord } from '../src/offline_store';
import type { TableView } from '../src/protocol';
import { memoryStorage } from './memory_storage';
import { nodeEngineOptions } from './wasm_node.mjs';

let engine: Engine;
beforeAll(async () => {
  engine = await loadEngine(nodeEngineOptions());
});

/** The table without what depends on the clock. */
const still = (t: TableView) => ({ ...t, now_ms: 0, events: [], summary_ms: undefined, remaining_ms: undefined });

/** Plays `n` of the person's actions (the last legal one each time), the bots stepped in between; returns the record and the table. */
function play(match: OfflineMatch, first: TableView, r: OfflineRecord, n: number): { r: OfflineRecord; t: TableView } {
  let t = first;
  for (let i = 0; i < n && t.state === 'playing'; ) {
    if (botToAct(t)) {
      const s = match.step();
      if (s.type === 'error') throw new Error(s.code);
      t = s;
      continue;
    }
    const action = t.legal[t.legal.length - 1];
    const a = match.act(action);
    if (a.type === 'error') throw new Error(a.code);
    r = withAction(r, action);
    t = a;
    i++;
  }
  return { r, t };
}

describe('the offline record', () => {
  it('replays to the same table, and both matches go on alike', () => {
    const settings = { preset: 'levantine' as const, target: 31, seed: '5eed', name: 'Layla', summary_ms: 0 };
    const { match, table } = engine.startMatch(settings);
    const { r, t } = play(match, table, newRecord(settings), 40);
    expect(r.actions.length).toBe(40);
    const again = replayRecord(engine, r);
    expect(again).not.toBeNull();
    const now = match.table();
    expect(still(again!.table)).toEqual(still(now));
    expect(again!.table.version).toBe(t.version);
    // the finished rounds come whole, as a reload from the server gets them
    expect(again!.table.history?.length).toBe(now.history?.length);
    // the two go on with the same bot plays
    const a = play(match, t, r, 15);
    const b = play(again!.match, again!.table, r, 15);
    expect(still(b.t)).toEqual(still(a.t));
    match.dispose();
    again!.match.dispose();
  });

  it('does not replay a record the engine refuses', () => {
    const r = withAction(newRecord({ seed: '1', target: 31 }), { card: 'ZZ' });
    expect(replayRecord(engine, r)).toBeNull();
    expect(replayRecord(engine, newRecord({ seed: 'not hex', target: 31 }))).toBeNull();
  });

  it('is stored and read back; anything else reads as none', () => {
    const store = memoryStorage();
    const r = withAction(newRecord({ seed: 'ab', target: 7 }), { call: 'pass' });
    saveRecord(store, r);
    expect(loadRecord(store)).toEqual(r);
    saveRecord(store, null);
    expect(loadRecord(store)).toBeNull();
    store.setItem(OFFLINE_KEY, '{"format":"other"}');
    expect(loadRecord(store)).toBeNull();
    store.setItem(OFFLINE_KEY, 'not json');
    expect(loadRecord(store)).toBeNull();
  });
});

describe('OfflineGame keeps its match', () => {
  it('keeps the record after each action, resumes it, and forgets it when left', async () => {
    const kept: (OfflineRecord | null)[] = [];
    let shown: TableView[] = [];
    let turn: (t: TableView) => void = () => {};
    const host = {
      table: (t: TableView) => {
        shown.push(t);
        if (t.legal.length) turn(t);
      },
      error: (c: string) => {
        throw new Error(c);
      },
    };
    const options = { preset: 'classic' as const, target: 31, name: 'You', botDelayMs: 0, summaryMs: 0, store: (r: OfflineRecord | null) => kept.push(r) };
    const game = new OfflineGame(engine, host, options);
    const myTurn = () => new Promise<TableView>((resolve) => (turn = resolve));
    let next = myTurn();
    game.restart();
    expect(kept.at(-1)?.actions).toEqual([]);
    // two actions of the person, the bots playing in between by themselves
    for (let i = 0; i < 2; i++) {
      const t = await next;
      next = myTurn();
      game.act(t.legal[0]);
      expect(kept.at(-1)?.actions).toHaveLength(i + 1);
    }
    const record = kept.at(-1)!;
    const afterAct = shown.find((t) => t.version === Math.max(...shown.map((x) => x.version)));
    game.stop();
    expect(kept.at(-1)).toBeNull();
    // a reload: a new game resumes the record where the person's last action left it
    shown = [];
    const resumed = new OfflineGame(engine, host, { ...options, botDelayMs: 60_000 });
    expect(resumed.resume(record)).toBe(true);
    expect(kept.at(-1)).toEqual(record);
    const first = shown[0];
    const replayed = replayRecord(engine, record)!;
    expect(still(first)).toEqual(still(replayed.table));
    expect(first.version).toBeLessThanOrEqual(afterAct!.version);
    replayed.match.dispose();
    resumed.stop();
    expect(kept.at(-1)).toBeNull();
  });

  it('forgets a record that does not replay', () => {
    const kept: (OfflineRecord | null)[] = [];
    const game = new OfflineGame(engine, { table: () => {}, error: () => {} }, { preset: 'levantine', target: 31, name: 'You', store: (r) => kept.push(r) });
    expect(game.resume(withAction(newRecord({ seed: '1', target: 31 }), { card: 'ZZ' }))).toBe(false);
    expect(kept).toEqual([null]);
  });
});
