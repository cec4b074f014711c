import { describe, expect, it, beforeEach } from 'vitest';
import { botKind, html, lastTrickOf } from '../src/view';
import { localDeadline } from '../src/timer';
import { parseNum, setLang, tableIdOf, tableLabel } from '../src/i18n';
import { emptySheet, sheetFromHistory } from '../src/sheet';
import { summaryTiming, type State } from '../src/app';
import type { TableSummary, TableView } from '../src/protocol';

const table = (over: Partial<TableView> = {}, round: Partial<NonNullable<TableView['round']>> = {}): TableView => ({
  type: 'table', table: 't9', version: 40, state: 'playing', preset: 'levantine', target: 31, turn_seconds: 30,
  private: false, you: 1, spectators: 0, match: 1, scores: [3, -7],
  seats: [
    { name: 'Ali', bot: false, connected: true },
    { name: 'Me', bot: false, connected: true },
    { name: 'heuristic', bot: true, connected: true },
    { name: 'Huda', bot: false, connected: false },
  ],
  round: {
    number: 2, dealer: 0, phase: 'play', to_act: 1, hand: ['AS', '2S', 'KH', '3D', '9C'],
    calls: [{ seat: 1, call: 8 }, { seat: 2, call: 'pass' }, { seat: 3, call: 'pass' }, { seat: 0, call: 'pass' }],
    contract: { seat: 1, bid: 8, defenders_need: 6 }, trump: 'H',
    plays: [
      { seat: 1, card: 'QS' }, { seat: 2, card: '4S' }, { seat: 3, card: '7H' }, { seat: 0, card: 'JS' },
      { seat: 3, card: 'TS' },
    ],
    trick: [{ seat: 3, card: 'TS' }],
    finished_tricks: [
      { leader: 1, cards: [{ seat: 1, card: 'QS' }, { seat: 2, card: '4S' }, { seat: 3, card: '7H' }, { seat: 0, card: 'JS' }], winner: 3 },
    ],
    tricks: [0, 1], cards_left: [12, 12, 12, 11], points: [0, 0], ...round,
  },
  legal: [{ card: 'AS' }, { card: '2S' }],
  deadline_ms: Date.now() + 20000, timeout_action: { card: '2S' }, default_action: { card: '2S' }, bid_range: [7, 13], events: [], ...over,
});

const state = (tv: TableView | null, over: Partial<State> = {}): State => ({
  conn: 'open', lang: 'en', name: 'Me', token: 'x', welcomed: true, busy: false, tables: [], listCursor: null, listPrev: [], listNext: null, listsAsked: 0, listsAnswered: 0, table: tv, codes: {},
  sheet: emptySheet('t9', 1), summary: null, matchOver: null, ratings: null, log: [], error: null, showLastTrick: false,
  showSheet: false, actedVersion: null, hint: null, sound: false, form: { preset: 'levantine', target: 31, timer: 30, priv: false, bots: true },
  nameInput: '', joinId: '', joinCode: '', watching: null, ...over,
});

const cardButton = (out: string, card: string) => new RegExp(`<button class="card[^"]*"[^>]*data-card="${card}"[^>]*>`).exec(out)?.[0] ?? '';

beforeEach(() => setLang('en'));

describe('the table as rendered', () => {
  it('enables exactly the legal cards and dims the others', () => {
    const out = html(state(table()));
    for (const c of ['AS', '2S']) {
      expect(cardButton(out, c)).toContain('playable');
      expect(cardButton(out, c)).not.toContain('disabled');
    }
    for (const c of ['KH', '3D', '9C']) {
      expect(cardButton(out, c)).toContain('dimmed');
      expect(cardButton(out, c)).toContain('disabled');
    }
  });
  it('shows a private table its creator reloaded with the join_code the server sent', () => {
    const out = html(state(table({ state: 'waiting', private: true, join_code: 'K3X9Q2', round: null })));
    expect(out).toContain('K3X9Q2');
    expect(html(state(table({ state: 'waiting', private: true, round: null })))).not.toContain('class="code"');
  });
  it('disables every card while an action is on its way', () => {
    const out = html(state(table(), { actedVersion: 40 }));
    expect(cardButton(out, 'AS')).toContain('disabled');
  });
  it('sorts the hand with the trump first and colours alternating', () => {
    const out = html(state(table()));
    const order = [...out.matchAll(/data-act="card" data-card="(\w\w)"/g)].map((m) => m[1]);
    expect(order).toEqual(['KH', 'AS', '2S', '3D', '9C']);
  });
  it('places the seats around the viewer and shows the trick with who led', () => {
    const out = html(state(table()));
    expect(out).toMatch(/data-seat="2" data-pos="right"/);
    expect(out).toMatch(/data-seat="3" data-pos="top"/);
    expect(out).toMatch(/data-seat="0" data-pos="left"/);
    expect(out).toMatch(/played-top" data-played="TS" data-seat="3">.*led/s); // motion.ts moves it, not the HTML
    // we declared 8: we need 8, they need 6 to set us
    expect(out).toContain('Tricks: Us <b>1</b><span class="muted">/8</span> · Them <b>0</b><span class="muted">/6</span>');
    expect(out).toMatch(/class="countdown/);
  });
  it('shows a spectator no hand and all four backs', () => {
    const out = html(state(table({ you: null, legal: [] }, { hand: undefined })));
    expect(out).not.toContain('data-act="card"');
    expect((out.match(/class="backs"/g) ?? []).length).toBe(4);
    expect(out).toContain('Watching');
  });
  it('offers only the legal bids in the auction', () => {
    const tv = table({ legal: [{ call: 'pass' }, { call: 9 }, { call: 10 }] }, { phase: 'auction', contract: null, trump: null, calls: [{ seat: 0, call: 8 }], plays: [], trick: [] });
    const out = html(state(tv));
    expect(out).toMatch(/data-bid="8" disabled/);
    expect(out).toMatch(/data-bid="9" >/);
    expect(out).toMatch(/data-bid="pass" >/);
  });
  it('heads the auction with the standing bid the server sends, else the calls', () => {
    const auction = { phase: 'auction' as const, contract: null, trump: null, plays: [], trick: [] };
    const head = (out: string) => /<h2>Auction([^<]*)<\/h2>/.exec(out)?.[1];
    const withField = table({ legal: [] }, { ...auction, calls: [{ seat: 0, call: 8 }], standing_bid: { bid: 9, seat: 2 } });
    expect(head(html(state(withField)))).toBe(' · Bid 9');
    const noBid = table({ legal: [] }, { ...auction, calls: [{ seat: 0, call: 'pass' }], standing_bid: null });
    expect(head(html(state(noBid)))).toBe('');
    const olderServer = table({ legal: [] }, { ...auction, calls: [{ seat: 0, call: 8 }] });
    expect(head(html(state(olderServer)))).toBe(' · Bid 8');
  });
  it('lists the calls in the places of the seats: you and right below, partner and left above, left on the left', () => {
    const auction = { phase: 'auction' as const, contract: null, trump: null, plays: [], trick: [], calls: [{ seat: 2 as const, call: 7 as const }] };
    for (const lang of ['en', 'ar'] as const) {
      setLang(lang);
      for (const you of [0, 1, 2, 3] as const) {
        const out = html(state(table({ you, legal: [] }, auction), { lang }));
        expect(out).toContain('<div class="calls" dir="ltr">');
        const rows = [...out.matchAll(/class="calls-row calls-(\w+)" data-calls="(\d)" dir="(\w+)" style="grid-area:(\d)\/(\d)"/g)];
        // in the order of play from you, as the table places them
        expect(rows.map((m) => Number(m[2]))).toEqual([0, 1, 2, 3].map((k) => (you + k) % 4));
        const cell = Object.fromEntries(rows.map((m) => [m[1], `${m[4]}/${m[5]}`]));
        expect(cell).toEqual({ bottom: '2/1', right: '2/2', top: '1/2', left: '1/1' });
        for (const m of rows) expect(m[3]).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      }
    }
  });
  it('suggests the longest suit to the declarer', () => {
    const tv = table(
      { legal: [{ trump: 'S' }, { trump: 'H' }, { trump: 'D' }, { trump: 'C' }], timeout_action: null, default_action: { trump: 'C' } },
      { phase: 'trump', trump: null, plays: [], trick: [], hand: ['2C', '3C', '4C', 'AS', 'KH'] },
    );
    expect(html(state(tv))).toMatch(/suit-btn suggested" data-act="trump" data-suit="C"/);
  });
  it('is right to left in Arabic with the game words and Arabic digits', () => {
    setLang('ar');
    const out = html(state(table(), { lang: 'ar' }));
    expect(out).toContain('الحكم');
    expect(out).toContain('اللفات');
    expect(out).toContain('٣'); // score 3
  });
});

describe('the hand as rendered', () => {
  const thirteen = ['AS', 'KS', 'QS', 'JS', 'AH', 'KH', 'QH', 'AC', 'KC', 'QC', 'AD', 'KD', 'QD'];
  const rows = (out: string) =>
    [...out.matchAll(/<div class="hand-row">(.*?)<\/div>/gs)].map((m) => [...m[1].matchAll(/data-card="(\w\w)"/g)].map((c) => c[1]));
  it('is two rows on a phone, in the sorted order, sized by handLayout', () => {
    const out = html(state(table({}, { hand: thirteen })), { w: 360, h: 740 });
    const r = rows(out);
    expect(r.map((x) => x.length)).toEqual([7, 6]);
    expect(r.flat().length).toBe(13);
    const step = Number(/--card-step:([\d.]+)px/.exec(out)?.[1]);
    expect(step).toBeGreaterThanOrEqual(44);
  });
  it('is one row on a desktop', () => {
    expect(rows(html(state(table({}, { hand: thirteen })), { w: 1280, h: 800 })).map((x) => x.length)).toEqual([13]);
  });
});

describe('cards on the table in Arabic', () => {
  it('render the played cards and the last trick left to right, as in English', () => {
    setLang('ar');
    const out = html(state(table(), { lang: 'ar', showLastTrick: true }));
    const played = [...out.matchAll(/<div class="played[^"]*"[^>]*><svg[^>]*>/g)].map((m) => m[0]);
    expect(played.length).toBe(5); // the trick in progress and the four of the last-trick window
    for (const p of played) expect(p).toContain('direction="ltr"');
    setLang('en');
    const en = html(state(table(), { showLastTrick: true }));
    expect([...en.matchAll(/<div class="played[^"]*"[^>]*><svg[^>]*>/g)].map((m) => m[0])).toEqual(played);
  });
});

describe('the last trick', () => {
  it('is the last four cards before the trick in progress, with its winner', () => {
    const lt = lastTrickOf(table());
    expect(lt?.plays.map((p) => p.card)).toEqual(['QS', '4S', '7H', 'JS']);
    expect(lt?.winner).toBe(3); // the only trump
  });
  it('is none before the first trick is complete', () => {
    expect(lastTrickOf(table({}, { plays: [{ seat: 1, card: 'QS' }], trick: [{ seat: 1, card: 'QS' }], finished_tricks: [] }))).toBeNull();
  });
});

describe('the sign-in screen', () => {
  it('takes names in any script: no 24-unit cap, direction from the text', () => {
    const arabic = 'لَ'.repeat(24); // 24 letters with a fatha each: 24 columns, 48 UTF-16 units
    expect(arabic.length).toBe(48);
    const out = html(state(null, { welcomed: false, name: null, token: null, nameInput: arabic }));
    const input = /<input name="name"[^>]*>/.exec(out)?.[0] ?? '';
    expect(input).toContain(`value="${arabic}"`);
    expect(input).toContain('dir="auto"');
    const max = Number(/maxlength="(\d+)"/.exec(input)?.[1]);
    expect(max).toBeGreaterThanOrEqual(arabic.length);
  });
  it('isolates names so that an Arabic name does not reorder the text around it', () => {
    const seats = table().seats.map((x, i) => (i === 0 && x ? { ...x, name: 'ليلى' } : x));
    const out = html(state(table({ seats })));
    expect(out).toContain('<bdi>ليلى</bdi>');
    // (screen-reader labels are attributes: no text direction to protect there)
    expect(out.replace(/aria-label="[^"]*"/g, '')).not.toMatch(/[^>]ليلى/);
  });
});

describe('the hint (issue 14)', () => {
  it('is a button on the player’s turn only', () => {
    expect(html(state(table()))).toContain('data-act="hint"');
    expect(html(state(table({}, { to_act: 2 })))).not.toContain('data-act="hint"');
  });
  it('is not offered at a rated table (issue 27), and the table says whether it is rated', () => {
    const rated = html(state(table({ rated: true })));
    expect(rated).not.toContain('data-act="hint"');
    expect(html(state(table({ rated: false })))).toContain('data-act="hint"');
    const waiting = (rated: boolean) => html(state(table({ state: 'waiting', round: null, rated })));
    expect(waiting(true)).toContain('data-testid="rated">rated<');
    expect(waiting(false)).toContain('data-testid="rated">casual<');
  });
  it('marks the hinted card for the table version it was given for, and no other version', () => {
    const hint = { version: 40, action: { card: '2S' } };
    expect(cardButton(html(state(table(), { hint })), '2S')).toContain('hinted');
    expect(cardButton(html(state(table(), { hint })), 'AS')).not.toContain('hinted');
    expect(cardButton(html(state(table({ version: 41 }), { hint })), '2S')).not.toContain('hinted');
  });
});

describe('the round summary (issue 14)', () => {
  const scored = {
    event: 'round_scored' as const, contract: { seat: 1, bid: 8 }, made: true, tricks: [4, 9] as [number, number],
    points: [0, 8] as [number, number], scores: [3, 1] as [number, number],
  };
  const auction = { phase: 'auction' as const, to_act: 1 as const, calls: [], contract: null, trump: null, plays: [], trick: [], finished_tricks: [] };
  it('lasts as long as the server holds the clock, else 8 s', () => {
    expect(summaryTiming(4000, 1000)).toEqual({ at: 1000, until: 5000, holds: true });
    expect(summaryTiming(undefined, 1000)).toEqual({ at: 1000, until: 9000, holds: false });
    expect(summaryTiming(0, 1000)).toEqual({ at: 1000, until: 9000, holds: false });
  });
  it('takes the centre while the server holds the next deal’s clock: no auction under it', () => {
    const tv = table({ legal: [{ call: 7 }, { call: 'pass' }] }, auction);
    const held = html(state(tv, { summary: { kind: 'scored', event: scored as never, ...summaryTiming(4000, Date.now()) } }));
    expect(held).toContain('data-testid="summary"');
    expect(held).not.toContain('data-testid="auction"');
    // an older server (no summary_ms): the summary beside the auction, as before
    const beside = html(state(tv, { summary: { kind: 'scored', event: scored as never, ...summaryTiming(undefined, Date.now()) } }));
    expect(beside).toContain('data-testid="summary"');
    expect(beside).toContain('data-testid="auction"');
  });
});

describe('the countdown as rendered', () => {
  it('counts the server time left even when this clock is 10 s slow', () => {
    const client = Date.now();
    const server = client + 10_000; // the server's clock is 10 s ahead of this one
    const tv = table({ deadline_ms: server + 20_000, now_ms: server });
    tv.local_deadline_ms = localDeadline(tv.deadline_ms, tv.now_ms, client);
    const out = html(state(tv));
    expect(/<span class="secs">([^<]*)<\/span>/.exec(out)?.[1]).toMatch(/^0:(20|19)$/);
  });
});

describe('the lobby pages', () => {
  it('offers the next page only when the server sent a cursor, and the previous one after paging', () => {
    const first = html(state(null, { listNext: 't57' }));
    expect(first).toContain('data-act="nextpage"');
    expect(first).not.toContain('data-act="prevpage"');
    const last = html(state(null, { listCursor: 't57', listPrev: [null], listNext: null }));
    expect(last).toContain('data-act="prevpage"');
    expect(last).not.toContain('data-act="nextpage"');
    expect(html(state(null))).not.toContain('pager');
  });
});

describe('the lobby', () => {
  const summary = (table: string, st: 'waiting' | 'playing' | 'finished', over: Partial<TableSummary> = {}): TableSummary => ({
    table, preset: 'levantine', target: 31, turn_seconds: 30, private: false, state: st, spectators: 0, match: 1,
    seats: [{ name: 'Ali', bot: false, connected: true }, null, { name: 'heuristic 2', bot: true, connected: true }, null],
    ...over,
  });
  const tables = [summary('t12', 'waiting'), summary('t57', 'finished'), summary('t60', 'playing', { turn_seconds: 0 })];
  // the text shown, less names (a name keeps its own characters, digits too: "heuristic 2", "Sami99")
  const visibleText = (out: string) => out.replace(/<bdi>.*?<\/bdi>/g, ' ').replace(/<[^>]*>/g, ' ');

  it('writes every number in Eastern Arabic digits in Arabic, table ids and form values too', () => {
    setLang('ar');
    const out = html(state(null, { lang: 'ar', tables, listNext: 't60' }));
    expect(visibleText(out).match(/.{0,30}[0-9].{0,30}/g)).toBeNull();
    expect(out).toContain('<b>١٢</b>');
    expect(out).toMatch(/name="target"[^>]*value="٣١"/);
    expect(out).toMatch(/name="timer"[^>]*value="٣٠"/);
    expect(out).toContain('٣٠ث');
  });
  it('keeps the ids as the server writes them in English', () => {
    const out = html(state(null, { tables }));
    expect(out).toContain('<b>t12</b>');
    expect(out).toMatch(/name="target"[^>]*value="31"/);
  });
  it('reads a typed table or number in either digit system', () => {
    expect(tableIdOf('٥٧')).toBe('t57');
    expect(tableIdOf(' 57 ')).toBe('t57');
    expect(tableIdOf('t57')).toBe('t57');
    expect(parseNum('٣١')).toBe(31);
    expect(parseNum('31')).toBe(31);
    expect(parseNum('')).toBeNaN();
    expect(tableLabel('t57', 'ar')).toBe('٥٧');
    expect(tableLabel('t57', 'en')).toBe('t57');
  });
  it('shows finished tables as finished, apart from the open ones', () => {
    const out = html(state(null, { tables }));
    const [openPart, finishedPart] = out.split('Finished matches');
    expect(finishedPart).toBeDefined();
    expect(openPart).toContain('data-table="t12" data-state="waiting"');
    expect(openPart).toContain('data-table="t60" data-state="playing"');
    expect(openPart).not.toContain('data-table="t57"');
    expect(finishedPart).toMatch(/class="table-row table-finished" data-table="t57"/);
    expect(finishedPart).toMatch(/class="state-finished tag">finished</);
    expect(html(state(null, { tables: [tables[0]] }))).not.toContain('Finished matches');
    // only finished tables: no open table, said so
    const onlyDone = html(state(null, { tables: [tables[1]] }));
    expect(onlyDone.split('Finished matches')[0]).toContain('No open tables yet');
  });
});

describe('bots by level (issue 28)', () => {
  const waiting = (over: Partial<TableView> = {}) =>
    table({
      state: 'waiting',
      round: null,
      seats: [
        { name: 'Ali', bot: false, connected: true },
        { name: 'Me', bot: false, connected: true },
        { name: 'hard 3', bot: true, connected: true, kind: 'hard' },
        null,
      ],
      ...over,
    });
  it('offers the four levels and adds a bot at the chosen one, in the waiting room', () => {
    const out = html(state(waiting(), { botLevel: 'expert' }));
    expect(out).toContain('data-testid="bot-levels"');
    expect(out).toMatch(/data-level="expert"[^>]*aria-pressed="true"/);
    expect(out).toContain('data-testid="add-bot-3"');
    expect(out).toMatch(/data-act="addbot"[^>]*>Add bot · expert</);
    expect(out).toContain('<bdi class="bot-name">Bot 3</bdi> <span class="tag bot-level level-hard" data-level="hard">hard</span>');
    expect(out).not.toContain('hard 3');
  });
  it('hides the picker when no seat is free or the viewer is not seated', () => {
    const full = waiting({ seats: [...waiting().seats.slice(0, 3), { name: 'easy 4', bot: true, connected: true, kind: 'easy' }] });
    expect(html(state(full))).not.toContain('data-testid="bot-levels"');
    expect(html(state(waiting({ you: null })))).not.toContain('data-testid="bot-levels"');
  });
  it('shows a bot at the table as a player with its level badge, in Arabic too', () => {
    setLang('ar');
    const out = html(state(table({ seats: [...table().seats.slice(0, 2), { name: 'heuristic 3', bot: true, connected: true, kind: 'heuristic' }, table().seats[3]] }), { lang: 'ar' }));
    expect(out).toContain('<bdi class="bot-name">روبوت ٣</bdi> <span class="tag bot-level level-medium" data-level="medium">متوسط</span>');
    expect(out).toContain('aria-label="روبوت ٣ · متوسط');
    expect(out).not.toContain('heuristic');
  });
});

describe("a bot's kind (issue 14)", () => {
  const bots = [
    { name: 'Ali', bot: false, connected: true, kind: 'heuristic' },
    { name: 'heuristic 2', bot: true, connected: true, kind: 'heuristic' },
    { name: 'outside 3', bot: true, connected: true, kind: 'stockfish' },
    { name: 'pimc 4', bot: true, connected: true },
  ];
  it('is shown only when the name does not already start with it', () => {
    expect(bots.map((b) => botKind(b))).toEqual([null, null, 'stockfish', null]);
    expect(botKind({ name: 'Random 1', bot: true, connected: true, kind: 'random' })).toBeNull();
    expect(botKind(null)).toBeNull();
  });
  it('is a small label beside the name at the table, in the waiting room and in the lobby', () => {
    const tag = '<span class="tag kind" data-kind="stockfish"><bdi>stockfish</bdi></span>';
    const playing = html(state(table({ seats: bots })));
    expect(playing).toContain(tag);
    expect((playing.match(/class="tag kind"/g) ?? []).length).toBe(1);
    expect(html(state(table({ seats: bots, state: 'waiting', round: null })))).toContain(tag);
    const summary: TableSummary = { table: 't3', preset: 'levantine', target: 31, turn_seconds: 30, private: false, state: 'waiting', spectators: 0, match: 1, seats: bots };
    expect(html(state(null, { tables: [summary] }))).toContain(tag);
    // an older server sends no kind: nothing changes
    expect(html(state(table()))).not.toContain('class="tag kind"');
  });
});

describe('the score sheet and last trick from the server’s history (issue 14)', () => {
  const trick = { leader: 1 as const, cards: [{ seat: 1 as const, card: 'AS' }, { seat: 2 as const, card: '2S' }, { seat: 3 as const, card: '3S' }, { seat: 0 as const, card: '4S' }], winner: 1 as const };
  const history = [
    { number: 1, dealer: 0 as const, calls: [], contract: null, trump: null, tricks: [], taken: [0, 0] as [number, number], points: [0, 0] as [number, number], totals: [0, 0] as [number, number], passed_out: true },
    { number: 2, dealer: 1 as const, calls: [], contract: { seat: 1 as const, bid: 8, made: true }, trump: 'S' as const, tricks: [trick], taken: [4, 9] as [number, number], points: [0, 9] as [number, number], totals: [0, 9] as [number, number], passed_out: false },
  ];
  it('numbers the scored rounds only, with their points and totals', () => {
    const sheet = sheetFromHistory('t9', 1, history);
    expect(sheet.lines).toEqual([{ round: 1, declarer: 1, bid: 8, made: true, tricks: [4, 9], points: [0, 9], scores: [0, 9] }]);
  });
  it('shows the previous round’s last trick before the new deal’s first one is won', () => {
    const tv = table({}, { phase: 'auction', finished_tricks: [] });
    expect(lastTrickOf(tv)).toBeNull();
    expect(lastTrickOf(tv, { lastRound: { table: 't9', match: 1, round: history[1] } })).toEqual({ plays: trick.cards, winner: 1 });
    expect(lastTrickOf(tv, { lastRound: { table: 't9', match: 2, round: history[1] } })).toBeNull(); // another match's
  });
});

describe('the header and the felt (issue 28: the header one row on a phone)', () => {
  it('keeps the contract and the tricks on the felt, not in the header', () => {
    const out = html(state(table()));
    const header = /<header[^>]*>([\s\S]*?)<\/header>/.exec(out)?.[1] ?? '';
    const felt = /<div class="felt">([\s\S]*?)<div class="centre">/.exec(out)?.[1] ?? '';
    expect(header).toContain('data-testid="score"');
    expect(header).not.toContain('data-testid="contract"');
    expect(header).not.toContain('data-testid="tricks"');
    expect(felt).toMatch(/<div class="felt-status">[\s\S]*data-testid="contract"[\s\S]*data-testid="tricks"/);
    expect(felt).toContain('Contract: <b>8</b>');
  });
  it('has no status before a contract', () => {
    const auction = { phase: 'auction' as const, contract: null, trump: null, plays: [], trick: [] };
    expect(html(state(table({ legal: [] }, auction)))).not.toContain('felt-status');
  });
  it('names the last trick button (its words hidden on a phone, its icon shown)', () => {
    const btn = /<button class="small ghost last-trick-btn"[^>]*>[\s\S]*?<\/button>/.exec(html(state(table())))?.[0] ?? '';
    expect(btn).toContain('title="Last trick"');
    expect(btn).toContain('<svg class="icon"');
    expect(btn).toContain('<span class="label">Last trick</span>');
  });
  it('sizes the hand by the room the game has (a chat under the table leaves a short room: small cards)', () => {
    const card = (out: string) => Number(/--card-w:([\d.]+)px/.exec(out)?.[1]);
    const thirteen = ['AS', 'KS', 'QS', 'JS', 'AH', 'KH', 'QH', 'AC', 'KC', 'QC', 'AD', 'KD', 'QD'];
    expect(card(html(state(table({}, { hand: thirteen })), { w: 600, h: 420 }))).toBeLessThanOrEqual(50);
    expect(card(html(state(table({}, { hand: thirteen })), { w: 600, h: 800 }))).toBeGreaterThan(50);
  });
});
