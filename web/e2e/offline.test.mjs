// Offline play (issue 14): the page is loaded once online (the service worker caches the app
// and the WebAssembly engine), then the network is cut (Playwright's offline mode) and the
// server stopped, the page reloaded, and a whole match against three bots played to its end.
// Issue 28: an offline match goes on after a reload with the network blocked, and the page
// says "offline" and tries no WebSocket until the network is back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, playToEnd, screenshots, signIn, clickSure, fillField, leaveTable, step, DESKTOP } from './harness.mjs';

const env = useServer({ botDelayMs: 0 });

/** Resolves when it is the person's turn at the offline table; returns what the person sees then. */
async function myTurn(page) {
  await page.waitForFunction(() => {
    const t = window.tarneeb.state.table;
    return t?.table === 'offline' && t.legal.length > 0;
  });
  return page.evaluate(() => {
    const t = window.tarneeb.state.table;
    return { version: t.version, hand: t.round.hand, phase: t.round.phase, scores: t.scores, tricks: t.round.tricks, round: t.round.number };
  });
}

test('an offline match goes on after a reload with the network blocked; no WebSocket is tried until the network is back', async () => {
  const ctx = await env.br.browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`${env.srv.url}/?lang=en&botdelay=20`);
    await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    // the network blocked: from here on, no console error (a failed WebSocket logs one) and no socket
    await ctx.setOffline(true);
    const consoleErrors = [];
    const sockets = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.reload();
    // the page says "offline", not "reconnecting"
    await page.waitForSelector('[data-testid=offline-bar]');
    assert.equal(await page.evaluate(() => window.tarneeb.state.conn), 'offline');
    await clickSure(page, '[data-testid=play-offline]');
    await page.waitForSelector('.hand .card');
    for (let i = 0; i < 9; i++) await step(page);
    const before = await myTurn(page);

    // a reload: the same match, at the same turn, with the same hand and scores
    await page.reload();
    await page.waitForSelector('.hand .card');
    const after = await myTurn(page);
    assert.deepEqual(after, before);
    assert.equal(await page.evaluate(() => window.tarneeb.state.offline), true);
    // and it goes on
    await step(page);
    assert.deepEqual(sockets, [], 'no WebSocket tried while offline');
    assert.deepEqual(consoleErrors, [], 'no console error while offline');

    // the network back: the page connects again by itself (its offline match still on screen)
    await ctx.setOffline(false);
    await page.waitForFunction(() => window.tarneeb.state.conn === 'open');
    assert.ok(sockets.length >= 1);
    assert.equal(await page.evaluate(() => window.tarneeb.state.table.table), 'offline');
    // leaving the match forgets it: a reload shows the start screen
    await page.waitForSelector('.bids [data-act=call]:not([disabled]), [data-act=trump]:not([disabled]), .hand .card.playable:not([disabled])');
    // not signed in: Leave (confirmed) returns to the start screen, not the lobby
    page.on('dialog', (d) => d.accept().catch(() => {}));
    await clickSure(page, 'header [data-act=leave]');
    await page.waitForSelector('form[data-form=signin]');
    await page.reload();
    await page.waitForSelector('form[data-form=signin]');
    assert.equal(await page.evaluate(() => window.tarneeb.state.offline), false);
    assert.deepEqual(errors, [], 'no script errors on the page');
  } catch (e) {
    await screenshots('offline-resume', [page]);
    throw e;
  } finally {
    await ctx.close();
  }
});

test('after one online load, the page reloads and plays a whole match with no network and no server', async () => {
  const ctx = await env.br.browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`${env.srv.url}/?lang=en`);
    // the service worker is installed (its cache filled) and active
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    assert.equal(scope, `${env.srv.url}/`);
    // the online game under the service worker: a page it controls signs in over the WebSocket
    await page.reload();
    assert.equal(await page.evaluate(() => navigator.serviceWorker.controller !== null), true);
    await signIn(page, env.srv.url, `Offline${Date.now() % 100000}`, 'en');
    // signed in, from the lobby: an offline match, then leave it (confirmed) for the lobby again
    await clickSure(page, '[data-testid=play-offline]');
    await page.waitForSelector('.hand .card');
    assert.equal(await page.evaluate(() => window.tarneeb.state.table.table), 'offline');
    // Leave at this seat's turn: the bots wait for it, so no bot's move (700 ms apart here)
    // re-renders the page under the click. A click whose button is re-rendered between the
    // mouse's down and up is lost (nothing asked, nothing left): leaveTable clicks until the
    // page gets it, then waits for the lobby.
    await page.waitForSelector('.bids [data-act=call]:not([disabled]), [data-act=trump]:not([disabled]), .hand .card.playable:not([disabled])');
    await leaveTable(page);
    assert.equal(await page.evaluate(() => window.tarneeb.state.offline), false);
    await clickSure(page, '[data-act=signout]');
    // a guest is warned first (its name stays with the token it forgets) and signs out anyway
    await clickSure(page, '[data-act=account-signout-anyway]');
    await page.waitForSelector('form[data-form=signin]');

    await ctx.setOffline(true);
    await env.srv.stop();
    // a short bot delay keeps the test quick (the page's default is 700 ms)
    await page.goto(`${env.srv.url}/?lang=en&botdelay=20`);
    await page.waitForSelector('[data-testid=offline-entry]');
    assert.equal(await page.evaluate(() => navigator.onLine), false);
    // the HTTP API is never answered from the cache
    assert.equal(await page.evaluate(() => fetch('./api/leaderboard').then(() => 'answered', () => 'failed')), 'failed');

    // a short match: play to 1 point. The page draws the start screen again at each attempt to
    // reach the server (300 ms, 600 ms… apart): fillField checks the target held, clickSure the click.
    await fillField(page, '[data-testid=offline-entry] input[name=target]', 1, (v) => window.tarneeb.state.form.target === v);
    // against hard bots: the learned card player, in the page's WebAssembly engine
    await clickSure(page, '[data-testid=offline-level-hard]');
    await page.waitForSelector('[data-testid=offline-level-hard][aria-pressed=true]');
    await clickSure(page, '[data-testid=play-offline]');
    await page.waitForSelector('.hand .card');
    const first = await page.evaluate(() => {
      const t = window.tarneeb.state.table;
      return { you: t.you, bots: t.seats.map((s) => s.bot), kinds: t.seats.map((s) => s.kind ?? null), hand: t.round.hand.length, target: t.target };
    });
    assert.deepEqual(first, { you: 0, bots: [false, true, true, true], kinds: [null, 'hard', 'hard', 'hard'], hand: 13, target: 1 });
    assert.deepEqual(await page.$$eval('.seat .bot-level', (b) => b.map((e) => e.dataset.level)), ['hard', 'hard', 'hard']);
    // no connection bar: offline play needs no server
    assert.equal(await page.locator('.conn-bar').count(), 0);

    const cards = await playToEnd(page, {
      onStep: async () => {
        // hidden cards stay hidden: the page holds seat 0's hand only, as many cards as it has left
        const ok = await page.evaluate(() => {
          const r = window.tarneeb.state.table.round;
          return !r || (r.hand.length === r.cards_left[0] && !('hands' in r));
        });
        assert.ok(ok);
      },
    });
    assert.ok(cards >= 1, 'cards were played');
    await page.waitForSelector('[data-testid=match-over]');
    const result = await page.evaluate(() => window.tarneeb.state.table.result);
    assert.equal(result.status, 'won');
    assert.deepEqual(errors, [], 'no script errors on the page');

    // play again: a new match, still offline
    await clickSure(page, '[data-testid=match-over] [data-act=start]');
    await page.waitForFunction(() => window.tarneeb.state.table?.state === 'playing');
  } catch (e) {
    await screenshots('offline', [page]);
    throw e;
  } finally {
    await ctx.close();
  }
});
