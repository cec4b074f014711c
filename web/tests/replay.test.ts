// The replay model, the analysis marks and the replay's HTML, on records replayed by the real
// engine (tests/fixtures/replay, made by make-replay-fixtures.mjs with `tarneeb replay` and
// `tarneeb analyze`).
/// <reference types="vite/client" />
import { beforeEach, describe, expect, it } from 'vitest';
import { authHeaders, fetchAnalysis, marksAt, retryDelay, type AnalysisState, type DealAnalysis } from '../src/analysis';
import { historyHtml, emptyHistory, publicUrl, mineUrl } from '../src/history';
import { setLang } from '../src/i18n';
import { parseRoute, replayHash } from '../src/replay';
import { RKEYS, rt } from '../src/replay_i18n';
import {
  buildModel,
  clampStep,
  positionAt,
  ReplayError,
  sliderFraction,
  sliderMax,
  stepFromSlider,
  stepOf,
  type MatchRecord,
  type MatchResult,
  type ReplayModel,
} from '../src/replay_model';
import { analysisHtml, boardHtml, resultLine, sheetHtml, stepCaption } from '../src/replay_view';
import { replayRecord } from '../src/engine_adapter';
import { loadEngine } from '../src/engine';
import { nodeEngineOptions } from './wasm_node.mjs';

const files = import.meta.glob<unknown>('./fixtures/replay/*.json', { eager: true, import: 'default' });
const load = <T>(name: string): T => {
  const f = files[`./fixtures/replay/${name}.json`];
  if (!f) throw new Error(`fixture ${name} missing: node tests/fixtures/make-replay-fixtures.mjs`);
  return structuredClone(f) as T;
};
const fixture = (name: string) => load<{ record: MatchRecord; result: MatchResult }>(name);
const model = (name: string): ReplayModel => {
  const f = fixture(name);
  return buildModel(f.record, f.result);
};

beforeEach(() => setLang('en'));

describe('the steps of a match', () => {
  it('has one step per dealt position, call, trump and card, deal after deal', () => {
    const m = model('rec0020');
    const expected = m.result.deals.reduce((n, d) => n + 1 + d.auction.length + (d.trump ? 1 + d.play.length : 0), 0);
    expect(m.steps).toHaveLength(expected);
    m.result.deals.forEach((d, i) => {
      expect(m.steps[m.dealStarts[i]]).toEqual({ deal: i, kind: 'deal', calls: 0, trump: false, cards: 0 });
      const s = stepOf(m, i, d.play.length)!;
      expect(m.steps[s]).toMatchObject({ deal: i, kind: 'card', cards: 52 });
      expect(m.steps[stepOf(m, i, 0)!].kind).toBe('trump');
    });
  });

  it('at the end of each deal shows the engine’s tricks, the deal’s totals and the sheet so far', () => {
    for (const name of ['rec0020', 'rec0044']) {
      const m = model(name);
      m.result.deals.forEach((d, i) => {
        const end = i + 1 < m.dealStarts.length ? m.dealStarts[i + 1] - 1 : sliderMax(m);
        const p = positionAt(m, end);
        expect(p.deal).toBe(i);
        expect(p.dealOver).toBe(true);
        if (!d.passed_out) expect(p.tricks).toEqual(d.tricks);
        expect(p.scores).toEqual(d.totals);
        expect(p.sheet.lines.length).toBe(m.result.deals.slice(0, i + 1).filter((x) => x.made !== null).length);
        expect(p.hands.every((h) => h.length === 0) || d.passed_out).toBe(true);
        // the first step of the deal: thirteen cards each, the previous deals' totals
        const start = positionAt(m, m.dealStarts[i]);
        expect(start.hands.map((h) => h.length)).toEqual([13, 13, 13, 13]);
        expect(start.scores).toEqual(i === 0 ? [0, 0] : m.result.deals[i - 1].totals);
        expect(start.action).toBeNull();
      });
    }
  });

  it('takes every played card out of the hand that held it, and shows the trick as the engine played it', () => {
    const m = model('rec0044');
    const d = m.result.deals[1];
    for (let k = 0; k <= 52; k++) {
      const p = positionAt(m, stepOf(m, 1, k)!);
      const played = d.play.slice(0, k);
      expect(p.hands.flat().length).toBe(52 - k);
      for (const c of played) expect(p.hands.flat()).not.toContain(c);
      expect(p.cardsPlayed).toBe(k);
      if (k === 0) {
        expect(p.trick).toBeNull();
        expect(p.toPlay).toBe(d.trick_list![0].leader);
        continue;
      }
      const t = d.trick_list![Math.ceil(k / 4) - 1];
      expect(p.trick!.cards).toEqual(t.cards.slice(0, k % 4 || 4));
      expect(p.trick!.winner).toBe(k % 4 === 0 ? t.winner : null);
      expect(p.action).toEqual({ kind: 'card', ...t.cards[(k - 1) % 4] });
      if (k < 52) expect(p.toPlay).toBe(d.trick_list![Math.floor(k / 4)].cards[k % 4].seat);
      else expect(p.toPlay).toBeNull();
    }
  });

  it('gives the calls their seats from the player after the dealer, and the contract once the auction is over', () => {
    const m = model('rec0020');
    const d = m.result.deals[0];
    const p = positionAt(m, m.dealStarts[0] + d.auction.length);
    expect(p.calls.map((c) => c.call)).toEqual(d.auction);
    expect(p.calls.map((c) => c.seat)).toEqual(d.auction.map((_, i) => (d.dealer + 1 + i) % 4));
    expect(p.contract).toBeNull(); // the trump is not named yet
    const q = positionAt(m, stepOf(m, 0, 0)!);
    expect(q.contract).toEqual({ seat: d.declarer, bid: d.bid });
    expect(q.trump).toBe(d.trump);
    expect(q.action).toEqual({ kind: 'trump', seat: d.declarer, trump: d.trump });
  });

  it('ends a passed-out deal with its last call, and has no card steps for it', () => {
    const m = model('rec0008');
    const i = m.result.deals.findIndex((d) => d.passed_out);
    expect(i).toBeGreaterThanOrEqual(0);
    const d = m.result.deals[i];
    expect(stepOf(m, i, 0)).toBeNull();
    const p = positionAt(m, m.dealStarts[i] + d.auction.length);
    expect(p.passedOut && p.auctionOver && p.dealOver).toBe(true);
    expect(p.trump).toBeNull();
    expect(stepCaption(m, p)).toContain(rt('passedOut'));
  });

  it('shows the match’s result at the last step of a finished match only', () => {
    const m = model('rec0020');
    const end = positionAt(m, sliderMax(m));
    expect(end.matchOver).toBe(true);
    expect(end.scores).toEqual(m.result.totals);
    expect(positionAt(m, sliderMax(m) - 1).matchOver).toBe(false);
    const line = resultLine(m);
    expect(line).toContain(`${m.result.winner === 0 ? 'Team A' : 'Team B'} wins`);
    expect(boardHtml(m, end, null)).toContain('data-testid="replay-result"');
    expect(sheetHtml(m, end)).toContain(String(m.result.totals[0]));
    // an unfinished match never says it is over
    const u = model('rec0008');
    expect(u.result.status).toBe('in_progress');
    expect(positionAt(u, sliderMax(u)).matchOver).toBe(false);
  });

  it('maps the slider to the steps and back', () => {
    const m = model('rec0044');
    expect(sliderMax(m)).toBe(m.steps.length - 1);
    expect(stepFromSlider(m, '0')).toBe(0);
    expect(stepFromSlider(m, String(sliderMax(m)))).toBe(sliderMax(m));
    expect(stepFromSlider(m, '99999')).toBe(sliderMax(m));
    expect(stepFromSlider(m, '-3')).toBe(0);
    expect(stepFromSlider(m, 'x')).toBe(0);
    expect(clampStep(m, 12.4)).toBe(12);
    expect(sliderFraction(m, 0)).toBe(0);
    expect(sliderFraction(m, sliderMax(m))).toBe(1);
    for (const k of [0, 17, 200, sliderMax(m)]) expect(positionAt(m, stepFromSlider(m, String(k))).step).toBe(k);
  });

  it('refuses a rejected record and a result without trick winners', () => {
    const r = fixture('rec0001');
    expect(r.result.ok).toBe(false);
    expect(() => buildModel(r.record, r.result)).toThrowError(ReplayError);
    const f = fixture('rec0020');
    const old = { ...f.result, deals: f.result.deals.map((d) => ({ ...d, trick_list: undefined })) };
    try {
      buildModel(f.record, old);
      expect.unreachable();
    } catch (e) {
      expect((e as ReplayError).code).toBe('no_tricks');
    }
  });

  it('reads hands written in any case and with 10 for T', () => {
    const f = fixture('rec0020');
    const rec = { ...f.record, deals: f.record.deals.map((d) => ({ ...d, hands: d.hands.map((h) => (typeof h === 'string' ? h : h.join(' ')).toLowerCase().replace(/t([shdc])/g, '10$1')) })) };
    expect(positionAt(buildModel(rec, f.result), 0).hands).toEqual(positionAt(buildModel(f.record, f.result), 0).hands);
  });
});

// The analysis endpoint's shape (docs/protocol.md), filled with `tarneeb analyze`'s values for
// the same positions: `tricks` = the declarer's team's tricks after that card.
function analysisFromCli(m: ReplayModel): DealAnalysis {
  const cli = load<{
    positions: { after: number; to_play: number; cards: { card: string; declarer_tricks: number }[] }[];
  }>('rec0020.analyze');
  const d = m.result.deals[0];
  return {
    match: 'm1', deal: 0, declarer: d.declarer!, bid: d.bid!, trump: d.trump!, made: d.made!, taken: d.tricks, par: { bid: 9, trump: 'S', declarer: 1, tricks: 9 },
    positions: cli.positions.map((p) => ({
      index: p.after, seat: p.to_play as 0, played: d.play[p.after], best: null, cost: 0,
      cards: p.cards.map((c) => ({ card: c.card, tricks: c.declarer_tricks })),
    })),
    turning_point: { index: 5, seat: 1, cost: 1, makes: false },
  };
}

describe('the analysis board', () => {
  it('marks each legal card of the player to play with its value, and the cards that cost tricks', () => {
    const m = model('rec0020');
    const a = analysisFromCli(m);
    let marked = 0;
    for (const p of a.positions) {
      const mk = marksAt(a, p.index)!;
      expect(mk.seat).toBe(p.seat);
      const vals = p.cards.map((c) => c.tricks);
      const side = p.seat % 2 === m.result.deals[0].declarer! % 2;
      const best = side ? Math.max(...vals) : Math.min(...vals);
      for (const c of mk.cards) {
        expect(c.loss).toBe(side ? best - c.tricks : c.tricks - best);
        expect(c.loss).toBeGreaterThanOrEqual(0);
      }
      expect(mk.cards.some((c) => c.loss === 0)).toBe(true);
      // on the board: the seat to play's cards carry the CLI's values, the others none
      const pos = positionAt(m, stepOf(m, 0, p.index)!);
      expect(pos.toPlay).toBe(p.seat);
      const html = boardHtml(m, pos, { status: 'ready', data: a });
      for (const c of p.cards) {
        const re = new RegExp(`data-card="${c.card}" data-value="(\\d+)" data-loss="(\\d+)"`);
        const hit = re.exec(html);
        expect(hit, c.card).not.toBeNull();
        expect(Number(hit![1])).toBe(c.tricks);
        if (Number(hit![2]) > 0) marked++;
      }
      expect((html.match(/data-value=/g) ?? []).length).toBe(p.cards.length);
    }
    expect(marked).toBeGreaterThan(0); // some card in these 13 positions costs a trick
    expect(marksAt(a, 40)).toBeNull();
  });

  it('shows par beside the bid and what was made, and the turning point with a way there', () => {
    const m = model('rec0020');
    const a = analysisFromCli(m);
    const pos = positionAt(m, stepOf(m, 0, 3)!);
    const html = analysisHtml(m, pos, { status: 'ready', data: a }, true);
    expect(html).toContain('data-testid="par"');
    expect(html).toContain(rt(a.made ? 'made' : 'set'));
    expect(html).toContain(`data-step="${stepOf(m, 0, 5)}"`);
    expect(html).toContain(rt('tpLost'));
    expect(analysisHtml(m, pos, { status: 'ready', data: { ...a, turning_point: null } }, true)).toContain(rt('noTurningPoint'));
    expect(analysisHtml(m, pos, { status: 'pending', phase: 'running' }, true)).toContain(rt('analysing'));
    expect(analysisHtml(m, pos, { status: 'error', code: 'analysis_busy' }, true)).toContain(rt('analysisBusy'));
    expect(analysisHtml(m, pos, { status: 'error', code: 'not_found' }, true)).toContain(rt('analysisNotFound'));
    expect(analysisHtml(m, pos, null, false)).toContain(rt('analysisLocal'));
    expect(analysisHtml(m, pos, null, true)).toContain('data-ract="analyse"');
  });

  it('asks again after 202 with retry_after_ms, until 200; 503 and 404 are errors', async () => {
    const answers = [
      { status: 202, body: { status: 'queued', retry_after_ms: 250 } },
      { status: 202, body: { status: 'running', retry_after_ms: 400 } },
      { status: 200, body: { match: 'm1', deal: 2, positions: [] } },
    ];
    const urls: string[] = [];
    const waits: number[] = [];
    const states: AnalysisState[] = [];
    const fetchFn = async (u: string) => {
      urls.push(u);
      const a = answers.shift()!;
      return { status: a.status, json: async () => a.body };
    };
    const end = await fetchAnalysis('m 1', 2, (s) => states.push(s), { fetchFn, wait: async (ms) => void waits.push(ms) });
    expect(urls).toEqual(Array(3).fill('/api/matches/m%201/analysis?deal=2'));
    expect(waits).toEqual([250, 400]);
    expect(states.map((s) => (s.status === 'pending' ? s.phase : s.status))).toEqual(['queued', 'running', 'ready']);
    expect(end.status).toBe('ready');
    const one = (status: number, body: unknown) => async () => ({ status, json: async () => body });
    expect(await fetchAnalysis('m', 0, () => {}, { fetchFn: one(503, { error: 'analysis_busy' }) })).toEqual({ status: 'error', code: 'analysis_busy' });
    expect(await fetchAnalysis('m', 0, () => {}, { fetchFn: one(404, { error: 'no_such_match' }) })).toEqual({ status: 'error', code: 'not_found' });
    expect(await fetchAnalysis('m', 0, () => {}, { fetchFn: one(422, { status: 'failed', error: 'too_slow' }) })).toEqual({ status: 'error', code: 'failed', message: 'too_slow' });
    expect(retryDelay(undefined)).toBe(1000);
    expect(retryDelay(1)).toBe(100);
    expect(retryDelay(60000)).toBe(5000);
  });

  it('sends the stored token with /api/ reads, and nothing else', () => {
    const store = (v: string | null) => ({ getItem: () => v }) as unknown as Storage;
    expect(authHeaders(store(JSON.stringify('0123456789abcdef0123456789abcdef')))).toEqual({
      Authorization: 'Bearer 0123456789abcdef0123456789abcdef',
    });
    expect(authHeaders(store(null))).toEqual({});
    expect(authHeaders(store(JSON.stringify('x\r\nX-Evil: 1')))).toEqual({});
    expect(authHeaders(undefined)).toEqual({});
  });
});

describe('routes, history and languages', () => {
  it('reads the shareable replay URL and writes it', () => {
    expect(parseRoute('#/history')).toEqual({ screen: 'history' });
    expect(parseRoute('#/replay/m42')).toEqual({ screen: 'replay', id: 'm42', step: null });
    expect(parseRoute(replayHash('m 42', 17))).toEqual({ screen: 'replay', id: 'm 42', step: 17 });
    // the address counts steps from 1, as the page does ("Step 18/…"); an older /0 is the first step
    expect(replayHash('m42', 0)).toBe('#/replay/m42/1');
    expect(replayHash('m42', 17)).toBe('#/replay/m42/18');
    expect(parseRoute('#/replay/m42/1')).toEqual({ screen: 'replay', id: 'm42', step: 0 });
    expect(parseRoute('#/replay/m42/0')).toEqual({ screen: 'replay', id: 'm42', step: 0 });
    expect(parseRoute('#/replay')).toEqual({ screen: 'replay', id: null, step: null });
    expect(parseRoute('')).toBeNull();
    expect(parseRoute('#/')).toBeNull();
  });

  it('lists matches as links to their replays, with a more button while there are more', () => {
    const h = {
      ...emptyHistory(), pubLoaded: true, next: 'm7', mine: [{ id: 'm9', finished: 1764590000000, seat: 1, status: 'won', winner: 1 as const, scores: [12, 31] as [number, number] }],
      pub: [{ id: 'm8', finished: 1764590000000, rules: 'classic', players: ['Ali', 'heuristic 1', 'Huda', 'heuristic 3'], status: 'won', winner: 0 as const, scores: [31, -4] as [number, number] }],
    };
    const html = historyHtml(h, 'Me');
    expect(html).toContain('href="#/replay/m9"');
    expect(html).toContain('href="#/replay/m8"');
    expect(html).toContain('Ali');
    expect(html).toContain('Team B wins · you won'); // seat 1 is team B
    expect(html).toContain('Classic');
    expect(html).toContain('data-ract="more"');
    expect(historyHtml({ ...h, next: null }, null)).not.toContain('data-ract="more"');
    expect(historyHtml(h, null)).toContain(rt('signInForMine'));
    expect(publicUrl(null)).toBe('/api/matches?limit=20');
    expect(publicUrl('m7')).toBe('/api/matches?limit=20&before=m7');
    expect(mineUrl('ليلى')).toBe(`/api/players/${encodeURIComponent('ليلى')}/matches`);
  });

  it('has every string in both languages, Arabic in Eastern digits and the game’s words', () => {
    for (const k of RKEYS) {
      expect(rt(k, 'en'), k).not.toBe('');
      expect(rt(k, 'ar'), k).not.toBe('');
    }
    setLang('ar');
    const m = model('rec0020');
    const p = positionAt(m, stepOf(m, 0, 4)!);
    const cap = stepCaption(m, p);
    expect(cap).toMatch(/التوزيعة ١/);
    expect(boardHtml(m, p, null)).toContain('الحكم');
    expect(boardHtml(m, p, null)).toContain('dir="ltr"'); // the table and the hands keep their physical places
  });
});

describe('a record file through the engine adapter', () => {
  it('takes the engine’s result as text or parsed', async () => {
    const f = fixture('rec0020');
    const text = JSON.stringify(f.record);
    expect(await replayRecord(text, async () => ({ replay: () => JSON.stringify(f.result) }))).toEqual(f.result);
    expect(await replayRecord(text, async () => ({ replay: () => f.result }))).toEqual(f.result);
  });

  it('replays a record with the WebAssembly engine to the result `tarneeb replay` gives, trick list included', async () => {
    const load = () => loadEngine(nodeEngineOptions());
    for (const name of ['rec0020', 'rec0044', 'rec0008']) {
      const f = fixture(name);
      const text = JSON.stringify(f.record);
      const r = await replayRecord(text, load);
      expect(r.totals).toEqual(f.result.totals);
      expect(r.deals.map((d) => d.trick_list)).toEqual(f.result.deals.map((d) => d.trick_list));
      const a = buildModel(f.record, r);
      const b = buildModel(f.record, f.result);
      for (const k of [0, 9, 60, sliderMax(b)]) expect(positionAt(a, k)).toEqual(positionAt(b, k));
    }
    const bad = await replayRecord(JSON.stringify(fixture('rec0001').record), load);
    expect(bad.ok).toBe(false);
  });
});
