import { describe, expect, it } from 'vitest';
import { formatCountdown, fractionLeft, localDeadline, remainingMs, secondsShown, urgent } from '../src/timer';

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

describe('countdown on the server clock (deadline_ms − now_ms)', () => {
  const server = 1_700_000_000_000;
  it('shows the right time on a client clock 10 s slow', () => {
    const client = server - 10_000; // this client's clock when the message arrives
    const deadline = localDeadline(server + 20_000, server, client);
    expect(remainingMs(deadline, client, 30)).toBe(20_000);
    // and counts down from the arrival: 3 s later on the client's clock, 17 s are left
    expect(remainingMs(deadline, client + 3_000, 30)).toBe(17_000);
    expect(formatCountdown(remainingMs(deadline, client + 3_000, 30) ?? 0)).toBe('0:17');
  });
  it('shows the right time on a client clock 10 s fast', () => {
    const client = server + 10_000;
    const deadline = localDeadline(server + 20_000, server, client);
    expect(remainingMs(deadline, client, 30)).toBe(20_000);
  });
  it('falls back to the deadline alone without now_ms', () => {
    expect(localDeadline(server + 20_000, undefined, server - 10_000)).toBe(server + 20_000);
    expect(localDeadline(server + 20_000, null, server)).toBe(server + 20_000);
    expect(localDeadline(null, server, server)).toBeNull();
  });
});

describe('countdown from remaining_ms (issue 14)', () => {
  const server = 1_700_000_000_000;
  it('counts remaining_ms down from the arrival, whatever the clocks say', () => {
    const client = server - 10_000; // a client clock 10 s slow
    // remaining_ms wins over deadline_ms − now_ms (here they disagree on purpose)
    const deadline = localDeadline(server + 25_000, server, client, 20_000);
    expect(deadline).toBe(client + 20_000);
    expect(remainingMs(deadline, client, 30)).toBe(20_000);
    expect(remainingMs(deadline, client + 3_000, 30)).toBe(17_000);
  });
  it('shows 0 left when remaining_ms is 0 (past the deadline)', () => {
    const deadline = localDeadline(server - 500, server, server, 0);
    expect(remainingMs(deadline, server, 30)).toBe(0);
  });
  it('falls back to deadline_ms − now_ms when remaining_ms is absent or null', () => {
    const client = server + 10_000;
    expect(localDeadline(server + 20_000, server, client, undefined)).toBe(client + 20_000);
    expect(localDeadline(server + 20_000, server, client, null)).toBe(client + 20_000);
    expect(localDeadline(null, server, client, null)).toBeNull();
  });
});
