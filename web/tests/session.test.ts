// A session ended by the server (issue 28): a revoked device (close code 4001) or a stored token
// the server no longer knows (`unknown_token`) shows the session-ended text on the sign-in
// screen, with the account's password form ready, and no account panel of the old session comes
// back; the person's own account name typed in the guest form offers the password sign-in. The
// App runs with its real Connection on a fake WebSocket; the test plays the server.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { App as AppClass } from '../src/app';
import { CONN_LIMITS } from '../src/conn';
import { errorText, setLang } from '../src/i18n';
import { FakeSocket } from './fake_socket';
import { memoryStorage } from './memory_storage';

let App: typeof AppClass;
// view.ts (through rules.ts) loads app.ts: both imported after the globals are stubbed, so that
// app.ts sees this localStorage
let html: typeof import('../src/view').html;

beforeAll(async () => {
  vi.stubGlobal('localStorage', memoryStorage());
  vi.stubGlobal('sessionStorage', memoryStorage());
  vi.stubGlobal('location', { search: '', protocol: 'http:', host: 'localhost', href: 'http://localhost/' });
  vi.stubGlobal('navigator', { language: 'en' });
  vi.stubGlobal('document', { documentElement: {} });
  vi.stubGlobal('WebSocket', FakeSocket);
  ({ App } = await import('../src/app'));
  ({ html } = await import('../src/view'));
});
afterAll(() => vi.unstubAllGlobals());
beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.made = [];
  localStorage.clear();
  setLang('en');
});
afterEach(() => vi.useRealTimers());

const socket = () => FakeSocket.made.at(-1)!;

/** A page signed in to the account Layla with a stored token, in the lobby. */
async function accountPage() {
  localStorage.setItem('tarneeb.token', JSON.stringify('tok1'));
  const app = new App(() => {});
  app.start();
  socket().accept();
  const hello = socket().last('hello')!;
  socket().receive({ type: 'welcome', id: hello.id, name: 'Layla', token: 'tok1', protocol: 1, table: null, seat: null, registered: true });
  await vi.advanceTimersByTimeAsync(0);
  expect(app.state.welcomed).toBe(true);
  expect(app.state.registered).toBe(true);
  return app;
}

describe('a session ended by the server', () => {
  it('revoked (close 4001): the token is forgotten, the sign-in screen says why, the password form has the name, no old panel', async () => {
    const app = await accountPage();
    app.update({ accountPanel: { kind: 'done', what: 'registered' } });
    socket().serverClose(4001);
    expect(app.state.token).toBeNull();
    expect(localStorage.getItem('tarneeb.token')).toBeNull();
    expect(app.state.notice).toBe('sessionEnded');
    expect(app.state.accountPanel).toBeNull();
    expect(app.state.accountInput).toEqual({ name: 'Layla' });
    const out = html(app.state);
    expect(out).toContain('data-testid="session-ended"');
    expect(out).toContain(errorText('unknown_token', undefined));
    expect(out).toMatch(/<details class="account-signin"[^>]*open/);
    // the new connection does not sign in with the old token
    await vi.advanceTimersByTimeAsync(CONN_LIMITS.retryFirstMs * (1 + CONN_LIMITS.retryJitter)); // the longest first back-off
    socket().accept();
    expect(socket().last('hello')).toBeUndefined();
    // signing in with the password: welcomed, the notice gone, no stale "registered" dialog
    app.signInWithPassword('Layla', 'olive-tree-42');
    const hello = socket().last('hello')!;
    socket().receive({ type: 'welcome', id: hello.id, name: 'Layla', token: 'tok2', protocol: 1, table: null, seat: null, registered: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(app.state.notice).toBeNull();
    expect(app.state.accountPanel).toBeNull();
    expect(html(app.state)).not.toContain('account-panel');
  });

  it('in Arabic: the existing text «انتهت جلستك»', async () => {
    const app = await accountPage();
    socket().serverClose(4001);
    setLang('ar');
    expect(html({ ...app.state, lang: 'ar' })).toContain('انتهت جلستك');
  });

  it('registered during the session, then revoked: its name typed in the guest form offers the password', async () => {
    const app = new App(() => {});
    app.start();
    socket().accept();
    app.signIn('Layla');
    let hello = socket().last('hello')!;
    socket().receive({ type: 'welcome', id: hello.id, name: 'Layla', token: 'g1', protocol: 1, table: null, seat: null, registered: false });
    await vi.advanceTimersByTimeAsync(0);
    const reg = app.register('olive-tree-42');
    socket().receive({ type: 'ok', id: socket().last('register')!.id, registered: true });
    await reg;
    socket().serverClose(4001);
    expect(app.state.notice).toBe('sessionEnded');
    await vi.advanceTimersByTimeAsync(CONN_LIMITS.retryFirstMs * (1 + CONN_LIMITS.retryJitter)); // the longest first back-off
    socket().accept();
    app.signIn('Layla');
    hello = socket().last('hello')!;
    socket().receive({ type: 'error', id: hello.id, code: 'name_taken' });
    await vi.advanceTimersByTimeAsync(0);
    expect(app.state.notice).toBe('ownAccount');
    expect(app.state.error).toBeNull();
  });

  it('a close of another kind is a lost connection, not a session ended', async () => {
    const app = await accountPage();
    socket().serverClose(1001);
    expect(app.state.token).toBe('tok1');
    expect(app.state.notice ?? null).toBeNull();
  });

  it('unknown_token on hello with the stored token: the same', async () => {
    localStorage.setItem('tarneeb.token', JSON.stringify('old'));
    localStorage.setItem('tarneeb.account', JSON.stringify('Layla'));
    const app = new App(() => {});
    app.start();
    socket().accept();
    const hello = socket().last('hello')!;
    socket().receive({ type: 'error', id: hello.id, code: 'unknown_token' });
    await vi.advanceTimersByTimeAsync(0);
    expect(app.state.token).toBeNull();
    expect(app.state.notice).toBe('sessionEnded');
    expect(app.state.accountInput).toEqual({ name: 'Layla' });
    expect(app.state.error).toBeNull();
  });

  it("one's own account name in the guest form offers the password sign-in, not «name taken»", async () => {
    localStorage.setItem('tarneeb.account', JSON.stringify('Layla'));
    const app = new App(() => {});
    app.start();
    socket().accept();
    app.signIn('layla');
    let hello = socket().last('hello')!;
    socket().receive({ type: 'error', id: hello.id, code: 'name_taken' });
    await vi.advanceTimersByTimeAsync(0);
    expect(app.state.error).toBeNull();
    expect(app.state.notice).toBe('ownAccount');
    expect(app.state.accountInput).toEqual({ name: 'Layla' });
    expect(html(app.state)).toContain('data-testid="own-account"');
    // another person's name is taken as before
    app.signIn('Omar');
    hello = socket().last('hello')!;
    socket().receive({ type: 'error', id: hello.id, code: 'name_taken' });
    await vi.advanceTimersByTimeAsync(0);
    expect(app.state.error).toBe(errorText('name_taken', undefined));
  });
});

describe('a server newer than the page', () => {
  it('says so and looks for the new version; Reload activates it as soon as it is there', async () => {
    const app = new App(() => {});
    const calls: string[] = [];
    app.updates = { apply: () => calls.push('apply'), check: async (apply) => void calls.push(apply ? 'check+apply' : 'check') };
    app.start();
    socket().accept();
    app.signIn('Omar');
    const hello = socket().last('hello')!;
    socket().receive({ type: 'welcome', id: hello.id, name: 'Omar', token: 't', protocol: 2, table: null, seat: null });
    await vi.advanceTimersByTimeAsync(0);
    expect(app.state.serverProtocol).toBe(2);
    expect(calls).toEqual(['check']);
    expect(html(app.state)).toContain('data-testid="update-ready"');
    expect(html(app.state)).toContain('older than the server');
    app.applyUpdate();
    expect(calls).toEqual(['check', 'check+apply']);
  });

  it('says nothing for the same protocol', async () => {
    const app = await accountPage();
    expect(app.state.serverProtocol).toBeNull();
    expect(html(app.state)).not.toContain('update-ready');
  });
});
