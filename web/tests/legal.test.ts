import { describe, expect, it } from 'vitest';
import { bidOptions, handCards, highBidOfCalls, legalCards, legalTrumps, needOf, standingBid } from '../src/legal';
import type { TableView } from '../src/protocol';

const base = (over: Partial<TableView>): TableView => ({
  type: 'table', table: 't1', version: 5, state: 'playing', preset: 'levantine', target: 31, turn_seconds: 30,
  private: false, you: 2, seats: [null, null, null, null], spectators: 0, match: 1, scores: [0, 0],
  round: {
    number: 1, dealer: 1, phase: 'play', to_act: 2, hand: ['2C', 'TC', 'AH'], calls: [], contract: { seat: 2, bid: 8 },
    trump: 'H', plays: [], trick: [], tricks: [0, 0], cards_left: [3, 3, 3, 3], points: [0, 0],
  },
  legal: [], deadline_ms: null, timeout_action: null, events: [], ...over,
});

describe('legal-card highlighting from the server list', () => {
  it('marks exactly the listed cards playable', () => {
    const cards = handCards(['AH', 'TC', '2C'], [{ card: '2C' }, { card: 'TC' }]);
    expect(cards).toEqual([
      { card: 'AH', playable: false },
      { card: 'TC', playable: true },
      { card: '2C', playable: true },
    ]);
  });
  it('makes nothing playable with an empty list (not your turn)', () => {
    expect(handCards(['AH', '2C'], []).every((c) => !c.playable)).toBe(true);
    expect(handCards(['AH'], undefined)[0].playable).toBe(false);
  });
  it('ignores non-card actions', () => {
    expect([...legalCards([{ call: 'pass' }, { trump: 'S' }, { card: 'QS' }])]).toEqual(['QS']);
  });
});

describe('auction buttons', () => {
  it('enables pass and the listed bids only', () => {
    const o = bidOptions([{ call: 'pass' }, { call: 9 }, { call: 10 }, { call: 11 }, { call: 12 }, { call: 13 }], [7, 13]);
    expect(o.pass).toBe(true);
    expect(o.bids.map((b) => b.bid)).toEqual([7, 8, 9, 10, 11, 12, 13]);
    expect(o.bids.filter((b) => b.enabled).map((b) => b.bid)).toEqual([9, 10, 11, 12, 13]);
  });
  it('disables everything when nothing is legal', () => {
    const o = bidOptions([], [7, 13]);
    expect(o.pass).toBe(false);
    expect(o.bids.some((b) => b.enabled)).toBe(false);
  });
  it('takes the standing bid from the server', () => {
    // Classic: seat 1 bid 8, the dealer (seat 0) equalled it and so holds it; the server says so.
    const calls = [{ seat: 1, call: 8 }, { seat: 2, call: 'pass' }, { seat: 3, call: 'pass' }, { seat: 0, call: 8 }] as const;
    expect(standingBid({ calls: [...calls], standing_bid: { bid: 8, seat: 0 } })).toEqual({ bid: 8, seat: 0 });
    // The field wins over the calls whatever they say, and null means no bid stands.
    expect(standingBid({ calls: [{ seat: 1, call: 9 }], standing_bid: { bid: 10, seat: 3 } })).toEqual({ bid: 10, seat: 3 });
    expect(standingBid({ calls: [{ seat: 1, call: 'pass' }], standing_bid: null })).toBeNull();
  });
  it('falls back to the calls only when the server does not send the standing bid', () => {
    expect(standingBid({ calls: [{ seat: 1, call: 'pass' }, { seat: 2, call: 8 }, { seat: 3, call: 'pass' }, { seat: 0, call: 10 }] })).toEqual({
      bid: 10,
      seat: 0,
    });
    expect(standingBid({ calls: [{ seat: 1, call: 'pass' }] })).toBeNull();
    expect(highBidOfCalls([{ seat: 1, call: 8 }, { seat: 0, call: 8 }])).toEqual({ bid: 8, seat: 0 });
  });
  it('reads the trump choices', () => {
    expect(legalTrumps([{ trump: 'S' }, { trump: 'H' }])).toEqual(['S', 'H']);
  });
});

describe('what the viewer has to do', () => {
  it('plays a card on its turn', () => {
    expect(needOf(base({ legal: [{ card: '2C' }] }))).toBe('card');
  });
  it('calls in the auction', () => {
    expect(needOf(base({ legal: [{ call: 'pass' }, { call: 7 }] }))).toBe('call');
  });
  it('names trump', () => {
    expect(needOf(base({ legal: [{ trump: 'S' }] }))).toBe('trump');
  });
  it('does nothing out of turn, as a spectator, or without a round', () => {
    const b = base({ legal: [{ card: '2C' }] });
    expect(needOf({ ...b, round: { ...b.round!, to_act: 3 } })).toBe('none');
    expect(needOf({ ...b, you: null })).toBe('none');
    expect(needOf({ ...b, round: null })).toBe('none');
    expect(needOf(null)).toBe('none');
  });
});
