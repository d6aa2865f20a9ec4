"""Records as JSON: ``getaway-ref export --format json`` and the JSON Schema.

The models mirror :mod:`referee.record`; cards are written in their canonical spelling
(``10♥``), seats by name, and every item carries its line and column.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, BinaryIO, Literal, Union

from pydantic import BaseModel, Field, TypeAdapter

from referee.engine.cards import SUIT_SYMBOLS, card_str
from referee.notation.reader import Reader, chunks, quote_first_line
from referee.notation.record import (
    Comment,
    Counts,
    Deal,
    Draw,
    Game,
    Hand,
    Lead,
    NextTrick,
    Out,
    Prelude,
    Span,
    Tag,
    Take,
    Trick,
    Trumps,
    Waste,
)
from referee.reports.report import DiagnosticLine, Report, UnreadableLine

RECORD_SCHEMA_VERSION = 2  # 2: counts are a list of {seat, size}, so a seat named twice is kept


class At(BaseModel):
    line: int
    column: int


def _at(span: Span) -> At | None:
    return At(line=span.line, column=span.col) if span.line else None


class CommentModel(BaseModel):
    kind: Literal["comment"] = "comment"
    text: str
    at: At | None = None


class TagModel(BaseModel):
    kind: Literal["tag"] = "tag"
    name: str
    value: str
    comment: str | None = None
    at: At | None = None


class HandModel(BaseModel):
    kind: Literal["hand"] = "hand"
    seat: str
    cards: list[str] | None = Field(None, description="the cards, or null when only the size is known")
    size: int
    comment: str | None = None
    at: At | None = None


class OutModel(BaseModel):
    kind: Literal["out"] = "out"
    seat: str
    comment: str | None = None
    at: At | None = None


class WasteModel(BaseModel):
    kind: Literal["waste"] = "waste"
    cards: list[str] | None = None
    size: int | None = None
    rest: bool = False
    comment: str | None = None
    at: At | None = None


class LeadModel(BaseModel):
    kind: Literal["lead"] = "lead"
    seat: str
    comment: str | None = None
    at: At | None = None


class NextTrickModel(BaseModel):
    kind: Literal["next_trick"] = "next_trick"
    number: int
    comment: str | None = None
    at: At | None = None


class TrumpsModel(BaseModel):
    kind: Literal["trumps"] = "trumps"
    suit: str = Field(description="the trump suit already set (Donkey): ♠ ♥ ♦ or ♣")
    comment: str | None = None
    at: At | None = None


class PlayModel(BaseModel):
    seat: str
    card: str
    at: At | None = None


class TrickModel(BaseModel):
    kind: Literal["trick"] = "trick"
    number: int
    plays: list[PlayModel]
    comment: str | None = None
    at: At | None = None


class TakeModel(BaseModel):
    kind: Literal["take"] = "take"
    taker: str
    target: str
    comment: str | None = None
    at: At | None = None


class DrawModel(BaseModel):
    kind: Literal["draw"] = "draw"
    seat: str
    card: str
    source: str | None = Field(None, description="the seat drawn from; null for the waste pile")
    comment: str | None = None
    at: At | None = None


class SizeModel(BaseModel):
    seat: str
    size: int


class CountsModel(BaseModel):
    kind: Literal["counts"] = "counts"
    sizes: list[SizeModel] = Field(description="the hand sizes stated, in the record's order (a seat named twice "
                                                "appears twice: the record is exported as written)")
    comment: str | None = None
    at: At | None = None


SetupItem = Union[HandModel, OutModel, WasteModel, LeadModel, NextTrickModel, TrumpsModel, CommentModel]
ActionItem = Union[TrickModel, TakeModel, DrawModel, CountsModel, CommentModel]


class SetupModel(BaseModel):
    kind: Literal["deal", "position"]
    items: list[SetupItem]


class GameModel(BaseModel):
    number: int
    at: At | None = None
    seats: list[str]
    rules: str
    open_comment: str | None = None
    header: list[TagModel | CommentModel]
    setup: SetupModel | None = None
    actions: list[ActionItem]
    errors: int = Field(0, description="syntax errors found in this game (see check)")


class RecordFile(BaseModel):
    schema_version: int = RECORD_SCHEMA_VERSION
    path: str
    version: int | None
    version_comment: str | None = Field(None, description="the comment at the end of the %gwy line")
    comments: list[CommentModel] = []
    games: list[GameModel]


def _name(seats: Sequence[str], s: int | None) -> str:
    return seats[s] if s is not None and 0 <= s < len(seats) else "?"


def _card(c: int) -> str:
    return card_str(c) if c >= 0 else "?"


def _comment(it: Comment) -> CommentModel:
    return CommentModel(text=it.text, at=_at(it.span))


def _header_item(it: Tag | Comment) -> TagModel | CommentModel:
    if isinstance(it, Comment):
        return _comment(it)
    if isinstance(it, Tag):
        return TagModel(name=it.name, value=it.value, comment=it.comment, at=_at(it.span))
    raise TypeError(it)


def _setup_item(it: Hand | Out | Waste | Lead | NextTrick | Trumps | Comment, seats: Sequence[str]) -> SetupItem:
    if isinstance(it, Comment):
        return _comment(it)
    if isinstance(it, Hand):
        return HandModel(seat=_name(seats, it.seat), cards=[_card(c) for c in it.cards] if it.cards is not None else None,
                         size=it.size, comment=it.comment, at=_at(it.span))
    if isinstance(it, Out):
        return OutModel(seat=_name(seats, it.seat), comment=it.comment, at=_at(it.span))
    if isinstance(it, Waste):
        return WasteModel(cards=[_card(c) for c in it.cards] if it.cards is not None else None, size=it.size,
                          rest=it.rest, comment=it.comment, at=_at(it.span))
    if isinstance(it, Lead):
        return LeadModel(seat=_name(seats, it.seat), comment=it.comment, at=_at(it.span))
    if isinstance(it, NextTrick):
        return NextTrickModel(number=it.number, comment=it.comment, at=_at(it.span))
    if isinstance(it, Trumps):
        return TrumpsModel(suit=SUIT_SYMBOLS[it.suit], comment=it.comment, at=_at(it.span))
    raise TypeError(it)


def _action_item(it: Trick | Take | Draw | Counts | Comment, seats: Sequence[str]) -> ActionItem:
    if isinstance(it, Comment):
        return _comment(it)
    if isinstance(it, Trick):
        return TrickModel(number=it.number, comment=it.comment, at=_at(it.span),
                          plays=[PlayModel(seat=_name(seats, p.seat), card=_card(p.card), at=_at(p.seat_span))
                                 for p in it.plays])
    if isinstance(it, Take):
        return TakeModel(taker=_name(seats, it.taker), target=_name(seats, it.target), comment=it.comment,
                         at=_at(it.span))
    if isinstance(it, Draw):
        return DrawModel(seat=_name(seats, it.seat), card=_card(it.card),
                         source=_name(seats, it.source) if it.source is not None else None,
                         comment=it.comment, at=_at(it.span))
    if isinstance(it, Counts):
        return CountsModel(sizes=[SizeModel(seat=_name(seats, s), size=n) for s, n in it.sizes], comment=it.comment,
                           at=_at(it.span))
    raise TypeError(it)


def game_model(g: Game) -> GameModel:
    seats = g.seats
    setup = None
    if g.setup is not None:
        setup = SetupModel(kind="deal" if isinstance(g.setup, Deal) else "position",
                           items=[_setup_item(i, seats) for i in g.setup.items])
    return GameModel(
        # A game always has a place: its %game line, or (a first game written without one)
        # the line it starts at.
        number=g.number, at=_at(g.span) or At(line=g.first_line, column=1), seats=list(seats), rules=g.rules,
        open_comment=g.open_comment, header=[_header_item(i) for i in g.header], setup=setup,
        # The record as written: trick lines out of number order are exported where they
        # stand in the text (docs/rulings.md, ruling 10: the record is the timeline), not in
        # the number order the reader also offers the replay.
        actions=[_action_item(a, seats) for a in (g.written_order[0] if g.written_order is not None else g.actions)],
        errors=len(g.errors),
    )


def record_file(path: str, prelude: Prelude, games: Iterable[Game]) -> RecordFile:
    return RecordFile(
        path=path, version=prelude.version, version_comment=prelude.version_comment,
        comments=[_comment(c) for c in prelude.items if isinstance(c, Comment)],
        games=[game_model(g) for g in games],
    )


def write_export(f: BinaryIO, name: str, write: Callable[[str], object], lines: bool = False) -> int:
    """Export the record in binary stream ``f`` game by game through ``write`` (memory holds
    one game): the JSON of :class:`RecordFile`, byte for byte what dumping it whole gives, or
    with ``lines`` JSON Lines: the file (without its games) on the first line, then one game
    a line. Returns the number of syntax errors."""
    reader = Reader(name)
    errors = 0
    started = False

    def start() -> None:
        nonlocal started, errors
        started = True
        errors += len(reader.prelude.errors)
        head = record_file(name, reader.prelude, [])
        if lines:
            write(head.model_dump_json(exclude={"games"}) + "\n")
        else:
            whole = head.model_dump_json(indent=2)
            assert whole.endswith("[]\n}")
            write(whole[:-4])

    n = 0
    for number, text, first_line, offset in chunks(f, name):
        if number == 0:
            reader.read_prelude(text, offset)
            continue
        if first_line == 1:
            quote_first_line(reader.prelude.errors, text)
        if not started:
            start()
        g = reader.parse_game(text, number, first_line, offset)
        errors += len(g.errors)
        model = game_model(g)
        if lines:
            write(model.model_dump_json() + "\n")
        else:
            write(("[\n    " if n == 0 else ",\n    ") + model.model_dump_json(indent=2).replace("\n", "\n    "))
        n += 1
    if not started:
        start()
    if not lines:
        write("[]\n}\n" if n == 0 else "\n  ]\n}\n")
    return errors


def schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schemas of the record export, the check report and a line of check's JSON
    Lines."""
    return {
        "record": RecordFile.model_json_schema(),
        "report": Report.model_json_schema(),
        "report_line": TypeAdapter(DiagnosticLine | UnreadableLine).json_schema(),
    }
