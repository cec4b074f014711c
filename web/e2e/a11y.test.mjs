// Accessibility audit (issue 14): axe-core checks every screen of the browser client (tour.mjs)
// in English and in Arabic, on a desktop and a phone screen; any violation of impact "serious" or "critical" fails the test, and
// each one is printed with its rule, help page and the elements it was found on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { startServer, launchBrowser, screenshots, DESKTOP, PHONE } from './harness.mjs';
import { tour, SCREENS } from './tour.mjs';

const axePath = createRequire(import.meta.url).resolve('axe-core');

let srv;
let br;
before(async () => {
  srv = await startServer({ botDelayMs: 0 });
  br = await launchBrowser();
});
after(async () => {
  await br?.close();
  await srv?.stop();
});

/** The serious and critical violations of axe-core's rules on the page as it is now, as text lines. */
async function audit(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ path: axePath });
  const { violations, passed } = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return { violations: r.violations, passed: r.passes.length };
  });
  assert.ok(passed > 10, `axe-core checked the page (${passed} rules passed)`);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.helpUrl})\n` +
        v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary.replace(/\s*\n\s*/g, '; ')}`).join('\n'),
    );
}

for (const [lang, size, opts] of [['en', 'desktop', DESKTOP], ['ar', 'desktop', DESKTOP], ['en', 'phone', PHONE], ['ar', 'phone', PHONE]]) {
  test(`${lang}, ${size}: no serious or critical axe-core violation on any screen`, async () => {
    const ctx = await br.browser.newContext({ ...opts, reducedMotion: 'reduce' });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const found = [];
    const visited = [];
    try {
      await tour(page, srv.url, lang, `Axe${lang}${size}${Date.now() % 100000}`, async (screen) => {
        visited.push(screen);
        assert.equal(await page.getAttribute('html', 'lang'), lang);
        assert.equal(await page.getAttribute('html', 'dir'), lang === 'ar' ? 'rtl' : 'ltr');
        for (const line of await audit(page)) found.push(`[${lang} ${size} ${screen}] ${line}`);
      });
      assert.deepEqual(visited, SCREENS, 'every screen was visited');
      assert.deepEqual(found, [], `axe-core found serious or critical violations:\n${found.join('\n')}`);
      assert.deepEqual(errors, [], 'no script errors on the page');
    } catch (e) {
      await screenshots(`a11y-${lang}-${size}`, [page]);
      throw e;
    } finally {
      await ctx.close();
    }
  });
}
