// getaway-ref's table: it shows the positions the referee computed (the JSON above); it
// knows no rule of the game. In `serve` it also sends what the recorder taps or types, and
// shows what the referee answers, through a transport: serve's HTTP and event stream, or, in
// the offline site, the engine in this page's Web Worker (window.getawayTable, table-site.js).
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  var G = Math.max(0, D.games.length - 1), at = 0, view = "", follow = true;
  var SERVE = document.body.classList.contains("serve");
  function $(id) { return document.getElementById(id); }
  // The page's words in its language (issue 40): the server hands them translated, keyed by the English.
  // A count's sentence (ngettext) has its forms, chosen by the language's plural rule: the form
  // for each n below 200 (I18N_PLURAL), for larger n that of 100 + n % 100 (no rule looks further).
  var I18N = JSON.parse(document.getElementById("i18n").textContent);
  var I18N_PLURAL = JSON.parse(document.getElementById("i18n-plural").textContent);
  function _(s) { return typeof I18N[s] === "string" && I18N[s] ? I18N[s] : s; }
  function ngettext(one, many, n) {
    var forms = I18N[one], k = n < I18N_PLURAL.length ? I18N_PLURAL[n] : I18N_PLURAL[100 + n % 100];
    if (Array.isArray(forms) && forms[k]) return forms[k];
    return n === 1 ? one : many;
  }
  function fmt(s, o) { return s.replace(/\{(\w+)\}/g, function (m, k) { return k in o ? String(o[k]) : m; }); }
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined && text !== null) e.textContent = text; return e; }
  function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }
  // A card comes as its text ("10♥", "A♠*": the double pack's marked ace): its rank, its suit's symbol, its colour.
  function face(t) {
    var marked = t.charAt(t.length - 1) === "*", suit = marked ? t.charAt(t.length - 2) : t.charAt(t.length - 1);
    return { text: t, rank: marked ? t.slice(0, -2) + "*" : t.slice(0, -1), suit: suit, red: suit === "♥" || suit === "♦" };
  }
  function big(t, marks) {
    var c = face(t), d = el("div", "card" + (c.red ? " red" : "") + (marks && marks.length ? " bad" : ""));
    d.setAttribute("data-card", c.text);
    d.setAttribute("role", "img");
    d.setAttribute("aria-label", c.text);
    d.appendChild(el("span", "r", c.rank)); d.appendChild(el("span", "s", c.suit)); d.appendChild(el("span", "r", ""));
    return d;
  }
  function mini(t) { return el("span", "mini" + (face(t).red ? " red" : ""), t); }
  // Text with each card in it (10♥, A♠*) isolated left to right, so that a right-to-left page
  // shows it as printed, rank then suit, never ♥10.
  var CARD = /(?:10|[2-9TJQKA])[♠♥♦♣]\*?/g;
  function words(e, text) {
    clear(e);
    text = text || "";
    var k = 0, m;
    CARD.lastIndex = 0;
    while ((m = CARD.exec(text)) !== null) {
      if (m.index > k) e.appendChild(document.createTextNode(text.slice(k, m.index)));
      e.appendChild(el("span", "cardtext", m[0]));
      k = m.index + m[0].length;
    }
    if (k < text.length) e.appendChild(document.createTextNode(text.slice(k)));
    return e;
  }
  // Said to a screen reader: politely (a play, the trick list, a ruling), or at once (a
  // mistake, a refused entry). The same words again are said again: cleared first.
  function speak(id, text) {
    var r = $(id);
    r.textContent = "";
    if (text) setTimeout(function () { r.textContent = text; }, 30);
  }
  function rtl() { return getComputedStyle(document.documentElement).direction === "rtl"; }
  function game() { return D.games[G]; }
  function P() { return game() ? game().positions : []; }
  function cards(n) { return fmt(ngettext("{n} card", "{n} cards", n), { n: n }); }
  // A trick's number as the page says it: "trick 3"
  function trickNo(n) { return fmt(_("trick {trick}"), { trick: n }); }
  function notice(text) { var n = $("notice"); n.textContent = text || ""; n.hidden = !text; }

  // ---- the header: the game picker and the view picker ----
  function pickers() {
    var sel = $("game"); clear(sel);
    D.games.forEach(function (g, i) {
      var o = el("option", "", fmt(g.title && g.title !== fmt(_("Game {number}"), { number: g.game }) ? _("game {number}: {title}") : _("game {number}"), { number: g.game, title: g.title }));
      o.value = String(i); sel.appendChild(o);
    });
    sel.value = String(G);
    $("game-pick").hidden = D.games.length < 2;
    var v = $("view"), keep = view;
    while (v.options.length > 1) v.remove(1);
    (game() ? game().seats : []).forEach(function (s, i) { var o = el("option", "", fmt(_("what {seat} knew"), { seat: s })); o.value = String(i); v.appendChild(o); });
    v.value = keep;
    if (v.value !== keep) view = "";
  }
  function header() {
    var g = game();
    $("title").textContent = g ? g.title : "getaway-ref";
    $("sub").textContent = g ? "· " + fmt(_("game {number}"), { number: g.game }) + " · " + fmt(_("rules {rules}"), { rules: g.rules }) + " · " + g.seats.join(", ") : "";
    document.title = (g ? g.title + " — " : "") + D.file;
  }

  // ---- the seats around the table, in the order written (clockwise), the first at the top ----
  function side(index, n) {
    var a = index * 360 / n;
    if (a <= 45 || a >= 315) return ["top", (a + 180) % 360];
    if (a < 135) return ["right", a];
    if (a <= 225) return ["bottom", -a];
    return ["left", -a];
  }
  function handBox(x, p) {
    var b = el("div", "hand" + (x.turn ? " turn" : "") + (x.out ? " out" : "") + (x.loser ? " loser" : ""));
    b.setAttribute("data-seat", x.seat);
    var h = el("h3"); h.appendChild(el("span", "name", x.seat + (x.power ? " ★ " + _("power") : "") + (x.leads ? " · " + _("leads") : "") + (x.turn ? " · " + _("to play") : "")));
    h.appendChild(el("span", "size", x.out ? fmt(_("got away ({place})"), { place: x.out }) + (x.size ? " · " + cards(x.size) : "") : x.loser ? _("lost") + " · " + cards(x.size) : cards(x.size)));
    b.appendChild(h);
    var own = view === "" || view === String(x.index);
    var held = own ? x.known : x.seen;
    var cs = el("div", "cards");
    held.forEach(function (c) { cs.appendChild(mini(c)); });
    var hidden = own ? x.unseen : x.size - x.seen.length;
    if (hidden > 0) cs.appendChild(el("span", "unseen", (held.length ? " + " : "") + (own ? fmt(ngettext("{n} unseen", "{n} unseen", hidden), { n: hidden })
      : fmt(ngettext("{n} not seen by {seat}", "{n} not seen by {seat}", hidden), { n: hidden, seat: game().seats[Number(view)] }))));
    b.appendChild(cs);
    if (x.void && x.size) b.appendChild(el("div", "void", fmt(_("shown void: {suits}"), { suits: x.void })));
    if (x.note) b.appendChild(words(el("div", "note"), x.note));
    return b;
  }
  function seatsAround(p) {
    var n = game().seats.length, groups = { top: [], right: [], bottom: [], left: [] };
    p.hands.forEach(function (x) { var s = side(x.index, n); groups[s[0]].push([s[1], x]); });
    Object.keys(groups).forEach(function (k) {
      var box = clear($("side-" + k));
      groups[k].sort(function (a, b) { return a[0] - b[0]; }).forEach(function (g) { box.appendChild(handBox(g[1], p)); });
    });
  }

  // ---- one position ----
  // quiet: the trick list is not scrolled; silent: nothing said (serve says the ruling instead)
  function show(i, quiet, silent) {
    var ps = P();
    if (!ps.length) {
      ["what", "fate", "lead", "label", "out", "trumps"].forEach(function (k) { $(k).textContent = ""; });
      clear($("trick")); clear($("diags")); clear($("waste"));
      ["top", "left", "right", "bottom"].forEach(function (k) { clear($("side-" + k)); });
      $("end").textContent = game() ? game().end : "";
      return;
    }
    at = Math.max(0, Math.min(ps.length - 1, i));
    follow = at === ps.length - 1;
    var p = ps[at], slider = $("slider");
    slider.max = String(ps.length - 1); slider.value = String(at);
    words($("label"), at + " / " + (ps.length - 1) + " · " + (p.trick !== null ? trickNo(p.trick) + ": " : "") + p.label);
    slider.setAttribute("aria-valuetext", $("label").textContent);
    words($("what"), p.what);
    var t = clear($("trick"));
    p.table.forEach(function (x) {
      var s = el("div", "slot"); s.setAttribute("data-seat", x.seat);
      s.appendChild(big(x.card, x.marks));
      var w = el("div", "who", x.seat + " ");
      x.marks.forEach(function (m) { w.appendChild(el("span", "badge", m)); });
      s.appendChild(w); t.appendChild(s);
    });
    if (p.table.length) t.setAttribute("aria-label", trickNo(p.number));
    words($("fate"), p.fate);
    words($("lead"), p.lead);
    var ds = clear($("diags"));
    p.diagnostics.concat(at === ps.length - 1 ? game().loose : []).forEach(function (d) {
      var b = el("div", "diag");
      b.appendChild(el("span", "code", d.code + " ")); b.appendChild(words(el("span", "msg"), d.message));
      if (d.rule) b.appendChild(el("div", "rule", fmt(_("Rule: {rule}"), { rule: d.rule })));
      if (d.penalty) b.appendChild(words(el("div", "penalty"), d.penalty.charAt(0).toUpperCase() + d.penalty.slice(1)));
      if (d.applied !== null) b.appendChild(el("div", "applied", d.applied ? _("The table applied the penalty.") : _("The table did not apply the penalty; the referee follows the record as played.")));
      ds.appendChild(b);
    });
    var wp = clear($("waste"));
    wp.appendChild(el("span", "", fmt(_("Waste pile: {cards}"), { cards: cards(p.waste) }) + (p.waste_cards.length ? ": " : "")));
    p.waste_cards.forEach(function (c) { wp.appendChild(mini(c)); });
    if (p.waste_unseen) wp.appendChild(el("span", "unseen", " + " + fmt(ngettext("{n} unseen", "{n} unseen", p.waste_unseen), { n: p.waste_unseen })));
    $("trumps").textContent = p.trumps ? fmt(_("Trumps: {suit}"), { suit: p.trumps }) : "";
    $("out").textContent = p.out.length ? fmt(_("Got away: {seats}"), { seats: p.out.map(function (s, k) { return (k + 1) + ". " + s; }).join(", ") }) : "";
    seatsAround(p);
    $("end").textContent = at === ps.length - 1 ? game().end : "";
    reviewNote(at);
    document.querySelectorAll("#moves a").forEach(function (a) {
      var here = a.getAttribute("data-at") === String(at);
      a.classList.toggle("here", here);
      if (here) a.setAttribute("aria-current", "step"); else a.removeAttribute("aria-current");
    });
    var here = document.querySelector("#moves a.here"), ol = $("moves");
    // the trick list scrolls on its own (never the page) to keep the play shown in sight
    if (here && !quiet && ol.scrollHeight > ol.clientHeight) ol.scrollTop = Math.max(0, here.offsetTop - ol.offsetTop - ol.clientHeight / 2);
    if (!silent) {
      speak("announce", p.what);
      if (p.diagnostics.length) speak("alarm", p.diagnostics.map(function (d) { return d.code + ": " + d.message; }).join(" "));
    }
    chartNow();
    var want = "#" + (D.games.length > 1 ? "game-" + game().game + "/" : "") + "step-" + at;
    if (!SERVE && location.hash !== want) history.replaceState(null, "", want);
  }

  // ---- html --review: the marks on the plays (as lichess writes them) and the chart ----
  var CW = 320, CL = 44;  // the chart's width and its left margin (the per cent labels)
  var MARK_SIGNS = { "blunder": "??", "mistake": "?", "inaccuracy": "?!", "only move": "!" };
  // the marks' and the classes' names in the page's language (the data keeps review's English codes)
  var MARK_WORDS = { "blunder": _("blunder"), "mistake": _("mistake"), "inaccuracy": _("inaccuracy"), "only move": _("only move") };
  var CLASS_WORDS = { "safe": _("safe"), "open": _("open"), "lost": _("lost") };
  function named(map, k) { return k === null || k === undefined ? k : map[k] || k; }
  function reviewMarks(g) {
    var out = {};
    if (g && g.review) g.review.marks.forEach(function (m) { out[m.at] = m; });
    return out;
  }
  // Under the table, for the play shown: what review prints of it (its mark, the class
  // before and after, the cards that kept the better class, the solver's line), never only
  // a tooltip, which a phone cannot show.
  function reviewNote(i) {
    var box = $("review-note"), m = reviewMarks(game())[i];
    box.hidden = !m;
    if (!m) return;
    $("review-head").textContent = fmt(_("Review: {sign} {mark} ({seat} {action})"), { sign: MARK_SIGNS[m.mark], mark: named(MARK_WORDS, m.mark), seat: m.seat, action: m.action });
    var dl = clear($("review-facts"));
    function fact(k, v) { if (v === null || v === undefined || v === "") return; dl.appendChild(el("dt", "", k)); dl.appendChild(el("dd", "", v)); }
    fact(_("Class before"), named(CLASS_WORDS, m.before));
    fact(_("Class after"), named(CLASS_WORDS, m.after));
    if (m.better && m.better.length) fact(fmt(_("Kept it {class}"), { "class": named(CLASS_WORDS, m.best) }), m.better.join(" " + _("or") + " "));
    if (m.solver && m.solver.length) fact(_("Solver's line"), m.solver.join(", "));
    if (m.chance_after !== null && m.chance_after !== undefined && !m.before)
      fact(_("Chance of losing"), fmt(_("{before}% had it played as the sensible bot, {after}% after"),
        { before: Math.round(100 * m.chance_before), after: Math.round(100 * m.chance_after) }));
    var ls = clear($("review-lines"));
    m.lines.forEach(function (t) { ls.appendChild(el("div", "line", t)); });
  }
  var SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, cls) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    if (cls) e.setAttribute("class", cls);
    return e;
  }
  function chart() {
    var g = game(), box = $("chart-box"), c = clear($("chart")), lg = clear($("chart-legend"));
    var r = g && g.review, pts = r ? r.points : [];
    box.hidden = !pts.length;
    if (!pts.length) return;
    var W = CW, H = 150, L = CL, T = 6, B = 30, last = P().length - 1 || 1;
    function x(at) { return L + (W - L - 4) * at / last; }
    function y(v) { return T + (H - T - B) * (1 - v); }
    var s = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": _("each seat's chance of losing after each play, by trick; click to go to the play") });
    [0, 0.5, 1].forEach(function (v) {
      s.appendChild(svg("line", { x1: L, x2: W - 4, y1: y(v), y2: y(v) }, "grid"));
      var t = svg("text", { x: L - 3, y: y(v) + 4, "font-size": 10, "text-anchor": "end" }, "axis ytick"); t.textContent = Math.round(v * 100) + "%"; s.appendChild(t);
    });
    // the axes' labels: per cent up the side, trick numbers along the bottom (a few, evenly)
    var yt = svg("text", { x: 9, y: T + (H - T - B) / 2, "font-size": 10, "text-anchor": "middle", transform: "rotate(-90 9 " + (T + (H - T - B) / 2) + ")" }, "axis ytitle");
    yt.textContent = _("chance of losing"); s.appendChild(yt);
    var firsts = [], seen = {};
    P().forEach(function (p, i) { if (p.trick !== null && p.trick !== undefined && !seen[p.trick]) { seen[p.trick] = true; firsts.push([i, p.trick]); } });
    var every = Math.max(1, Math.ceil(firsts.length / 8));
    firsts.forEach(function (f, k) {
      if (k % every) return;
      var t = svg("text", { x: x(f[0]).toFixed(1), y: H - B + 12, "font-size": 10, "text-anchor": "middle" }, "axis xtick");
      t.textContent = String(f[1]); s.appendChild(t);
    });
    var xt = svg("text", { x: (L + W) / 2, y: H - 3, "font-size": 10, "text-anchor": "middle" }, "axis xtitle");
    xt.textContent = _("trick"); s.appendChild(xt);
    r.seats.forEach(function (name, k) {
      var d = "";
      pts.forEach(function (p) { var v = p.chances[k]; if (v !== null) d += (d ? " L" : "M") + x(p.at).toFixed(1) + " " + y(v).toFixed(1); });
      if (d) s.appendChild(svg("path", { d: d }, "series s" + (k % 8)));
      var key = el("span"); key.appendChild(el("span", "key k" + (k % 8))); key.appendChild(document.createTextNode(name)); lg.appendChild(key);
    });
    // the marked plays: a dot on the mover's line
    var marks = reviewMarks(g);
    pts.forEach(function (p) {
      var m = marks[p.at];
      if (!m) return;
      var k = r.seats.indexOf(m.seat), v = p.chances[k];
      if (v === null) return;
      var dot = svg("circle", { cx: x(p.at).toFixed(1), cy: y(v).toFixed(1), r: 4, "data-at": p.at, "data-mark": m.mark }, "dot s" + (k % 8));
      s.appendChild(dot);
    });
    s.appendChild(svg("line", { x1: x(at), x2: x(at), y1: T, y2: H - B, id: "chart-now" }, "now"));
    // one band per play, to click: it goes to that play
    pts.forEach(function (p, i) {
      var lo = i ? (x(pts[i - 1].at) + x(p.at)) / 2 : L, hi = i + 1 < pts.length ? (x(p.at) + x(pts[i + 1].at)) / 2 : W - 4;
      var band = svg("rect", { x: lo.toFixed(1), y: T, width: Math.max(1, hi - lo).toFixed(1), height: H - T - B, "data-at": p.at }, "hit");
      var tip = svg("title", {});
      tip.textContent = P()[p.at].label + ": " + r.seats.map(function (n, k) { var v = p.chances[k]; return n + " " + (v === null ? "?" : Math.round(v * 100) + "%"); }).join(", ");
      band.appendChild(tip);
      band.addEventListener("click", function () { show(p.at); });
      s.appendChild(band);
    });
    c.appendChild(s);
    c.appendChild(el("div", "sub", fmt(ngettext("{n} sampled deal a seat a play (seed {seed}); each seat judged from what it could know",
      "{n} sampled deals a seat a play (seed {seed}); each seat judged from what it could know", r.samples), { n: r.samples, seed: r.seed })));
  }
  function chartNow() {
    var n = document.getElementById("chart-now"), ps = P();
    if (!n || !ps.length) return;
    var W = CW, L = CL, last = ps.length - 1 || 1, xx = L + (W - L - 4) * at / last;
    n.setAttribute("x1", xx.toFixed(1)); n.setAttribute("x2", xx.toFixed(1));
  }

  function movesList() {
    var ol = clear($("moves")), g = game(), marks = reviewMarks(g);
    if (!g) return;
    g.moves.forEach(function (m) {
      var li = el("li");
      li.appendChild(el("span", "no", m.trick !== null ? m.trick + "." : "·"));
      m.plays.forEach(function (x) {
        var a = words(el("a", (x.card && face(x.card).red ? "red" : "") + (x.bad.length ? " bad" : "")), m.text || (x.seat + " " + x.card));
        a.href = "#" + (D.games.length > 1 ? "game-" + g.game + "/" : "") + "step-" + x.at;
        a.setAttribute("data-at", String(x.at));
        if (x.bad.length) a.title = x.bad.join(", ");
        var rm = marks[x.at];
        if (rm) {
          a.setAttribute("data-mark", rm.mark);
          a.appendChild(el("span", "mark mark-" + rm.mark.split(" ")[0], MARK_SIGNS[rm.mark]));
          a.title = (a.title ? a.title + "; " : "") + named(MARK_WORDS, rm.mark) + " (" + rm.detail + ")";
        }
        li.appendChild(a);
      });
      ol.appendChild(li);
    });
    var ul = clear($("mistakes"));
    g.mistakes.forEach(function (m, k) {
      var li = el("li"), a = words(el("a"), (m.trick !== null ? trickNo(m.trick) + ": " : "") + m.sentence);
      a.href = "#" + (D.games.length > 1 ? "game-" + g.game + "/" : "") + "mistake-" + (k + 1);
      li.appendChild(a); ul.appendChild(li);
    });
    $("mistakes-box").hidden = !g.mistakes.length;
  }

  // ---- a puzzle (getaway-ref puzzles): pick a card, the solver's answer (computed when the page was made) ----
  function puzzle() {
    var z = game() && game().puzzle, box = $("puzzle-box");
    box.hidden = !z;
    if (!z) return;
    $("puzzle-task").textContent = z.task;
    $("puzzle-played").textContent = z.played;
    $("puzzle-played").hidden = !z.played;
    $("puzzle-answer").textContent = "";
    var pc = clear($("puzzle-cards"));
    z.cards.forEach(function (x) {
      var b = el("button", face(x.card).red ? "red" : "", x.card);
      b.setAttribute("data-card", x.card);
      b.onclick = function () {
        pc.querySelectorAll("button").forEach(function (o) { o.classList.remove("picked"); });
        b.classList.add("picked", x.right ? "right" : "wrong");
        var a = $("puzzle-answer");
        a.textContent = x.verdict + " " + x.sentence;
        a.className = "answer " + (x.right ? "right" : "rejected");
        a.setAttribute("data-right", String(x.right));
        show(P().length - 1, true);
      };
      pc.appendChild(b);
    });
  }

  function openGame(i) { G = i; pickers(); header(); movesList(); chart(); puzzle(); }

  // ---- the address: #trick-N, #step-N, #mistake-N, each after game-G/ when the file has several ----
  function fromHash() {
    var h = decodeURIComponent(location.hash.replace(/^#/, "")), gi = G;
    // a puzzle opens at its moment, the record's end
    if (!h) return { at: P().length - 1 >= 0 && (SERVE || game().puzzle) ? P().length - 1 : 0 };
    var gm = /^game-(\d+)\/(.*)$/.exec(h);
    if (gm) {
      gi = -1;
      D.games.forEach(function (g, i) { if (String(g.game) === gm[1]) gi = i; });
      if (gi < 0) return { bad: fmt(_("#{place}: this page has no game {number} (it has {numbers}); showing game {shown}"),
        { place: h, number: gm[1], numbers: D.games.map(function (g) { return g.game; }).join(", "), shown: game().game }) };
      h = gm[2];
    }
    if (gi !== G) openGame(gi);
    var g = game(), m;
    if (!P().length) return { at: 0 };  // a game that cannot be replayed: its end says why
    if ((m = /^trick-(\d+)$/.exec(h))) {
      if (g.tricks[m[1]] !== undefined) return { at: g.tricks[m[1]] };
      var have = Object.keys(g.tricks).map(Number).sort(function (a, b) { return a - b; });
      return { bad: fmt(have.length ? _("#{place}: game {number} has tricks {first} to {last}; showing the start") : _("#{place}: game {number} has no tricks; showing the start"),
        { place: h, number: g.game, first: have[0], last: have[have.length - 1] }) };
    }
    if ((m = /^step-(\d+)$/.exec(h))) {
      var n = parseInt(m[1], 10);
      if (n < P().length) return { at: n };
      return { bad: fmt(_("#{place}: game {number} has steps 0 to {last}; showing the start"), { place: h, number: g.game, last: P().length - 1 }) };
    }
    if ((m = /^mistake-(\d+)$/.exec(h))) {
      var k = parseInt(m[1], 10);
      if (k >= 1 && k <= g.mistakes.length) return { at: g.mistakes[k - 1].at };
      return { bad: fmt(g.mistakes.length ? _("#{place}: game {number} has findings 1 to {last}; showing the start") : _("#{place}: game {number} has no findings; showing the start"),
        { place: h, number: g.game, last: g.mistakes.length }) };
    }
    return { bad: fmt(_("#{place} is not a place in this page (#trick-N, #step-N or #mistake-N); showing the start"), { place: h }) };
  }
  function goHash() {
    var r = fromHash();
    notice(r.bad || "");
    show(r.bad ? 0 : r.at);
  }

  function trickJump(dir) {
    var ps = P(), k = at + dir;
    var cur = ps[at] ? ps[at].trick : null;
    while (k >= 0 && k < ps.length && (ps[k].trick === null || ps[k].trick === cur)) k += dir;
    if (k >= 0 && k < ps.length) {
      if (dir < 0) { var t = ps[k].trick; while (k > 0 && ps[k - 1].trick === t) k--; }
      show(k);
    }
  }

  $("first").onclick = function () { show(0); };
  $("prev").onclick = function () { show(at - 1); };
  $("next").onclick = function () { show(at + 1); };
  $("last").onclick = function () { show(P().length - 1); };
  $("slider").oninput = function () { show(parseInt($("slider").value, 10)); };
  $("game").onchange = function () { openGame(parseInt($("game").value, 10)); notice(""); show(game().puzzle ? P().length - 1 : 0); };
  $("view").onchange = function () { view = $("view").value; show(at, true); };
  document.addEventListener("keydown", function (ev) {
    var tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" && ev.target.type !== "range" || tag === "SELECT" || tag === "TEXTAREA") return;
    var k = ev.key;
    // forward is the way the page reads: right in English, left in Urdu
    var fwd = rtl() ? "ArrowLeft" : "ArrowRight", back = rtl() ? "ArrowRight" : "ArrowLeft";
    if (k === "Escape" && SERVE && !$("confirm").hidden) { $("confirm-no").click(); ev.preventDefault(); return; }
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (k === fwd) show(at + 1);
    else if (k === back) show(at - 1);
    else if (k === "Home") show(0);
    else if (k === "End") show(P().length - 1);
    else if (k === "]") trickJump(1);
    else if (k === "[") trickJump(-1);
    else return;
    ev.preventDefault();
  });
  window.addEventListener("hashchange", goHash);

  // ---- the language: the picker's choice kept on this phone (localStorage, and a cookie the server reads) ----
  var picker = $("lang");
  function goLang(code) {
    var u = new URL(window.location.href);
    u.searchParams.set("lang", code);
    window.location.replace(u.toString());
  }
  // (the offline site's pages: its lang.js, window.getawayLang, keeps the choice and opens the page in it)
  if (picker && !window.getawayLang) {
    var kept = null;
    try { kept = window.localStorage.getItem("getaway-lang"); } catch (e) { kept = null; }
    var asked = new URL(window.location.href).searchParams.get("lang");
    if (kept && !asked && kept !== picker.value) goLang(kept);
    picker.onchange = function () {
      try { window.localStorage.setItem("getaway-lang", picker.value); } catch (e) { /* private mode: this page only */ }
      document.cookie = "lang=" + encodeURIComponent(picker.value) + "; path=/; SameSite=Strict; max-age=31536000";
      goLang(picker.value);
    };
  }

  // ---- speaking the ruling (the browser's own speech synthesis; nothing is sent anywhere) ----
  var synth = window.speechSynthesis;
  function say(text) {
    if (!synth || !text) return;
    synth.cancel();
    var u = new SpeechSynthesisUtterance(text);
    u.lang = document.documentElement.lang;  // the page's language, where the phone has a voice for it
    synth.speak(u);
  }
  if (synth) {
    $("speak").hidden = false;
    $("speak").onclick = function () {
      var p = P()[at];
      if (!p) return;
      say(p.diagnostics.length ? p.diagnostics.map(function (d) { return d.sentence; }).join(" ") : [p.what, p.fate, p.lead].filter(Boolean).join(". "));
    };
  }

  openGame(G);

  if (!SERVE) { goHash(); return; }

  // ---- serve: the live table ----
  var Q = location.search, L = D.live || {}, RECORDER = D.role === "recorder", seat = null, lastAnswer = -1;
  // a seat's own phone (serve --seat-phones) records that seat's plays only
  var OWN = D.role === "seat" ? D.seat : null;
  // serve's transport: a POST for each change or question (the door's refusals are one line
  // of text), the event stream for the table as it changes.
  function httpTransport() {
    return {
      post: function (path, body) {
        return fetch(path + Q, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}) })
          .then(function (r) {
            return r.text().then(function (t) {
              var j;
              try { j = JSON.parse(t); } catch (x) { j = { error: t.trim() || r.statusText }; }
              if (!r.ok) { var e = new Error(j.error || r.statusText); e.refused = r.status === 409; throw e; }
              return j;
            });
          });
      },
      listen: function (got, lost) {
        var es = new EventSource("events" + Q);
        es.onmessage = function (ev) { got(JSON.parse(ev.data)); };
        es.onerror = lost;
      }
    };
  }
  var T = window.getawayTable || httpTransport();
  function post(path, body) {
    $("status").textContent = _("sending…");
    return T.post(path, body)
      .then(function (j) { $("status").textContent = ""; return j; })
      .catch(function (e) { $("status").textContent = e.refused ? e.message : fmt(_("not sent: {why}"), { why: e.message }); throw e; });
  }
  // Each entry carries the version of the record it was made on: sent twice (a retry, a
  // second tap before the table was redrawn), it is refused, never recorded twice.
  function entry(text) {
    return post("entry", { text: text, version: L.version }).then(function (j) {
      if (j.version) L.version = j.version;
      if (j.answer) answer(j.answer);
      return true;
    }, function () { return false; });
  }
  function answer(a) {
    if (!a || a.n === lastAnswer) return;
    lastAnswer = a.n;
    var box = $("answer");
    words(box, a.text);
    // every phone says the ruling: at once for a mistake or a refused entry
    speak(a.alert ? "alarm" : "announce", a.text);
    box.className = "answer" + (a.kind === "rejected" || a.kind === "question" ? " rejected" : "");
    words($("why-text"), a.why || "");
    $("why-text").hidden = true; $("why").setAttribute("aria-expanded", "false");
    $("why").hidden = !a.why;
    $("speak-answer").hidden = !synth;
  }
  $("why").onclick = function () { var w = $("why-text"); w.hidden = !w.hidden; $("why").setAttribute("aria-expanded", String(!w.hidden)); };
  $("speak-answer").onclick = function () { say($("answer").textContent); };
  function cardButton(t, legal) {
    var b = el("button", (face(t).red ? "red" : "") + (legal ? " legal" : ""), t);
    b.setAttribute("data-card", t);
    b.onclick = function () { entry(game().seats[seat] + " " + t); };
    return b;
  }
  // The seat the picker shows after a change of the record: the seat to act; when several
  // may (the first trick, in any order), the seat shown if it still has to play, else the next
  // one round the table that has (never the seat that has just played).
  function nextSeat() {
    if (L.to_act !== null && L.to_act !== undefined) return L.to_act;
    var n = L.order.length, k = L.order.indexOf(seat);
    if (seat !== null && L.seats[seat] && L.seats[seat].action) return seat;
    for (var j = 1; j <= n; j++) { var i = L.order[(k + j + n) % n]; if (L.seats[i] && L.seats[i].action) return i; }
    return seat !== null && L.seats[seat] ? seat : (n ? L.order[0] : null);
  }
  var pickedOn = null;  // the version of the record the seat was last chosen on
  function recorder() {
    if (!RECORDER && OWN === null) return;
    $("recorder").hidden = false;
    $("typed").hidden = false;
    words($("turn"), L.turn || "");
    // The buttons are made again for each change of the record: a keyboard's focus inside
    // them is put back (the same card or seat, else the first card, else the chosen seat).
    var had = document.activeElement, inside = had && $("recorder").contains(had) && had !== $("undo") && had !== $("new")
      && !$("confirm").contains(had), wasCard = inside && had.getAttribute("data-card"), wasSeat = inside && had.getAttribute("data-seat");
    var ps = clear($("pick-seat"));
    if (OWN !== null) seat = game().seats.indexOf(OWN);
    else if (seat === null || !L.seats[seat] || L.version !== pickedOn) seat = nextSeat();
    pickedOn = L.version;
    L.order.forEach(function (i) {
      if (OWN !== null && i !== seat) return;  // a seat's own phone: its seat only
      var s = L.seats[i], b = el("button", "", s.seat + (s.action ? "" : " ·"));
      b.setAttribute("aria-pressed", String(i === seat));
      b.setAttribute("data-seat", s.seat);
      b.onclick = function () { seat = i; recorder(); };
      ps.appendChild(b);
    });
    var pc = clear($("pick-card"));
    if (seat !== null && L.seats[seat]) {
      var s = L.seats[seat];
      s.legal.forEach(function (c) { pc.appendChild(cardButton(c, true)); });
      if (s.other.length) {
        pc.appendChild(el("span", "sep", fmt(s.legal.length ? _("other cards {seat} may hold (a mistake if played now):") : _("cards {seat} may hold:"), { seat: s.seat })));
        s.other.forEach(function (c) { pc.appendChild(cardButton(c, false)); });
      }
    }
    var po = clear($("pick-other"));
    function mine(t) { return OWN === null || t.indexOf(OWN + " ") === 0; }
    L.takes.filter(mine).forEach(function (t) { var b = el("button", "", t); b.onclick = function () { entry(t); }; po.appendChild(b); });
    (L.draws || []).filter(mine).forEach(function (t) { var b = el("button", "", t); b.onclick = function () { entry(t); }; po.appendChild(b); });
    $("undo").disabled = !L.undo;
    $("undo").hidden = !RECORDER;
    $("new").hidden = !L.over || !RECORDER;
    if (inside && !document.body.contains(had)) {
      var back = (wasCard && pc.querySelector('button[data-card="' + wasCard + '"]')) || (!wasSeat && pc.querySelector("button"))
        || ps.querySelector('button[aria-pressed="true"]') || po.querySelector("button") || (!$("new").hidden && $("new"));
      if (back) back.focus();
    }
  }
  function asking() {
    $("hint").hidden = !L.hints;  // off unless the table was started with serve --hints
    var sq = clear($("seat-questions"));
    (game() ? game().seats : []).forEach(function (s) {
      var b = el("button", "", fmt(_("What may {seat} play?"), { seat: s }));
      b.onclick = function () { post("ask", { q: "legal", seat: s }).then(function (j) { words($("reply"), j.answer); }, function () {}); };
      sq.appendChild(b);
    });
  }
  document.querySelectorAll("#questions button").forEach(function (b) {
    b.onclick = function () { post("ask", { q: b.getAttribute("data-q") }).then(function (j) { words($("reply"), j.answer); }, function () {}); };
  });
  $("typed").onsubmit = function (ev) {
    ev.preventDefault();
    var v = $("entry").value;
    if (!v.trim()) return;
    entry(v).then(function (sent) { if (sent) $("entry").value = ""; });
  };
  // Typing: the box at the foot of the screen (above a phone's keyboard), the table above it.
  function keepTable() {
    if (document.activeElement !== $("entry")) return;
    var r = $("typed").getBoundingClientRect(), h = window.visualViewport ? window.visualViewport.height : window.innerHeight;
    if (r.bottom > h || r.top < 0 || $("felt").getBoundingClientRect().top < 0) window.scrollBy(0, r.bottom - h + 4);
  }
  $("entry").addEventListener("focus", function () { setTimeout(keepTable, 50); });
  if (window.visualViewport) window.visualViewport.addEventListener("resize", keepTable);
  $("undo").onclick = function () { words($("confirm-text"), fmt(_("Undo removes '{entry}' from the record. Remove it?"), { entry: L.undo })); $("confirm").hidden = false; $("confirm-no").focus(); };
  // the question closes (Keep it, Remove it, Escape) with the focus back on Undo
  $("confirm-no").onclick = function () { $("confirm").hidden = true; $("undo").focus(); };
  $("confirm-yes").onclick = function () {
    $("confirm").hidden = true; $("undo").focus();
    post("undo", { expect: L.undo }).then(function (j) { if (j.answer) answer(j.answer); }, function () {});
  };
  $("new").onclick = function () { post("new", {}).then(function (j) { if (j.answer) answer(j.answer); }, function () {}); };

  function update(msg) {
    var was = follow;
    var sameGame = game() && msg.game.game === game().game;
    D.games = [msg.game]; L = msg.live;
    openGame(0);
    show(was || !sameGame ? P().length - 1 : at, !was, true);
    recorder(); asking(); answer(L.answer);
    document.body.setAttribute("data-version", String(L.version));
  }
  if (D.games.length) update({ game: D.games[0], live: L });
  T.listen(function (msg) { update(msg); $("status").textContent = ""; },
           function (why) { $("status").textContent = why && why.message ? why.message : _("connection lost; reconnecting…"); });
})();
