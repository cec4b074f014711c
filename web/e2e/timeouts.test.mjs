// Issue 26: the server falls silent (its process stopped with SIGSTOP: the socket stays open and
// nothing answers) while the page waits for the answer to a bid. The page's time limits
// (src/conn.ts CONN_LIMITS) drop the socket and free the bid buttons; once the server runs again
// (SIGCONT) the page opens a new socket, signs in with its token and plays on: no reload.
// The page runs on Playwright's clock (page.clock), so the limits pass at once: the test waits
// for events only, never for time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, signIn, createTable, clickSure, untilFrame, frameMark, socketLog, step, DESKTOP } from './harness.mjs';

const env = useServer({ botDelayMs: 0 });

test('a silent server: the unanswered bid drops the socket, the page reconnects with its token and plays on', async () => {
  await env.withPage('timeouts-silent', DESKTOP, async (page) => {
    await page.clock.install();
    await signIn(page, env.srv.url, `Nour${Date.now() % 100000}`, 'en');
    const table = await createTable(page, { target: 7, timer: 0, bots: true });
    await clickSure(page, '[data-act=start]:not([disabled])');
    await page.waitForSelector('.bids [data-act=call]:not([disabled])'); // the page's turn to bid
    const before = await page.evaluate(() => ({ version: window.tarneeb.state.table.version, token: window.tarneeb.state.token }));
    const bid = await page.$eval('.bids [data-act=call]:not([disabled])', (b) => b.dataset.bid);
    const from = frameMark(page);
    env.srv.pause();
    let act;
    try {
      await clickSure(page, `.bids [data-bid="${bid}"]`);
      act = await untilFrame(page, (fs) => fs.slice(from).find((f) => f.dir === '>' && f.m?.type === 'act'), 'the bid sent');
      assert.equal(await page.evaluate(() => window.tarneeb.state.actedVersion), before.version, 'the page waits for the answer');
      // the page's own limit (CONN_LIMITS.requestTimeoutMs; a ping's pong limit may run out first: either drops the socket)
      await page.clock.runFor(await page.evaluate(() => window.tarneeb.conn.limits.requestTimeoutMs));
      // the socket is given up, and no action is left pending
      await page.waitForFunction(() => window.tarneeb.state.conn !== 'open' && window.tarneeb.state.actedVersion === null);
      const answered = socketLog(page).frames.slice(from).some((f) => f.dir === '<' && f.ws === act.ws);
      assert.equal(answered, false, 'the silent server answered nothing');
    } finally {
      env.srv.resume();
    }
    // a new socket signs in with the token kept; the server's welcome names the table
    const hello = await untilFrame(
      page,
      (fs) => fs.slice(from).find((f) => f.dir === '>' && f.m?.type === 'hello' && f.ws !== act.ws),
      'hello on a new socket',
    );
    assert.equal(hello.m.token, before.token);
    const welcome = await untilFrame(
      page,
      (fs) => fs.slice(from).find((f) => f.dir === '<' && f.ws === hello.ws && f.m?.id === hello.m.id),
      'the answer to the new hello',
    );
    assert.equal(welcome.m.type, 'welcome', JSON.stringify(welcome.m));
    assert.equal(welcome.m.table, table);
    // the page shows the server's table (the bid sent before the silence was applied when the
    // server woke up) and plays on by itself
    await page.waitForFunction(
      ([t, v]) => {
        const s = window.tarneeb.state;
        return s.conn === 'open' && s.welcomed && s.table?.table === t && s.table.version > v && s.actedVersion === null;
      },
      [table, before.version],
    );
    assert.equal(await page.locator('.conn-bar').count(), 0, 'no reconnecting bar');
    const next = await step(page);
    assert.ok(['call', 'trump', 'card', 'over'].includes(next.kind), JSON.stringify(next));
  });
});
