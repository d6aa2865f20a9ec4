// The page: window.getawayRef (the referee's API for this page and for pages that embed it,
// docs/offline.md), the check of a pasted, opened or linked game, and the service worker
// that keeps the site for offline use. The engine runs in a Web Worker (worker.mjs), so
// the page stays responsive while it judges.
"use strict";

(() => {
  // The page's sentences in its language (lang.js: the page's catalogue block), and a
  // worker's error said in them (told: the engine's faults, worker.mjs).
  const { _, ngettext, fmt, told } = window.getawayLang || {
    _: (s) => s, ngettext: (one, many, n) => (n === 1 ? one : many), code: "en",
    fmt: (s, o) => s.replace(/\{(\w+)\}/g, (m, k) => (k in o ? String(o[k]) : m)),
    told: (data) => data.error,
  }; // (a page that embeds this script without lang.js: English, a fault as the worker put it)
  const FRAGMENT = "g="; // a link's fragment: the game deflated (zlib) and base64url (getaway-ref link)

  // This page in the hands of the service worker (its install done: every file cached, the big
  // ones fetched gzipped), so that the engine's files come from its cache, not again from the
  // server; at most 15 s, then the page goes on without it.
  async function controlled() {
    const sw = navigator.serviceWorker;
    const wait = (ms) => new Promise((r) => setTimeout(r, ms));
    await Promise.race([sw.ready, wait(15000)]);
    if (!sw.controller) {
      await Promise.race([new Promise((r) => sw.addEventListener("controllerchange", r, { once: true })), wait(5000)]);
    }
  }

  // The service worker first, so that the engine's files are fetched once, into its cache.
  async function offline() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) return _("no service worker here");
    try {
      await navigator.serviceWorker.register("sw.js");
      await controlled();
      return _("kept for offline use");
    } catch (e) {
      return fmt(_("not kept for offline use ({why})"), { why: e.message || e });
    }
  }

  const kept = offline();

  // An engine: the Worker (worker.mjs) and its questions, each answered once ({id, value} or
  // {id, error}); a long one (a review) sends its progress on the way ({id, progress}).
  function engine(name) {
    const worker = new Worker("worker.mjs", { type: "module", name });
    const waiting = new Map();
    let next = 0;
    worker.onmessage = (event) => {
      const { id, value, error, progress } = event.data;
      const w = waiting.get(id);
      if (!w) return;
      if (progress !== undefined) {
        if (w.progress) w.progress(progress);
        return;
      }
      waiting.delete(id);
      if (error === undefined) w.resolve(value);
      else w.reject(new Error(told(event.data)));
    };
    worker.onerror = (event) => {
      for (const w of waiting.values()) w.reject(new Error(event.message || _("the engine did not start")));
      waiting.clear();
    };
    return (op, args, progress) => new Promise((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject, progress });
      worker.postMessage({ id, op, args, lang: (window.getawayLang || { code: "en" }).code });
    });
  }

  let main = null; // the engine that answers check, legal, ask
  let reviews = null; // a second one for reviews, started on the first: the first stays free meanwhile
  const call = (op, ...args) => main(op, args);

  const ready = kept.then(() => {
    main = engine("referee");
    return call("ready");
  }).then((info) => ({ ...info, at: performance.now() }));

  // What a command printed on standard error, its last line: the CLI's "error: ..." line.
  function failure(r) {
    const lines = (r.err || "").trim().split("\n");
    return new Error(lines[lines.length - 1] || fmt(_("the command ended with exit status {status}"), { status: r.exit }));
  }

  async function ask(op, ...args) {
    await ready;
    return call(op, ...args);
  }

  const api = {
    ready,
    // The JSON report of `getaway-ref check --format json` on the text.
    async check(text, name) {
      const r = await ask("check", String(text), name);
      if (!r.out) throw failure(r);
      return JSON.parse(r.out);
    },
    // The text `getaway-ref check` prints, and its exit code.
    async checkText(text, name) {
      const r = await ask("checkText", String(text), name);
      return { text: r.out + r.err, exit: r.exit };
    },
    // The JSON of `getaway-ref legal --format json`: what may happen next at the end of the record.
    async legal(text, name) {
      const r = await ask("legal", String(text), name);
      if (!r.out) throw failure(r);
      return JSON.parse(r.out);
    },
    // The sentence `getaway-ref ask --trick TRICK [--seat SEAT]` prints about a trick.
    async ask(text, trick, seat, name) {
      const r = await ask("ask", String(text), Number(trick), seat ?? null, name);
      if (r.exit === 2 || !r.out) throw failure(r);
      return r.out.trim();
    },
    // The JSON report of `getaway-ref review --format json` on the text, run in a Worker of its
    // own (so the page and the other questions answer meanwhile); onProgress({game, done,
    // total}) is told of each play reached, and done === total when a game's review ends.
    async review(text, options = {}) {
      const r = await reviewed(String(text), options, true);
      if (!r.out) throw failure(r);
      return JSON.parse(r.out);
    },
    // What `getaway-ref review` prints, and its exit code (the same options).
    async reviewText(text, options = {}) {
      const r = await reviewed(String(text), options, false);
      return { text: r.out + r.err, exit: r.exit };
    },
    // A game as a link's fragment, and back.
    encode: encodeGame,
    decode: decodeGame,
  };
  window.getawayRef = api;

  // (`hold`: a test's hold on the review, worker.mjs's held(); no page of the site passes one)
  async function reviewed(text, { name, onProgress, hold } = {}, asJson) {
    await ready;
    reviews ??= engine("review");
    return reviews("review", [text, name ?? null, asJson, hold ?? null], onProgress);
  }

  // ---- a game in a link --------------------------------------------------------------------

  function b64url(bytes) {
    let s = "";
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function unb64url(text) {
    const s = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
    return Uint8Array.from(s, (c) => c.charCodeAt(0));
  }

  async function through(bytes, stream) {
    const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
    return new Uint8Array(await out.arrayBuffer());
  }

  async function encodeGame(text) {
    return FRAGMENT + b64url(await through(new TextEncoder().encode(text), new CompressionStream("deflate")));
  }

  async function decodeGame(fragment) {
    const body = fragment.replace(/^#/, "");
    if (!body.startsWith(FRAGMENT)) throw new Error(_("this link holds no game"));
    const bytes = await through(unb64url(body.slice(FRAGMENT.length)), new DecompressionStream("deflate"));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  }

  // ---- the page ----------------------------------------------------------------------------

  const $ = (id) => document.getElementById(id);

  function say(id, text) {
    $(id).textContent = text; // the user's text is shown as text, never as markup
  }

  async function checkShown() {
    const text = $("record").value;
    if (!text.trim()) {
      say("verdicts", _("Paste a record, open a .gwy file or follow a game's link."));
      return;
    }
    $("verdicts").setAttribute("aria-busy", "true");
    try {
      const r = await api.checkText(text, $("record").dataset.name || "game.gwy");
      say("verdicts", r.text || _("No problems found."));
      $("verdicts").dataset.exit = String(r.exit);
    } catch (e) {
      say("verdicts", fmt(_("error: {why}"), { why: e.message }));
      $("verdicts").dataset.exit = "2";
    } finally {
      $("verdicts").removeAttribute("aria-busy");
      document.body.dataset.checked = String(Number(document.body.dataset.checked || 0) + 1);
    }
  }

  async function fromLink() {
    if (!location.hash.startsWith("#" + FRAGMENT)) return false;
    try {
      $("record").value = await decodeGame(location.hash);
      $("record").dataset.name = "game.gwy";
    } catch (e) {
      say("verdicts", fmt(_("This link's game cannot be read ({why}): copy the whole link."), { why: e.message || _("damaged") }));
      document.body.dataset.checked = "1";
      return true;
    }
    await checkShown();
    return true;
  }

  async function share() {
    const fragment = await encodeGame($("record").value);
    history.replaceState(null, "", "#" + fragment);
    $("link").value = location.href;
    $("shared").hidden = false;
    $("qr").hidden = !window.getawayQR.draw($("qr"), location.href);
    $("link").select();
  }

  // The review of the game shown: in the review's own Worker, a bar filling play by play.
  async function reviewShown() {
    const text = $("record").value;
    if (!text.trim()) {
      say("verdicts", _("Paste a record, open a .gwy file or follow a game's link."));
      return;
    }
    const bar = $("review-progress");
    $("reviewing").hidden = false;
    bar.value = 0;
    bar.max = 1;
    say("review", "");
    say("review-status", _("Reviewing…"));
    $("review-game").disabled = true;
    const progress = ({ done, total }) => {
      bar.max = Math.max(total, 1);
      bar.value = done;
      say("review-status", fmt(ngettext("Reviewing: {done} of {total} play ({share} %)", "Reviewing: {done} of {total} plays ({share} %)", total),
        { done, total, share: Math.round((100 * done) / Math.max(total, 1)) }));
    };
    try {
      const r = await api.reviewText(text, { name: $("record").dataset.name || "game.gwy", onProgress: progress });
      say("review", r.text);
      say("review-status", _("Reviewed."));
    } catch (e) {
      say("review", fmt(_("error: {why}"), { why: e.message }));
      say("review-status", "");
    } finally {
      $("review-game").disabled = false;
      document.body.dataset.reviewed = String(Number(document.body.dataset.reviewed || 0) + 1);
    }
  }

  window.addEventListener("DOMContentLoaded", () => {
    say("status", _("Loading the referee…"));
    ready.then(async (info) => {
      say("status", fmt(_("Ready: getaway-ref {version} (Pyodide {pyodide}), {offline}."), { version: info.version, pyodide: info.pyodide, offline: await kept }));
      document.body.dataset.ready = "1";
    }, (e) => say("status", fmt(_("The referee could not start: {why}"), { why: e.message })));
    $("check").addEventListener("click", checkShown);
    $("share").addEventListener("click", share);
    $("review-game").addEventListener("click", reviewShown);
    $("open").addEventListener("change", async () => {
      const file = $("open").files[0];
      if (!file) return;
      $("record").value = await file.text();
      $("record").dataset.name = file.name;
      await checkShown();
    });
    window.addEventListener("hashchange", fromLink);
    fromLink();
  });
})();
