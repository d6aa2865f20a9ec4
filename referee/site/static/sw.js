// The service worker: every file of the site cached at install, served from the cache
// first, so that after the first visit the page works with no network. The cache's name
// and the file lists are written by `getaway-ref site`; a new build makes a new cache and
// drops the old one.
//
// The first visit is kept small on any web server: the files that compress well (the
// runtime's WebAssembly above all) are fetched as the gzip copies the site ships beside
// them (NAME.gz) and unpacked here with the browser's DecompressionStream, then cached
// under their own names with their own types. A browser without DecompressionStream
// fetches them as they are.
const CACHE = "__CACHE__";
const FILES = __FILES__;
const GZIPPED = __GZIPPED__;
const TYPES = { wasm: "application/wasm", mjs: "text/javascript", js: "text/javascript", json: "application/json",
  html: "text/html; charset=utf-8" };

async function unpacked(name) {
  const got = await fetch(new Request(`${name}.gz`, { cache: "no-cache" }));
  if (!got.ok) throw new Error(`${name}.gz: ${got.status}`);
  const body = got.body.pipeThrough(new DecompressionStream("gzip"));
  const type = TYPES[name.split(".").pop()] || "application/octet-stream";
  // read whole before caching: a broken copy fails the install rather than being kept
  const bytes = await new Response(body).arrayBuffer();
  return new Response(bytes, { headers: { "Content-Type": type } });
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const packed = typeof DecompressionStream === "function" ? new Set(GZIPPED) : new Set();
    await cache.addAll(FILES.filter((f) => !packed.has(f)).map((f) => new Request(f, { cache: "no-cache" })));
    for (const name of packed) await cache.put(new Request(name), await unpacked(name));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("getaway-ref-") && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(request, { ignoreSearch: true });
    if (hit) return hit;
    if (request.mode === "navigate") {
      const page = await cache.match("./index.html");
      if (page) return page;
    }
    return fetch(request);
  })());
});
