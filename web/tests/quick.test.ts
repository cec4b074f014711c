import { beforeEach, describe, expect, it } from 'vitest';
import { QUICK_KEYS, fillDeadline, fillLabel, isQuickPreset, qw, quickWaiting } from '../src/quick';
import { tickFill } from '../src/view_quick';
import { html } from '../src/view';
import { errorText, setLang } from '../src/i18n';
import { emptySheet } from '../src/sheet';
import type { State } from '../src/app';
import type { TableSummary, TableView } from '../src/protocol';

const me = { name: 'Me', bot: false, connected: true };
const waiting = (over: Partial<TableView> = {}): TableView => ({
  type: 'table', table: 't4', version: 2, state: 'waiting', preset: 'levantine', target: 31, turn_seconds: 30, private: false,
  you: 0, seats: [me, { name: 'Huda', bot: false, connected: true }, null, null], spectators: 0, match: 0, scores: [0, 0],
  round: null, legal: [], deadline_ms: null, timeout_action: null, events: [],
  quick: { rating: 1500, fill_at: 1 }, fill_ms: 18_000, local_fill_at: Date.now() + 18_000, ...over,
});
const state = (tv: TableView | null, over: Partial<State> = {}): State => ({
  conn: 'open', lang: 'en', name: 'Me', token: 'x', welcomed: true, busy: false, tables: [], listCursor: null, listPrev: [], listNext: null,
  listsAsked: 0, listsAnswered: 0, table: tv, codes: {}, sheet: emptySheet('t4', 0), summary: null, matchOver: null, ratings: null,
  log: [], error: null, showLastTrick: false, showSheet: false, actedVersion: null, hint: null, sound: false,
  form: { preset: 'levantine', target: 31, timer: 30, priv: false, bots: true }, nameInput: '', joinId: '', joinCode: '', watching: null,
  ...over,
});

beforeEach(() => setLang('en'));

describe('quick play words', () => {
  it('has every text in English and Arabic, none empty, and the already_seated error in both', () => {
    for (const k of QUICK_KEYS) {
      expect(qw(k, 'en')).not.toBe('');
      expect(qw(k, 'ar')).toMatch(/[\u0600-\u06ff]/);
    }
    expect(errorText('already_seated', 'leave your table first (t2)', 'en')).toMatch(/leave it first/);
    expect(errorText('already_seated', 'leave your table first (t2)', 'ar')).toMatch(/غادرها/);
  });
  it('knows the two presets only', () => {
    expect(isQuickPreset('levantine') && isQuickPreset('classic')).toBe(true);
    expect(isQuickPreset('bridge') || isQuickPreset(undefined)).toBe(false);
  });
});

describe('the countdown to the computer players', () => {
  it('runs from the arrival of the message, never from a negative time', () => {
    expect(fillDeadline(20_000, 1_000)).toBe(21_000);
    expect(fillDeadline(-50, 1_000)).toBe(1_000);
    expect(fillDeadline(null, 1_000)).toBeNull();
    expect(fillDeadline(undefined, 1_000)).toBeNull();
  });
  it('shows whole seconds rounded up, then "joining" once the time is up (never below 0)', () => {
    expect(fillLabel(21_000, 1_000, 'en')).toBe('computer players join in 20 s');
    expect(fillLabel(21_000, 9_001, 'en')).toBe('computer players join in 12 s');
    expect(fillLabel(21_000, 20_999, 'en')).toBe('computer players join in 1 s');
    expect(fillLabel(21_000, 21_000, 'en')).toBe('computer players are joining…');
    expect(fillLabel(21_000, 99_000, 'en')).toBe('computer players are joining…');
    expect(fillLabel(21_000, 9_001, 'ar')).toBe('ينضم لاعبون آليون بعد ١٢ ث');
  });
  it('moves every live countdown of the page', () => {
    const el = { dataset: { fillAt: '21000' }, textContent: 'old' };
    tickFill({ querySelectorAll: () => [el] } as unknown as ParentNode, 16_500);
    expect(el.textContent).toBe('computer players join in 5 s');
  });
  it('is shown at a quick-play table only while it waits', () => {
    expect(quickWaiting(waiting())).toBe(true);
    expect(quickWaiting(waiting({ fill_ms: undefined }))).toBe(false);
    expect(quickWaiting(waiting({ state: 'playing' }))).toBe(false);
  });
});

describe('the quick-play waiting room', () => {
  it('shows who sat, the countdown and Play now, without the bots, level, start or code of an ordinary room', () => {
    const out = html(state(waiting({ code: 'K3X9Q2', join_code: 'K3X9Q2' })));
    expect(out).toContain('Looking for players…');
    expect(out).toMatch(/data-fill-at="\d+"[^>]*>computer players join in 18 s</);
    expect(out).toContain('Huda');
    expect(out).toMatch(/data-act="start" data-testid="play-now">Play now</);
    expect(out).toContain('data-testid="quick-badge"');
    for (const gone of ['data-act="addbot"', 'data-act="removebot"', 'data-testid="bot-levels"', 'K3X9Q2', 'data-act="join"', '>Start<'])
      expect(out).not.toContain(gone);
    expect(out).toContain('data-act="leave"');
  });
  it('offers a spectator the free seats and no Play now', () => {
    const out = html(state(waiting({ you: null })));
    expect(out).toContain('data-act="join"');
    expect(out).not.toContain('play-now');
  });
  it('is the ordinary room once the table no longer waits for people', () => {
    const out = html(state(waiting({ fill_ms: undefined, seats: [me, null, null, null] })));
    expect(out).toContain('data-act="addbot"');
    expect(out).not.toContain('play-now');
  });
  it('is in Arabic with Eastern digits', () => {
    setLang('ar');
    const out = html(state(waiting(), { lang: 'ar' }));
    expect(out).toContain('ينضم لاعبون آليون بعد ١٨ ث');
    expect(out).toContain('العب الآن');
  });
});

describe('quick play in the lobby', () => {
  const summary = (table: string, quick?: TableSummary['quick']): TableSummary => ({
    table, preset: 'levantine', target: 31, turn_seconds: 30, private: false, state: 'waiting', spectators: 0, match: 0,
    seats: [me, null, null, null], ...(quick ? { quick } : {}),
  });
  it('comes first, with the preset remembered pressed', () => {
    const out = html(state(null, { quickPreset: 'classic' }));
    expect(out.indexOf('data-testid="quick-play"')).toBeLessThan(out.indexOf('data-form="create"'));
    expect(out).toMatch(/data-testid="quick-preset-classic" aria-pressed="true"/);
    expect(out).toMatch(/data-testid="quick-preset-levantine" aria-pressed="false"/);
    expect(html(state(null, { busy: true }))).toMatch(/data-testid="quick-play" disabled/);
  });
  it('marks the quick-play tables of the list', () => {
    const out = html(state(null, { tables: [summary('t1', { rating: 1500, fill_at: 5 }), summary('t2')] }));
    expect(out.match(/data-testid="quick-badge"/g)).toHaveLength(1);
    expect(out).toMatch(/data-table="t1"[^]*quick-badge[^]*data-table="t2"/);
  });
});
