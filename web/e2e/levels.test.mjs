// Computer players by level (issue 28): the person picks easy, medium, hard or expert; the page
// asks the server for that bot (add_bot with bot "hard", docs/protocol.md) and shows it as a
// player with a localised level badge, in the waiting room and at the table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, signIn, createTable, addBot, clickSure, frameMark, socketLog, PHONE, DESKTOP } from './harness.mjs';

const env = useServer({ botDelayMs: 0 });

/** Picks `level` in the page's level picker and waits until the page holds it (the button pressed). */
async function pickLevel(page, level) {
  await clickSure(page, `[data-testid=level-${level}]`);
  await page.waitForSelector(`[data-testid=level-${level}][aria-pressed=true]`);
}

/** The add_bot frames the page sent since mark `from`. */
const sentAddBots = (page, from) =>
  socketLog(page).frames.slice(from).filter((f) => f.dir === '>' && f.m?.type === 'add_bot').map((f) => f.m);

test('English: add bots by level, see "Bot N" with its level in the waiting room and at the table', async () => {
  await env.withPage('levels-en', DESKTOP, async (page) => {
    await signIn(page, env.srv.url, `Lina${Date.now() % 100000}`, 'en');
    await createTable(page, { target: 7, timer: 0, bots: false });
    const from = frameMark(page);
    for (const [seat, level] of [[1, 'easy'], [2, 'hard'], [3, 'medium']]) {
      await pickLevel(page, level);
      assert.match(await page.textContent(`[data-act=addbot][data-seat="${seat}"]`), new RegExp(`Add bot · ${level}`));
      await addBot(page, seat);
      const box = page.locator(`[data-seat-box="${seat}"]`);
      assert.equal(await box.locator('.bot-name').textContent(), `Bot ${seat + 1}`);
      assert.equal(await box.locator('.bot-level').textContent(), level);
      assert.equal(await box.locator('.bot-level').getAttribute('data-level'), level);
    }
    assert.deepEqual(sentAddBots(page, from).map((m) => m.bot), ['easy', 'hard', 'medium']);
    // the server's own names and kinds behind the display
    assert.deepEqual(await page.evaluate(() => window.tarneeb.state.table.seats.slice(1).map((s) => [s.name, s.kind])), [
      ['easy 2', 'easy'], ['hard 3', 'hard'], ['medium 4', 'medium'],
    ]);
    assert.equal(await page.locator('.wseat', { hasText: /heuristic|pimc/ }).count(), 0);
    await clickSure(page, '[data-act=start]:not([disabled])');
    await page.waitForSelector('.seat[data-seat="2"] .bot-level');
    assert.equal(await page.textContent('.seat[data-seat="2"] .bot-level'), 'hard');
    assert.match(await page.getAttribute('.seat[data-seat="2"]', 'aria-label'), /^Bot 3 · hard/);
    assert.equal(await page.textContent('.seat[data-seat="1"] .bot-name'), 'Bot 2');
  });
});

test('Arabic on a phone: the levels in Arabic, touch-sized, the new table seated at the chosen level', async () => {
  await env.withPage('levels-ar', PHONE, async (page) => {
    await signIn(page, env.srv.url, `Sami${Date.now() % 100000}`, 'ar');
    await page.waitForSelector('form[data-form=create] [data-testid=bot-levels]');
    const labels = await page.$$eval('[data-testid=bot-levels] .level-choice', (b) => b.map((e) => e.textContent));
    assert.deepEqual(labels, ['سهل', 'متوسط', 'صعب', 'خبير']);
    // Measured at once when all four are laid out: a re-render (a lobby page arriving) replaces
    // them, and a button read one by one may be gone between two reads.
    const sizes = await (await page.waitForFunction(() => {
      const boxes = [...document.querySelectorAll('[data-testid=bot-levels] .level-choice')].map((e) => e.getBoundingClientRect());
      return boxes.length === 4 && boxes.every((r) => r.width > 0) && boxes.map((r) => [r.width, r.height]);
    })).jsonValue();
    for (const [width, height] of sizes) assert.ok(width >= 44 && height >= 44, `a level button is ${width}×${height}`);
    await pickLevel(page, 'easy');
    await createTable(page, { target: 7, timer: 0, bots: true });
    for (const seat of [1, 2, 3]) {
      const box = page.locator(`[data-seat-box="${seat}"]`);
      assert.equal(await box.locator('.bot-level').textContent(), 'سهل');
      assert.equal(await box.locator('.bot-name').textContent(), `روبوت ${'٠١٢٣٤'[seat + 1]}`);
    }
  });
});
