// The service worker: the site's files cached, then served from the cache first, so that
// after the first visit the page works with no network. The cache's name and the file lists
// are written by `getaway-ref site`; a new build makes a new cache and drops the old one.
//
// What a visit caches is what the visitor's language needs: at install, every file any
// language needs (the runtime, the package's zip, the scripts) and the English pages (English
// is the fallback), and the files of each language an open page is in (its pages, its
// manifest, its catalogues). Another language's files are cached when a page in it is opened
// online, when its page asks for them (the picker: lang.js posts {keep: code}), or when its
// catalogue is fetched; a new build caches again every language the old cache held.
//
// The first visit is kept small on any web server: the files that compress well (the
// runtime's WebAssembly above all) are fetched as the gzip copies the site ships beside
// them (NAME.gz) and unpacked here with the browser's DecompressionStream, then cached
// under their own names with their own types. A browser without DecompressionStream
// fetches them as they are. A file an open page has just loaded is asked again as it is,
// so that the browser's own cache answers (not modified) instead of the server sending it twice.
const CACHE = "__CACHE__";
const FILES = __FILES__; // every language's files, and the English pages
const LANGUAGES = __LANGUAGES__; // {code: [its pages, manifest and catalogues]}, English aside
const GZIPPED = __GZIPPED__;
const TYPES = { wasm: "application/wasm", mjs: "text/javascript", js: "text/javascript", json: "application/json",
  html: "text/html; charset=utf-8", mo: "application/octet-stream" };
const packed = typeof DecompressionStream === "function" ? new Set(GZIPPED) : new Set();
const scope = new URL("./", self.location).href;

// A file's name in the site (index.ur.html, pyodide/pyodide.asm.wasm) from a URL of it.
function nameOf(url) {
  const u = new URL(url, scope);
  u.search = "";
  u.hash = "";
  return u.href.startsWith(scope) ? decodeURIComponent(u.href.slice(scope.length)) : null;
}

// The language whose own file this is (index.ur.html: ur), or null (a file every language needs).
function languageOf(name) {
  for (const [code, files] of Object.entries(LANGUAGES)) if (files.includes(name)) return code;
  return null;
}

async function unpacked(name) {
  const got = await fetch(new Request(`${name}.gz`, { cache: "no-cache" }));
  if (!got.ok) throw new Error(`${name}.gz: ${got.status}`);
  const body = got.body.pipeThrough(new DecompressionStream("gzip"));
  const type = TYPES[name.split(".").pop()] || "application/octet-stream";
  // read whole before caching: a broken copy fails the install rather than being kept
  const bytes = await new Response(body).arrayBuffer();
  return new Response(bytes, { headers: { "Content-Type": type } });
}

// A file from the server into the cache: its gzip copy unpacked, or itself (`open`: a page open
// now has just loaded it, so the browser's cache holds it and the server sends nothing again).
async function fetched(name, open) {
  if (packed.has(name) && !open) return unpacked(name);
  const got = await fetch(new Request(name, { cache: "no-cache" }));
  if (!got.ok) throw new Error(`${name}: ${got.status}`);
  return got;
}

// Each file fetched once at a time, however many ask for it (a page and its worker, the picker).
const fetching = new Map();
function keepFile(cache, name, open) {
  if (!fetching.has(name)) {
    fetching.set(name, (async () => {
      try {
        if (!(await cache.match(name))) await cache.put(new Request(name), await fetched(name, open));
      } finally {
        fetching.delete(name);
      }
    })());
  }
  return fetching.get(name);
}

// A language's files in the cache (those missing fetched), so that its pages open offline.
async function keepLanguage(code) {
  if (!LANGUAGES[code]) return;
  const cache = await caches.open(CACHE);
  await Promise.all(LANGUAGES[code].map((name) => keepFile(cache, name, false)));
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // the pages open now (the one that registered this worker) and their languages
    const open = new Set();
    for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
      const name = nameOf(client.url);
      if (name !== null) open.add(name);
    }
    const languages = new Set([...open].map(languageOf).filter(Boolean));
    // and every language the cache of the build before held (a player's pick stays offline)
    for (const key of await caches.keys()) {
      if (!key.startsWith("getaway-ref-") || key === CACHE || key === "getaway-ref-bytecode") continue;
      const old = await caches.open(key);
      for (const [code, files] of Object.entries(LANGUAGES)) {
        for (const name of files) {
          if (await old.match(name)) {
            languages.add(code);
            break;
          }
        }
      }
    }
    const wanted = [...FILES, ...[...languages].flatMap((code) => LANGUAGES[code])];
    await Promise.all(wanted.map((name) => keepFile(cache, name, open.has(name))));
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

// A page asks for its language to be kept (lang.js: on opening, and on the picker's choice).
self.addEventListener("message", (event) => {
  const code = event.data && event.data.keep;
  if (typeof code === "string" && LANGUAGES[code]) event.waitUntil(keepLanguage(code).catch(() => {}));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(request, { ignoreSearch: true });
    if (hit) return hit;
    const name = nameOf(request.url);
    const code = name === null ? null : languageOf(name);
    if (code) {
      // a language not kept yet: its file from the server, kept, and the rest of its files after
      try {
        await keepFile(cache, name, false);
        event.waitUntil(keepLanguage(code).catch(() => {}));
        const kept = await cache.match(name);
        if (kept) return kept;
      } catch (e) {
        // no network: a page falls back to its English one (below)
      }
    }
    if (request.mode === "navigate") {
      // the same page in English (table.ur.html: table.html), else the first page
      const english = name && name.replace(/\.[A-Za-z_]+\.html$/, ".html");
      const page = (english && (await cache.match(english))) || (await cache.match("index.html"));
      if (page) return page;
    }
    return fetch(request);
  })());
});
