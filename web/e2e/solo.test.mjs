// A player against three bots, a whole match through the page: in English on a desktop
// screen, in Arabic on a phone screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, signIn, createTable, playToEnd, PHONE, DESKTOP, clickSure } from './harness.mjs';

const env = useServer({ botDelayMs: 0 });

test('English: sign in, create a table with three bots, play a match to its end, play again', async () => {
  await env.withPage('solo-en', DESKTOP, async (page) => {
    await signIn(page, env.srv.url, `Layla${Date.now() % 100000}`, 'en');
    assert.equal(await page.getAttribute('html', 'dir'), 'ltr');
    // createTable returns once the server has answered the three add_bot and the page shows the three bots
    await createTable(page, { target: 7, timer: 30, bots: true });
    // each bot shown as a player with its level (the default, medium: issue 28)
    assert.equal(await page.locator('.wseat .bot-level[data-level=medium]', { hasText: 'medium' }).count(), 3);
    await clickSure(page, '[data-act=start]:not([disabled])');
    // the table: own hand of 13 at the bottom, three others around
    await page.waitForSelector('.hand .card');
    assert.equal(await page.locator('.hand .card').count(), 13);
    assert.deepEqual(await page.$$eval('.seat', (s) => s.map((e) => e.dataset.pos)), ['bottom', 'right', 'top', 'left']);
    let sawCountdown = false;
    const cards = await playToEnd(page, {
      keyboardCards: 2,
      onStep: async (r, n) => {
        if (!sawCountdown) sawCountdown = (await page.locator('.seat-bottom .countdown').count()) > 0;
        if (n === 3) {
          // tricks against the contract and the current trick with who led
          assert.match(await page.textContent('[data-testid=tricks]'), /Tricks: Us \d+\/\d+ · Them \d+\/\d+/);
        }
        if (n === 4) {
          // the hint marks one legal choice of the player's turn (asked of the server)
          await page.waitForSelector('[data-testid=hint]'); // the player's next turn of this deal
          await clickSure(page, '[data-testid=hint]');
          await page.waitForSelector('.hinted:not([disabled])');
          assert.equal(await page.locator('.hinted').count(), 1);
        }
        if (n === 5) {
          await clickSure(page, '[data-act=lasttrick]');
          await page.waitForSelector('.modal .review-trick .played');
          assert.equal(await page.locator('.modal .review-trick .played').count(), 4);
          assert.match(await page.textContent('.modal [data-testid=won-by]'), /won by/);
          await clickSure(page, '.modal button[data-act=closemodal]');
        }
      },
    });
    assert.ok(cards >= 13, `played ${cards} cards`);
    assert.ok(sawCountdown, 'a countdown was shown for the seat to act');
    const over = page.locator('[data-testid=match-over]');
    assert.match(await over.textContent(), /Match over/);
    assert.match(await over.textContent(), /You (won|lost)/);
    assert.ok((await page.locator('[data-testid=sheet] tbody tr').count()) >= 1, 'the score sheet has the rounds');
    // play again: a new match at the same table
    await clickSure(page, '[data-testid=match-over] [data-act=start]');
    await page.waitForSelector('[data-testid=match-over]', { state: 'detached' });
    await page.waitForFunction(() => window.tarneeb.state.table.match === 2 && window.tarneeb.state.table.state === 'playing');
    assert.equal(await page.locator('.hand .card').count() > 0, true);
  });
});

test('Arabic on a phone: right to left, the game words, a whole match', async () => {
  await env.withPage('solo-ar', PHONE, async (page) => {
    await signIn(page, env.srv.url, `Sami${Date.now() % 100000}`, 'ar');
    assert.equal(await page.getAttribute('html', 'dir'), 'rtl');
    assert.equal(await page.getAttribute('html', 'lang'), 'ar');
    await createTable(page, { target: 7, timer: 0, bots: true });
    await clickSure(page, '[data-act=start]');
    await page.waitForSelector('.hand .card');
    // every card of the hand is a tap target at least 44 px wide, hit where its strip shows, and
    // every card face is laid out left to right (no clipped "10" in Arabic)
    const taps = await page.evaluate(() =>
      [...document.querySelectorAll('.hand .card')].map((el) => {
        const b = el.getBoundingClientRect();
        const next = el.nextElementSibling?.getBoundingClientRect();
        const strip = next ? next.left - b.left : b.width;
        const hit = document.elementFromPoint(b.left + strip / 2, b.top + 20)?.closest('.card');
        return { card: el.dataset.card, strip, hit: hit === el, dir: getComputedStyle(el.querySelector('svg')).direction };
      }),
    );
    assert.equal(taps.length, 13);
    assert.equal(await page.locator('.hand .hand-row').count(), 2, 'two rows of cards on a phone');
    for (const tp of taps) {
      assert.ok(tp.strip >= 43.9, `${tp.card}: a strip of ${tp.strip} px`);
      assert.ok(tp.hit, `${tp.card}: a tap at its strip's centre hits it`);
      assert.equal(tp.dir, 'ltr', `${tp.card} laid out left to right`);
    }
    let sawTrump = false;
    let sawTrick = false;
    await playToEnd(page, {
      onStep: async (r, n) => {
        // the contract and tricks are on the felt (issue 28: the phone's header one row)
        const bar = await page.evaluate(() => document.querySelector('.felt-status')?.textContent ?? '');
        if (/الحكم/.test(bar)) sawTrump = true;
        if (/اللفات/.test(bar)) sawTrick = true;
        if (r.kind === 'call' && n === 0) {
          // one read: the auction may end (the bots bid at once) between finding the panel and reading it
          const auction = await page.evaluate(() => document.querySelector('[data-testid=auction]')?.textContent ?? null);
          if (auction !== null) assert.match(auction, /المزاد/);
        }
      },
    });
    assert.ok(sawTrump, 'trump shown as الحكم');
    assert.ok(sawTrick, 'tricks shown as اللفات');
    const over = await page.textContent('[data-testid=match-over]');
    assert.match(over, /انتهت المباراة/);
    assert.match(over, /[٠-٩]/, 'scores in Eastern Arabic digits');
    // switch to English and back
    await clickSure(page, '[data-testid=match-over] [data-act=lang]');
    assert.equal(await page.getAttribute('html', 'dir'), 'ltr');
    assert.match(await page.textContent('[data-testid=match-over]'), /Match over/);
  });
});
