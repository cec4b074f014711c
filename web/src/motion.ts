// Motion at the table (issue 28): a card played moves from its player's side of the table to its
// place in the trick, and a finished trick moves to its winner's side. Visual only: the state and
// the page's HTML are drawn at once, as without motion, and the movement is laid over them with
// the Web Animations API after the render (view.ts), so nothing waits for it, a new message simply
// replaces what moves, and a re-render of the same table version moves nothing again. Nothing
// moves for a person who asks for less motion (`prefers-reduced-motion: reduce`).
//
// What moves is decided from the table message's events (motionOf, pure and tested); the DOM part
// (animateTable) reads where the seats, the hand's cards and the trick are on the screen.
import type { GameEvent } from './protocol';

/** What a table message moves: the cards it added to the trick, and the trick it finished. */
export interface Motion {
  /** The table version the message brought (the movement is laid over that render only). */
  version: number;
  /** Cards played in the message, in order. */
  cards: { seat: number; card: string }[];
  /** The seat that won the trick the message finished, or null. */
  trickWinner: number | null;
}

/** The movement a table message at `version` calls for, or null when it moves nothing. */
export function motionOf(version: number, events: GameEvent[]): Motion | null {
  const cards: Motion['cards'] = [];
  let trickWinner: number | null = null;
  for (const e of events) {
    if (e.event === 'card') cards.push({ seat: e.seat, card: e.card });
    else if (e.event === 'trick_won') trickWinner = e.seat;
  }
  return cards.length || trickWinner !== null ? { version, cards, trickWinner } : null;
}

/** Durations, ms: a card's flight, the pause on a finished trick, the trick's flight to its winner, the gap between cards of one message. */
export const TIMING = { card: 260, hold: 450, collect: 380, stagger: 120 } as const;

/** Whether the person asked for less motion (no window, as in unit tests: no motion). */
export function reducedMotion(win: Pick<Window, 'matchMedia'> | undefined = globalThis.window): boolean {
  return !win?.matchMedia || win.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

type Rect = Pick<DOMRect, 'left' | 'top' | 'width' | 'height'>;
const centre = (r: Rect) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

/** Where the hand's cards were before a render (a played card of one's own leaves from there). */
export function handRects(root: ParentNode): Map<string, DOMRect> {
  const out = new Map<string, DOMRect>();
  for (const el of root.querySelectorAll<HTMLElement>('.hand .card[data-card]')) out.set(el.dataset.card!, el.getBoundingClientRect());
  return out;
}

/**
 * Lays the movement `m` over the table just drawn in `root`: each card played flies in from its
 * seat (one's own from where it was in the hand: `before`), and a finished trick, once its last
 * card is in, flies to its winner's side. A card that moves is marked `data-from` (the side it
 * comes from); a finished trick, `data-collected-to` (its winner's side), and its flight is a copy
 * in a layer of its own (`.trick-flight`, `data-to`, above the table and under dialogs; removed when
 * it lands) so that the next message's render does not cut it short.
 */
export function animateTable(root: HTMLElement, m: Motion, before: Map<string, DOMRect>): void {
  const seatRect = (seat: number) => root.querySelector(`.seat[data-seat="${seat}"]`)?.getBoundingClientRect() ?? null;
  const posOf = (seat: number) => root.querySelector<HTMLElement>(`.seat[data-seat="${seat}"]`)?.dataset.pos ?? '';
  /** The offset from `el` to where a card played from `seat` comes from. */
  const fromOffset = (el: Element, seat: number, card: string) => {
    const from = before.get(card) ?? seatRect(seat);
    if (!from) return null;
    const a = centre(from);
    const b = centre(el.getBoundingClientRect());
    return { x: a.x - b.x, y: a.y - b.y };
  };
  const trick = m.trickWinner === null ? null : root.querySelector<HTMLElement>('.previous-trick');
  m.cards.forEach(({ seat, card }, i) => {
    const el = root.querySelector<HTMLElement>(`.trick [data-played="${card}"]`);
    if (!el || (trick && trick.contains(el))) return; // a finished trick's card flies with its copy
    const d = fromOffset(el, seat, card);
    if (!d) return;
    el.dataset.from = posOf(seat);
    el.animate([{ translate: `${d.x}px ${d.y}px` }, { translate: '0 0' }], {
      duration: TIMING.card,
      delay: i * TIMING.stagger,
      easing: 'ease-out',
      fill: 'backwards',
    });
  });
  if (!trick || m.trickWinner === null) return;
  const target = seatRect(m.trickWinner);
  if (!target) return;
  const to = posOf(m.trickWinner);
  const layer = root.ownerDocument.createElement('div');
  layer.className = 'trick-flight';
  layer.dataset.to = to;
  layer.setAttribute('aria-hidden', 'true');
  const t = centre(trick.getBoundingClientRect());
  const w = centre(target);
  // the copies gather towards the winner's seat and fade on the way
  const away = `${(w.x - t.x) * 0.8}px ${(w.y - t.y) * 0.8}px`;
  const lastIn = m.cards.findIndex((c) => trick.querySelector(`[data-played="${c.card}"]`));
  const start = lastIn < 0 ? 0 : lastIn * TIMING.stagger + TIMING.card;
  const total = start + TIMING.hold + TIMING.collect;
  const flights: Animation[] = [];
  for (const played of trick.querySelectorAll<HTMLElement>('.played')) {
    const r = played.getBoundingClientRect();
    const copy = played.cloneNode(true) as HTMLElement;
    copy.className = 'played';
    Object.assign(copy.style, { left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px` });
    layer.append(copy);
    const card = played.dataset.played ?? '';
    const inNow = m.cards.find((c) => c.card === card);
    const d = inNow ? fromOffset(played, inNow.seat, card) : null;
    const frames: Keyframe[] = [
      { translate: d ? `${d.x}px ${d.y}px` : '0 0', opacity: 1, offset: 0 },
      { translate: '0 0', opacity: 1, offset: start / total },
      { translate: '0 0', opacity: 1, offset: (start + TIMING.hold) / total },
      { translate: away, opacity: 0, offset: 1 },
    ];
    if (d) copy.dataset.from = posOf(inNow!.seat);
    flights.push(copy.animate(frames, { duration: total, easing: 'ease-in-out', fill: 'forwards' }));
  }
  trick.classList.add('collected');
  trick.dataset.collectedTo = to;
  root.ownerDocument.body.append(layer);
  void Promise.all(flights.map((f) => f.finished)).then(
    () => layer.remove(),
    () => layer.remove(),
  );
}
