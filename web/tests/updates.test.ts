// The page's side of the service worker (updates.ts, issue 28): a new version waits until the
// person agrees, then takes over and the page reloads once; the first worker of a page takes it
// over silently. Fake workers: the test plays the browser.
import { describe, expect, it } from 'vitest';
import { SKIP_WAITING, Updates, type Registration, type Worker, type Workers } from '../src/updates';
import { STATUS_KEYS, statusText } from '../src/status_i18n';
import { updateBar, connBar } from '../src/status_view';
import { emptySheet } from '../src/sheet';
import { setLang } from '../src/i18n';
import type { State } from '../src/app';

class FakeWorker extends EventTarget implements Worker {
  posted: unknown[] = [];
  constructor(public state = 'installing') {
    super();
  }
  postMessage(m: unknown) {
    this.posted.push(m);
  }
  to(state: string) {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

class FakeRegistration extends EventTarget implements Registration {
  installing: FakeWorker | null = null;
  waiting: FakeWorker | null = null;
  updates = 0;
  async update() {
    this.updates++;
  }
  /** A new sw.js found: installing, then installed (waiting). */
  newVersion(): FakeWorker {
    const w = new FakeWorker();
    this.installing = w;
    this.dispatchEvent(new Event('updatefound'));
    return w;
  }
  installed(w: FakeWorker) {
    this.installing = null;
    this.waiting = w;
    w.to('installed');
  }
}

class FakeWorkers extends EventTarget implements Workers {
  reg = new FakeRegistration();
  constructor(public controller: object | null) {
    super();
  }
  async register() {
    return this.reg;
  }
  takeOver() {
    this.controller = {};
    this.dispatchEvent(new Event('controllerchange'));
  }
}

function setup(controller: object | null) {
  const workers = new FakeWorkers(controller);
  const events = { ready: 0, reloads: 0 };
  const u = new Updates(workers, () => events.ready++, () => events.reloads++);
  return { workers, events, u };
}

describe('a new version', () => {
  it('waits for the person: "ready", then Reload activates it, and the page reloads once when it takes over', async () => {
    const { workers, events, u } = setup({});
    await u.start();
    const w = workers.reg.newVersion();
    expect(events.ready).toBe(0);
    workers.reg.installed(w);
    expect(events.ready).toBe(1);
    expect(u.isReady).toBe(true);
    expect(w.posted).toEqual([]); // nothing activates it by itself
    u.apply();
    expect(w.posted).toEqual([SKIP_WAITING]);
    workers.takeOver();
    workers.takeOver();
    expect(events.reloads).toBe(1);
  });

  it('one already waiting when the page loads is offered at once', async () => {
    const { workers, events, u } = setup({});
    workers.reg.waiting = new FakeWorker('installed');
    await u.start();
    expect(events.ready).toBe(1);
  });

  it('the first worker of a page takes it over without a prompt or a reload', async () => {
    const { workers, events, u } = setup(null);
    await u.start();
    const w = workers.reg.newVersion();
    workers.reg.installed(w);
    expect(events.ready).toBe(0);
    workers.takeOver();
    expect(events.reloads).toBe(0);
  });

  it('another tab agreed: this one reloads into the new version too', async () => {
    const { workers, events, u } = setup({});
    await u.start();
    workers.takeOver();
    expect(events.reloads).toBe(1);
  });

  it('check(apply): looks for it and activates it as soon as it is installed; none found: a plain reload', async () => {
    const { workers, events, u } = setup({});
    await u.start();
    const found = u.check(true);
    const w = workers.reg.newVersion();
    await found;
    expect(events.reloads).toBe(0);
    workers.reg.installed(w);
    expect(w.posted).toEqual([SKIP_WAITING]);
    expect(events.ready).toBe(0);

    const other = setup({});
    await other.u.start();
    await other.u.check(true);
    expect(other.workers.reg.updates).toBe(1);
    expect(other.events.reloads).toBe(1);
  });
});

const state = (over: Partial<State> = {}): State => ({
  conn: 'open', lang: 'en', name: 'Layla', token: 'x', welcomed: true, busy: false, tables: [], listCursor: null, listPrev: [], listNext: null,
  listsAsked: 0, listsAnswered: 0, table: null, codes: {}, sheet: emptySheet('', 0), summary: null, matchOver: null, ratings: null, log: [], error: null,
  showLastTrick: false, showSheet: false, actedVersion: null, hint: null, sound: false,
  form: { preset: 'levantine', target: 31, timer: 30, priv: false, bots: true }, nameInput: '', joinId: '', joinCode: '', watching: null,
  ...over,
});

describe('the status lines', () => {
  it('have every text in English and Arabic', () => {
    for (const k of STATUS_KEYS) {
      expect(statusText(k, {}, 'en')).toBeTruthy();
      expect(statusText(k, {}, 'ar')).toMatch(/[\u0600-\u06FF]/);
    }
  });

  it('say "offline" without a network, "reconnecting" otherwise, nothing while playing offline', () => {
    setLang('en');
    expect(connBar(state({ conn: 'offline' }))).toContain('data-testid="offline-bar"');
    expect(connBar(state({ conn: 'offline' }))).toContain('You are offline');
    expect(connBar(state({ conn: 'closed' }))).toContain('reconnecting');
    expect(connBar(state({ conn: 'offline', offline: true }))).toBe('');
  });

  it('offer the new version with Reload and Later; Later puts it away; a too-old page cannot put it away', () => {
    expect(updateBar(state())).toBe('');
    const ready = updateBar(state({ updateReady: true }));
    expect(ready).toContain('data-act="update-reload"');
    expect(ready).toContain('data-act="update-later"');
    expect(updateBar(state({ updateReady: true, updateDismissed: true }))).toBe('');
    const old = updateBar(state({ serverProtocol: 3, updateDismissed: true }));
    expect(old).toContain('data-act="update-reload"');
    expect(old).not.toContain('update-later');
  });
});
