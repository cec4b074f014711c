// A tour of every screen of the browser client on one page, against a real server (harness.mjs):
// sign-in, lobby with its create form, a quick-play table's waiting room, waiting room, the table
// in the auction, the trump choice and the play, the last-trick window, the round summary, the
// score sheet, match over, the offline match, History and the replay of a match with its analysis. At each screen it calls
// `visit(name)` (the accessibility audit, a screenshot).
import { clickSure, createTable, fillField, lastFrames, leaveTable, playToEnd, step } from './harness.mjs';

/** The screens `tour` visits, in order (the names given to `visit`). */
export const SCREENS = [
  'signin', 'lobby', 'quick-waiting', 'waiting', 'table-auction', 'table-trump', 'table-play', 'last-trick', 'round-summary',
  'score-sheet', 'match-over', 'offline', 'history', 'replay-analysis',
];

/**
 * Bids on the page from the table's `legal` field: the highest legal bid when `high` (nobody can
 * outbid it, so this seat names trump), else the lowest, or pass when no bid is legal.
 */
export async function bidLegal(page, { high = false } = {}) {
  await page.waitForSelector('.bids [data-act=call]:not([disabled])');
  const { pick, version } = await page.evaluate((hi) => {
    const t = window.tarneeb.state.table;
    const bids = t.legal.filter((a) => typeof a.call === 'number').map((a) => a.call);
    const pick = bids.length ? String(hi ? Math.max(...bids) : Math.min(...bids)) : 'pass';
    return { pick, version: t.version };
  }, high);
  await clickSure(page, `.bids [data-bid="${pick}"]`);
  await page.waitForFunction((v) => window.tarneeb.state.table.version > v, version);
  return pick;
}

/** Closes the open window (last trick, score sheet) with its Close button. */
async function closeModal(page) {
  await clickSure(page, '.modal button[data-act=closemodal]');
  await page.waitForSelector('.modal', { state: 'detached' });
}

/**
 * Walks `page` through every screen in `lang` ("en" or "ar") against the server at `url`, as the
 * player `name`, calling `await visit(screen)` on each (names: SCREENS). The server should run
 * with no bot delay (startServer's default) and a summary pause of 0 or a few seconds (the
 * summary is visited as soon as it shows); the page's context should have reduced motion, so
 * that no panel is caught half faded in. The quick-play table is left before its fill time
 * (`--quick-fill-seconds`, 20 s by default: a server of a slow machine may make it longer).
 */
export async function tour(page, url, lang, name, visit) {
  // When a step times out, the error shows the page's last WebSocket frames (what it asked
  // and what the server answered, or did not).
  try {
    await walk(page, url, lang, name, visit);
  } catch (e) {
    e.message += `\nthe page's last WebSocket frames (> sent, < received):\n${lastFrames(page)}`;
    throw e;
  }
}

async function walk(page, url, lang, name, visit) {
  await page.goto(`${url}/?lang=${lang}&botdelay=0`);
  await page.waitForSelector('form[data-form=signin] button[type=submit]:not([disabled])');
  await visit('signin');
  await fillField(page, 'form[data-form=signin] input[name=name]', name, (n) => window.tarneeb.state.nameInput === n);
  await clickSure(page, 'form[data-form=signin] button[type=submit]');
  await page.waitForSelector('form[data-form=create]');
  await visit('lobby');

  // quick play: the table waits for people (nobody else comes), left before bots fill it
  await clickSure(page, '[data-testid=quick-play]');
  await page.waitForSelector('[data-testid=play-now]');
  await page.waitForSelector('[data-testid=quick-status] [data-fill-at]');
  await visit('quick-waiting');
  await leaveTable(page);

  // a long match for the table's screens: no round can end it
  await createTable(page, { target: 500, timer: 0, bots: true });
  await page.waitForSelector('[data-act=start]:not([disabled])');
  await visit('waiting');
  await clickSure(page, '[data-act=start]');
  await page.waitForSelector('.bids [data-act=call]:not([disabled])');
  await visit('table-auction');
  // the highest bid wins the auction: this seat names trump (when a bot bid 13 first, this seat
  // passes: the deal is played out and the next one's auction tried)
  const turn = '.bids [data-act=call]:not([disabled]), [data-act=trump]:not([disabled]), .hand .card.playable:not([disabled])';
  while ((await bidLegal(page, { high: true })) === 'pass') {
    for (;;) {
      await page.waitForSelector(turn);
      if (await page.locator('.bids [data-act=call]:not([disabled])').count()) break;
      await step(page);
    }
  }
  await page.waitForSelector('[data-act=trump]:not([disabled])');
  await visit('table-trump');
  await clickSure(page, '.suit-btn.suggested');
  // play until a trick is done and this seat's turn comes again (a trick on the table)
  let cards = 0;
  while (cards < 2) if ((await step(page)).kind === 'card') cards++;
  await page.waitForSelector('.hand .card.playable:not([disabled])');
  await visit('table-play');
  await clickSure(page, '[data-act=lasttrick]');
  await page.waitForSelector('[data-testid=won-by]');
  await visit('last-trick');
  await closeModal(page);
  // the rest of the deal: the summary shows when it is scored (and may hold the next deal's
  // clock: no turn comes until it goes), and the sheet has its line
  for (;;) {
    await page.waitForSelector(`[data-testid=summary] table, ${turn}`);
    if (await page.locator('[data-testid=summary] table').count()) break;
    await step(page);
  }
  await visit('round-summary');
  await clickSure(page, '[data-testid=score]'); // the score opens the sheet (the button is hidden on phones)
  await page.waitForSelector('.modal [data-testid=sheet] tbody tr');
  await visit('score-sheet');
  await closeModal(page);
  await leaveTable(page);

  // a match to one point ends with its first scored round
  await createTable(page, { target: 1, timer: 0, bots: true });
  await clickSure(page, '[data-act=start]');
  await playToEnd(page);
  await page.waitForSelector('[data-testid=match-over]');
  await visit('match-over');
  const id = String(await page.evaluate(() => window.tarneeb.state.matchOver.record));
  await leaveTable(page, '[data-testid=match-over] [data-act=leave]');

  // offline, from the lobby: seat 0's turn comes in the first deal
  await clickSure(page, '[data-testid=play-offline]');
  await page.waitForSelector('.hand .card');
  await page.waitForSelector('.bids [data-act=call]:not([disabled]), [data-act=trump]:not([disabled]), .hand .card.playable:not([disabled])');
  await visit('offline');
  await leaveTable(page);

  // History lists the match to one point; its replay at the fifth card of a played deal, analysed
  await clickSure(page, '[data-testid=history-link]');
  const row = `[data-testid=my-matches] a[data-match="${id}"]`;
  await page.waitForSelector(row);
  await visit('history');
  await clickSure(page, row);
  await page.waitForSelector('[data-testid=replay-board]');
  const deals = await page.evaluate(async (i) => (await (await fetch(`/api/matches/${encodeURIComponent(i)}`)).json()).result.deals, id);
  const deal = deals.findIndex((d) => d.trump !== null && d.play.length === 52);
  await page.selectOption('[data-ract=deal]', String(deal));
  const start = Number(await page.locator('[data-ract=slider]').inputValue());
  // the deal's steps: dealt, one per call, the trump (no card played), then one per card
  await page.locator('[data-ract=slider]').fill(String(start + 1 + deals[deal].auction.length + 4));
  await clickSure(page, '[data-ract=analyse]');
  await page.waitForSelector('.rc[data-value]', { timeout: 60000 });
  await visit('replay-analysis');
}
