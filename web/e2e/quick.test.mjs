// Quick play (issue 28): two browsers (English on a desktop, Arabic on a phone) press Quick play
// and meet at one table, seats 0 and 1, each seeing the other's name and the countdown to the
// computer players; one presses Play now, bots take seats 2 and 3 and the match starts. On a
// 390x844 phone every new control is at least 44x44 CSS px, the preset picked is remembered
// after a reload, and a second Quick play while seated says to leave the table first.
// The fill time is long (--quick-fill-seconds 600): only Play now starts these tables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, signIn, clickSure, answerTo, frameMark, leaveTable, DESKTOP } from './harness.mjs';

const env = useServer({ botDelayMs: 0, extra: ['--quick-fill-seconds', '600', '--max-new-guests-per-address', '0'] });

const PHONE_844 = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };

/** Collects the page's console errors (withPage checks script errors itself). */
function consoleErrors(page) {
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  return errors;
}

/** Presses Quick play and returns the server's answer once the page shows the quick-play waiting room. */
async function quickPlay(page) {
  const from = frameMark(page);
  await clickSure(page, '[data-testid=quick-play]');
  const ok = await answerTo(page, 'quick_play', from);
  assert.equal(ok.type, 'ok', `quick_play answered ${JSON.stringify(ok)}`);
  await page.waitForFunction((t) => window.tarneeb.state.table?.table === t, ok.table);
  await page.waitForSelector('[data-testid=play-now]');
  return ok;
}

/** The width and height of each element matching `selector` that is shown. */
const sizes = (page, selector) =>
  page.$$eval(selector, (els) =>
    els.filter((e) => e.getClientRects().length).map((e) => ({ what: e.dataset.testid ?? e.dataset.act ?? e.textContent.trim(), ...e.getBoundingClientRect().toJSON() })),
  );

test('two browsers press Quick play, meet at one table, and Play now fills it with bots and starts', { timeout: 120000 }, async () => {
  await env.withPage('quick-en', DESKTOP, async (a) => {
    await env.withPage('quick-ar', PHONE_844, async (b) => {
      const errors = [a, b].map(consoleErrors);
      const stamp = Date.now() % 100000;
      const [nameA, nameB] = [`QuickA${stamp}`, `سريع${stamp}`];
      await signIn(a, env.srv.url, nameA, 'en');
      await signIn(b, env.srv.url, nameB, 'ar');
      // the default preset, Levantine, is pressed
      assert.equal(await a.getAttribute('[data-testid=quick-preset-levantine]', 'aria-pressed'), 'true');
      const okA = await quickPlay(a);
      const okB = await quickPlay(b);
      assert.equal(okA.seat, 0);
      assert.equal(okB.seat, 1);
      assert.equal(okB.table, okA.table, 'both at one table');
      // each sees the other's name, the countdown, and none of an ordinary room's controls
      await a.waitForFunction((n) => document.querySelector('[data-seat-box="1"]')?.textContent.includes(n), nameB);
      await b.waitForFunction((n) => document.querySelector('[data-seat-box="0"]')?.textContent.includes(n), nameA);
      assert.match(await a.textContent('[data-testid=quick-status]'), /Looking for players… computer players join in \d+ s/);
      assert.match(await b.textContent('[data-testid=quick-status]'), /نبحث عن لاعبين… ينضم لاعبون آليون بعد [٠-٩]+ ث/);
      assert.equal(await b.getAttribute('html', 'dir'), 'rtl');
      for (const p of [a, b]) {
        assert.equal(await p.locator('[data-act=addbot], [data-act=removebot], [data-testid=bot-levels], .code, [data-act=start]:not([data-testid=play-now])').count(), 0);
        assert.equal(await p.locator('header [data-act=leave]').count(), 1);
      }
      // Play now: bots in seats 2 and 3, the match starts, and both see their hands
      const from = frameMark(a);
      await clickSure(a, '[data-testid=play-now]');
      assert.equal((await answerTo(a, 'start', from)).type, 'ok');
      for (const p of [a, b]) {
        await p.waitForFunction(() => {
          const t = window.tarneeb.state.table;
          return t?.state === 'playing' && t.seats[2]?.bot === true && t.seats[3]?.bot === true && t.seats[0]?.bot === false && t.seats[1]?.bot === false;
        });
        await p.waitForSelector('.hand .card');
      }
      assert.deepEqual(errors.flat(), [], 'no console errors');
    });
  });
});

test('on a 390x844 phone: the new controls are 44x44 at least, the preset is remembered, a second Quick play is refused', { timeout: 120000 }, async () => {
  await env.withPage('quick-phone', PHONE_844, async (page) => {
    const errors = consoleErrors(page);
    await signIn(page, env.srv.url, `QuickPh${Date.now() % 100000}`, 'en');
    await clickSure(page, '[data-testid=quick-preset-classic]');
    await page.waitForFunction(() => window.tarneeb.state.quickPreset === 'classic');
    await page.reload();
    await page.waitForSelector('[data-testid=quick-play]:not([disabled])');
    assert.equal(await page.getAttribute('[data-testid=quick-preset-classic]', 'aria-pressed'), 'true', 'the preset is remembered');
    const small = [];
    const tooSmall = (list) => small.push(...list.filter((r) => r.width < 43.5 || r.height < 43.5).map((r) => `${r.what} ${r.width}x${r.height}`));
    tooSmall(await sizes(page, '[data-testid=quick-play], [data-act=quickpreset]'));
    // the quick-play button is in the first screenful
    const top = await page.$eval('[data-testid=quick-play]', (e) => e.getBoundingClientRect().bottom);
    assert.ok(top <= 844, `Quick play is on the first screen (its bottom at ${top})`);

    await quickPlay(page);
    assert.deepEqual(await page.evaluate(() => [window.tarneeb.state.table.preset, window.tarneeb.state.table.you]), ['classic', 0]);
    tooSmall(await sizes(page, '[data-testid=play-now], header [data-act=leave]'));
    assert.deepEqual(small, [], 'every new control is at least 44x44');

    // seated already: a second quick play is refused, and the page says to leave the table first
    const again = frameMark(page);
    await page.evaluate(() => window.tarneeb.quickPlay());
    assert.equal((await answerTo(page, 'quick_play', again)).code, 'already_seated');
    await page.waitForFunction(() => document.querySelector('.toast')?.textContent.includes('leave it first'));
    await leaveTable(page);
    assert.deepEqual(errors, [], 'no console errors');
  });
});
