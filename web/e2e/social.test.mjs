// Issue 15, the social part, in Chromium against a real server: an invitation link opened in a
// fresh browser seats its guest; chat in Arabic between two pages (quick phrases in each
// reader's language, a line of markup shown as text, mute); a spectator's line never reaches a
// player's WebSocket during play; a finished match's chat is in its record, which `tarneeb
// replay` still reads; the leaderboard and a profile page with its rating chart and replay link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useServer, signIn, createTable, playToEnd, screenshots, resultsDir, serverBin, DESKTOP, PHONE, clickSure, addBot, fillField } from './harness.mjs';

const env = useServer({ botDelayMs: 0, grace: 30 });

/** Records the chat lines a page receives over its WebSocket, as raw frames. */
function chatFrames(page) {
  const frames = [];
  page.on('websocket', (ws) =>
    ws.on('framereceived', (f) => {
      const raw = String(f.payload);
      if (raw.includes('"chat')) frames.push(raw);
    }),
  );
  return frames;
}

/** Opens the page's chat panel (closed by default on a phone). */
async function openChat(page) {
  await page.waitForSelector('[data-testid=chat-toggle]');
  if ((await page.getAttribute('[data-testid=chat-toggle]', 'aria-expanded')) !== 'true') await clickSure(page, '[data-testid=chat-toggle]');
  await page.waitForSelector('[data-testid=chat-input]');
}

/** Sends a line from the page's chat field. */
async function say(page, text) {
  await page.fill('[data-testid=chat-input]', text);
  await page.press('[data-testid=chat-input]', 'Enter');
}

/** Waits until the page's chat list shows a line with exactly this text. */
async function sees(page, text) {
  await page.waitForFunction(
    (t) => [...document.querySelectorAll('[data-testid=chat-lines] .chat-text')].some((e) => e.textContent === t),
    text,
  );
}

const shown = (page) => page.$$eval('[data-testid=chat-lines] .chat-text', (es) => es.map((e) => e.textContent));

test('an invitation link seats a new guest; chat in Arabic, phrases, markup as text, mute; the spectators’ channel', async () => {
  const ctxA = await env.br.browser.newContext(DESKTOP);
  const ctxB = await env.br.browser.newContext(PHONE);
  const ctxC = await env.br.browser.newContext(DESKTOP);
  const [a, b, c] = await Promise.all([ctxA.newPage(), ctxB.newPage(), ctxC.newPage()]);
  const errors = [];
  for (const p of [a, b, c]) p.on('pageerror', (e) => errors.push(e.message));
  const framesA = chatFrames(a);
  const framesB = chatFrames(b);
  try {
    const tag = Date.now() % 100000;
    await signIn(a, env.srv.url, `ليلى${tag}`, 'ar');
    const id = await createTable(a, { target: 31, timer: 0, bots: false, priv: true });
    // The creator's waiting room shows the link to share, with a copy button.
    const link = await a.inputValue('[data-testid=invite-link]');
    const code = await a.evaluate(() => window.tarneeb.state.codes[window.tarneeb.state.table.table]);
    assert.equal(link, `${env.srv.url}/?join=${id}.${code}`);
    await ctxA.grantPermissions(['clipboard-read', 'clipboard-write']);
    await clickSure(a, '[data-testid=invite-copy]');
    await a.waitForFunction((l) => navigator.clipboard.readText().then((t) => t === l), link);

    // A fresh browser opens the link: it asks for a name, then sits in the first free seat.
    await b.goto(`${link}&lang=en`);
    await fillField(b, 'form[data-form=signin] input[name=name]', `Basil${tag}`, (n) => window.tarneeb.state.nameInput === n);
    await clickSure(b, 'form[data-form=signin] button[type=submit]');
    await b.waitForFunction(() => window.tarneeb.state.table?.you === 1);
    assert.ok(!b.url().includes('join='), 'the link is used once (a reload does not join again)');

    // Chat in Arabic, both ways.
    await openChat(a);
    await openChat(b);
    await say(a, 'يلا نلعب، مرحبا');
    await sees(b, 'يلا نلعب، مرحبا');
    await sees(a, 'يلا نلعب، مرحبا');
    // A quick phrase is an id: each reader sees it in its own language.
    await clickSure(b, '[data-testid=chat] [data-phrase=afye]');
    await sees(a, 'الله يعطيك العافية');
    await sees(b, 'Well done, thank you');
    // A line of markup is text, never HTML.
    const evil = '<img src=x onerror="window.__pwned=1">';
    await say(b, evil);
    await sees(a, evil);
    assert.equal(await a.locator('[data-testid=chat] img').count(), 0);
    assert.equal(await a.evaluate(() => window.__pwned), undefined);
    // Mute (this browser only): B's lines are hidden on A until unmuted.
    await clickSure(a, `[data-testid=chat-lines] .chat-from[data-mute="Basil${tag}"]`);
    await a.waitForFunction(() => ![...document.querySelectorAll('[data-testid=chat-lines] .chat-text')].some((e) => e.textContent === 'Well done, thank you' || e.textContent === 'الله يعطيك العافية'));
    assert.ok(!(await shown(a)).includes(evil));
    await clickSure(a, `[data-testid=chat] .chat-muted [data-mute="Basil${tag}"]`);
    await sees(a, evil);

    // Bots in the other seats, and the match starts.
    await addBot(a, 2);
    await addBot(a, 3);
    await a.waitForSelector('[data-act=start]:not([disabled])');
    await clickSure(a, '[data-act=start]');
    await a.waitForSelector('.hand .card');

    // The table is playing: the same link now makes its guest a spectator.
    await c.goto(`${link}&lang=en`);
    await fillField(c, 'form[data-form=signin] input[name=name]', `Carla${tag}`, (n) => window.tarneeb.state.nameInput === n);
    await clickSure(c, 'form[data-form=signin] button[type=submit]');
    await c.waitForFunction(() => window.tarneeb.state.table?.you === null && window.tarneeb.state.table?.state === 'playing');
    // The late spectator got the recent lines.
    await openChat(c);
    await sees(c, 'يلا نلعب، مرحبا');
    await c.waitForSelector('[data-testid=chat] .chat-note:not([hidden])');
    await say(c, 'SPECTATOR-ONLY hint: west holds the ace');
    await sees(c, 'SPECTATOR-ONLY hint: west holds the ace');
    // A player's line after it: once the players have it, the spectator's would have come before.
    await say(a, 'بعدها');
    await sees(b, 'بعدها');
    await sees(c, 'بعدها');
    await sees(a, 'بعدها');
    for (const [who, frames, page] of [
      ['A', framesA, a],
      ['B', framesB, b],
    ]) {
      assert.ok(frames.some((f) => f.includes('بعدها')), `${who} got the players' line`);
      assert.ok(!frames.some((f) => f.includes('SPECTATOR-ONLY')), `${who} never received the spectator's line`);
      assert.ok(!(await shown(page)).some((t) => t.includes('SPECTATOR-ONLY')));
    }
    // Over the limit (5 lines in 10 s): six lines at once, at least one refused with a stable
    // error shown to the sender, and a refused line reaches nobody.
    const sent = await b.evaluate(() =>
      Promise.all([0, 1, 2, 3, 4, 5].map((i) => window.tarneeb.sendChat({ text: `burst ${i}` }))),
    );
    assert.ok(sent.includes(false), `some line is refused: ${sent}`);
    await b.waitForSelector('.toast');
    const last = `burst ${sent.lastIndexOf(true)}`;
    await sees(a, last);
    for (const [i, ok] of sent.entries()) assert.equal((await shown(a)).includes(`burst ${i}`), ok);
    assert.deepEqual(errors, []);
  } catch (e) {
    await screenshots('social-chat', [a, b, c]);
    throw e;
  } finally {
    await Promise.all([ctxA.close(), ctxB.close(), ctxC.close()]);
  }
});

test('a finished match of four people: its chat in the record (tarneeb replay reads it), rated, the leaderboard and a profile with its rating chart', async () => {
  // Only a match four people started is rated (issue 27): four browsers at one table.
  const ctxs = await Promise.all([0, 1, 2, 3].map(() => env.br.browser.newContext(DESKTOP)));
  const pages = await Promise.all(ctxs.map((c) => c.newPage()));
  const [page] = pages;
  const errors = [];
  for (const p of pages) p.on('pageerror', (e) => errors.push(e.message));
  try {
    const tag = Date.now() % 100000;
    const name = `Rami${tag}`;
    await signIn(page, env.srv.url, name, 'en');
    // A public table (its match is on the profile), joined by its link without a code.
    const table = await createTable(page, { target: 1, timer: 0, bots: false, priv: false });
    const link = `${env.srv.url}/?join=${table}`;
    for (const [i, p] of pages.slice(1).entries()) {
      await p.goto(`${link}&lang=en`);
      await fillField(p, 'form[data-form=signin] input[name=name]', `Guest${i}x${tag}`, (n) => window.tarneeb.state.nameInput === n);
      await clickSure(p, 'form[data-form=signin] button[type=submit]');
      await p.waitForFunction((s) => window.tarneeb.state.table?.you === s, i + 1);
    }
    await page.waitForSelector('[data-act=start]:not([disabled])');
    await clickSure(page, '[data-act=start]');
    await Promise.all(pages.map((p) => p.waitForSelector('.hand .card')));
    await openChat(page);
    await clickSure(page, '[data-testid=chat] [data-phrase=good_luck]');
    await sees(page, 'Good luck');
    await Promise.all(pages.map((p) => playToEnd(p)));
    const id = String(await page.evaluate(() => window.tarneeb.state.matchOver.record));
    const record = await page.evaluate(async (i) => (await fetch(`/api/matches/${encodeURIComponent(i)}`)).json(), id);
    assert.equal(record.chat.length, 1);
    assert.equal(record.chat[0].phrase, 'good_luck');
    assert.equal(record.chat[0].from, name);
    assert.equal(record.rated, true, 'four people started it');
    // The match-over panel says how the match moved each person's rating (issue 28 defect 5).
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=match-over] [data-testid=rating-change]').length === 4);
    const mine = await page.textContent('[data-testid=match-over] [data-testid=rating-change].me');
    assert.match(mine, new RegExp(`${name}: 1500 → (1516|1500|1484) \\([+-]?(16|0)\\)`));
    // The record with its chat is still a record: `tarneeb replay` gives the server's result.
    const dir = mkdtempSync(path.join(tmpdir(), 'tarneeb-social-e2e-'));
    try {
      const f = path.join(dir, 'match.json');
      const { result, players: _p, ...rec } = record;
      writeFileSync(f, JSON.stringify(rec));
      const cli = JSON.parse(execFileSync(serverBin(), ['replay', f], { encoding: 'utf8' }));
      assert.equal(cli.ok, true);
      assert.deepEqual(cli.totals, result.totals);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // The leaderboard: guests apart from registered players (nobody is registered yet).
    await clickSure(page, '[data-testid=match-over] [data-act=leave]');
    await clickSure(page, '[data-testid=leaderboard-link]');
    await page.waitForSelector(`[data-testid=board-guests] tr[data-player="${name}"]`);
    await page.waitForSelector('[data-testid=board-registered-empty]');
    assert.equal(await page.isHidden('#app'), true, 'the game is hidden behind the page');
    // Its name opens the profile: numbers, the rating chart, the match linked to its replay.
    await clickSure(page, `[data-testid=board-guests] tr[data-player="${name}"] a`);
    await page.waitForSelector(`[data-testid=profile][data-player="${name}"]`);
    const profile = await page.evaluate(async (n) => (await fetch(`/api/players/${encodeURIComponent(n)}`)).json(), name);
    assert.equal(profile.matches, 1);
    assert.equal(await page.textContent('[data-testid=profile-matches-count]'), '1');
    assert.equal(await page.textContent('[data-testid=profile-rating]'), String(profile.rating));
    assert.equal(await page.getAttribute('[data-testid=rating-chart]', 'data-points'), '1');
    const replay = `[data-testid=profile-matches] li[data-match="${id}"] a`;
    assert.equal(await page.getAttribute(replay, 'href'), `#/replay/${encodeURIComponent(id)}`);
    await clickSure(page, replay);
    await page.waitForSelector('[data-testid=replay-board]');
    assert.equal(await page.isHidden('#social'), true);
    // An unknown player's profile says so.
    await page.goto(`${env.srv.url}/?lang=en#/player/Nobody${Date.now()}`);
    await page.waitForSelector('[data-testid=profile-error]');
    assert.deepEqual(errors, []);
  } catch (e) {
    await screenshots('social-profile', pages);
    throw e;
  } finally {
    await Promise.all(ctxs.map((c) => c.close()));
  }
});
