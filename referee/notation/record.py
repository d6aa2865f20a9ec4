"""The typed record of a game, as the reader builds it from a ``.gwy`` file.

Records state what happened at the table, legal or not: judging it is the referee's job.
Seats are indices into ``Game.seats``; cards are the ints of :mod:`referee.cards`. Every
item keeps the :class:`Span` of its text so a diagnostic can point at the exact card. Spans
and the source text do not take part in equality, so ``parse(fmt(x)) == parse(x)`` compares
the facts and the comments only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import count, repeat
from typing import Any, Final, NamedTuple, overload


class Span(NamedTuple):
    """Where a piece of text is: 1-based line and column, 0-based char offsets in the file.
    A tuple, because the reader makes two for every play."""

    line: int
    col: int
    start: int
    end: int

    @property
    def width(self) -> int:
        return max(1, self.end - self.start)


NOWHERE: Final = Span(0, 0, 0, 0)


def _span() -> Any:
    # Any: a dataclass field standing for a Span default (mypyc checks a declared return type).
    return field(default=NOWHERE, compare=False, repr=False)


@dataclass(slots=True)
class Comment:
    text: str  # without the leading '#', stripped
    span: Span = _span()


@dataclass(slots=True)
class Tag:
    name: str
    value: str
    comment: str | None = None
    span: Span = _span()
    value_span: Span = _span()


@dataclass(slots=True)
class Hand:
    """A seat's hand in a deal or a position: its cards, or only its size when unseen."""

    seat: int
    cards: tuple[int, ...] | None
    size: int
    comment: str | None = None
    span: Span = _span()
    # Where each card is written, in the order of ``cards``: a tuple, or the fast lane's
    # HandSpans, which finds them when first asked (only a diagnostic asks).
    card_spans: Sequence[Span] = field(default=(), compare=False, repr=False)


class HandSpans(Sequence[Span]):
    """The spans of a hand's cards, found on first use. The fast lane reads a deal's 52
    cards a game; only a diagnostic about one of them needs to know where it is written.
    ``written`` are the cards in the order of the text, ``order`` the key that sorts them
    as the hand keeps them (a stable sort, as the reader's)."""

    __slots__ = ("_base", "_col", "_end", "_order", "_pattern", "_row", "_spans", "_start", "_text", "_written")

    def __init__(self, text: str, start: int, end: int, row: int, col: int, base: int, pattern: Any,
                 written: list[int], order: Any) -> None:
        self._text, self._start, self._end = text, start, end
        self._row, self._col, self._base, self._pattern = row, col, base, pattern
        self._written, self._order = written, order
        self._spans: tuple[Span, ...] | None = None

    def _all(self) -> tuple[Span, ...]:
        if self._spans is None:
            row, col, base = self._row, self._col, self._base
            spans = []
            for m in self._pattern.finditer(self._text, self._start, self._end):
                a, b = m.span(1)
                spans.append(Span(row, a + col, base + a, base + b))
            keys = list(map(self._order, self._written))
            self._spans = tuple(spans[i] for i in sorted(range(len(keys)), key=keys.__getitem__))
        return self._spans

    def __len__(self) -> int:
        return len(self._written)

    @overload
    def __getitem__(self, i: int) -> Span: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Span]: ...

    def __getitem__(self, i: int | slice) -> Span | Sequence[Span]:
        return self._all()[i]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._all())


@dataclass(slots=True)
class Out:
    """A seat that has already got away, in a position."""

    seat: int
    comment: str | None = None
    span: Span = _span()


@dataclass(slots=True)
class Waste:
    """The waste pile of a position: its cards, its size, or the rest of the pack."""

    cards: tuple[int, ...] | None = None
    size: int | None = None
    rest: bool = False
    comment: str | None = None
    span: Span = _span()


@dataclass(slots=True)
class Lead:
    seat: int
    comment: str | None = None
    span: Span = _span()


@dataclass(slots=True)
class NextTrick:
    number: int
    comment: str | None = None
    span: Span = _span()


@dataclass(slots=True)
class Trumps:
    """Donkey: the trump suit a position starts with (set earlier in the game)."""

    suit: int
    comment: str | None = None
    span: Span = _span()


@dataclass(slots=True)
class Deal:
    items: list[Any] = field(default_factory=list)  # Hand | Comment, in file order
    span: Span = _span()

    @property
    def hands(self) -> list[Hand]:
        return [h for h in self.items if isinstance(h, Hand)]


@dataclass(slots=True)
class Position:
    items: list[Any] = field(default_factory=list)  # Hand | Out | Waste | Lead | NextTrick | Trumps | Comment
    span: Span = _span()

    def of(self, kind: Any) -> list[Any]:
        return [i for i in self.items if isinstance(i, kind)]


class Play:
    """One card played to a trick: ``seat`` and ``card``, and where each is written.
    Equal plays have the same seat and card, wherever they are written."""

    __slots__ = ("_card_span", "_seat_span", "card", "seat")

    def __init__(self, seat: int, card: int, seat_span: Span = NOWHERE, card_span: Span = NOWHERE):
        self.seat = seat
        self.card = card
        self._seat_span = seat_span
        self._card_span = card_span

    # Read-only properties, not plain attributes, so that LanePlay can find its spans when
    # first asked (the compiled build cannot override an attribute with a property).
    @property
    def seat_span(self) -> Span:
        return self._seat_span

    @property
    def card_span(self) -> Span:
        return self._card_span

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self.seat == other.seat and self.card == other.card

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it was

    def __repr__(self) -> str:
        return f"Play(seat={self.seat!r}, card={self.card!r})"


class LanePlay(Play):
    """A play read by the fast lane: it keeps its trick line and its place in it, and finds
    its spans when first asked (the lane's form of Trick)."""

    __slots__ = ("_i", "_trick")

    def __init__(self, seat: int, card: int, trick: Trick, i: int):
        self.seat = seat
        self.card = card
        self._trick = trick
        self._i = i

    @property
    def seat_span(self) -> Span:
        return self._trick._play_spans()[self._i][0]

    @property
    def card_span(self) -> Span:
        return self._trick._play_spans()[self._i][1]


# Where the fast lane found a game's trick lines: (the line before the game's text, the
# offset of the game's text in the file, the pattern of one play). One per game, shared by
# its tricks (the lane's form of Trick).
LaneGame = tuple[int, int, re.Pattern[str]]


class Trick:
    """One line of plays. A line with the number of the trick before it continues that trick.

    ``Trick(number, plays, comment, span)`` is a trick made of :class:`Play` values. The
    reader's fast lane writes a trick line as what it says, its seats and cards (two lists
    of ints) and the lane's match of the line (see ``__init__``). The Play values and the spans are
    made only when first asked: checking an archive reads the seats and cards alone, and
    makes no object per play (issue 16).
    """

    __slots__ = ("_at", "_cards", "_match", "_plays", "_seats", "_span", "_spans", "comment", "number")

    def __init__(self, number: int, plays: list[Play] | None = None, comment: str | None = None,
                 span: Span = NOWHERE, seats: list[int] | None = None, cards: list[int] | None = None,
                 match: re.Match[str] | None = None, at: LaneGame | None = None) -> None:
        """``Trick(number, plays, comment, span)``; or, from the fast lane, a line as it is
        written: ``Trick(number, None, comment, NOWHERE, seats, cards, match, at)``, its
        seats and cards, and the lane's match of the line (groups ``no`` and ``plays``) in
        the game ``at``, from which its span and its plays' spans are found when first asked.
        One constructor for both, called positionally: the lane makes one a trick line, and
        mypyc compiles no other way to make an object without its ``__init__``."""
        self.number = number
        self.comment = comment
        self._match = match
        self._at = at
        self._spans: list[tuple[Span, Span]] | None = None
        if match is None:
            self._plays: list[Play] | None = [] if plays is None else plays
            self._seats: list[int] = []
            self._cards: list[int] = []
            self._span: Span | None = span
        else:
            assert seats is not None and cards is not None
            self._plays = None
            self._seats = seats
            self._cards = cards
            self._span = None

    def _play_spans(self) -> list[tuple[Span, Span]]:
        """The (seat, card) spans of the plays of a line the lane read, found once."""
        spans = self._spans
        if spans is None:
            m, at = self._match, self._at
            assert m is not None and at is not None, "a trick made of plays has its plays' spans"
            row0, base, play = at
            text, line_start = m.string, m.start()
            row = row0 + 1 + text.count("\n", 0, line_start)
            col = 1 - line_start
            spans = []
            for p in play.finditer(text, m.start("plays"), m.end("plays")):
                s0, s1 = p.span(1)
                c0, c1 = p.span(2)
                spans.append((Span(row, s0 + col, base + s0, base + s1), Span(row, c0 + col, base + c0, base + c1)))
            self._spans = spans
        return spans

    @property
    def plays(self) -> list[Play]:
        """The plays, in the order written (made when first asked, then kept: a program may
        change the list, and the trick is then what the list says)."""
        plays = self._plays
        if plays is None:
            plays = self._plays = list(map(LanePlay, self._seats, self._cards, repeat(self), count()))
        return plays

    @plays.setter
    def plays(self, plays: list[Play]) -> None:
        self._plays = plays

    @property
    def seats(self) -> list[int]:
        """The seat of each play, in the order written (not to be changed: change ``plays``)."""
        return self._seats if self._plays is None else [p.seat for p in self._plays]

    @property
    def cards(self) -> list[int]:
        """The card of each play, in the order written (not to be changed: change ``plays``)."""
        return self._cards if self._plays is None else [p.card for p in self._plays]

    @property
    def span(self) -> Span:
        """From the trick's number to its last card."""
        span = self._span
        if span is None:
            m, at = self._match, self._at
            assert m is not None and at is not None, "a trick made of plays is given its span"
            row0, base, _ = at
            text, line_start, number_at = m.string, m.start(), m.start("no")
            row = row0 + 1 + text.count("\n", 0, line_start)
            span = self._span = Span(row, number_at - line_start + 1, base + number_at, base + m.end("plays"))
        return span

    @span.setter
    def span(self, span: Span) -> None:
        self._span = span

    def __eq__(self, other: object) -> bool:
        # As the dataclass it was: the facts and the comment; where it is written is no fact.
        if not isinstance(other, Trick):
            return NotImplemented
        return (self.number == other.number and self.seats == other.seats and self.cards == other.cards
                and self.comment == other.comment)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Trick(number={self.number!r}, plays={self.plays!r}, comment={self.comment!r})"


@dataclass(slots=True)
class Take:
    """``taker takes target``: the taker adds the target's whole hand to their own."""

    taker: int
    target: int
    comment: str | None = None
    span: Span = _span()
    target_span: Span = _span()


@dataclass(slots=True)
class Draw:
    """``seat draws card`` from the waste pile, or ``from`` another seat's hand."""

    seat: int
    card: int
    source: int | None = None
    comment: str | None = None
    span: Span = _span()
    card_span: Span = _span()


@dataclass(slots=True)
class Counts:
    """Hand sizes the recorder states at this point, for the referee to verify."""

    sizes: tuple[tuple[int, int], ...]  # (seat, size)
    comment: str | None = None
    span: Span = _span()
    spans: tuple[Span, ...] = field(default=(), compare=False, repr=False)


Action = Trick | Take | Draw | Counts | Comment


@dataclass(slots=True)
class Game:
    """One game of a file: its header, its deal or position, and what happened."""

    number: int  # 1-based, in file order
    header: list[Any] = field(default_factory=list)  # Tag | Comment, in file order
    seats: tuple[str, ...] = ()
    rules: str = "pagat"
    setup: Deal | Position | None = None
    actions: list[Any] = field(default_factory=list)
    open_comment: str | None = None  # a comment on the %game line
    span: Span = _span()
    # Diagnostics the reader found (syntax and record-shape errors); not part of the facts.
    errors: list[Any] = field(default_factory=list, compare=False, repr=False)
    # Errors in the record the reader found that do not stop judging (trick lines written out
    # of order): reported with the referee's findings.
    findings: list[Any] = field(default_factory=list, compare=False, repr=False)
    # Trick lines that stand in another order than their numbers, read in number order
    # (``actions``, with R117 in ``findings``): the actions as written and the S008s that
    # stand if the written order is the order of play. The replay decides which
    # (docs/rulings.md, ruling 10) and clears this; None when the numbers are in order.
    written_order: tuple[list[Any], list[Any]] | None = field(default=None, compare=False, repr=False)
    # The text of this game and where it starts, so diagnostics can quote their line.
    text: str = field(default="", compare=False, repr=False)
    first_line: int = field(default=1, compare=False, repr=False)
    path: str = field(default="<text>", compare=False, repr=False)
    # The text cut into lines once (text, lines): a diagnostic per card of a long line must not
    # cut the whole game again each time (quadratic).
    _lines: tuple[str, list[str]] | None = field(default=None, compare=False, repr=False)

    def tag(self, name: str) -> str | None:
        low = name.lower()
        for t in self.header:
            if isinstance(t, Tag) and t.name.lower() == low:
                return t.value
        return None

    def tag_item(self, name: str) -> Tag | None:
        low = name.lower()
        for t in self.header:
            if isinstance(t, Tag) and t.name.lower() == low:
                return t
        return None

    def source_line(self, line: int) -> str:
        """The text of a file line that lies in this game."""
        i = line - self.first_line
        if self._lines is None or self._lines[0] is not self.text:
            self._lines = (self.text, self.text.split("\n"))
        lines = self._lines[1]
        if 0 <= i < len(lines):
            return lines[i].rstrip("\r")
        return ""

    @property
    def plays(self) -> int:
        # A list, not a generator: asked of every game checked, where a generator's frames cost more.
        return sum([len(a.seats) for a in self.actions if isinstance(a, Trick)])


@dataclass(slots=True)
class Prelude:
    """What stands before the first game: the version line and comments."""

    version: int | None = None
    items: list[Any] = field(default_factory=list)
    version_comment: str | None = None  # a comment at the end of the version line
    errors: list[Any] = field(default_factory=list, compare=False, repr=False)
