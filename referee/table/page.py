"""``getaway-ref html``: one self-contained page that replays a game.

Everything shown is computed here, in Python, from the referee's walk of the game
(:func:`referee.table.answers.walk`): one position a step (the start, then each play, take,
draw or count), with the trick on the table, every hand (its cards where known, its size
where not), the waste pile, who acts next and why, who got away, and each diagnostic at the
play it is about. The positions are embedded in the page as JSON; the page's script only
displays them (no rule is known to it). No network: the styles and the script are inline,
the cards are text in the system's fonts.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Optional

from referee.engine import cards as C
from referee.engine import events as EV
from referee.engine import state as E
from referee.notation.record import Counts, Draw, Game, Play, Take
from referee.judging.referee import Step
from referee.commands import UsageError, rules_options
from referee.reports.diagnostics import Diagnostic
from referee.files import WriteError, check_distinct, recover, write_text
from referee.reports.render import print_error
from referee.table.views import TableError, read_clean_game
from referee.table.answers import (
    Walk, walk, lead_phrase, diagnostic_sentence, penalty_applied, rule_of, events_sentence, item_sentence, play_phrase,
)


def _card(c: int) -> dict[str, str]:
    s = C.card_str(c)
    return {"rank": s[:-1] if not s.endswith("*") else "A*", "suit": C.SUIT_SYMBOLS[C.SUIT[c]],
            "red": "1" if C.SUIT[c] in (C.HEARTS, C.DIAMONDS) else "", "text": s}


def _diag(d: Diagnostic) -> dict[str, object]:
    return {"code": d.code, "severity": d.severity, "message": d.message, "rule": rule_of(d),
            "penalty": (d.help or "") if d.code.startswith("M") else "", "applied": penalty_applied(d),
            "sentence": diagnostic_sentence(d), "trick": d.trick}


def _position(w: Walk, upto: int, e: E.Engine, st: Optional[Step]) -> dict[str, object]:
    """What the page shows after step ``upto`` (0: the start)."""
    seats = w.game.seats
    steps = w.steps[:upto]
    sub = Walk(w.game, w.result, w.start, steps, w.loose)
    # the trick on the table: the one being played, or the one that just ended
    if e.trick:
        on_table = list(e.trick)
        fate = ""
        number = e.trick_no
    elif st is not None and isinstance(st.item, Play) and e.last_trick:
        on_table = list(e.last_trick)
        number = st.trick or e.trick_no - 1
        fate = events_sentence(st, seats)  # how the trick ended, who got away, the end of the game
    else:
        on_table, fate, number = [], "", e.trick_no
    # diagnostics at the plays of the trick shown, up to this step
    marks: dict[int, list[str]] = {}
    diags = []
    if st is not None:
        k = upto - 1
        trick_steps = []
        while k >= 0 and w.steps[k].trick is not None and w.steps[k].trick == st.trick:
            trick_steps.append(w.steps[k])
            k -= 1
        if not trick_steps:
            trick_steps = [st]
        for s2 in reversed(trick_steps):
            for d in s2.diagnostics:
                diags.append(_diag(d))
                if isinstance(s2.item, Play):
                    marks.setdefault(s2.item.seat, []).append(d.code)
    hands = []
    turn = e.to_act()
    for s in e.seq:
        known = e.known(s)
        hands.append({
            "seat": seats[s], "size": e.size(s), "known": [_card(c) for c in known], "unseen": e.unknown[s],
            "out": (e.out_order.index(s) + 1) if e.out[s] and s in e.out_order else 0,
            # "the power" only for the highest card of the last trick (the engine's lead reason)
            "power": bool(e.power == s and e.phase in (E.BETWEEN, E.DRAW_DUE) and e.lead_why is EV.LeadReason.POWER),
            "leads": bool(e.power == s and e.phase == E.BETWEEN), "turn": turn == s,
            "loser": e.phase == E.OVER and e.loser == s,
        })
    if st is None:
        what = "The deal" if w.game.setup is not None and type(w.game.setup).__name__ == "Deal" else "The position"
        label = "start"
    elif isinstance(st.item, Play):
        what = play_phrase(st, seats)
        what = what[:1].upper() + what[1:]
        label = f"trick {st.trick}: {seats[st.item.seat]} {C.card_str(st.item.card)}"
    else:
        what = item_sentence(st, seats)
        what = what[:1].upper() + what[1:]
        it = st.item
        label = ("take" if isinstance(it, Take) else "draw" if isinstance(it, Draw)
                 else "counts" if isinstance(it, Counts) else "item")
    return {
        "label": label, "trick": st.trick if st is not None else None, "number": number,
        "table": [{"seat": seats[s], "card": _card(c), "marks": marks.get(s, [])} for s, c in on_table],
        "fate": fate[:1].upper() + fate[1:] if fate else "",
        "what": what, "lead": lead_phrase(sub, e)[:1].upper() + lead_phrase(sub, e)[1:],
        "hands": hands, "waste": e.waste_size(), "out": [seats[s] for s in e.out_order],
        "trumps": C.suit_name(e.trump, True) if e.trumps and e.trump >= 0 else "",
        "diagnostics": diags,
    }


def page_data(w: Walk) -> dict[str, object]:
    """Every position of the game, for the page (and for tests)."""
    g = w.game
    positions = []
    if w.start is not None:
        positions.append(_position(w, 0, w.start, None))
    for k, st in enumerate(w.steps):
        positions.append(_position(w, k + 1, st.after, st))
    # #trick-N opens at the last play of trick N: the whole trick on the table
    tricks: dict[str, int] = {}
    for i, p in enumerate(positions):
        if p["trick"] is not None:
            tricks[str(p["trick"])] = i
    res = w.result
    end = ""
    if res.stopped:
        end = f"The replay stops: {res.stopped}"
    elif res.finished and res.loser is not None:
        end = f"Game over: {g.seats[res.loser]} lost" + (f" ({res.legs} leg{'s' if res.legs != 1 else ''})" if res.legs and res.rules and res.rules.trumps else "")
    return {
        "title": g.tag("Event") or f"Game {g.number}",
        "path": g.path, "game": g.number, "rules": res.rules.spec() if res.rules else g.rules,
        "seats": list(g.seats), "positions": positions, "tricks": tricks, "end": end,
        "loose": [_diag(d) for d in w.loose],
    }


def render_page(w: Walk) -> str:
    data = json.dumps(page_data(w), ensure_ascii=False, separators=(",", ":"))
    # A JSON string may hold '</script>': break it so the HTML parser cannot see it.
    data = data.replace("</", "<\\/").replace("<!--", "<\\!--")
    title = html.escape(f"{w.game.tag('Event') or 'Game ' + str(w.game.number)} — getaway-ref replay")
    return TEMPLATE.replace("@@TITLE@@", title).replace("@@DATA@@", data)


TEMPLATE = r"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="getaway-ref html">
<title>@@TITLE@@</title>
<style>
:root { --felt: #1f5f3f; --ink: #1b1b1b; --red: #c8102e; --black: #111; --paper: #fffdf7; --bad: #d32f2f; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #eef1ee; }
header { padding: 10px 14px; background: #123; color: #fff; }
header h1 { margin: 0; font-size: 1.15rem; }
header .sub { font-size: .85rem; opacity: .8; }
main { max-width: 980px; margin: 0 auto; padding: 10px; }
.controls { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; margin: 8px 0; }
.controls button { font-size: 1.1rem; min-width: 44px; min-height: 44px; border-radius: 8px; border: 1px solid #888; background: #fff; cursor: pointer; }
.controls input[type=range] { flex: 1 1 160px; min-width: 120px; }
#label { font-weight: 600; min-width: 12em; }
.felt { background: var(--felt); border-radius: 14px; padding: 14px; color: #fff; }
#what { font-size: 1.05rem; margin-bottom: 8px; }
.trick { display: flex; gap: 10px; flex-wrap: wrap; min-height: 150px; align-items: flex-end; }
.slot { display: flex; flex-direction: column; align-items: center; gap: 4px; }
.slot .who { font-size: .9rem; }
.card { width: 84px; height: 120px; background: var(--paper); border-radius: 9px; border: 1px solid #999; box-shadow: 0 2px 4px rgba(0,0,0,.35);
        display: flex; flex-direction: column; justify-content: space-between; padding: 6px 8px; color: var(--black); }
.card.red { color: var(--red); }
.card .r { font-size: 1.6rem; font-weight: 700; line-height: 1; }
.card .s { font-size: 2.6rem; line-height: 1; align-self: center; }
.card.bad { outline: 5px solid var(--bad); outline-offset: 1px; }
.badge { background: var(--bad); color: #fff; border-radius: 6px; padding: 0 6px; font-size: .8rem; font-weight: 700; }
#fate, #lead { margin-top: 8px; }
#lead { font-weight: 600; }
.facts { display: flex; gap: 14px; flex-wrap: wrap; margin: 10px 0; font-size: .95rem; }
.hands { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 8px; }
.hand { background: #fff; border-radius: 10px; padding: 8px 10px; border: 2px solid transparent; }
.hand.turn { border-color: #f0a500; }
.hand.out { opacity: .6; }
.hand.loser { border-color: var(--bad); }
.hand h3 { margin: 0 0 4px; font-size: 1rem; display: flex; flex-wrap: wrap; justify-content: space-between; gap: 0 6px; }
.mini { display: inline-block; min-width: 2.3em; padding: 1px 3px; margin: 1px; border: 1px solid #bbb; border-radius: 4px; text-align: center; font-weight: 600; background: var(--paper); }
.mini.red { color: var(--red); }
.unseen { color: #555; font-style: italic; }
.diag { background: #fff3f3; border-left: 6px solid var(--bad); border-radius: 6px; padding: 8px 10px; margin: 8px 0; }
.diag .code { font-weight: 700; color: var(--bad); }
.diag .applied { font-weight: 600; }
footer { font-size: .8rem; color: #555; margin: 14px 0; }
@media (max-width: 560px) {
  .card { width: 64px; height: 92px; padding: 4px 6px; }
  .card .r { font-size: 1.25rem; } .card .s { font-size: 2rem; }
  .hands { grid-template-columns: 1fr 1fr; }
  #label { min-width: 0; flex-basis: 100%; order: 9; }
}
</style>
</head>
<body>
<header><h1 id="title"></h1><div class="sub" id="sub"></div></header>
<main>
  <div class="controls">
    <button id="first" title="start (Home)" aria-label="start">«</button>
    <button id="prev" title="back (←)" aria-label="back">◀</button>
    <button id="next" title="forward (→)" aria-label="forward">▶</button>
    <button id="last" title="end (End)" aria-label="end">»</button>
    <input type="range" id="slider" min="0" value="0" aria-label="step">
    <span id="label"></span>
  </div>
  <section class="felt">
    <div id="what"></div>
    <div class="trick" id="trick"></div>
    <div id="fate"></div>
    <div id="lead"></div>
  </section>
  <div id="diags"></div>
  <div class="facts"><span id="waste"></span><span id="trumps"></span><span id="out"></span></div>
  <div class="hands" id="hands"></div>
  <div id="end"></div>
  <footer>getaway-ref replay: ← → step, Home/End jump; the address #trick-N opens trick N. Every position is the referee's replay of the record.</footer>
</main>
<script type="application/json" id="data">@@DATA@@</script>
<script>
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  var P = D.positions, at = 0;
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
  function big(c, marks) {
    var d = el("div", "card" + (c.red ? " red" : "") + (marks && marks.length ? " bad" : ""));
    d.setAttribute("data-card", c.text);
    d.appendChild(el("span", "r", c.rank)); d.appendChild(el("span", "s", c.suit)); d.appendChild(el("span", "r", ""));
    return d;
  }
  function mini(c) { var s = el("span", "mini" + (c.red ? " red" : ""), c.text); return s; }
  document.getElementById("title").textContent = D.title;
  document.getElementById("sub").textContent = D.path + " · game " + D.game + " · rules " + D.rules + " · " + D.seats.join(", ");
  var slider = document.getElementById("slider");
  slider.max = String(Math.max(0, P.length - 1));
  function show(i) {
    at = Math.max(0, Math.min(P.length - 1, i));
    var p = P[at];
    slider.value = String(at);
    document.getElementById("label").textContent = (at) + " / " + (P.length - 1) + " · " + p.label;
    document.getElementById("what").textContent = p.what;
    var t = document.getElementById("trick"); t.innerHTML = "";
    if (p.table.length) {
      var h = el("div", "who", "Trick " + p.number); h.style.flexBasis = "100%"; t.appendChild(h);
    }
    p.table.forEach(function (x) {
      var s = el("div", "slot"); s.setAttribute("data-seat", x.seat);
      s.appendChild(big(x.card, x.marks));
      var w = el("div", "who", x.seat + " ");
      x.marks.forEach(function (m) { w.appendChild(el("span", "badge", m)); });
      s.appendChild(w); t.appendChild(s);
    });
    document.getElementById("fate").textContent = p.fate;
    document.getElementById("lead").textContent = p.lead;
    var ds = document.getElementById("diags"); ds.innerHTML = "";
    p.diagnostics.concat(at === P.length - 1 ? D.loose : []).forEach(function (d) {
      var b = el("div", "diag");
      b.appendChild(el("span", "code", d.code + " ")); b.appendChild(el("span", "msg", d.message));
      if (d.rule) b.appendChild(el("div", "rule", "Rule: " + d.rule));
      if (d.penalty) b.appendChild(el("div", "penalty", d.penalty.charAt(0).toUpperCase() + d.penalty.slice(1)));
      if (d.applied !== null) b.appendChild(el("div", "applied", d.applied ? "The table applied the penalty." : "The table did not apply the penalty; the referee follows the record as played."));
      ds.appendChild(b);
    });
    document.getElementById("waste").textContent = "Waste pile: " + p.waste + " card" + (p.waste === 1 ? "" : "s");
    document.getElementById("trumps").textContent = p.trumps ? "Trumps: " + p.trumps : "";
    document.getElementById("out").textContent = p.out.length ? "Got away: " + p.out.map(function (s, k) { return (k + 1) + ". " + s; }).join(", ") : "";
    var hs = document.getElementById("hands"); hs.innerHTML = "";
    p.hands.forEach(function (x) {
      var b = el("div", "hand" + (x.turn ? " turn" : "") + (x.out ? " out" : "") + (x.loser ? " loser" : ""));
      b.setAttribute("data-seat", x.seat);
      var h = el("h3"); h.appendChild(el("span", "", x.seat + (x.power ? " ★ power" : "") + (x.leads ? " · leads" : "")));
      h.appendChild(el("span", "size", x.out ? "got away (" + x.out + ")" : x.size + " card" + (x.size === 1 ? "" : "s")));
      b.appendChild(h);
      x.known.forEach(function (c) { b.appendChild(mini(c)); });
      if (x.unseen) b.appendChild(el("span", "unseen", (x.known.length ? " + " : "") + x.unseen + " unseen"));
      hs.appendChild(b);
    });
    document.getElementById("end").textContent = at === P.length - 1 ? D.end : "";
    var want = p.trick !== null && D.tricks[String(p.trick)] === at ? "#trick-" + p.trick : "#step-" + at;
    if (location.hash !== want) history.replaceState(null, "", want);
  }
  function fromHash() {
    var m = /^#trick-(\d+)$/.exec(location.hash), s = /^#step-(\d+)$/.exec(location.hash);
    if (m && D.tricks[m[1]] !== undefined) return D.tricks[m[1]];
    if (s) return parseInt(s[1], 10);
    return 0;
  }
  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("prev").onclick = function () { show(at - 1); };
  document.getElementById("next").onclick = function () { show(at + 1); };
  document.getElementById("last").onclick = function () { show(P.length - 1); };
  slider.oninput = function () { show(parseInt(slider.value, 10)); };
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "ArrowRight") { show(at + 1); ev.preventDefault(); }
    else if (ev.key === "ArrowLeft") { show(at - 1); ev.preventDefault(); }
    else if (ev.key === "Home") { show(0); ev.preventDefault(); }
    else if (ev.key === "End") { show(P.length - 1); ev.preventDefault(); }
  });
  window.addEventListener("hashchange", function () { show(fromHash()); });
  show(fromHash());
})();
</script>
</body>
</html>
"""


def _ours(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return b'<meta name="generator" content="getaway-ref html">' in head


def html_command(file: Path, output: Optional[Path] = None, game: Optional[int] = None,
                 rules: Optional[str] = None) -> int:
    """``getaway-ref html``: the page of a game written beside the record (or to ``output``);
    exit 1 if the replay stops early. A file that is not a page of ours is never replaced
    unless it was named."""
    default, overrides = rules_options(rules, None, [])
    out = output if output is not None else file.with_suffix(".html")
    if out.resolve() == file.resolve():
        raise UsageError(f"{out} is the record itself; give another page name with -o")
    recover([file, out])  # a rewrite of either cut short by a kill: put back first
    try:
        # The page is never written over the record, by any name (a hard link, a symlink).
        check_distinct(out, [file])
    except WriteError as ex:
        raise UsageError(str(ex)) from None
    try:
        g: Game = read_clean_game(file, game)
    except TableError as e:
        print_error(e.message)
        return e.code
    w = walk(g, default, overrides)
    page = render_page(w)
    if output is None and out.exists() and not _ours(out):
        # A page of ours is replaced; any other file is the user's, kept unless named.
        raise UsageError(f"{out} exists and is not a page of getaway-ref; name it with -o to replace it")
    try:
        write_text(out, page, inputs=[file])
    except WriteError as ex:  # its own one line, naming the page
        raise UsageError(str(ex)) from None
    except OSError as ex:
        raise UsageError(f"cannot write {out}: {ex.strerror or ex}") from None
    print(f"wrote {out}: game {g.number}, {len(w.steps)} steps"
          + (f"; the replay stops early: {w.result.stopped}" if w.result.stopped else ""))
    return 1 if w.result.stopped else 0
