"""What the editor server says about a document, without the protocol: diagnostics, the
position before a play (hover), what may be typed next (completion), the canonical form
(formatting) and quick fixes. Positions here are 0-based lines and code-point columns;
server.py turns them into the protocol's UTF-16 positions.

The position before a play comes from ``position_before`` alone: the replay walk's
``step.before`` (referee.judging.replay), so the editor and ``check`` never disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from referee.config import ConfigError, config_for
from referee.engine.cards import CARD_COUNT, card_str
from referee.engine.rules import OPTIONS, RuleSet, RulesError, coerce, parse_spec
from referee.engine.state import Engine
from referee.judging.referee import GameResult, Referee
from referee.judging.replay import replay
from referee.notation.format import format_file
from referee.notation.reader import VERSION, Reader
from referee.notation.record import Game, Play, Prelude, Span, Trick
from referee.reports.select import Policy, SelectError, parse_codes, severity_of
from referee.table.views import LegalModel, legal_model
from referee.engine.codes import Code

VERSION_LINE = f"%gwy {VERSION}"


@dataclass
class Place:
    """A stretch of one line: 0-based line, code-point columns [start, end)."""

    line: int
    start: int
    end: int


@dataclass
class Finding:
    code: str
    severity: str  # error, mistake, note
    message: str
    place: Place
    related: list[tuple[Place, str]] = field(default_factory=list)
    fix: tuple[str, Place, str] | None = None  # (title, where, new text)


@dataclass
class Settings:
    """The project's settings for ``check`` ([tool.getaway-ref]), so that the editor shows
    what CI gates: the codes chosen, the default rule set and options."""

    policy: Policy | None = None
    rules: RuleSet | None = None
    overrides: dict[str, object] = field(default_factory=dict)
    error: str | None = None  # a settings file that cannot be used: defaults apply


def settings_for(path: str) -> Settings:
    if not path or path.startswith("<"):
        return Settings()
    try:
        cfg = config_for([Path(path)])
        where = f"{cfg.path}"
        policy = Policy(select=parse_codes(cfg.select or ["ALL"], f"{where}: select"),
                        ignore=parse_codes(cfg.ignore or [], f"{where}: ignore"))
        rules = parse_spec(cfg.rules) if cfg.rules else None
        overrides: dict[str, object] = {}
        for k, v in cfg.sets.items():
            key = k.strip().lower().replace("-", "_")
            if key not in OPTIONS:
                raise ConfigError(f"{where}: set: unknown option '{k}'")
            overrides[key] = coerce(key, v)
    except (ConfigError, SelectError, ValueError) as e:
        return Settings(error=str(e))
    except RulesError as e:
        return Settings(error=f"rules: {e.message}")
    return Settings(policy, rules, overrides)


@dataclass
class Document:
    """A document read and judged once per change."""

    text: str
    path: str
    prelude: Prelude
    games: list[Game]
    results: list[GameResult]
    settings: Settings = field(default_factory=lambda: Settings())

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


def read(text: str, path: str = "<editor>") -> Document:
    settings = settings_for(path)
    reader = Reader(path)
    games = list(reader.read_text(text))
    referee = Referee(settings.rules, settings.overrides)
    return Document(text, path, reader.prelude, games, [referee.judge(g) for g in games], settings)


def _place(span: Span, lines: list[str]) -> Place:
    line = max(0, span.line - 1)
    start = max(0, span.col - 1)
    width = max(1, span.end - span.start)
    text = lines[line] if line < len(lines) else ""
    return Place(line, start, min(max(start + width, start + 1), max(len(text), start + 1)))


def _version_fix(doc: Document) -> tuple[str, Place, str]:
    first = doc.lines[0] if doc.lines else ""
    if first.lstrip().startswith("%gwy"):
        return (f"Replace with the version line '{VERSION_LINE}'", Place(0, 0, len(first)), VERSION_LINE)
    return (f"Add the version line '{VERSION_LINE}'", Place(0, 0, 0), VERSION_LINE + "\n")


def findings(doc: Document) -> list[Finding]:
    """Every diagnostic of the document, with related places and quick fixes."""
    lines = doc.lines
    diags = list(doc.prelude.errors) + [d for r in doc.results for d in r.diagnostics]
    if doc.settings.policy is not None:
        diags = doc.settings.policy.keep(diags)
    out: list[Finding] = []
    for d in diags:
        place = _place(d.span, lines) if d.span is not None and d.span.line else Place(0, 0, 1)
        f = Finding(d.code, severity_of(d), d.message_with_help, place,
                    [(_place(r.span, lines), r.label) for r in d.related])
        if d.code == Code.VERSION_LINE:
            f.fix = _version_fix(doc)
        out.append(f)
    return out


# ---- the position before a play ----------------------------------------------------------------


def position_before(game: Game, play: Play, settings: Settings | None = None) -> tuple[Engine | None, GameResult]:
    """The referee's state just before ``play`` (penalties applied, as check judges), from the
    replay walk: (the engine before the play, or None if the replay stops first; the result)."""
    settings = settings or Settings()
    walk = replay(game, settings.rules, snapshots=True, overrides=settings.overrides)
    for step in walk:
        if step.item is play:
            return step.before, walk.result
    return None, walk.result


LEAD_WHY = {
    "ace": "holds A♠, which opens the first trick",
    "power": "has the power: the highest card of the suit led in the last trick",
    "take": "the lead passed on: the hand of the seat due to lead was taken",
    "pass_lead": "the lead passed on: the seat with the power got away with its last card",
    "penalty": "picked up the last trick as the penalty for a mistake",
    "draw": "had the power and no card: leads the card it drew",
    "position": "the position written in the record says so",
}


def _game_at(doc: Document, line: int) -> int | None:
    """The index of the game the 0-based line lies in."""
    found = None
    for i, g in enumerate(doc.games):
        if g.span.line and g.span.line - 1 <= line:
            found = i
    return found


def _inside(span: Span, line: int, col: int) -> bool:
    return bool(span.line) and span.line - 1 == line and span.col - 1 <= col <= span.col - 1 + max(1, span.end - span.start)


def play_at(doc: Document, line: int, col: int) -> tuple[Game, Trick, Play] | None:
    """The play under the cursor: its game, its trick line and the play."""
    i = _game_at(doc, line)
    if i is None:
        return None
    game = doc.games[i]
    for a in game.actions:
        if isinstance(a, Trick):
            for p in a.plays:
                if _inside(p.seat_span, line, col) or _inside(p.card_span, line, col):
                    return game, a, p
    return None


def hover(doc: Document, line: int, col: int) -> str | None:
    """Markdown for the position before the play under the cursor."""
    hit = play_at(doc, line, col)
    if hit is None:
        return None
    game, trick, play = hit
    e, result = position_before(game, play, doc.settings)
    seats = list(game.seats)
    head = f"**Before {seats[play.seat]} {card_str(play.card)}** (trick {trick.number})"
    if e is None:
        return f"{head}\n\nthe game cannot be replayed to this play: {result.stopped}"
    m = legal_model(game, GameResult(game, result.rules, engine=e))
    out = [head, "", m.summary, ""]
    if e.power >= 0:
        why = e.lead_why.value
        out.append(f"{seats[e.power]} {'led' if e.trick else 'leads'} trick {e.trick_no}: {LEAD_WHY.get(why, why)}")
    out.append("hands: " + ", ".join(f"{seats[s]} {e.size(s)}" + (" (out)" if e.out[s] else "")
                                     for s in range(len(seats))))
    out.append(f"waste pile: {e.waste_size()} card{'s' if e.waste_size() != 1 else ''}")
    if m.trick_on_table is not None and m.trick_on_table.plays:
        out.append("on the table: " + ", ".join(f"{p.seat} {p.card}" for p in m.trick_on_table.plays))
    mine = [p for p in m.plays if p.seat == seats[play.seat]]
    for p in mine or m.plays:
        if p.exact or p.cards:
            legal = " ".join(p.cards) if p.cards else "-"
        elif p.any_card:
            legal = "any card"
        else:
            legal = f"a {p.must_follow} if it holds one" if p.must_follow else "any card"
        extra = f" (unseen cards: {p.unseen})" if p.unseen and not p.exact else ""
        out.append(f"{p.seat} may {p.action}: {legal}{extra}")
        if p.may_not:
            out.append(f"  may not: {p.may_not}")
    if not mine and m.plays:
        out.append(f"{seats[play.seat]} is not among those who may play now")
    return "\n".join(out)


# ---- completion ---------------------------------------------------------------------------------


@dataclass
class Suggestion:
    label: str
    kind: str  # "seat" or "card"
    detail: str
    sort: str


def complete(doc: Document, line: int, col: int) -> list[Suggestion]:
    """Seat names, or the cards the seat just typed may play at that point of a trick line."""
    lines = doc.lines
    current = lines[line][:col] if line < len(lines) else ""
    i = _game_at(doc, line)
    if i is None:
        return []
    seats = list(doc.games[i].seats)
    m = re.match(r"^(\s*\d+\.\s*)(.*)$", current)
    if m is None:
        return [Suggestion(s, "seat", "seat", f"1{s}") for s in seats]
    done, _, slot = m.group(2).rpartition(",")
    words = slot.split()
    typed_seat = words[0] if words and (len(words) > 1 or slot.endswith(" ")) else None
    # The document up to the plays already complete on this line: its last game's end is the
    # position the cursor is at.
    prefix = "\n".join(lines[:line] + [m.group(1) + done if done.strip() else ""])
    game, res = _last_game_judged(prefix, doc.path, doc.settings)
    if game is None or res is None or res.engine is None:
        return [Suggestion(s, "seat", "seat", f"1{s}") for s in seats]
    model = legal_model(game, res)
    if typed_seat is None:
        first = {p.seat for p in model.plays}
        return [Suggestion(s, "seat", "may play now" if s in first else "seat", f"{0 if s in first else 1}{s}")
                for s in seats]
    return _cards_for(model, res.engine, seats, typed_seat)


def _cards_for(model: LegalModel, e: Engine, seats: list[str], typed: str) -> list[Suggestion]:
    """The cards a seat may play now: the legal known cards first, then, for a hand not all
    seen, the cards it may hold (a tochoo is legal only if it holds none of the suit led)."""
    names = {s.lower(): i for i, s in enumerate(seats)}
    seat = names.get(typed.lower())
    legal = next((p for p in model.plays if p.seat.lower() == typed.lower()), None)
    if seat is None or legal is None:
        return []
    out: list[Suggestion] = []
    seen: set[str] = set()
    for card in [*legal.cards, *legal.unseen_may_follow]:
        if card not in seen:
            seen.add(card)
            out.append(Suggestion(card, "card", f"{legal.seat} may {legal.action} it", f"0{len(out):03d}"))
    if legal.exact:
        return out
    why = (f"only if {legal.seat} holds no {legal.must_follow}" if legal.must_follow and not legal.shown_void
           else f"{legal.seat} may hold it")
    for c in range(CARD_COUNT):
        name = card_str(c)
        if name not in seen and e.may_hold(seat, c):
            seen.add(name)
            out.append(Suggestion(name, "card", why, f"1{len(out):03d}"))
    return out


def _last_game_judged(text: str, path: str, settings: Settings) -> tuple[Game | None, GameResult | None]:
    """The last game of ``text``, judged with its final state kept."""
    games = list(Reader(path).read_text(text))
    if not games:
        return None, None
    return games[-1], Referee(settings.rules, settings.overrides, keep_engine=True).judge(games[-1])


# ---- formatting -----------------------------------------------------------------------------------


def formatted(doc: Document) -> str | None:
    """The canonical form, as ``fmt`` prints it; None when the text has syntax errors (then,
    as fmt, nothing is reformatted) or is already canonical."""
    if doc.prelude.errors or any(g.errors for g in doc.games):
        return None
    canon = format_file(doc.prelude, doc.games)
    return None if canon == doc.text else canon
