// The engine's thread: Pyodide, the package's zip, and the command line's own commands
// (referee/site/browser.py) answering the page's messages {id, op, args} with {id, value}
// or {id, error}. Every file comes from this site (the service worker's cache once visited).
import { loadPyodide } from "./pyodide/pyodide.mjs";

const here = new URL(".", import.meta.url);
const started = (async () => {
  const t0 = performance.now();
  const pyodide = await loadPyodide({
    indexURL: new URL("pyodide/", here).href,
    env: { HOME: "/home/pyodide", GETAWAY_CACHE_DIR: "/home/pyodide/.cache/getaway-ref" },
  });
  const t1 = performance.now();
  const zip = await fetch(new URL("getaway-ref.zip", here));
  if (!zip.ok) throw new Error(`getaway-ref.zip: ${zip.status}`);
  pyodide.unpackArchive(await zip.arrayBuffer(), "zip", { extractDir: "/home/pyodide/lib" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/lib')");
  const t2 = performance.now();
  const browser = pyodide.pyimport("referee.site.browser");
  const t3 = performance.now();
  browser.warm();
  const t4 = performance.now();
  const version = pyodide.runPython("import referee; referee.__version__");
  let answers = null; // legal and ask: imported on the first question (the table's modules, rich)
  const table = () => (answers ??= pyodide.pyimport("referee.site.answers"));
  let seated = null; // the offline table (serve's Table): imported when table.html opens a game
  const live = () => (seated ??= pyodide.pyimport("referee.site.table"));
  // Where the start-up goes (bench/site.py reports it): the runtime, the zip, the imports, the parser.
  const stages = { runtime: t1 - t0, zip: t2 - t1, imports: t3 - t2, parser: t4 - t3 };
  return { browser, table, live, version, pyodide: pyodide.version, ms: t4 - t0, stages };
})();

const ops = {
  check: (r, [text, name]) => r.browser.check(text, name ?? null, true),
  checkText: (r, [text, name]) => r.browser.check(text, name ?? null, false),
  legal: (r, [text, name]) => r.table().legal(text, name ?? null),
  ask: (r, [text, trick, seat, name]) => r.table().ask(text, trick, seat ?? null, name ?? null),
  // table.html: open a record (or, with no text, a new game), and serve's routes on it.
  tableOpen: (r, [text, name, seats, rules]) => r.live().open_game(text, name, seats ?? null, rules ?? null),
  table: (r, [path, body]) => r.live().call(path, body),
};

self.onmessage = async (event) => {
  const { id, op, args } = event.data;
  try {
    const ready = await started;
    if (op === "ready") {
      postMessage({ id, value: { version: ready.version, pyodide: ready.pyodide, ms: ready.ms, stages: ready.stages } });
      return;
    }
    const run = ops[op];
    if (!run) throw new Error(`no such question: ${op}`);
    postMessage({ id, value: JSON.parse(run(ready, args)) });
  } catch (e) {
    postMessage({ id, error: String((e && e.message) || e) });
  }
};
