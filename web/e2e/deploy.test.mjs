// A deploy while a tab is open (issue 28): the server is restarted on the same address with a
// new build of the page, whose offline code has another name (the old one is gone: 404). The
// open tab keeps its build (its service worker's cache): it plays offline, with the network and
// without it, and says "a new version is ready"; Reload moves it to the new build, and the
// offline match goes on there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, launchBrowser, screenshots, clickSure, step, audit, webDir, DESKTOP } from './harness.mjs';

let work;
let br;
let srv;
const builds = {};

/** Every file under `dir` (paths relative to it). */
const filesUnder = (dir, prefix = '') =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );

/**
 * Two builds of the page: `old`, web/dist as built, and `next`, the same with its offline chunk
 * renamed (every reference to it rewritten) and another service-worker version, as a new build
 * whose code changed. Returns the old and new names of the chunk.
 */
function makeBuilds() {
  work = mkdtempSync(path.join(tmpdir(), 'tarneeb-deploy-'));
  builds.old = path.join(work, 'old');
  builds.next = path.join(work, 'next');
  cpSync(path.join(webDir, 'dist'), builds.old, { recursive: true });
  cpSync(path.join(webDir, 'dist'), builds.next, { recursive: true });
  const chunk = readdirSync(path.join(builds.next, 'assets')).find((f) => /^offline-[\w-]+\.js$/.test(f));
  assert.ok(chunk, 'the build has an offline chunk');
  const renamed = 'offline-nextdeploy.js';
  renameSync(path.join(builds.next, 'assets', chunk), path.join(builds.next, 'assets', renamed));
  for (const f of filesUnder(builds.next).filter((f) => /\.(js|html)$/.test(f))) {
    const file = path.join(builds.next, f);
    const text = readFileSync(file, 'utf8');
    let out = text.split(chunk).join(renamed);
    if (f === 'sw.js') out = out.replace(/const VERSION = '([0-9a-f]+)'/, "const VERSION = 'nextdeploy$1'");
    if (out !== text) writeFileSync(file, out);
  }
  return { chunk, renamed };
}

before(async () => {
  br = await launchBrowser();
});
after(async () => {
  await br?.close();
  await srv?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('a new deploy: the open tab keeps playing offline, says a new version is ready, and reloads into it', async () => {
  const { chunk, renamed } = makeBuilds();
  srv = await startServer({ staticDir: builds.old });
  const ctx = await br.browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`${srv.url}/?lang=en&botdelay=20`);
    await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.waitForSelector('[data-testid=play-offline]');

    // the deploy: the same address serves the next build (its database kept)
    const { port, dir } = srv;
    await srv.stop(true);
    srv = await startServer({ staticDir: builds.next, port, dir });
    assert.equal((await fetch(`${srv.url}/assets/${chunk}`)).status, 404, "the old build's offline code is gone from the server");
    // the browser looks for a new sw.js (as at any navigation): the next build installs and waits
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
    await page.waitForSelector('[data-testid=update-ready]');
    assert.match(await page.textContent('[data-testid=update-ready]'), /A new version of the game is ready/);
    assert.deepEqual(await audit(page), [], 'the update prompt is accessible');
    // its controls are big enough for a finger (measured now: no bot re-renders the page yet)
    for (const sel of ['[data-act=update-reload]', '[data-act=update-later]']) {
      const box = await page.locator(sel).boundingBox();
      assert.ok(box.width >= 44 && box.height >= 44, `${sel} is ${box.width}x${box.height}`);
    }

    // the open tab plays offline with its own build's code, with the network, then without it
    await clickSure(page, '[data-testid=play-offline]');
    await page.waitForSelector('.hand .card');
    // the prompt sits above the table and covers nothing of it: the header below it, the hand inside the window
    const boxes = await page.evaluate(() => {
      const r = (sel) => document.querySelector(sel).getBoundingClientRect();
      return { bar: r('.update-bar').bottom, header: r('.game-bar').top, hand: r('.hand').bottom, height: innerHeight };
    });
    assert.ok(boxes.header >= boxes.bar && boxes.hand <= boxes.height, JSON.stringify(boxes));
    await step(page);
    await ctx.setOffline(true);
    await step(page);
    await step(page);
    const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    assert.ok(loaded.some((n) => n.endsWith(`/assets/${chunk}`)), 'the old offline code ran');
    await page.waitForFunction(() => window.tarneeb.state.table?.legal.length > 0);
    const before = await page.evaluate(() => ({ version: window.tarneeb.state.table.version, hand: window.tarneeb.state.table.round.hand }));

    // Reload (still offline): the next build takes over, the page reloads into it, the match goes on
    // (a plain click: the page reloads under it, and at the person's turn nothing re-renders it)
    await page.evaluate(() => (window.__oldPage = true));
    await page.click('[data-testid=update-reload]');
    await page.waitForFunction(() => !window.__oldPage && window.tarneeb?.state.table?.table === 'offline' && window.tarneeb.state.table.legal.length > 0);
    const now = await page.evaluate(() => ({ version: window.tarneeb.state.table.version, hand: window.tarneeb.state.table.round.hand }));
    assert.deepEqual(now, before);
    const after = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    assert.ok(after.some((n) => n.endsWith(`/assets/${renamed}`)), 'the new offline code runs');
    // the old build's cache is gone once the next one took over
    const keys = await page.evaluate(() => caches.keys());
    assert.equal(keys.length, 1, keys.join());
    assert.match(keys[0], /^tarneeb-nextdeploy/);
    assert.equal(await page.locator('[data-testid=update-ready]').count(), 0);
    await step(page);
    assert.deepEqual(errors, [], 'no script errors on the page');
  } catch (e) {
    await screenshots('deploy', [page]);
    throw e;
  } finally {
    await ctx.close();
  }
});
