// The application: state, server messages, user actions. Rendering is in view.ts.
import { Connection, ServerError, wsUrl, type ConnState } from './conn';
import { initialLang, setLang, errorText, dir, t, type Lang } from './i18n';
import type { Action, GameEvent, HistoryRound, RatingsMessage, Seat, ServerMessage, TableSummary, TableView } from './protocol';
import { applyEvents, emptySheet, sheetFromHistory, type Sheet } from './sheet';
import { play, soundsFor } from './sounds';
import { load, save } from './util';
import { localDeadline } from './timer';
import type { OfflineGame } from './offline';
import type { AccountInput, AccountPanel } from './accounts';
import { parseInvite, withoutInvite, type Invite } from './invite';
import { PROTOCOL_VERSION } from './protocol';
import { sameName } from './accounts';
import { loadRecord, saveRecord } from './offline_store';
import { DEFAULT_LEVEL, isLevel, type Level } from './bot_levels';

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
  /** Table sounds on (off by default; remembered). */
  sound: boolean;
  form: CreateForm;
  /** The level of the bots this person adds (bot_levels.ts; remembered; absent: DEFAULT_LEVEL). */
  botLevel?: Level;
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

const LS = typeof localStorage !== 'undefined' ? localStorage : undefined;
const SS = typeof sessionStorage !== 'undefined' ? sessionStorage : undefined;

export class App {
  state: State;
  private conn: Connection;
  /** This connection watches the lobby: a `list` with `watch: true` was sent and not ended (docs/protocol.md "Watching the lobby"). */
  private lobbyWatched = false;
  /** The table shown came from a connection since lost: the next table message replaces it whatever its version (the server's state wins). */
  private resync = false;
  private errorTimer: ReturnType<typeof setTimeout> | null = null;
  private offlineGame: OfflineGame | null = null;
  /** The chat panel's handler of `chat` and `chat_history` (chat.ts; issue 15). */
  social: ((m: ServerMessage) => void) | null = null;
  /** An invitation link this page was opened with (`?join=`, invite.ts), until it is used. */
  private invite: Invite | null = null;
  /** The page's service worker, when it has one (main.ts). */
  updates: PageUpdates | null = null;

  constructor(private render: (s: State) => void) {
    const q = new URLSearchParams(location.search);
    this.invite = parseInvite(location.search);
    const l = initialLang(LS?.getItem('tarneeb.lang') ?? null, q.get('lang'), navigator.language);
    setLang(l);
    this.state = {
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
      sound: load(LS, 'tarneeb.sound', false),
      form: load<CreateForm>(LS, 'tarneeb.form', { preset: 'levantine', target: 31, timer: 30, priv: false, bots: true }),
      botLevel: ((v: unknown) => (isLevel(v) ? v : DEFAULT_LEVEL))(load<unknown>(LS, 'tarneeb.botLevel', DEFAULT_LEVEL)),
      nameInput: load<string | null>(LS, 'tarneeb.name', null) ?? '',
      joinId: '',
      joinCode: '',
      watching: load<string | null>(SS, 'tarneeb.watching', null),
      returnTo: load<ReturnTo | null>(SS, 'tarneeb.returnTo', null),
      offline: false,
      registered: false,
      accountPanel: null,
    };
    document.documentElement.lang = l;
    document.documentElement.dir = dir(l);
    this.conn = new Connection(
      wsUrl(location),
      (m) => this.onMessage(m),
      (s) => this.onConn(s),
    );
  }

  start(): void {
    this.conn.open();
    this.update();
    if (loadRecord(LS)) {
      // an offline match was being played when the page was left: it goes on (offline_store.ts)
      this.state.offline = true;
      void this.resumeOffline();
    }
  }

  update(patch: Partial<State> = {}): void {
    Object.assign(this.state, patch);
    this.render(this.state);
  }

  // ---- connection -------------------------------------------------------------------

  private onConn(s: ConnState): void {
    this.state.conn = s;
    // a subscription belongs to one connection: a new one watches again when it enters the lobby
    if (s !== 'open') this.lobbyWatched = false;
    // a lost connection (closed, or silent past a time limit: conn.ts) failed every request on
    // it: no action stays pending, and the table shown is redrawn from the next connection's
    if (s === 'closed' || s === 'offline') {
      this.state.actedVersion = null;
      this.resync = true;
    }
    // the server closed the connection because this device's session was revoked (a password
    // changed or "sign out everywhere" on another device: docs/protocol.md "Accounts")
    if (s === 'closed' && this.conn.lastCloseCode === CLOSE_SIGNED_OUT && this.state.token) this.sessionEnded();
    if (s === 'open') {
      this.state.welcomed = false;
      this.state.listsAsked = 0;
      this.state.listsAnswered = 0;
      if (this.state.token) this.hello({ token: this.state.token });
    }
    this.update();
  }

  private async hello(who: { token: string } | { name: string } | { name: string; password: string }): Promise<void> {
    this.update({ busy: true });
    try {
      const w = await this.conn.request({ type: 'hello', ...who });
      if (w.type !== 'welcome') return;
      save(LS, 'tarneeb.token', w.token);
      save(LS, 'tarneeb.name', w.name);
      if (w.registered === true) save(LS, 'tarneeb.account', w.name);
      const newer = typeof w.protocol === 'number' && w.protocol > PROTOCOL_VERSION ? w.protocol : null;
      if (newer !== null) void this.updates?.check();
      this.update({ token: w.token, name: w.name, welcomed: true, busy: false, error: null, registered: w.registered === true, notice: null, serverProtocol: newer });
      if (this.invite && !this.state.offline) {
        const inv = this.invite;
        this.invite = null;
        history.replaceState(history.state, '', withoutInvite(location.href));
        void this.acceptInvite(inv);
        return;
      }
      if (!w.table && !this.state.offline) {
        this.state.table = null;
        if (this.state.watching) {
          const code = this.state.codes[this.state.watching];
          this.conn
            .request({ type: 'join', table: this.state.watching, ...(code ? { code } : {}) })
            .catch(() => {
              this.setWatching(null);
              this.enterLobby();
            });
        } else this.enterLobby();
      }
    } catch (e) {
      const code = e instanceof ServerError ? e.code : 'error';
      const account = load<string | null>(LS, 'tarneeb.account', null);
      if (code === 'unknown_token') this.sessionEnded();
      else if (code === 'name_taken' && 'name' in who && !('password' in who) && account && sameName(who.name, account)) {
        // one's own account, typed in the guest form: its password signs in, not a new name
        this.update({ busy: false, notice: 'ownAccount', accountInput: { name: account } });
      } else {
        // a lost connection has its own bar; a sign-in by name is asked for again by the person
        if (code !== 'disconnected') this.showError(code, (e as Error).message);
        this.update({ busy: false });
      }
    }
  }

  /**
   * The server ended this device's session (revoked, or expired: `unknown_token` for the stored
   * token): the token is forgotten and the sign-in screen says why, with the account's password
   * form ready (its name filled in). Nothing of the session stays open: no account panel comes
   * back after the next sign-in. An offline match goes on.
   */
  private sessionEnded(): void {
    const account = this.state.registered && this.state.name ? this.state.name : load<string | null>(LS, 'tarneeb.account', null);
    save(LS, 'tarneeb.token', null);
    if (account) save(LS, 'tarneeb.account', account);
    this.lobbyWatched = false;
    this.setWatching(null);
    this.update({
      token: null, welcomed: false, registered: false, busy: false, accountPanel: null, notice: 'sessionEnded',
      accountInput: account ? { name: account } : {}, ...(this.state.offline ? {} : { table: null }),
    });
  }

  private onMessage(m: ServerMessage): void {
    switch (m.type) {
      case 'table':
        // while playing offline the page shows the offline table only
        if (!this.state.offline) this.onTable(m);
        break;
      case 'tables':
        // an answer to a `list` has its id; a page the server pushes to a watcher has none
        if (m.id !== undefined) this.state.listsAnswered++;
        // pages are shown in the lobby only: at a table, an answer (the `list` that ended the
        // subscription) or a push that was on its way is dropped
        if (this.state.table !== null || (m.id === undefined && !this.lobbyWatched)) break;
        if (m.tables.length === 0 && this.state.listCursor !== null) {
          // The tables of this page have gone: back to the first page.
          this.update({ listCursor: null, listPrev: [], listNext: null });
          this.refreshTables();
          break;
        }
        this.update({ tables: m.tables, listNext: m.next ?? null });
        break;
      case 'chat':
      case 'chat_history':
        this.social?.(m);
        break;
      case 'ratings':
        if (this.state.table?.table === m.table) this.update({ ratings: m });
        break;
      default:
        break;
    }
  }

  private tableWaiters: ((t: TableView) => void)[] = [];

  /** Resolves with the next table message (or null after `ms`). */
  nextTable(ms = 5000): Promise<TableView | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), ms);
      this.tableWaiters.push((t) => {
        clearTimeout(timer);
        resolve(t);
      });
    });
  }

  private onTable(t: TableView): void {
    // the countdown runs from the moment the message arrived, on this client's clock
    t.local_deadline_ms = localDeadline(t.deadline_ms, t.now_ms, Date.now(), t.remaining_ms);
    const waiters = this.tableWaiters;
    this.tableWaiters = [];
    queueMicrotask(() => waiters.forEach((w) => w(t)));
    const s = this.state;
    if (!this.resync && s.table && s.table.table === t.table && t.version < s.table.version) return;
    this.resync = false;
    const events = t.events ?? [];
    if (s.sound && s.table?.table === t.table) {
      const was = s.table.you !== null && s.table.round?.to_act === s.table.you && (s.table.legal ?? []).length > 0;
      for (const sound of soundsFor(events, t, was)) play(sound);
    }
    // The server's history when it sends one (a reload or a late spectator gets the whole
    // sheet), else the sheet kept so far plus this message's scored rounds.
    s.sheet = t.history ? sheetFromHistory(t.table, t.match, t.history) : applyEvents(s.sheet, t.table, t.match, events);
    if (t.history) s.lastRound = t.history.length ? { table: t.table, match: t.match, round: t.history[t.history.length - 1] } : null;
    save(LS, 'tarneeb.sheet', s.sheet);
    for (const e of events) {
      if (e.event === 'round_scored') s.summary = { kind: 'scored', event: e, ...summaryTiming(t.summary_ms, Date.now()) };
      else if (e.event === 'passed_out') s.summary = { kind: 'passed', ...summaryTiming(t.summary_ms, Date.now()) };
      else if (e.event === 'match_over') s.matchOver = e;
      else if (e.event === 'match_started') {
        s.matchOver = null;
        s.summary = null;
      }
    }
    if (t.state === 'playing') {
      s.matchOver = null;
      s.ratings = null;
    }
    if (t.state === 'finished' && !s.matchOver && t.result) {
      // joined or reloaded after the end: the server says how the match ended
      s.matchOver = { event: 'match_over', status: t.result.status, winner: t.result.winner, scores: t.scores };
    }
    s.log = [...s.log, ...events.filter((e) => e.event !== 'deal')].slice(-6);
    s.table = t;
    if (t.you === null) this.setWatching(t.table);
    else this.setWatching(null);
    this.stopListing();
    this.update({ actedVersion: null });
  }

  private setWatching(id: string | null): void {
    this.state.watching = id;
    save(SS, 'tarneeb.watching', id);
  }

  // ---- user actions -----------------------------------------------------------------

  showError(code: string, message?: string): void {
    this.state.error = errorText(code, message);
    if (this.errorTimer) clearTimeout(this.errorTimer);
    this.errorTimer = setTimeout(() => this.update({ error: null }), 4000);
    this.update();
  }

  /** A request from another screen (tournament_screen.ts): the answer; rejects with ServerError (not shown here). */
  request(msg: Record<string, unknown>): Promise<ServerMessage> {
    return this.conn.request(msg);
  }

  private async req(msg: Record<string, unknown>): Promise<ServerMessage | null> {
    try {
      return await this.conn.request(msg);
    } catch (e) {
      const code = e instanceof ServerError ? e.code : 'error';
      // a stale action changes nothing (the next table message follows); a lost connection has its own bar
      if (code !== 'stale' && code !== 'disconnected') this.showError(code, (e as Error).message);
      return null;
    }
  }

  setLanguage(l: Lang): void {
    setLang(l);
    LS?.setItem('tarneeb.lang', l);
    document.documentElement.lang = l;
    document.documentElement.dir = dir(l);
    this.update({ lang: l });
  }

  signIn(name: string): void {
    const n = name.trim();
    if (!n) return;
    this.hello({ name: n });
  }

  // ---- new versions of the page (updates.ts) --------------------------------------------

  /** The service worker has a new version ready: the page offers to reload into it. */
  newVersionReady(): void {
    this.update({ updateReady: true, updateDismissed: false });
  }

  /** Reload into the new version (or, when the server is newer than the page, look for it first). */
  applyUpdate(): void {
    if (!this.updates) location.reload();
    else if (this.state.serverProtocol) void this.updates.check(true);
    else this.updates.apply();
  }

  // ---- accounts (docs/protocol.md "Accounts"; the forms are in accounts.ts) ----------------

  /** Signs in to an account with name and password (on any device). */
  signInWithPassword(name: string, password: string): void {
    const n = name.trim();
    if (!n || !password) return;
    this.hello({ name: n, password });
  }

  /** Opens or closes an account panel (register, change password, the guest's sign-out warning). */
  showAccountPanel(panel: AccountPanel | null): void {
    this.update({ accountPanel: panel });
  }

  /** The signed-in guest makes its name an account: same name, history and rating. */
  async register(password: string): Promise<void> {
    this.update({ busy: true });
    const r = await this.req({ type: 'register', password });
    this.update({ busy: false });
    if (r?.type === 'ok') {
      save(LS, 'tarneeb.account', this.state.name);
      this.update({ registered: true, accountPanel: { kind: 'done', what: 'registered' } });
    }
  }

  /** Changes the account's password; the server signs out every other device. */
  async changePassword(current: string, password: string): Promise<void> {
    this.update({ busy: true });
    const r = await this.req({ type: 'change_password', current, password });
    this.update({ busy: false });
    if (r?.type === 'ok') this.update({ accountPanel: { kind: 'done', what: 'passwordChanged' } });
  }

  /** Revokes every session of the account (every device), then signs this one out too. */
  async signOutEverywhere(): Promise<void> {
    const r = await this.req({ type: 'sign_out_everywhere' });
    if (r?.type === 'ok') this.signOut(true);
  }

  /**
   * Signs out. A guest is warned first (its token is its only key to its name) and offered to
   * register: `force` signs out anyway. A registered player's session is revoked on the server.
   */
  signOut(force = false): void {
    if (!force && !this.state.registered && this.state.welcomed) {
      this.update({ accountPanel: { kind: 'signout' } });
      return;
    }
    if (this.state.registered && !force) this.conn.send({ type: 'sign_out' });
    this.state.registered = false;
    this.state.accountPanel = null;
    if (this.state.table) this.req({ type: 'leave' });
    save(LS, 'tarneeb.token', null);
    this.lobbyWatched = false; // closing the connection ends the subscription
    this.setWatching(null);
    this.setReturnTo(null);
    this.update({ token: null, name: null, welcomed: false, table: null });
    this.conn.close();
    setTimeout(() => this.conn.open(), 50);
  }

  /** Shows the lobby and watches its page: the server pushes the page when it changes (no polling). */
  enterLobby(): void {
    this.update({ table: null, matchOver: null, summary: null, showSheet: false, showLastTrick: false });
    this.refreshTables();
  }

  /** Leaving the lobby: a `list` without `watch` ends the subscription (its answer is dropped, see onMessage). */
  private stopListing(): void {
    if (!this.lobbyWatched) return;
    this.lobbyWatched = false;
    if (this.conn.send(listMessage(null, false, 1)) !== null) this.state.listsAsked++;
  }

  /** Asks for the lobby page shown; in the lobby, watches it (every `list` replaces the subscription, so paging moves it). */
  refreshTables(): void {
    if (!this.state.welcomed) return;
    const watch = this.state.table === null;
    if (this.conn.send(listMessage(this.state.listCursor, watch)) !== null) {
      this.state.listsAsked++;
      this.lobbyWatched = watch;
    }
  }

  /** The lobby's next page of tables (the server sends at most 50 per page). */
  nextPage(): void {
    if (this.state.listNext === null) return;
    this.update({ listPrev: [...this.state.listPrev, this.state.listCursor], listCursor: this.state.listNext });
    this.refreshTables();
  }

  prevPage(): void {
    const prev = this.state.listPrev;
    if (prev.length === 0) return;
    this.update({ listPrev: prev.slice(0, -1), listCursor: prev[prev.length - 1] });
    this.refreshTables();
  }

  saveForm(): void {
    save(LS, 'tarneeb.form', this.state.form);
  }

  async createTable(): Promise<void> {
    const f = this.state.form;
    this.saveForm();
    const c = await this.req({
      type: 'create',
      preset: f.preset,
      target: f.target,
      turn_seconds: f.timer,
      private: f.priv,
      rated: !f.casual,
    });
    if (!c || c.type !== 'created') return;
    if (c.code) {
      this.state.codes = { ...this.state.codes, [c.table]: c.code };
      save(LS, 'tarneeb.codes', this.state.codes);
    }
    const ok = await this.req({ type: 'join', table: c.table, seat: 0, ...(c.code ? { code: c.code } : {}) });
    if (!ok) return;
    if (f.bots) for (const seat of [1, 2, 3]) await this.req({ type: 'add_bot', seat, bot: this.state.botLevel ?? DEFAULT_LEVEL });
  }

  /** Joins a table whose seats are not known yet (a private one): watch, then sit in the first free seat. */
  async joinFirstFree(table: string, code?: string): Promise<void> {
    const next = this.nextTable();
    if (!(await this.join(table, null, code))) return;
    const tv = await next;
    if (!tv || tv.table !== table) return;
    const free = tv.seats.findIndex((x) => !x);
    if (free >= 0) await this.join(table, free, code);
  }

  async join(table: string, seat: number | null, code?: string): Promise<boolean> {
    if (code) {
      this.state.codes = { ...this.state.codes, [table]: code };
      save(LS, 'tarneeb.codes', this.state.codes);
    }
    const c = code ?? this.state.codes[table];
    return (await this.req({ type: 'join', table, ...(seat === null ? {} : { seat }), ...(c ? { code: c } : {}) })) !== null;
  }

  /**
   * Follows an invitation link (invite.ts): watch the table, then take the first free seat when
   * the table is not playing; a full or playing table is watched. A refused join (no such table,
   * wrong code) shows its error and the lobby.
   */
  async acceptInvite(inv: Invite): Promise<void> {
    const next = this.nextTable();
    if (!(await this.join(inv.table, null, inv.code))) {
      this.enterLobby();
      return;
    }
    const tv = await next;
    if (!tv || tv.table !== inv.table || tv.state === 'playing') return;
    const free = tv.seats.findIndex((x) => !x);
    if (free >= 0) await this.join(inv.table, free, inv.code);
  }

  /** Sends a chat line to the table (docs/protocol.md "Chat"); false when it was refused (the error is shown). */
  async sendChat(line: { text: string } | { phrase: string }): Promise<boolean> {
    return (await this.req({ type: 'chat', ...line })) !== null;
  }

  /** Seats a bot at `seat` at the chosen level (docs/protocol.md "add_bot": bot "easy" … "expert"). */
  addBot(seat: number): void {
    this.req({ type: 'add_bot', seat, bot: this.state.botLevel ?? DEFAULT_LEVEL });
  }
  /** The level of the bots added from now on (remembered); anything but a level is ignored. */
  setBotLevel(level: string | undefined): void {
    if (!isLevel(level)) return;
    save(LS, 'tarneeb.botLevel', level);
    this.update({ botLevel: level });
  }
  removeBot(seat: number): void {
    this.req({ type: 'remove_bot', seat });
  }
  /** A match against three bots in this page, without a server (offline.ts); the form's rules and target. */
  async playOffline(): Promise<void> {
    this.update({ busy: true });
    try {
      await this.offlineWith((game) => game.restart());
    } catch (e) {
      this.update({ busy: false });
      this.showError('engine_unavailable', (e as Error).message);
    }
  }

  /** Goes on with the offline match kept before a reload (offline_store.ts), if there is one. */
  private async resumeOffline(): Promise<void> {
    const record = loadRecord(LS);
    if (!record) return;
    try {
      await this.offlineWith((game) => {
        if (!game.resume(record)) throw new Error('the kept offline match does not replay');
      }, record.settings);
    } catch {
      // the engine did not load, or the record is of another build: the start screen, as before
      saveRecord(LS, null);
      this.offlineGame?.stop();
      this.offlineGame = null;
      this.update({ offline: false, busy: false });
      if (this.state.welcomed) this.enterLobby();
    }
  }

  /** Sets up the page's offline game (its table shown instead of the server's) and runs `begin` on it; `kept`: a resumed match's rules, target and name. */
  private async offlineWith(begin: (game: OfflineGame) => void, kept: { preset?: 'levantine' | 'classic'; target?: number; name?: string } = {}): Promise<void> {
    const { OfflineGame, pageEngine } = await import('./offline');
    const engine = await pageEngine();
    const q = new URLSearchParams(location.search);
    const delay = Number(q.get('botdelay') ?? NaN);
    this.offlineGame?.stop();
    this.offlineGame = new OfflineGame(
      engine,
      { table: (tv) => this.onTable(tv), error: (code, message) => this.showError(code, message) },
      {
        preset: kept.preset ?? this.state.form.preset,
        target: kept.target ?? this.state.form.target,
        name: kept.name ?? this.state.name ?? t('offlineName'),
        ...(Number.isFinite(delay) ? { botDelayMs: delay } : {}),
        store: (r) => saveRecord(LS, r),
      },
    );
    this.stopListing();
    this.update({ offline: true, table: null, busy: false, matchOver: null, summary: null, showSheet: false, log: [] });
    begin(this.offlineGame);
  }

  startMatch(): void {
    this.update({ matchOver: null, summary: null, showSheet: false });
    if (this.offlineGame) {
      this.state.table = null; // a new match starts again at a low version
      this.offlineGame.restart();
      return;
    }
    this.req({ type: 'start' });
  }

  async leave(): Promise<void> {
    this.setWatching(null);
    if (this.offlineGame) {
      this.offlineGame.stop();
      this.offlineGame = null;
      this.update({ offline: false });
      this.enterLobby();
      return;
    }
    const back = backFrom(this.state.returnTo, this.state.table?.table ?? null);
    this.setReturnTo(null);
    await this.req({ type: 'leave' });
    this.enterLobby();
    // a table opened from another screen (a tournament's bracket) goes back to it
    if (back && typeof location !== 'undefined') location.hash = back;
  }

  /** Leaving `table` will go back to `hash` (a screen's route) instead of the lobby; null: the lobby. */
  setReturnTo(r: ReturnTo | null): void {
    this.state.returnTo = r;
    save(SS, 'tarneeb.returnTo', r);
  }

  act(action: Action): void {
    const t = this.state.table;
    if (!t || this.state.actedVersion === t.version) return;
    if (this.offlineGame) {
      this.offlineGame.act(action);
      return;
    }
    this.state.actedVersion = t.version;
    this.req({ type: 'act', version: t.version, action }).then((r) => {
      if (!r && this.state.table?.version === t.version) this.update({ actedVersion: null });
    });
    this.update();
  }

  /** Asks the server what the computer would do in the player's place (`hint`, docs/protocol.md). */
  async askHint(): Promise<void> {
    const r = this.offlineGame ? this.offlineGame.hint() : await this.req({ type: 'hint' });
    if (r && r.type === 'hint' && this.state.table?.version === r.version) this.update({ hint: { version: r.version, action: r.action } });
  }

  /** Turns the table sounds on or off (remembered). */
  toggleSound(): void {
    save(LS, 'tarneeb.sound', !this.state.sound);
    this.update({ sound: !this.state.sound });
  }

  dismissSummary(): void {
    this.update({ summary: null });
  }
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

export type { Seat };
