// Layout (issue 28, defects 1 and 6): with the chat open, every seat (name, card count, timer),
// the hand's cards, the trick and every visible control lie inside the window and nothing
// covers them (axe does not check this: bounding boxes and document.elementFromPoint do), at
// six window sizes from a small phone to a large desktop, in English and Arabic, in the waiting
// room and at the table (auction, trump, play); on a phone every control is at least 44 x 44
// CSS px and every text at least 12 px. Dialogs cover the chat too, and the chat opens at its
// newest line and follows new ones. The connection bar (offline, reconnecting) lies under the
// game, over no seat, card or control, at every size. A quick-play table's waiting room (its
// countdown and Play now) is checked the same way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, signIn, createTable, clickSure, step, answerTo, frameMark } from './harness.mjs';

// quick play's fill time past the checks of its waiting room
const env = useServer({ botDelayMs: 0, extra: ['--max-new-guests-per-address', '0', '--quick-fill-seconds', '600'] });

const SIZES = [
  [360, 640],
  [390, 844],
  [768, 1024],
  [1280, 800],
  [1366, 768],
  [1920, 1080],
];
const isPhone = (w) => w <= 430;

/** Waits for two frames: the page's resize observer draws on the next one. */
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/**
 * What is hidden or covered on the page as it is now: a list of problems (empty when none). Each
 * checked element is scrolled into view where a scroll container holds it (the waiting room on a
 * small phone, the chat's list), then must lie inside the window and be what
 * document.elementFromPoint finds (or contain it) at its centre and near its corners.
 */
function problems(page, phone) {
  return page.evaluate((phone) => {
    const out = [];
    const W = innerWidth;
    const H = innerHeight;
    const shown = (e) => {
      if (!e.getClientRects().length) return false;
      const cs = getComputedStyle(e);
      return cs.visibility !== 'hidden' && !e.closest('[hidden], .sr');
    };
    const name = (e) =>
      `${e.tagName.toLowerCase()}${e.dataset.testid ? `[${e.dataset.testid}]` : ''}${e.className && typeof e.className === 'string' ? `.${e.className.trim().split(/\s+/).join('.')}` : ''}${
        e.dataset.act ? `(${e.dataset.act})` : ''
      } «${(e.textContent ?? '').trim().slice(0, 24)}»`;
    const covered = (e, points) => {
      for (const [x, y] of points) {
        const hit = document.elementFromPoint(x, y);
        if (!hit || !(e === hit || e.contains(hit))) return `covered at (${Math.round(x)}, ${Math.round(y)}) by ${hit ? name(hit) : 'nothing'}`;
      }
      return null;
    };
    // the connection bar (offline, reconnecting): nothing checked may lie under it
    const bar = [...document.querySelectorAll('.conn-bar')].find(shown) ?? null;
    const check = (e, kind, pointsOf) => {
      e.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      const r = e.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) return;
      if (bar && e !== bar) {
        const b = bar.getBoundingClientRect();
        if (r.left < b.right - 1 && r.right > b.left + 1 && r.top < b.bottom - 1 && r.bottom > b.top + 1) out.push(`${kind} ${name(e)} lies under the connection bar`);
      }
      if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1)
        out.push(`${kind} ${name(e)} outside the window: ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`);
      const i = Math.min(8, r.width / 4, r.height / 4); // inside rounded corners
      const pts = pointsOf
        ? pointsOf(r)
        : [
            [r.left + r.width / 2, r.top + r.height / 2],
            [r.left + i, r.top + i],
            [r.right - i, r.top + i],
            [r.left + i, r.bottom - i],
            [r.right - i, r.bottom - i],
          ];
      const c = covered(e, pts);
      if (c) out.push(`${kind} ${name(e)} ${c}`);
    };
    if (bar) check(bar, 'connection bar');
    // seats: the name, the card count, the timer, the last call
    for (const e of document.querySelectorAll('.seat .seat-name, .seat .backs .count, .seat .countdown, .seat .bubble, .wseat')) if (shown(e)) check(e, 'seat');
    // the trick's cards
    for (const e of document.querySelectorAll('.trick .played')) if (shown(e)) check(e, 'trick card');
    // the hand: each card's uncovered strip (the next card of its row lies over the rest, the row
    // under it over its bottom), the last card of a row whole at the top
    for (const row of document.querySelectorAll('.hand .hand-row')) {
      const cards = [...row.querySelectorAll('.card')];
      cards.forEach((e, k) => {
        const next = cards[k + 1]?.getBoundingClientRect();
        check(e, 'card', (r) => {
          const right = next ? Math.min(r.right, next.left) : r.right;
          return [
            [r.left + 3, r.top + 3],
            [(r.left + right) / 2, r.top + 10],
            [right - 3, r.top + 3],
          ];
        });
        if (phone && e.getBoundingClientRect().width < 43.5) out.push(`card ${name(e)} narrower than 44 px`);
      });
    }
    // every control
    const controls = document.querySelectorAll('button, a[href], input, select, textarea, summary, [role=button]');
    for (const e of controls) {
      if (!shown(e) || e.closest('.hand')) continue;
      check(e, 'control');
      if (phone) {
        const r = e.getBoundingClientRect();
        if (r.width < 43.5 || r.height < 43.5) out.push(`control ${name(e)} is ${r.width.toFixed(1)}x${r.height.toFixed(1)}, under 44x44`);
      }
    }
    // text at least 12 px on a phone (the cards' own SVG corners aside)
    if (phone) {
      for (const e of document.querySelectorAll('body *')) {
        if (e.closest('svg, .sr') || !shown(e)) continue;
        const text = [...e.childNodes].some((x) => x.nodeType === 3 && x.textContent.trim());
        const size = parseFloat(getComputedStyle(e).fontSize);
        if (text && size < 11.95) out.push(`text ${name(e)} is ${size.toFixed(1)} px`);
      }
    }
    return out;
  }, phone);
}

/** The problems at every size (the viewport changed in place), each line prefixed with the size and `what`. */
async function atEverySize(page, what) {
  const found = [];
  for (const [w, h] of SIZES) {
    await page.setViewportSize({ width: w, height: h });
    await frames(page);
    // the chat is open, and at the side of the table on a wide window, under it on a narrow one
    assert.equal(await page.getAttribute('[data-testid=chat-toggle]', 'aria-expanded'), 'true', `${what} ${w}x${h}: chat open`);
    const header = await page.$eval('#app header', (e) => e.getBoundingClientRect().height);
    if (isPhone(w) && !what.endsWith('waiting room')) assert.ok(header <= 56, `${what} ${w}x${h}: the header is one row (${header} px)`);
    for (const p of await problems(page, isPhone(w))) found.push(`[${what} ${w}x${h}] ${p}`);
  }
  return found;
}

/**
 * The problems at every size while the connection bar is shown: offline (the browser's network
 * gone), then reconnecting (the network back, the server frozen: the new socket's handshake is not
 * answered). The server then wakes up and the page signs in again; the bar goes.
 */
async function withConnectionBar(page) {
  const found = [];
  await page.context().setOffline(true);
  // a socket that still answers is kept without a network (conn.ts): this one is lost now
  await page.evaluate(() => window.tarneeb.conn.ws?.close());
  await page.waitForSelector('[data-testid=offline-bar]');
  found.push(...(await atEverySize(page, 'play, offline bar')));
  env.srv.pause();
  try {
    await page.context().setOffline(false);
    await page.waitForSelector('[data-testid=conn-bar]');
    found.push(...(await atEverySize(page, 'play, reconnecting bar')));
  } finally {
    env.srv.resume();
  }
  await page.waitForSelector('.conn-bar', { state: 'detached', timeout: 30000 });
  await page.waitForFunction(() => window.tarneeb.state.conn === 'open' && window.tarneeb.state.welcomed);
  return found;
}

/** The chat list is scrolled to its newest line. */
const atNewest = (page) =>
  page.$eval('[data-testid=chat-lines]', (l) => l.scrollHeight > l.clientHeight && l.scrollTop + l.clientHeight >= l.scrollHeight - 2);

async function sayLine(page, text) {
  const from = frameMark(page);
  await page.fill('[data-testid=chat-input]', text);
  await page.press('[data-testid=chat-input]', 'Enter');
  const a = await answerTo(page, 'chat', from);
  assert.notEqual(a.type, 'error', `chat line sent: ${JSON.stringify(a)}`);
  await page.waitForFunction((t) => [...document.querySelectorAll('[data-testid=chat-lines] .chat-text')].some((e) => e.textContent === t), text);
}

for (const lang of ['en', 'ar']) {
  test(`${lang}: every seat, card and control visible and uncovered with the chat open, 360x640 to 1920x1080`, { timeout: 300000 }, async () => {
    await env.withPage(`layout-${lang}`, { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, reducedMotion: 'reduce' }, async (page) => {
      await signIn(page, env.srv.url, `Lay${lang}${Date.now() % 100000}`, lang);
      await createTable(page, { target: 7, timer: 90 });
      await page.waitForSelector('[data-testid=chat-toggle]');
      // a phone opens with the chat closed: its title is a strip under the room, not over its title
      assert.equal(await page.getAttribute('[data-testid=chat-toggle]', 'aria-expanded'), 'false');
      const title = await page.$eval('.waiting-panel h2', (e) => {
        const r = e.getBoundingClientRect();
        return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.closest('.waiting-panel h2') === e;
      });
      assert.ok(title, "the chat's title does not lie over the waiting room's title");
      await clickSure(page, '[data-testid=chat-toggle]');
      await page.waitForSelector('[data-testid=chat-input]');
      // lines enough to scroll the list; closed and opened again, it shows the newest
      for (let i = 1; i <= 4; i++) await sayLine(page, `line ${i} ${'word '.repeat(8)}`);
      assert.ok(await atNewest(page), 'the list follows new lines');
      await clickSure(page, '[data-testid=chat-toggle]');
      await page.waitForSelector('[data-testid=chat-input]', { state: 'hidden' });
      await clickSure(page, '[data-testid=chat-toggle]');
      await page.waitForSelector('[data-testid=chat-input]');
      assert.ok(await atNewest(page), 'the chat opens at its newest line');

      const found = [...(await atEverySize(page, 'waiting room'))];
      await clickSure(page, '[data-act=start]');
      const seen = new Set();
      for (let i = 0; i < 400 && !(seen.has('auction') && seen.has('play')); i++) {
        await page.waitForSelector('.bids [data-act=call]:not([disabled]), [data-act=trump]:not([disabled]), .hand .card.playable:not([disabled]), [data-testid=match-over]');
        const phase = await page.evaluate(() => {
          const r = window.tarneeb.state.table.round;
          return r.phase === 'play' && r.trick.length === 0 ? 'lead' : r.phase;
        });
        if (!seen.has(phase) && phase !== 'lead') {
          seen.add(phase);
          found.push(...(await atEverySize(page, phase)));
          if (phase === 'play') {
            // a dialog covers the chat too
            await page.setViewportSize({ width: 1280, height: 800 });
            await frames(page);
            await clickSure(page, '[data-testid=score]');
            await page.waitForSelector('[data-testid=sheet]');
            const dimmed = await page.$eval('[data-testid=chat-input]', (e) => {
              const r = e.getBoundingClientRect();
              return !!document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.closest('.overlay');
            });
            assert.ok(dimmed, 'the score sheet covers the chat');
            await clickSure(page, '.modal button[data-act=closemodal]');
            await page.waitForSelector('[data-testid=sheet]', { state: 'detached' });
            found.push(...(await withConnectionBar(page)));
          }
        }
        const r = await step(page);
        if (r.kind === 'over') break;
      }
      assert.ok(seen.has('auction') && seen.has('play'), `the auction and a trick in play were checked (${[...seen]})`);
      assert.deepEqual(found, [], `hidden, covered or small:\n${found.join('\n')}`);
    });
  });
}

for (const lang of ['en', 'ar']) {
  test(`${lang}: the quick-play waiting room is visible and uncovered with the chat open, 360x640 to 1920x1080`, { timeout: 120000 }, async () => {
    await env.withPage(`layout-quick-${lang}`, { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, reducedMotion: 'reduce' }, async (page) => {
      await signIn(page, env.srv.url, `LayQ${lang}${Date.now() % 100000}`, lang);
      await clickSure(page, '[data-testid=quick-play]');
      await page.waitForSelector('[data-testid=play-now]');
      await clickSure(page, '[data-testid=chat-toggle]');
      await page.waitForSelector('[data-testid=chat-input]');
      const found = await atEverySize(page, 'quick waiting room');
      assert.deepEqual(found, [], `hidden, covered or small:\n${found.join('\n')}`);
    });
  });
}
