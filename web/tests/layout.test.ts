import { describe, expect, it } from 'vitest';
import { ourTeam, positionOf, seatAt, seatsAround } from '../src/layout';

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
