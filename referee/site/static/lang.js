// The offline site's language (issue 40): each page is written once per language by
// `getaway-ref site` (index.html, index.ur.html, table.html, table.ur.html, ...), so it works
// with no server to choose for it. The picker's choice is kept on this phone (localStorage,
// the key serve's pages keep it under); with none kept, the English page goes to the
// phone's own language when the site has it. window.getawayLang also gives the page's
// scripts their sentences (_, ngettext, fmt) from the page's own catalogue block, and says a
// worker's error in them (told).
// The service worker keeps only the languages asked for (sw.js): this page asks it to keep
// its own, and the picker the one chosen, so that its pages open offline.
"use strict";

(() => {
  const KEY = "getaway-lang";
  const LANGUAGES = __LANGUAGES__; // [[code, BCP 47 tag], ...]: the site's languages, written by `getaway-ref site`
  const root = document.documentElement;
  const found = LANGUAGES.find(([, tag]) => tag === root.lang); // the page's language, by its <html lang>
  const here = found ? found[0] : "en";
  const page = location.pathname.split("/").pop() || "index.html";
  const base = page.replace(/(\.[A-Za-z_]+)?\.html$/, "") || "index"; // index.ur.html: index

  function pageOf(code) {
    return code === "en" ? `${base}.html` : `${base}.${code}.html`;
  }
  function kept() {
    try {
      return localStorage.getItem(KEY);
    } catch (e) {
      return null; // private mode: nothing kept
    }
  }
  // A browser's language (en-GB, ur-PK, pa-Guru-IN) as one of ours, by its tag or its first part.
  function ours(tag) {
    const t = String(tag || "").toLowerCase().replace(/_/g, "-");
    for (const [code, own] of LANGUAGES) if (t === own.toLowerCase() || t === code.toLowerCase().replace(/_/g, "-")) return code;
    const first = t.split("-")[0];
    for (const [code, own] of LANGUAGES) if (first === own.toLowerCase().split("-")[0]) return code;
    return null;
  }
  function go(code) {
    if (code === here || !LANGUAGES.some(([c]) => c === code)) return;
    // already at that page's address, but given the English one (offline, that language never
    // kept): stay in English rather than open it again and again
    if (pageOf(code) === page) return;
    location.replace(pageOf(code) + location.hash);
  }
  // The service worker asked to keep a language's files (now, or once it runs this page).
  function keep(code) {
    if (code === "en" || !("serviceWorker" in navigator)) return;
    const sw = navigator.serviceWorker;
    const ask = () => sw.controller && sw.controller.postMessage({ keep: code });
    if (sw.controller) ask();
    else sw.addEventListener("controllerchange", ask, { once: true });
  }
  const choice = kept();
  if (choice) go(choice);
  else if (here === "en") {
    for (const tag of navigator.languages || [navigator.language]) {
      const found = ours(tag);
      if (found) {
        go(found);
        break;
      }
    }
  }

  // The sentences of this page's scripts, in its language (the English is the key).
  let words = null, forms = null;
  function load() {
    if (words) return;
    const w = document.getElementById("i18n"), p = document.getElementById("i18n-plural");
    words = w ? JSON.parse(w.textContent) : {};
    forms = p ? JSON.parse(p.textContent) : [];
  }
  function _(s) {
    load();
    return typeof words[s] === "string" && words[s] ? words[s] : s;
  }
  function fmt(s, o) {
    return s.replace(/\{(\w+)\}/g, (m, k) => (k in o ? String(o[k]) : m));
  }
  // A worker's error as the page says it ({id, error, fault}, worker.mjs: fault): the engine's
  // own faults in the page's language, the network's or the runtime's words after ours as they
  // are; any other error as it came. Said here, once, for both pages that start the engine
  // (app.js, table-site.js): `getaway-ref site` gives each page the words of lang.js too.
  function told(data) {
    const FAULTS = {
      zip: _("the referee's files could not be fetched ({why})"),
      runtime: _("the Python runtime could not be loaded ({why})"),
      question: _("the engine was asked a question it does not know ({why})"),
    };
    const f = data.fault;
    return f && Object.hasOwn(FAULTS, f.key) ? fmt(FAULTS[f.key], f) : data.error;
  }
  const api = {
    code: here,
    _,
    ngettext(one, many, n) {
      load();
      const k = n < forms.length ? forms[n] : forms[100 + (n % 100)];
      const f = words[one];
      return Array.isArray(f) && f[k] ? f[k] : n === 1 ? one : many;
    },
    fmt,
    told,
    // The picker: the choice kept, and the page in that language opened (at the same place).
    picker(select) {
      select.addEventListener("change", () => {
        try {
          localStorage.setItem(KEY, select.value);
        } catch (e) {
          // private mode: this visit only
        }
        keep(select.value);
        location.assign(pageOf(select.value) + location.hash);
      });
    },
  };
  window.getawayLang = api;
  keep(here);
  window.addEventListener("DOMContentLoaded", () => {
    const select = document.getElementById("lang");
    if (select && !select.dataset.wired) {
      select.dataset.wired = "1";
      api.picker(select);
    }
  });
})();
