"""Reading .gwy text into records: one game at a time, every syntax error exactly once.

The file is cut at its ``%game`` lines while it is read, so a file of any size is read in
bounded memory. Each game is parsed whole by the Lark parser (the parser builds the records
as it reduces, no tree). Only when that fails is the game parsed again line by
line, so that every broken line gives one diagnostic and the good lines still count; the
same assembler builds the game in both cases, and checks the order of its parts.

Trick lines and hands written card by card, nine tenths of a record's tokens, take the fast
lane (``_lane.py``): found by one regex made of the grammar's terminals, blanked out of
Lark's text, and made into records by the same builder code once Lark has read the rest.
"""

from __future__ import annotations

import difflib
import io
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, ClassVar, Final, Union, cast

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from referee.engine import cards as C
from referee.engine.codes import Code, say
from referee.engine.language import N_
from referee.engine.language import gettext as _
from referee.engine.rules import PRESETS, RulesError, RuleSet, rule_set
from referee.notation.grammar import build_parser
from referee.notation.lane import Lane
from referee.notation.record import (
    NOWHERE,
    Action,
    Comment,
    Counts,
    Deal,
    Draw,
    Game,
    Hand,
    HandSpans,
    Lead,
    NextTrick,
    Out,
    Play,
    Position,
    Prelude,
    Span,
    Tag,
    Take,
    Trick,
    Trumps,
    Waste,
)
from referee.reports.diagnostics import CODES, Diagnostic, Edit, Fix

VERSION = 1
# Pagat, Players and Cards: up to around 8 players; more with a second pack (Variations,
# double pack). 16 seats with two packs keep six or more cards a hand, as 8 do with one.
MAX_SEATS_DOUBLE = 16  # the most seats of any pack (RuleSet.most_seats): a list of seats is cut here
RESERVED = {"deal", "position", "waste", "lead", "trick", "trumps", "counts", "takes", "draws", "from", "out", "rest"}


class ReadError(Exception):
    """A file that cannot be read at all (missing, not UTF-8): exit code 2."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message

    def __reduce__(self) -> tuple[type[ReadError], tuple[str, str]]:
        # Crosses process boundaries intact (check --jobs).
        return (ReadError, (self.path, self.message))


def unopened(path: str, e: OSError) -> ReadError:
    """A file that cannot be opened, said in the chosen language (the reader and the seeker
    alike); a rarer reason in the system's own words."""
    if isinstance(e, FileNotFoundError):
        return ReadError(path, _("no such file"))
    if isinstance(e, IsADirectoryError):
        return ReadError(path, _("is a directory"))
    return ReadError(path, e.strerror or str(e))


def undecodable(path: str, byte: int, offset: int, line: int) -> ReadError:
    """A file whose bytes are not UTF-8: the first bad byte, where it is and on which line."""
    return ReadError(path, _("not UTF-8 text: byte {byte} at byte offset {offset} (line {line}) cannot be decoded").format(
        byte=hex(byte), offset=offset, line=line))


# ---- markers the line-by-line path hands to the assembler ---------------------------------


class _GameOpen:
    __slots__ = ("comment", "span")

    def __init__(self, comment: str | None, span: Span) -> None:
        self.comment, self.span = comment, span


class _DealOpen:
    __slots__ = ("comment", "span")

    def __init__(self, comment: str | None, span: Span) -> None:
        self.comment, self.span = comment, span


class _PositionOpen(_DealOpen):
    __slots__ = ()


class _BrokenTrick:
    """A trick line that did not parse: only its number is known."""

    __slots__ = ("number",)

    def __init__(self, number: int) -> None:
        self.number = number


class _Version:
    __slots__ = ("comment", "number", "span")

    def __init__(self, number: int, span: Span) -> None:
        self.number, self.span = number, span
        self.comment: str | None = None


# What the builder hands the assembler, one per line: the assembler tells them apart.
_Item = Union[_Version, _GameOpen, _DealOpen, Comment, Tag, Hand, Out, Waste, Lead, NextTrick, Trumps,
              Trick, Take, Draw, Counts]


# ---- what is expected, in the game's words -------------------------------------------------

_EXPECT = {
    "CARD": N_("a card such as Q♥ or QH"),
    "SEAT": N_("a seat"),
    "SIZE": N_("a number of cards"),
    "_NL": N_("the end of the line"),
    "$END": N_("the end of the line"),
    "TRICK_NO": N_("a trick number such as '2.'"),
    "TAG": N_('a tag [Name "value"]'),
    "COMMENT": N_("a comment"),
    "SUITS": N_("a hand"),
    "REST": "'rest'",
    "SUIT": N_("a suit such as ♥ or hearts"),
    "_OUT": "'out'",
    "_TAKES": "'takes'",
    "_DRAWS": "'draws'",
    "_FROM": "'from'",
    "GAME_OPEN": "'%game'",
    "VERSION": "'%gwy 1'",
}


def _pos_in_stream(e: UnexpectedInput) -> int | None:
    """Where Lark's error is, in the text it parsed. Lark declares the attribute as None
    (its class default); read untyped, so that the compiled reader takes the int it holds."""
    pos: int | None = getattr(e, "pos_in_stream", None)
    return pos


def _expected_words(expected: Iterable[str]) -> str:
    """What the grammar expected, in the game's words and the current language: "a seat or
    the end of the line" (the notation's own words, 'takes', 'rest', as they are written)."""
    names = set(expected)
    words: list[str] = []
    if {"CARD", "SIZE", "SUITS"} <= names:
        words.append(_("the seat's cards or the number of cards"))
        names -= {"CARD", "SIZE", "SUITS"}
    if "TRICK_NO" in names and "SEAT" in names:
        words.append(_("a trick ('2. West 5♥'), a take ('North takes East'), a draw ('West draws 7♦') or 'counts'"))
        names -= {"TRICK_NO", "SEAT", "COUNTS", "COMMENT"}
    for n in ("CARD", "SEAT", "SIZE", "TRICK_NO", "_TAKES", "_DRAWS", "_OUT", "_FROM", "REST", "TAG", "_NL", "$END"):
        if n in names:
            w = _(_EXPECT[n])
            if w not in words:
                words.append(w)
            names.discard(n)
    for n in sorted(names):
        if n in ("COMMENT", "GAME_OPEN", "VERSION"):
            continue
        w = _(_EXPECT[n]) if n in _EXPECT else "'" + n.lower().lstrip("_") + "'"
        if w not in words:
            words.append(w)
    if not words:
        return _("something else")
    if len(words) == 1:
        return words[0]
    # i18n: the last two of a list of what may come: "a, b or c"
    return _("{first} or {last}").format(first=_(", ").join(words[:-1]), last=words[-1])


# ---- the builder: Lark calls these as it reduces ---------------------------------------------


class _Context:
    """What the builder knows of the game being read."""

    def __init__(self) -> None:
        self.reset(1, 0, "<text>", "")

    def reset(self, first_line: int, offset: int, path: str, text: str) -> None:
        self.first_line = first_line
        self.offset = offset
        # Where the line being parsed on its own starts, within the game (line by line).
        self.line_shift = 0
        self.offset_shift = 0
        self.path = path
        self.text = text
        self.lines: list[str] | None = None
        self.errors: list[Diagnostic] = []
        self.seats: list[str] = []
        self.seat_index: dict[str, int] = {}
        self.seats_from_tag = False
        self.tags_seen: set[str] = set()
        self.rules: RuleSet = PRESETS["pagat"]
        self.game_number = 0
        # Where the fast lane's first line starts (absolute offset), if it found one. Its
        # tricks and hands are made after Lark has read the rest, so what they depend on (the
        # seats and the rule set) must not change after that point; if it does, `unsettled`
        # sends the game back to be read by Lark alone, in order.
        self.settled: int | None = None
        self.unsettled = False

    def span(self, tok: Token) -> Span:
        # Lark types a token's place as optional; the lexer always sets it.
        line, col, start, end = cast(tuple[int, int, int, int], (tok.line, tok.column, tok.start_pos, tok.end_pos))
        base = self.offset + self.offset_shift
        return Span(self.first_line + self.line_shift + line - 1, col, base + start, base + end)

    def source_line(self, line: int) -> str:
        if self.lines is None:
            self.lines = self.text.split("\n")
        i = line - self.first_line
        return self.lines[i].rstrip("\r") if 0 <= i < len(self.lines) else ""

    def error(self, code: str, message: str, span: Span | None, label: str = "", help: str | None = None,
              notes: Iterable[str] = (), fix: Fix | None = None) -> None:
        d = self.diagnostic(code, message, span, label, help, notes)
        d.fix = fix
        self.errors.append(d)

    def tell(self, code: Code, span: Span | None, how: str = "", *, help: str | None = None, fix: Fix | None = None,
             **facts: object) -> None:
        """A reading error in its catalogue's words (engine/codes.py, :func:`say`): the way it
        happened (``how``), filled with ``facts``."""
        w = say(code, how, "", **facts)
        self.error(code, w.message, span, w.label, help, w.notes, fix)

    def diagnostic(self, code: str, message: str, span: Span | None, label: str = "", help: str | None = None,
                   notes: Iterable[str] = ()) -> Diagnostic:
        notes = list(notes) + [CODES[code].rule]
        return Diagnostic(
            code, message, span, label=label, help=help, notes=list(notes), severity=CODES[code].severity,
            game=self.game_number or None, source_line=self.source_line(span.line) if span else "",
            path=self.path,
        )

    def seat(self, tok: Token, *, define: bool = False) -> int:
        name = str(tok)
        i = self.seat_index.get(name.lower())
        if i is not None:
            return i
        if define and not self.seats_from_tag:
            if name.lower() in RESERVED:
                self.tell(Code.BAD_SEATS, self.span(tok), "reserved", name=name)
                return -1
            if self.settled is not None and self.offset + self.offset_shift + cast(int, tok.start_pos) > self.settled:
                self.unsettled = True
            self.seat_index[name.lower()] = len(self.seats)
            self.seats.append(name)
            return len(self.seats) - 1
        if self.seats:
            where = self.span(tok)
            # A seat's unique beginning ('W' for West, as live takes it) is written out whole
            # by check --fix; a near spelling is only a guess, offered in the editor. Both are
            # looked for only among as many seats as a game may have: a game of thousands of
            # seats (already refused, S006) would make each unknown seat cost as much as the
            # seats, and thousands of them the square (issue 25).
            few = len(self.seats) <= MAX_SEATS_DOUBLE
            begins = [s for s in self.seats if s.lower().startswith(name.lower())] if few else []
            near = begins if len(begins) == 1 else difflib.get_close_matches(name, self.seats, n=1) if few else []
            hint = _("did you mean '{seat}'?").format(seat=near[0]) if near else None
            if len(begins) == 1:
                hint = _("did you mean '{seat}'? (check --fix writes it out)").format(seat=near[0])
            fix = Fix(_("Write '{seat}'").format(seat=near[0]), (Edit(where, near[0]),), safe=len(begins) == 1) if near else None
            self.tell(Code.UNKNOWN_SEAT, where, help=hint, fix=fix, name=name, seats=seat_list(self.seats))
        else:
            self.tell(Code.UNKNOWN_SEAT, self.span(tok), "no_tag", name=name,
                      help=_('name the seats in the header: [Seats "North East South West"]'))
        return -1

    def card(self, tok: Token) -> int:
        c = C.parse_card(str(tok))
        if c is None:
            self.tell(Code.NOT_A_CARD, self.span(tok), found=_clip(tok), help=card_help(str(tok)))
            return -1
        if c == C.MARKED_ACE and not self.rules.marked_ace:
            self.tell(Code.NOT_A_CARD, self.span(tok), "marked_single", card=tok,
                      help=_("write A♠, or play with [Rules \"... packs=2\"]"))
            return -1
        return c


_SUITS_WRITTEN = set(C.SUIT_SYMBOLS + C.SUIT_LETTERS + C.SUIT_LETTERS.lower() + "♡♢")


def card_help(word: str) -> str | None:
    """What is wrong with a word that is nearly a card: its rank or its suit (no fix: which
    card was meant is not known)."""
    if len(word) < 2:
        return None
    if word[-1] in _SUITS_WRITTEN:
        return _("the ranks are {ranks} (T for 10), then the suit: 10♠, QH").format(ranks=" ".join(C.RANK_NAMES))
    if C.parse_card(word[:-1] + "S") is not None:
        return _("the suits are {symbols} or {letters}, after the rank: QH").format(
            symbols=" ".join(C.SUIT_SYMBOLS), letters=" ".join(C.SUIT_LETTERS))
    return None


def seat_list(seats: Sequence[str]) -> str:
    """The seats, for a message: all of them, up to as many as a game may have; beyond that
    the first of them and how many more (each message stays short whatever the header says)."""
    if len(seats) <= MAX_SEATS_DOUBLE:
        return ", ".join(seats)
    return _("{seats} and {n} more").format(seats=", ".join(seats[:MAX_SEATS_DOUBLE]), n=len(seats) - MAX_SEATS_DOUBLE)


def _clip(word: str, most: int = 40) -> str:
    """A word quoted in a message, cut short if it is long (the caret shows all of it)."""
    word = str(word)
    return word if len(word) <= most else word[:most - 1] + "…"


def _comment(children: list[Token]) -> str | None:
    if children and isinstance(children[-1], Token) and children[-1].type == "COMMENT":
        return children.pop()[1:].strip()
    return None


_TAG_RE = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+"((?:[^"\\\n]|\\.)*)"')


def unescape(s: str) -> str:
    if "\\" not in s:  # nearly every tag: no escapes, no regex
        return s
    return re.sub(r"\\(.)", r"\1", s)


# A tag as written, taken apart: (name, value as written, value, where the value starts). An
# archive writes the same few tags game after game ([Rules "pagat"], its tables' [Seats]).
_TAG_PARTS: dict[str, tuple[str, str, str, int]] = {}
_TAG_PARTS_KEPT = 4096

# [Seats] values that read without a fault, and what they gave (a few tables per archive).
_GOOD_SEATS: dict[str, tuple[tuple[str, ...], dict[str, int]]] = {}


class _Builder(Transformer[Token, Any]):
    """Builds record objects from the parser's reductions (no parse tree is made)."""

    def __init__(self, ctx: _Context) -> None:
        super().__init__(visit_tokens=False)
        self.ctx = ctx

    # header ---------------------------------------------------------------------------

    def version(self, ch: list[Token]) -> _Version:
        comment = _comment(ch)
        tok = ch[0]
        number = int(str(tok).split()[-1])
        v = _Version(number, self.ctx.span(tok))
        v.comment = comment
        return v

    def prelude(self, ch: list[_Item]) -> list[_Item]:
        return ch

    def game_open(self, ch: list[Token]) -> _GameOpen:
        comment = _comment(ch)
        return _GameOpen(comment, self.ctx.span(ch[0]))

    def remark(self, ch: list[Token]) -> Comment:
        tok = ch[0]
        return Comment(str(tok)[1:].strip(), self.ctx.span(tok))

    def tag(self, ch: list[Token]) -> Tag:
        comment = _comment(ch)
        tok = ch[0]
        return self.tag_at(str(tok), comment, self.ctx.span(tok))

    def tag_at(self, text: str, comment: str | None, span: Span) -> Tag:
        """The tag written ``text`` (a TAG terminal) at ``span``: made, and its meaning
        taken (the seats, the rules). The fast lane calls it without Lark's tokens."""
        parts = _TAG_PARTS.get(text)
        if parts is None:
            m = _TAG_RE.match(text)
            assert m is not None  # the TAG terminal has this shape
            parts = (m.group(1), m.group(2), unescape(m.group(2)), m.start(2))
            if len(_TAG_PARTS) < _TAG_PARTS_KEPT:
                _TAG_PARTS[text] = parts
        name, raw, value, at = parts
        vstart = span.start + at
        value_span = Span(span.line, span.col + at, vstart, vstart + len(raw))
        tag = Tag(name, value, comment, span, value_span)
        self._interpret(tag)
        return tag

    def _interpret(self, tag: Tag) -> None:
        ctx = self.ctx
        if ctx.settled is not None and tag.span.start > ctx.settled:
            ctx.unsettled = True
        low = tag.name.lower()
        if low in ("seats", "rules", "result", "dealer"):
            if low in ctx.tags_seen:
                ctx.tell(Code.BAD_TAG, tag.span, "twice", name=tag.name, help=_("keep one"))
                return
            ctx.tags_seen.add(low)
        if low == "seats":
            if ctx.seats and not ctx.seats_from_tag:
                return  # the deal named the seats already; the assembler reports the late tag
            known = _GOOD_SEATS.get(tag.value)
            if known is not None:
                # The same [Seats] as a game before, and it read without a fault (an archive
                # names the same table game after game).
                ctx.seats, ctx.seat_index, ctx.seats_from_tag = list(known[0]), dict(known[1]), True
                return
            ctx.seats, ctx.seat_index, ctx.seats_from_tag = [], {}, True
            faults = len(ctx.errors)
            for m in re.finditer(r"[^,\s]+", tag.value):
                name = m.group(0)
                vs = tag.value_span
                where = Span(vs.line, vs.col + m.start(), vs.start + m.start(), vs.start + m.end())
                if name.lower() in ctx.seat_index:
                    ctx.tell(Code.BAD_SEATS, where, "twice", name=name)
                    continue
                if name.lower() in RESERVED or not re.fullmatch(r"[^\W\d][\w'\-]*", name):
                    ctx.tell(Code.BAD_SEATS, where, "word" if name.lower() in RESERVED else "shape", name=name)
                    continue
                ctx.seat_index[name.lower()] = len(ctx.seats)
                ctx.seats.append(name)
            if len(ctx.errors) == faults and len(_GOOD_SEATS) < 256:
                _GOOD_SEATS[tag.value] = (tuple(ctx.seats), dict(ctx.seat_index))
        elif low == "rules":
            try:
                ctx.rules = rule_set(tag.value)
            except RulesError as e:
                vs = tag.value_span
                ctx.error(
                    Code.BAD_RULES, e.message,
                    Span(vs.line, vs.col + e.offset, vs.start + e.offset, vs.start + e.offset + max(1, e.length)),
                    help=_("`getaway-ref rules` lists the presets and options"),
                )

    # setup ----------------------------------------------------------------------------

    def deal_open(self, ch: list[Token]) -> _DealOpen:
        comment = _comment(ch)
        return _DealOpen(comment, self.ctx.span(ch[0]))

    def position_open(self, ch: list[Token]) -> _PositionOpen:
        comment = _comment(ch)
        return _PositionOpen(comment, self.ctx.span(ch[0]))

    def hand(self, ch: list[Token]) -> Hand:
        comment = _comment(ch)
        ctx = self.ctx
        seat = ctx.seat(ch[0], define=True)
        first = ch[1]
        span = Span(*_line_span(ctx, ch[0], ch[-1]))
        if first.type == "SIZE":
            return Hand(seat, None, int(first), comment, span)
        if first.type == "SUITS":
            cards = self._suits(first)
            if cards is not None:
                cards = tuple(C.sort_cards(cards))
            return Hand(seat, cards, len(cards) if cards is not None else 0, comment, span,
                        tuple(ctx.span(first) for _c in (cards or ())))
        # A hand is a set of cards: kept in the canonical order, each with its place.
        pairs = sorted(((ctx.card(t), ctx.span(t)) for t in ch[1:]), key=lambda p: C.sort_key(p[0]) if p[0] >= 0 else -1)
        return Hand(seat, tuple(p[0] for p in pairs), len(pairs), comment, span, tuple(p[1] for p in pairs))

    def _suits(self, tok: Token) -> tuple[int, ...] | None:
        """``AKQ.T92..J43``: ranks of ♠, ♥, ♦ and ♣ in that order."""
        groups = str(tok).split(".")
        out: list[int] = []
        for suit, group in enumerate(groups):
            i = 0
            while i < len(group):
                ch = group[i]
                if ch == "-":
                    i += 1
                    continue
                rank: int | None
                if group.startswith("10", i):
                    rank, i = 8, i + 2
                else:
                    rank = C.rank_from_char(ch)
                    i += 1
                if rank is None:
                    self.ctx.tell(Code.NOT_A_CARD, self.ctx.span(tok), "rank", ch=ch, card=tok)
                    return None
                card = suit * 13 + rank
                if i < len(group) and group[i] == "*":
                    i += 1
                    if card != C.ACE_OF_SPADES:
                        self.ctx.tell(Code.NOT_A_CARD, self.ctx.span(tok), "not_spade", card=tok)
                        return None
                    if not self.ctx.rules.marked_ace:
                        self.ctx.tell(Code.NOT_A_CARD, self.ctx.span(tok), "marks", card=tok,
                                      help=_("write A without *, or play with packs=2"))
                        return None
                    card = C.MARKED_ACE
                out.append(card)
        return tuple(out)

    def out(self, ch: list[Token]) -> Out:
        comment = _comment(ch)
        return Out(self.ctx.seat(ch[0], define=True), comment, self.ctx.span(ch[0]))

    def waste(self, ch: list[Token]) -> Waste:
        comment = _comment(ch)
        ctx = self.ctx
        ch = ch[1:]  # the word 'waste'
        span = Span(*_line_span(ctx, ch[0], ch[-1]))
        first = ch[0]
        if first.type == "SIZE":
            return Waste(size=int(first), comment=comment, span=span)
        if first.type == "REST":
            return Waste(rest=True, comment=comment, span=span)
        return Waste(cards=tuple(ctx.card(t) for t in ch), comment=comment, span=span)

    def lead(self, ch: list[Token]) -> Lead:
        comment = _comment(ch)
        return Lead(self.ctx.seat(ch[1]), comment, self.ctx.span(ch[1]))

    def next_trick(self, ch: list[Token]) -> NextTrick:
        comment = _comment(ch)
        return NextTrick(int(ch[1]), comment, self.ctx.span(ch[1]))

    def trumps(self, ch: list[Token]) -> Trumps:
        comment = _comment(ch)
        word = str(ch[1]).lower()
        suit = {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3}.get(word)
        if suit is None:
            suit = "shdc".find(word) if word in "shdc" else "♠♥♦♣♤♡♢♧".find(word) % 4
        return Trumps(suit, comment, Span(*_line_span(self.ctx, ch[0], ch[1])))

    # actions --------------------------------------------------------------------------

    def trick(self, ch: list[Token]) -> Trick:
        comment = _comment(ch)
        no = ch[0]
        no_line, no_col, no_start = cast(tuple[int, int, int], (no.line, no.column, no.start_pos))
        plays = [
            cast(_PlayWords, (s, s.column, s.start_pos, s.end_pos, c, c.column, c.start_pos, c.end_pos))
            for s, c in zip(ch[1::2], ch[2::2])
        ]
        return build_trick(self.ctx, no, no_line, no_start - no_col + 1, no_start, plays, comment)

    def take(self, ch: list[Token]) -> Take:
        comment = _comment(ch)
        ctx = self.ctx
        a, b = ch
        sa, sb = ctx.span(a), ctx.span(b)
        return Take(ctx.seat(a), ctx.seat(b), comment, Span(sa.line, sa.col, sa.start, sb.end), sb)

    def draw(self, ch: list[Token]) -> Draw:
        comment = _comment(ch)
        ctx = self.ctx
        seat = ctx.seat(ch[0])
        card = ctx.card(ch[1])
        source = ctx.seat(ch[2]) if len(ch) > 2 else None
        return Draw(seat, card, source, comment, Span(*_line_span(ctx, ch[0], ch[-1])), ctx.span(ch[1]))

    def counts(self, ch: list[Token]) -> Counts:
        comment = _comment(ch)
        ctx = self.ctx
        sizes, spans = [], []
        for i in range(0, len(ch), 2):
            sizes.append((ctx.seat(ch[i]), int(ch[i + 1])))
            a, b = ctx.span(ch[i]), ctx.span(ch[i + 1])
            spans.append(Span(a.line, a.col, a.start, b.end))
        first = spans[0]
        return Counts(tuple(sizes), comment, Span(first.line, first.col, first.start, spans[-1].end), tuple(spans))

    # a game, or one line ----------------------------------------------------------------

    def line(self, ch: list[_Item]) -> _Item:
        return ch[0]

    def game(self, ch: list[_Item]) -> list[_Item]:
        return ch  # the game's items in order; the assembler groups them


# A play as words of the text: (seat, column, start, end, card, column, start, end).
_PlayWords = tuple[str, int, int, int, str, int, int, int]


def build_trick(ctx: _Context, no: str, line: int, line_start: int, no_start: int, plays: list[_PlayWords],
                comment: str | None) -> Trick:
    """A trick line's record, whether Lark or the fast lane (_lane.py) read it: the number
    ``no`` ('12.') at ``no_start``; ``plays`` as (seat, column, start, end, card, column,
    start, end); positions within the text being parsed, ``line`` 1-based."""
    # The hot path of the reader: one call per trick line, so spans are made inline.
    row = ctx.first_line + ctx.line_shift - 1 + line
    base = ctx.offset + ctx.offset_shift
    seat_index = ctx.seat_index
    spellings = C.SPELLINGS
    marked_ok = ctx.rules.marked_ace
    out: list[Play] = []
    append = out.append
    for s, s_col, s0, s1, c, c_col, c0, c1 in plays:
        seat = seat_index.get(s.lower())
        if seat is None:
            seat = ctx.seat(Token("SEAT", s, s0, line, s_col, line, s_col + s1 - s0, s1))
        read = spellings.get(c.translate(C.ASCII_UPPER))
        card = ctx.card(Token("CARD", c, c0, line, c_col, line, c_col + c1 - c0, c1)) \
            if read is None or (read == C.MARKED_ACE and not marked_ok) else read
        append(Play(seat, card, Span(row, s_col, base + s0, base + s1), Span(row, c_col, base + c0, base + c1)))
    no_col = no_start - line_start + 1
    return Trick(int(no[:-1]), out, comment, Span(row, no_col, base + no_start, out[-1].card_span.end))


def _line_span(ctx: _Context, a: Token, b: Token) -> tuple[int, int, int, int]:
    sa, sb = ctx.span(a), ctx.span(b)
    return sa.line, sa.col, sa.start, sb.end


# ---- the reader ---------------------------------------------------------------------------


def chunks(stream: BinaryIO, path: str = "<text>", *, number: int = 0, line: int = 0, offset: int = 0,
           byte_offset: int = 0) -> Iterator[tuple[int, str, int, int]]:
    """Cut a binary stream into (number, text, first line, char offset): number 0 is the
    prelude (what stands before the first %game line), then one chunk per game.

    The keyword arguments say where the stream starts in its file, for a stream that is a
    slice of a file starting at a %game line (check --jobs): games already before it, lines,
    characters and bytes."""
    # The stream is read a block at a time and cut at its %game lines by a search on bytes,
    # and a game is decoded whole: no Python step per line (issue 16). The first line and
    # each %game line are decoded on their own first, so a bad byte stops the reading where
    # it always has: after the same games, with the same message.
    in_prelude = number == 0 and line == 0
    chunk: list[bytes] = []  # the bytes of the chunk being gathered, whole lines
    chunk_line = line + 1
    chunk_offset = offset
    chunk_bytes = byte_offset
    line_no = line  # the lines before ``region``
    carry = b""
    read = getattr(stream, "read1", stream.read)  # what a pipe has now, not a full block

    def decoded(raw: bytes, first_line: int, first_byte: int) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as e:
            # A UTF-8 sequence never spans a line end, so the first bad byte of the whole
            # is the first bad byte of the first line that has one.
            bad_line = first_line + raw.count(b"\n", 0, e.start)
            raise undecodable(path, raw[e.start], first_byte + e.start, bad_line) from None

    while True:
        block = read(_BLOCK)
        data = carry + block if carry else block
        if block:
            cut = data.rfind(b"\n") + 1
            if cut == 0:
                if len(data) > LINE_MOST:
                    raise line_too_long(path, line_no + 1)
                carry = data  # no whole line yet
                continue
            region, carry = data[:cut], data[cut:]
        else:
            region, carry = data, b""
        # One line is held whole at most LINE_MOST bytes: what a line costs (its bytes, its
        # text, the reader's copies) is bounded whatever the file holds (issue 36). Only the
        # first line of a region can be that long: the others lie within one block.
        first_end = region.find(b"\n")
        if (first_end if first_end >= 0 else len(region)) > LINE_MOST:
            raise line_too_long(path, line_no + 1)
        if line_no == 0 and region:
            decoded(region[:region.find(b"\n") + 1 or len(region)], 1, byte_offset)  # as line by line
            if region.startswith(b"\xef\xbb\xbf"):
                byte_offset += 3  # the byte-order mark is no part of the text
                chunk_bytes += 3
                region = region[3:]
        pos = 0  # of ``region``, gathered into ``chunk`` up to here
        for s in game_lines(region):
            line_no += region.count(b"\n", pos, s)  # the lines before the game line
            at_line = line_no + 1
            at_byte = byte_offset + s
            decoded(region[s:region.find(b"\n", s) + 1 or len(region)], at_line, at_byte)
            chunk.append(region[pos:s])
            pos = s
            if in_prelude or any(chunk):
                text = decoded(b"".join(chunk), chunk_line, chunk_bytes)
                if in_prelude:
                    yield 0, text, 1, 0
                else:
                    yield number, text, chunk_line, chunk_offset
                offset = chunk_offset + len(text)
            in_prelude = False
            number += 1
            chunk = []
            chunk_line = at_line
            chunk_offset = offset
            chunk_bytes = at_byte
        chunk.append(region[pos:])
        line_no += region.count(b"\n", pos)
        byte_offset += len(region)
        if not block:
            break
    if in_prelude:
        yield 0, decoded(b"".join(chunk), chunk_line, chunk_bytes), 1, 0
    elif any(chunk):
        yield number, decoded(b"".join(chunk), chunk_line, chunk_bytes), chunk_line, chunk_offset


_BLOCK = 1 << 20  # chunks reads this much at a time
# The most bytes one line of a record may hold, its line end aside (docs/notation.md, Files
# and games): a line is read whole, so this bounds what one line costs. At least _BLOCK.
LINE_MOST = 1 << 20


class LineTooLong(ReadError):
    """A line longer than LINE_MOST bytes: the file is refused there. ``line``: its number."""

    def __init__(self, path: str, line: int) -> None:
        super().__init__(path, _("line {line}, column 1: the line is longer than {most} bytes, the most a line of a "
                                 "record may hold; the file is not read past it").format(line=line, most=f"{LINE_MOST:,}"))
        self.line = line

    def __reduce__(self) -> tuple[type[LineTooLong], tuple[str, int]]:  # type: ignore[override]
        return (LineTooLong, (self.path, self.line))


def line_too_long(path: str, line: int) -> LineTooLong:
    """The refusal of a line longer than LINE_MOST bytes (``line``: its number in the file)."""
    return LineTooLong(path, line)

def game_lines(data: bytes, start: int = 0) -> Iterator[int]:
    """Where the %game lines of ``data`` start, from ``start`` on: a line whose first word,
    after any spaces or tabs, is %game (``start`` counts as a line's start). A search for
    the word, at the speed of a byte search: a regular expression anchored at every line
    start tries every byte of the file (issue 16)."""
    find = data.find
    i = find(b"%game", start)
    while i >= 0:
        j = i
        while j > start and data[j - 1] in _INDENT:
            j -= 1
        if j == start or data[j - 1] == _NEWLINE:
            yield j
        i = find(b"%game", i + 5)


_INDENT = b" \t"  # what may stand before %game on its line
_NEWLINE = ord("\n")
RANGE_BYTES = 1 << 18  # small enough to balance two workers on a few-MB file


def quote_first_line(errors: Iterable[Diagnostic], text: str) -> None:
    """A file that starts with its first game has no prelude text: its missing-version
    diagnostic quotes the game's first line instead of an empty one."""
    first = text.split("\n", 1)[0].rstrip("\r")
    for d in errors:
        if d.span is not None and d.span.line == 1 and not d.source_line:
            d.source_line = first


@dataclass(slots=True)
class _Machine:
    """The parser and what it builds with, made once a process and shared by every reader
    (building the LALR parser is the costly part of starting)."""

    ctx: _Context
    builder: _Builder
    parser: Lark


class Reader:
    """Reads games from text, one at a time. ``prelude`` holds the version line's errors."""

    _machine: ClassVar[_Machine | None] = None
    _parser: ClassVar[Lark | None] = None  # the shared parser, for a look at its grammar
    _lane: ClassVar[Lane | None] = None  # None: the fast lane is off (GETAWAY_LARK_ONLY, tests)

    def __init__(self, path: str = "<text>") -> None:
        self.path = path
        machine = Reader._machine
        if machine is None:
            ctx = _Context()
            builder = _Builder(ctx)
            machine = Reader._machine = _Machine(ctx, builder, build_parser(builder))
            Reader._parser = machine.parser
            Reader._lane = Lane.for_parser(machine.parser)
        self._ctx = machine.ctx
        self._builder = machine.builder
        self._lark = machine.parser
        self.prelude = Prelude()

    def _parse(self, text: str, start: str) -> list[_Item]:
        # The builder makes the items as Lark reduces: a list, not the tree Lark's types say.
        return cast(list[_Item], self._lark.parse(text, start=start))

    # chunks -------------------------------------------------------------------------------

    def read_stream(self, stream: BinaryIO) -> Iterator[Game]:
        """Games from a binary stream, cut at %game lines; the text must be UTF-8."""
        for number, text, first_line, offset in chunks(stream, self.path):
            if number == 0:
                self.read_prelude(text, offset)
            else:
                if first_line == 1:
                    quote_first_line(self.prelude.errors, text)
                yield self.parse_game(text, number, first_line, offset)

    def read_text(self, text: str) -> Iterator[Game]:
        return self.read_stream(io.BytesIO(text.encode("utf-8")))

    def read_prelude(self, text: str, offset: int) -> None:
        ctx = self._ctx
        ctx.reset(1, offset, self.path, text)
        pre = self.prelude
        if text.strip():
            try:
                items = self._parse(_terminated(text), start="prelude")
            except UnexpectedInput as e:
                line = e.line
                src = ctx.source_line(line)
                col = e.column
                word = re.match(r"\S+", src[col - 1:])
                width = len(word.group(0)) if word else 1
                start = offset + (_pos_in_stream(e) or 0)
                where = Span(line, col, start, start + width)
                if src[col - 1:col] == "[":
                    ctx.tell(Code.BAD_TAG, where, "no_game")
                else:
                    ctx.tell(Code.VERSION_LINE, where, "before", found=word.group(0) if word else src.strip(),
                             help=_("start the file with '%gwy 1'; begin each game with '%game'"))
                items = []
            for it in items:
                if isinstance(it, _Version):
                    if pre.version is not None:
                        ctx.tell(Code.VERSION_LINE, it.span, "second")
                    pre.version = it.number
                    pre.version_comment = it.comment
                    if it.number != VERSION:
                        ctx.tell(Code.VERSION_LINE, it.span, "unsupported", number=it.number, version=VERSION,
                                 fix=Fix(_("Write version {version}").format(version=VERSION), (Edit(it.span, f"%gwy {VERSION}"),), safe=False))
                else:
                    pre.items.append(it)
        if pre.version is None and not ctx.errors:
            ctx.tell(Code.VERSION_LINE, Span(1, 1, 0, 1), "missing",
                     help=_("add '%gwy 1' as the first line (check --fix adds it)"),
                      fix=Fix(_("Add the version line '{line}'").format(line=f"%gwy {VERSION}"), (Edit(Span(1, 1, 0, 0), f"%gwy {VERSION}\n"),)))
        pre.errors.extend(ctx.errors)

    # one game -----------------------------------------------------------------------------

    def parse_game(self, text: str, number: int, first_line: int = 1, offset: int = 0) -> Game:
        ctx = self._ctx
        whole = _terminated(text)
        lane = self._lane
        head: list[re.Match[str]] = []
        found: list[re.Match[str]] = []
        if lane is not None:
            head, found = lane.find(whole)
        while True:
            ctx.reset(first_line, offset, self.path, text)
            ctx.game_number = number
            if found:
                ctx.settled = offset + found[0].start()
            # The header's tags first: they are the game's first lines after %game, so this
            # is still the order of the text (the seats and rule set the rest is read by).
            tags: list[_Item] = [self._lane_tag(m, i + 2) for i, m in enumerate(head)]
            items: Sequence[_Item | _BrokenTrick]
            rest = self._lane_rest(lane, head + found, whole) if lane is not None and (head or found) else None
            try:
                # Lark reads what the lane left, unless the lane read that too.
                parsed = rest if rest is not None else self._parse(
                    lane.blanked(whole, head + found) if lane is not None else whole, start="game")
            except UnexpectedInput:
                ctx.reset(first_line, offset, self.path, text)
                ctx.game_number = number
                items = self._line_by_line(text)
                break
            items = parsed
            # Where each line of the lane starts in the file: the lane's items go between
            # Lark's there (an item of Lark's is on a line of its own).
            base = ctx.offset + ctx.offset_shift
            if not found:
                if tags:
                    items = _merge(parsed, tags, [base + m.start() for m in head])
                break
            if ctx.unsettled or (not ctx.seats_from_tag and any(m.group("seat") for m in found)):
                # A seat or the rules changed after the lane's first line, or the hands name
                # the seats (no [Seats] tag): read the game again by Lark alone, in order.
                head, found = [], []
                continue
            assert lane is not None  # found is empty without the lane
            items = _merge(parsed, tags + self._lane_items(lane, found, whole), [base + m.start() for m in head + found])
            break
        game = _assemble(items, ctx)
        game.number = number
        game.text = text
        game.first_line = first_line
        game.path = self.path
        game.errors = sorted(ctx.errors, key=lambda d: (d.span.start if d.span else 0))
        return game

    def _lane_rest(self, lane: Lane, taken: list[re.Match[str]], text: str) -> list[_Item] | None:
        """The lines the lane's matches leave, read by the builder when each is one of the
        few shapes the lane knows (the %game line, 'deal', a take, a comment line) in the
        order the grammar's game rule allows them; None when any is not, and Lark reads
        them. Blank lines count for nothing, as Lark's _NL passes over them.

        The builder reports as it makes an item (an unknown seat in a take): when a later
        line sends the game to Lark, what was reported here is taken back, since Lark makes
        and reports those lines again (else each such error is said twice, issue 25)."""
        build = self._builder
        said = len(self._ctx.errors)
        at = self._rest_span  # the %game, deal and comment lines: made without Lark's tokens
        keywords = lane.keywords
        items: list[_Item] = []
        state = 0  # 0: the %game line is due; 1: the header; 2: after 'deal'
        line, counted, pos = 1, 0, 0
        blank = lane.blank.finditer
        for m in [*taken, None]:
            end = len(text) if m is None else m.start()
            if end - pos <= 2 and m is not None:
                pos = m.end()  # only the line end between two of the lane's lines
                continue
            for x in blank(text, pos, end):
                s0 = x.start()
                line += text.count("\n", counted, s0)
                counted = s0
                words = x.group()
                if state == 0:
                    g = lane.game_open.fullmatch(words) if s0 == 0 else None
                    if g is None:
                        self._unsaid(said)
                        return None
                    items.append(_GameOpen(_said(g), at(g, "kw", s0, line)))
                    state = 1
                elif (r := lane.remark.fullmatch(words)) is not None:
                    items.append(Comment(r.group("comment")[1:].strip(), at(r, "comment", s0, line)))
                elif state == 1 and (d := lane.deal_open.fullmatch(words)) is not None:
                    items.append(_DealOpen(_said(d), at(d, "kw", s0, line)))
                    state = 2
                elif state == 2 and (t := lane.take.fullmatch(words)) is not None \
                        and t.group("a") not in keywords and t.group("b") not in keywords:
                    items.append(build.take(_tokens(t, ("a", "SEAT"), s0, line, ("b", "SEAT"))))
                elif state == 2 and (w := lane.draw.fullmatch(words)) is not None \
                        and w.group("a") not in keywords and w.group("b") not in keywords:
                    items.append(build.draw(_tokens(w, ("a", "SEAT"), s0, line, ("card", "CARD"), ("b", "SEAT"))))
                else:
                    self._unsaid(said)
                    return None
            if m is not None:
                pos = m.end()
        if not state:
            self._unsaid(said)
            return None
        return items

    def _rest_span(self, m: re.Match[str], group: str, line_start: int, line: int) -> Span:
        """The span Lark's token for ``group`` of a line the lane matched would be given
        (ctx.span): ``m`` matched the line that starts at ``line_start`` of the game."""
        ctx = self._ctx
        a, b = m.span(group)
        base = ctx.offset + ctx.offset_shift + line_start
        return Span(ctx.first_line + ctx.line_shift + line - 1, a + 1, base + a, base + b)

    def _unsaid(self, said: int) -> None:
        """Take back the diagnostics reported since there were ``said`` of them."""
        del self._ctx.errors[said:]

    def _lane_tag(self, m: re.Match[str], line: int) -> Tag:
        """A header tag the fast lane found on the game's ``line``, made by the builder's
        own tag() from the tokens Lark would have given it."""
        start = m.string.rfind("\n", 0, m.start()) + 1
        t0, t1 = m.span("tag")
        comment = m.group("comment")
        # The span Lark's token would be given (ctx.span), without making the tokens.
        ctx = self._ctx
        base = ctx.offset + ctx.offset_shift
        span = Span(ctx.first_line + ctx.line_shift + line - 1, t0 - start + 1, base + t0, base + t1)
        return self._builder.tag_at(m.group("tag"), comment[1:].strip() if comment is not None else None, span)

    def _lane_items(self, lane: Lane, found: list[re.Match[str]], text: str) -> list[_Item]:
        """The tricks and hands of the lines the fast lane found, made by the builder's code."""
        ctx = self._ctx
        items: list[_Item] = []
        append = items.append
        line, pos = 1, 0  # the line of ``pos`` (counted only where a line number is needed)
        # The hot loop of the reader (issue 16): a trick line whose seats and cards all read
        # is made from the lane's pairs of words, as its seats and cards, with no play, no
        # span and no line number until a program or a diagnostic asks (the lane's form of Trick); any
        # other line goes through build_trick, which reports.
        seat_index = ctx.seat_index
        # Nearly every seat and card is written as the game names it: look the word up as
        # written first, and fold its case only when that finds nothing.
        # Typed as giving Any: the lists they make are checked for None before they are used
        # as seats and cards, and typing.cast would cost two calls a trick line.
        seat_of: Callable[[str], Any] = {name: i for i, name in enumerate(ctx.seats)}.get
        # With a single pack, a spelling of the marked ace is no card (so None, as any
        # unknown word): such a line goes to build_trick or the builder's hand(), which report it.
        card_of: Callable[[str], Any] = (C.SPELLINGS if ctx.rules.marked_ace else C.ONE_PACK_SPELLINGS).get
        card_order = C.sort_key
        row0 = ctx.first_line + ctx.line_shift - 1
        base = ctx.offset + ctx.offset_shift
        at = (row0, base, lane.play)  # where this game's trick lines are written (the lane's form of Trick)
        for m in found:
            no, plays, comment = m.group("no", "plays", "comment")
            if no is not None:
                # Within the plays the lane matched, the only separators are the grammar's
                # ignored [ \t\f,] (a seat and a card are runs of other characters), so the
                # words split there are the lane's seats and cards whenever every seat word
                # is a seat of the game: a seat written against its card ("North♠") is not.
                words = plays.replace(",", " ").split()
                seats = list(map(seat_of, words[0::2]))
                cards = list(map(card_of, words[1::2]))
                if None in seats or None in cards or len(seats) != len(cards):
                    # Again with the words' case folded: a line still not read whole goes to
                    # build_trick, which reports.
                    if None in seats:
                        seats = [seat_index.get(w.lower()) for w in words[0::2]]
                    if None in cards:
                        cards = [card_of(w.translate(C.ASCII_UPPER)) for w in words[1::2]]
                    if None in seats or None in cards or len(seats) != len(cards):
                        start = m.start()
                        line += text.count("\n", pos, start)
                        pos = start
                        append(build_trick(ctx, no, line, start, m.start("no"), lane.plays(m, start),
                                           comment[1:].strip() if comment is not None else None))
                        continue
                # No None left in seats and cards: checked above.
                append(Trick(_TRICK_NUMBER.get(no) or int(no[:-1]), None,
                             comment[1:].strip() if comment is not None else None, NOWHERE, seats, cards, m, at))
                continue
            start = m.start()
            line += text.count("\n", pos, start)
            pos = start
            # A hand: made here when its seat and every card read; else as Lark's tokens, for
            # the builder's own hand(), which reports.
            c0, c1 = m.span("cards")
            seat = seat_index.get(m.group("seat").lower())
            # The cards' words, split as a trick line's are (the same separators only).
            words = text[c0:c1].replace(",", " ").split()
            got = list(map(card_of, words))
            if None in got:
                got = [card_of(c.translate(C.ASCII_UPPER)) for c in words]
            if seat is not None and None not in got:
                dealt: list[int] = got  # no None: checked above
                row = row0 + line
                s0 = m.start("seat")
                # A hand is a set of cards, kept in the canonical order (stable, as hand() sorts).
                # Its cards' spans are found only if a diagnostic asks (HandSpans).
                append(Hand(seat, tuple(C.sort_cards(dealt)), len(dealt),
                            comment[1:].strip() if comment is not None else None,
                            Span(row, s0 - start + 1, base + s0, base + c1),
                            HandSpans(text, c0, c1, row, 1 - start, base, lane.card, dealt, card_order)))
                continue
            col = 1 - start
            s0, s1 = m.span("seat")
            ch = [Token("SEAT", m.group("seat"), s0, line, s0 + col, line, s1 + col, s1)]
            ch += [Token("CARD", c, c0, line, c0 + col, line, c1 + col, c1) for c, c0, c1 in lane.cards(m)]
            if comment is not None:
                c0, c1 = m.span("comment")
                ch.append(Token("COMMENT", comment, c0, line, c0 + col, line, c1 + col, c1))
            append(self._builder.hand(ch))
        return items

    def _line_by_line(self, text: str) -> list[_Item | _BrokenTrick]:
        items: list[_Item | _BrokenTrick] = []
        ctx = self._ctx
        pos = 0
        for i, line in enumerate(text.split("\n")):
            start = pos
            pos += len(line) + 1
            if _BLANK.fullmatch(line):
                continue
            ctx.line_shift, ctx.offset_shift = i, start
            try:
                items.append(cast(_Item, self._lark.parse(line + "\n", start="line")))
            except UnexpectedInput as e:
                self._syntax_error(e)
                # Keep the broken line's trick number, so the next trick is not also wrong.
                m = re.match(r"\s*(\d{1,9})\.", line)
                if m:
                    items.append(_BrokenTrick(int(m.group(1))))
            finally:
                ctx.line_shift = ctx.offset_shift = 0
        return items

    def _syntax_error(self, e: UnexpectedInput) -> None:
        ctx = self._ctx
        line = ctx.first_line + ctx.line_shift + e.line - 1
        base = ctx.offset + ctx.offset_shift
        pos = _pos_in_stream(e)
        start = base + pos if pos is not None else base
        if isinstance(e, UnexpectedToken):
            tok = e.token
            width = 1 if tok.type in ("_NL", "$END") else max(1, len(str(tok)))
            end = tok.type in ("_NL", "$END")
            how, facts = "end" if end else "", {"expected": _expected_words(e.expected), "found": _clip(tok)}
            if tok.type == "TAG":
                how = "tag"
            elif end and "CARD" in e.expected and len(e.expected) == 1:
                prev = (getattr(e, "token_history", None) or [None])[-1]
                how, facts["seat"] = "no_card", f" '{prev}'" if prev is not None and getattr(prev, "type", "") == "SEAT" else ""
            span = Span(line, e.column, start, start + width)
        elif isinstance(e, UnexpectedCharacters):
            src = ctx.source_line(line)
            rest = src[e.column - 1:]
            word = re.match(r"[^\s]+", rest)
            width = len(word.group(0)) if word else 1
            ch = e.char
            if ch == "[":
                ctx.tell(Code.BAD_TAG, Span(line, e.column, start, start + width), "form")
                return
            elif ch == '"':
                how, facts = "quoted", {}
            elif word is None and (ch.isspace() or not ch.isprintable()):
                # Invisible in a quote: name it (a no-break space pasted from a web page).
                name = unicodedata.name(ch, _("a control character"))
                ctx.tell(Code.SYNTAX_ERROR, Span(line, e.column, start, start + 1), "char",
                         expected=_expected_words(e.allowed or ()), point=f"{ord(ch):04X}", name=name,
                         help=_("words are separated by spaces, tabs or commas; remove this character"))
                return
            else:
                how, facts = "", {"expected": _expected_words(e.allowed or ()), "found": _clip(word.group(0) if word else ch)}
            span = Span(line, e.column, start, start + width)
        else:  # the text ended inside a line (Lark's LALR parser reports that as a token)
            how, facts = "ends", {}
            span = Span(line, e.column, start, start + 1)
        w = say(Code.SYNTAX_ERROR, how, "", **facts)
        ctx.error(Code.SYNTAX_ERROR, w.message, span, w.label, None, w.notes)


def _said(m: re.Match[str]) -> str | None:
    """The comment at the end of a line the lane matched, as the builder keeps it."""
    comment = m.group("comment")
    return comment[1:].strip() if comment is not None else None


def _tokens(m: re.Match[str], first: tuple[str, str] | None, line_start: int, line: int,
            second: tuple[str, str] | None = None, third: tuple[str, str] | None = None) -> list[Token]:
    """The tokens Lark would give the builder for a line the lane matched: its named words,
    then its comment (positions in the game's text, columns 1-based)."""
    out = []
    for named in (first, second, third, ("comment", "COMMENT")):
        if named is None or m.group(named[0]) is None:
            continue
        group, kind = named
        a, b = m.span(group)
        out.append(Token(kind, m.group(group), line_start + a, line, a + 1, line, b + 1, line_start + b))
    return out


# A trick's number as the lane reads it ("12."), for the numbers of nearly every game.
_TRICK_NUMBER: Final = {f"{n}.": n for n in range(1, 301)}  # Final: a C static when compiled


def _merge(items: list[_Item], lane: Sequence[_Item], starts: Sequence[int]) -> list[_Item]:
    """Lark's items and the fast lane's, in the order of the text: ``starts`` says where
    the line of each of the lane's items starts in the file."""
    out: list[_Item] = []
    i, n = 0, len(items)
    for t, start in zip(lane, starts):
        while i < n and items[i].span.start < start:
            out.append(items[i])
            i += 1
        out.append(t)
    out.extend(items[i:])
    return out


# A line the grammar's _NL passes over whole: separators only (the \r of a \r\n ending).
_BLANK = re.compile(r"[ \t\f,]*\r?")


def _terminated(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


# ---- assembling a game from its items, and checking their order ------------------------------

_HEADER: Final = 0  # Final: constants of the compiled build, not look-ups in the module's dict
_SETUP: Final = 1
_BODY: Final = 2
_ACTIONS: Final = (Trick, Take, Draw, Counts)


def _runs(numbers: list[int]) -> list[int]:
    """Trick numbers as the lines give them, a continuation line not repeated."""
    out: list[int] = []
    for n in numbers:
        if not out or out[-1] != n:
            out.append(n)
    return out


def _in_number_order(actions: list[Action], first: int | None) -> tuple[list[Action], Trick] | None:
    """The actions with whole trick lines (each with the takes, draws and counts written
    after it) put in the order of their numbers, if that order is a true one: the record
    wrote trick lines in the wrong order. None if it is not (a number skipped, say)."""
    blocks: list[list[Action]] = []
    for a in actions:
        if isinstance(a, Trick) or not blocks:
            blocks.append([a])
        else:
            blocks[-1].append(a)
    heads = [b[0] for b in blocks]
    if not all(isinstance(h, Trick) for h in heads):
        return None
    number = {id(b): cast(Trick, b[0]).number for b in blocks}  # every block opens with a trick
    ordered = sorted(blocks, key=lambda b: number[id(b)])
    numbers = [number[id(b)] for b in ordered]
    if first is not None and numbers[0] != first:
        return None
    if any(n not in (m, m + 1) for m, n in itertools.pairwise(numbers)):
        return None
    moved = next(cast(Trick, b[0]) for b, o in zip(blocks, ordered) if b is not o)
    return [a for b in ordered for a in b], moved


def _assemble(items: Sequence[_Item | _BrokenTrick], ctx: _Context) -> Game:
    game = Game(number=ctx.game_number)
    state = _HEADER
    setup: Deal | Position | None = None
    last_trick = None
    skipping = False  # the lines of a second deal, already reported once
    misnumbered: list[tuple[str, Span, str | None]] = []  # S008s, said only if reordering fails
    first_expected: int | None = None
    # The number each trick line should carry by its place in the written order (docs/
    # rulings.md, ruling 10): the trick after the last one numbered right, or the place a
    # wrong number stood in. None until the first trick line (a position may not say).
    place: int | None = None
    broken = False
    actions = game.actions
    for it in items:
        # Nearly every item: a trick line after the first, numbered as the one before it or
        # the next; all the general path below does for it is this.
        if type(it) is Trick and state == _BODY and last_trick is not None \
                and ((n := it.number) == last_trick or n == last_trick + 1):
            # A continuation of the line before, or the trick after it: right. After a
            # number skipped, the lines that go on from the wrong one are right too (one
            # S008 for the one wrong number, not one for every line after it).
            skipping = False
            if n != last_trick:
                place = n
            last_trick = n
            actions.append(it)
            continue
        if isinstance(it, _ACTIONS):
            skipping = False
            if state == _HEADER:
                ctx.tell(Code.OUT_OF_PLACE, it.span, "no_setup", help=_("add a 'deal' with every seat's hand or size"))
            state = _BODY
            if isinstance(it, Trick):
                if last_trick is None:
                    expected: int | None = 1 if isinstance(setup, Deal) else None
                    if isinstance(setup, Position):
                        nt = setup.of(NextTrick)
                        expected = nt[0].number if nt else None
                    first_expected = expected
                    place = it.number
                    if expected is not None and it.number != expected:
                        misnumbered.append((say(Code.TRICK_NUMBER_OUT_OF_ORDER, expected=expected, found=it.number).message,
                                            it.span, None))
                        place = expected
                elif it.number not in (last_trick, last_trick + 1):
                    # Checked against its place in the written order, not against the number
                    # written before it: after two lines that swapped numbers, the next line,
                    # numbered right, is right (ruling 10).
                    due = (place if place is not None else last_trick) + 1
                    if it.number == due:
                        place = due
                    else:
                        misnumbered.append((say(Code.TRICK_NUMBER_OUT_OF_ORDER, expected=due, found=it.number).message, it.span,
                                            _("number the tricks in order; '{trick}.' again continues trick {trick}").format(
                                                trick=last_trick)))
                        place = due
                last_trick = it.number
            game.actions.append(it)
        elif isinstance(it, _GameOpen):
            game.open_comment = it.comment
            game.span = it.span
        elif isinstance(it, _Version):
            ctx.tell(Code.OUT_OF_PLACE, it.span, "version")
        elif isinstance(it, Tag):
            if state != _HEADER:
                ctx.tell(Code.OUT_OF_PLACE, it.span, "tag")
            else:
                game.header.append(it)
        elif isinstance(it, _DealOpen):
            if setup is not None:
                ctx.tell(Code.OUT_OF_PLACE, it.span, "setup_twice", help=_("start a new game with %game, or merge the two"))
                skipping = True
                continue
            setup = Position(span=it.span) if isinstance(it, _PositionOpen) else Deal(span=it.span)
            if it.comment:
                setup.items.append(Comment(it.comment))
            game.setup = setup
            state = _SETUP
        elif isinstance(it, _BrokenTrick):
            last_trick = it.number
            state = _BODY
            broken = True  # a trick line that did not read: its place cannot be judged
        elif isinstance(it, (Hand, Out, Waste, Lead, NextTrick, Trumps)):
            if skipping:
                continue
            if state != _SETUP:
                ctx.tell(Code.OUT_OF_PLACE, it.span, "setup_line")
            elif isinstance(setup, Deal) and not isinstance(it, Hand):
                ctx.tell(Code.OUT_OF_PLACE, it.span, "deal_only")
            else:
                assert setup is not None  # state is _SETUP only once a deal or position opened
                setup.items.append(it)
        elif isinstance(it, Comment):
            if state == _HEADER:
                game.header.append(it)
            elif state == _SETUP:
                assert setup is not None
                setup.items.append(it)
            else:
                game.actions.append(it)
    if misnumbered:
        # Not with a reading error in the game: it is judged up to that line (readable_part),
        # and no trick line after it may move before it.
        fixed = None if broken or ctx.errors else _in_number_order(game.actions, first_expected)
        if fixed is None:
            # The number is what is wrong, not the play (docs/rulings.md, rulings 5 and 10):
            # a finding, and the game is judged on in the order written, every later line
            # with it.
            game.findings.extend(ctx.diagnostic(Code.TRICK_NUMBER_OUT_OF_ORDER, message, span, help=help)
                                 for message, span, help in misnumbered)
        else:
            # Whole trick lines stand in another order than their numbers. Which order the
            # tricks were played in, the replay decides (docs/rulings.md, ruling 10): it keeps
            # the number order and R117 only when that order explains the record better.
            written = [a.number for a in game.actions if isinstance(a, Trick)]
            game.written_order = (game.actions, [ctx.diagnostic(Code.TRICK_NUMBER_OUT_OF_ORDER, message, span, help=help)
                                                 for message, span, help in misnumbered])
            game.actions, moved = fixed
            game.findings.append(ctx.diagnostic(
                Code.TRICK_LINES_OUT_OF_ORDER, say(Code.TRICK_LINES_OUT_OF_ORDER, runs=_(", ").join(map(str, _runs(written))),
                                                   number=moved.number).message, moved.span,
                help=_("write the trick lines in the order of their numbers; the referee judges them so, as they "
                       "explain the record where the order written does not")))
    if not game.span.line:
        # The %game line did not read (a stray character on it): the game is still where
        # that line is, and what points at the game points there (issue 25: every
        # diagnostic has a line and a column).
        first = ctx.text.split("\n", 1)[0]
        col = max(0, first.find("%game"))
        game.span = Span(ctx.first_line, col + 1, ctx.offset + col, ctx.offset + col + (5 if first[col:col + 5] == "%game" else 1))
    game.seats = tuple(ctx.seats)
    game.rules = (game.tag("Rules") or "pagat").strip() or "pagat"
    _check_setup(game, ctx)
    _check_dealer(game, ctx)
    _check_result(game, ctx)
    return game


def _check_setup(game: Game, ctx: _Context) -> None:
    n = len(game.seats)
    limit = ctx.rules.most_seats
    seats_tag = game.tag_item("Seats")
    # Without a [Seats] tag the hands name the seats: point at the deal or position.
    where = seats_tag.value_span if seats_tag else (game.setup.span if game.setup is not None and game.setup.span.line
                                                    else game.span)
    if n and not 2 <= n <= limit:
        ctx.tell(Code.BAD_SEATS, where, "count_pack" if limit < MAX_SEATS_DOUBLE else "count", limit=limit, n=n, help=_("with more than 8 players use a double pack: packs=2") if n > limit and limit < MAX_SEATS_DOUBLE else None)
    if game.setup is None:
        return
    seen: dict[int, Span] = {}
    for it in game.setup.items:
        if isinstance(it, (Hand, Out)) and it.seat >= 0:
            name = game.seats[it.seat]
            if it.seat in seen:
                ctx.tell(Code.BAD_DEAL, it.span, "twice", name=name)
            seen[it.seat] = it.span
    missing = [game.seats[i] for i in range(n) if i not in seen]
    if any(d.code in (Code.SYNTAX_ERROR, Code.UNKNOWN_SEAT) for d in ctx.errors):
        missing = []  # a misspelt seat or a broken line was reported already: its hand is the one "missing"
    if not seen:
        ctx.tell(Code.BAD_DEAL, game.setup.span if game.setup.span.line else game.span,
                 "none_deal" if isinstance(game.setup, Deal) else "none_position",
                  help=_("give every seat its cards or its number of cards: 'North 13'"))
    elif missing:
        ctx.tell(Code.BAD_DEAL, game.setup.items[-1].span if game.setup.items else game.span, "missing",
                 seats=", ".join(missing),
                  help=_("give every seat its cards or its number of cards; in a position, 'Seat out' for a seat that has got "
                         "away"))
    if isinstance(game.setup, Position):
        if len(game.setup.of(Waste)) > 1:
            ctx.tell(Code.BAD_DEAL, game.setup.of(Waste)[1].span, "waste")
        if len(game.setup.of(Lead)) > 1:
            ctx.tell(Code.BAD_DEAL, game.setup.of(Lead)[1].span, "leader")
        if len(game.setup.of(Trumps)) > 1:
            ctx.tell(Code.BAD_DEAL, game.setup.of(Trumps)[1].span, "trumps")


def _check_dealer(game: Game, ctx: _Context) -> None:
    tag = game.tag_item("Dealer")
    if tag is not None and tag.value.strip().lower() not in ctx.seat_index:
        ctx.tell(Code.UNKNOWN_SEAT, tag.value_span, "dealer" if ctx.seats else "dealer_alone", name=tag.value,
                 seats=seat_list(ctx.seats))


def _check_result(game: Game, ctx: _Context) -> None:
    tag = game.tag_item("Result")
    if tag is None:
        return
    words = tag.value.split()
    if not words or words == ["*"]:
        return
    if words[0].lower() not in ctx.seat_index:
        ctx.tell(Code.BAD_RESULT, tag.value_span, "seat", name=words[0])
        return
    if len(words) > 2 or (len(words) == 2 and not _LEGS.fullmatch(words[1])):
        ctx.tell(Code.BAD_RESULT, tag.value_span, "form")


_LEGS = re.compile(r"[0-9]{1,9}")  # not str.isdigit: '²' is a digit to it, and not to int()


def parse_result(value: str, seats: Sequence[str]) -> tuple[int | None, int | None]:
    """The loser's seat and the legs a [Result] tag states (None where it does not)."""
    words = value.split()
    if not words or words == ["*"]:
        return None, None
    low = [s.lower() for s in seats]
    loser = low.index(words[0].lower()) if words[0].lower() in low else None
    legs = int(words[1]) if len(words) == 2 and _LEGS.fullmatch(words[1]) else None
    return loser, legs


# ---- judging up to the break ------------------------------------------------------------------

_TRICK_LINE = re.compile(r"[ \t]*[0-9]{1,9}\.")


def readable_part(game: Game) -> tuple[Game, int] | None:
    """A game with reading errors, up to its first line that cannot be read (the break):
    a copy holding the items before that line, and the line. The referee judges the copy, so
    a typo (or the line being typed in the editor) does not hide what comes before it. None
    when the break is in the header or the deal: without them nothing can be replayed."""
    lines = [d.span.line for d in game.errors if d.span is not None and d.span.line]
    if not lines or len(lines) < len(game.errors) or game.setup is None or not game.setup.span.line:
        return None
    cut = min(lines)
    if cut <= game.setup.span.line:
        return None
    body = [a.span.line for a in game.actions if a.span.line]
    # The setup is whole only once the body has begun: at a line read as an action, or at a
    # trick line that could not be read (a broken hand line is not the body's break).
    if not (body and cut >= body[0]) and not _TRICK_LINE.match(game.source_line(cut)):
        return None
    part = Game(number=game.number, header=game.header, seats=game.seats, rules=game.rules, setup=game.setup,
                actions=[a for a in game.actions if a.span.line < cut], open_comment=game.open_comment,
                span=game.span, findings=[d for d in game.findings if d.span is not None and d.span.line < cut],
                text=game.text, first_line=game.first_line, path=game.path)
    return part, cut


# ---- the public verbs ---------------------------------------------------------------------------


def read(path: str | Path) -> _WithPrelude:
    """The games of a file, one at a time. Raises ReadError if the file cannot be read."""
    p = str(path)
    try:
        f = open(p, "rb")
    except OSError as e:
        raise unopened(p, e) from None
    reader = Reader(p)

    def games() -> Iterator[Game]:
        with f:
            yield from reader.read_stream(f)

    return _WithPrelude(games(), reader)


class _WithPrelude:
    """An iterator of games that also carries the file's prelude."""

    def __init__(self, it: Iterator[Game], reader: Reader) -> None:
        self._it = it
        self.reader = reader

    def __iter__(self) -> _WithPrelude:
        return self

    def __next__(self) -> Game:
        return next(self._it)

    @property
    def prelude(self) -> Prelude:
        return self.reader.prelude


def parse(text: str, path: str = "<text>") -> list[Game]:
    """All games of a text. Syntax errors are in each game's ``errors`` (and ``parse_file``)."""
    reader = Reader(path)
    return list(reader.read_text(text))


def parse_file_text(text: str, path: str = "<text>") -> tuple[Prelude, list[Game]]:
    reader = Reader(path)
    games = list(reader.read_text(text))
    return reader.prelude, games
