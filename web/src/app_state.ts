// The application's state (what the screens draw) and the small pure helpers around it; the App
// that changes it is app_base.ts (the server's messages) and app.ts (the person's actions).
import type { ConnState } from './conn';
import type { Lang } from './i18n';
import type { Action, GameEvent, HistoryRound, RatingsMessage, TableSummary, TableView } from './protocol';
import { emptySheet, type Sheet } from './sheet';
import { load } from './util';
import type { AccountInput, AccountPanel } from './accounts';
import { DEFAULT_LEVEL, isLevel, isOfflineLevel, type Level, type OfflineLevel } from './bot_levels';
import type { Motion } from './motion';
import { DEFAULT_QUICK_PRESET, isQuickPreset, type QuickPreset } from './quick';

export interface CreateForm {
  preset: 'levantine' | 'classic';
  target: number;
  timer: number;
  priv: boolean;
  /** Rated (false: a casual table, where hints are given and nobody's rating changes). */
  casual?: boolean;
  bots: boolean;
}

/**
 * The round summary on screen: shown until `until` (this client's ms). When the server holds the
 * next deal's clock for it (`summary_ms`, `holds`), the summary takes the centre of the table
 * until the clock starts; otherwise (older servers) it is shown for 8 s beside the auction.
 */
export type Summary = (
  | { kind: 'scored'; event: Extract<GameEvent, { event: 'round_scored' }> }
  | { kind: 'passed' }
) & { at: number; until: number; holds: boolean };

/** The summary's timing from the table message that ended the deal (`summary_ms`, docs/protocol.md). */
export function summaryTiming(summaryMs: number | undefined, nowMs: number): { at: number; until: number; holds: boolean } {
  const holds = typeof summaryMs === 'number' && summaryMs > 0;
  return { at: nowMs, until: nowMs + (holds ? summaryMs : 8000), holds };
}

/** A screen to go back to on leaving `table` (set by the screen that opened it: tournament_screen.ts). */
export interface ReturnTo {
  table: string;
  hash: string;
}

export interface State {
  conn: ConnState;
  lang: Lang;
  name: string | null;
  token: string | null;
  welcomed: boolean;
  busy: boolean;
  tables: TableSummary[];
  /** The lobby page shown: its cursor (null: the first page), the cursors of the pages before it, the next page's. */
  listCursor: string | null;
  listPrev: (string | null)[];
  listNext: string | null;
  /** Lobby pages asked for and answered on this connection: equal once every `list` sent so far has its answer (the server answers in order). */
  listsAsked: number;
  listsAnswered: number;
  table: TableView | null;
  codes: Record<string, string>;
  sheet: Sheet;
  summary: Summary | null;
  matchOver: Extract<GameEvent, { event: 'match_over' }> | null;
  /** How the last rated match at this table moved each person's rating (the server's `ratings`). */
  ratings: RatingsMessage | null;
  log: GameEvent[];
  error: string | null;
  showLastTrick: boolean;
  showSheet: boolean;
  actedVersion: number | null;
  /** The server's hint for the table at `version` (shown on that version only). */
  hint: { version: number; action: Action } | null;
  /** The last finished round of the table's match (from `history`): the last trick before the next deal's first. */
  lastRound?: { table: string; match: number; round: HistoryRound } | null;
  /** Table sounds on (on by default; remembered): played only after the person's first gesture (sounds.ts). */
  sound: boolean;
  /** What the last table message moves on the screen (motion.ts): visual only, drawn by view.ts. */
  motion?: Motion | null;
  form: CreateForm;
  /** The level of the bots this person adds (bot_levels.ts; remembered; absent: DEFAULT_LEVEL). */
  botLevel?: Level;
  /** The level of the bots of an offline match (OFFLINE_LEVELS; remembered; absent: DEFAULT_LEVEL). */
  offlineLevel?: OfflineLevel;
  /** The rules quick play asks for (quick.ts; remembered; absent: DEFAULT_QUICK_PRESET). */
  quickPreset?: QuickPreset;
  nameInput: string;
  joinId: string;
  joinCode: string;
  watching: string | null;
  /** Where leaving this table goes back to (a screen's hash, e.g. a tournament's bracket), else the lobby. */
  returnTo?: ReturnTo | null;
  /** Playing offline against the WebAssembly engine (offline.ts): no server involved. */
  offline?: boolean;
  /** Accounts (accounts.ts): the signed-in name is an account; the account panel open, if any. */
  registered?: boolean;
  accountPanel?: AccountPanel | null;
  accountInput?: AccountInput;
  /** On the sign-in screen: the server ended this device's session, or the name typed is the person's account (status_view.ts). */
  notice?: 'sessionEnded' | 'ownAccount' | null;
  /** A new version of the page is installed and waits for the person (updates.ts); the prompt put off ("Later"). */
  updateReady?: boolean;
  updateDismissed?: boolean;
  /** The server's protocol version when it is newer than this page's (PROTOCOL_VERSION); null otherwise. */
  serverProtocol?: number | null;
}

/** What the app needs of the page's service worker (updates.ts Updates). */
export interface PageUpdates {
  apply(): void;
  check(apply?: boolean): Promise<void>;
}

export const LS = typeof localStorage !== 'undefined' ? localStorage : undefined;
export const SS = typeof sessionStorage !== 'undefined' ? sessionStorage : undefined;

/** The value stored under `key` when `ok` accepts it (e.g. a level), else `fallback`. */
function loadChecked<T>(key: string, ok: (v: unknown) => v is T, fallback: T): T {
  const v = load<unknown>(LS, key, fallback);
  return ok(v) ? v : fallback;
}

/** The state a page starts with in language `l`: what the person chose before, read from storage. */
export function initialState(l: Lang): State {
  return {
    conn: 'connecting',
    lang: l,
    name: load<string | null>(LS, 'tarneeb.name', null),
    token: load<string | null>(LS, 'tarneeb.token', null),
    welcomed: false,
    busy: false,
    tables: [],
    listCursor: null,
    listPrev: [],
    listNext: null,
    listsAsked: 0,
    listsAnswered: 0,
    table: null,
    codes: load<Record<string, string>>(LS, 'tarneeb.codes', {}),
    sheet: load<Sheet>(LS, 'tarneeb.sheet', emptySheet('', 0)),
    summary: null,
    matchOver: null,
    ratings: null,
    log: [],
    error: null,
    showLastTrick: false,
    showSheet: false,
    actedVersion: null,
    hint: null,
    sound: load(LS, 'tarneeb.sound', true),
    form: load<CreateForm>(LS, 'tarneeb.form', { preset: 'levantine', target: 31, timer: 30, priv: false, bots: true }),
    botLevel: loadChecked('tarneeb.botLevel', isLevel, DEFAULT_LEVEL),
    offlineLevel: loadChecked('tarneeb.offlineLevel', isOfflineLevel, DEFAULT_LEVEL),
    quickPreset: loadChecked('tarneeb.quickPreset', isQuickPreset, DEFAULT_QUICK_PRESET),
    nameInput: load<string | null>(LS, 'tarneeb.name', null) ?? '',
    joinId: '',
    joinCode: '',
    watching: load<string | null>(SS, 'tarneeb.watching', null),
    returnTo: load<ReturnTo | null>(SS, 'tarneeb.returnTo', null),
    offline: false,
    registered: false,
    accountPanel: null,
  };
}

/** The hash that leaving `table` goes back to: the saved one when it was set for that very table, else null (the lobby). */
export function backFrom(r: ReturnTo | null | undefined, table: string | null): string | null {
  return r && table !== null && r.table === table ? r.hash : null;
}

/** A `list` request: the page after `cursor` (null: the first), watched when `watch` (pushed again when it changes). */
export function listMessage(cursor: string | null, watch: boolean, limit?: number): Record<string, unknown> {
  return {
    type: 'list',
    ...(cursor === null ? {} : { cursor }),
    ...(limit === undefined ? {} : { limit }),
    ...(watch ? { watch: true } : {}),
  };
}

/** The WebSocket close code of a revoked session (docs/protocol.md "Accounts"). */
export const CLOSE_SIGNED_OUT = 4001;
