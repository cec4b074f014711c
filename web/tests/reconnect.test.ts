import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { App as AppClass } from '../src/app';
import { CONN_LIMITS } from '../src/conn';
import type { TableView } from '../src/protocol';
import { FakeSocket } from './fake_socket';
import { memoryStorage } from './memory_storage';

// The App with its real Connection on a fake WebSocket (fake_socket.ts): the test plays a server
// that falls silent, and checks that the page gets back to the server's state by itself
// (issue 26). The page's limits (CONN_LIMITS) run on fake timers: no test waits for real time.


let App: typeof AppClass;

beforeAll(async () => {
  vi.stubGlobal('localStorage', memoryStorage());
  vi.stubGlobal('sessionStorage', memoryStorage());
  vi.stubGlobal('location', { search: '', protocol: 'http:', host: 'localhost' });
  vi.stubGlobal('navigator', { language: 'en' });
  vi.stubGlobal('document', { documentElement: {} });
  vi.stubGlobal('WebSocket', FakeSocket);
  ({ App } = await import('../src/app'));
});
afterAll(() => vi.unstubAllGlobals());
beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.made = [];
  localStorage.clear();
});
afterEach(() => vi.useRealTimers());

const tableMsg = (over: Partial<TableView> = {}): TableView => ({
  type: 'table', table: 't3', version: 5, state: 'playing', preset: 'levantine', target: 31, turn_seconds: 0,
  private: false, you: 0, seats: [{ name: 'Me', bot: false, connected: true }, null, null, null], spectators: 0,
  match: 1, scores: [0, 0], round: null, legal: [{ call: 'pass' }, { call: 7 }], deadline_ms: null, timeout_action: null,
  events: [], ...over,
});

const socket = () => FakeSocket.made.at(-1)!;

/** A page signed in with token `tok1`, seated at t3 (version 5, its turn): the server has answered everything so far. */
async function seatedPage() {
  localStorage.setItem('tarneeb.token', JSON.stringify('tok1'));
  const app = new App(() => {});
  app.start();
  socket().accept();
  const hello = socket().last('hello')!;
  expect(hello.token).toBe('tok1');
  socket().receive({ type: 'welcome', id: hello.id, name: 'Me', token: 'tok1', protocol: 1, table: 't3', seat: 0 });
  socket().receive(tableMsg());
  await vi.advanceTimersByTimeAsync(0);
  expect(app.state.welcomed).toBe(true);
  expect(app.state.table?.version).toBe(5);
  return app;
}

describe('a server that falls silent (issue 26)', () => {
  it('an action without an answer: the socket is dropped, a new one signs in with the token, the table comes back from the server', async () => {
    const app = await seatedPage();
    const first = socket();
    app.act({ call: 'pass' });
    const act = first.last('act')!;
    expect(app.state.actedVersion).toBe(5); // the page waits for the answer: the bid buttons are off
    await vi.advanceTimersByTimeAsync(CONN_LIMITS.requestTimeoutMs - 1);
    expect(first.closedByPage).toBe(false);
    expect(app.state.conn).toBe('open');
    await vi.advanceTimersByTimeAsync(1);
    expect(first.closedByPage).toBe(true);
    expect(app.state.conn).toBe('closed');
    expect(app.state.actedVersion).toBeNull(); // nothing stays pending
    expect(app.state.error).toBeNull(); // the connection bar says it, not an error line
    await vi.advanceTimersByTimeAsync(CONN_LIMITS.retryFirstMs * (1 + CONN_LIMITS.retryJitter)); // the longest first back-off
    const second = socket();
    expect(second).not.toBe(first);
    second.accept();
    expect(app.state.conn).toBe('open');
    const hello = second.last('hello')!;
    expect(hello).toMatchObject({ type: 'hello', token: 'tok1' });
    // the old socket's late answer is not read
    first.receive({ type: 'ok', id: act.id, version: 6 });
    first.receive(tableMsg({ version: 9 }));
    expect(app.state.table?.version).toBe(5);
    // the server's state: the bid was made after all, and the next turn is the page's again
    second.receive({ type: 'welcome', id: hello.id, name: 'Me', token: 'tok1', protocol: 1, table: 't3', seat: 0 });
    second.receive(tableMsg({ version: 7 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(app.state.welcomed).toBe(true);
    expect(app.state.table?.version).toBe(7);
    expect(app.state.actedVersion).toBeNull();
    app.act({ call: 7 });
    expect(second.last('act')).toMatchObject({ version: 7, action: { call: 7 } });
  });

  it("no pong: the same, and the new connection's table is shown even at a lower version (the server's state wins)", async () => {
    const app = await seatedPage();
    const first = socket();
    await vi.advanceTimersByTimeAsync(CONN_LIMITS.pingIntervalMs);
    const ping = first.last('ping')!;
    await vi.advanceTimersByTimeAsync(CONN_LIMITS.pongTimeoutMs - 1);
    first.receive({ type: 'pong', id: ping.id }); // in time: kept
    await vi.advanceTimersByTimeAsync(CONN_LIMITS.pingIntervalMs);
    expect(first.closedByPage).toBe(false);
    await vi.advanceTimersByTimeAsync(CONN_LIMITS.pongTimeoutMs); // the second ping's pong never comes
    expect(first.closedByPage).toBe(true);
    // The pong's limit ran out inside that wait, a whole ping interval before its end: the new
    // socket came after the back-off (at most twice retryFirstMs) and is still opening.
    expect(socket()).not.toBe(first);
    socket().accept();
    const hello = socket().last('hello')!;
    expect(hello.token).toBe('tok1');
    socket().receive({ type: 'welcome', id: hello.id, name: 'Me', token: 'tok1', protocol: 1, table: 't3', seat: 0 });
    socket().receive(tableMsg({ version: 4, legal: [] }));
    expect(app.state.table?.version).toBe(4);
    // on one connection, an older table message than the one shown is still dropped
    socket().receive(tableMsg({ version: 3 }));
    expect(app.state.table?.version).toBe(4);
  });

  it('a sign-in whose welcome is lost does not leave the page busy', async () => {
    const app = new App(() => {});
    app.start();
    socket().accept();
    app.signIn('Layla');
    expect(socket().last('hello')).toMatchObject({ name: 'Layla' });
    expect(app.state.busy).toBe(true); // the sign-in button is off
    await vi.advanceTimersByTimeAsync(CONN_LIMITS.requestTimeoutMs);
    expect(app.state.busy).toBe(false);
    await vi.advanceTimersByTimeAsync(CONN_LIMITS.retryFirstMs * (1 + CONN_LIMITS.retryJitter)); // the longest first back-off
    socket().accept();
    expect(app.state.conn).toBe('open');
    expect(app.state.busy).toBe(false); // the sign-in button is on again
    expect(socket().last('hello')).toBeUndefined(); // no token: the person signs in again
  });
});
