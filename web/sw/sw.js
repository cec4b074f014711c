// The service worker (PWA, issues 14 and 28): it keeps one build of the page — the app shell, its
// hashed assets and the WebAssembly engine — in a cache of its own and serves the page from it,
// so that the page loads and plays offline (Play offline) after one online load, and a tab keeps
// running the build it was loaded with after a deploy. Built by the `sw` plugin of
// vite.config.ts into dist/sw.js, which replaces PRECACHE with every file of the build (hashed
// assets, public/wasm, the manifest and icons) and VERSION with a hash of that list.
//
// One version as a whole: the cache is filled at install, every file fetched past the HTTP cache
// (`cache: 'reload'`), and nothing else is written to it. Every file of the build, and every
// page (the cached index.html), is answered from this cache first, the network answering only
// what the cache lacks. So a page and the engine it imports are always of the same build: the
// worker that controls a tab is the build of that tab.
//
// Updates: the browser fetches sw.js at each navigation (and the page asks now and then,
// src/updates.ts); a changed sw.js is a new build, installed beside the running one. It does
// not take over (no skipWaiting at install): it waits until a page posts {type: 'skip-waiting'}
// (the person pressed Reload under "a new version is ready"), then activates, deletes the older
// builds' caches and takes over every tab, which reload into it. Until then the running tabs
// keep the old worker and its cache, so their lazily loaded code (the offline game, the engine)
// is still there even though the server has the new build's files only.
//
// Never from the cache: anything but a same-origin GET, the WebSocket (/ws), the HTTP API
// (/api/…), /healthz, and the metrics (/metrics, the Prometheus text, and /metrics.json: LIVE's
// "metrics" matches both): the online game always talks to the server itself.
const VERSION = '__VERSION__';
const PRECACHE = __PRECACHE__;
const CACHE = `tarneeb-${VERSION}`;

const scope = new URL(self.registration.scope);
const LIVE = /^\/(ws|api\/|healthz|metrics)/;
const INDEX = new URL('./', scope).href;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(['./', ...PRECACHE].map((p) => new Request(new URL(p, scope).href, { cache: 'reload' })))),
  );
});

// The page agrees to the new version (src/updates.ts SKIP_WAITING).
self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'skip-waiting') self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('tarneeb-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== scope.origin) return;
  const path = '/' + url.pathname.slice(scope.pathname.length);
  if (LIVE.test(path)) return;
  // a page (any address of the app: ?lang=, #/history…) is the build's index.html
  const key = req.mode === 'navigate' ? INDEX : req;
  event.respondWith(
    caches
      .open(CACHE)
      .then((c) => c.match(key, { ignoreSearch: true }))
      .then((hit) => hit ?? fetch(req)),
  );
});
