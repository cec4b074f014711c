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

/** Starts `tarneeb serve` on a free port; resolves with { url, stop }. */
export async function startServer({ botDelayMs = 0, summaryMs = 0, grace = 20, extra = [], port: wantPort = 0, dir: keepDir = null } = {}) {
  const dir = keepDir ?? mkdtempSync(path.join(tmpdir(), 'tarneeb-e2e-'));
  const dist = path.join(webDir, 'dist');
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
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}${err}`)), 15000);
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
  /** Stops the server; keeps its database when `keep` (to start it again on it). */
  const stop = async (keep = false) => {
    if (proc.exitCode === null) {
      const done = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 5000);
      await done;
      clearTimeout(t);
    }
    process.removeListener('exit', killOnExit);
    if (!keep) rmSync(dir, { recursive: true, force: true });
  };
  return { url: `http://127.0.0.1:${port}`, port, dir, stop, log: () => out + err };
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
  const close = async () => {
    await browser.close().catch(() => {});
  };
  return { browser, close };
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

/**
 * Keeps the last `keep` WebSocket frames the page sends (`> `) and receives (`< `), each cut to
 * 300 characters, in the returned array (for the message of a failing step). Call it before
 * the page opens its socket.
 */
export function traceSocket(page, keep = 40) {
  const frames = [];
  const note = (dir) => (f) => {
    frames.push(`${dir} ${String(f.payload).slice(0, 300)}`);
    if (frames.length > keep) frames.shift();
  };
  page.on('websocket', (ws) => {
    ws.on('framesent', note('>'));
    ws.on('framereceived', note('<'));
  });
  return frames;
}

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
 * waits until the card is attached, visible and still: a table message may re-render the hand
 * between finding the card and clicking it.
 */
export async function clickCard(page, selector) {
  const el = page.locator(selector).first();
  const last = await el.evaluate((e) => !e.nextElementSibling);
  await el.click(last ? {} : { position: { x: 6, y: 14 } });
}

export async function signIn(page, url, name, lang = 'en') {
  await page.goto(`${url}/?lang=${lang}`);
  await page.fill('input[name=name]', name);
  await page.click('form[data-form=signin] button[type=submit]');
  await page.waitForSelector('form[data-form=create]');
}

/** Creates a table from the lobby form (the creator sits in seat 0). */
export async function createTable(page, { target = 7, timer = 0, bots = true, priv = false } = {}) {
  await page.fill('input[name=target]', String(target));
  await page.fill('input[name=timer]', String(timer));
  await page.setChecked('input[name=bots]', bots);
  await page.setChecked('input[name=private]', priv);
  await page.click('form[data-form=create] button[type=submit]');
  await page.waitForSelector('.waiting [data-seat-box]');
  // the page asks for the three bots one after another: return once the third sits
  if (bots) await page.locator('.wseat [data-act=removebot]').nth(2).waitFor();
  return page.evaluate(() => window.tarneeb.state.table.table);
}

const ACTIONABLE =
  '[data-testid=match-over], .bids [data-act=call]:not([disabled]), [data-act=trump]:not([disabled]), .hand .card.playable:not([disabled])';

/**
 * Takes one decision on the page when one is there: a bid (the lowest enabled, or pass when the
 * bidding is high), trump (the suggested suit) or a card (the first legal one). Checks on the way
 * that what the page offers is exactly the server's legal list. Returns what it did.
 */
export async function step(page, timeout = 20000, { keyboard = false } = {}) {
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
    await page.click(`.bids [data-bid="${pick}"]`);
    await page.waitForFunction((v) => window.tarneeb.state.table.version > v, check.version, { timeout });
    return { kind, what: pick };
  }
  if (kind === 'trump') {
    const sugg = await page.$eval('.suit-btn.suggested', (b) => b.dataset.suit);
    await page.click('.suit-btn.suggested');
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
    const r = await step(page, 20000, { keyboard: cards < keyboardCards });
    if (r.kind === 'over') return cards;
    if (r.kind === 'card') cards++;
    if (onStep) await onStep(r, cards);
  }
  throw new Error('match did not end');
}
