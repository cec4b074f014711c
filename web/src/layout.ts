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

/** Team of the viewer ("us"): for a spectator, team 0. */
export const ourTeam = (you: Seat | null | undefined): 0 | 1 => (viewerSeat(you) % 2) as 0 | 1;
