// The page's side of the service worker (sw/sw.js, issue 28). A worker serves one build as a
// whole from its own cache, so a tab keeps running the version it was loaded with, offline play
// included, after a deploy. A new build's worker installs beside it and waits: the page says "a
// new version is ready" (onReady) and activates it only when the person agrees (apply: the page
// posts `skip-waiting` to it); when it takes over, every tab it controls reloads into the new
// version (an offline match is kept across the reload: offline_store.ts).
//
// The browser looks for a new sw.js at each navigation; the page also asks when the network comes
// back and every 30 minutes, and at once when the server speaks a newer protocol (check()).

/** The parts of navigator.serviceWorker used here (a fake in the tests). */
export interface Workers {
  readonly controller: object | null;
  register(url: string): Promise<Registration>;
  addEventListener(type: 'controllerchange', listener: () => void): void;
}

/** The parts of a ServiceWorkerRegistration used here. */
export interface Registration {
  readonly installing: Worker | null;
  readonly waiting: Worker | null;
  update(): Promise<unknown>;
  addEventListener(type: 'updatefound', listener: () => void): void;
}

/** The parts of a ServiceWorker used here. */
export interface Worker {
  readonly state: string;
  postMessage(message: unknown): void;
  addEventListener(type: 'statechange', listener: () => void): void;
}

/** The message sw.js waits for before it takes over (its `message` handler). */
export const SKIP_WAITING = { type: 'skip-waiting' } as const;

export const CHECK_EVERY_MS = 30 * 60_000;

export class Updates {
  private reg: Registration | null = null;
  private ready: Worker | null = null;
  private applyWhenReady = false;
  private reloading = false;

  constructor(
    private workers: Workers,
    /** A new version is installed and waits for the person's agreement. */
    private onReady: () => void,
    private reload: () => void = () => location.reload(),
  ) {}

  /** Registers sw.js and follows its updates; rejects when the browser refuses it. */
  async start(url = './sw.js'): Promise<void> {
    // The first worker of a page that had none takes it over without a reload (same build);
    // any later change of worker is a new version the person agreed to (in this tab or another).
    let controlled = this.workers.controller !== null;
    this.workers.addEventListener('controllerchange', () => {
      if (controlled) this.reloadOnce();
      controlled = true;
    });
    const reg = await this.workers.register(url);
    this.reg = reg;
    if (reg.waiting) this.found(reg.waiting);
    else if (reg.installing) this.follow(reg.installing);
    reg.addEventListener('updatefound', () => {
      if (reg.installing) this.follow(reg.installing);
    });
  }

  /** Whether a new version waits. */
  get isReady(): boolean {
    return this.ready !== null;
  }

  /** The person agrees: the waiting version takes over, and the page reloads into it (controllerchange). */
  apply(): void {
    if (this.ready) this.ready.postMessage(SKIP_WAITING);
    else this.reloadOnce();
  }

  /**
   * Looks for a new version now. With `apply`, it is activated as soon as it is installed (the
   * page is too old for the server), and when there is none the page reloads as it is.
   */
  async check(apply = false): Promise<void> {
    if (apply) this.applyWhenReady = true;
    if (this.ready) {
      if (apply) this.apply();
      return;
    }
    try {
      await this.reg?.update();
    } catch {
      /* offline, or the server is down: the next check */
    }
    if (apply && !this.ready && !this.reg?.installing) this.reloadOnce();
  }

  private follow(w: Worker): void {
    const seen = () => {
      if (w.state === 'installed') this.found(w);
    };
    w.addEventListener('statechange', seen);
    seen();
  }

  private found(w: Worker): void {
    // A worker installed with no page controlled yet (the very first) activates by itself.
    if (this.workers.controller === null || this.ready === w) return;
    this.ready = w;
    if (this.applyWhenReady) this.apply();
    else this.onReady();
  }

  private reloadOnce(): void {
    if (this.reloading) return;
    this.reloading = true;
    this.reload();
  }
}

/** Starts following updates in a built page where the browser has service workers; null otherwise. */
export function startUpdates(onReady: () => void): Updates | null {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  const u = new Updates(navigator.serviceWorker as unknown as Workers, onReady);
  u.start().catch(() => {});
  globalThis.addEventListener?.('online', () => void u.check());
  setInterval(() => void u.check(), CHECK_EVERY_MS);
  return u;
}
