// One WebSocket to the server: requests matched to answers by id, pings, reconnection.
import type { ServerMessage } from './protocol';

export type ConnState = 'connecting' | 'open' | 'closed';

export class ServerError extends Error {
  constructor(public code: string, message?: string) {
    super(message ?? code);
  }
}

type Pending = { resolve: (m: ServerMessage) => void; reject: (e: Error) => void };

export class Connection {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private retry = 0;
  private stopped = false;
  state: ConnState = 'closed';

  constructor(
    private url: string,
    private onMessage: (m: ServerMessage) => void,
    private onState: (s: ConnState) => void,
  ) {}

  open(): void {
    this.stopped = false;
    this.setState('connecting');
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.setState('open');
      this.pingTimer = setInterval(() => this.send({ type: 'ping' }), 20000);
    };
    ws.onmessage = (ev) => {
      let m: ServerMessage;
      try {
        m = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      const id = (m as { id?: unknown }).id;
      if (typeof id === 'number' && this.pending.has(id) && m.type !== 'table') {
        const p = this.pending.get(id)!;
        this.pending.delete(id);
        if (m.type === 'error') p.reject(new ServerError(m.code, m.message));
        else p.resolve(m);
      }
      this.onMessage(m);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.pingTimer) clearInterval(this.pingTimer);
      this.pingTimer = null;
      for (const p of this.pending.values()) p.reject(new ServerError('disconnected'));
      this.pending.clear();
      this.setState('closed');
      if (!this.stopped) {
        const delay = Math.min(5000, 300 * 2 ** this.retry++);
        setTimeout(() => {
          if (!this.stopped && !this.ws) this.open();
        }, delay);
      }
    };
  }

  close(): void {
    this.stopped = true;
    this.ws?.close();
  }

  private setState(s: ConnState) {
    this.state = s;
    this.onState(s);
  }

  send(msg: Record<string, unknown>): number | null {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return null;
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ ...msg, id }));
    return id;
  }

  /** Sends a request; resolves with the answer (`ok`, `created`, `tables`, `welcome`…), rejects on `error`. */
  request(msg: Record<string, unknown>): Promise<ServerMessage> {
    return new Promise((resolve, reject) => {
      const id = this.send(msg);
      if (id === null) {
        reject(new ServerError('disconnected'));
        return;
      }
      this.pending.set(id, { resolve, reject });
    });
  }
}

/** ws://host/ws or wss://host/ws for the page's own server. */
export function wsUrl(loc: { protocol: string; host: string }): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/ws`;
}
