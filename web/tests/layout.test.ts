import { describe, expect, it } from 'vitest';
import { HAND_PAD_PX, MIN_TARGET_PX, handLayout, intoRows, ourTeam, positionOf, seatAt, seatsAround } from '../src/layout';

describe('layout by seat', () => {
  it('puts you at the bottom, partner at the top, the next player on the right', () => {
    for (const you of [0, 1, 2, 3] as const) {
      expect(positionOf(you, you)).toBe('bottom');
      expect(positionOf((you + 1) % 4, you)).toBe('right');
      expect(positionOf((you + 2) % 4, you)).toBe('top');
      expect(positionOf((you + 3) % 4, you)).toBe('left');
    }
  });
  it('goes counter-clockwise in the order of play: bottom, right, top, left', () => {
    expect(seatsAround(2)).toEqual([2, 3, 0, 1]);
    expect(seatsAround(0)).toEqual([0, 1, 2, 3]);
  });
  it('draws a spectator from seat 0', () => {
    expect(positionOf(0, null)).toBe('bottom');
    expect(positionOf(3, null)).toBe('left');
    expect(seatAt('top', null)).toBe(2);
    expect(ourTeam(null)).toBe(0);
  });
  it('seatAt inverts positionOf', () => {
    for (const you of [0, 1, 2, 3] as const)
      for (const s of [0, 1, 2, 3]) expect(seatAt(positionOf(s, you), you)).toBe(s);
  });
  it('partners share a team', () => {
    expect(ourTeam(1)).toBe(1);
    expect(ourTeam(3)).toBe(1);
    expect(ourTeam(2)).toBe(0);
  });
});

describe('the hand', () => {
  const phones = [320, 360, 375, 390, 412, 430];
  const fits = (l: ReturnType<typeof handLayout>, width: number) =>
    l.rows.every((n) => l.cardW + (n - 1) * l.step <= width - HAND_PAD_PX + 0.01);
  it('gives every card of 13 on a phone a tap strip at least 44 px wide, in two rows that fit', () => {
    for (const w of phones) {
      const l = handLayout(w, 740, 13);
      expect(l.rows).toEqual([7, 6]);
      expect(l.step).toBeGreaterThanOrEqual(MIN_TARGET_PX);
      expect(l.cardW).toBeGreaterThanOrEqual(MIN_TARGET_PX);
      expect(fits(l, w)).toBe(true);
    }
  });
  it('keeps one overlapping row where it leaves 44 px per card: desktops and phones held sideways', () => {
    for (const [w, h] of [[1280, 800], [1000, 700], [700, 900], [740, 360], [844, 390]]) {
      const l = handLayout(w, h, 13);
      expect(l.rows).toEqual([13]);
      expect(l.step).toBeGreaterThanOrEqual(MIN_TARGET_PX);
      expect(l.step).toBeLessThan(l.cardW + 0.01);
      expect(fits(l, w)).toBe(true);
    }
    expect(handLayout(740, 360, 13).cardW).toBe(50); // little height: small cards
  });
  it('goes back to one row as the hand empties', () => {
    for (let n = 0; n <= 13; n++) {
      const l = handLayout(360, 740, n);
      expect(l.rows.reduce((a, b) => a + b, 0)).toBe(n);
      if (n > 1) expect(l.step).toBeGreaterThanOrEqual(MIN_TARGET_PX);
      expect(fits(l, 360)).toBe(true);
    }
    expect(handLayout(360, 740, 6).rows).toEqual([6]);
  });
  it('cuts a hand into its rows in order', () => {
    expect(intoRows([1, 2, 3, 4, 5], [3, 2])).toEqual([[1, 2, 3], [4, 5]]);
  });
});
