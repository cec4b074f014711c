// The replay of a finished match as a list of steps: every call, every trump and every card of
// every deal, each one a position that can be shown.
//
// Inputs: the match's `tarneeb-record/1` (the dealt hands, docs/record-format.md) and its
// `tarneeb-result/1` (from the server's `GET /api/matches/{id}` "result", or from the engine for
// a record file: engine_adapter.ts). Every rule comes from the result: each deal's dealer,
// declarer, bid, trump, the resolved calls and cards, and each trick's leader, cards and winner
// (`trick_list`, computed by the engine). Nothing here decides a trick or a score; the model
// only counts what the result says (who held a card is read from the dealt hands, the seat of
// the i-th call is the record format's "turn order from the player after the dealer").
//
// Steps, numbered 0..count-1 over the whole match (the slider's values): for each deal, first the
// dealt position (no call yet), then one step after each call, one after the trump is named
// (deals with a contract), and one after each card.
import type { Call, Card, Play, Seat, Suit } from './protocol';
import { teamOf } from './protocol';
import { applyEvents, emptySheet, type Sheet } from './sheet';

/** One deal of a `tarneeb-record/1` as read here (the record may spell cards in any case, or 10H). */
export interface RecordDeal {
  hands: (string | string[])[];
  auction?: unknown[];
  trump?: string | null;
  play?: string[];
}

/** A `tarneeb-record/1` (docs/record-format.md); `players` and `result` are added by the server's API. */
export interface MatchRecord {
  format: string;
  rules?: string;
  first_dealer?: number;
  bracket?: boolean;
  deals: RecordDeal[];
  players?: string[];
  result?: MatchResult;
}

/** A trick as the engine reports it: its leader, its cards in order, its winner (null: unfinished). */
export interface ResultTrick {
  leader: Seat;
  cards: Play[];
  winner: Seat | null;
}

/** One deal of a `tarneeb-result/1`, with the engine's trick list. */
export interface ResultDeal {
  dealer: Seat;
  passed_out: boolean;
  declarer: Seat | null;
  bid: number | null;
  trump: Suit | null;
  tricks: [number, number];
  made: boolean | null;
  points: [number, number];
  totals: [number, number];
  auction: Call[];
  play: Card[];
  trick_list?: ResultTrick[];
}

/** A `tarneeb-result/1` (docs/record-format.md "Result"). */
export interface MatchResult {
  format: string;
  ok: boolean;
  status: 'in_progress' | 'won' | 'drawn' | 'closed';
  winner: 0 | 1 | null;
  totals: [number, number];
  scored_rounds?: number;
  deals: ResultDeal[];
  error?: { deal: number | null; phase: string; index: number | null; code: string };
}

export type StepKind = 'deal' | 'call' | 'trump' | 'card';

/** A step: the position after `calls` calls, the trump (when `trump`) and `cards` cards of deal `deal`. */
export interface Step {
  deal: number;
  kind: StepKind;
  calls: number;
  trump: boolean;
  cards: number;
}

export interface ReplayModel {
  rules: string;
  players: string[];
  /** The dealt hands of each deal, by seat, canonical cards. */
  hands: Card[][][];
  result: MatchResult;
  steps: Step[];
  /** The first step of each deal (its dealt position). */
  dealStarts: number[];
}

/** Thrown when a record or result cannot be replayed; `code` is stable (shown translated). */
export class ReplayError extends Error {
  constructor(
    readonly code: 'bad_record' | 'rejected' | 'no_tricks',
    message: string,
  ) {
    super(message);
  }
}

/** A card in the canonical two-character form ("10h" and "th" are "TH"). */
export function canonicalCard(c: string): Card {
  const u = c.trim().toUpperCase();
  return u.startsWith('10') ? `T${u.slice(2)}` : u;
}

function handOf(h: string | string[]): Card[] {
  const list = typeof h === 'string' ? h.split(/\s+/).filter(Boolean) : h;
  return list.map(canonicalCard);
}

/**
 * The model of a match: its steps, from the record's dealt hands and the result. Throws
 * ReplayError: `bad_record` (no deals or hands), `rejected` (the result is not ok: the record
 * broke a rule), `no_tricks` (a deal with cards played but no `trick_list`: an older server).
 */
export function buildModel(record: MatchRecord, result: MatchResult): ReplayModel {
  if (!result || result.ok === false) {
    const e = result?.error;
    throw new ReplayError('rejected', e ? `${e.code} (deal ${e.deal ?? '-'}, ${e.phase} ${e.index ?? '-'})` : 'rejected');
  }
  if (!Array.isArray(record?.deals) || record.deals.length < result.deals.length) {
    throw new ReplayError('bad_record', 'the record has fewer deals than its result');
  }
  const hands = result.deals.map((_, d) => {
    const hs = record.deals[d]?.hands;
    if (!Array.isArray(hs) || hs.length !== 4) throw new ReplayError('bad_record', `deal ${d}: no hands`);
    return hs.map(handOf);
  });
  const steps: Step[] = [];
  const dealStarts: number[] = [];
  result.deals.forEach((rd, d) => {
    if (rd.play.length > 0 && !Array.isArray(rd.trick_list)) {
      throw new ReplayError('no_tricks', `deal ${d}: the result has no trick_list`);
    }
    dealStarts.push(steps.length);
    steps.push({ deal: d, kind: 'deal', calls: 0, trump: false, cards: 0 });
    rd.auction.forEach((_, i) => steps.push({ deal: d, kind: 'call', calls: i + 1, trump: false, cards: 0 }));
    if (rd.trump !== null) {
      const calls = rd.auction.length;
      steps.push({ deal: d, kind: 'trump', calls, trump: true, cards: 0 });
      rd.play.forEach((_, j) => steps.push({ deal: d, kind: 'card', calls, trump: true, cards: j + 1 }));
    }
  });
  const players = [0, 1, 2, 3].map((s) => record.players?.[s] ?? '');
  return { rules: record.rules ?? 'levantine', players, hands, result, steps, dealStarts };
}

/** The step of deal `deal` after `cards` cards (0: trump named, no card yet), or null when there is none. */
export function stepOf(m: ReplayModel, deal: number, cards: number): number | null {
  const start = m.dealStarts[deal];
  if (start === undefined) return null;
  const rd = m.result.deals[deal];
  if (rd.trump === null || cards < 0 || cards > rd.play.length) return null;
  return start + 1 + rd.auction.length + cards; // the dealt step, the calls, then the trump step is cards = 0
}

/** The deal a step belongs to. */
export const dealOfStep = (m: ReplayModel, step: number): number => m.steps[clampStep(m, step)].deal;

export const clampStep = (m: ReplayModel, step: number): number =>
  Math.max(0, Math.min(m.steps.length - 1, Math.round(Number.isFinite(step) ? step : 0)));

/** A trick shown on the table: its leader, its cards so far and its winner once it is complete. */
export interface ShownTrick {
  leader: Seat;
  cards: Play[];
  winner: Seat | null;
  number: number; // 1-based
}

/** What happened at a step (null for a deal's first step). */
export type StepAction =
  | { kind: 'call'; seat: Seat; call: Call }
  | { kind: 'trump'; seat: Seat; trump: Suit }
  | { kind: 'card'; seat: Seat; card: Card };

/** Everything shown at one step. */
export interface Position {
  step: number;
  deal: number;
  dealer: Seat;
  /** The cards each seat still holds, by seat, in the dealt order. */
  hands: Card[][];
  calls: { seat: Seat; call: Call }[];
  auctionOver: boolean;
  passedOut: boolean;
  /** The contract, once the auction is over. */
  contract: { seat: Seat; bid: number } | null;
  trump: Suit | null;
  /** The trick in progress, or the one just completed (with its winner); null before the first card. */
  trick: ShownTrick | null;
  /** Tricks taken by each team so far in this deal (from the engine's trick winners). */
  tricks: [number, number];
  /** The seat whose card comes next (who actually played it), null outside the play. */
  toPlay: Seat | null;
  action: StepAction | null;
  /** The deal is over (passed out, or its last card played): its score counts. */
  dealOver: boolean;
  /** The match's scores after the deals over at this step. */
  scores: [number, number];
  /** The score sheet up to this step (sheet.ts lines, from the result's scored deals). */
  sheet: Sheet;
  /** The match is over at this step (the last step of a finished match). */
  matchOver: boolean;
  cardsPlayed: number;
}

/** The seat of the i-th call of a deal: turn order from the player after the dealer (docs/record-format.md). */
const callSeat = (dealer: Seat, i: number): Seat => ((dealer + 1 + i) % 4) as Seat;

/** Whose hand a card was dealt to. */
function holder(hands: Card[][], card: Card): Seat {
  const s = hands.findIndex((h) => h.includes(card));
  if (s < 0) throw new ReplayError('bad_record', `${card} was not dealt`);
  return s as Seat;
}

/** The score sheet after the first `deals` deals of the result (passed-out deals add no line). */
export function sheetAfter(m: ReplayModel, deals: number): Sheet {
  let s = emptySheet('replay', 1);
  for (const rd of m.result.deals.slice(0, deals)) {
    if (rd.made === null || rd.declarer === null || rd.bid === null) continue;
    s = applyEvents(s, 'replay', 1, [
      {
        event: 'round_scored',
        contract: { seat: rd.declarer, bid: rd.bid },
        made: rd.made,
        tricks: rd.tricks,
        points: rd.points,
        scores: rd.totals,
      },
    ]);
  }
  return s;
}

/** The position at `step` (clamped to the match). */
export function positionAt(m: ReplayModel, step: number): Position {
  const k = clampStep(m, step);
  const st = m.steps[k];
  const rd = m.result.deals[st.deal];
  const dealt = m.hands[st.deal];
  const calls = rd.auction.slice(0, st.calls).map((call, i) => ({ seat: callSeat(rd.dealer, i), call }));
  const auctionOver = st.trump || (rd.passed_out && st.calls === rd.auction.length);
  const played = rd.play.slice(0, st.cards);
  const tl = rd.trick_list ?? [];
  const hands = dealt.map((h) => h.filter((c) => !played.includes(c)));
  let trick: ShownTrick | null = null;
  const tricks: [number, number] = [0, 0];
  if (st.cards > 0) {
    const done = Math.floor(st.cards / 4);
    for (const tr of tl.slice(0, done)) if (tr.winner !== null) tricks[teamOf(tr.winner)]++;
    const idx = st.cards % 4 === 0 ? done - 1 : done; // a complete trick stays shown until the next card
    const tr = tl[idx];
    const n = st.cards - idx * 4;
    const cards = tr ? tr.cards.slice(0, n) : played.slice(idx * 4).map((card) => ({ seat: holder(dealt, card), card }));
    trick = { leader: tr?.leader ?? cards[0].seat, cards, winner: n === 4 && tr ? tr.winner : null, number: idx + 1 };
  }
  let toPlay: Seat | null = null;
  if (st.trump && st.cards < rd.play.length) {
    const next = tl[Math.floor(st.cards / 4)]?.cards[st.cards % 4];
    toPlay = next ? next.seat : holder(dealt, rd.play[st.cards]);
  }
  let action: StepAction | null = null;
  if (st.kind === 'call') action = { kind: 'call', seat: calls[calls.length - 1].seat, call: calls[calls.length - 1].call };
  else if (st.kind === 'trump' && rd.declarer !== null && rd.trump) action = { kind: 'trump', seat: rd.declarer, trump: rd.trump };
  else if (st.kind === 'card') {
    const card = played[played.length - 1];
    action = { kind: 'card', seat: holder(dealt, card), card };
  }
  const last = st.deal === m.result.deals.length - 1;
  const dealOver = rd.passed_out ? auctionOver : st.trump && st.cards === rd.play.length && rd.made !== null;
  const dealsOver = st.deal + (dealOver ? 1 : 0);
  const sheet = sheetAfter(m, dealsOver);
  const prev = dealsOver > 0 ? m.result.deals[dealsOver - 1].totals : ([0, 0] as [number, number]);
  return {
    step: k,
    deal: st.deal,
    dealer: rd.dealer,
    hands,
    calls,
    auctionOver,
    passedOut: rd.passed_out,
    contract: auctionOver && rd.declarer !== null && rd.bid !== null ? { seat: rd.declarer, bid: rd.bid } : null,
    trump: st.trump ? rd.trump : null,
    trick,
    tricks,
    toPlay,
    action,
    dealOver,
    scores: [prev[0], prev[1]],
    sheet,
    matchOver: last && k === m.steps.length - 1 && m.result.status !== 'in_progress',
    cardsPlayed: st.cards,
  };
}

/** The slider's value for a step and back: the slider runs over every step (0..count-1). */
export const sliderMax = (m: ReplayModel): number => m.steps.length - 1;
export const stepFromSlider = (m: ReplayModel, value: string | number): number => clampStep(m, Number(value));

/** Where a step sits along the slider, 0..1 (a marker's place, e.g. the turning point). */
export const sliderFraction = (m: ReplayModel, step: number): number =>
  m.steps.length <= 1 ? 0 : clampStep(m, step) / (m.steps.length - 1);
