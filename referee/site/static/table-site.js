// The offline site's table (table.html): serve's own page, with this transport in place of
// HTTP. Every entry, undo, new game and question goes to the engine in a Web Worker
// (worker.mjs: serve's Table, in Pyodide), which answers as serve's routes answer and sends
// the table as it is now; the record after each change is kept in IndexedDB, one entry per
// game, and can be exported as its .gwy file or a .gwy file imported. The service worker
// keeps the site for use with no network.
"use strict";

(() => {
  // The page's sentences in its language (lang.js: the page's catalogue block), and a
  // worker's error said in them (told: the engine's faults, worker.mjs).
  const { _, fmt, told } = window.getawayLang || {
    _: (s) => s, ngettext: (one, many, n) => (n === 1 ? one : many), code: "en",
    fmt: (s, o) => s.replace(/\{(\w+)\}/g, (m, k) => (k in o ? String(o[k]) : m)),
    told: (data) => data.error,
  }; // (a page that embeds this script without lang.js: English, a fault as the worker put it)
  const DB = "getaway-ref", STORE = "games", CURRENT = "getaway-ref-current-game";

  // The service worker first (its install caches every file, the big ones fetched gzipped), so
  // that the engine's files come from its cache; at most 20 s, then the page goes on without it.
  async function offline() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
    const sw = navigator.serviceWorker;
    const wait = (ms) => new Promise((r) => setTimeout(r, ms));
    try {
      await sw.register("sw.js");
      await Promise.race([sw.ready, wait(15000)]);
      if (!sw.controller) {
        await Promise.race([new Promise((r) => sw.addEventListener("controllerchange", r, { once: true })), wait(5000)]);
      }
    } catch (e) {
      // not kept for offline use; the table works while the network does
    }
  }

  // ---- the engine's thread --------------------------------------------------------------------
  const waiting = new Map();
  let next = 0;
  const worker = offline().then(() => {
    const w = new Worker("worker.mjs", { type: "module" });
    w.onmessage = answered;
    w.onerror = failed;
    return w;
  });
  function answered(event) {
    const { id, value, error } = event.data;
    const w = waiting.get(id);
    waiting.delete(id);
    if (w) (error === undefined ? w.resolve(value) : w.reject(new Error(told(event.data))));
  }
  function failed(event) {
    for (const w of waiting.values()) w.reject(new Error(event.message || _("the referee did not start")));
    waiting.clear();
  }
  async function call(op, ...args) {
    const w = await worker;
    return new Promise((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject });
      w.postMessage({ id, op, args, lang: (window.getawayLang || { code: "en" }).code });
    });
  }

  // ---- the games kept on this phone (IndexedDB) -----------------------------------------------
  const opened = new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "id" });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  async function store(mode, run) {
    const db = await opened;
    return new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = run(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req && req.result);
      tx.onerror = () => reject(tx.error);
    });
  }
  const allGames = () => store("readonly", (s) => s.getAll());
  const getGame = (id) => store("readonly", (s) => s.get(id));
  const putGame = (game) => store("readwrite", (s) => s.put(game));

  let current = null; // {id, name, text, updated}: the game on the table
  let listener = null, lost = null, last = null;
  let saving = Promise.resolve();

  function kept(text) {
    const k = document.getElementById("kept");
    if (k) k.textContent = text;
  }

  // Each answer carries the table as it is now and the record's text: the table is redrawn,
  // the text kept (in order: one write after another).
  function deliver(r) {
    if (r.state) {
      last = r.state;
      if (listener) listener(r.state);
    }
    if (current && typeof r.text === "string" && r.text !== current.text) {
      current = { ...current, name: r.name || current.name, text: r.text, updated: Date.now() };
      const game = current;
      saving = saving.then(() => putGame(game)).then(() => { kept(fmt(_("kept on this phone: {name}"), { name: game.name })); listGames(); },
        (e) => kept(fmt(_("not kept on this phone: {why}"), { why: e.message || e })));
    }
    document.body.dataset.kept = String(Number(document.body.dataset.kept || 0) + 1);
  }

  async function openGame(game, seats, rules) {
    const r = await call("tableOpen", game.text, game.name, seats ?? null, rules ?? null);
    if (r.status !== 200) throw new Error(r.error);
    current = { ...game, name: r.name, text: game.text };
    localStorage.setItem(CURRENT, current.id);
    deliver(r);
    return r;
  }

  function newId() {
    return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  }

  async function startNew(seats, rules) {
    const name = `table-${new Date().toISOString().slice(0, 16).replace(/[-:T]/g, "")}.gwy`;
    await openGame({ id: newId(), name, text: "", updated: Date.now() }, seats, rules);
  }

  async function listGames() {
    const ul = document.getElementById("games");
    if (!ul) return;
    const games = (await allGames()).sort((a, b) => b.updated - a.updated);
    ul.textContent = "";
    for (const g of games) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.textContent = current && g.id === current.id ? fmt(_("{name} (on the table)"), { name: g.name }) : g.name;
      b.dataset.game = g.id;
      b.disabled = Boolean(current && g.id === current.id);
      b.onclick = () => openGame(g).catch((e) => kept(fmt(_("cannot open {name}: {why}"), { name: g.name, why: e.message })));
      li.appendChild(b);
      ul.appendChild(li);
    }
  }

  // The last game on the table comes back (a reload, a restart with no network); else a new one.
  const started = (async () => {
    const id = localStorage.getItem(CURRENT);
    const game = id ? await getGame(id) : null;
    if (game) {
      try {
        await openGame(game);
        return;
      } catch (e) {
        kept(fmt(_("cannot continue {name}: {why}; a new game is started"), { name: game.name, why: e.message }));
      }
    }
    await startNew();
  })();
  started.then(listGames, (e) => lost && lost(e));

  window.getawayTable = {
    // serve's routes (entry, undo, new, ask), answered by the Worker as serve answers them.
    async post(path, body) {
      await started;
      const r = await call("table", path, JSON.stringify(body || {}));
      deliver(r);
      if (r.status !== 200) {
        const e = new Error(r.error || fmt(_("refused ({status})"), { status: r.status }));
        e.refused = r.status === 409;
        throw e;
      }
      return r;
    },
    listen(got, gone) {
      listener = got;
      lost = gone;
      if (last) got(last);
    },
    started,
  };

  // ---- the page's own part: new, export, import -------------------------------------------------
  function download(name, text) {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }

  window.addEventListener("DOMContentLoaded", () => {
    const $ = (id) => document.getElementById(id);
    $("new-table").addEventListener("submit", (ev) => {
      ev.preventDefault();
      startNew($("new-seats").value, $("new-rules").value).catch((e) => kept(fmt(_("no new game: {why}"), { why: e.message })));
    });
    $("export").addEventListener("click", async () => {
      await saving;
      if (current) download(current.name, current.text);
    });
    // "Share this game": the game on the table as a link to this site's page (the game in
    // the fragment, which no browser sends to a server) and as a QR code of that link.
    $("share-game").addEventListener("click", async () => {
      try {
        await started;
        await saving;
        const r = await call("tableShare");
        if (r.status !== 200) throw new Error(r.error);
        const link = new URL(`index.html#${r.fragment}`, location.href).href;
        $("share-link").value = link;
        $("shared").hidden = false;
        const drawn = window.getawayQR.draw($("share-qr"), link);
        $("share-qr").hidden = !drawn;
        kept(drawn ? _("the link and its QR code: open it on another phone") : _("the link (too long for a QR code)"));
        document.body.dataset.shared = String(Number(document.body.dataset.shared || 0) + 1);
      } catch (e) {
        kept(fmt(_("not shared: {why}"), { why: e.message }));
      }
    });
    $("import").addEventListener("change", async () => {
      const file = $("import").files[0];
      if (!file) return;
      const text = await file.text();
      $("import").value = "";
      try {
        await started;
        await openGame({ id: newId(), name: file.name, text, updated: Date.now() });
        await putGame(current);
        kept(fmt(_("imported {name}"), { name: file.name }));
        listGames();
      } catch (e) {
        kept(fmt(_("{name} cannot be opened: {why}"), { name: file.name, why: e.message }));
      }
    });
  });
})();
