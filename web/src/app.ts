// The application: the person's actions (accounts, the lobby's forms, the table, offline play,
// a new version of the page) on top of the connection and the server's messages (app_base.ts).
import { t } from './i18n';
import type { Action, Seat } from './protocol';
import { save } from './util';
import type { OfflineGame } from './offline';
import type { AccountPanel } from './accounts';
import { loadRecord, saveRecord } from './offline_store';
import { DEFAULT_LEVEL, isLevel, isOfflineLevel } from './bot_levels';
import type { OfflineSettings } from './engine';
import { AppBase } from './app_base';
import { DEFAULT_QUICK_PRESET, isQuickPreset } from './quick';
import { LS, backFrom } from './app_state';

export * from './app_state';

export class App extends AppBase {
  private offlineGame: OfflineGame | null = null;

  start(): void {
    this.conn.open();
    this.update();
    if (loadRecord(LS)) {
      // an offline match was being played when the page was left: it goes on (offline_store.ts)
      this.state.offline = true;
      void this.resumeOffline();
    }
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

  /** The rules quick play asks for from now on (remembered); anything but a preset is ignored. */
  setQuickPreset(preset: string | undefined): void {
    if (!isQuickPreset(preset)) return;
    save(LS, 'tarneeb.quickPreset', preset);
    this.update({ quickPreset: preset });
  }

  /**
   * Quick play (docs/protocol.md "Quick play"): the server seats this guest at a quick-play table
   * of the preset picked; its table message follows the `ok`. A refusal is shown (already_seated:
   * leave the table first).
   */
  async quickPlay(): Promise<void> {
    if (this.state.busy) return;
    this.update({ busy: true });
    await this.req({ type: 'quick_play', preset: this.state.quickPreset ?? DEFAULT_QUICK_PRESET });
    this.update({ busy: false });
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
  /** The level of the bots of the next offline match (remembered); a level offline play does not have is ignored. */
  setOfflineLevel(level: string | undefined): void {
    if (!isOfflineLevel(level)) return;
    save(LS, 'tarneeb.offlineLevel', level);
    this.update({ offlineLevel: level });
  }
  removeBot(seat: number): void {
    this.req({ type: 'remove_bot', seat });
  }
  /** A match against three bots in this page, without a server (offline.ts); the form's rules and target, the offline level picked. */
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
      }, { ...record.settings, level: record.settings.level ?? DEFAULT_LEVEL }); // a record from before the levels: medium
    } catch {
      // the engine did not load, or the record is of another build: the start screen, as before
      saveRecord(LS, null);
      this.offlineGame?.stop();
      this.offlineGame = null;
      this.update({ offline: false, busy: false });
      if (this.state.welcomed) this.enterLobby();
    }
  }

  /** Sets up the page's offline game (its table shown instead of the server's) and runs `begin` on it; `kept`: a resumed match's rules, target, name and level. */
  private async offlineWith(begin: (game: OfflineGame) => void, kept: Partial<Pick<OfflineSettings, 'preset' | 'target' | 'name' | 'level'>> = {}): Promise<void> {
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
        level: kept.level ?? this.state.offlineLevel ?? DEFAULT_LEVEL,
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

export type { Seat };
