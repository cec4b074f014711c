// End-to-end harness: a tarneeb server on a free port (temporary database, web/dist) and
// Debian's chromium driven by playwright-core.
import { spawn } from 'node:child_process';
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
export async function startServer({ botDelayMs = 0, grace = 20, extra = [] } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'tarneeb-e2e-'));
  const dist = path.join(webDir, 'dist');
  if (!existsSync(path.join(dist, 'index.html'))) throw new Error('web/dist is missing: run npm run build first');
  const args = [
    'serve', '--address', '127.0.0.1', '--port', '0', '--db', path.join(dir, 'e2e.db'),
    '--static', dist, '--bot-delay-ms', String(botDelayMs), '--grace', String(grace),
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
  const stop = async () => {
    if (proc.exitCode === null) {
      const done = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 5000);
      await done;
      clearTimeout(t);
    }
    process.removeListener('exit', killOnExit);
    rmSync(dir, { recursive: true, force: true });
  };
  return { url: `http://127.0.0.1:${port}`, port, stop, log: () => out + err };
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

/** Clicks a card of the hand where it shows (cards overlap: only a strip of each is visible). */
export async function clickCard(page, selector) {
  const el = page.locator(selector).first();
  const box = await el.boundingBox();
  const last = await el.evaluate((e) => !e.nextElementSibling);
  const x = last ? box.width / 2 : 6; // the hand is laid out left to right in both languages
  await el.click({ position: { x, y: 14 } });
}
