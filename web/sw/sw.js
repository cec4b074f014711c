// The service worker (PWA, issue 14): it caches the app shell and the WebAssembly engine so that
// the page loads and plays offline (Play offline) after one online load. Built by the `sw`
// plugin of vite.config.ts into dist/sw.js, which replaces PRECACHE with every file of the build
// (hashed assets, public/wasm, the manifest and icons) and VERSION with a hash of that list.
//
// Never from the cache: anything but a same-origin GET, the WebSocket (/ws), the HTTP API
// (/api/…), /healthz and /metrics: the online game always talks to the server itself.
// Pages (navigations) go to the network first and fall back to the cached index.html; the
// other files of the build are served from the cache first (their names change with their
// content, the wasm's with the build's VERSION).
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
  if (req.mode === 'navigate') {
    event.respondWith(
      fetch(req).catch(() => caches.open(CACHE).then((c) => c.match(new URL('./', scope).href)).then((r) => r ?? Response.error())),
    );
    return;
  }
  event.respondWith(
    caches.open(CACHE).then((c) => c.match(req, { ignoreSearch: true }).then((hit) => hit ?? fetch(req))),
  );
});
