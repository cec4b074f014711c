// Tournaments (issue 15): an organiser creates an 8-team knockout in the browser, enters eight
// teams of two fast bots, starts it, and the bracket page follows it live to its final; the
// finished tournament's page links every match's record, and the final's opens in the replay
// viewer. The list shows the champion. Waits for states, never for time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, signIn, screenshots, DESKTOP, clickSure } from './harness.mjs';

const env = useServer({ botDelayMs: 0 });

test('an 8-team tournament of bot teams runs to its final; the bracket links every record', async () => {
  const ctx = await env.br.browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await signIn(page, env.srv.url, 'Organiser');
    await clickSure(page, '[data-testid=tournaments-link]');
    await page.waitForSelector('form[data-tform=create]');
    await page.fill('form[data-tform=create] input[name=name]', 'Cup of the Levant');
    await page.fill('form[data-tform=create] input[name=target]', '7');
    await page.fill('form[data-tform=create] input[name=turn_seconds]', '0');
    await page.fill('form[data-tform=create] input[name=size]', '8');
    await clickSure(page, 'form[data-tform=create] button[type=submit]');
    await page.waitForSelector('[data-testid=tstate][data-state=registration]');
    assert.match(page.url(), /#\/tournaments\/T\d+$/);
    const id = page.url().split('/').pop();

    for (let i = 1; i <= 8; i++) {
      await clickSure(page, '[data-testid=add-bot-team]');
      await page.waitForFunction((n) => document.querySelector('[data-testid=team-count]')?.textContent?.startsWith(`${n}/`), i);
    }
    await clickSure(page, '[data-testid=start-tournament]');
    // The live page follows it (it reads the tournament again while shown) to its champion.
    await page.waitForSelector('[data-testid=champion]', { timeout: 120000 });
    await page.waitForSelector('[data-testid=tstate][data-state=finished]');

    const matches = await page.$$eval('[data-testid=tmatch]', (els) => els.map((e) => e.getAttribute('data-state')));
    assert.deepEqual(matches, Array(7).fill('done'), 'seven matches, all played');
    const rounds = await page.$$eval('.bracket .tround h3', (els) => els.map((e) => e.textContent));
    assert.deepEqual(rounds, ['Quarter-finals', 'Semi-finals', 'Final']);
    const links = await page.$$eval('[data-testid=record-link]', (els) => els.map((e) => e.getAttribute('href')));
    assert.equal(links.length, 7);
    assert.equal(new Set(links).size, 7);
    for (const href of links) assert.match(href, /^#\/replay\/t\d+-1$/);

    // The same state through the HTTP API: the final's winner is the champion.
    const t = await (await fetch(`${env.srv.url}/api/tournaments/${id}`)).json();
    const final = t.matches[6];
    assert.equal(t.champion, final.teams[final.winner]);
    assert.equal(JSON.stringify(t).includes('"hand'), false, 'no cards in a tournament');

    // The final's record opens in the replay viewer.
    await clickSure(page, '.tround:last-child [data-testid=record-link]');
    await page.waitForSelector('[data-testid=replay-board]');
    await page.waitForFunction(() => (document.querySelector('[data-testid=replay-caption]')?.textContent ?? '').length > 0);

    // The list shows it finished, with its champion.
    await page.goto(`${env.srv.url}/#/tournaments`);
    await page.waitForSelector('[data-testid=tournament-list]');
    const row = await page.textContent('[data-testid=tournament-list] li');
    assert.match(row, /Cup of the Levant/);
    assert.match(row, /finished/);
    // the champion's trophy is an inline SVG (no emoji font needed: issue 28), named for screen readers
    assert.equal(await page.locator('[data-testid=tournament-list] li svg.trophy[role=img]').count(), 1);
    assert.doesNotMatch(row, /🏆/);
    assert.deepEqual(errors, [], 'no script errors on the page');
  } catch (e) {
    await screenshots('tournament', [page]);
    throw e;
  } finally {
    await ctx.close();
  }
});
