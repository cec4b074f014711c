// The application's connection to the server: signing in, the server's messages into the state
// (tables, the lobby's pages, chat), and the requests the person's actions send (app.ts). The
// state itself is app_state.ts; rendering is view.ts.
import { Connection, ServerError, wsUrl, type ConnState } from './conn';
import { initialLang, setLang, errorText, dir, type Lang } from './i18n';
import type { ServerMessage, TableView } from './protocol';
import { applyEvents, sheetFromHistory } from './sheet';
import { play, soundsFor } from './sounds';
import { motionOf } from './motion';
import { load, save } from './util';
import { localDeadline } from './timer';
import { fillDeadline } from './quick';
import { parseInvite, withoutInvite, type Invite } from './invite';
import { PROTOCOL_VERSION } from './protocol';
import { sameName } from './accounts';
import { CLOSE_SIGNED_OUT, LS, SS, initialState, listMessage, summaryTiming, type PageUpdates, type ReturnTo, type State } from './app_state';

export class AppBase {
  state: State;
  protected conn: Connection;
  /** This connection watches the lobby: a `list` with `watch: true` was sent and not ended (docs/protocol.md "Watching the lobby"). */
  protected lobbyWatched = false;
  /** The table shown came from a connection since lost: the next table message replaces it whatever its version (the server's state wins). */
  private resync = false;
  private errorTimer: ReturnType<typeof setTimeout> | null = null;
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
    this.state = initialState(l);
    document.documentElement.lang = l;
    document.documentElement.dir = dir(l);
    this.conn = new Connection(
      wsUrl(location),
      (m) => this.onMessage(m),
      (s) => this.onConn(s),
    );
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

  protected async hello(who: { token: string } | { name: string } | { name: string; password: string }): Promise<void> {
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
  protected sessionEnded(): void {
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

  protected onTable(t: TableView): void {
    // the countdown runs from the moment the message arrived, on this client's clock
    t.local_deadline_ms = localDeadline(t.deadline_ms, t.now_ms, Date.now(), t.remaining_ms);
    t.local_fill_at = fillDeadline(t.fill_ms, Date.now());
    const waiters = this.tableWaiters;
    this.tableWaiters = [];
    queueMicrotask(() => waiters.forEach((w) => w(t)));
    const s = this.state;
    if (!this.resync && s.table && s.table.table === t.table && t.version < s.table.version) return;
    this.resync = false;
    const events = t.events ?? [];
    // a message that follows the one shown moves its cards and trick (motion.ts; none after a reload)
    s.motion = s.table?.table === t.table ? motionOf(t.version, events) : null;
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

  protected setWatching(id: string | null): void {
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

  protected async req(msg: Record<string, unknown>): Promise<ServerMessage | null> {
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

  /** Shows the lobby and watches its page: the server pushes the page when it changes (no polling). */
  enterLobby(): void {
    this.update({ table: null, matchOver: null, summary: null, showSheet: false, showLastTrick: false });
    this.refreshTables();
  }

  /** Leaving the lobby: a `list` without `watch` ends the subscription (its answer is dropped, see onMessage). */
  protected stopListing(): void {
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

  /** Leaving `table` will go back to `hash` (a screen's route) instead of the lobby; null: the lobby. */
  setReturnTo(r: ReturnTo | null): void {
    this.state.returnTo = r;
    save(SS, 'tarneeb.returnTo', r);
  }

}
