import { describe, expect, it } from 'vitest';
import { cardBackSvg, cardSvg, isRed, sortHand, suitOf, suitOrder } from '../src/cards';

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

describe('card faces', () => {
  it('draws an SVG with the rank and the suit colour', () => {
    const svg = cardSvg('TH');
    expect(svg).toContain('<svg');
    expect(svg).toContain('>10<');
    expect(svg).toContain('#c8102e');
    expect(cardSvg('QS')).toContain('#1a1a1a');
  });
});

describe('card faces in both directions', () => {
  it('lay out their corner ranks left to right whatever the page direction (10 is not clipped in Arabic)', () => {
    for (const c of ['TC', '2H', '5H', '9H', 'AS']) {
      const open = /^<svg[^>]*>/.exec(cardSvg(c))?.[0] ?? '';
      expect(open).toContain('direction="ltr"');
      expect(open).toContain('unicode-bidi:isolate');
    }
    expect(/^<svg[^>]*>/.exec(cardBackSvg(1))?.[0]).toContain('direction="ltr"');
  });
  it('are the same markup for every language', () => {
    expect(cardSvg('TC')).toBe(cardSvg('TC'));
    expect(cardSvg('TC')).toContain('>10<');
  });
});
