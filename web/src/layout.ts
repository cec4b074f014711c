// Where each seat sits on the screen. Seats are numbered in turn order and play goes
// counter-clockwise (docs/rules.md): seen from the viewer at the bottom, the next player is on
// the right, the partner at the top, the previous player on the left.
import type { Seat } from './protocol';

export type Position = 'bottom' | 'right' | 'top' | 'left';
export const POSITIONS: Position[] = ['bottom', 'right', 'top', 'left'];

/** The seat the screen is drawn from: your own, or seat 0 for a spectator. */
export const viewerSeat = (you: Seat | null | undefined): Seat => (you ?? 0) as Seat;

export function positionOf(seat: number, you: Seat | null | undefined): Position {
  return POSITIONS[(((seat - viewerSeat(you)) % 4) + 4) % 4];
}

export function seatAt(pos: Position, you: Seat | null | undefined): Seat {
  return ((viewerSeat(you) + POSITIONS.indexOf(pos)) % 4) as Seat;
}

/** Seats in the order they are drawn around the table: bottom, right, top, left. */
export function seatsAround(you: Seat | null | undefined): Seat[] {
  return POSITIONS.map((p) => seatAt(p, you));
}

/**
 * The auction's 2 x 2 list of calls keeps the seats' places: partner and left on the upper row,
 * you and right on the lower one, left and right in the physical columns in both languages
 * (row and column from the top left, the list itself drawn left to right).
 */
export const CALLS_CELL: Record<Position, { row: 1 | 2; col: 1 | 2 }> = {
  bottom: { row: 2, col: 1 },
  right: { row: 2, col: 2 },
  top: { row: 1, col: 2 },
  left: { row: 1, col: 1 },
};

/** Team of the viewer ("us"): for a spectator, team 0. */
export const ourTeam = (you: Seat | null | undefined): 0 | 1 => (viewerSeat(you) % 2) as 0 | 1;

// ---- the hand ---------------------------------------------------------------------------

/** The smallest comfortable touch target, in CSS pixels (WCAG 2.5.5, Apple's HIG). */
export const MIN_TARGET_PX = 44;
/** The hand's horizontal padding, both sides together, in CSS pixels (style.css `.hand`). */
export const HAND_PAD_PX = 12;

/** How a hand is drawn: the cards per row (top row first), each card's width and the step from
 * one card's left edge to the next one's (the strip of a card left visible, its tap target). */
export interface HandLayout {
  rows: number[];
  cardW: number;
  step: number;
}

/**
 * The hand for a screen `width` x `height` CSS pixels. One overlapping row when every card keeps
 * a strip of at least MIN_TARGET_PX; otherwise (phones) two rows, the top one the longer, with
 * cards at least MIN_TARGET_PX wide. Fits in `width` for widths of 320 px (the narrowest phones)
 * and up. Cards 84 px on desktops, 50 px when the screen is short (a phone held sideways).
 */
export function handLayout(width: number, height: number, count: number): HandLayout {
  const avail = width - HAND_PAD_PX;
  const maxW = height <= 520 ? 50 : width >= 1000 ? 84 : 78;
  const oneW = Math.min(maxW, Math.max(MIN_TARGET_PX, avail / 7.2));
  // overlap to about 72% of a card, never under a target's width when the row has room
  const fit = (w: number, n: number) =>
    n <= 1 ? w : Math.min(Math.max(w * 0.72, MIN_TARGET_PX), (avail - w) / (n - 1));
  if (count <= 1 || fit(oneW, count) >= MIN_TARGET_PX)
    return { rows: count ? [count] : [], cardW: oneW, step: fit(oneW, count) };
  const top = Math.ceil(count / 2);
  const cardW = Math.min(maxW, 64, Math.max(MIN_TARGET_PX, avail / top));
  const step = top <= 1 ? cardW : Math.min(cardW, (avail - cardW) / (top - 1));
  return { rows: [top, count - top], cardW, step };
}

/** `items` cut into rows of the given lengths. */
export function intoRows<T>(items: T[], rows: number[]): T[][] {
  let i = 0;
  return rows.map((n) => items.slice(i, (i += n)));
}
