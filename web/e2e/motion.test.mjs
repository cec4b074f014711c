// Motion, sound and the offline levels at the table (issue 28). An offline match (the WebAssembly
// engine, no server needed past loading the page) at the easy level:
// - with motion, each card played is marked as moving in from its player's side of the table (the
//   side of the seat that played it), and each won trick is sent to its winner's side; a recorder
//   (a MutationObserver installed before the page's scripts) notes every such mark as it appears,
//   so nothing here waits for a movement to finish;
// - with reduced motion (prefers-reduced-motion: reduce) nothing is marked and nothing moves;
// - the sounds are on by default, nothing is made before the person's first gesture (autoplay
//   rules: no AudioContext), the mute button at the table is at least 44x44 on a phone, named in
//   Arabic, mutes at once and is remembered after a reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, clickSure, step } from './harness.mjs';

const env = useServer({ botDelayMs: 0 });

/** Runs in the page before its scripts: records the motion marks and the sounds made. */
function recorder() {
  window.__motion = { cards: [], tricks: [] };
  window.__audio = { made: 0, notes: 0 };
  const AC = window.AudioContext;
  if (AC) {
    window.AudioContext = class extends AC {
      constructor(...a) {
        super(...a);
        window.__audio.made++;
      }
      createOscillator() {
        const o = super.createOscillator();
        const start = o.start.bind(o);
        o.start = (...a) => {
          window.__audio.notes++;
          return start(...a);
        };
        return o;
      }
    };
  }
  const seatPos = (seat) => document.querySelector(`.seat[data-seat="${seat}"]`)?.dataset.pos ?? null;
  new MutationObserver((records) => {
    for (const r of records)
      for (const n of r.addedNodes) {
        if (!(n instanceof Element)) continue;
        for (const e of [n, ...n.querySelectorAll('.trick .played[data-from]')]) {
          if (e.matches('.trick .played[data-from]')) window.__motion.cards.push({ card: e.dataset.played, from: e.dataset.from, side: seatPos(e.dataset.seat) });
        }
        if (n.matches('.trick-flight')) {
          const t = window.tarneeb.state.table;
          const last = t.round.finished_tricks?.at(-1);
          const copies = [...n.querySelectorAll('.played[data-from]')].map((e) => ({ card: e.dataset.played, from: e.dataset.from, side: seatPos(e.dataset.seat) }));
          window.__motion.tricks.push({ to: n.dataset.to, winnerSide: last ? seatPos(last.winner) : null, collectedTo: document.querySelector('.previous-trick')?.dataset.collectedTo ?? null, copies });
        }
      }
  }).observe(document, { childList: true, subtree: true });
}

/** Opens the start screen, picks the easy level and starts an offline match. */
async function startOffline(page, lang) {
  await page.addInitScript(recorder);
  await page.goto(`${env.srv.url}/?lang=${lang}&botdelay=30`);
  await page.waitForSelector('[data-testid=offline-levels]');
  // no sound before the person's first gesture
  assert.equal(await page.evaluate(() => window.__audio.made), 0, 'no AudioContext before a gesture');
  const levels = await page.$$eval('[data-testid=offline-levels] .level-choice', (bs) => bs.map((b) => b.dataset.level));
  assert.deepEqual(levels, ['easy', 'medium', 'hard'], 'the offline levels: those the engine has');
  await clickSure(page, '[data-testid=offline-level-easy]');
  await page.waitForSelector('[data-testid=offline-level-easy][aria-pressed=true]');
  await clickSure(page, '[data-testid=play-offline]');
  await page.waitForSelector('.hand .card');
  // the bots play at the level picked
  assert.deepEqual(await page.$$eval('.seat .bot-level', (b) => b.map((e) => e.dataset.level)), ['easy', 'easy', 'easy']);
}

/** Takes decisions until `done()` (evaluated in the page) holds; at most `max` of them. */
async function playUntil(page, done, max = 200) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate(done)) return;
    const r = await step(page);
    if (r.kind === 'over') break;
  }
  assert.ok(await page.evaluate(done), 'the condition was reached');
}

test('with motion: cards come from their player\'s side, a won trick goes to its winner\'s; sounds on, muted and kept', { timeout: 180000 }, async () => {
  await env.withPage('motion', { viewport: { width: 1280, height: 800 }, reducedMotion: 'no-preference' }, async (page) => {
    const errors = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await startOffline(page, 'en');
    // a trick won, a card of a bot's and one of the person's seen moving
    await playUntil(page, () => {
      const m = window.__motion;
      const cards = [...m.cards, ...m.tricks.flatMap((t) => t.copies)];
      return m.tricks.length >= 2 && cards.some((c) => c.from === 'bottom') && cards.some((c) => c.from !== 'bottom');
    });
    const m = await page.evaluate(() => window.__motion);
    for (const c of [...m.cards, ...m.tricks.flatMap((t) => t.copies)]) assert.equal(c.from, c.side, `card ${c.card} comes from its player's side`);
    for (const t of m.tricks) {
      assert.ok(['bottom', 'left', 'top', 'right'].includes(t.to), JSON.stringify(t));
      assert.equal(t.to, t.winnerSide, 'the trick goes to its winner\'s side');
      assert.equal(t.collectedTo, t.to);
    }

    // the sounds: on by default, made after the first gesture (the clicks above)
    assert.equal(await page.getAttribute('.game-bar [data-act=sound]', 'aria-pressed'), 'true');
    const audio = await page.evaluate(() => window.__audio);
    assert.equal(audio.made, 1, 'one AudioContext, made after a gesture');
    assert.ok(audio.notes > 0, 'sounds were played');
    // muted: at once, and remembered after a reload (the offline match goes on)
    await clickSure(page, '.game-bar [data-act=sound]');
    await page.waitForSelector('.game-bar [data-act=sound][aria-pressed=false]');
    const notes = await page.evaluate(() => window.__audio.notes);
    await step(page); // returns once the table has moved on
    assert.equal(await page.evaluate(() => window.__audio.notes), notes, 'no sound once muted');
    assert.equal(await page.evaluate(() => localStorage.getItem('tarneeb.sound')), 'false');
    await page.reload();
    await page.waitForSelector('.game-bar [data-act=sound][aria-pressed=false]');
    assert.deepEqual(errors, [], 'no console errors');
  });
});

test('with reduced motion nothing moves; the mute button is 44x44 on a phone, in Arabic', { timeout: 180000 }, async () => {
  await env.withPage('motion-reduced', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true, reducedMotion: 'reduce' }, async (page) => {
    await startOffline(page, 'ar');
    // two tricks won, with the person's cards among them
    await playUntil(page, () => (window.tarneeb.state.table.round?.finished_tricks?.length ?? 0) >= 2);
    const m = await page.evaluate(() => window.__motion);
    assert.deepEqual(m, { cards: [], tricks: [] }, 'nothing moves');
    assert.equal(await page.locator('.trick-flight, .played[data-from], .trick.collected').count(), 0);

    // measured in one go (the bots play on: the page is drawn again between two reads)
    const button = await page.evaluate(() => {
      const e = document.querySelector('.game-bar [data-act=sound]');
      const r = e.getBoundingClientRect();
      return { w: r.width, h: r.height, title: e.title, pressed: e.getAttribute('aria-pressed') };
    });
    assert.ok(button.w >= 44 && button.h >= 44, `the mute button is ${button.w}x${button.h}`);
    assert.deepEqual([button.title, button.pressed], ['الأصوات', 'true']);
    await clickSure(page, '.game-bar [data-act=sound]');
    await page.waitForSelector('.game-bar [data-act=sound][aria-pressed=false]');
    await page.reload();
    await page.waitForSelector('.game-bar [data-act=sound][aria-pressed=false]');
  });
});
