"""``getaway-ref export --format parquet ARCHIVE -o DIR``: an archive as five Parquet tables
a club can ask questions of (``getaway-ref query``, DuckDB, pandas, any Parquet reader).

The tables (their columns and meaning: :data:`SCHEMAS`, and docs/archives.md):

* ``games``: one row a game: where it is, its tags, rule set, seats, loser, the order of
  getting away, Donkey's legs, how far it was judged, its counts of findings;
* ``seats``: one row a seat of a game: the player, the hand dealt (size, suit lengths, the
  A♠), when the seat got away, whether it lost; the deal features the queries group by;
* ``tricks``: one row a trick: who led it with what, how it ended (to the waste pile, picked
  up at a tochoo, picked up as a penalty), who picked it up;
* ``plays``: one row a card played: seat, card, what it did, legal or the code of its mistake;
* ``diagnostics``: every finding of ``check``, where it is and whom it is about.

Every row comes from the one walk of a game that every command consumes
(:mod:`referee.judging.replay`): its steps' items and events and the referee's result, so the
tables say what ``check`` and ``tally`` say. The long tables (plays, tricks) are gathered as
columns of small ints (a seat as its place among the seats' names, a card as its number),
made into Arrow arrays once a batch, their text looked up in C (:func:`columns_batch`): no
tuple or string is made a play. Memory stays flat: each table has its own ``ParquetWriter``
fed record batches of :data:`BATCH_ROWS` rows and writing row groups of
:data:`ROW_GROUP_ROWS` rows or :data:`ROW_GROUP_BYTES` bytes, and a game is dropped once its
rows are in the buffers. The directory is written beside the target and moved into place
when complete, so an interrupted export leaves the previous one (or nothing) as it was.
"""

from __future__ import annotations

import gc
import io
import json
import os
import shutil
import sys
import tempfile
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, chain, compress, repeat
from operator import add, is_, itemgetter, lt, mul, sub
from pathlib import Path
from typing import Any, Protocol

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

import referee
from referee.archive.inputs import expand, has_syntax_errors, no_records, problem
from referee.archive.jobs import choose_jobs
from referee.archive.slices import Slice, WorkerFailed, rules_spec, slices
from referee.archive.workers import PoolRunner
from referee.commands import UsageError
from referee.commands.options import cannot_write
from referee.engine import cards as C
from referee.engine import events as EV
from referee.engine import language as L
from referee.judging.referee import GameResult, Referee
from referee.judging.replay import replay
from referee.notation.reader import Reader, ReadError, chunks, read
from referee.notation.record import Counts as Stated
from referee.notation.record import Deal, Draw, Game, Play, Take, Trick
from referee.reports.diagnostics import Diagnostic

ARCHIVE_SCHEMA_VERSION = 1
MANIFEST = "archive.json"
GENERATOR = "getaway-ref export --format parquet"
BATCH_ROWS = 10_000  # rows a table gathers in Python before they are made one record batch
# Rows a table's record batches gather before they are written as one row group: large enough
# that the file's metadata (some statistics for each column of each row group, held until the
# file is closed) stays small on any archive, and a DuckDB scan reads few groups; small enough
# that the batches waiting for it take a few tens of MB at most (the plays: about 40 bytes a row).
ROW_GROUP_ROWS = 250_000
# ... or these bytes of Arrow data, whichever comes first: the narrow tables (plays, tricks) come
# to their rows first, the wide ones (games with their tags, diagnostics with their sentences)
# to their bytes, so what waits for a row group is bounded on any archive.
ROW_GROUP_BYTES = 16 * 2**20
# The cycle collector's first threshold while exporting: the rows are tuples, tracked by the
# collector, made by the hundred thousand and freed by their counts; at Python's default (700)
# the collector walks them again and again, some 12 % of an export's time (measured).
GC_THRESHOLD = 50_000
TABLES = ("games", "seats", "tricks", "plays", "diagnostics")

_TAG = pa.struct([("name", pa.string()), ("value", pa.string())])


def _f(name: str, type_: pa.DataType, doc: str, nullable: bool = True) -> pa.Field:
    return pa.field(name, type_, nullable=nullable, metadata={"description": doc})


# The one statement of the layout: the writer fills these columns, docs/archives.md lists them
# (tests/test_archive_export.py holds the page to these descriptions).
SCHEMAS: dict[str, pa.Schema] = {
    "games": pa.schema([
        _f("game_id", pa.int32(), "the game's number in the export, 1 up, in input order; every table joins on it", False),
        _f("file", pa.string(), "the record file", False),
        _f("game", pa.int32(), "the game's number in its file (its %game line), as check and html count", False),
        _f("line", pa.int32(), "the line of the game's %game line (or first line)"),
        _f("rules", pa.string(), "the rule set it was judged by, as a spec ('pagat', 'donkey packs=2'); null if it does not read"),
        _f("donkey", pa.bool_(), "the Donkey form (trumps, legs)"),
        _f("players", pa.int8(), "seats at the table", False),
        _f("seats", pa.list_(pa.string()), "the seats' names, clockwise as the record names them", False),
        _f("tags", pa.list_(_TAG), "the header's tags in order, each {name, value}", False),
        _f("date", pa.string(), "the [Date] tag, as written (null without one)"),
        _f("result", pa.string(), "the [Result] tag, as written (null without one)"),
        _f("loser", pa.string(), "who lost, by the replay (null if the game did not finish)"),
        _f("loser_seat", pa.int8(), "the loser's seat, 0 up"),
        _f("out_order", pa.list_(pa.string()), "who got away, in order", False),
        _f("legs", pa.int16(), "Donkey: the loser's legs"),
        _f("tricks", pa.int16(), "tricks played", False),
        _f("takes", pa.int16(), "hands taken", False),
        _f("draws", pa.int16(), "cards drawn", False),
        _f("finished", pa.bool_(), "the game was played to its end (a loser)", False),
        _f("judged", pa.bool_(), "the referee replayed it (false: no deal, a rule set that does not read, syntax errors before any play)", False),
        _f("stopped", pa.string(), "why the replay stopped early, in check's words (null: it did not)"),
        _f("syntax_errors", pa.int16(), "lines that could not be read", False),
        _f("errors", pa.int16(), "findings of severity error (syntax errors included)", False),
        _f("mistakes", pa.int16(), "findings of severity mistake (table mistakes: renege, play after a tochoo, ...)", False),
        _f("notes", pa.int16(), "findings of severity note", False),
        _f("ace_of_spades", pa.string(), "who was dealt the A♠ (null for a position or an unseen hand)"),
    ]),
    "seats": pa.schema([
        _f("game_id", pa.int32(), "the game (games.game_id)", False),
        _f("seat", pa.int8(), "the seat, 0 up, in the record's order", False),
        _f("player", pa.string(), "the seat's name", False),
        _f("dealt", pa.int8(), "cards dealt to the seat (null: a position, or a seat with no hand line)"),
        _f("spades", pa.int8(), "♠ dealt (null when the hand is unseen)"),
        _f("hearts", pa.int8(), "♥ dealt"),
        _f("diamonds", pa.int8(), "♦ dealt"),
        _f("clubs", pa.int8(), "♣ dealt"),
        _f("longest", pa.int8(), "the length of the seat's longest suit"),
        _f("shortest", pa.int8(), "the length of its shortest suit (0: a void)"),
        _f("ace_of_spades", pa.bool_(), "the seat was dealt the A♠ (it leads the first trick)"),
        _f("out_place", pa.int8(), "1 for the first away, 2 for the next, ...; null for a seat that did not get away"),
        _f("lost", pa.bool_(), "the seat lost (null: the game did not finish)"),
    ]),
    "tricks": pa.schema([
        _f("game_id", pa.int32(), "the game", False),
        _f("trick", pa.int16(), "the trick's number in the record", False),
        _f("leader", pa.string(), "who led it"),
        _f("lead_card", pa.string(), "the card led"),
        _f("cards", pa.int8(), "cards played to it, mistakes included", False),
        _f("in_game", pa.int8(), "players still holding cards when it was led", False),
        _f("ended", pa.string(), "waste (everyone followed, or the first trick), pickup (a tochoo), penalty (ruling 1), or null: left open", True),
        _f("picked_up_by", pa.string(), "who picked it up (pickup or penalty); for waste, who had the power"),
        _f("picked_up", pa.int8(), "cards picked up (pickup or penalty)"),
        _f("mistakes", pa.int8(), "plays of the trick with a finding of severity error or mistake", False),
    ]),
    "plays": pa.schema([
        _f("game_id", pa.int32(), "the game", False),
        _f("step", pa.int32(), "the item's place among the record's plays, takes, draws and counts, 1 up", False),
        _f("trick", pa.int16(), "the trick's number", False),
        _f("place", pa.int8(), "1 for the lead, 2 for the next card of the trick, ...", False),
        _f("seat", pa.int8(), "the seat that played, 0 up", False),
        _f("player", pa.string(), "its name", False),
        _f("card", pa.string(), "the card, in the notation's spelling (10♥)", False),
        _f("suit", pa.string(), "♠ ♥ ♦ or ♣", False),
        _f("rank", pa.string(), "2 to A", False),
        _f("effect", pa.string(), "leads, follows, tochoo, trumps (Donkey) or discard (first trick); null for a mistake penalised at once"),
        _f("in_game", pa.int8(), "players still holding cards at this play (2: the two-player ending)", False),
        _f("legal", pa.bool_(), "no finding of severity error or mistake at this play", False),
        _f("code", pa.string(), "the code of the first such finding (M201, ...), null when legal"),
    ]),
    "diagnostics": pa.schema([
        _f("game_id", pa.int32(), "the game", False),
        _f("step", pa.int32(), "the item it was found at (plays.step), null for a finding about the game"),
        _f("trick", pa.int16(), "the trick it is about"),
        _f("code", pa.string(), "the code (getaway-ref explain CODE)", False),
        _f("severity", pa.string(), "error, mistake or note", False),
        _f("seat", pa.int8(), "the seat whose play, take or draw it is about"),
        _f("player", pa.string(), "that seat's name"),
        _f("in_game", pa.int8(), "players still holding cards then"),
        _f("line", pa.int32(), "where, in the record"),
        _f("column", pa.int32(), "where, in the line"),
        _f("message", pa.string(), "the referee's sentence, as check prints it", False),
    ]),
    # with --review only: the review's verdict on every play and take (getaway-ref review)
    "verdicts": pa.schema([
        _f("game_id", pa.int32(), "the game", False),
        _f("step", pa.int32(), "the item reviewed (plays.step; a take's place among the items)", False),
        _f("number", pa.int16(), "its place among the game's plays and takes, 1 up (review's numbering)", False),
        _f("trick", pa.int16(), "the record's trick number (plays only)"),
        _f("seat", pa.int8(), "the seat that played or took, 0 up", False),
        _f("player", pa.string(), "its name", False),
        _f("action", pa.string(), "the card played, or 'takes SEAT'", False),
        _f("held", pa.int16(), "cards held by the seats in the game before it", False),
        _f("exact", pa.bool_(), "the solver settled it (every hand known, few cards held); false: the chances are sampled", False),
        _f("class_before", pa.string(), "the seat's class before it: safe, open or lost (exact only)"),
        _f("class_after", pa.string(), "the seat's class after it (exact only)"),
        _f("best", pa.string(), "the best class a choice of the seat's kept (exact only)"),
        _f("verdict", pa.string(), "exact: blunder, only move, forced or good; null when not exact"),
        _f("mark", pa.string(), "sampled: blunder, mistake or inaccuracy (the chance of losing rose by 30, 20, 10 points); null below"),
        _f("chance_before", pa.float64(), "the seat's estimated chance of losing had it played as the sensible bot (sampled)"),
        _f("chance_after", pa.float64(), "its estimated chance of losing after the play (sampled)"),
        _f("samples", pa.int16(), "the sampled deals behind the chances", False),
        _f("mistake", pa.string(), "a mistake the referee reports at this play (the review judges no such play); null if none"),
    ]),
}
REVIEWED = "verdicts"  # the table written with --review

_SUITS = ("spades", "hearts", "diamonds", "clubs")
# Each card's three columns of the plays table (card, suit, rank), spelt once, not at every play.
_CARD_COLUMNS = tuple((C.card_str(c), C.SUIT_SYMBOLS[C.SUIT[c]], C.RANK_NAMES[C.RANK[c]]) for c in range(len(C.SUIT)))

# The columnar tables (Rows.cols): each column that is held as a small int and written as text,
# and the words it indexes; None: the seat names the table gathered (Rows.names). The plays'
# suit and rank are their card's, not held at all.
_WASTE, _PICKUP, _PENALTY = range(3)
_EFFECT = {e: i for i, e in enumerate(EV.Effect)}
_CARD_TEXT, _SUIT_TEXT, _RANK_TEXT = (pa.array(list(words), pa.string()) for words in zip(*_CARD_COLUMNS))
_LOOKUPS: dict[str, dict[str, tuple[str, pa.Array | None]]] = {
    "plays": {"player": ("player", None), "card": ("card", _CARD_TEXT), "suit": ("card", _SUIT_TEXT),
              "rank": ("card", _RANK_TEXT), "effect": ("effect", pa.array([e.value for e in EV.Effect], pa.string()))},
    "tricks": {"leader": ("leader", None), "lead_card": ("lead_card", _CARD_TEXT),
               "ended": ("ended", pa.array(["waste", "pickup", "penalty"], pa.string())),
               "picked_up_by": ("picked_up_by", None)},
}
_RUNS = tuple(tuple(range(1, k + 1)) for k in range(16))  # a trick's places, made once
# ... and as the bytes of the plays' int8 place column; a trick's number as the bytes of the
# int16 trick column (Rows._from_log joins them, in C)
_PLACE_BYTES = tuple(bytes(run) for run in _RUNS)
_TRICK_BYTES = tuple(array("h", (k,)).tobytes() for k in range(1024))


# The fast read of a game's log (Rows._from_log): an entry's kind and seat; the kinds it reads
# (any other, a penalty or a mistake, sends the game item by item); how each ending is told.
_KIND, _SEAT = itemgetter(0), itemgetter(1)
_ENDS = frozenset((EV.TrickToWaste, EV.PickedUp))
_ENDED = {EV.TrickToWaste: _WASTE, EV.PickedUp: _PICKUP}
_PLAIN = frozenset((EV.Played, EV.Leads, EV.TrickToWaste, EV.PickedUp, EV.GotAway, EV.GameOver, EV.Took,
                    EV.DrawDue, EV.Drew, EV.TrumpsSet))
_DERIVED = frozenset(("suit", "rank"))  # plays' columns read from another column
_TRICK_COLUMNS = tuple(f.name for f in SCHEMAS["tricks"])
_PLAY_COLUMNS = tuple(f.name for f in SCHEMAS["plays"] if f.name not in _DERIVED)


# The columns of the columnar tables that are never null and hold ints (a bool as 0 or 1):
# kept in typed arrays (array.array, the Python standard library's), which Arrow reads in
# place, so a batch of them costs no conversion; each with its typecode.
_PACKED: dict[str, dict[str, str]] = {
    "plays": {"game_id": "i", "step": "i", "trick": "h", "place": "b", "seat": "b", "player": "i", "card": "b",
              "in_game": "b", "legal": "b"},
    "tricks": {"game_id": "i", "trick": "h", "lead_card": "b", "cards": "b", "in_game": "b", "mistakes": "b"},
}
_PACKED_TYPE = {"b": pa.int8(), "h": pa.int16(), "i": pa.int32()}  # each typecode's Arrow type


def _arrow(col: list[Any] | array[int], type_: pa.DataType) -> pa.Array:
    """A column as an Arrow array: a typed array read in place (cast where the schema says
    otherwise: a bool kept as 0 or 1), a list converted."""
    if isinstance(col, array):
        packed = pa.Array.from_buffers(_PACKED_TYPE[col.typecode], len(col), [None, pa.py_buffer(col)])
        return packed if packed.type == type_ else pc.cast(packed, type_)
    return pa.array(col, type_)


def columns_batch(name: str, cols: dict[str, Any], names: list[str]) -> pa.RecordBatch:
    """A columnar table's buffers (:class:`Rows`) as one record batch: each column one Arrow
    array, read in place from its typed array or made in one step from its list; the text
    columns looked up from their codes (a ``take``, in C), so no string is made a row in
    Python."""
    schema = SCHEMAS[name]
    lookups = _LOOKUPS[name]
    seat_names = pa.array(names, pa.string())
    arrays = []
    for f in schema:
        if f.name in lookups:
            source, words = lookups[f.name]
            codes = _arrow(cols[source], pa.int32())
            arrays.append((seat_names if words is None else words).take(codes))
        else:
            arrays.append(_arrow(cols[f.name], f.type))
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


@dataclass
class Counts:
    """Rows written per table, and the games' syntax errors (the exit code)."""

    rows: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TABLES, 0))
    syntax_errors: int = 0


class _Table:
    """One table's ParquetWriter. Record batches come in (this process's rows, or a worker's
    slice) and are written once ``group_rows`` rows have gathered, as one row group."""

    def __init__(self, path: Path, schema: pa.Schema, group_rows: int):
        self.schema = schema
        self.writer = pq.ParquetWriter(str(path), schema, compression="zstd")
        self.group_rows = group_rows
        self.pending: list[pa.RecordBatch] = []
        self.pending_rows = self.pending_bytes = 0
        self.rows = 0

    def write(self, batch: pa.RecordBatch) -> None:
        if batch.num_rows:
            self.pending.append(batch)
            self.pending_rows += batch.num_rows
            self.pending_bytes += batch.nbytes
            if self.pending_rows >= self.group_rows or self.pending_bytes >= ROW_GROUP_BYTES:
                self.flush()

    def flush(self) -> None:
        if not self.pending_rows:
            return
        table = pa.Table.from_batches(self.pending, schema=self.schema)  # its batches as chunks, not copied
        self.writer.write_table(table, row_group_size=table.num_rows)
        self.rows += self.pending_rows
        self.pending, self.pending_rows, self.pending_bytes = [], 0, 0

    def close(self) -> None:
        self.flush()
        self.writer.close()


def _severity_counts(diags: Iterable[Diagnostic]) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in diags:
        out[d.severity] = out.get(d.severity, 0) + 1
    return out


def _actor(item: object) -> int | None:
    """The seat an item is the act of: the player of a card, the taker, the drawer."""
    if isinstance(item, Play):
        return item.seat
    if isinstance(item, Take):
        return item.taker
    if isinstance(item, Draw):
        return item.seat
    return None


def to_batch(name: str, rows: list[tuple[Any, ...]]) -> pa.RecordBatch:
    """Rows (tuples in the schema's order) as one record batch of table ``name``: turned
    into columns in one step (zip, in C), each column one Arrow array."""
    schema = SCHEMAS[name]
    if not rows:
        return pa.RecordBatch.from_pylist([], schema=schema)
    return pa.RecordBatch.from_arrays([pa.array(col, type=f.type) for col, f in zip(zip(*rows), schema)],
                                      schema=schema)


class PlayVerdict(Protocol):
    """What the export reads of the review's verdict on a play or take
    (``referee.review.review.PlayReview``)."""

    number: int
    trick: int | None
    seat: int
    action: str
    held: int
    exact: bool
    before: Any
    after: Any
    best: Any
    verdict: str
    mark: str
    chance_before: float | None
    chance_after: float | None
    samples: int
    step: int
    mistake: str


class GameVerdicts(Protocol):
    """A game's review (``referee.review.review.GameReview``): its plays' verdicts."""

    @property
    def plays(self) -> Sequence[PlayVerdict]: ...


Reviewer = Callable[[Game], GameVerdicts]


class Rows:
    """The tables' rows, game by game. The two long tables (``plays``, ``tricks``: some 75 and
    25 rows a game) are kept as columns of small ints (a seat's name as its place in
    :attr:`names`, a card as its number, how a play or trick went as a code), filled a whole
    trick or game at a time and made into Arrow arrays once a batch (:meth:`take`); the
    others (a few rows a game) as tuples in each schema's order.

    A game is judged once, as ``check`` judges it (the referee's fast path, which makes no
    step of the walk but keeps the engine's log of events), and its plays and tricks are read
    from the record's tricks and that log: a game with no finding at any item a trick or a
    game at once (:meth:`_from_log`), a game with findings item by item (:meth:`_from_marks`),
    the referee's marks saying at which item each finding was made. The replay's walk
    (:meth:`_walk`), step by step, is kept for a log that does not tell the items as the
    marks say (none is known) and as the reference the two are tested against."""

    def __init__(self, first_id: int = 1, review: Reviewer | None = None) -> None:
        self.review = review
        self.tables: tuple[str, ...] = (*TABLES, *((REVIEWED,) if review else ()))
        self.rows: dict[str, list[tuple[Any, ...]]] = {name: [] for name in self.tables if name not in _LOOKUPS}
        self.cols: dict[str, dict[str, Any]] = {}  # a list, or a typed array (_PACKED)
        # each columnar table's seat names, a game's seats at a time (its name columns index them)
        self.names: dict[str, list[str]] = {}
        for name in _LOOKUPS:
            self._clear(name)
        self.next_id = first_id
        self.syntax_errors = 0
        self.walked = 0  # games that took the replay's walk
        self.itemised = 0  # games read item by item (those with findings)
        self._referee = Referee(keep_engine=True)

    def _clear(self, name: str) -> None:
        packed = _PACKED[name]
        self.cols[name] = {f.name: array(packed[f.name]) if f.name in packed else []
                           for f in SCHEMAS[name] if f.name not in _DERIVED}
        self.names[name] = []

    def _mark(self) -> dict[str, tuple[int, int]]:
        """How many rows and seat names each columnar table holds now (for :meth:`_undo`)."""
        return {name: (len(self.cols[name]["game_id"]), len(self.names[name])) for name in _LOOKUPS}

    def _undo(self, kept: dict[str, tuple[int, int]]) -> None:
        """Drop what the columnar tables gained since :meth:`_mark`."""
        for name, (rows, names) in kept.items():
            for col in self.cols[name].values():
                del col[rows:]
            del self.names[name][names:]

    def pending(self, name: str) -> int:
        """Rows of table ``name`` not yet taken."""
        return len(self.cols[name]["game_id"]) if name in _LOOKUPS else len(self.rows[name])

    def take(self, name: str) -> pa.RecordBatch:
        """Table ``name``'s rows so far as a record batch; the rows are dropped."""
        if name in _LOOKUPS:
            batch = columns_batch(name, self.cols[name], self.names[name])
            self._clear(name)
            return batch
        rows = self.rows[name]
        batch = to_batch(name, rows)
        rows.clear()
        return batch

    def game(self, g: Game, *, walk: bool = False) -> None:
        """Add game ``g``'s rows (``walk``: take the replay's walk whatever the game)."""
        gid = self.next_id
        self.next_id += 1
        facts: tuple[GameResult, int, int, dict[int, tuple[int, int | None, int]]] | None = None
        if not walk:
            res = self._referee.judge(g)
            engine, res.engine = res.engine, None  # the final state is not kept past the game
            if engine is not None:
                log = engine.logged()
                counted: tuple[int, int, dict[int, tuple[int, int | None, int]]] | None = None
                if all(d0 == d1 for _, _, d0, d1 in res.off_path.values()):  # no finding at any item
                    counted = self._from_log(gid, res, log)
                if counted is None:
                    kept = self._mark()
                    self.itemised += 1
                    counted = self._from_marks(gid, res, log)
                    if counted is None:
                        self._undo(kept)  # the rows it had added before the log disagreed
                if counted is not None:
                    facts = (res, *counted)
            elif res.items == 0:  # not replayed (no deal, a rule set that does not read, ...): no play to tell
                facts = (res, 0, 0, {})
        if facts is None:
            self.walked += 1
            facts = self._walk(gid, g)
        self._rest(gid, g, *facts)
        if self.review is not None and facts[0].rules is not None:
            self._verdicts(gid, g, self.review)

    def _verdicts(self, gid: int, g: Game, review: Reviewer) -> None:
        """The review's verdicts on the game's plays and takes, as ``getaway-ref review``
        gives them (its defaults: window, samples, seed)."""
        add = self.rows[REVIEWED].append
        seats = g.seats
        for p in review(g).plays:
            add((gid, p.step + 1, p.number, p.trick, p.seat, seats[p.seat], p.action, p.held, p.exact,
                 _word(p.before), _word(p.after), _word(p.best), p.verdict or None, p.mark or None,
                 p.chance_before, p.chance_after, p.samples, p.mistake or None))

    def _from_log(self, gid: int, res: GameResult, log: list[tuple[Any, ...]]
                  ) -> tuple[int, int, dict[int, tuple[int, int | None, int]]] | None:
        """The plays and tricks of a game with no finding at any item, a game at once: the
        engine's log (``Engine.logged``) gives each play's seat, card and what it did (its
        ``Played``), how each trick ended (the one ``TrickToWaste`` or ``PickedUp`` between
        its last play and the next trick's first) and who got away when; the record's tricks
        give their numbers and the items' steps. The log must hold as many plays as the
        record (the replay pushed each of them, and none was found at fault), each trick's
        ending in its place, and no penalty or mistake; if it does not, None (the caller
        reads the game item by item). Returns the takes and draws counted, and no finding's
        place. The log is sifted by its entries' kinds in C (``compress``, ``map``), so no
        Python code runs a play or an event; a trick costs a few list appends."""
        g = res.game
        seats = g.seats
        n = len(seats)
        kinds = list(map(_KIND, log))
        if not _PLAIN.issuperset(kinds):  # a penalty, a mistake, an event the fast read does not know
            return None
        # the record: each trick's number and cards (a line that continues the trick before it
        # adds to it), and the items' steps, a run of consecutive steps between takes and draws
        numbers: list[int] = []
        counts: list[int] = []
        steps = array("i")
        takes = draws = step = run = 0
        for a in g.actions:
            if type(a) is Trick:
                k = len(a.cards)
                if not k:
                    continue
                if numbers and numbers[-1] == a.number:
                    counts[-1] += k
                else:
                    numbers.append(a.number)
                    counts.append(k)
                run += k
            elif isinstance(a, (Take, Draw, Stated)):
                if run:
                    steps.extend(range(step + 1, step + run + 1))
                    step += run
                    run = 0
                step += 1
                takes += isinstance(a, Take)
                draws += isinstance(a, Draw)
        if run:
            steps.extend(range(step + 1, step + run + 1))
            step += run
        m = len(steps)
        if step != res.items:  # the replay stopped before the record's end
            return None
        where = range(len(log))
        played_at = list(compress(where, map(is_, kinds, repeat(EV.Played))))
        if len(played_at) != m:
            return None
        ends_at = list(compress(where, map(_ENDS.__contains__, kinds)))
        t = len(counts)
        if not (t - 1 <= len(ends_at) <= t):  # each trick ends once; the last may be left open
            return None
        firsts = list(accumulate(counts, initial=0))
        del firsts[-1]
        if m:
            # each ending lies after its trick's last play and before the next trick's first
            lasts = list(map(played_at.__getitem__, map(sub, accumulate(counts), repeat(1))))
            nexts = list(map(played_at.__getitem__, firsts[1:]))
            nexts.append(len(log))
            if not (all(map(lt, lasts, ends_at)) and all(map(lt, ends_at, nexts))):
                return None
            _, pseats, pcards, effects = zip(*map(log.__getitem__, played_at))
        else:
            pseats = pcards = effects = ()
        # players in the game at each play: one fewer after each getting away
        in_game = array("b")
        left, before = n, 0
        for i in compress(where, map(is_, kinds, repeat(EV.GotAway))):
            k = bisect_left(played_at, i)
            in_game += array("b", (left,)) * (k - before)
            before, left = k, left - 1
        in_game += array("b", (left,)) * (m - before)

        c = self.cols["plays"]
        names = self.names["plays"]
        base = len(names)
        names.extend(seats)
        c["game_id"] += array("i", (gid,)) * m
        c["step"] += steps
        # the int8 and int16 columns as their bytes, made in C (a seat, card or place is below 128)
        if min(numbers, default=0) >= 0 and max(numbers, default=0) < len(_TRICK_BYTES):
            c["trick"].frombytes(b"".join(map(mul, map(_TRICK_BYTES.__getitem__, numbers), counts)))
        else:
            c["trick"].extend(chain.from_iterable(map(repeat, numbers, counts)))
        if max(counts, default=0) < len(_PLACE_BYTES):
            c["place"].frombytes(b"".join(map(_PLACE_BYTES.__getitem__, counts)))
        else:
            c["place"].extend(chain.from_iterable(map(range, repeat(1), map(add, counts, repeat(1)))))
        c["seat"].frombytes(bytes(pseats))
        c["player"].extend(map(add, pseats, repeat(base)))
        c["card"].frombytes(bytes(pcards))
        c["effect"].extend(map(_EFFECT.__getitem__, effects))
        c["in_game"] += in_game
        c["legal"] += array("b", (1,)) * m
        c["code"] += [None] * m

        c = self.cols["tricks"]
        names = self.names["tricks"]
        base = len(names)
        names.extend(seats)
        if t:
            ends = list(map(log.__getitem__, ends_at))
            ended: list[int | None] = list(map(_ENDED.__getitem__, map(_KIND, ends)))
            by: list[int | None] = list(map(add, map(_SEAT, ends), repeat(base)))
            picked = [e[2] if e[0] is EV.PickedUp else None for e in ends]
            if len(ends) < t:  # the last trick left open
                ended.append(None)
                by.append(None)
                picked.append(None)
            c["game_id"] += array("i", (gid,)) * t
            c["trick"].extend(numbers)
            c["leader"].extend(map(add, map(pseats.__getitem__, firsts), repeat(base)))
            c["lead_card"].extend(map(pcards.__getitem__, firsts))
            c["cards"].extend(counts)
            c["in_game"].extend(map(in_game.__getitem__, firsts))
            c["ended"] += ended
            c["picked_up_by"] += by
            c["picked_up"] += picked
            c["mistakes"] += array("b", (0,)) * t
        return takes, draws, {}

    def _from_marks(self, gid: int, res: GameResult, log: list[tuple[Any, ...]]
                    ) -> tuple[int, int, dict[int, tuple[int, int | None, int]]] | None:
        """The plays and tricks of any replayed game, item by item, from the engine's log and
        the referee's marks of the items it judged off the plain path (``GameResult.off_path``:
        where each such item's events and findings lie): what the replay's walk gives, with
        no second replay. A plain play's events are its ``Played`` and those after it, up to
        the next item's. Returns the takes and draws counted and where each finding was made
        (as :meth:`_walk`); None if the log does not tell the record's items as the marks say
        (the caller walks)."""
        g = res.game
        seats = g.seats
        n = len(seats)
        off = res.off_path
        items = res.items
        diags = res.diagnostics
        end_of_log = len(log)
        Played, GotAway, Penalty = EV.Played, EV.GotAway, EV.Penalty
        ToWaste, PickedUp = EV.TrickToWaste, EV.PickedUp
        game_rows = _GameRows(self, gid, seats)
        player, name, close = game_rows.player, game_rows.name, game_rows.close
        p_game, p_step, p_trick, p_place, p_seat, p_player, p_card, p_effect, p_in_game, p_legal, p_code = \
            game_rows.appends

        at: dict[int, tuple[int, int | None, int]] = {}
        takes = draws = out = 0
        # the trick being played: [number, leader, lead card, cards, in_game, ended, by, picked up, mistakes]
        trick: list[Any] | None = None
        # where each Played lies in the log (and the log's end, after the last): a plain
        # play's events run from its Played to the next one, or to the next item's marks
        played_at = [i for i, e in enumerate(log) if e[0] is Played]
        played_at.append(end_of_log)
        nxt = 0  # the first Played not yet accounted for
        pos = 0  # where the next item's events begin in the log
        k = 0
        for a in g.actions:
            if k >= items:
                break
            if type(a) is Trick:
                plays: Iterable[tuple[int, int, int | None]] = zip(a.seats, a.cards, [a.number] * len(a.cards))
            elif isinstance(a, (Take, Draw, Stated)):
                plays = ((-1, -1, None),)
            else:
                continue
            for s, c, tno in plays:
                if k >= items:
                    break
                marks = off.get(k)
                if marks is None:  # a plain play: its Played first, up to the next item's events
                    if tno is None or played_at[nxt] != pos or pos == end_of_log:
                        return None
                    first = log[pos]
                    if first[1] != s or first[2] != c:
                        return None
                    nxt += 1
                    start, end = pos, played_at[nxt]
                    after = off.get(k + 1)
                    if after is not None and after[0] < end:
                        end = after[0]
                    found: list[Diagnostic] = []
                else:
                    start, end, d0, d1 = marks
                    if start != pos:
                        return None
                    while played_at[nxt] < end:
                        nxt += 1
                    found = diags[d0:d1]
                pos = end
                k += 1
                in_game = n - out
                failing: list[Diagnostic] = []
                if found:  # the few items with findings
                    failing = [d for d in found if d.is_error]
                    actor = s if tno is not None else (a.taker if isinstance(a, Take) else
                                                       a.seat if isinstance(a, Draw) else None)
                    for d in found:
                        at[id(d)] = (k, actor, in_game)
                if tno is None:
                    takes += isinstance(a, Take)
                    draws += isinstance(a, Draw)
                    for e in log[start:end]:
                        if e[0] is Penalty and trick is not None:  # a trick penalised after the table played on
                            trick[5:8] = [_PENALTY, name(e[1]), e[2]]
                        elif e[0] is GotAway:
                            out += 1
                    continue
                if trick is None or trick[0] != tno:
                    if trick is not None:
                        close(trick)
                    trick = [tno, name(s), c, 0, in_game, None, None, None, 0]
                trick[3] += 1
                if failing:
                    trick[8] += 1
                effect = None
                for e in log[start:end]:
                    kind = e[0]
                    if kind is Played:
                        effect = _EFFECT[e[3]]
                    elif kind is ToWaste:
                        trick[5:8] = [_WASTE, name(e[1]), None]
                    elif kind is PickedUp:
                        trick[5:8] = [_PICKUP, name(e[1]), e[2]]
                    elif kind is Penalty:
                        trick[5:8] = [_PENALTY, name(e[1]), e[2]]
                    elif kind is GotAway:
                        out += 1  # counted from the next item on
                p_game(gid)
                p_step(k)
                p_trick(tno)
                p_place(trick[3])
                p_seat(s)
                p_player(player(s))
                p_card(c)
                p_effect(effect)
                p_in_game(in_game)
                p_legal(not failing)
                p_code(failing[0].code if failing else None)
        if pos != end_of_log:  # events the items did not account for
            return None
        if trick is not None:
            close(trick)
        return takes, draws, at

    def _walk(self, gid: int, g: Game) -> tuple[GameResult, int, int, dict[int, tuple[int, int | None, int]]]:
        """The plays and tricks of any game, from the replay's walk, step by step. Returns
        the result, the takes and draws counted, and where each finding was made: by the id
        of the diagnostic, its step, the seat whose act it is about and the players in then."""
        seats = g.seats
        n = len(seats)
        game_rows = _GameRows(self, gid, seats)
        player, name, close = game_rows.player, game_rows.name, game_rows.close
        p_game, p_step, p_trick, p_place, p_seat, p_player, p_card, p_effect, p_in_game, p_legal, p_code = \
            game_rows.appends

        walk = replay(g)
        out = 0  # seats that have got away so far
        at: dict[int, tuple[int, int | None, int]] = {}
        takes = draws = 0
        # the trick being played: [number, leader, lead card, cards, in_game, ended, by, picked up, mistakes]
        trick: list[Any] | None = None

        for step_no, step in enumerate(walk, 1):
            item = step.item
            in_game = n - out
            failing: list[Diagnostic] = []
            if step.diagnostics:  # the few steps with findings
                failing = [d for d in step.diagnostics if d.is_error]
                actor = _actor(item)
                for d in step.diagnostics:
                    at[id(d)] = (step_no, actor, in_game)
            if isinstance(item, Play):
                if trick is None or trick[0] != step.trick:
                    if trick is not None:
                        close(trick)
                    trick = [step.trick or 0, name(item.seat), item.card, 0, in_game, None, None, None, 0]
                trick[3] += 1
                if failing:
                    trick[8] += 1
                effect = None
                for ev in step.events:
                    if isinstance(ev, EV.Played):
                        effect = _EFFECT[ev.effect]
                    elif isinstance(ev, EV.TrickToWaste):
                        trick[5:8] = [_WASTE, name(ev.winner), None]
                    elif isinstance(ev, EV.PickedUp):
                        trick[5:8] = [_PICKUP, name(ev.seat), ev.cards]
                    elif isinstance(ev, EV.Penalty):
                        trick[5:8] = [_PENALTY, name(ev.seat), ev.cards]
                    elif type(ev) is EV.GotAway:
                        out += 1  # counted from the next step on
                p_game(gid)
                p_step(step_no)
                p_trick(step.trick or 0)
                p_place(trick[3])
                p_seat(item.seat)
                p_player(player(item.seat))
                p_card(item.card)
                p_effect(effect)
                p_in_game(in_game)
                p_legal(not failing)
                p_code(failing[0].code if failing else None)
            else:
                takes += isinstance(item, Take)
                draws += isinstance(item, Draw)
                for ev in step.events:
                    if isinstance(ev, EV.Penalty) and trick is not None:  # a trick penalised after the table played on
                        trick[5:8] = [_PENALTY, name(ev.seat), ev.cards]
                    elif type(ev) is EV.GotAway:
                        out += 1
        if trick is not None:
            close(trick)
        return walk.result, takes, draws, at

    def _rest(self, gid: int, g: Game, res: GameResult, takes: int, draws: int,
              at: dict[int, tuple[int, int | None, int]]) -> None:
        """The game's row, its seats' rows and its findings' rows."""
        seats = g.seats
        n = len(seats)

        def name(s: int | None) -> str | None:
            return seats[s] if s is not None and 0 <= s < n else None

        add_diag = self.rows["diagnostics"].append
        for d in res.diagnostics:
            step_of, seat, in_game_then = at.get(id(d), (None, None, None))
            add_diag((gid, step_of, d.trick, d.code, d.severity, seat, name(seat), in_game_then,
                      d.span.line if d.span is not None and d.span.line else None,
                      d.span.col if d.span is not None and d.span.line else None, d.message))

        # the deal's features, seat by seat
        hands: dict[int, tuple[int, ...] | None] = {}
        dealt: dict[int, int] = {}
        if isinstance(g.setup, Deal):
            for h in g.setup.hands:
                if 0 <= h.seat < n:
                    hands[h.seat] = h.cards
                    dealt[h.seat] = h.size
        ace = next((s for s, cs in hands.items() if cs is not None and C.ACE_OF_SPADES in cs), None)
        finished = res.finished and res.loser is not None
        place = {s: k + 1 for k, s in enumerate(res.out_order)}
        add_seat = self.rows["seats"].append
        for s in range(n):
            cs = hands.get(s)
            lengths: list[int | None] = [None] * 4
            if cs is not None:
                mask = C.distinct_mask(cs)
                if mask >= 0:  # a single pack: each suit's length a count of bits
                    lengths = [(mask & m).bit_count() for m in C.SUIT_MASK]
                else:
                    lengths = [0, 0, 0, 0]
                    for c in cs:
                        lengths[C.SUIT[c]] = (lengths[C.SUIT[c]] or 0) + 1
            known = [x for x in lengths if x is not None]
            add_seat((gid, s, seats[s], dealt.get(s), *lengths, max(known) if known else None,
                      min(known) if known else None, (ace == s) if cs is not None else None,
                      place.get(s), (res.loser == s) if finished else None))

        sev = _severity_counts(res.diagnostics)
        self.syntax_errors += len(g.errors)
        tags = [{"name": t.name, "value": t.value} for t in g.header if hasattr(t, "name")]
        self.rows["games"].append((
            gid, str(g.path), g.number, g.span.line or g.first_line, rules_spec(res.rules) if res.rules else None,
            bool(res.rules.donkey) if res.rules else None, n, list(seats), tags, g.tag("Date"), g.tag("Result"),
            name(res.loser) if finished else None, res.loser if finished else None,
            [seats[s] for s in res.out_order if 0 <= s < n], res.legs if finished and res.rules and res.rules.donkey else None,
            res.tricks, takes, draws, finished, res.judged, res.stopped, len(g.errors),
            sev.get("error", 0), sev.get("mistake", 0), sev.get("note", 0), name(ace)))


class _GameRows:
    """One game's rows of the columnar tables, added an item at a time (:meth:`Rows._from_marks`,
    :meth:`Rows._walk`): the game's seat names added to each table's names, a seat told as its
    place among them, the plays' column appends bound once (a batch is taken between games,
    never within one). An object, not closures: compiled, closures would make a cycle a game."""

    __slots__ = ("appends", "gid", "n", "play_base", "play_names", "trick_base", "tricks", "unnamed")

    def __init__(self, rows: Rows, gid: int, seats: Sequence[str]) -> None:
        self.gid = gid
        self.n = len(seats)
        plays, self.tricks = rows.cols["plays"], rows.cols["tricks"]
        self.play_names, trick_names = rows.names["plays"], rows.names["tricks"]
        self.play_base, self.trick_base = len(self.play_names), len(trick_names)
        self.play_names.extend(seats)
        trick_names.extend(seats)
        self.unnamed = -1  # the place of '?' among the plays' names: a seat the game lacks
        self.appends = tuple(plays[c].append for c in _PLAY_COLUMNS)

    def player(self, s: int) -> int:
        """Seat ``s`` as its place among the plays' names."""
        if 0 <= s < self.n:
            return self.play_base + s
        if self.unnamed < 0:
            self.unnamed = len(self.play_names)
            self.play_names.append("?")
        return self.unnamed

    def name(self, s: int | None) -> int | None:
        """Seat ``s`` as its place among the tricks' names (None: no seat of the game)."""
        return self.trick_base + s if s is not None and 0 <= s < self.n else None

    def close(self, t: list[Any]) -> None:
        """A trick's row: [number, leader, lead card, cards, in_game, ended, by, picked up, mistakes]."""
        tricks = self.tricks
        for col, v in zip(_TRICK_COLUMNS, (self.gid, *t)):
            tricks[col].append(v)


def _word(c: object) -> str | None:
    """A seat's class as the review's JSON writes it (safe, open, lost)."""
    return None if c is None else str(getattr(c, "value", c))


class _Writer:
    """The five tables of one export, written from the rows made here (one process) or
    from the record batches of the workers' slices."""

    def __init__(self, directory: Path, batch_rows: int, group_rows: int, review: bool = False):
        names = (*TABLES, REVIEWED) if review else TABLES
        self.t = {name: _Table(directory / f"{name}.parquet", SCHEMAS[name], group_rows) for name in names}
        self.batch_rows = batch_rows
        self.games = 0
        self.syntax_errors = 0

    def rows(self, rows: Rows) -> None:
        """Write the tables whose rows have gathered a batch (after each game)."""
        for name in rows.tables:
            if rows.pending(name) >= self.batch_rows:
                self.t[name].write(rows.take(name))

    def part(self, part: Part) -> None:
        """A worker's slice: its game ids (1 up in the slice) shifted past the games before."""
        games, syntax_errors, batches = part
        offset = self.games
        for name, batch in batches.items():
            if offset and batch.num_rows:
                ids = pc.add(batch.column(0), pa.scalar(offset, pa.int32()))
                batch = batch.set_column(0, batch.schema.field(0), ids)
            self.t[name].write(batch)
        self.games += games
        self.syntax_errors += syntax_errors

    def close(self, rows: Rows | None = None) -> Counts:
        if rows is not None:
            for name in rows.tables:
                self.t[name].write(rows.take(name))
            self.games += rows.next_id - 1
            self.syntax_errors += rows.syntax_errors
        for t in self.t.values():
            t.close()
        return Counts({name: t.rows for name, t in self.t.items()}, self.syntax_errors)  # verdicts too, if written


def games_of(files: list[Path]) -> Iterator[Game]:
    """The games of ``files``, one at a time; a file that cannot be read is a usage error."""
    for path in files:
        why = problem(path)
        if why is not None:
            raise UsageError(f"{path}: {why}")
        try:
            yield from read(path)
        except ReadError as e:
            raise UsageError(f"{e.path}: {e.message}") from None


def sources(files: list[Path]) -> list[dict[str, object]]:
    """What an export was made from, to know when it is out of date: each file's path, size
    and modification time."""
    out: list[dict[str, object]] = []
    for p in files:
        st = p.stat()
        out.append({"path": str(p.resolve()), "size": st.st_size, "mtime_ns": st.st_mtime_ns})
    return out


def is_export(directory: Path) -> bool:
    """Whether ``directory`` holds an export of ours (its manifest says so)."""
    try:
        manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(manifest, dict) and manifest.get("generator") == GENERATOR


def manifest_of(directory: Path) -> dict[str, Any] | None:
    try:
        m = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return m if isinstance(m, dict) and m.get("generator") == GENERATOR else None


Part = tuple[int, int, dict[str, pa.RecordBatch]]  # a slice's games, syntax errors, and tables


def export_range(piece: Slice) -> Part:
    """The tables of one slice of a file (a ``--jobs`` worker's task): its games read and
    judged as in one process, their ids 1 up within the slice (the writer shifts them)."""
    path, start, end, games, lines, chars, name = piece
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read(end - start)
    reader = Reader(name)
    rows = Rows(review=_review)
    for number, text, first_line, offset in chunks(io.BytesIO(data), name, number=games, line=lines,
                                                  offset=chars, byte_offset=start):
        if number == 0:
            reader.read_prelude(text, offset)
            continue
        rows.game(reader.parse_game(text, number, first_line, offset))
    return rows.next_id - 1, rows.syntax_errors, {t: rows.take(t) for t in rows.tables}


_review: Reviewer | None = None  # a worker's slices are reviewed too (export --review)


def _setup(review: Reviewer | None) -> None:
    """A worker's one setting (each slice builds its own referee)."""
    global _review
    _review = review
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])


def write_archive(files: list[Path], out: Path, *, batch_rows: int = BATCH_ROWS, group_rows: int = ROW_GROUP_ROWS,
                  jobs: int = 1, review: Reviewer | None = None,
                  progress: Callable[[int], object] | None = None) -> Counts:
    """Export the games of ``files`` into directory ``out`` (replacing an export of ours
    there; any other non-empty directory is refused): written in a directory beside it,
    moved into place when complete. ``jobs`` above 1: slices of the files are read and
    judged by that many worker processes, and their tables written here in input order.
    ``review``: the review of a game (``referee.review.review.review_game``, handed down by
    the command line, a layer above this one): the table of its verdicts too (slow: the
    solver and the samples)."""
    if out.exists() and not out.is_dir():
        raise UsageError(L.gettext("{folder} exists and is not a directory; give a directory for the tables").format(folder=out))
    if out.is_dir() and any(out.iterdir()) and not is_export(out):
        raise UsageError(L.gettext("{folder} is a directory that is not an export of getaway-ref; give a new or empty one").format(folder=out))
    parent = out.resolve().parent
    if not parent.is_dir():
        raise UsageError(L.gettext("cannot write {file}: its folder {parent} does not exist").format(file=out, parent=parent))
    made = sources(files)  # before reading: a file changed while it is read makes the export out of date
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".partial", dir=parent))
    except OSError as e:
        raise UsageError(cannot_write(out, e)) from None
    try:
        w = _Writer(tmp, batch_rows, max(group_rows, batch_rows), review is not None)
        rows = Rows(review=review)
        threshold = gc.get_threshold()
        gc.set_threshold(GC_THRESHOLD, *threshold[1:])
        try:
            if jobs > 1:
                _in_workers(files, w, jobs, review, progress)
            else:
                for g in games_of(files):
                    rows.game(g)
                    w.rows(rows)
                    if progress is not None:
                        progress(rows.next_id - 1)
        finally:
            gc.set_threshold(*threshold)
            counts = w.close(rows)
        manifest = {"generator": GENERATOR, "schema_version": ARCHIVE_SCHEMA_VERSION,
                    "version": referee.__version__, "sources": made, "rows": counts.rows}
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        _move_into_place(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return counts


def _in_workers(files: list[Path], w: _Writer, jobs: int, review: Reviewer | None,
                progress: Callable[[int], object] | None) -> None:
    """``--jobs N``: the files cut into slices (as ``check --jobs N`` cuts them), each slice's
    tables made by a worker process, and written here in input order."""
    runner = PoolRunner(jobs, _setup, (review,))

    def work() -> Iterator[Slice]:
        for path in files:
            why = problem(path)
            if why is not None:
                raise UsageError(f"{path}: {why}")
            yield from slices(str(path), None, str(path), runner.slice_bytes(path.stat().st_size))

    completed = False
    try:
        for part in runner.map(export_range, work()):
            w.part(part)
            if progress is not None:
                progress(w.games)
        completed = True
    except ReadError as e:
        raise UsageError(f"{e.path}: {e.message}") from None
    except WorkerFailed as e:
        raise UsageError(L.gettext("{why}; the export was not finished").format(why=e)) from None
    finally:
        runner.close(abort=not completed)


def _move_into_place(tmp: Path, out: Path) -> None:
    """The complete export takes the name ``out``; an export of ours already there is set
    aside first and removed once the new one is in place."""
    old: Path | None = None
    if out.exists():
        old = out.with_name(f".{out.name}.{os.getpid()}.old")
        os.rename(out, old)
    try:
        os.rename(tmp, out)
    except OSError:
        if old is not None:
            os.rename(old, out)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def export_parquet_command(paths: list[Path], output: Path | None, jobs: str = "1",
                           review: Reviewer | None = None) -> int:
    """``getaway-ref export --format parquet``: exit 1 if a record has syntax errors (its
    games are exported as far as they read), 2 for usage or I/O problems. ``jobs``: --jobs'
    value, a number of processes or 'auto' (as check chooses)."""
    from_ = ", ".join(map(str, paths))
    if output is None:
        raise UsageError(L.gettext("{option} writes a directory of tables: name it with {output}").format(option="--format parquet", output="-o DIR"))
    files = expand(paths)
    if not files:
        raise UsageError(no_records(paths))
    try:
        processes = choose_jobs(sum(p.stat().st_size for p in files if p.is_file()), jobs)
    except ValueError as e:
        raise UsageError(str(e)) from None
    try:
        counts = write_archive(files, output, jobs=processes, review=review)
    except OSError as e:
        raise UsageError(cannot_write(output, e)) from None
    rows = counts.rows
    print((L.gettext("wrote {folder}: {games}, {seats}, {tricks}, {plays}, {diagnostics}, {verdicts}") if review is not None
           else L.gettext("wrote {folder}: {games}, {seats}, {tricks}, {plays}, {diagnostics}")).format(
        folder=output, games=L.ngettext("{n} game", "{n} games", rows["games"]).format(n=rows["games"]),
        seats=L.ngettext("{n} seat", "{n} seats", rows["seats"]).format(n=rows["seats"]),
        tricks=L.ngettext("{n} trick", "{n} tricks", rows["tricks"]).format(n=rows["tricks"]),
        plays=L.ngettext("{n} play", "{n} plays", rows["plays"]).format(n=rows["plays"]),
        diagnostics=L.ngettext("{n} diagnostic", "{n} diagnostics", rows["diagnostics"]).format(n=rows["diagnostics"]),
        verdicts=L.ngettext("{n} verdict", "{n} verdicts", rows.get(REVIEWED, 0)).format(n=rows.get(REVIEWED, 0))))
    if counts.syntax_errors:
        sys.stderr.write(has_syntax_errors(from_, counts.syntax_errors) + "\n")
        return 1
    return 0

