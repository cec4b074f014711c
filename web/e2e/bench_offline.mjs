// The offline engine's numbers for docs/performance.md "Offline engine (WebAssembly)": the
// .wasm's size (raw and gzip), its load time in Chromium (first visit over the network from a
// local tarneeb serve, then from the service worker's cache with the network off), and the
// heuristic bot's time per deal in WebAssembly (Chromium and Node) against native
// (bots_bench BM_HeuristicDeal, the same loop). Not a test: nothing is asserted.
//   cd web && npm run build && TARNEEB_BIN=../build/release/tarneeb node e2e/bench_offline.mjs
// BOTS_BENCH=path/to/bots_bench adds the native figure (default ../build/release/bench/bots_bench).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { startServer, launchBrowser, webDir, DESKTOP } from './harness.mjs';

const wasmDir = path.join(webDir, 'dist', 'wasm');
const wasm = readFileSync(path.join(wasmDir, 'tarneeb-offline.wasm'));
const js = readFileSync(path.join(wasmDir, 'tarneeb-offline.mjs'));
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`wasm: ${kb(wasm.length)} raw, ${kb(gzipSync(wasm, { level: 9 }).length)} gzip -9`);
console.log(`glue (.mjs): ${kb(js.length)} raw, ${kb(gzipSync(js, { level: 9 }).length)} gzip -9`);

const DEALS = 2000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// ---- Chromium --------------------------------------------------------------------------
const srv = await startServer();
const br = await launchBrowser();
try {
  const loads = [];
  const cached = [];
  let chromeDeal = [];
  let chromeStep = [];
  for (let i = 0; i < 5; i++) {
    const ctx = await br.browser.newContext(DESKTOP);
    const page = await ctx.newPage();
    await page.goto(`${srv.url}/?lang=en`);
    // first visit: the module and the .wasm come over the network (a local server)
    const loadEngine = async () =>
      page.evaluate(async () => {
        const t0 = performance.now();
        const m = await import(new URL(`wasm/tarneeb-offline.mjs?${Math.random()}`, document.baseURI).href);
        const mod = await m.default({});
        const ms = performance.now() - t0;
        window.__engine = mod;
        return ms;
      });
    loads.push(await loadEngine());
    if (i === 0) {
      const r = await page.evaluate((deals) => {
        const mod = window.__engine;
        mod.benchHeuristicDeals(50); // warm up
        const times = [];
        for (let k = 0; k < 5; k++) {
          const t0 = performance.now();
          mod.benchHeuristicDeals(deals);
          times.push(((performance.now() - t0) * 1000) / deals);
        }
        // one offline match per level: the time of each bot step (decision + table message JSON)
        const steps = {};
        for (const level of ['medium', 'hard']) {
          const g = new mod.OfflineMatch();
          let tv = JSON.parse(g.start(JSON.stringify({ seed: '5eed', target: 31, level }), Date.now()));
          steps[level] = [];
          while (tv.state === 'playing') {
            if (tv.legal.length) tv = JSON.parse(g.act(JSON.stringify(tv.legal[0]), Date.now()));
            else {
              const t0 = performance.now();
              tv = JSON.parse(g.step(Date.now()));
              steps[level].push(performance.now() - t0);
            }
          }
          g.delete();
        }
        return { times, steps };
      }, DEALS);
      chromeDeal = r.times;
      chromeStep = r.steps;
    }
    // after the service worker cached it: offline, from the cache
    await page.evaluate(async () => navigator.serviceWorker.ready);
    await ctx.setOffline(true);
    await page.reload();
    cached.push(
      await page.evaluate(async () => {
        const t0 = performance.now();
        const m = await import(new URL('wasm/tarneeb-offline.mjs', document.baseURI).href);
        await m.default({});
        return performance.now() - t0;
      }),
    );
    await ctx.close();
  }
  console.log(`Chromium load (fetch + compile + instantiate), first visit: median ${median(loads).toFixed(1)} ms of ${loads.map((x) => x.toFixed(1)).join(', ')}`);
  console.log(`Chromium load from the service worker cache, offline: median ${median(cached).toFixed(1)} ms of ${cached.map((x) => x.toFixed(1)).join(', ')}`);
  console.log(`Chromium heuristic deal (BM_HeuristicDeal loop): ${chromeDeal.map((x) => x.toFixed(1)).join(', ')} µs`);
  for (const [level, steps] of Object.entries(chromeStep))
    console.log(`Chromium bot step (decision + table message), level ${level}, ${steps.length} steps: median ${median(steps).toFixed(2)} ms, max ${Math.max(...steps).toFixed(2)} ms`);
} finally {
  await br.close();
  await srv.stop();
}

// ---- Node ---------------------------------------------------------------------------------
globalThis.require ??= createRequire(import.meta.url);
globalThis.__dirname ??= wasmDir;
{
  const t0 = performance.now();
  const m = await import(pathToFileURL(path.join(wasmDir, 'tarneeb-offline.mjs')).href);
  const mod = await m.default({ wasmBinary: wasm });
  console.log(`Node load (compile + instantiate, bytes in memory): ${(performance.now() - t0).toFixed(1)} ms`);
  mod.benchHeuristicDeals(50);
  const times = [];
  for (let k = 0; k < 5; k++) {
    const t1 = performance.now();
    mod.benchHeuristicDeals(DEALS);
    times.push(((performance.now() - t1) * 1000) / DEALS);
  }
  console.log(`Node heuristic deal (BM_HeuristicDeal loop): ${times.map((x) => x.toFixed(1)).join(', ')} µs`);
}

// ---- native -------------------------------------------------------------------------------
const native = process.env.BOTS_BENCH || path.resolve(webDir, '../build/release/bench/bots_bench');
if (existsSync(native)) {
  const out = execFileSync(native, ['--benchmark_filter=BM_HeuristicDeal', '--benchmark_repetitions=5'], { encoding: 'utf8' });
  console.log(`native (${native}):\n${out.split('\n').filter((l) => l.startsWith('BM_')).join('\n')}`);
} else console.log(`native: ${native} not found (BOTS_BENCH=…)`);
