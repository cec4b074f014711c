// The WebAssembly engine (wasm/offline.cpp through src/engine.ts), loaded in Node: a whole
// offline match to its end, refusals that change nothing, hidden hands, and `replay` against
// the shared record examples' expected results (what `tarneeb replay` is checked against).
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEngine, type Engine, type OfflineMatch } from '../src/engine';
import { OFFLINE_LEVELS } from '../src/bot_levels';
import type { Action, TableView } from '../src/protocol';
import { nodeEngineOptions, readRecord, recordNames } from './wasm_node.mjs';

let engine: Engine;
beforeAll(async () => {
  engine = await loadEngine(nodeEngineOptions());
});

/** Plays until the match is over: the human takes its first legal action, the bots step. */
function playOut(match: OfflineMatch, first: TableView, limit = 20000): { last: TableView; steps: number; views: TableView[] } {
  let tv = first;
  let steps = 0;
  const views: TableView[] = [first];
  while (tv.state === 'playing' && steps < limit) {
    steps++;
    const r = tv.round!.to_act === 0 ? match.act(tv.legal[0]) : match.step();
    if (r.type === 'error') throw new Error(`${r.code} at version ${tv.version}`);
    tv = r;
    views.push(tv);
  }
  return { last: tv, steps, views };
}

describe('offline match', () => {
  it('plays a whole levantine match to match over through the Engine interface', () => {
    const { match, table } = engine.startMatch({ preset: 'levantine', target: 31, seed: '5eed', name: 'Layla' });
    expect(table.type).toBe('table');
    expect(table.you).toBe(0);
    expect(table.seats.map((s) => s?.bot)).toEqual([false, true, true, true]);
    expect(table.seats[1]?.kind).toBe('heuristic');
    const { last, views } = playOut(match, table);
    expect(last.state).toBe('finished');
    expect(last.result?.status).toBe('won');
    expect(Math.max(...last.scores)).toBeGreaterThanOrEqual(31);
    const over = views.flatMap((v) => v.events).filter((e) => e.event === 'match_over');
    expect(over).toHaveLength(1);
    // the human is only ever offered actions on its turn, and the round shows its hand only
    for (const v of views) {
      if (v.legal.length) expect(v.round?.to_act).toBe(0);
      expect(Object.keys(v.round ?? {})).not.toContain('hands');
    }
    match.dispose();
  });

  it('plays a classic match with a low target, and the same seed plays the same match', () => {
    const run = () => {
      const { match, table } = engine.startMatch({ preset: 'classic', target: 5, seed: 'c1a551c' });
      const { last, views } = playOut(match, table);
      match.dispose();
      return { last, cards: views.flatMap((v) => v.events).filter((e) => e.event === 'card') };
    };
    const a = run();
    const b = run();
    expect(a.last.state).toBe('finished');
    expect(a.last.preset).toBe('classic');
    expect(a.cards.length).toBeGreaterThan(0);
    expect(b.cards).toEqual(a.cards);
    expect(b.last.scores).toEqual(a.last.scores);
  });

  it('has the offline levels (OFFLINE_LEVELS: easy, medium, hard) and refuses the others as bad_settings', () => {
    for (const level of OFFLINE_LEVELS) {
      const { match, table } = engine.startMatch({ target: 5, seed: '1e7e1', level });
      expect(table.seats[1]?.kind).toBe(level === 'medium' ? 'heuristic' : level); // medium seats the heuristic, as before the levels
      const { last } = playOut(match, table);
      expect(last.state).toBe('finished');
      match.dispose();
    }
    for (const level of ['expert', 'random', 'pimc', 'learned', 'heuristic']) {
      expect(() => engine.startMatch({ target: 5, seed: '1', level: level as 'easy' })).toThrow('bad_settings');
    }
  });

  it('never sends another seat\'s cards: the hand is seat 0\'s, every other card shown was played', () => {
    const { match, table } = engine.startMatch({ target: 5, seed: 'abcdef0123456789' });
    const { views } = playOut(match, table);
    for (const v of views) {
      const r = v.round;
      if (!r) continue;
      expect(r.hand!.length).toBe(r.cards_left[0]);
      const played = new Set(r.plays.map((p) => p.card));
      for (const p of r.plays) expect(r.hand).not.toContain(p.card);
      for (const tr of r.finished_tricks ?? []) for (const c of tr.cards) expect(played.has(c.card)).toBe(true);
      // every card named anywhere in the message (but its history) is seat 0's or was played
      const known = new Set([...r.hand!, ...r.plays.map((p) => p.card), ...v.events.flatMap((e) => (e.event === 'card' ? [e.card] : []))]);
      const { history, ...rest } = v as typeof v & { history?: { number: number; tricks: { cards: { card: string }[]; winner: number | null }[] }[] };
      for (const m of JSON.stringify(rest).matchAll(/"([2-9TJQKA][SHDC])"/g)) expect(known.has(m[1]), m[1]).toBe(true);
      // the history holds only finished rounds, each with all 13 tricks played (52 cards) or none (passed out)
      for (const h of history ?? []) {
        expect(h.number).toBeLessThanOrEqual(r.number);
        const cards = h.tricks.flatMap((t) => t.cards.map((c) => c.card));
        expect([0, 52]).toContain(new Set(cards).size);
        for (const t of h.tricks) expect(t.winner).not.toBeNull();
      }
    }
    match.dispose();
  });

  it('a refused action leaves the match unchanged, with the engine\'s error code', () => {
    const { match, table } = engine.startMatch({ target: 31, seed: '42' });
    let tv = table;
    while (tv.round!.to_act !== 0) {
      const r = match.step();
      if (r.type === 'error') throw new Error(r.code);
      tv = r;
    }
    const before = match.table();
    // out of turn for the bots now; an unreadable action; a bid above the range; a card in the auction
    expect(match.step()).toMatchObject({ type: 'error', code: 'out_of_turn' });
    expect(match.act({ call: 'maybe' } as unknown as Action)).toMatchObject({ type: 'error', code: 'bad_action' });
    expect(match.act({ call: 14 })).toMatchObject({ type: 'error', code: 'bad_bid' });
    expect(match.act({ card: before.round!.hand![0] })).toMatchObject({ type: 'error', code: 'auction_open' });
    const after = match.table();
    expect({ ...after, now_ms: 0 }).toEqual({ ...before, now_ms: 0 });
    // and the legal action is still accepted
    const ok = match.act(before.legal[0]);
    expect(ok.type).toBe('table');
    expect((ok as TableView).version).toBeGreaterThan(before.version);
    match.dispose();
  });

  it('pauses for the round summary as the server does, and a step during it plays at once', () => {
    const { match, table } = engine.startMatch({ target: 31, seed: '99', summary_ms: 4000 });
    let tv = table;
    let sawPause = false;
    for (let i = 0; i < 2000 && tv.state === 'playing' && !sawPause; i++) {
      const r = tv.round!.to_act === 0 ? match.act(tv.legal[0]) : match.step();
      if (r.type === 'error') throw new Error(r.code);
      if (r.events.some((e) => e.event === 'round_scored' || e.event === 'passed_out')) {
        // the deal that follows waits for the summary: the message says for how long
        expect(r.summary_ms).toBeGreaterThan(0);
        expect(r.summary_ms).toBeLessThanOrEqual(4000);
        sawPause = true;
      }
      tv = r;
    }
    expect(sawPause).toBe(true);
    if (tv.round!.to_act !== 0) expect(match.step().type).toBe('table');
    match.dispose();
  });

  it('hints the heuristic bot\'s choice on seat 0\'s turn only, one of the legal actions', () => {
    const { match, table } = engine.startMatch({ target: 31, seed: 'b1' });
    let tv = table;
    for (let n = 0; n < 3; ) {
      if (tv.round!.to_act === 0) {
        const h = match.hint();
        if (h.type !== 'hint') throw new Error(h.code);
        expect(h.version).toBe(tv.version);
        expect(tv.legal).toContainEqual(h.action);
        const r = match.act(h.action);
        if (r.type === 'error') throw new Error(r.code);
        tv = r;
        n++;
      } else {
        expect(match.hint()).toMatchObject({ type: 'error', code: 'out_of_turn' });
        const r = match.step();
        if (r.type === 'error') throw new Error(r.code);
        tv = r;
      }
    }
    match.dispose();
  });

  it('refuses bad settings', () => {
    expect(() => engine.startMatch({ seed: 'not hex' })).toThrow('bad_settings');
    expect(() => engine.startMatch({ seed: '1', target: 0 })).toThrow('bad_settings');
    expect(() => engine.startMatch({ seed: '1', preset: 'bridge' as 'classic' })).toThrow('bad_settings');
    expect(() => engine.startMatch({ seed: '1', summary_ms: -1 })).toThrow('bad_settings');
    expect(() => engine.startMatch({ seed: '1', name: 7 as unknown as string })).toThrow('bad_settings');
  });
});

describe('replay', () => {
  /** The normative fields of tarneeb-result/1 (docs/record-format.md "Result"). */
  const normative = (r: Record<string, unknown>) => {
    if (!r.ok) return { ok: false, error: r.error };
    const keys = ['dealer', 'passed_out', 'declarer', 'bid', 'trump', 'tricks', 'made', 'points', 'totals', 'auction', 'play'];
    return {
      ok: true,
      status: r.status,
      winner: r.winner,
      tiebreak: r.tiebreak ?? false,
      totals: r.totals,
      scored_rounds: r.scored_rounds,
      deals: (r.deals as Record<string, unknown>[]).map((d) => Object.fromEntries(keys.map((k) => [k, d[k]]))),
    };
  };

  it('gives every record example its expected result (as tarneeb replay does)', () => {
    const names = recordNames();
    expect(names.length).toBeGreaterThanOrEqual(100);
    for (const name of names) {
      const { text, expected } = readRecord(name);
      expect(normative(engine.replay(text) as unknown as Record<string, unknown>), name).toEqual(normative(expected));
    }
  });

  it('rejects what is not a record', () => {
    expect(engine.replay('not json')).toMatchObject({ ok: false, error: { code: 'bad_format', phase: 'record' } });
  });
});
