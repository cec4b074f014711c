// Computer players as a person reads them (issue 28): a name ("Bot 2" / «روبوت ٢») and a level
// badge ("hard" / «صعب») instead of the engine's name ("heuristic 2"). The levels are the
// server's registry names (docs/bots.md "Levels"): `add_bot` with bot "easy" … "expert". Older
// tables and stored records name their bots by engine: "heuristic" shows as medium, "pimc" as
// expert, and "random" (weaker than every level) as a plain "Bot" with no level. An outside
// engine (a name the server registered with --engine) keeps its own name, with a plain bot badge.
import { esc } from './util';
import { type Lang, lang, num } from './i18n';
import type { SeatInfo } from './protocol';

/** The levels a person picks, weakest first. */
export const LEVELS = ['easy', 'medium', 'hard', 'expert'] as const;
export type Level = (typeof LEVELS)[number];
/** The level a new bot gets when the person has not picked one. */
export const DEFAULT_LEVEL = 'medium' satisfies Level;
/**
 * The levels offline play offers: those the WebAssembly engine has (wasm/offline.cpp, setting
 * "level"): easy, medium and hard (the learned card player, no solver). expert is pimc, which
 * needs the double-dummy solver and threads, not in that build; the picker says it is played online.
 */
export const OFFLINE_LEVELS = ['easy', 'medium', 'hard'] as const satisfies readonly Level[];
export type OfflineLevel = (typeof OFFLINE_LEVELS)[number];

/** True when `x` is a level offline play has. */
export function isOfflineLevel(x: unknown): x is OfflineLevel {
  return typeof x === 'string' && (OFFLINE_LEVELS as readonly string[]).includes(x);
}

const WORDS = {
  en: {
    bot: 'Bot',
    easy: 'easy',
    medium: 'medium',
    hard: 'hard',
    expert: 'expert',
    levelTitle: 'Bot level',
    addBotAt: 'Add a bot',
    offlineLevels: 'Expert bots play online only.',
  },
  ar: {
    bot: 'روبوت',
    easy: 'سهل',
    medium: 'متوسط',
    hard: 'صعب',
    expert: 'خبير',
    levelTitle: 'مستوى الروبوت',
    addBotAt: 'أضف روبوتًا',
    offlineLevels: 'الروبوت الخبير في اللعب على الإنترنت فقط.',
  },
} as const;
export type LevelKey = keyof (typeof WORDS)['en'];
/** Every text's key (the tests check both languages have each). */
export const LEVEL_KEYS = Object.keys(WORDS.en) as LevelKey[];

/** A text of this module in language `l`. */
export function lw(k: LevelKey, l: Lang = lang()): string {
  return WORDS[l][k];
}

/** The engine names the server registers (docs/bots.md), beside the levels. */
const ENGINES = ['random', 'heuristic', 'pimc'] as const;

/** True when `x` is one of the four levels (e.g. a value read back from storage). */
export function isLevel(x: unknown): x is Level {
  return typeof x === 'string' && (LEVELS as readonly string[]).includes(x);
}

/** True when `kind` is a bot the server builds in (a level or an engine name), not an outside engine. */
export function isBuiltIn(kind: string): boolean {
  return isLevel(kind) || (ENGINES as readonly string[]).includes(kind);
}

/**
 * The level a bot kind plays at: a level's own name, or the nearest level of an engine name
 * ("heuristic": medium, "pimc": expert); null for "random", an outside engine or no kind.
 */
export function levelOfKind(kind: string | null | undefined): Level | null {
  if (!kind) return null;
  if (isLevel(kind)) return kind;
  if (kind === 'heuristic') return 'medium';
  if (kind === 'pimc') return 'expert';
  return null;
}

/**
 * A built-in bot's name as the server gives it, its kind and its seat number 1..4 ("heuristic 2",
 * "easy 4"); null for any other name (a person's, an outside engine's). Guests may not take such
 * names (docs/protocol.md "Bot names"), so a record's player named so is a bot.
 */
export function parseBotName(name: string): { kind: string; number: number } | null {
  const m = /^([a-z]+) ([1-4])$/.exec(name);
  if (!m || !isBuiltIn(m[1])) return null;
  return { kind: m[1], number: Number(m[2]) };
}

/** How a bot is shown: the name a person reads and its level (null: a plain bot badge). */
export interface BotShown {
  name: string;
  level: Level | null;
  /** An outside engine: its own name, not "Bot". */
  engine?: boolean;
}

/** "Bot 2" / «روبوت ٢» (no number: "Bot"). */
export function botName(number: number | null, l: Lang = lang()): string {
  return number === null ? lw('bot', l) : `${lw('bot', l)} ${num(number, l)}`;
}

/**
 * How the seat's player is shown when it is a bot, or null for a person. A built-in bot (its kind
 * from the server, else read from its name) is "Bot N" with its level; an outside engine keeps
 * the name the server gave it, with no level.
 */
export function botShown(seat: SeatInfo | null | undefined, l: Lang = lang()): BotShown | null {
  if (!seat?.bot) return null;
  const parsed = parseBotName(seat.name);
  // the kind from the server; else from the name ("heuristic 2"; an older server's bare "heuristic")
  const kind = typeof seat.kind === 'string' && seat.kind ? seat.kind : (parsed?.kind ?? (isBuiltIn(seat.name) ? seat.name : undefined));
  if (!kind || !isBuiltIn(kind)) return { name: seat.name, level: null, engine: true };
  return { name: botName(parsed?.number ?? null, l), level: levelOfKind(kind) };
}

/**
 * How a stored record's player (a name only: "Layla", "heuristic 2", "easy 3") is shown: a
 * built-in bot as "Bot N" with its level, or null for anyone else (shown by their own name).
 */
export function recordPlayerShown(name: string, l: Lang = lang()): BotShown | null {
  const parsed = parseBotName(name);
  return parsed ? { name: botName(parsed.number, l), level: levelOfKind(parsed.kind) } : null;
}

/** A tournament's bot player ("bot:hard", "bot:heuristic") as shown: "Bot" and its level. */
export function tournamentBotShown(player: string, l: Lang = lang()): BotShown | null {
  if (!player.startsWith('bot:')) return null;
  const kind = player.slice(4);
  return isBuiltIn(kind) ? { name: lw('bot', l), level: levelOfKind(kind) } : { name: kind, level: null, engine: true };
}

/** The bot's name and badge in plain text: "Bot 2 · hard" / «روبوت ٢ · صعب» ("Bot" alone without a level). */
export function botText(b: BotShown, l: Lang = lang()): string {
  if (b.level) return `${b.name} · ${lw(b.level, l)}`;
  return b.engine ? `${b.name} · ${lw('bot', l)}` : b.name;
}

/** The badge after a bot's name: its level ("hard"); "Bot" for an outside engine; none for a
 * built-in bot with no level (its name already says "Bot"). */
export function badgeHtml(b: BotShown, l: Lang = lang()): string {
  if (b.level) return `<span class="tag bot-level level-${b.level}" data-level="${b.level}">${esc(lw(b.level, l))}</span>`;
  return b.engine ? `<span class="tag bot-level" data-level="">${esc(lw('bot', l))}</span>` : '';
}

/** The bot's name (isolated, `<bdi>`) and its badge. */
export function botHtml(b: BotShown, l: Lang = lang()): string {
  return `<bdi class="bot-name">${esc(b.name)}</bdi> ${badgeHtml(b, l)}`;
}

/**
 * The level picker: a button per level (`levels`: the four, or offline's), one pressed
 * (`aria-pressed`), each at least 44×44 CSS px (bot_levels.css `.levels button`); each carries
 * `data-<attr>="<act>"` (data-act for the game's screens, data-tact for the tournament's) and
 * data-level. The offline picker (act `offlinelevel`) says why expert is not there.
 */
export function levelPickerHtml(
  current: Level,
  l: Lang = lang(),
  attr: 'act' | 'tact' = 'act',
  { levels = LEVELS, act = 'botlevel' }: { levels?: readonly Level[]; act?: 'botlevel' | 'offlinelevel' } = {},
): string {
  const id = act === 'offlinelevel' ? 'offline-level' : 'level';
  const buttons = levels.map(
    (lv) =>
      `<button type="button" class="level-choice" data-${attr}="${act}" data-level="${lv}" data-testid="${id}-${lv}" aria-pressed="${lv === current}">${esc(lw(lv, l))}</button>`,
  ).join('');
  const note = levels.length < LEVELS.length ? `<span class="levels-note">${esc(lw('offlineLevels', l))}</span>` : '';
  return `<div class="levels" role="group" aria-label="${esc(lw('levelTitle', l))}" data-testid="${act === 'offlinelevel' ? 'offline-levels' : 'bot-levels'}"><span class="levels-title">${esc(lw('levelTitle', l))}</span>${buttons}${note}</div>`;
}

/** A stored record's player in plain text: "Bot 2 · hard" for a built-in bot, else the name itself. */
export function recordNameText(name: string, l: Lang = lang()): string {
  const b = recordPlayerShown(name, l);
  return b ? botText(b, l) : name;
}

/** A stored record's player as HTML: a built-in bot's name and level badge, else the name isolated (`<bdi>`). */
export function recordNameHtml(name: string, l: Lang = lang()): string {
  const b = recordPlayerShown(name, l);
  return b ? botHtml(b, l) : `<bdi>${esc(name)}</bdi>`;
}
