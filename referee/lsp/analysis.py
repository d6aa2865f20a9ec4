"""What the editor server says about a document, without the protocol: diagnostics, the
position before a play (hover), what may be typed next (completion), the canonical form
(formatting), quick fixes, colours (semantic tokens), the outline, folding, the hand sizes
after each trick line (inlay hints) and each game's verdict (code lens). Positions here are
0-based lines and code-point columns; server.py turns them into the protocol's units.

A document is cut into games by the reader's byte search for %game lines, and each game is
read and judged on its own, as if it stood at the top of a file (its lines and offsets
counted from its %game line). A game whose number and text are unchanged since the last
version is not read again: an edit re-judges only the game it falls in, whatever the
document's size, and an added line moves the later games without re-judging them.

The position before a play comes from ``position_before`` alone: the replay walk's
``step.before`` (referee.judging.replay), so the editor and ``check`` never disagree.
"""

from __future__ import annotations

import io
import re
from bisect import bisect_right
from dataclasses import dataclass, field, replace
from pathlib import Path

from referee.archive.slices import GameOutcome
from referee.config import ConfigError, config_for
from referee.engine.cards import CARD_COUNT, card_str, parse_card, sort_cards
from referee.engine.codes import Code
from referee.engine.language import gettext as _
from referee.engine.rules import OPTIONS, RulesError, RuleSet, coerce, parse_spec
from referee.engine.state import Engine, Phase
from referee.judging import wording as W
from referee.judging.referee import GameResult, Referee
from referee.judging.replay import replay
from referee.lsp import TOKEN_MODIFIERS, TOKEN_TYPES
from referee.notation.format import format_file
from referee.notation.reader import VERSION, LineTooLong, Reader, chunks
from referee.notation.record import Deal, Game, Hand, Play, Position, Prelude, Span, Trick
from referee.reports.diagnostics import MISTAKE, Diagnostic, Edit, judged_to
from referee.reports.layout import game_line
from referee.reports.select import Policy, SelectError, parse_codes, severity_of
from referee.table.views import LegalModel, legal_model, on_the_table, waste_pile_words

VERSION_LINE = f"%gwy {VERSION}"


@dataclass(frozen=True)
class Place:
    """A stretch of one line: 0-based line, code-point columns [start, end)."""

    line: int
    start: int
    end: int

    def down(self, lines: int) -> Place:
        return Place(self.line + lines, self.start, self.end)


@dataclass(frozen=True)
class QuickFix:
    title: str
    edits: tuple[tuple[Place, str], ...]
    preferred: bool = True


@dataclass(frozen=True)
class Finding:
    code: str
    severity: str  # error, mistake, note
    message: str
    place: Place
    related: tuple[tuple[Place, str], ...] = ()
    fix: QuickFix | None = None

    def down(self, lines: int) -> Finding:
        if not lines:
            return self
        fix = self.fix
        if fix is not None:
            fix = QuickFix(fix.title, tuple((p.down(lines), t) for p, t in fix.edits), fix.preferred)
        return Finding(self.code, self.severity, self.message, self.place.down(lines),
                       tuple((p.down(lines), label) for p, label in self.related), fix)


@dataclass
class Settings:
    """The project's settings for ``check`` ([tool.getaway-ref]), so that the editor shows
    what CI gates: the codes chosen, the default rule set and options."""

    policy: Policy | None = None
    rules: RuleSet | None = None
    overrides: dict[str, object] = field(default_factory=dict)
    error: str | None = None  # a settings file that cannot be used: defaults apply
    rules_spec: str | None = None  # the default rule set as the settings write it


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
        sets_at = f"{where}: set"  # the settings' key as written, as check names it
        for k, v in cfg.sets.items():
            key = k.strip().lower().replace("-", "_")
            if key not in OPTIONS:
                raise ConfigError(_("{where}: unknown option '{option}'").format(where=sets_at, option=k))
            overrides[key] = coerce(key, v)
    except (ConfigError, SelectError, ValueError) as e:
        return Settings(error=str(e))
    except RulesError as e:
        return Settings(error=f"rules: {e.message}")
    return Settings(policy, rules, overrides, rules_spec=cfg.rules or None)


# ---- a document, a game at a time -----------------------------------------------------------------


@dataclass
class GameView:
    """One game of a document, read and judged as if it opened a file: its spans count from
    its %game line (line 1). ``base`` is where that line is in the document (0-based)."""

    number: int
    text: str
    base: int
    game: Game
    result: GameResult
    findings: list[Finding]  # relative to the game's first line
    _sizes: dict[int, str] | None = None  # hand sizes per trick line, once asked
    _tokens: list[tuple[int, int, int, int, int]] | None = None  # semantic tokens, once asked

    @property
    def last_line(self) -> int:
        """The game's last line that is not blank (0-based, in the document)."""
        lines = self.text.rstrip().count("\n")
        return self.base + lines


@dataclass
class Document:
    """A document read and judged once per version."""

    text: str
    path: str
    prelude: Prelude
    views: list[GameView]
    settings: Settings = field(default_factory=Settings)
    prelude_findings: list[Finding] = field(default_factory=list)
    _lines: list[str] | None = None

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.text.split("\n")
        return self._lines

    @property
    def games(self) -> list[Game]:
        return [v.game for v in self.views]

    @property
    def results(self) -> list[GameResult]:
        return [v.result for v in self.views]

    def view_at(self, line: int) -> GameView | None:
        """The game the 0-based line lies in."""
        i = bisect_right([v.base for v in self.views], line) - 1
        return self.views[i] if i >= 0 else None


def read(text: str, path: str = "<editor>", settings: Settings | None = None,
         previous: Document | None = None) -> Document:
    """Read and judge ``text``; the games of ``previous`` (judged with the same settings)
    whose number and text are unchanged are taken as they are."""
    settings = settings if settings is not None else settings_for(path)
    known: dict[tuple[int, str], GameView] = {}
    if previous is not None and previous.settings is settings and previous.path == path:
        known = {(v.number, v.text): v for v in previous.views}
    reader = Reader(path)
    referee = Referee(settings.rules, settings.overrides)
    views: list[GameView] = []
    line = 0
    prelude_text = ""
    too_long: LineTooLong | None = None
    try:
        for number, chunk, first_line, _offset in chunks(io.BytesIO(text.encode("utf-8")), path):
            if number == 0:
                prelude_text = chunk
                reader.read_prelude(chunk, 0)
                continue
            line = first_line - 1
            old = known.get((number, chunk))
            if old is not None:
                views.append(old if old.base == line else replace(old, base=line))
                continue
            game = reader.parse_game(chunk, number, 1, 0)
            result = referee.judge(game)
            views.append(GameView(number, chunk, line, game, result, _game_findings(game, result, chunk, settings)))
    except LineTooLong as e:  # refused as check refuses it: the games before it are judged
        too_long = e
    lines = prelude_text.split("\n")
    pre = [_finding(d, lines, settings) for d in _kept(reader.prelude.errors, settings)]
    if too_long is not None:
        pre.append(Finding(Code.SYNTAX_ERROR, "error", too_long.message, Place(too_long.line - 1, 0, 1)))
    return Document(text, path, reader.prelude, views, settings, pre)


def _kept(diags: list[Diagnostic], settings: Settings) -> list[Diagnostic]:
    policy = settings.policy
    return diags if policy is None else [d for d in diags if policy.wants(d.code)]


def _place(span: Span, lines: list[str]) -> Place:
    line = max(0, span.line - 1)
    start = max(0, span.col - 1)
    width = max(1, span.end - span.start)
    text = lines[line] if line < len(lines) else ""
    return Place(line, start, min(max(start + width, start + 1), max(len(text), start + 1)))


def _edit_place(e: Edit) -> Place:
    start = max(0, e.span.col - 1)
    return Place(max(0, e.span.line - 1), start, start + e.span.end - e.span.start)


def _finding(d: Diagnostic, lines: list[str], settings: Settings) -> Finding:
    place = _place(d.span, lines) if d.span is not None and d.span.line else Place(0, 0, 1)
    fix = None
    if d.fix is not None:
        fix = QuickFix(d.fix.title, tuple((_edit_place(e), e.text) for e in d.fix.edits), d.fix.safe)
    return Finding(d.code, severity_of(d), d.message_with_help, place,
                   tuple((_place(r.span, lines), r.label) for r in d.related), fix)


def _game_findings(game: Game, result: GameResult, text: str, settings: Settings) -> list[Finding]:
    lines = text.split("\n")
    return [_finding(d, lines, settings) for d in _kept(result.diagnostics, settings)]


def findings(doc: Document) -> list[Finding]:
    """Every diagnostic of the document, with related places and quick fixes."""
    out = list(doc.prelude_findings)
    for v in doc.views:
        out.extend(f.down(v.base) for f in v.findings)
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




def _inside(span: Span, line: int, col: int) -> bool:
    return bool(span.line) and span.line - 1 == line and span.col - 1 <= col <= span.col - 1 + max(1, span.end - span.start)


def play_at(doc: Document, line: int, col: int) -> tuple[GameView, Trick, Play] | None:
    """The play under the cursor: its game, its trick line and the play."""
    v = doc.view_at(line)
    if v is None:
        return None
    rel = line - v.base
    for a in v.game.actions:
        if isinstance(a, Trick) and a.span.line - 1 == rel:
            for p in a.plays:
                if _inside(p.seat_span, rel, col) or _inside(p.card_span, rel, col):
                    return v, a, p
    return None


def _stopped(v: GameView) -> str | None:
    """Why the replay stopped, with the break's line counted in the document."""
    res = v.result
    if res.stopped is not None and v.game.errors and res.judged and res.game is not v.game:
        cut = min(d.span.line for d in v.game.errors if d.span is not None)
        return judged_to(v.base + cut)
    return res.stopped


def hover(doc: Document, line: int, col: int) -> str | None:
    """Markdown for the position before the play under the cursor."""
    hit = play_at(doc, line, col)
    if hit is None:
        return None
    v, trick, play = hit
    game = v.game
    e, result = position_before(game, play, doc.settings)
    seats = list(game.seats)
    head = f"**{W.before_play(seats[play.seat], card_str(play.card))}** {W.in_trick(trick.number)}"
    if e is None:
        return f"{head}\n\n" + W.not_replayed(str(_stopped(v) or result.stopped))
    m = legal_model(game, GameResult(game, result.rules, engine=e))
    out = [head, "", m.summary, ""]
    pos = e.view()
    # who has the power: nobody before the first trick is over (the ace's holder opens it)
    if pos.leader >= 0 and not (pos.phase is Phase.IN_TRICK and pos.first_trick):
        out.append(W.led_trick(seats[pos.leader], pos.trick_no, pos.lead_why, led=bool(pos.trick)))
    out.append(W.hands([(seats[s], pos.sizes[s], s in pos.out_order) for s in range(len(seats))]))
    out.append(waste_pile_words(pos.waste_size))
    if m.trick_on_table is not None and m.trick_on_table.plays:
        out.append(on_the_table(m.trick_on_table.plays))
    mine = [p for p in m.plays if p.seat == seats[play.seat]]
    for p in mine or m.plays:
        if p.exact or p.cards:
            cards: str | None = " ".join(p.cards) if p.cards else "-"
        else:
            cards = None
        follow = None if p.any_card else p.must_follow
        out.append(W.may_play(p.seat, p.action, cards, follow=follow, unseen=0 if p.exact else p.unseen))
        if p.may_not:
            out.append("  " + W.may_not(p.may_not))
    if not mine and m.plays:
        out.append(W.not_to_play(seats[play.seat]))
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
    v = doc.view_at(line)
    if v is None:
        return []
    seats = list(v.game.seats)
    m = re.match(r"^(\s*\d+\.\s*)(.*)$", current)
    if m is None:
        return [Suggestion(s, "seat", W.seat_word(), f"1{s}") for s in seats]
    done, _, slot = m.group(2).rpartition(",")
    words = slot.split()
    typed_seat = words[0] if words and (len(words) > 1 or slot.endswith(" ")) else None
    # The game up to the plays already complete on this line: its end is the position the
    # cursor is at. Only this game is read again, never the document before it.
    rel = line - v.base
    prefix = "\n".join(v.text.split("\n")[:rel] + [m.group(1) + done if done.strip() else ""])
    game = Reader(doc.path).parse_game(prefix, v.number, 1, 0)
    res = Referee(doc.settings.rules, doc.settings.overrides, keep_engine=True).judge(game)
    if res.engine is None:
        return [Suggestion(s, "seat", W.seat_word(), f"1{s}") for s in seats]
    model = legal_model(game, res)
    if typed_seat is None:
        first = {p.seat for p in model.plays}
        return [Suggestion(s, "seat", W.may_play_now() if s in first else W.seat_word(), f"{0 if s in first else 1}{s}")
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
            out.append(Suggestion(card, "card", W.may_play_it(legal.seat, legal.action), f"0{len(out):03d}"))
    if legal.exact:
        return out
    why = (W.only_if_void(legal.seat, legal.must_follow) if legal.must_follow and not legal.shown_void
           else W.may_hold(legal.seat))
    for c in range(CARD_COUNT):
        name = card_str(c)
        if name not in seen and e.may_hold(seat, c):
            seen.add(name)
            out.append(Suggestion(name, "card", why, f"1{len(out):03d}"))
    return out


# ---- formatting and the fixes without a diagnostic ---------------------------------------------------


def formatted(doc: Document) -> str | None:
    """The canonical form, as ``fmt`` prints it; None when the text has syntax errors (then,
    as fmt, nothing is reformatted) or is already canonical."""
    if doc.prelude.errors or any(v.game.errors for v in doc.views):
        return None
    canon = format_file(doc.prelude, doc.games)
    return None if canon == doc.text else canon


def actions_at(doc: Document, first: int, last: int) -> list[QuickFix]:
    """Repairs offered on lines ``first``-``last`` that no diagnostic carries: a hand
    written out of the cards' order, sorted as fmt writes it; a game without a [Rules] tag
    in a project whose settings name a default rule set, the tag written out (so the record
    says what it is judged by, away from the project too)."""
    out: list[QuickFix] = []
    lines = doc.lines
    for v in doc.views:
        if v.base > last or v.last_line < first:
            continue
        g = v.game
        if doc.settings.rules_spec and g.tag_item("Rules") is None and first <= v.base <= last:
            at = v.base + 1
            out.append(QuickFix(W.add_rules_fix(f"[Rules \"{doc.settings.rules_spec}\"]"),
                                ((Place(at, 0, 0), f"[Rules \"{doc.settings.rules_spec}\"]\n"),), False))
        if not isinstance(g.setup, (Deal, Position)):
            continue
        for it in g.setup.items:
            if not isinstance(it, Hand) or it.cards is None or not it.span.line:
                continue
            row = v.base + it.span.line - 1
            if not first <= row <= last:
                continue
            text = lines[row] if row < len(lines) else ""
            written = _written_cards(text)
            if written is None or len(written) != len(it.cards):
                continue
            cards = [parse_card(w) for w in written]
            if None in cards or cards == sort_cards([c for c in cards if c is not None]):
                continue
            start = text.index(written[0])
            end = text.index(written[-1], start) + len(written[-1])
            canon = " ".join(card_str(c) for c in sort_cards([c for c in cards if c is not None]))
            out.append(QuickFix(W.sort_hand_fix(g.seats[it.seat]), ((Place(row, start, end), canon),), False))
    return out


_CARD_WORD = re.compile(r"(?i)^(?:10|[2-9TJQKA])[♠♥♦♣♡♢SHDC]\*?$")


def _written_cards(line: str) -> list[str] | None:
    words = line.split("#", 1)[0].replace(",", " ").split()
    cards = [w for w in words[1:] if _CARD_WORD.match(w)]
    return cards if cards and len(cards) == len(words) - 1 else None


# ---- colours, outline, folding, hand sizes, verdicts -----------------------------------------------

_T = {name: i for i, name in enumerate(TOKEN_TYPES)}

_WORD = re.compile(r"#.*|\[[^\]\"]*|\"(?:[^\"\\]|\\.)*\"?|[^\s,\[\]\"#]+")
_KEYWORDS = frozenset({"%gwy", "%game", "deal", "position", "takes", "draws", "from", "counts", "out", "waste",
                       "lead", "leads", "next", "trick", "trumps"})
_TRICK_NO = re.compile(r"[0-9]{1,9}\.")
_RED = frozenset("♥♦♡♢HDhd")


def tokens(doc: Document, first: int = 0, last: int | None = None) -> list[tuple[int, int, int, int, int]]:
    """The semantic tokens of lines ``first``-``last`` (all by default): (line, start,
    length, type, modifiers), in order. Read from the text of each line, so a line being
    typed is coloured too; a game's are found once per version of the game."""
    last = len(doc.lines) if last is None else last
    top = doc.views[0].base if doc.views else len(doc.lines)
    out = [t for t in _line_tokens(doc.lines[:top], set(), set()) if first <= t[0] <= last]
    for v in doc.views:
        if v.base > last or v.last_line < first:
            continue
        if v._tokens is None:
            v._tokens = _line_tokens(v.text.split("\n"), {s.lower() for s in v.game.seats},
                                     {(f.place.line, f.place.start) for f in v.findings if f.severity == MISTAKE})
        base = v.base
        out.extend((line + base, start, n, kind, mods) for line, start, n, kind, mods in v._tokens
                   if first <= line + base <= last)
    return out


def _line_tokens(lines: list[str], seats: set[str], mistakes: set[tuple[int, int]]) -> list[tuple[int, int, int, int, int]]:
    out: list[tuple[int, int, int, int, int]] = []
    for row, text in enumerate(lines):
        first = True
        for m in _WORD.finditer(text):
            w = m.group()
            kind, mods = -1, 0
            if w.startswith("#"):
                kind = _T["comment"]
            elif w.startswith("["):
                kind = _T["property"]
            elif w.startswith('"'):
                kind = _T["string"]
            elif w.lower() in _KEYWORDS:
                kind = _T["keyword"]
            elif (first and _TRICK_NO.fullmatch(w)) or w.isdigit():
                kind = _T["number"]
            elif parse_card(w) is not None:
                kind = _T["redCard"] if w.rstrip("*")[-1] in _RED else _T["blackCard"]
                if (row, m.start()) in mistakes:
                    mods = 1
            elif w.lower() in seats:
                kind = _T["seat"]
            first = False
            if kind >= 0:
                out.append((row, m.start(), len(w), kind, mods))
    return out


@dataclass(frozen=True)
class Symbol:
    name: str
    detail: str
    place: Place  # the whole range
    head: Place  # the line that names it
    children: tuple[Symbol, ...] = ()


OUTLINE_TRICKS = 5000  # an outline lists tricks while the document has no more than these


def symbols(doc: Document) -> list[Symbol]:
    """The outline: each game (named by its Event tag or number), with its tricks; the
    games alone in a document of more than OUTLINE_TRICKS tricks (an archive), whose outline
    of every trick nobody reads and every editor is slow to take."""
    out = []
    lines = doc.lines
    with_tricks = sum(v.result.tricks for v in doc.views) <= OUTLINE_TRICKS
    for v in doc.views:
        g = v.game
        tricks = []
        for a in g.actions if with_tricks else ():
            if isinstance(a, Trick) and a.span.line:
                row = v.base + a.span.line - 1
                width = len(lines[row]) if row < len(lines) else 1
                p = Place(row, 0, max(1, width))
                tricks.append(Symbol(W.trick_name(a.number), ", ".join(f"{g.seats[s]} {card_str(c)}"
                                                                    for s, c in zip(a.seats, a.cards)
                                                                    if 0 <= s < len(g.seats) and c >= 0), p, p))
        name = W.game_name(v.number, g.tag("Event"))
        end = v.last_line
        head = Place(v.base, 0, len(lines[v.base]) if v.base < len(lines) else 1)
        out.append(Symbol(name, verdict(doc, v), Place(v.base, 0, len(lines[end]) if end < len(lines) else 0), head,
                          tuple(tricks)))
    return out


def folds(doc: Document) -> list[tuple[int, int]]:
    """A fold per game: from its %game line to its last line that is not blank."""
    return [(v.base, v.last_line) for v in doc.views if v.last_line > v.base]


def hand_sizes(doc: Document, v: GameView) -> dict[int, str]:
    """For each trick line of a game (its line in the document), the hand sizes once its
    plays are made: 'North 12 · East 9 · ...'. Walked once per version of the game."""
    if v._sizes is not None:
        return v._sizes
    sizes: dict[int, str] = {}
    g = v.game
    seats = g.seats
    walk = replay(g, doc.settings.rules, overrides=doc.settings.overrides)
    for step in walk:
        item = step.item
        if isinstance(item, Play) and item.card_span.line:
            e = step.after
            playing = e.in_game()
            sizes[v.base + item.card_span.line - 1] = " · ".join(
                W.hand_size(seats[s], e.size(s) if s in playing else None) for s in range(len(seats)))
    v._sizes = {line - v.base: text for line, text in sizes.items()}
    return v._sizes


def hints(doc: Document, first: int, last: int) -> list[tuple[Place, str]]:
    """Inlay hints at the end of each trick line of lines ``first``-``last``: the hand sizes."""
    out = []
    lines = doc.lines
    for v in doc.views:
        if v.base > last or v.last_line < first:
            continue
        for rel, text in hand_sizes(doc, v).items():
            row = v.base + rel
            if first <= row <= last and row < len(lines):
                end = len(lines[row].rstrip())
                out.append((Place(row, end, end), text))
    return out


def verdict(doc: Document, v: GameView) -> str:
    """A game's verdict as check's line for it says it (reports.layout.game_line), without
    the file and line, and with the diagnostics the project's settings keep."""
    outcome = replace(GameOutcome.of(v.result), stopped=_stopped(v),
                      diagnostics=_kept(v.result.diagnostics, doc.settings))
    facts, said, _style = game_line("", outcome)
    return facts.removeprefix(f":{outcome.line}: ") + " — " + said


def lenses(doc: Document) -> list[tuple[Place, str]]:
    """A code lens on each game's %game line: its verdict."""
    return [(Place(v.base, 0, 0), verdict(doc, v)) for v in doc.views]


__all__ = [
    "TOKEN_MODIFIERS",
    "TOKEN_TYPES",
    "Document",
    "Finding",
    "GameView",
    "Place",
    "QuickFix",
    "Settings",
    "Suggestion",
    "Symbol",
    "actions_at",
    "complete",
    "findings",
    "folds",
    "formatted",
    "hints",
    "hover",
    "lenses",
    "position_before",
    "read",
    "settings_for",
    "symbols",
    "tokens",
    "verdict",
]
