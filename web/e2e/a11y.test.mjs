// Accessibility audit (issue 14): axe-core checks every screen of the browser client (tour.mjs)
// in English and in Arabic, on a desktop and a phone screen; any violation of impact "serious" or "critical" fails the test, and
// each one is printed with its rule, help page and the elements it was found on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, screenshots, DESKTOP, PHONE, audit } from './harness.mjs';
import { tour, SCREENS } from './tour.mjs';

// quick play's fill time past the audit of its waiting room (tour.mjs)
const env = useServer({ botDelayMs: 0, extra: ['--quick-fill-seconds', '600'] });

for (const [lang, size, opts] of [['en', 'desktop', DESKTOP], ['ar', 'desktop', DESKTOP], ['en', 'phone', PHONE], ['ar', 'phone', PHONE]]) {
  test(`${lang}, ${size}: no serious or critical axe-core violation on any screen`, async () => {
    const ctx = await env.br.browser.newContext({ ...opts, reducedMotion: 'reduce' });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const found = [];
    const visited = [];
    try {
      await tour(page, env.srv.url, lang, `Axe${lang}${size}${Date.now() % 100000}`, async (screen) => {
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
