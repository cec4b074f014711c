import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { App as AppClass, listMessage as listMessageFn } from '../src/app';
import type { ServerMessage, TableSummary, TableView } from '../src/protocol';
import { memoryStorage } from './memory_storage';

// The App runs in a browser: give it the little of one it reads (storage, location, the
// document's root element) and a fake connection that records what is sent.

class FakeConn {
  sent: Record<string, unknown>[] = [];
  send(msg: Record<string, unknown>): number {
    this.sent.push(msg);
    return this.sent.length;
  }
  request(msg: Record<string, unknown>): Promise<ServerMessage> {
    this.send(msg);
    return Promise.resolve({ type: 'ok' } as ServerMessage);
  }
  open(): void {}
  close(): void {}
  lists() {
    return this.sent.filter((m) => m.type === 'list');
  }
}

// imported once the globals are in place (app.ts reads the storage when it loads)
let App: typeof AppClass;
let listMessage: typeof listMessageFn;

beforeAll(async () => {
  vi.stubGlobal('localStorage', memoryStorage());
  vi.stubGlobal('sessionStorage', memoryStorage());
  vi.stubGlobal('location', { search: '', protocol: 'http:', host: 'localhost' });
  vi.stubGlobal('navigator', { language: 'en' });
  vi.stubGlobal('document', { documentElement: {} });
  ({ App, listMessage } = await import('../src/app'));
});
afterAll(() => vi.unstubAllGlobals());
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function lobbyApp() {
  let renders = 0;
  const app = new App(() => renders++);
  const conn = new FakeConn();
  (app as unknown as { conn: FakeConn }).conn = conn;
  app.state.welcomed = true;
  const receive = (m: ServerMessage) => (app as unknown as { onMessage(m: ServerMessage): void }).onMessage(m);
  return { app, conn, receive, renders: () => renders };
}

const summary = (table: string): TableSummary => ({
  table, preset: 'levantine', target: 31, turn_seconds: 30, private: false, state: 'waiting', spectators: 0, match: 1,
  seats: [{ name: 'Ali', bot: false, connected: true }, null, null, null],
});

const tableMsg = (over: Partial<TableView> = {}): TableView => ({
  type: 'table', table: 't3', version: 1, state: 'waiting', preset: 'levantine', target: 31, turn_seconds: 30,
  private: false, you: 0, seats: [{ name: 'Me', bot: false, connected: true }, null, null, null], spectators: 0,
  match: 1, scores: [0, 0], round: null, legal: [], deadline_ms: null, timeout_action: null, events: [], ...over,
});

describe('the list request', () => {
  it('watches only when asked, with the cursor of the page', () => {
    expect(listMessage(null, true)).toEqual({ type: 'list', watch: true });
    expect(listMessage('t57', true)).toEqual({ type: 'list', cursor: 't57', watch: true });
    expect(listMessage(null, false)).toEqual({ type: 'list' });
    expect(listMessage(null, false, 1)).toEqual({ type: 'list', limit: 1 });
  });
});

describe('the lobby without polling (issue 14: list with watch)', () => {
  it('watches the page once when the lobby is shown, and never polls', () => {
    const { app, conn } = lobbyApp();
    app.enterLobby();
    expect(conn.lists()).toEqual([{ type: 'list', watch: true }]);
    vi.advanceTimersByTime(60_000);
    expect(conn.lists()).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
  it('shows a pushed page (no id) at once, without counting it as an answer', () => {
    const { app, receive, renders } = lobbyApp();
    app.enterLobby();
    receive({ type: 'tables', id: 1, tables: [], next: null });
    expect(app.state.listsAnswered).toBe(1);
    const before = renders();
    receive({ type: 'tables', tables: [summary('t7'), summary('t8')], next: null });
    expect(app.state.tables.map((x) => x.table)).toEqual(['t7', 't8']);
    expect(renders()).toBeGreaterThan(before);
    expect(app.state.listsAnswered).toBe(1);
    expect(app.state.listsAsked).toBe(1);
  });
  it('moves the subscription with the page shown', () => {
    const { app, conn, receive } = lobbyApp();
    app.enterLobby();
    receive({ type: 'tables', id: 1, tables: [summary('t7')], next: 't57' });
    app.nextPage();
    expect(conn.lists().at(-1)).toEqual({ type: 'list', cursor: 't57', watch: true });
    app.prevPage();
    expect(conn.lists().at(-1)).toEqual({ type: 'list', watch: true });
    // a pushed page that has emptied sends the lobby back to the first page, still watched
    app.nextPage();
    receive({ type: 'tables', tables: [], next: null });
    expect(app.state.listCursor).toBeNull();
    expect(conn.lists().at(-1)).toEqual({ type: 'list', watch: true });
  });
  it('stops watching at a table (once), drops pushes there, and watches again back in the lobby', async () => {
    const { app, conn, receive } = lobbyApp();
    app.enterLobby();
    receive({ type: 'tables', id: 1, tables: [summary('t7')], next: null });
    receive(tableMsg());
    receive(tableMsg({ version: 2 }));
    expect(conn.lists()).toEqual([{ type: 'list', watch: true }, { type: 'list', limit: 1 }]);
    // the answer to the unwatching list and a late push change nothing shown
    receive({ type: 'tables', id: 2, tables: [summary('t9')], next: null });
    receive({ type: 'tables', tables: [summary('t9')], next: null });
    expect(app.state.tables.map((x) => x.table)).toEqual(['t7']);
    expect(app.state.listsAnswered).toBe(app.state.listsAsked);
    await app.leave();
    expect(conn.lists().at(-1)).toEqual({ type: 'list', watch: true });
    receive({ type: 'tables', tables: [summary('t9')], next: null });
    expect(app.state.tables.map((x) => x.table)).toEqual(['t9']);
  });
});

describe('the turn timer from remaining_ms', () => {
  it('counts remaining_ms from the arrival of the table message', () => {
    vi.setSystemTime(5_000_000);
    const { receive, app } = lobbyApp();
    receive(tableMsg({ state: 'playing', deadline_ms: 9_999_999_999, now_ms: 1, remaining_ms: 12_000 }));
    expect(app.state.table?.local_deadline_ms).toBe(5_012_000);
    receive(tableMsg({ version: 2, state: 'playing', deadline_ms: 1_000_030_000, now_ms: 1_000_000_000 }));
    expect(app.state.table?.local_deadline_ms).toBe(5_030_000);
  });
});

describe('quick play (issue 28)', () => {
  it('asks for the preset picked, remembers it, and ignores anything else', async () => {
    const { app, conn } = lobbyApp();
    expect(app.state.quickPreset).toBe('levantine');
    await app.quickPlay();
    expect(conn.sent.at(-1)).toEqual({ type: 'quick_play', preset: 'levantine' });
    app.setQuickPreset('classic');
    app.setQuickPreset('bridge');
    expect(app.state.quickPreset).toBe('classic');
    expect(localStorage.getItem('tarneeb.quickPreset')).toBe('"classic"');
    await app.quickPlay();
    expect(conn.sent.at(-1)).toEqual({ type: 'quick_play', preset: 'classic' });
    expect(app.state.busy).toBe(false);
    localStorage.removeItem('tarneeb.quickPreset');
  });
  it('counts fill_ms from the arrival of the table message', () => {
    vi.setSystemTime(7_000_000);
    const { receive, app } = lobbyApp();
    receive(tableMsg({ fill_ms: 20_000, quick: { rating: 1500, fill_at: 1 } }));
    expect(app.state.table?.local_fill_at).toBe(7_020_000);
    receive(tableMsg({ version: 2, state: 'playing' }));
    expect(app.state.table?.local_fill_at).toBeNull();
  });
});
