// History and replays: a short match against three bots on a real server, then its replay from
// the History screen and from its shareable URL (signed out, another context), stepped to the
// end with the keys and the slider; the result it shows is the record's (the server's result
// and `tarneeb replay` on the stored record agree). In Arabic on a phone: right to left, cards
// left to right.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useServer, signIn, createTable, playToEnd, serverBin, PHONE, DESKTOP, clickSure } from './harness.mjs';

let match = null; // { id, name, record, result }
const env = useServer({ botDelayMs: 0 });

/** `tarneeb replay` on a record: the engine's result, run from the test. */
function cliReplay(record) {
  const dir = mkdtempSync(path.join(tmpdir(), 'tarneeb-replay-e2e-'));
  try {
    const f = path.join(dir, 'record.json');
    const { players, result, ...rec } = record;
    writeFileSync(f, JSON.stringify(rec));
    return JSON.parse(execFileSync(serverBin(), ['replay', f], { encoding: 'utf8' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const teamName = (w) => (w === 0 ? 'Team A' : 'Team B');

async function playedMatch() {
  if (match) return match;
  await env.withPage('replay-play', DESKTOP, async (page) => {
    const name = `Rami${Date.now() % 100000}`;
    await signIn(page, env.srv.url, name, 'en');
    await createTable(page, { target: 7, timer: 0, bots: true });
    await clickSure(page, '[data-act=start]');
    await page.waitForSelector('.hand .card');
    await playToEnd(page);
    const id = await page.evaluate(() => window.tarneeb.state.matchOver.record);
    assert.ok(id !== null && id !== undefined, 'the match was stored');
    const record = await page.evaluate(async (i) => (await fetch(`/api/matches/${encodeURIComponent(i)}`)).json(), String(id));
    match = { id: String(id), name, record };
    // the match's end links to its replay
    assert.equal(await page.getAttribute('[data-testid=match-over] [data-testid=replay-link]', 'href'), `#/replay/${encodeURIComponent(match.id)}`);
    // from the lobby: History lists the match among mine; its row opens the replay
    await clickSure(page, '[data-testid=match-over] [data-act=leave]');
    await clickSure(page, '[data-testid=history-link]');
    const row = `[data-testid=my-matches] a[data-match="${match.id}"]`;
    await page.waitForSelector(row);
    assert.match(await page.textContent(row), new RegExp(`${teamName(record.result.winner)} wins`));
    assert.ok((await page.locator(`[data-testid=public-matches] a[data-match="${match.id}"]`).count()) === 1, 'and among the public ones');
    await clickSure(page, row);
    await page.waitForSelector('[data-testid=replay-board]');
    assert.match(page.url(), new RegExp(`#/replay/${match.id}`));
  });
  return match;
}

test('the replay of a finished match steps through every call and card to the record’s result', async () => {
  const m = await playedMatch();
  const result = m.record.result;
  assert.ok(result, 'the server sends the result with the record');
  // the server's result is the engine's: the same as `tarneeb replay` on the stored record
  const cli = cliReplay(m.record);
  assert.deepEqual(cli.totals, result.totals);
  assert.equal(cli.winner, result.winner);
  assert.equal(cli.status, 'won');
  const steps = result.deals.reduce((n, d) => n + 1 + d.auction.length + (d.trump ? 1 + d.play.length : 0), 0);

  // a fresh browser, not signed in: the shared URL opens the replay
  await env.withPage('replay-view', DESKTOP, async (page) => {
    await page.goto(`${env.srv.url}/?lang=en#/replay/${encodeURIComponent(m.id)}/1`);
    await page.waitForSelector('[data-testid=replay-board]');
    const slider = page.locator('[data-ract=slider]');
    assert.equal(await slider.getAttribute('max'), String(steps - 1), 'one slider step per call, trump and card');
    assert.equal(await slider.inputValue(), '0');
    // at the start: four hands of thirteen cards, all shown
    assert.equal(await page.locator('.rseat').count(), 4);
    assert.equal(await page.locator('.rseat .rc').count(), 52);
    assert.match(await page.textContent('[data-testid=replay-caption]'), /Deal 1/);
    // → steps forward one call at a time, ← back
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    assert.equal(await slider.inputValue(), '5');
    // the address counts steps from 1, as the page does: slider 5 is "Step 6/…" and /6
    assert.match(page.url(), new RegExp(`#/replay/${m.id}/6$`), 'the URL follows the step');
    assert.match(await page.textContent('[data-r=stepno]'), /^Step 6\//);
    await page.keyboard.press('ArrowLeft');
    assert.equal(await slider.inputValue(), '4');
    // the buttons step too
    await clickSure(page, '[data-ract=next]');
    assert.equal(await slider.inputValue(), '5');
    // the first card of deal 1: its trick shows it, its hand lost it
    const d0 = result.deals[0];
    const firstCard = 1 + d0.auction.length + 1;
    await slider.fill(String(firstCard));
    assert.equal(await page.locator('[data-testid=replay-trick] .played').count(), 1);
    assert.equal(await page.locator(`[data-testid=replay-trick] [data-played="${d0.play[0]}"]`).count(), 1);
    assert.equal(await page.locator('.rseat .rc').count(), 51);
    assert.equal(await page.locator(`.rseat .rc[data-card="${d0.play[0]}"]`).count(), 0);
    // the slider to the end (End on the focused slider), then the End key from the page
    await slider.focus();
    await page.keyboard.press('End');
    assert.equal(await slider.inputValue(), String(steps - 1));
    await clickSure(page, '[data-ract=first]');
    assert.equal(await slider.inputValue(), '0');
    await page.locator('body').focus();
    await page.keyboard.press('End');
    assert.equal(await slider.inputValue(), String(steps - 1));
    const shown = await page.textContent('[data-testid=replay-result]');
    assert.match(shown, /Match over/);
    assert.match(shown, new RegExp(`${teamName(result.winner)} wins`));
    assert.match(shown, new RegExp(`Team A ${result.totals[0]} – Team B ${result.totals[1]}`));
    // the score sheet beside it: one line per scored deal, the final totals below
    const scored = result.deals.filter((d) => d.made !== null).length;
    assert.equal(await page.locator('[data-testid=replay-sheet] tbody tr').count(), scored);
    assert.match(await page.textContent('[data-testid=replay-sheet] tfoot'), new RegExp(`${result.totals[0]}\\s*${result.totals[1]}`));
    // the deal selector goes to a deal's start
    if (result.deals.length > 1) {
      await page.selectOption('[data-ract=deal]', '1');
      assert.match(await page.textContent('[data-testid=replay-caption]'), /Deal 2/);
      assert.equal(await page.locator('.rseat .rc').count(), 52);
    }
    // reloading keeps the step
    const at = await slider.inputValue();
    await page.reload();
    await page.waitForSelector('[data-testid=replay-board]');
    assert.equal(await page.locator('[data-ract=slider]').inputValue(), at);
  });
});

test('Arabic on a phone: the replay right to left, the cards left to right, Eastern digits', async () => {
  const m = await playedMatch();
  await env.withPage('replay-ar', PHONE, async (page) => {
    await page.goto(`${env.srv.url}/?lang=ar#/replay/${encodeURIComponent(m.id)}`);
    await page.waitForSelector('[data-testid=replay-board]');
    assert.equal(await page.getAttribute('html', 'dir'), 'rtl');
    // opened without a step: at the end, the result in Arabic
    const res = await page.textContent('[data-testid=replay-result]');
    assert.match(res, /انتهت المباراة/);
    assert.match(res, /[٠-٩]/);
    await clickSure(page, '[data-ract=first]');
    const dirs = await page.$$eval('.rhand', (hs) => hs.map((h) => getComputedStyle(h).direction));
    assert.deepEqual(dirs, ['ltr', 'ltr', 'ltr', 'ltr']);
    // nothing wider than the phone
    const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(over <= 1, `the page overflows by ${over} px`);
    // the History screen in Arabic
    await clickSure(page, '#screens a[href="#/history"]');
    await page.waitForSelector('[data-testid=public-matches]');
    assert.match(await page.textContent('#screens'), /مباريات عامة حديثة/);
  });
});

/** `tarneeb analyze --record F --deal N --after K --json` on the stored record. */
function cliAnalyze(record, deal, after) {
  const dir = mkdtempSync(path.join(tmpdir(), 'tarneeb-analyze-e2e-'));
  try {
    const f = path.join(dir, 'record.json');
    const { players, result, ...rec } = record;
    writeFileSync(f, JSON.stringify(rec));
    const out = execFileSync(serverBin(), ['analyze', '--record', f, '--deal', String(deal), '--after', String(after), '--json'], { encoding: 'utf8' });
    return JSON.parse(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the analysis board shows each legal card’s value as `tarneeb analyze` computes it', async () => {
  const m = await playedMatch();
  const deal = m.record.result.deals.findIndex((d) => d.trump !== null && d.play.length === 52);
  assert.ok(deal >= 0, 'a played deal');
  const d = m.record.result.deals[deal];
  await env.withPage('replay-analysis', DESKTOP, async (page) => {
    await page.goto(`${env.srv.url}/?lang=en#/replay/${encodeURIComponent(m.id)}/1`);
    await page.waitForSelector('[data-testid=replay-board]');
    await page.selectOption('[data-ract=deal]', String(deal));
    // the fifth card of the deal: the second trick's lead
    const after = 4;
    const start = await page.locator('[data-ract=slider]').inputValue();
    // the deal's steps: dealt, one per call, the trump (0 cards played), then one per card
    await page.locator('[data-ract=slider]').fill(String(Number(start) + 1 + d.auction.length + after));
    assert.match(await page.textContent('[data-testid=replay-caption]'), new RegExp(`plays .*`));
    assert.equal(await page.locator('.rseat .rc').count(), 52 - after);
    await clickSure(page, '[data-ract=analyse]');
    await page.waitForSelector('.rc[data-value]', { timeout: 60000 });
    const shown = Object.fromEntries(
      await page.$$eval('.rc[data-value]', (cs) => cs.map((c) => [c.dataset.card, Number(c.dataset.value)])),
    );
    const cli = cliAnalyze(m.record, deal, after);
    const want = Object.fromEntries(cli.position.cards.map((c) => [c.card, c.declarer_tricks]));
    assert.deepEqual(shown, want);
    assert.ok(await page.locator('[data-testid=par]').count());
    // analysis asked for once: another played deal is analysed when stepped into
    const other = m.record.result.deals.findIndex((x, i) => i !== deal && x.trump !== null && x.play.length === 52);
    if (other >= 0) {
      await page.selectOption('[data-ract=deal]', String(other));
      const s0 = Number(await page.locator('[data-ract=slider]').inputValue());
      await page.locator('[data-ract=slider]').fill(String(s0 + 1 + m.record.result.deals[other].auction.length));
      await page.waitForSelector('.rc[data-value]', { timeout: 60000 });
      const lead = cliAnalyze(m.record, other, 0);
      const vals = Object.fromEntries(await page.$$eval('.rc[data-value]', (cs) => cs.map((c) => [c.dataset.card, Number(c.dataset.value)])));
      assert.deepEqual(vals, Object.fromEntries(lead.position.cards.map((c) => [c.card, c.declarer_tricks])));
    }
  });
});

/**
 * Opens a record file with the screen's file field; sets it again when the page did not take it.
 * The History screen draws itself again when its lists come (innerHTML): a field replaced before
 * its change event reaches the screen is detached, and the file goes nowhere. A file taken moves
 * the page to #/replay, or (there already) shows its name in the title, at once.
 */
async function openFile(page, file) {
  for (let i = 0; i < 5; i++) {
    const hash = await page.evaluate(() => location.hash);
    await page.setInputFiles('#screens input[data-ract=file]', file);
    const taken = ([n, h]) => location.hash !== h || (document.querySelector('#screens h1')?.textContent ?? '').includes(n);
    if (await page.evaluate(taken, [file.name, hash])) return;
  }
  throw new Error(`the page never took the file ${file.name}`);
}

test('a record file opened from disk replays through the WebAssembly engine to the same result', async () => {
  const m = await playedMatch();
  const { result, ...record } = m.record; // a tarneeb-record/1 as a user keeps it (players kept: unknown keys are ignored)
  const cli = cliReplay(m.record);
  await env.withPage('replay-file', DESKTOP, async (page) => {
    await page.goto(`${env.srv.url}/?lang=en#/history`);
    await openFile(page, { name: 'match.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(record)) });
    await page.waitForSelector('[data-testid=replay-board]', { timeout: 30000 });
    assert.match(page.url(), /#\/replay$/);
    const slider = page.locator('[data-ract=slider]');
    const steps = cli.deals.reduce((n, d) => n + 1 + d.auction.length + (d.trump ? 1 + d.play.length : 0), 0);
    assert.equal(await slider.getAttribute('max'), String(steps - 1));
    const shown = await page.textContent('[data-testid=replay-result]');
    assert.match(shown, new RegExp(`${teamName(cli.winner)} wins`));
    assert.match(shown, new RegExp(`Team A ${cli.totals[0]} – Team B ${cli.totals[1]}`));
    // no analysis for a file: it is not stored on the server
    assert.match(await page.textContent('[data-testid=analysis]'), /stored on the server/);
    // a file that is not a record says so
    await openFile(page, { name: 'x.json', mimeType: 'application/json', buffer: Buffer.from('{"hello":1}') });
    await page.waitForSelector('[data-testid=replay-error]');
    assert.match(await page.textContent('[data-testid=replay-error]'), /not a tarneeb-record\/1/);
  });
});
