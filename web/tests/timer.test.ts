import { describe, expect, it } from 'vitest';
import { formatCountdown, fractionLeft, remainingMs, secondsShown, urgent } from '../src/timer';

describe('countdown', () => {
  const now = 1_000_000;
  it('counts down to the deadline', () => {
    expect(remainingMs(now + 12_345, now, 30)).toBe(12_345);
    expect(secondsShown(12_345)).toBe(13);
    expect(formatCountdown(12_345)).toBe('0:13');
  });
  it('never goes below zero', () => {
    expect(remainingMs(now - 500, now, 30)).toBe(0);
    expect(formatCountdown(0)).toBe('0:00');
  });
  it('is never longer than the turn time (client clock behind the server)', () => {
    expect(remainingMs(now + 90_000, now, 30)).toBe(30_000);
  });
  it('has no countdown without a deadline or a timer', () => {
    expect(remainingMs(null, now, 30)).toBeNull();
    expect(remainingMs(now + 5000, now, 0)).toBeNull();
  });
  it('formats minutes', () => {
    expect(formatCountdown(65_000)).toBe('1:05');
    expect(formatCountdown(600_000)).toBe('10:00');
  });
  it('gives the share of time left and turns urgent at 5 s', () => {
    expect(fractionLeft(15_000, 30)).toBe(0.5);
    expect(fractionLeft(45_000, 30)).toBe(1);
    expect(fractionLeft(1000, 0)).toBe(0);
    expect(urgent(5000)).toBe(true);
    expect(urgent(5001)).toBe(false);
  });
});
