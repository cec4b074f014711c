// The rules in the app (issue 28): from the lobby and from the table, in English and Arabic,
// both presets, on a phone (360 px) and a desktop. The dialog opens over the page, closes back
// to where the person was (the same table, the focus on the button that opened it), and the
// phone's Back closes it too. Waits for selectors and states, never for time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, signIn, createTable, DESKTOP, clickSure, audit } from './harness.mjs';

const env = useServer({ botDelayMs: 0 });
const SMALL_PHONE = { viewport: { width: 360, height: 640 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };
const dialog = '[data-testid=rules]';

/** Every control of the dialog at least 44 x 44 CSS px, text at least 12 px, nothing wider than the window. */
async function checkPhoneSizes(page) {
  const bad = await page.evaluate(() => {
    const out = [];
    const root = document.querySelector('[data-testid=rules]');
    for (const el of root.querySelectorAll('button, a')) {
      const r = el.getBoundingClientRect();
      if (r.width < 44 || r.height < 44) out.push(`${el.textContent.trim()}: ${r.width}x${r.height}`);
    }
    for (const el of root.querySelectorAll('li, p, h1, h2, h3, button, a')) {
      const fs = parseFloat(getComputedStyle(el).fontSize);
      if (fs < 12) out.push(`${el.tagName} ${fs}px`);
    }
    const body = root.querySelector('.rules-body');
    if (body.scrollWidth > body.clientWidth + 1) out.push(`the body scrolls sideways (${body.scrollWidth} > ${body.clientWidth})`);
    if (root.getBoundingClientRect().width > window.innerWidth) out.push('the dialog is wider than the window');
    return out;
  });
  assert.deepEqual(bad, [], 'controls >= 44x44, text >= 12 px, no sideways scrolling');
}

test('from the lobby, on a phone: both presets in English and Arabic, scoring examples, closes back to the lobby', async () => {
  await env.withPage('rules-lobby', SMALL_PHONE, async (page) => {
    await signIn(page, env.srv.url, `Nour${Date.now() % 100000}`, 'en');
    await clickSure(page, '.lobby [data-testid=rules-link]');
    await page.waitForSelector(`${dialog}[data-preset=levantine][lang=en]`);
    assert.match(page.url(), /#\/rules$/);
    assert.equal(await page.evaluate(() => document.getElementById('app').inert), true, 'the page behind is inert');
    const text = () => page.textContent(dialog);
    // Levantine (the default): docs/rules.md's own examples
    assert.match(await text(), /A bid is the number of tricks your team promises to take: 7 to 13/);
    assert.match(await text(), /An equal bid is never allowed/);
    assert.match(await text(), /Bid 8, took 11 tricks: made\. Declaring team \+8/);
    assert.match(await text(), /Bid 9, took 7 tricks: set\. Declaring team −9.*defenders \+6 \(for their 6 tricks\)/);
    assert.match(await text(), /Bid 7, took no trick: set\. Declaring team −7.*defenders \+13/);
    await checkPhoneSizes(page);
    // Classic: the dealer may equal; a made contract scores the tricks taken
    await clickSure(page, `${dialog} [data-preset=classic]`);
    await page.waitForSelector(`${dialog}[data-preset=classic]`);
    assert.match(page.url(), /#\/rules\/classic$/);
    assert.match(await text(), /may equal the highest bid/);
    assert.match(await text(), /Bid 8, took 11 tricks: made\. Declaring team \+11/);
    // Arabic, from inside the dialog: right to left, the game's words, counted nouns, one digit system
    await clickSure(page, `${dialog} [data-rules=lang]`);
    await page.waitForSelector(`${dialog}[data-preset=classic][lang=ar][dir=rtl]`);
    assert.equal(await page.getAttribute('html', 'dir'), 'rtl');
    const ar = await text();
    assert.match(ar, /القوانين الكلاسيكية|قوانين: كلاسيكي/);
    assert.match(ar, /طلب ٩ وأكل ٧ لفات: انكسر/);
    assert.match(ar, /١٣ لفة/);
    assert.doesNotMatch(ar, /;/, 'no Latin semicolon in the Arabic text');
    assert.doesNotMatch(ar.replace(/A K Q J 10 9 8 7 6 5 4 3 2/, ''), /[0-9]/, 'Eastern Arabic digits only (but the card ranks)');
    await clickSure(page, `${dialog} [data-preset=levantine]`);
    await page.waitForSelector(`${dialog}[data-preset=levantine][lang=ar]`);
    assert.match(await text(), /طلب ٨ وأكل ١١ لفة: نجح/);
    await checkPhoneSizes(page);
    assert.deepEqual(await audit(page), [], 'no serious accessibility violation');
    // Close: back to the lobby, in Arabic now, the focus on the link that opened it
    await clickSure(page, `${dialog} [data-testid=rules-close]`);
    await page.waitForSelector(dialog, { state: 'detached' });
    await page.waitForSelector('.lobby form[data-form=create]');
    assert.doesNotMatch(page.url(), /rules/);
    assert.equal(await page.evaluate(() => document.getElementById('app').inert), false);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'rules-link');
  });
});

test('from the table: the table’s rules over the game, Escape and Back close it, the game goes on', async () => {
  await env.withPage('rules-table', DESKTOP, async (page) => {
    await signIn(page, env.srv.url, `Sami${Date.now() % 100000}`, 'ar');
    await createTable(page, { target: 41, timer: 0, bots: true });
    // the waiting room has the button too
    await page.waitForSelector('.waiting [data-testid=rules-button]');
    await clickSure(page, '[data-act=start]:not([disabled])');
    await page.waitForSelector('.hand .card');
    const table = await page.evaluate(() => window.tarneeb.state.table.table);
    await clickSure(page, '.game-bar [data-testid=rules-button]');
    await page.waitForSelector(`${dialog}[data-preset=levantine][lang=ar]`);
    // the table's own target, counted in Arabic, and its preset marked
    assert.match(await page.textContent(dialog), /يصل إلى ٤١ نقطة/);
    assert.equal(await page.locator(`${dialog} [data-preset=levantine] .tag`).count(), 1);
    // over the table: the game is there, under the dialog
    assert.equal(await page.isVisible('.hand .card'), true);
    const box = await page.locator('.rules-dialog').boundingBox();
    const covered = await page.evaluate(({ x, y }) => !!document.elementFromPoint(x, y)?.closest('#rules'), { x: box.x + box.width / 2, y: box.y + 20 });
    assert.ok(covered, 'the dialog is on top');
    // Escape closes it: back at the same table, the focus on the rules button
    await page.keyboard.press('Escape');
    await page.waitForSelector(dialog, { state: 'detached' });
    assert.equal(await page.evaluate(() => window.tarneeb.state.table.table), table);
    await page.waitForSelector('.hand .card');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'rules-button');
    // open again in English; the browser's Back closes it
    await clickSure(page, '.game-bar [data-act=lang]');
    await page.waitForSelector('html[lang=en]');
    await clickSure(page, '.game-bar [data-testid=rules-button]');
    await page.waitForSelector(`${dialog}[lang=en]`);
    assert.match(await page.textContent(dialog), /reach or pass 41 points wins \(this table’s target/);
    await page.goBack();
    await page.waitForSelector(dialog, { state: 'detached' });
    await page.waitForSelector('.game .hand .card');
    assert.equal(await page.evaluate(() => window.tarneeb.state.table.table), table);
    // the match goes on: a card can be played when it is our turn (the dialog changed nothing)
    assert.equal(await page.evaluate(() => window.tarneeb.state.table.state), 'playing');
  });
});

test('at a table on a 360 px phone: the rules open from the score sheet and close back to it', async () => {
  await env.withPage('rules-phone-table', SMALL_PHONE, async (page) => {
    await signIn(page, env.srv.url, `Rima${Date.now() % 100000}`, 'en');
    await createTable(page, { target: 31, timer: 0, bots: true });
    await clickSure(page, '[data-act=start]:not([disabled])');
    await page.waitForSelector('.hand .card');
    // the top bar stays inside the window (its button is in the sheet on a narrow phone)
    // Measured in the page, in one step: the bots play on (no delay), and each table message
    // draws the bar again, so a handle to it may be detached by the time it is measured.
    const bar = await page.evaluate(() => {
      const r = document.querySelector('.game-bar').getBoundingClientRect();
      return { x: r.x, width: r.width };
    });
    assert.ok(bar.x >= 0 && bar.x + bar.width <= 360, `the top bar fits: ${JSON.stringify(bar)}`);
    await clickSure(page, '.game-bar [data-testid=score]');
    await clickSure(page, '.modal [data-testid=sheet-rules]');
    await page.waitForSelector(`${dialog}[data-preset=levantine][lang=en]`);
    await checkPhoneSizes(page);
    await clickSure(page, `${dialog} [data-testid=rules-close]`);
    await page.waitForSelector(dialog, { state: 'detached' });
    // back where the person was: the score sheet over the table
    await page.waitForSelector('.modal [data-testid=sheet]');
    assert.equal(await page.evaluate(() => window.tarneeb.state.table.state), 'playing');
  });
});
