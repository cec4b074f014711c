import { describe, expect, it } from 'vitest';
import { cardSvg, isRed, sortHand, suggestTrump, suitOf, suitOrder, trickWinner } from '../src/cards';

const colours = (hand: string[]) => {
  const suits = hand.map(suitOf).filter((s, i, a) => i === 0 || a[i - 1] !== s);
  return suits;
};

describe('hand order', () => {
  it('groups suits, alternating colours, high to low', () => {
    const h = sortHand(['2C', 'AH', 'TS', 'KD', '3S', 'QH', '9C']);
    expect(h).toEqual(['TS', '3S', 'AH', 'QH', '9C', '2C', 'KD']);
  });
  it('alternates colours whenever the suits held allow it', () => {
    for (const present of [['S', 'C', 'D'], ['H', 'D', 'S'], ['C', 'H', 'D', 'S'], ['S', 'C']] as const) {
      const order = suitOrder([...present]);
      const reds = order.map(isRed);
      const alternating = reds.every((r, i) => i === 0 || r !== reds[i - 1]);
      const possible = Math.abs(reds.filter(Boolean).length - reds.filter((r) => !r).length) <= 1;
      expect(alternating).toBe(possible);
    }
  });
  it('puts the trump suit first when it can', () => {
    expect(suitOrder(['S', 'H', 'D', 'C'], 'D')[0]).toBe('D');
    const h = sortHand(['2C', 'AH', 'TS', 'KD'], 'H');
    expect(colours(h)[0]).toBe('H');
  });
});

describe('trump suggestion (the longest suit)', () => {
  it('suggests the longest suit', () => {
    expect(suggestTrump(['2C', '3C', '4C', 'AS', 'KS', 'AH'])).toBe('C');
  });
  it('breaks ties by the higher cards, then S > H > D > C', () => {
    expect(suggestTrump(['AH', '2H', 'KS', 'QS'])).toBe('H');
    expect(suggestTrump(['AH', '5H', 'AS', '5S'])).toBe('S');
    expect(suggestTrump(['AD', '5D', 'AC', '5C'])).toBe('D');
  });
});

describe('trick winner', () => {
  it('highest card of the suit led without trump', () => {
    expect(trickWinner([{ seat: 0, card: '9S' }, { seat: 1, card: 'AH' }, { seat: 2, card: 'KS' }, { seat: 3, card: '2S' }], 'D')).toBe(2);
  });
  it('highest trump wins', () => {
    expect(trickWinner([{ seat: 1, card: 'AS' }, { seat: 2, card: '2H' }, { seat: 3, card: '5H' }, { seat: 0, card: 'KS' }], 'H')).toBe(3);
  });
});

describe('card faces', () => {
  it('draws an SVG with the rank and the suit colour', () => {
    const svg = cardSvg('TH');
    expect(svg).toContain('<svg');
    expect(svg).toContain('>10<');
    expect(svg).toContain('#c8102e');
    expect(cardSvg('QS')).toContain('#1a1a1a');
  });
});
