// Table sounds, generated with the Web Audio API (no sound files): on by default (issue 28: "your
// turn" is heard), a toggle in the table's header, remembered in localStorage. Which sound a table
// message calls for is decided by soundsFor (pure, tested); play() makes it. Browsers let a page
// play sound only after a gesture of the person (autoplay rules): nothing is played, and no
// AudioContext made, before the first pointer or key press on the page (listenForGesture).
import type { GameEvent, TableView } from './protocol';

export type Sound = 'card' | 'trick' | 'turn' | 'round';

/**
 * The sounds a table message calls for: a card played, a trick won, a round scored, and the
 * player's own turn beginning (`wasMyTurn`: whether the previous message already offered actions).
 */
export function soundsFor(events: GameEvent[], t: TableView, wasMyTurn: boolean): Sound[] {
  const out: Sound[] = [];
  if (events.some((e) => e.event === 'card')) out.push('card');
  if (events.some((e) => e.event === 'trick_won')) out.push('trick');
  if (events.some((e) => e.event === 'round_scored' || e.event === 'passed_out')) out.push('round');
  const myTurn = t.you !== null && t.round?.to_act === t.you && (t.legal ?? []).length > 0;
  if (myTurn && !wasMyTurn) out.push('turn');
  return out;
}

/** Notes of each sound: [frequency Hz, start s, length s]. */
const NOTES: Record<Sound, [number, number, number][]> = {
  card: [[220, 0, 0.05]],
  trick: [[523, 0, 0.08], [659, 0.08, 0.1]],
  turn: [[880, 0, 0.09]],
  round: [[523, 0, 0.1], [659, 0.1, 0.1], [784, 0.2, 0.16]],
};

let ctx: AudioContext | null = null;
let gesture = false;

/** Listens on `target` (the document) for the person's first gesture, after which sounds may play. */
export function listenForGesture(target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>): void {
  const events = ['pointerdown', 'keydown', 'touchend'] as const;
  const seen = () => {
    gesture = true;
    for (const e of events) target.removeEventListener(e, seen, true);
  };
  for (const e of events) target.addEventListener(e, seen, true);
}

/** Whether the person has made a gesture on the page yet (sounds may play). */
export function gestureSeen(): boolean {
  return gesture;
}

/** Plays `sound` quietly: nothing before the person's first gesture, nor where the browser has no Web Audio. */
export function play(sound: Sound): void {
  const AC = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!AC || !gesture) return;
  ctx ??= new AC();
  if (ctx.state === 'suspended') void ctx.resume().catch(() => {});
  const at = ctx.currentTime;
  for (const [freq, start, len] of NOTES[sound]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = sound === 'card' ? 'triangle' : 'sine';
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, at + start);
    gain.gain.exponentialRampToValueAtTime(0.08, at + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + start + len);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at + start);
    osc.stop(at + start + len + 0.02);
  }
}
