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
  const zip = await fetch(new URL("getaway-ref.zip", here));
  if (!zip.ok) throw new Error(`getaway-ref.zip: ${zip.status}`);
  pyodide.unpackArchive(await zip.arrayBuffer(), "zip", { extractDir: "/home/pyodide/lib" });
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/lib')");
  const browser = pyodide.pyimport("referee.site.browser");
  browser.warm();
  const version = pyodide.runPython("import referee; referee.__version__");
  let answers = null; // legal and ask: imported on the first question (the table's modules, rich)
  const table = () => (answers ??= pyodide.pyimport("referee.site.answers"));
  return { browser, table, version, pyodide: pyodide.version, ms: performance.now() - t0 };
})();

const ops = {
  check: (r, [text, name]) => r.browser.check(text, name ?? null, true),
  checkText: (r, [text, name]) => r.browser.check(text, name ?? null, false),
  legal: (r, [text, name]) => r.table().legal(text, name ?? null),
  ask: (r, [text, trick, seat, name]) => r.table().ask(text, trick, seat ?? null, name ?? null),
};

self.onmessage = async (event) => {
  const { id, op, args } = event.data;
  try {
    const ready = await started;
    if (op === "ready") {
      postMessage({ id, value: { version: ready.version, pyodide: ready.pyodide, ms: ready.ms } });
      return;
    }
    const run = ops[op];
    if (!run) throw new Error(`no such question: ${op}`);
    postMessage({ id, value: JSON.parse(run(ready, args)) });
  } catch (e) {
    postMessage({ id, error: String((e && e.message) || e) });
  }
};
