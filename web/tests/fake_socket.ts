// A WebSocket for unit tests (vi.stubGlobal('WebSocket', FakeSocket)): the test plays the server.
/** A WebSocket the test drives: it records what is sent, and the test opens it, answers and closes it. */
export class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  /** Every socket made, in order (the test reads the newest). */
  static made: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  sent: Record<string, unknown>[] = [];
  closedByPage = false;
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: string }) => void) | null = null;
  onclose: ((ev?: { code: number }) => void) | null = null;
  constructor(public url: string) {
    FakeSocket.made.push(this);
  }
  send(data: string): void {
    if (this.readyState !== FakeSocket.OPEN) throw new Error('send on a socket that is not open');
    this.sent.push(JSON.parse(data));
  }
  close(): void {
    this.closedByPage = true;
    this.readyState = FakeSocket.CLOSING; // the closing handshake never ends: the server is silent
  }
  // ---- the server's side ----
  accept(): void {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  receive(m: object): void {
    this.onmessage?.({ data: JSON.stringify(m) });
  }
  /** The server closes the socket, with a close code when given (4001: the session was revoked). */
  serverClose(code?: number): void {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.(code === undefined ? undefined : { code });
  }
  /** The last message sent of `type`. */
  last(type: string): Record<string, unknown> | undefined {
    return this.sent.filter((m) => m.type === type).at(-1);
  }
}
