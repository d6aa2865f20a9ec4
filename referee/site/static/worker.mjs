// The engine's thread: Pyodide, the package's zip, and the command line's own commands
// (referee/site/browser.py) answering the page's messages {id, op, args} with {id, value}
// or {id, error}. Every file comes from this site (the service worker's cache once visited).
//
// A start from the cache is kept short (docs/offline.md, "Speed"):
// - a memory snapshot: after the first start, a second, short-lived worker (this script, named
//   "snapshot") starts Pyodide, imports the package and builds the parser, and keeps the
//   interpreter's memory as it then is in the browser's cache; the next start restores it
//   instead of starting Python and importing (Pyodide's _makeSnapshot/_loadSnapshot, pinned
//   with the runtime's version). A snapshot that cannot be restored is dropped, and Pyodide
//   starts as it would without one;
// - the package's zip is fetched while Pyodide starts, not after;
// - without a snapshot, the compiled modules Python wrote at the start before (their .pyc
//   and the parser lark built) are put back before anything is imported
//   (referee/site/bytecode.py), so the modules are not compiled again;
// - what the start made is frozen out of the garbage collector's way (browser.settle).
//
// The catalogues (.mo) are not in the zip: each is a file of the site, fetched the first time
// a page asks in its language and written where the package reads it, so that a visit
// fetches (and the service worker keeps) only its own language's.
import { loadPyodide } from "./pyodide/pyodide.mjs";
import createModule from "./pyodide/pyodide.asm.mjs";

const here = new URL(".", import.meta.url);
const RUNTIME = "__PYODIDE__"; // the runtime's version, written by `getaway-ref site`
const LIB = "/home/pyodide/lib";
const ENV = { HOME: "/home/pyodide", GETAWAY_CACHE_DIR: "/home/pyodide/.cache/getaway-ref" };
const KEPT = "getaway-ref-bytecode"; // a cache of its own (the service worker drops it with a new build)
const MAKING = self.name === "snapshot"; // the worker that makes the snapshot (below)
const CATALOGUES = __CATALOGUES__; // {code: [its .mo files' paths, the same in the site and in the package]}

// A start or a question that fails in our own code is told to the page as a fault, {key, why}
// (the network's or the runtime's own words in why, as they are): the page says it in its
// language (lang.js: told); a worker has no catalogue before Python starts.
function fault(key, why) {
  return Object.assign(new Error(`${key}: ${why}`), { fault: { key, why: String(why) } });
}

// The zip's bytes, and the name what is kept for exactly this zip and this runtime is kept under.
const zipped = fetch(new URL("getaway-ref.zip", here)).then((r) => {
  if (!r.ok) throw fault("zip", `getaway-ref.zip: HTTP ${r.status}`);
  return r.arrayBuffer();
}, (e) => {
  throw fault("zip", `getaway-ref.zip: ${(e && e.message) || e}`);
});
const keyed = zipped.then((zip) => crypto.subtle.digest("SHA-256", zip)).then((d) => {
  const hex = [...new Uint8Array(d)].slice(0, 12).map((b) => b.toString(16).padStart(2, "0")).join("");
  return (what) => new URL(`kept/${RUNTIME}/${hex}.${what}`, here).href;
});

async function cached(key) {
  try {
    return (await (await caches.open(KEPT)).match(key)) || null;
  } catch (e) {
    return null; // no cache here (a private window): nothing kept
  }
}

async function keep(key, bytes, type) {
  try {
    await (await caches.open(KEPT)).put(key, new Response(bytes, { headers: { "Content-Type": type } }));
  } catch (e) {
    // not kept: the next start does without
  }
}

async function forget(key) {
  try {
    await (await caches.open(KEPT)).delete(key);
  } catch (e) {
    // nothing to forget
  }
}

// Pyodide started: from the snapshot if one is kept (and restores), else from nothing.
async function boot(name) {
  const options = { indexURL: new URL("pyodide/", here).href, env: ENV };
  const snapshot = MAKING ? null : await cached(name("snapshot"));
  if (snapshot) {
    try {
      const bytes = await snapshot.arrayBuffer();
      // The interpreter's memory grown to the snapshot's size before it is copied in: this
      // runtime sizes it as a fresh start needs, and a snapshot taken after the package's
      // imports is larger.
      const grow = (Module) => {
        if (bytes.byteLength > Module.HEAP8.length) Module._sbrk(bytes.byteLength - Module._sbrk(0));
      };
      const createPyodideModule = (settings) => createModule({ ...settings, preRun: [...(settings.preRun || []), grow] });
      return { pyodide: await loadPyodide({ ...options, _loadSnapshot: bytes, createPyodideModule }), restored: true };
    } catch (e) {
      await forget(name("snapshot")); // made by another build of the browser, or damaged
    }
  }
  return { pyodide: await loadPyodide({ ...options, _makeSnapshot: MAKING }), restored: false };
}

// The package's files in Pyodide's file system (a restored snapshot has its modules, not its
// files: the grammar and the documents are read from them), with the compiled modules kept.
async function unpack(pyodide, name, restored) {
  pyodide.unpackArchive(await zipped, "zip", { extractDir: LIB });
  const compiled = restored ? null : await cached(name("pyc.zip"));
  if (compiled) pyodide.unpackArchive(await compiled.arrayBuffer(), "zip", { extractDir: "/" });
  // Every source gets the one time the kept .pyc files were checked against (the zip's files
  // are unpacked with the time of now), before anything is imported from them.
  pyodide.runPython(`import os, sys
for d, _, fs in os.walk(${JSON.stringify(LIB)}):
    for f in fs:
        if f.endswith(".py"):
            os.utime(os.path.join(d, f), (315532800, 315532800))
sys.dont_write_bytecode = False  # Pyodide's default is not to write them: here they are kept
if ${JSON.stringify(LIB)} not in sys.path:
    sys.path.insert(0, ${JSON.stringify(LIB)})`);
  return Boolean(compiled);
}

const started = (async () => {
  const t0 = performance.now();
  const name = await keyed;
  const { pyodide, restored } = await boot(name).catch((e) => {
    throw fault("runtime", (e && e.message) || e);
  });
  const t1 = performance.now();
  const compiled = await unpack(pyodide, name, restored);
  const t2 = performance.now();
  const browser = pyodide.pyimport("referee.site.browser");
  const t3 = performance.now();
  browser.warm();
  const t4 = performance.now();
  const version = pyodide.runPython("import referee; referee.__version__");
  const bytecode = pyodide.pyimport("referee.site.bytecode");
  let count = compiled || restored ? bytecode.count() : 0;
  // The compiled modules kept for the next start, again whenever more have been imported.
  const keepCompiled = () => {
    if (restored || MAKING) return;
    const now = bytecode.count();
    if (now <= count) return;
    count = now;
    keep(name("pyc.zip"), pyodide.FS.readFile(bytecode.bundle()), "application/zip");
  };
  let answers = null; // legal and ask: imported on the first question (the table's modules, rich)
  const table = () => (answers ??= (setTimeout(keepCompiled, 0), pyodide.pyimport("referee.site.answers")));
  let seated = null; // the offline table (serve's Table): imported when table.html opens a game
  const live = () => (seated ??= (setTimeout(keepCompiled, 0), pyodide.pyimport("referee.site.table")));
  let solver = null; // review: imported on the first review (in the page's worker for reviews)
  const reviewer = () => (solver ??= (setTimeout(keepCompiled, 0), pyodide.pyimport("referee.site.review")));
  if (MAKING) {
    table();
    live();
    reviewer();
    // what a check imports on its way (its reports), so that the first check after a start is quick
    browser.check("%gwy 1\n", "warm.gwy", true);
    browser.check("%gwy 1\n", "warm.gwy", false);
    browser.settle();
    await keep(name("snapshot"), pyodide.makeMemorySnapshot(), "application/octet-stream");
  } else {
    setTimeout(keepCompiled, 0);
  }
  // Where the start-up goes (bench/site.py reports it): the runtime, the zip, the imports, the parser.
  const stages = { runtime: t1 - t0, zip: t2 - t1, imports: t3 - t2, parser: t4 - t3 };
  return { browser, table, live, reviewer, version, pyodide: pyodide.version, ms: t4 - t0, stages, restored, compiled, name,
    runtime: pyodide };
})();

// A language's catalogues in the package's folder, fetched once (before the first question
// in it: the package reads a catalogue on its first use, and keeps what it found). One that
// cannot be fetched (offline, its language never kept) leaves that language's answers in English.
const spoken = new Map();
function catalogues(ready, lang) {
  if (!CATALOGUES[lang]) return null;
  if (!spoken.has(lang)) {
    spoken.set(lang, Promise.all(CATALOGUES[lang].map(async (path) => {
      try {
        const got = await fetch(new URL(path, here));
        if (!got.ok) return;
        const bytes = new Uint8Array(await got.arrayBuffer());
        const file = `${LIB}/${path}`;
        ready.runtime.FS.mkdirTree(file.slice(0, file.lastIndexOf("/")));
        ready.runtime.FS.writeFile(file, bytes);
      } catch (e) {
        // not here: said in English
      }
    })));
  }
  return spoken.get(lang);
}

// With no snapshot kept, one is made by a worker of its own once this one has started (a while
// after, so that the page's first questions are not slowed), for the next start.
let making = null;
function snapshotLater(ready) {
  if (MAKING || ready.restored || making) return;
  making = (async () => {
    if (await cached(ready.name("snapshot"))) return;
    await new Promise((r) => setTimeout(r, 1500));
    const w = new Worker(new URL("worker.mjs", here), { type: "module", name: "snapshot" });
    await new Promise((resolve) => {
      w.onmessage = resolve;
      w.onerror = resolve;
      w.postMessage({ id: 0, op: "ready", args: [] });
    });
    w.terminate();
  })();
}

const ops = {
  check: (r, [text, name]) => r.browser.check(text, name ?? null, true),
  checkText: (r, [text, name]) => r.browser.check(text, name ?? null, false),
  legal: (r, [text, name]) => r.table().legal(text, name ?? null),
  ask: (r, [text, trick, seat, name]) => r.table().ask(text, trick, seat ?? null, name ?? null),
  // table.html: open a record (or, with no text, a new game), and serve's routes on it.
  tableOpen: (r, [text, name, seats, rules]) => r.live().open_game(text, name, seats ?? null, rules ?? null),
  table: (r, [path, body]) => r.live().call(path, body),
  tableShare: (r) => r.live().share(),
  // review (--format json, or its text), each play's progress sent as it is reached: {id, progress}.
  review: (r, [text, name, asJson, hold], id) =>
    r.reviewer().review(text, name ?? null, Boolean(asJson), (game, done, total) => {
      postMessage({ id, progress: { game, done, total } });
      hold = held(hold);
    }),
};

// A test's hold on a review (tests/test_site.py), inert unless asked: given a blob: URL the
// page made (review's `hold` option; no page of the site passes one), the review's thread
// stops after its first play is told, until the page revokes that URL. So a test asks its
// question while the review is certainly still running, whatever the machine's load. The
// thread is held by synchronous reads of the URL, the one wait a Worker has without
// cross-origin isolation (a blob is no network: it works offline), until one fails.
function held(url) {
  while (url) {
    const read = new XMLHttpRequest();
    try {
      read.open("GET", url, false);
      read.send();
    } catch (e) {
      return null; // revoked: the review goes on
    }
  }
  return null;
}

self.onmessage = async (event) => {
  const { id, op, args, lang } = event.data;
  try {
    const ready = await started;
    // each question in the asking page's language (lang.js): a machine format's run sets English for its own
    if (lang) {
      await catalogues(ready, lang);
      ready.browser.speak(lang);
    }
    if (op === "ready") {
      const { version, pyodide, ms, stages, restored, compiled } = ready;
      postMessage({ id, value: { version, pyodide, ms, stages, restored, compiled } });
      snapshotLater(ready);
      return;
    }
    const run = ops[op];
    if (!run) throw fault("question", op);
    postMessage({ id, value: JSON.parse(run(ready, args, id)) });
  } catch (e) {
    postMessage({ id, error: String((e && e.message) || e), fault: (e && e.fault) || undefined });
  }
};
