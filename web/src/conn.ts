// One WebSocket to the server: requests matched to answers by id, pings, time limits,
// reconnection. A server that stops answering (no `pong`, no answer to a request, a socket that
// never opens) is a lost connection like a closed one: the socket is dropped, whatever waits for
// an answer fails with `disconnected`, and a new socket is opened after a back-off, on which the
// app signs in again with its token (docs/protocol.md "Time limits in the browser").
// Without a network (the browser says so: navigator.onLine false, the `offline` event) no socket
// is tried: the state is `offline` until the `online` event, when a socket opens at once (issue 28).
import type { ServerMessage } from './protocol';

/** `offline`: the browser has no network; nothing is tried until it comes back. */
export type ConnState = 'connecting' | 'open' | 'closed' | 'offline';

/** Whether the browser has a network, and its changes (the page's: navigator.onLine and the window's events). */
export interface Network {
  online(): boolean;
  /** Calls `change` with the new value on each change. */
  watch(change: (online: boolean) => void): void;
}

/** The browser's network: navigator.onLine (unknown counts as online), the `online` and `offline` events. */
export const browserNetwork: Network = {
  online: () => (globalThis.navigator as Navigator | undefined)?.onLine !== false,
  watch: (change) => {
    globalThis.addEventListener?.('online', () => change(true));
    globalThis.addEventListener?.('offline', () => change(false));
  },
};

export class ServerError extends Error {
  constructor(public code: string, message?: string) {
    super(message ?? code);
  }
}

/** The connection's time limits, all in milliseconds. */
export interface ConnLimits {
  /** A `ping` is sent this often while the socket is open (the server closes a connection silent for 60 s). */
  pingIntervalMs: number;
  /** A `pong` must come within this of its `ping` (the server answers a ping at once, even while a request of the guest waits). */
  pongTimeoutMs: number;
  /** Any other message sent (they all carry an `id`) must be answered within this; an answer may wait for the database or a busy table. */
  requestTimeoutMs: number;
  /** A new socket must open (WebSocket handshake done) within this. */
  connectTimeoutMs: number;
  /** Back-off before a new socket: the first delay, doubled after each attempt that got no message, at most `retryMaxMs`. */
  retryFirstMs: number;
  retryMaxMs: number;
  /**
   * Each back-off delay is lengthened by up to this fraction of itself, at random (a fraction, not ms), so that
   * the thousands of players of a server that dies do not all come back in the same millisecond (docs/scaling.md).
   */
  retryJitter: number;
}

/** The limits a page uses; `new Connection(…, { limits })` overrides any of them (tests). */
export const CONN_LIMITS: Readonly<ConnLimits> = Object.freeze({
  pingIntervalMs: 20_000,
  pongTimeoutMs: 15_000,
  requestTimeoutMs: 30_000,
  connectTimeoutMs: 15_000,
  retryFirstMs: 300,
  retryMaxMs: 5_000,
  retryJitter: 1,
});

export interface ConnOptions {
  limits?: Partial<ConnLimits>;
  /** The network to follow (default: the browser's). */
  network?: Network;
  /** Uniform in [0, 1), for the back-off's jitter (default: Math.random). */
  random?: () => number;
}

/** A message sent and not answered yet: its deadline, and the promise of `request()` (none for `send()`). */
type Pending = {
  timer: ReturnType<typeof setTimeout>;
  resolve?: (m: ServerMessage) => void;
  reject?: (e: Error) => void;
};

export class Connection {
  private ws: WebSocket | null = null;
  private nextId = 1;
  /** The messages sent on `ws` that wait for their answer, by id. */
  private pending = new Map<number, Pending>();
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private connectTimer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retry = 0;
  private stopped = false;
  readonly limits: Readonly<ConnLimits>;
  state: ConnState = 'closed';
  /** Why the last socket was given up ("no answer to ping #7 within 15000 ms"…), for debugging; null before any. */
  lastLoss: string | null = null;
  /** The close code of the last socket the server closed (4001: its session was revoked, docs/protocol.md "Accounts"); null when it was given up otherwise. */
  lastCloseCode: number | null = null;
  private network: Network;
  private random: () => number;

  constructor(
    private url: string,
    private onMessage: (m: ServerMessage) => void,
    private onState: (s: ConnState) => void,
    options: ConnOptions = {},
  ) {
    this.limits = { ...CONN_LIMITS, ...options.limits };
    this.network = options.network ?? browserNetwork;
    this.random = options.random ?? Math.random;
    this.network.watch((online) => (online ? this.networkBack() : this.networkLost()));
  }

  /** Opens a socket (and keeps one open: reconnects after every loss until `close()`); without a network, waits for it. */
  open(): void {
    this.stopped = false;
    this.clearRetry();
    if (this.ws) return;
    if (!this.network.online()) {
      this.setState('offline');
      return;
    }
    this.setState('connecting');
    const ws = new WebSocket(this.url);
    this.ws = ws;
    const limit = this.limits.connectTimeoutMs;
    this.connectTimer = setTimeout(() => this.drop(ws, `the socket did not open within ${limit} ms`), limit);
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.clearConnectTimer();
      this.setState('open');
      this.pingTimer = setInterval(() => this.post({ type: 'ping' }, this.limits.pongTimeoutMs), this.limits.pingIntervalMs);
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return; // a late frame of a socket given up: its requests have failed already
      let m: ServerMessage;
      try {
        m = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      this.retry = 0; // the server answers: the next loss starts the back-off again
      const id = (m as { id?: unknown }).id;
      const p = typeof id === 'number' && m.type !== 'table' ? this.pending.get(id) : undefined;
      if (p) {
        clearTimeout(p.timer);
        this.pending.delete(id as number);
        if (m.type === 'error') p.reject?.(new ServerError(m.code, m.message));
        else p.resolve?.(m);
      }
      this.onMessage(m);
    };
    ws.onclose = (ev?: CloseEvent) => this.drop(ws, `the socket closed${ev?.code ? ` (${ev.code})` : ''}`, ev?.code ?? null);
  }

  /** The network is gone: no new socket is tried (a socket still open is kept while it answers). */
  private networkLost(): void {
    if (this.stopped || this.state === 'open') return;
    this.clearRetry();
    if (this.ws) this.drop(this.ws, 'the network is gone');
    else this.setState('offline');
  }

  /** The network is back: a socket at once, the back-off from its start. */
  private networkBack(): void {
    if (this.stopped || this.ws) return;
    this.retry = 0;
    this.open();
  }

  /** Closes the socket for good (until `open()`): whatever waits for an answer fails with `disconnected`. */
  close(): void {
    this.stopped = true;
    this.clearRetry();
    if (this.ws) this.drop(this.ws, 'closed by the page');
  }

  private setState(s: ConnState) {
    this.state = s;
    this.onState(s);
  }

  /**
   * Gives up `ws` (the current socket, else nothing happens): closed by the server (its
   * `closeCode`, kept in `lastCloseCode`), or silent past a limit (`why`, kept in `lastLoss`). Its handlers are detached first, so nothing it
   * still delivers is read; every message waiting for an answer fails with `disconnected` (the
   * code as its message too: screens that show it show what they showed before the limits); a
   * new socket follows after the back-off unless the page closed the connection or the
   * network is gone (then the `online` event opens one).
   */
  private drop(ws: WebSocket, why: string, closeCode: number | null = null): void {
    if (this.ws !== ws) return;
    this.ws = null;
    this.lastLoss = why;
    this.lastCloseCode = closeCode;
    ws.onopen = null;
    ws.onmessage = null;
    ws.onclose = null;
    if (ws.readyState === WebSocket.CONNECTING || ws.readyState === WebSocket.OPEN) ws.close();
    this.clearConnectTimer();
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) {
      clearTimeout(p.timer);
      p.reject?.(new ServerError('disconnected'));
    }
    this.setState('closed');
    if (!this.stopped && !this.network.online()) this.setState('offline');
    else if (!this.stopped) {
      const base = Math.min(this.limits.retryMaxMs, this.limits.retryFirstMs * 2 ** this.retry++);
      const delay = base * (1 + this.limits.retryJitter * this.random());
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        if (!this.stopped) this.open();
      }, delay);
    }
  }

  private clearConnectTimer(): void {
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.connectTimer = null;
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** Sends `msg` with a new id; its answer must come within `limitMs`, else the socket is dropped. */
  private post(msg: Record<string, unknown>, limitMs: number, answer?: Omit<Pending, 'timer'>): number | null {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return null;
    const id = this.nextId++;
    ws.send(JSON.stringify({ ...msg, id }));
    const timer = setTimeout(() => this.drop(ws, `no answer to ${String(msg.type)} #${id} within ${limitMs} ms`), limitMs);
    this.pending.set(id, { timer, ...answer });
    return id;
  }

  /** Sends a message without waiting for its answer here (it is still expected within `requestTimeoutMs`); null when not open. */
  send(msg: Record<string, unknown>): number | null {
    return this.post(msg, this.limits.requestTimeoutMs);
  }

  /**
   * Sends a request; resolves with the answer (`ok`, `created`, `tables`, `welcome`…), rejects on
   * `error` (ServerError with its code), and with `disconnected` when the socket is lost or the
   * answer does not come within `requestTimeoutMs` (then the socket is dropped).
   */
  request(msg: Record<string, unknown>): Promise<ServerMessage> {
    return new Promise((resolve, reject) => {
      if (this.post(msg, this.limits.requestTimeoutMs, { resolve, reject }) === null) reject(new ServerError('disconnected'));
    });
  }
}

/** ws://host/ws or wss://host/ws for the page's own server. */
export function wsUrl(loc: { protocol: string; host: string }): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/ws`;
}
