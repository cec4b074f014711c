import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONN_LIMITS, Connection, ServerError, type ConnLimits, type ConnState } from '../src/conn';
import type { ServerMessage } from '../src/protocol';
import { FakeSocket } from './fake_socket';

// Short limits, none equal to another, so that a test says which one ran out.
const LIMITS: ConnLimits = {
  pingIntervalMs: 1000,
  pongTimeoutMs: 300,
  requestTimeoutMs: 2000,
  connectTimeoutMs: 700,
  retryFirstMs: 50,
  retryMaxMs: 400,
  retryJitter: 0, // the delays exactly (the jitter has its own test)
};
/** The same without pings (they would run out before a request's limit: nobody answers them here). */
const QUIET: ConnLimits = { ...LIMITS, pingIntervalMs: 1e9 };

function connect(limits: Partial<ConnLimits> = QUIET) {
  const messages: ServerMessage[] = [];
  const states: ConnState[] = [];
  const conn = new Connection(
    'ws://test/ws',
    (m) => messages.push(m),
    (s) => states.push(s),
    { limits },
  );
  conn.open();
  const socket = () => FakeSocket.made.at(-1)!;
  return { conn, messages, states, socket };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeSocket);
  FakeSocket.made = [];
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the limits', () => {
  it('are in one place, in ms, and a constructor option overrides any of them', () => {
    expect(CONN_LIMITS).toEqual({
      pingIntervalMs: 20000,
      pongTimeoutMs: 15000,
      requestTimeoutMs: 30000,
      connectTimeoutMs: 15000,
      retryFirstMs: 300,
      retryMaxMs: 5000,
      retryJitter: 1,
    });
    expect(Object.isFrozen(CONN_LIMITS)).toBe(true);
    const { conn } = connect({ pongTimeoutMs: 5 });
    expect(conn.limits).toEqual({ ...CONN_LIMITS, pongTimeoutMs: 5 });
  });
});

describe('requests', () => {
  it('resolve with the answer that has their id, and reject on an error answer', async () => {
    const { conn, socket } = connect();
    socket().accept();
    const a = conn.request({ type: 'join', table: 't1' });
    const b = conn.request({ type: 'start' });
    const [ja, sb] = socket().sent;
    socket().receive({ type: 'table', id: ja.id }); // a table message is never an answer
    socket().receive({ type: 'error', id: sb.id, code: 'not_seated', message: 'no' });
    socket().receive({ type: 'ok', id: ja.id });
    await expect(a).resolves.toEqual({ type: 'ok', id: ja.id });
    await expect(b).rejects.toMatchObject({ code: 'not_seated' });
  });

  it('that get no answer within the limit drop the socket; a new one opens after the back-off', async () => {
    const { conn, socket, states } = connect();
    const first = socket();
    first.accept();
    const join = conn.request({ type: 'join', table: 't1' });
    const failed = expect(join).rejects.toMatchObject({ code: 'disconnected', message: 'disconnected' });
    vi.advanceTimersByTime(LIMITS.requestTimeoutMs - 1);
    expect(first.closedByPage).toBe(false);
    vi.advanceTimersByTime(1);
    await failed;
    expect(conn.lastLoss).toBe(`no answer to join #1 within ${LIMITS.requestTimeoutMs} ms`);
    expect(first.closedByPage).toBe(true);
    expect(conn.state).toBe('closed');
    expect(FakeSocket.made).toHaveLength(1);
    vi.advanceTimersByTime(LIMITS.retryFirstMs);
    expect(FakeSocket.made).toHaveLength(2);
    expect(states).toEqual(['connecting', 'open', 'closed', 'connecting']);
    socket().accept();
    expect(conn.state).toBe('open');
  });

  it('answered in time keep the socket', async () => {
    const { conn, socket } = connect();
    socket().accept();
    const r = conn.request({ type: 'create' });
    vi.advanceTimersByTime(LIMITS.requestTimeoutMs - 1);
    socket().receive({ type: 'created', id: socket().last('create')!.id, table: 't1', code: null });
    await expect(r).resolves.toMatchObject({ type: 'created' });
    vi.advanceTimersByTime(LIMITS.requestTimeoutMs * 2);
    expect(socket().closedByPage).toBe(false);
    expect(FakeSocket.made).toHaveLength(1);
  });

  it('sent without waiting (send) must be answered in time too', () => {
    const { conn, socket } = connect();
    socket().accept();
    const id = conn.send({ type: 'list', watch: true });
    expect(id).not.toBeNull();
    vi.advanceTimersByTime(LIMITS.requestTimeoutMs);
    expect(socket().closedByPage).toBe(true);
    expect(conn.state).toBe('closed');
  });

  it('a late answer to a timed-out request is ignored: nothing resolves twice, the new socket is kept', async () => {
    const { conn, socket, messages } = connect();
    const old = socket();
    old.accept();
    const settled: string[] = [];
    const act = conn.request({ type: 'act', version: 5, action: { call: 'pass' } });
    act.then(
      () => settled.push('resolved'),
      (e: ServerError) => settled.push(e.code),
    );
    const id = old.last('act')!.id;
    vi.advanceTimersByTime(LIMITS.requestTimeoutMs);
    await vi.advanceTimersByTimeAsync(LIMITS.retryFirstMs);
    const fresh = socket();
    expect(fresh).not.toBe(old);
    fresh.accept();
    old.receive({ type: 'ok', id, version: 6 }); // the old socket delivers it after all
    old.serverClose();
    await Promise.resolve();
    expect(settled).toEqual(['disconnected']);
    expect(messages).toEqual([]); // the app never sees the old socket's frames
    expect(conn.state).toBe('open');
    expect(fresh.closedByPage).toBe(false);
    // a new request with the same number on the new socket is not confused with the old one
    const next = conn.request({ type: 'hint' });
    fresh.receive({ type: 'hint', id: fresh.last('hint')!.id, version: 6, action: { call: 'pass' } });
    await expect(next).resolves.toMatchObject({ type: 'hint' });
  });

  it('fail at once with disconnected when no socket is open, and all of them fail when the socket closes', async () => {
    const { conn, socket } = connect();
    await expect(conn.request({ type: 'list' })).rejects.toMatchObject({ code: 'disconnected' });
    socket().accept();
    const a = conn.request({ type: 'join', table: 't1' });
    const b = conn.request({ type: 'add_bot', seat: 1 });
    socket().serverClose();
    await expect(a).rejects.toMatchObject({ code: 'disconnected' });
    await expect(b).rejects.toMatchObject({ code: 'disconnected' });
  });
});

describe('pings', () => {
  it('are sent every interval; a pong in time keeps the connection', () => {
    const { conn, socket } = connect(LIMITS);
    socket().accept();
    vi.advanceTimersByTime(LIMITS.pingIntervalMs);
    for (let i = 1; i <= 3; i++) {
      const pings = socket().sent.filter((m) => m.type === 'ping');
      expect(pings).toHaveLength(i);
      vi.advanceTimersByTime(LIMITS.pongTimeoutMs - 1); // the pong comes at the last moment
      socket().receive({ type: 'pong', id: pings[i - 1].id });
      vi.advanceTimersByTime(LIMITS.pingIntervalMs - (LIMITS.pongTimeoutMs - 1));
    }
    socket().receive({ type: 'pong', id: socket().last('ping')!.id });
    vi.advanceTimersByTime(LIMITS.pongTimeoutMs);
    expect(socket().closedByPage).toBe(false);
    expect(FakeSocket.made).toHaveLength(1);
    expect(conn.state).toBe('open');
  });

  it('without a pong within the limit drop the socket, fail what waits, and reconnect', async () => {
    const { conn, socket, states } = connect(LIMITS);
    const first = socket();
    first.accept();
    const pending = conn.request({ type: 'start' });
    const failed = expect(pending).rejects.toMatchObject({ code: 'disconnected' });
    vi.advanceTimersByTime(LIMITS.pingIntervalMs);
    expect(first.last('ping')).toBeDefined();
    vi.advanceTimersByTime(LIMITS.pongTimeoutMs - 1);
    expect(first.closedByPage).toBe(false);
    vi.advanceTimersByTime(1); // the pong limit ends before the request's
    await failed;
    expect(conn.lastLoss).toMatch(new RegExp(`^no answer to ping #\\d+ within ${LIMITS.pongTimeoutMs} ms$`));
    expect(first.closedByPage).toBe(true);
    expect(states.at(-1)).toBe('closed');
    vi.advanceTimersByTime(LIMITS.retryFirstMs);
    expect(FakeSocket.made).toHaveLength(2);
    // no ping timer of the old socket is left running
    socket().accept();
    vi.advanceTimersByTime(LIMITS.pingIntervalMs);
    expect(first.sent.filter((m) => m.type === 'ping')).toHaveLength(1);
    expect(socket().sent.filter((m) => m.type === 'ping')).toHaveLength(1);
  });
});

describe('opening', () => {
  it('a socket that does not open within the limit is given up and tried again, with a growing back-off', () => {
    const { conn } = connect();
    expect(conn.lastLoss).toBeNull();
    vi.advanceTimersByTime(LIMITS.connectTimeoutMs);
    expect(conn.lastLoss).toBe(`the socket did not open within ${LIMITS.connectTimeoutMs} ms`);
    expect(FakeSocket.made[0].closedByPage).toBe(true);
    expect(conn.state).toBe('closed');
    vi.advanceTimersByTime(LIMITS.retryFirstMs);
    expect(FakeSocket.made).toHaveLength(2);
    vi.advanceTimersByTime(LIMITS.connectTimeoutMs + LIMITS.retryFirstMs * 2 - 1);
    expect(FakeSocket.made).toHaveLength(2); // the second wait is twice the first
    vi.advanceTimersByTime(1);
    expect(FakeSocket.made).toHaveLength(3);
  });

  it('each back-off is lengthened at random by up to retryJitter of itself', () => {
    const draws = [0.5, 0.999];
    const conn = new Connection('ws://test/ws', () => {}, () => {}, {
      limits: { ...QUIET, retryJitter: 1 },
      random: () => draws.shift()!,
    });
    conn.open();
    FakeSocket.made[0].serverClose();
    vi.advanceTimersByTime(LIMITS.retryFirstMs * 1.5 - 1);
    expect(FakeSocket.made).toHaveLength(1);
    vi.advanceTimersByTime(1); // 50 ms lengthened by half
    expect(FakeSocket.made).toHaveLength(2);
    FakeSocket.made[1].serverClose();
    vi.advanceTimersByTime(LIMITS.retryFirstMs * 2 * 1.999 - 1);
    expect(FakeSocket.made).toHaveLength(2);
    vi.advanceTimersByTime(1); // the doubled delay, lengthened by almost as much again
    expect(FakeSocket.made).toHaveLength(3);
    expect(draws).toHaveLength(0);
  });

  it('the back-off starts again once the server answers something', () => {
    const { socket } = connect();
    socket().serverClose();
    vi.advanceTimersByTime(LIMITS.retryFirstMs);
    socket().serverClose();
    vi.advanceTimersByTime(LIMITS.retryFirstMs * 2);
    expect(FakeSocket.made).toHaveLength(3);
    socket().accept();
    socket().receive({ type: 'pong', id: 99 });
    socket().serverClose();
    vi.advanceTimersByTime(LIMITS.retryFirstMs);
    expect(FakeSocket.made).toHaveLength(4);
  });

  it('close() stops for good: no timer of the old socket runs, no new socket', async () => {
    const { conn, socket } = connect();
    socket().accept();
    const r = conn.request({ type: 'leave' });
    conn.close();
    await expect(r).rejects.toMatchObject({ code: 'disconnected' });
    expect(conn.state).toBe('closed');
    vi.advanceTimersByTime(LIMITS.requestTimeoutMs + LIMITS.pingIntervalMs + LIMITS.retryMaxMs);
    expect(FakeSocket.made).toHaveLength(1);
    conn.open();
    expect(FakeSocket.made).toHaveLength(2);
  });
});

/** A network the test switches (conn.ts Network): starts online. */
function fakeNetwork(online = true) {
  let change: (online: boolean) => void = () => {};
  return {
    online: () => online,
    watch: (c: (online: boolean) => void) => void (change = c),
    set(v: boolean) {
      online = v;
      change(v);
    },
  };
}

describe('without a network (issue 28)', () => {
  it('tries no socket while the browser is offline, and opens one at once when it is back', () => {
    const net = fakeNetwork(false);
    const states: ConnState[] = [];
    const conn = new Connection('ws://test/ws', () => {}, (s) => states.push(s), { limits: QUIET, network: net });
    conn.open();
    expect(FakeSocket.made).toHaveLength(0);
    expect(conn.state).toBe('offline');
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.made).toHaveLength(0); // no retries
    net.set(true);
    expect(FakeSocket.made).toHaveLength(1);
    expect(conn.state).toBe('connecting');
    FakeSocket.made[0].accept();
    expect(states.at(-1)).toBe('open');
  });

  it('stops retrying when the network goes, and starts again from the first back-off when it comes back', () => {
    const net = fakeNetwork(true);
    const conn = new Connection('ws://test/ws', () => {}, () => {}, { limits: QUIET, network: net });
    conn.open();
    // the server is unreachable: a few attempts with the back-off
    FakeSocket.made.at(-1)!.serverClose();
    vi.advanceTimersByTime(QUIET.retryFirstMs);
    FakeSocket.made.at(-1)!.serverClose();
    expect(FakeSocket.made).toHaveLength(2);
    net.set(false);
    expect(conn.state).toBe('offline');
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.made).toHaveLength(2);
    net.set(true);
    expect(FakeSocket.made).toHaveLength(3);
    FakeSocket.made.at(-1)!.serverClose();
    vi.advanceTimersByTime(QUIET.retryFirstMs - 1);
    expect(FakeSocket.made).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.made).toHaveLength(4);
  });

  it('keeps an open socket when the browser says offline; once it is lost, waits for the network', () => {
    const net = fakeNetwork(true);
    const conn = new Connection('ws://test/ws', () => {}, () => {}, { limits: QUIET, network: net });
    conn.open();
    FakeSocket.made[0].accept();
    net.set(false);
    expect(conn.state).toBe('open');
    FakeSocket.made[0].serverClose();
    expect(conn.state).toBe('offline');
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.made).toHaveLength(1);
  });

  it('remembers the close code of a socket the server closed (4001: signed out), and forgets it on a loss of another kind', () => {
    const { conn, socket } = connect();
    socket().accept();
    socket().serverClose(4001);
    expect(conn.lastCloseCode).toBe(4001);
    vi.advanceTimersByTime(QUIET.retryFirstMs);
    vi.advanceTimersByTime(QUIET.connectTimeoutMs); // never opens
    expect(conn.lastCloseCode).toBeNull();
  });
});
