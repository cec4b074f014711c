// End-to-end harness: a tarneeb server on a free port (temporary database, web/dist) and
// Debian's chromium driven by playwright-core.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, mkdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const webDir = path.resolve(here, '..');
export const resultsDir = path.join(webDir, 'test-results');

export function serverBin() {
  const bin = process.env.TARNEEB_BIN || path.resolve(webDir, '../build/release/tarneeb');
  if (!existsSync(bin)) throw new Error(`tarneeb server binary not found: ${bin} (set TARNEEB_BIN)`);
  return bin;
}

/**
 * Starts `tarneeb serve` on a free port (or `port`); resolves with { url, port, dir, stop, pause,
 * resume, log }. `staticDir`: the page's files to serve (default web/dist).
 */
export async function startServer({ botDelayMs = 0, summaryMs = 0, grace = 20, extra = [], port: wantPort = 0, dir: keepDir = null, staticDir = null } = {}) {
  const dir = keepDir ?? mkdtempSync(path.join(tmpdir(), 'tarneeb-e2e-'));
  const dist = staticDir ?? path.join(webDir, 'dist');
  if (!existsSync(path.join(dist, 'index.html'))) throw new Error('web/dist is missing: run npm run build first');
  const args = [
    'serve', '--address', '127.0.0.1', '--port', String(wantPort), '--db', path.join(dir, 'e2e.db'),
    '--static', dist, '--bot-delay-ms', String(botDelayMs), '--summary-ms', String(summaryMs), '--grace', String(grace),
    '--log-level', 'warn', ...extra,
  ];
  const proc = spawn(serverBin(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const killOnExit = () => proc.kill('SIGKILL');
  process.once('exit', killOnExit);
  let out = '';
  let err = '';
  proc.stderr.on('data', (d) => (err += d));
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}${err}`)), 30000); // test-wait: liveness bound
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on [^\s]*:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}): ${out}${err}`));
    });
  });
  /** Freezes the server (SIGSTOP): its sockets stay open, nothing is answered, until resume() (SIGCONT). */
  const pause = () => proc.kill('SIGSTOP');
  const resume = () => proc.kill('SIGCONT');
  /** Stops the server; keeps its database when `keep` (to start it again on it). */
  const stop = async (keep = false) => {
    if (proc.exitCode === null) {
      const done = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGCONT'); // a paused server handles its SIGTERM
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 5000); // test-wait: liveness bound (SIGTERM ignored: kill it)
      await done;
      clearTimeout(t);
    }
    process.removeListener('exit', killOnExit);
    if (!keep) rmSync(dir, { recursive: true, force: true });
  };
  return { url: `http://127.0.0.1:${port}`, port, dir, stop, pause, resume, log: () => out + err };
}

// playwright-core starts chromium with a fresh temporary profile (--user-data-dir) of its own
export async function launchBrowser() {
  const executablePath = process.env.CHROMIUM_BIN || '/usr/bin/chromium';
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
    ],
  });
  // Every page of every context opened on this browser records its WebSocket frames (socketLog)
  // and counts the clicks that reach it (clickSure), from before its first navigation.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const ctx = await newContext(...args);
    await ctx.addInitScript(countClicks);
    ctx.on('page', installSocketLog);
    return ctx;
  };
  const close = async () => {
    await browser.close().catch(() => {});
  };
  return { browser, close };
}

/**
 * Runs in every page before its scripts (launchBrowser): counts the click events that reach an
 * element below the page's containers. A click whose mousedown target is removed before its
 * mouseup (the page re-renders with innerHTML when a message comes) is never dispatched by
 * Chromium, and Playwright reports it done all the same: clickSure reads this count to know.
 */
function countClicks() {
  window.__e2eClicks = 0;
  window.__e2eDoc = `${Date.now()}-${Math.random()}`;
  const containers = new Set(['HTML', 'BODY', 'MAIN']);
  document.addEventListener(
    'click',
    (e) => {
      const t = e.target instanceof Element ? e.target : null;
      if (t && !containers.has(t.tagName) && !['app', 'screens', 'social', 'tournaments'].includes(t.id)) window.__e2eClicks++;
    },
    true,
  );
}

/**
 * Clicks `selector` (page.click's options) and checks that the click reached the page; clicks
 * again when it did not (the element was re-rendered between the mouse's down and up, see
 * countClicks). Handlers run within the click, so their synchronous effects are there on return.
 */
export async function clickSure(page, selector, options = {}) {
  const read = () => page.evaluate(() => ({ n: window.__e2eClicks, doc: window.__e2eDoc }));
  for (let i = 0; i < 5; i++) {
    const before = await read();
    if (typeof before.n !== 'number') throw new Error("clickSure: the page has no click counter (open it from launchBrowser's browser)");
    await page.click(selector, options);
    const after = await read();
    if (after.doc !== before.doc || after.n > before.n) return; // reached the page (or it navigated away)
  }
  throw new Error(`clicks on ${selector} never reached the page`);
}

// ---- WebSocket frames -------------------------------------------------------------------

const socketLogs = new WeakMap();

/** Starts recording the page's WebSocket frames (launchBrowser does it for every new page). */
function installSocketLog(page) {
  if (socketLogs.has(page)) return socketLogs.get(page);
  const log = { frames: [], listeners: new Set() };
  page.on('websocket', (ws) => {
    const note = (dir) => (f) => {
      const raw = String(f.payload);
      let m = null;
      try {
        m = JSON.parse(raw);
      } catch {
        /* not JSON */
      }
      log.frames.push({ dir, ws, m, raw });
      for (const l of [...log.listeners]) l();
    };
    ws.on('framesent', note('>'));
    ws.on('framereceived', note('<'));
  });
  socketLogs.set(page, log);
  return log;
}

/** The page's WebSocket frames: { frames: [{ dir: '>' | '<', ws, m (parsed), raw }] }. */
export function socketLog(page) {
  const log = socketLogs.get(page);
  if (!log) throw new Error('socketLog: the page was not opened from launchBrowser\'s browser');
  return log;
}

/** The last `n` frames of the page, one line each (`> ` sent, `< ` received), for an error message. */
export function lastFrames(page, n = 40) {
  const log = socketLogs.get(page);
  if (!log) return '(no socket log)';
  return log.frames
    .slice(-n)
    .map((f) => `${f.dir} ${f.raw.slice(0, 300)}`)
    .join('\n');
}

/**
 * Resolves with check()'s first truthy value, tried now and on each new frame of the page's
 * socket; rejects after `timeout` ms (a liveness bound: the event is expected long before).
 */
export function untilFrame(page, check, what, timeout = 30000) {
  const log = socketLog(page);
  return new Promise((resolve, reject) => {
    let timer = null;
    const test = () => {
      let r;
      try {
        r = check(log.frames);
      } catch (e) {
        done();
        reject(e);
        return;
      }
      if (r) {
        done();
        resolve(r);
      }
    };
    const done = () => {
      if (timer) clearTimeout(timer);
      log.listeners.delete(test);
    };
    const expire = () => {
      done();
      reject(new Error(`${what}: not within ${timeout} ms; the page's last frames:\n${lastFrames(page)}`));
    };
    timer = setTimeout(expire, timeout); // test-wait: liveness bound
    log.listeners.add(test);
    test();
  });
}

/**
 * The server's answer (any message with the request's id but a table message: ok, created,
 * error…) to the `nth` request of `type` the page sent from frame index `from` on.
 */
export function answerTo(page, type, from, nth = 0) {
  return untilFrame(
    page,
    (frames) => {
      let seen = 0;
      for (let i = from; i < frames.length; i++) {
        const q = frames[i];
        if (q.dir !== '>' || q.m?.type !== type || seen++ !== nth) continue;
        for (let j = i + 1; j < frames.length; j++) {
          const a = frames[j];
          if (a.dir === '<' && a.ws === q.ws && a.m && a.m.id === q.m.id && a.m.type !== 'table') return a.m;
        }
        return null;
      }
      return null;
    },
    `the answer to ${type} #${nth + 1}`,
  );
}

/** The index the next frame of the page's socket will have (for answerTo's `from`). */
export function frameMark(page) {
  return socketLog(page).frames.length;
}

/**
 * One server (startServer's options) and one browser for a test file's tests: started before
 * the first test, stopped after the last. Returns { srv, br, withPage }: `srv` and `br` are set
 * once started; `withPage(name, contextOptions, fn)` runs `fn(page)` in a new browser context.
 */
export function useServer(options = {}) {
  const env = {
    srv: null,
    br: null,
    withPage: (name, contextOptions, fn) => withPage(env.br, name, contextOptions, fn),
  };
  before(async () => {
    mkdirSync(resultsDir, { recursive: true });
    env.srv = await startServer(options);
    env.br = await launchBrowser();
  });
  after(async () => {
    await env.br?.close();
    await env.srv?.stop();
  });
  return env;
}

/**
 * Runs `fn(page)` on a new page of a new context of `br` (launchBrowser's), checks that the page
 * threw no script error, and saves a screenshot under test-results/ when it fails.
 */
export async function withPage(br, name, contextOptions, fn) {
  const ctx = await br.browser.newContext(contextOptions);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await fn(page);
    assert.deepEqual(errors, [], 'no script errors on the page');
  } catch (e) {
    await screenshots(name, [page]);
    throw e;
  } finally {
    await ctx.close();
  }
}

const axePath = createRequire(import.meta.url).resolve('axe-core');

/** The serious and critical violations of axe-core's rules on the page as it is now, as text lines. */
export async function audit(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ path: axePath });
  const { violations, passed } = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return { violations: r.violations, passed: r.passes.length };
  });
  assert.ok(passed > 10, `axe-core checked the page (${passed} rules passed)`);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.helpUrl})\n` +
        v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary.replace(/\s*\n\s*/g, '; ')}`).join('\n'),
    );
}

export const PHONE = { viewport: { width: 390, height: 780 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };
export const DESKTOP = { viewport: { width: 1280, height: 800 } };

/** Saves a screenshot of each page under test-results/ (used when a test fails). */
export async function screenshots(name, pages) {
  mkdirSync(resultsDir, { recursive: true });
  let i = 0;
  for (const p of pages) {
    try {
      await p.screenshot({ path: path.join(resultsDir, `${name.replace(/[^a-z0-9_-]+/gi, '_')}-${i++}.png`), fullPage: true });
    } catch {
      /* page already closed */
    }
  }
}

/**
 * Clicks a card of the hand where it shows (cards overlap: only a strip of each is visible, the
 * last card shows whole; the hand is laid out left to right in both languages). The click itself
 * waits until the card is attached, visible and still, and is made again if a table message
 * re-rendered the hand under it (clickSure).
 */
export async function clickCard(page, selector) {
  const last = await page.locator(selector).first().evaluate((e) => !e.nextElementSibling);
  await clickSure(page, selector, last ? {} : { position: { x: 6, y: 14 } });
}

export async function signIn(page, url, name, lang = 'en') {
  await page.goto(`${url}/?lang=${lang}`);
  await fillField(page, 'form[data-form=signin] input[name=name]', name, (n) => window.tarneeb.state.nameInput === n);
  await clickSure(page, 'form[data-form=signin] button[type=submit]');
  await page.waitForSelector('form[data-form=create]');
}

/**
 * Fills a field bound to the app's state (data-bind) and checks that the state holds `value`
 * (`holds(value)`, run in the page); fills again when not. Playwright's fill selects the text
 * and then types: a re-render in between (a lobby page pushed, a reconnection attempt) puts the
 * typing into the new field, its old text unselected ("31" and "1" make "131").
 */
export async function fillField(page, selector, value, holds) {
  for (let i = 0; i < 5; i++) {
    await page.fill(selector, String(value));
    if (await page.evaluate(holds, value)) return;
  }
  throw new Error(`${selector} does not keep ${value}`);
}

/** Sets a checkbox bound to the app's state (`holds(value)` in the page) by clicking it until the state says so. */
async function checkField(page, selector, value, holds) {
  for (let i = 0; i < 5; i++) {
    if (await page.evaluate(holds, value)) return;
    await page.click(selector);
  }
  if (!(await page.evaluate(holds, value))) throw new Error(`${selector} does not stay ${value}`);
}

/**
 * Creates a table from the lobby form (the creator sits in seat 0) and returns its id once the
 * server has answered every request of it: the create, the creator's join and, with `bots`, the
 * three add_bot the page sends one after another, and the page shows the three bots. A join
 * refused with no_such_table (it crossed the page's move between the server's shards) is sent
 * again, as a player would by joining the table again.
 */
export async function createTable(page, { target = 7, timer = 0, bots = true, priv = false } = {}) {
  const form = 'form[data-form=create]';
  await fillField(page, `${form} input[name=target]`, target, (v) => window.tarneeb.state.form.target === v);
  await fillField(page, `${form} input[name=timer]`, timer, (v) => window.tarneeb.state.form.timer === v);
  await checkField(page, `${form} input[name=bots]`, bots, (v) => window.tarneeb.state.form.bots === v);
  await checkField(page, `${form} input[name=private]`, priv, (v) => window.tarneeb.state.form.priv === v);
  const from = frameMark(page);
  await page.press(`${form} input[name=timer]`, 'Enter');
  const created = await answerTo(page, 'create', from);
  if (created.type !== 'created') throw new Error(`create refused: ${JSON.stringify(created)}`);
  const table = created.table;
  let joined = await answerTo(page, 'join', from);
  let sentBots = true; // the page sends the add_bot itself after its own join only
  for (let i = 0; joined.type === 'error' && joined.code === 'no_such_table' && i < 5; i++) {
    sentBots = false;
    const again = frameMark(page);
    await page.evaluate(([t, c]) => window.tarneeb.join(t, 0, c), [table, created.code]);
    joined = await answerTo(page, 'join', again);
  }
  if (joined.type !== 'ok') throw new Error(`join of ${table} refused: ${JSON.stringify(joined)}`);
  await page.waitForFunction((t) => window.tarneeb.state.table?.table === t && window.tarneeb.state.table.you === 0, table);
  if (bots) {
    if (sentBots) {
      for (let n = 0; n < 3; n++) {
        const a = await answerTo(page, 'add_bot', from, n);
        if (a.type !== 'ok') throw new Error(`add_bot refused: ${JSON.stringify(a)}`);
      }
    } else {
      for (const seat of [1, 2, 3]) await addBot(page, seat);
    }
    await page.waitForFunction(() => [1, 2, 3].every((i) => window.tarneeb.state.table?.seats[i]?.bot === true));
    await page.locator('.wseat [data-act=removebot]').nth(2).waitFor();
  }
  return table;
}

/** Adds a bot in `seat` of the page's waiting table with its button; returns once the server answered and the page shows it. */
export async function addBot(page, seat) {
  const from = frameMark(page);
  await clickSure(page, `[data-act=addbot][data-seat="${seat}"]`);
  const a = await answerTo(page, 'add_bot', from);
  if (a.type !== 'ok') throw new Error(`add_bot refused: ${JSON.stringify(a)}`);
  await page.waitForSelector(`[data-seat-box="${seat}"] [data-act=removebot]`);
}

/**
 * Sits in `seat` of `table` with the lobby's button `selector` and returns once the server
 * answered and the page shows the seat. A join refused with no_such_table (it crossed a move of
 * the page between the server's shards) is sent again, as a player would by joining again.
 */
export async function joinTable(page, table, seat, selector) {
  let from = frameMark(page);
  await clickSure(page, selector);
  let joined = await answerTo(page, 'join', from);
  for (let i = 0; joined.type === 'error' && joined.code === 'no_such_table' && i < 5; i++) {
    from = frameMark(page);
    await page.evaluate(([t, s]) => window.tarneeb.join(t, s), [table, seat]);
    joined = await answerTo(page, 'join', from);
  }
  if (joined.type !== 'ok') throw new Error(`join of ${table} refused: ${JSON.stringify(joined)}`);
  await page.waitForFunction(([t, s]) => window.tarneeb.state.table?.table === t && window.tarneeb.state.table.you === s, [table, seat]);
}

/**
 * Leaves the table with the Leave button (`selector`), accepting the confirmation a playing seat
 * is asked, and waits for the lobby.
 */
export async function leaveTable(page, selector = 'header [data-act=leave]') {
  const accept = (d) => d.accept().catch(() => {});
  page.on('dialog', accept);
  try {
    await clickSure(page, selector);
  } finally {
    page.off('dialog', accept);
  }
  await page.waitForSelector('form[data-form=create]');
}

const ACTIONABLE =
  '[data-testid=match-over], .bids [data-act=call]:not([disabled]), [data-act=trump]:not([disabled]), .hand .card.playable:not([disabled])';

/**
 * Takes one decision on the page when one is there: a bid (the lowest enabled, or pass when the
 * bidding is high), trump (the suggested suit) or a card (the first legal one). Checks on the way
 * that what the page offers is exactly the server's legal list. Returns what it did.
 */
export async function step(page, timeout = 30000, { keyboard = false } = {}) {
  const el = await page.waitForSelector(ACTIONABLE, { timeout });
  const kind = await el.evaluate((e) =>
    e.matches('[data-testid=match-over]') ? 'over' : e.dataset.act === 'call' ? 'call' : e.dataset.act,
  );
  if (kind === 'over') return { kind };
  const check = await page.evaluate(() => {
    const t = window.tarneeb.state.table;
    const legal = t.legal.map((a) => ('card' in a ? a.card : 'call' in a ? String(a.call) : a.trump)).sort();
    const sel =
      t.round.phase === 'auction'
        ? '.bids [data-act=call]:not([disabled])'
        : t.round.phase === 'trump'
          ? '[data-act=trump]:not([disabled])'
          : '.hand .card:not([disabled])';
    const shown = [...document.querySelectorAll(sel)].map((b) => b.dataset.card ?? b.dataset.bid ?? b.dataset.suit).sort();
    const dimmedEnabled = [...document.querySelectorAll('.hand .card.dimmed:not([disabled])')].length;
    return { legal, shown, dimmedEnabled, version: t.version, phase: t.round.phase };
  });
  if (check.shown.join() !== check.legal.join() && check.phase === 'play') {
    // the page may have moved on between the two reads: only complain when the version is unchanged
    const v = await page.evaluate(() => window.tarneeb.state.table.version);
    if (v === check.version) throw new Error(`page offers ${check.shown} but the server lists ${check.legal}`);
  }
  if (check.dimmedEnabled) throw new Error('a dimmed card is clickable');
  if (kind === 'call') {
    const bids = await page.$$eval('.bids [data-act=call]:not([disabled])', (bs) => bs.map((b) => b.dataset.bid));
    const num = bids.filter((b) => b !== 'pass').map(Number);
    const pick = num.length && Math.min(...num) <= 9 ? String(Math.min(...num)) : 'pass';
    await clickSure(page, `.bids [data-bid="${pick}"]`);
    await page.waitForFunction((v) => window.tarneeb.state.table.version > v, check.version, { timeout });
    return { kind, what: pick };
  }
  if (kind === 'trump') {
    const sugg = await page.$eval('.suit-btn.suggested', (b) => b.dataset.suit);
    await clickSure(page, '.suit-btn.suggested');
    await page.waitForFunction((v) => window.tarneeb.state.table.version > v, check.version, { timeout });
    return { kind, what: sugg };
  }
  const card = await el.evaluate((e) => e.dataset.card);
  if (keyboard) {
    // the hand by keyboard: focus a legal card, move along with the arrow keys, Enter plays
    await page.focus(`.hand .card[data-card="${card}"]`);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    const focused = await page.evaluate(() => document.activeElement?.dataset.card);
    if (focused !== card) throw new Error(`arrow keys lost the card: ${focused} instead of ${card}`);
    await page.keyboard.press('Enter');
  } else {
    await clickCard(page, `.hand .card[data-card="${card}"]`);
  }
  await page.waitForFunction((v) => window.tarneeb.state.table.version > v, check.version, { timeout });
  return { kind: 'card', what: card };
}

/** Plays on the page until the match is over; returns the number of cards played. */
export async function playToEnd(page, { maxSteps = 2000, onStep, keyboardCards = 0 } = {}) {
  let cards = 0;
  for (let i = 0; i < maxSteps; i++) {
    const r = await step(page, 30000, { keyboard: cards < keyboardCards });
    if (r.kind === 'over') return cards;
    if (r.kind === 'card') cards++;
    if (onStep) await onStep(r, cards);
  }
  throw new Error('match did not end');
}
