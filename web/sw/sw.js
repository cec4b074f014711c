// The service worker (PWA, issue 14): it caches the app shell and the WebAssembly engine so that
// the page loads and plays offline (Play offline) after one online load. Built by the `sw`
// plugin of vite.config.ts into dist/sw.js, which replaces PRECACHE with every file of the build
// (hashed assets, public/wasm, the manifest and icons) and VERSION with a hash of that list.
//
// Never from the cache: anything but a same-origin GET, the WebSocket (/ws), the HTTP API
// (/api/…), /healthz, and the metrics (/metrics, the Prometheus text, and /metrics.json: LIVE's
// "metrics" matches both): the online game always talks to the server itself.
// The hashed files (assets/…: their names change with their content) are served from the cache
// first; everything else (pages, the engine's wasm/ files, the manifest and icons, whose names
// stay the same across builds) from the network first, the cache answering only when the network
// fails (a page: the cached index.html). The cache is written at install only, so it always holds
// one build's files together: an online page never runs an old engine under a new page, and an
// offline one runs the last build whose service worker was installed.
const VERSION = '__VERSION__';
const PRECACHE = __PRECACHE__;
const CACHE = `tarneeb-${VERSION}`;

const scope = new URL(self.registration.scope);
const LIVE = /^\/(ws|api\/|healthz|metrics)/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(['./', ...PRECACHE].map((p) => new URL(p, scope).href)))
      .then(() => self.skipWaiting()),
  );
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
  if (path.startsWith('/assets/')) {
    event.respondWith(caches.open(CACHE).then((c) => c.match(req).then((hit) => hit ?? fetch(req))));
    return;
  }
  const fallback = req.mode === 'navigate' ? new URL('./', scope).href : req;
  event.respondWith(
    fetch(req).catch(() => caches.open(CACHE).then((c) => c.match(fallback, { ignoreSearch: true })).then((r) => r ?? Response.error())),
  );
});
