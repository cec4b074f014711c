// The countdown of the seat to act.

/**
 * Milliseconds left before the deadline. The deadline is the server's clock; a client clock
 * that is off cannot make the countdown longer than the table's turn time, nor negative.
 */
export function remainingMs(deadlineMs: number | null | undefined, nowMs: number, turnSeconds: number): number | null {
  if (deadlineMs === null || deadlineMs === undefined || !(turnSeconds > 0)) return null;
  const left = deadlineMs - nowMs;
  return Math.max(0, Math.min(left, turnSeconds * 1000));
}

/**
 * The deadline on this client's clock. The server sends `remaining_ms` (issue 14: the time left,
 * deadline_ms − now_ms, ready to use): the deadline is then the moment the message arrived
 * (`receivedMs`, this client's clock) plus it. An older server sends `deadline_ms` and `now_ms`
 * (its own Unix ms when it built the message, docs/protocol.md): the time left is deadline_ms −
 * now_ms at arrival, so a client clock that is off by any amount still counts down the right
 * time. Without `now_ms` either the deadline is taken as it is, which trusts this client's clock.
 */
export function localDeadline(
  deadlineMs: number | null | undefined,
  serverNowMs: number | null | undefined,
  receivedMs: number,
  remaining?: number | null,
): number | null {
  if (typeof remaining === 'number' && Number.isFinite(remaining)) return receivedMs + Math.max(0, remaining);
  if (deadlineMs === null || deadlineMs === undefined) return null;
  if (serverNowMs === null || serverNowMs === undefined || !Number.isFinite(serverNowMs)) return deadlineMs;
  return receivedMs + (deadlineMs - serverNowMs);
}

/** Whole seconds shown: rounded up, so 0 appears only when time is up. */
export function secondsShown(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}

/** "0:25", "1:05". */
export function formatCountdown(ms: number): string {
  const s = secondsShown(ms);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Share of the turn time left, 0..1. */
export function fractionLeft(ms: number, turnSeconds: number): number {
  if (!(turnSeconds > 0)) return 0;
  return Math.max(0, Math.min(1, ms / (turnSeconds * 1000)));
}

/** True when the countdown should look urgent. */
export const urgent = (ms: number): boolean => ms <= 5000;
