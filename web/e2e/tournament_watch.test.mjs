// Watching a tournament's match (issue 28, defect 9): "Watch" on the bracket shows the match's
// table; "Leave" goes back to that tournament's bracket, not to the lobby. Bots play with a delay
// so that the match is still on when the page watches it. Waits for states, never for time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, signIn, DESKTOP, clickSure } from './harness.mjs';

const env = useServer({ botDelayMs: 150 });

test('Watch from the bracket, then Leave: back to the bracket', async () => {
  await env.withPage('tournament-watch', DESKTOP, async (page) => {
    await signIn(page, env.srv.url, `Host${Date.now() % 100000}`, 'en');
    await clickSure(page, '[data-testid=tournaments-link]');
    await page.waitForSelector('form[data-tform=create]');
    await page.fill('form[data-tform=create] input[name=name]', 'Watch cup');
    await page.fill('form[data-tform=create] input[name=target]', '31');
    await page.fill('form[data-tform=create] input[name=turn_seconds]', '0');
    await page.fill('form[data-tform=create] input[name=size]', '4');
    await clickSure(page, 'form[data-tform=create] button[type=submit]');
    await page.waitForSelector('[data-testid=tstate][data-state=registration]');
    const bracket = new URL(page.url()).hash;
    assert.match(bracket, /^#\/tournaments\/T\d+$/);
    for (let i = 1; i <= 4; i++) {
      await clickSure(page, '[data-testid=add-bot-team]');
      await page.waitForFunction((n) => document.querySelector('[data-testid=team-count]')?.textContent?.startsWith(`${n}/`), i);
    }
    await clickSure(page, '[data-testid=start-tournament]');
    // a match under way: watch it
    await clickSure(page, '[data-testid=tmatch][data-state=playing] [data-tact=watch]');
    await page.waitForFunction(() => window.tarneeb.state.table?.you === null && !document.getElementById('app').hidden);
    assert.equal(await page.isHidden('#tournaments'), true, 'the table is shown, the bracket hidden');
    await page.waitForSelector('.topbar [data-act=leave]');
    // Leave: the bracket again, not the lobby
    await clickSure(page, '.topbar [data-act=leave]');
    await page.waitForSelector('[data-testid=tournaments] [data-testid=tstate]');
    assert.equal(new URL(page.url()).hash, bracket);
    assert.equal(await page.isHidden('#app'), true, 'the lobby stays behind the bracket');
    assert.equal(await page.evaluate(() => window.tarneeb.state.table), null, 'no table any more');
    // leaving again from the lobby (no tournament table) goes to the lobby as before
    assert.equal(await page.evaluate(() => window.tarneeb.state.returnTo ?? null), null);
  });
});
