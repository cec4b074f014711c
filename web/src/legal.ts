// What the player may do now, read from the server's list of legal actions.
// The client never works legality out itself: the server's `legal` list is the truth.
import type { Action, Card, RoundView, StandingBid, Suit, TableView } from './protocol';

export function legalCards(legal: Action[] | undefined): Set<Card> {
  const out = new Set<Card>();
  for (const a of legal ?? []) if ('card' in a) out.add(a.card);
  return out;
}

export interface BidOptions {
  pass: boolean;
  bids: { bid: number; enabled: boolean }[];
}

/**
 * The auction buttons and pass: a button for each bid of the table's range (the server's
 * `bid_range`), enabled when the server lists it. Without a range (an older server), the bids listed.
 */
export function bidOptions(legal: Action[] | undefined, range?: [number, number]): BidOptions {
  const calls = (legal ?? []).filter((a): a is { call: 'pass' | number } => 'call' in a).map((a) => a.call);
  const listed = calls.filter((c): c is number => typeof c === 'number');
  const [lo, hi] = range ?? [Math.min(...listed), Math.max(...listed)];
  const bids = [];
  for (let b = lo; b <= hi; b++) bids.push({ bid: b, enabled: calls.includes(b) });
  return { pass: calls.includes('pass'), bids };
}

export function legalTrumps(legal: Action[] | undefined): Suit[] {
  return (legal ?? []).filter((a): a is { trump: Suit } => 'trump' in a).map((a) => a.trump);
}

export interface HandCard {
  card: Card;
  playable: boolean;
}

/** Each card of the hand (in the order given) and whether it may be played now. */
export function handCards(hand: Card[], legal: Action[] | undefined): HandCard[] {
  const ok = legalCards(legal);
  return hand.map((card) => ({ card, playable: ok.has(card) }));
}

export type Need = 'none' | 'call' | 'trump' | 'card';

/** What the viewer has to do now. */
export function needOf(t: TableView | null): Need {
  if (!t || !t.round || t.you === null || t.round.to_act !== t.you) return 'none';
  const legal = t.legal ?? [];
  if (legal.some((a) => 'call' in a)) return 'call';
  if (legal.some((a) => 'trump' in a)) return 'trump';
  if (legal.some((a) => 'card' in a)) return 'card';
  return 'none';
}

/**
 * The standing bid and its bidder, as the server sent them (`round.standing_bid`: the rules
 * engine's, which knows that the classic dealer's equal bid holds it). Only from a server that
 * does not send the field (before issue #14): the highest bid in `calls`, made last.
 */
export function standingBid(round: Pick<RoundView, 'calls' | 'standing_bid'>): StandingBid | null {
  if (round.standing_bid !== undefined) return round.standing_bid;
  return highBidOfCalls(round.calls);
}

/** The fallback for older servers: the highest bid in `calls` and the last seat that made it. */
export function highBidOfCalls(calls: { seat: RoundView['dealer']; call: 'pass' | number }[]): StandingBid | null {
  let hi: StandingBid | null = null;
  for (const c of calls) if (typeof c.call === 'number' && (hi === null || c.call >= hi.bid)) hi = { bid: c.call, seat: c.seat };
  return hi;
}
