// The rules page's worked scoring examples (docs/rules.md, each preset's "Scoring"), as data:
// the bid, the tricks the declaring team took, and what each team scores. The levantine ones
// are docs/rules.md's own list; the classic ones are its example (bid 8 take 11 → +11) and the
// same deals under its rule. tests/rules.test.ts checks them against docs/rules.md.
import type { Lang } from './i18n';
import { num } from './i18n';
import { count } from './plural';
import { ltr } from './util';

export type Preset = 'levantine' | 'classic';

export interface ScoreExample {
  bid: number;
  /** Tricks the declaring team took (of 13). */
  taken: number;
  /** Points for the declaring team and for the defenders. */
  declarers: number;
  defenders: number;
}

const ex = (bid: number, taken: number, declarers: number, defenders: number): ScoreExample => ({ bid, taken, declarers, defenders });

export const EXAMPLES: Record<Preset, ScoreExample[]> = {
  levantine: [ex(8, 11, 8, 0), ex(9, 7, -9, 6), ex(7, 6, -7, 7), ex(7, 0, -7, 13), ex(13, 13, 13, 0)],
  classic: [ex(8, 11, 11, 0), ex(9, 7, -9, 6), ex(7, 6, -7, 7), ex(7, 0, -7, 13), ex(13, 13, 13, 0)],
};

/** Points with their sign ("+8", "−9", "0"), left to right inside Arabic text. */
export const signed = (x: number, l: Lang): string => ltr(x > 0 ? `+${num(x, l)}` : x < 0 ? `\u2212${num(-x, l)}` : num(0, l));

/** One example in words: "Bid 9, took 7 tricks: set. Declaring team −9, defenders +6 (their 6 tricks)." */
export function exampleText(e: ScoreExample, l: Lang): string {
  const made = e.taken >= e.bid;
  const theirs = 13 - e.taken;
  if (l === 'ar') {
    const took = e.taken === 0 ? 'ولم يأكل أي لفة' : `وأكل ${count(e.taken, 'trick', l, true)}`;
    const why = made
      ? e.declarers === e.bid && e.taken > e.bid
        ? ' (قيمة الطلب؛ اللفات الزائدة لا تُحسب)'
        : e.declarers === e.taken && e.taken > e.bid
          ? ' (كل لفة أكلها)'
          : e.bid === 13
            ? ' (بلا مكافأة)'
            : ''
      : '';
    const defWhy = !made ? ` (أكل ${count(theirs, 'trick', l, true)})` : '';
    return `طلب ${num(e.bid, l)} ${took}: <b>${made ? 'نجح' : 'انكسر'}</b>. فريق صاحب الطلب ${signed(e.declarers, l)}${why}، والفريق الآخر ${signed(e.defenders, l)}${defWhy}.`;
  }
  const took = e.taken === 0 ? 'took no trick' : `took ${count(e.taken, 'trick', l)}`;
  const why = made
    ? e.declarers === e.bid && e.taken > e.bid
      ? ' (the bid; the extra tricks count for nothing)'
      : e.declarers === e.taken && e.taken > e.bid
        ? ' (every trick taken)'
        : e.bid === 13
          ? ' (no bonus)'
          : ''
    : '';
  const defWhy = !made ? ` (for their ${count(theirs, 'trick', l)})` : '';
  return `Bid ${num(e.bid, l)}, ${took}: <b>${made ? 'made' : 'set'}</b>. Declaring team ${signed(e.declarers, l)}${why}, defenders ${signed(
    e.defenders,
    l,
  )}${defWhy}.`;
}
