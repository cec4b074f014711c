// What a table message moves (motion.ts): its cards to the trick, a finished trick to its winner.
import { describe, expect, it } from 'vitest';
import { motionOf, reducedMotion } from '../src/motion';
import type { GameEvent } from '../src/protocol';

const ev = (x: object[]) => x as unknown as GameEvent[];

describe('motion', () => {
  it('moves each card played, in order, and the trick won to its winner', () => {
    const m = motionOf(12, ev([
      { event: 'card', seat: 3, card: 'TS' },
      { event: 'card', seat: 0, card: 'AS' },
      { event: 'trick_won', seat: 0, trick: 1, tricks: [1, 0] },
    ]));
    expect(m).toEqual({ version: 12, cards: [{ seat: 3, card: 'TS' }, { seat: 0, card: 'AS' }], trickWinner: 0 });
  });
  it('moves nothing for a message without a card or a trick (a call, a reload)', () => {
    expect(motionOf(3, ev([{ event: 'call', seat: 1, call: 7 }]))).toBeNull();
    expect(motionOf(3, [])).toBeNull();
  });
  it('follows prefers-reduced-motion, and moves nothing without a window', () => {
    const win = (reduce: boolean) => ({ matchMedia: (q: string) => ({ matches: reduce && q.includes('reduce') }) }) as unknown as Window;
    expect(reducedMotion(win(true))).toBe(true);
    expect(reducedMotion(win(false))).toBe(false);
    expect(reducedMotion(undefined)).toBe(true);
  });
});
