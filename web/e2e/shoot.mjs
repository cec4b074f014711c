// Screenshots of every screen (tour.mjs) in English and Arabic at phone and desktop size, into
// docs/screenshots/<screen>-<lang>-<size>.png (viewport only, not the full page), each
// made about six times smaller by pngquant (Debian package pngquant) when it is installed.
//   node e2e/shoot.mjs [phone|desktop]   (needs web/dist and the server binary, as the e2e tests)
// Every icon is inline SVG (no emoji font needed). Taken with reduced motion: nothing moving.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startServer, launchBrowser, webDir } from './harness.mjs';
import { tour } from './tour.mjs';

const outDir = path.resolve(webDir, '../docs/screenshots');
const SIZES = {
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
};
const sizes = process.argv[2] ? [process.argv[2]] : Object.keys(SIZES);
mkdirSync(outDir, { recursive: true });

/** Quantises the PNG in place (256 colours at most); false when pngquant is not installed. */
function shrink(file) {
  const r = spawnSync('pngquant', ['--quality', '65-95', '--speed', '1', '--strip', '--force', '--ext', '.png', file]);
  if (r.error) return false;
  if (r.status !== 0 && r.status !== 99) throw new Error(`pngquant failed on ${file}: ${r.stderr}`);
  return true;
}
let warned = false;

// the server's default summary pause: the round summary holds the centre of the table alone
const srv = await startServer({ botDelayMs: 0, summaryMs: 4000 });
const { browser, close } = await launchBrowser();
try {
  for (const size of sizes) {
    for (const lang of ['en', 'ar']) {
      const ctx = await browser.newContext({ ...SIZES[size], reducedMotion: 'reduce' });
      const page = await ctx.newPage();
      page.on('pageerror', (e) => console.log('pageerror', e.message));
      // a name that reads as a name in each language
      const name = lang === 'ar' ? 'ليلى' : 'Layla';
      await tour(page, srv.url, lang, `${name}${size === 'phone' ? 1 : 2}`, async (screen) => {
        const file = path.join(outDir, `${screen}-${lang}-${size}.png`);
        await page.screenshot({ path: file });
        if (!shrink(file) && !warned) {
          warned = true;
          console.warn('pngquant is not installed: the screenshots are left at full size');
        }
        console.log(path.relative(process.cwd(), file));
      });
      await ctx.close();
    }
  }
} finally {
  await close();
  await srv.stop();
}
