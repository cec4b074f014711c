// Manual look: node e2e/shoot.mjs  -> test-results/look-*.png
import { playToEnd, startServer, launchBrowser, PHONE, DESKTOP, resultsDir, clickCard } from './harness.mjs';
import { mkdirSync } from 'node:fs';
mkdirSync(resultsDir, { recursive: true });
const srv = await startServer({ botDelayMs: 400 });
let close = async () => {};
try {
  const b = await launchBrowser();
  close = b.close;
  const browser = b.browser;
  const LAND = { viewport: { width: 780, height: 360 }, isMobile: true, hasTouch: true };
  const which = process.argv[2] ? [[process.argv[2], { phone: PHONE, desktop: DESKTOP, land: LAND }[process.argv[2]]]] : [['phone', PHONE], ['desktop', DESKTOP], ['land', LAND]];
  for (const [label, opts] of which) {
    for (const lang of ['en', 'ar']) {
      const ctx = await browser.newContext(opts);
      const page = await ctx.newPage();
      page.on('pageerror', (e) => console.log('pageerror', e.message));
      await page.goto(`${srv.url}/?lang=${lang}`);
      await page.screenshot({ path: `${resultsDir}/look-${label}-${lang}-0signin.png` });
      await page.fill('input[name=name]', `${label}${lang}${Date.now() % 1000}`);
      await page.click('form[data-form=signin] button[type=submit]');
      await page.waitForSelector('form[data-form=create]');
      await page.fill('input[name=target]', '14');
      await page.screenshot({ path: `${resultsDir}/look-${label}-${lang}-1lobby.png` });
      await page.click('form[data-form=create] button[type=submit]');
      await page.waitForSelector('[data-act=start]:not([disabled])');
      await page.screenshot({ path: `${resultsDir}/look-${label}-${lang}-2waiting.png` });
      await page.click('[data-act=start]');
      await page.waitForSelector('[data-act=call]:not([disabled])', { timeout: 15000 });
      await page.screenshot({ path: `${resultsDir}/look-${label}-${lang}-3auction.png` });
      await page.click('[data-bid="7"]');
      await page.waitForSelector('[data-act=trump]:not([disabled])', { timeout: 15000 });
      await page.screenshot({ path: `${resultsDir}/look-${label}-${lang}-4trump.png` });
      await page.click('.suit-btn.suggested');
      await page.waitForSelector('.hand .card.playable:not([disabled])', { timeout: 15000 });
      await clickCard(page, '.hand .card.playable:not([disabled])');
      await page.waitForSelector('.hand .card.playable:not([disabled])', { timeout: 15000 });
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${resultsDir}/look-${label}-${lang}-5play.png` });
      let shot = false;
      await playToEnd(page, {
        onStep: async () => {
          if (!shot && (await page.locator('[data-testid=summary]').count())) {
            shot = true;
            await page.screenshot({ path: `${resultsDir}/look-${label}-${lang}-6summary.png` });
          }
        },
      });
      await page.screenshot({ path: `${resultsDir}/look-${label}-${lang}-7over.png` });
      await ctx.close();
    }
  }
} finally {
  await close();
  await srv.stop();
}
