"""``getaway-ref html``: one self-contained page that replays the games of a record, and the
table that ``serve`` shows on the phones (the same template, styles and script).

Everything shown is computed here, in Python, from the referee's one walk of each game
(:func:`referee.table.answers.walk`, which consumes :mod:`referee.judging.replay`): one
position a step (the start, then each play, take, draw or count), with the trick on the
table, every hand (its cards where known, its size where not, the suits it has shown it
lacks), the waste pile's cards, who acts next and why, who got away, and each diagnostic at
the play it is about, in the sentences of :mod:`referee.table.answers`. The page's script
only displays them: no rule is known to it.

The page is a Jinja2 template with autoescaping; the data goes in as JSON through Jinja's
``tojson`` (``<``, ``>``, ``&`` and ``'`` written as ``\\u`` escapes, so neither ``</script``
nor ``<!--`` can end the block, and U+2028/U+2029 are escaped too). A Content-Security-Policy
names the page's one style and one script by their hashes: nothing else runs and nothing is
fetched.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

from referee.archive.games import TableError, read_clean_game, read_game
from referee.commands import UsageError, rules_options
from referee.commands.options import cannot_write
from referee.engine import cards as C
from referee.engine import events as EV
from referee.engine import language as L
from referee.engine import state as E
from referee.engine.rules import RuleSet
from referee.files import WriteError, check_distinct, recover, write_text
from referee.judging.referee import Step
from referee.notation.reader import ReadError, read
from referee.notation.record import Counts, Draw, Game, Play, Take
from referee.reports.diagnostics import Diagnostic
from referee.reports.render import print_error
from referee.review.puzzles import page_data
from referee.review.report import play_lines
from referee.review.review import GameReview, review_game
from referee.table.answers import (
    Walk,
    diagnostic_sentence,
    events_sentence,
    item_sentence,
    lead_phrase,
    outcome,
    outcome_clause,
    penalty_applied,
    play_phrase,
    rule_of,
    walk,
)
from referee.table.views import ending_note

# How the page ends a game whose replay stopped (its exit code reads it back).
_STOPS = L.N_("The replay stops: {why}")
GENERATOR = '<meta name="generator" content="getaway-ref html">'
MOST_GAMES = 200  # a page of every game of a larger file would be too heavy for a phone: --game picks one


def card_data(c: int) -> str:
    """A card as the page gets it: its text (``10♥``, ``A♠*``); the page draws it from that."""
    return C.card_str(c)


def _diag(d: Diagnostic) -> dict[str, object]:
    return {"code": d.code, "severity": d.severity, "message": d.message, "rule": rule_of(d),
            "penalty": (d.help or "") if d.code.startswith("M") else "", "applied": penalty_applied(d),
            "sentence": _cap(diagnostic_sentence(d)), "trick": d.trick}


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


class _Seen:
    """What the whole table has seen go into each hand and is still there: the cards of a
    trick picked up (they were face up on the table), moved on by a take and a draw, gone
    when played. It only follows the engine's events; it decides nothing."""

    def __init__(self, n: int) -> None:
        self.cards: list[list[int]] = [[] for _ in range(n)]

    def follow(self, st: Step) -> None:
        after = st.after.view()
        for ev in st.events:
            if isinstance(ev, EV.Played):
                if ev.card in self.cards[ev.seat]:
                    self.cards[ev.seat].remove(ev.card)
            elif isinstance(ev, (EV.PickedUp, EV.Penalty)):
                if after.picked_up_by == ev.seat or isinstance(ev, EV.Penalty):
                    self.cards[ev.seat].extend(c for _, c in after.last_trick)
            elif isinstance(ev, EV.Took):
                self.cards[ev.taker].extend(self.cards[ev.target])
                self.cards[ev.target] = []
            elif isinstance(ev, EV.Drew):
                if ev.source is not None and ev.source >= 0 and ev.card in self.cards[ev.source]:
                    self.cards[ev.source].remove(ev.card)

    def of(self, v: E.View, s: int) -> list[int]:
        """The seen cards the engine still places in the hand (a multiset for a double pack)."""
        held = list(v.known[s])
        out = []
        for c in self.cards[s]:
            if c in held:
                held.remove(c)
                out.append(c)
        return C.sort_cards(out)


def _trick_ending(w: Walk, upto: int, st: Step, next_trick: int) -> str:
    """How the trick of the play at step ``upto`` ended and who leads next, from its
    :func:`outcome` as the replay has it up to this step: one pickup (after a penalty, the
    penalty's) and one leader, the ones the engine keeps. The next trick is numbered as the
    lead line numbers it (the engine's count: written trick numbers may be out of order)."""
    seats = w.game.seats
    assert st.trick is not None
    o = outcome(Walk(w.game, w.result, w.start, w.steps[:upto], w.loose), st.trick)
    return outcome_clause(o, seats, highest=True, next_trick=next_trick, ends=True)


def _played_on(w: Walk, upto: int, st: Step) -> bool:
    """Whether the record has more plays of this step's trick after it: the engine may end
    the trick here (a tochoo), but a later play of it (a play after the tochoo) can change
    who picks up and who leads, so neither is told until the trick's last play."""
    return st.trick is not None and any(s2.trick == st.trick for s2 in w.steps[upto:])


def _position(w: Walk, upto: int, e: E.Engine, st: Step | None, seen: _Seen) -> dict[str, object]:
    """What the page shows after step ``upto`` (0: the start)."""
    seats = w.game.seats
    v = e.view()
    sub = Walk(w.game, w.result, w.start, w.steps[:upto], w.loose)
    # a trick the engine ended while the record still plays on to it: no pickup, no leader yet
    pending = st is not None and isinstance(st.item, Play) and not v.trick and _played_on(w, upto, st)
    # the trick on the table: the one being played, or the one that just ended
    if v.trick:
        on_table = list(v.trick)
        fate = ""
        number = v.trick_no
    elif st is not None and isinstance(st.item, Play) and v.last_trick:
        on_table = list(v.last_trick)
        number = st.trick or v.trick_no - 1
        if pending:
            fate = L.gettext("the record plays on to trick {trick}: who picks it up and who leads is told at its "
                             "last play").format(trick=number)
        elif st.trick is not None:
            fate = _trick_ending(w, upto, st, v.trick_no)  # the trick's outcome: one pickup, one leader
        else:
            fate = events_sentence(st, seats)
    else:
        on_table, fate, number = [], "", v.trick_no
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
    turn = v.to_act
    for s in v.order:
        void = "".join(C.SUIT_SYMBOLS[u] for u in v.voids[s])
        hands.append({
            "seat": seats[s], "index": s, "size": v.sizes[s], "known": [card_data(c) for c in v.known[s]],
            "unseen": v.sizes[s] - len(v.known[s]), "seen": [card_data(c) for c in seen.of(v, s)], "void": void,
            "out": (v.out_order.index(s) + 1) if s in v.out_order else 0,
            # "the power" only for the highest card of the last trick (the engine's lead reason)
            "power": bool(v.leader == s and v.phase in (E.Phase.BETWEEN, E.Phase.DRAW_DUE)
                          and v.lead_why is EV.LeadReason.POWER and not pending),
            "leads": bool(v.leader == s and v.phase == E.Phase.BETWEEN and not pending),
            "turn": turn == s and not pending,
            "loser": v.loser == s, "note": ending_note(v, s, seats),
        })
    if st is None:
        what = (L.gettext("The deal") if w.game.setup is not None and type(w.game.setup).__name__ == "Deal"
                else L.gettext("The position"))
        label = L.gettext("start")
    elif isinstance(st.item, Play):
        what = _cap(play_phrase(st, seats))
        label = f"{seats[st.item.seat]} {C.card_str(st.item.card)}"
    else:
        what = _cap(item_sentence(st, seats))
        it = st.item
        label = (f"{seats[it.taker]} takes {seats[it.target]}" if isinstance(it, Take)
                 else f"{seats[it.seat]} draws {C.card_str(it.card)}" if isinstance(it, Draw)
                 else "counts" if isinstance(it, Counts) else "item")
    waste = v.waste
    lead = "" if pending else _cap(lead_phrase(sub, e))
    return {
        "label": label, "trick": st.trick if st is not None else None, "number": number,
        "table": [{"seat": seats[s], "card": card_data(c), "marks": marks.get(s, [])} for s, c in on_table],
        "fate": _cap(fate), "what": what, "lead": lead,
        "hands": hands, "waste": v.waste_size, "waste_cards": [card_data(c) for c in C.sort_cards(waste)],
        "waste_unseen": v.waste_size - len(v.waste), "out": [seats[s] for s in v.out_order],
        "trumps": C.suit_name(v.trumps, True) if v.trumps is not None else "",
        "diagnostics": diags, "over": v.phase == E.Phase.OVER,
    }


def game_data(w: Walk) -> dict[str, object]:
    """Every position of one game, its trick list and its mistakes, for the page."""
    g = w.game
    positions: list[dict[str, object]] = []
    seen = _Seen(len(g.seats))
    if w.start is not None:
        positions.append(_position(w, 0, w.start, None, seen))
    moves: list[dict[str, object]] = []
    mistakes: list[dict[str, object]] = []
    for k, st in enumerate(w.steps):
        seen.follow(st)
        positions.append(_position(w, k + 1, st.after, st, seen))
        at = len(positions) - 1
        bad = [d.code for d in st.diagnostics]
        for d in st.diagnostics:
            mistakes.append({"at": at, "code": d.code, "sentence": _cap(diagnostic_sentence(d)), "trick": st.trick})
        if isinstance(st.item, Play):
            entry = {"at": at, "seat": g.seats[st.item.seat], "card": card_data(st.item.card), "bad": bad}
            if moves and moves[-1]["trick"] == st.trick and st.trick is not None:
                plays = moves[-1]["plays"]
                assert isinstance(plays, list)
                plays.append(entry)
            else:
                moves.append({"trick": st.trick, "plays": [entry], "text": ""})
        else:
            label = positions[-1]["label"]
            moves.append({"trick": None, "plays": [{"at": at, "seat": "", "card": None, "bad": bad}], "text": label})
    # #trick-N opens at the last play of trick N: the whole trick on the table
    tricks: dict[str, int] = {}
    for i, p in enumerate(positions):
        if p["trick"] is not None:
            tricks[str(p["trick"])] = i
    res = w.result
    end = ""
    if res.stopped:
        end = L.gettext(_STOPS).format(why=res.stopped)
    elif res.finished and res.loser is not None:
        if res.legs and res.rules and res.rules.donkey:
            end = L.ngettext("Game over: {seat} lost ({legs} leg)", "Game over: {seat} lost ({legs} legs)",
                             res.legs).format(seat=g.seats[res.loser], legs=res.legs)
        else:
            end = L.gettext("Game over: {seat} lost").format(seat=g.seats[res.loser])
    for d in w.loose:
        mistakes.append({"at": len(positions) - 1, "code": d.code, "sentence": _cap(diagnostic_sentence(d)), "trick": None})
    return {
        "title": g.tag("Event") or L.gettext("Game {number}").format(number=g.number), "game": g.number,
        "rules": res.rules.spec() if res.rules else (g.rules or ""),
        "seats": list(g.seats), "positions": positions, "tricks": tricks, "end": end,
        "loose": [_diag(d) for d in w.loose], "moves": moves, "mistakes": mistakes, "review": None,
        "puzzle": None,
    }


def review_data(r: GameReview, offset: int) -> dict[str, object]:
    """A game's review as the page shows it (``html --review``): each marked play's mark at
    its position, and every seat's chance of losing after each play, for the chart.
    ``offset``: the page's position of the replay's first step (1 after a start position)."""
    marks = []
    points = []
    for p in r.plays:
        at = p.step + offset
        mark = p.verdict if p.verdict in ("blunder", "only move") else p.mark
        if mark:
            # the play's tooltip in the trick list, in the page's words (a class: safe, open, lost)
            detail = (L.ngettext("exact, {n} card held: {best} -> {after}", "exact, {n} cards held: {best} -> {after}",
                                 p.held).format(n=p.held, best=L.gettext(p.best.value) if p.best else "",
                                                after=L.gettext(p.after.value) if p.after else "")
                      if p.exact else
                      L.ngettext("{before}% -> {after}% to lose, {n} sample", "{before}% -> {after}% to lose, {n} samples",
                                 p.samples).format(before=round(100 * (p.chance_before or 0)),
                                                   after=round(100 * (p.chance_after or 0)), n=p.samples))
            # The panel under the table: what review prints of the play, and its parts.
            marks.append({"at": at, "seat": r.seats[p.seat], "action": p.action, "mark": mark, "detail": detail,
                          "lines": [ln.strip() for ln in play_lines(r.seats, p)],
                          "before": p.before.value if p.before else None, "after": p.after.value if p.after else None,
                          "best": p.best.value if p.best else None, "better": p.better, "solver": p.solver_line,
                          "chance_before": p.chance_before, "chance_after": p.chance_after})
        if p.chances:
            points.append({"at": at, "trick": p.trick, "chances": [None if c is None else round(c, 4) for c in p.chances]})
    return {"seats": list(r.seats), "samples": r.samples, "seed": r.seed, "marks": marks, "points": points}


def _broken(g: Game) -> dict[str, object]:
    """A game that cannot be replayed: only its place in the picker and why."""
    d = g.errors[0]
    return {"title": g.tag("Event") or L.gettext("Game {number}").format(number=g.number), "game": g.number, "rules": g.rules or "",
            "seats": list(g.seats), "positions": [], "tricks": {}, "moves": [], "mistakes": [], "loose": [], "review": None,
            "puzzle": None,
            "end": L.ngettext("Game {number} has {n} syntax error, at line {line}: {message} (run getaway-ref check)",
                              "Game {number} has {n} syntax errors, the first at line {line}: {message} "
                              "(run getaway-ref check)", len(g.errors)).format(
                number=g.number, n=len(g.errors), line=d.span.line if d.span else "?", message=d.message)}


# ---- the template ------------------------------------------------------------------------------

@functools.cache
def _env(package: str = "referee.table", compact: bool = False) -> Any:
    """The templates' environment (of ``package``'s ``templates`` folder: the table's, or the
    offline site's first page), made on the first page rendered: jinja2 is imported only
    where a page is rendered (the site's Worker computes the table's data and never renders).
    ``compact``: a block tag's line leaves nothing behind (``explore``'s page, its tables)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader(package, "templates"),
        autoescape=True, undefined=jinja2.StrictUndefined, keep_trailing_newline=not compact,
        trim_blocks=compact, lstrip_blocks=compact, extensions=["jinja2.ext.i18n"],
    )
    # The template's words through the one translator (engine/language.py), in the language
    # of the page being rendered: {% trans %}, _() and ngettext() in the templates.
    env.install_gettext_callables(L.gettext, L.ngettext, newstyle=True)  # type: ignore[attr-defined]
    return env


def template(name: str, package: str = "referee.table", compact: bool = False) -> Any:
    """A page template, its words said in the language current when it is rendered."""
    return _env(package, compact).get_template(name)


# The script's sentences: each `_("...")` of table.js (Babel extracts the same calls), handed
# to the page translated as its `i18n` dictionary; each `ngettext("one", "many", n)` as the
# list of its forms in the language, keyed by the English singular.
_SCRIPT_WORDS = re.compile(r'\b_\("((?:[^"\\]|\\.)*)"\)')
_SCRIPT_COUNTS = re.compile(r'\bngettext\("((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"')
# The page chooses a count's form by a table of the language's plural rule for n below this
# (and 100 + n % 100 above it: gettext's rules look at n % 100 and n % 10 and small n only).
PLURAL_TABLE = 200


def _unquote(m: str) -> str:
    text: str = json.loads(f'"{m}"')
    return text


@functools.cache
def script_words(name: str = "table.js", text: str | None = None) -> tuple[str, ...]:
    """The sentences of a script's ``_("...")`` (``text``: the script itself, else the table's asset)."""
    return tuple(dict.fromkeys(_unquote(m) for m in _SCRIPT_WORDS.findall(text if text is not None else _asset(name))))


@functools.cache
def script_counts(name: str = "table.js", text: str | None = None) -> tuple[tuple[str, str], ...]:
    """The sentences with a count of a script's ``ngettext("one", "many", n)``."""
    found = _SCRIPT_COUNTS.findall(text if text is not None else _asset(name))
    return tuple(dict.fromkeys((_unquote(a), _unquote(b)) for a, b in found))


def plural_table(lang: str | None = None) -> list[int]:
    """The form a count ``n`` takes in ``lang`` (default: the current one), for n below
    :data:`PLURAL_TABLE`, from its catalogue's own plural rule (English: one and many)."""
    chosen = lang or L.current()
    t = L.translations(chosen) if chosen != L.ENGLISH else None
    rule = getattr(t, "plural", None)
    return [int(rule(n)) if rule is not None else int(n != 1) for n in range(PLURAL_TABLE)]


def page_strings(words: tuple[str, ...], counts: tuple[tuple[str, str], ...],
                 lang: str | None = None) -> dict[str, object]:
    """A script's sentences in ``lang`` (default: the current one): each ``_()`` sentence's
    words, and each count's forms in the order of the plural rule's numbers."""
    chosen = lang or L.current()
    with L.speaking(chosen):
        out: dict[str, object] = dict(L.strings(list(words)))
        table = plural_table(chosen)
        first = {k: table.index(k) for k in sorted(set(table))}  # a count that takes each form
        for one, many in counts:
            out[one] = [L.ngettext(one, many, first[k]) for k in sorted(first)]
    return out


def _asset(name: str) -> str:
    return resources.files("referee.table").joinpath("templates", name).read_text(encoding="utf-8")


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


DIRECTIONS = ("ltr", "rtl")


def render(data: dict[str, Any], *, serve: bool = False, site: bool = False, lang: str | None = None,
           direction: str | None = None, words: dict[str, object] | None = None,
           index_page: str = "index.html", manifest: str = "manifest.webmanifest") -> str:
    """The page: ``data`` is ``{"file": name, "games": [...], ...}``; ``serve`` adds the
    recorder's and watchers' parts and lets the script talk to the server that sent it;
    ``site`` (with ``serve``) is the offline site's table: the same page, its script talking to
    the engine in a Web Worker (``table-site.js`` of the site, allowed by the policy as this
    site's own script, with the worker, the service worker and the manifest).

    ``lang`` (a language code, ``ur``; None: the current language) gives the page's words and
    ``<html lang dir>``; ``direction`` overrides the language's own direction. With ``"rtl"``
    the page is laid out right to left by its logical CSS properties (the felt keeps the
    table's own geometry, and a card's rank and suit read as printed; docs/howto/table.md).
    ``words``: more sentences for the page's scripts, in its language (the site's own scripts'),
    and ``index_page`` and ``manifest`` the site's first page and web app manifest in that language."""
    if direction is not None and direction not in DIRECTIONS:
        raise ValueError(f"direction is one of {', '.join(DIRECTIONS)}, not {direction!r}")
    css, js = _asset("table.css"), _asset("table.js")
    scripts = _sha256(js) + (" 'self'" if site else "")
    csp = (f"default-src 'none'; style-src {_sha256(css)}; script-src {scripts}; img-src data:; "
           "base-uri 'none'; form-action 'none'" + ("; connect-src 'self'" if serve else "")
           + ("; worker-src 'self'; manifest-src 'self'" if site else ""))
    games = data.get("games") or []
    first = games[-1] if games else {}
    title = f"{first.get('title', 'Getaway')} — {data.get('file', '')}" if first else "getaway-ref"
    from markupsafe import Markup

    # In the language asked (--lang, or serve's phone), else the current one: <html lang dir>,
    # the picker (serve: the phone's choice, kept in its localStorage and a cookie), the
    # script's words and the voice that reads a ruling aloud.
    with L.speaking(lang or L.current()) as chosen:
        page: str = _env().get_template("table.html.j2").render(
            title=title, file=data.get("file", ""), data=data, css=Markup(css),
            js=Markup(js), csp=csp, serve=serve, site=site, lang=L.info(chosen),
            direction=direction or L.info(chosen).dir,
            languages=[L.LANGUAGES[c] for c in L.shipped()],
            i18n={**page_strings(script_words(), script_counts()), **(words or {})},
            index_page=index_page, manifest=manifest,
            plural=plural_table(chosen))
    return page


def render_page(walks: list[Walk], file_name: str, *, lang: str | None = None, direction: str | None = None) -> str:
    """The replay page of the games walked, from a file called ``file_name`` (``lang`` and
    ``direction`` as :func:`render` takes them)."""
    return render({"file": file_name, "games": [game_data(w) for w in walks]}, lang=lang, direction=direction)


def _ours(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    return GENERATOR.encode("utf-8") in head


def _game_page(g: Game, default: RuleSet | None, overrides: dict[str, object], review: bool) -> dict[str, object]:
    w = walk(g, default, overrides)
    data = game_data(w)
    if g.tag("Puzzle") is not None and not w.result.stopped:
        # A puzzle (getaway-ref puzzles): the page asks for the card, the solver answers.
        end = w.steps[-1].after if w.steps else w.start
        if end is not None:
            data["puzzle"] = page_data(end, g.seats, g.tag("Played"))
    if review and w.start is not None:

        base = default.with_options(**overrides) if default is not None and overrides else default
        data["review"] = review_data(review_game(g, base), 1)
    return data


def _all_games(file: Path, default: RuleSet | None, overrides: dict[str, object],
               review: bool = False) -> list[dict[str, object]]:
    read_game(file, 1)  # the file's own problems (none, a directory, not a record), as show says them
    out: list[dict[str, object]] = []
    try:
        for g in read(file):
            if len(out) >= MOST_GAMES:
                raise UsageError(L.gettext("{file} holds more than {most} games: pick one with --game").format(
                    file=file, most=MOST_GAMES))
            out.append(_broken(g) if g.errors else _game_page(g, default, overrides, review))
    except ReadError as e:
        raise TableError(f"{e.path}: {e.message}") from None
    return out


def html_command(file: Path, output: Path | None = None, game: int | None = None,
                 rules: str | None = None, review: bool = False) -> int:
    """``getaway-ref html``: the page of a record's games (or of game ``game``) written
    beside the record (or to ``output``); exit 1 if a replay stops early or a game has
    syntax errors. A file that is not a page of ours is never replaced unless it was named.
    ``review``: each game reviewed too (``getaway-ref review``'s defaults), its marks on the
    plays and every seat's chance of losing drawn as a chart."""
    default, overrides = rules_options(rules, None, [])
    out = output if output is not None else file.with_suffix(".html")
    if out.resolve() == file.resolve():
        raise UsageError(L.gettext("{file} is the record itself; give another page name with -o").format(file=out))
    recover([file, out])  # a rewrite of either cut short by a kill: put back first
    try:
        # The page is never written over the record, by any name (a hard link, a symlink).
        check_distinct(out, [file])
    except WriteError as ex:
        raise UsageError(str(ex)) from None
    try:
        if game is not None:
            g: Game = read_clean_game(file, game)
            games = [_game_page(g, default, overrides, review)]
        else:
            games = _all_games(file, default, overrides, review)
    except TableError as e:
        print_error(e.message)
        return e.code
    page = render({"file": file.name, "games": games})
    if output is None and out.exists() and not _ours(out):
        # A page of ours is replaced; any other file is the user's, kept unless named.
        raise UsageError(L.gettext("{file} exists and is not a page of getaway-ref; name it with -o to replace "
                                   "it").format(file=out))
    try:
        write_text(out, page, inputs=[file])
    except WriteError as ex:  # its own one line, naming the page
        raise UsageError(str(ex)) from None
    except OSError as ex:
        raise UsageError(cannot_write(out, ex)) from None
    stops = L.gettext(_STOPS).split("{", 1)[0]  # the page's words for a replay that stopped, in its language
    stopped = [str(d["end"]) for d in games if not d["positions"] or str(d["end"]).startswith(stops)]
    steps = sum(max(0, len(d["positions"]) - 1) for d in games if isinstance(d["positions"], list))
    if len(games) == 1:
        wrote = L.ngettext("wrote {file}: game {game}, {steps} step", "wrote {file}: game {game}, {steps} steps",
                           steps).format(file=out, game=games[0]["game"], steps=steps)
    else:  # the count of games is more than one here; the sentence turns on the steps
        wrote = L.ngettext("wrote {file}: {games} games, {steps} step", "wrote {file}: {games} games, {steps} steps",
                           steps).format(file=out, games=len(games), steps=steps)
    print(L.gettext("{wrote}; {stopped}").format(wrote=wrote, stopped=stopped[0]) if stopped else wrote)
    return 1 if stopped else 0
