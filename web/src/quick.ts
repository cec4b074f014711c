// Quick play (issue 28, docs/protocol.md "Lobby", "Quick play"): its words in both languages and
// the logic of its waiting room, without the DOM. One button in the lobby sends `quick_play` with
// the preset picked (remembered); the server seats the person at a quick-play table, whose table
// message carries `quick` and, while it waits for people, `fill_ms`: the time until computer
// players fill its empty seats. The page counts that down from the message's arrival (this
// client's clock, as the turn timer: timer.ts), never below 0. The HTML is view_quick.ts.
import { type Lang, lang, num } from './i18n';
import type { TableView } from './protocol';
import { secondsShown } from './timer';

/** The rules a quick-play table is played by (the protocol's presets), the default first. */
export const QUICK_PRESETS = ['levantine', 'classic'] as const;
export type QuickPreset = (typeof QUICK_PRESETS)[number];
export const DEFAULT_QUICK_PRESET: QuickPreset = 'levantine';

/** True when `x` is a preset quick play offers (e.g. a value read back from storage). */
export function isQuickPreset(x: unknown): x is QuickPreset {
  return typeof x === 'string' && (QUICK_PRESETS as readonly string[]).includes(x);
}

const WORDS = {
  en: {
    quickPlay: 'Quick play',
    quickHint: 'A table with people of your level; computer players take the seats nobody takes within a few seconds.',
    quickRules: 'Rules',
    quickBadge: 'Quick',
    looking: 'Looking for players…',
    fillIn: 'computer players join in {n} s',
    filling: 'computer players are joining…',
    playNow: 'Play now',
    playNowHint: 'Computer players take the empty seats at once.',
  },
  ar: {
    quickPlay: 'لعب سريع',
    quickHint: 'طاولة مع لاعبين من مستواك؛ يأخذ لاعبون آليون المقاعد التي لا يأخذها أحد خلال ثوانٍ.',
    quickRules: 'القوانين',
    quickBadge: 'سريع',
    looking: 'نبحث عن لاعبين…',
    fillIn: 'ينضم لاعبون آليون بعد {n} ث',
    filling: 'ينضم لاعبون آليون الآن…',
    playNow: 'العب الآن',
    playNowHint: 'يأخذ لاعبون آليون المقاعد الفارغة فورًا.',
  },
} as const;
export type QuickKey = keyof (typeof WORDS)['en'];
/** Every text's key (the tests check both languages have each). */
export const QUICK_KEYS = Object.keys(WORDS.en) as QuickKey[];

/** A text of quick play in language `l`. */
export function qw(k: QuickKey, l: Lang = lang()): string {
  return WORDS[l][k];
}

/** A quick-play table waiting for people, whose empty seats get bots at a time the server gave (`fill_ms`). */
export function quickWaiting(tv: TableView): boolean {
  return tv.state === 'waiting' && typeof tv.fill_ms === 'number';
}

/** When the empty seats get bots, on this client's clock: the message's arrival plus `fill_ms` (null: no such time). */
export function fillDeadline(fillMs: number | null | undefined, receivedMs: number): number | null {
  return typeof fillMs === 'number' && Number.isFinite(fillMs) ? receivedMs + Math.max(0, fillMs) : null;
}

/**
 * "computer players join in 12 s" («… بعد ١٢ ث»), in whole seconds rounded up, at `nowMs`; once
 * the time is up (the server's start is on its way) "computer players are joining…".
 */
export function fillLabel(deadlineMs: number, nowMs: number, l: Lang = lang()): string {
  const secs = secondsShown(deadlineMs - nowMs);
  return secs > 0 ? qw('fillIn', l).replace('{n}', num(secs, l)) : qw('filling', l);
}
