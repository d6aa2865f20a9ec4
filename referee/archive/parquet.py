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
tables say what ``check`` and ``tally`` say. Memory stays flat: each table has its own
``ParquetWriter`` fed record batches of :data:`BATCH_ROWS` rows, and a game is dropped once
its rows are in the buffers. The directory is written beside the target and moved into place
when complete, so an interrupted export leaves the previous one (or nothing) as it was.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

import referee
from referee.archive.inputs import expand, problem
from referee.commands import UsageError
from referee.engine import cards as C
from referee.engine import events as EV
from referee.judging.replay import replay
from referee.notation.reader import ReadError, read
from referee.notation.record import Deal, Draw, Game, Play, Take
from referee.reports.diagnostics import Diagnostic

ARCHIVE_SCHEMA_VERSION = 1
MANIFEST = "archive.json"
GENERATOR = "getaway-ref export --format parquet"
BATCH_ROWS = 10_000  # rows a table buffers before it writes a record batch (a row group)
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
}

_SUITS = ("spades", "hearts", "diamonds", "clubs")


@dataclass
class Counts:
    """Rows written per table, and the games' syntax errors (the exit code)."""

    rows: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TABLES, 0))
    syntax_errors: int = 0


class _Table:
    """One table's ParquetWriter and its rows (tuples in the schema's order), written out as a
    record batch once BATCH_ROWS have gathered (checked after each game: a batch may hold
    one game's rows more)."""

    def __init__(self, path: Path, schema: pa.Schema, batch_rows: int):
        self.schema = schema
        self.buf: list[tuple[Any, ...]] = []
        self.writer = pq.ParquetWriter(str(path), schema, compression="zstd")
        self.batch_rows = batch_rows
        self.rows = 0

    def add(self, *row: Any) -> None:
        self.buf.append(row)

    def due(self) -> None:
        if len(self.buf) >= self.batch_rows:
            self.flush()

    def flush(self) -> None:
        n = len(self.buf)
        if not n:
            return
        # the rows turned into columns in one step (zip in C), each column one Arrow array
        columns = list(zip(*self.buf))
        arrays = [pa.array(col, type=f.type) for col, f in zip(columns, self.schema)]
        self.writer.write_batch(pa.RecordBatch.from_arrays(arrays, schema=self.schema))
        self.rows += n
        self.buf.clear()  # in place: the game loop holds its append

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


class _Writer:
    """The five tables of one export, filled game by game."""

    def __init__(self, directory: Path, batch_rows: int):
        self.t = {name: _Table(directory / f"{name}.parquet", SCHEMAS[name], batch_rows) for name in TABLES}
        self.game_id = 0
        self.syntax_errors = 0

    def close(self) -> Counts:
        for t in self.t.values():
            t.close()
        return Counts({name: t.rows for name, t in self.t.items()}, self.syntax_errors)

    def game(self, g: Game) -> None:
        self.game_id += 1
        gid = self.game_id
        seats = g.seats
        n = len(seats)

        def name(s: int | None) -> str | None:
            return seats[s] if s is not None and 0 <= s < n else None

        tricks, diags = self.t["tricks"], self.t["diagnostics"]
        add_play = self.t["plays"].buf.append
        walk = replay(g)
        out = 0  # seats that have got away so far
        at: dict[int, tuple[int, int | None, int]] = {}  # id(diagnostic) -> (step, seat, in_game)
        takes = draws = 0
        # the trick being played: [number, leader, lead card, cards, in_game, ended, by, picked up, mistakes]
        trick: list[Any] | None = None

        def close_trick() -> None:
            if trick is not None:
                tricks.add(gid, *trick)

        for step_no, step in enumerate(walk, 1):
            item = step.item
            in_game = n - out
            failing = [d for d in step.diagnostics if d.is_error]
            actor = _actor(item)
            for d in step.diagnostics:
                at[id(d)] = (step_no, actor, in_game)
            if isinstance(item, Play):
                if trick is None or trick[0] != step.trick:
                    close_trick()
                    trick = [step.trick or 0, name(item.seat), C.card_str(item.card), 0, in_game, None, None, None, 0]
                trick[3] += 1
                if failing:
                    trick[8] += 1
                effect = None
                for ev in step.events:
                    if isinstance(ev, EV.Played):
                        effect = ev.effect.value
                    elif isinstance(ev, EV.TrickToWaste):
                        trick[5:8] = ["waste", name(ev.winner), None]
                    elif isinstance(ev, EV.PickedUp):
                        trick[5:8] = ["pickup", name(ev.seat), ev.cards]
                    elif isinstance(ev, EV.Penalty):
                        trick[5:8] = ["penalty", name(ev.seat), ev.cards]
                c = item.card
                add_play((gid, step_no, step.trick or 0, trick[3], item.seat, name(item.seat) or "?", C.card_str(c),
                          C.SUIT_SYMBOLS[C.SUIT[c]], C.RANK_NAMES[C.RANK[c]], effect, in_game, not failing,
                          failing[0].code if failing else None))
            else:
                takes += isinstance(item, Take)
                draws += isinstance(item, Draw)
                for ev in step.events:
                    if isinstance(ev, EV.Penalty) and trick is not None:  # a trick penalised after the table played on
                        trick[5:8] = ["penalty", name(ev.seat), ev.cards]
            out += sum(1 for ev in step.events if isinstance(ev, EV.GotAway))
        close_trick()
        res = walk.result

        for d in res.diagnostics:
            step_of, seat, in_game_then = at.get(id(d), (None, None, None))
            diags.add(gid, step_of, d.trick, d.code, d.severity, seat, name(seat), in_game_then,
                      d.span.line if d.span is not None and d.span.line else None,
                      d.span.col if d.span is not None and d.span.line else None, d.message)

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
        for s in range(n):
            cs = hands.get(s)
            lengths: list[int | None] = [None] * 4
            if cs is not None:
                lengths = [0, 0, 0, 0]
                for c in cs:
                    lengths[C.SUIT[c]] = (lengths[C.SUIT[c]] or 0) + 1
            known = [x for x in lengths if x is not None]
            self.t["seats"].add(gid, s, seats[s], dealt.get(s), *lengths, max(known) if known else None,
                                min(known) if known else None, (ace == s) if cs is not None else None,
                                place.get(s), (res.loser == s) if finished else None)

        sev = _severity_counts(res.diagnostics)
        self.syntax_errors += len(g.errors)
        tags = [{"name": t.name, "value": t.value} for t in g.header if hasattr(t, "name")]
        self.t["games"].add(
            gid, str(g.path), g.number, g.span.line or g.first_line, res.rules.spec() if res.rules else None,
            bool(res.rules.trumps) if res.rules else None, n, list(seats), tags, g.tag("Date"), g.tag("Result"),
            name(res.loser) if finished else None, res.loser if finished else None,
            [seats[s] for s in res.out_order if 0 <= s < n], res.legs if finished and res.rules and res.rules.trumps else None,
            res.tricks, takes, draws, finished, res.judged, res.stopped, len(g.errors),
            sev.get("error", 0), sev.get("mistake", 0), sev.get("note", 0), name(ace))
        for t in self.t.values():
            t.due()


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


def write_archive(files: list[Path], out: Path, *, batch_rows: int = BATCH_ROWS,
                  progress: Callable[[int], object] | None = None) -> Counts:
    """Export the games of ``files`` into directory ``out`` (replacing an export of ours
    there; any other non-empty directory is refused): written in a directory beside it,
    moved into place when complete."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out} exists and is not a directory; give a directory for the tables")
    if out.is_dir() and any(out.iterdir()) and not is_export(out):
        raise UsageError(f"{out} is a directory that is not an export of getaway-ref; give a new or empty one")
    parent = out.resolve().parent
    if not parent.is_dir():
        raise UsageError(f"cannot write {out}: its folder {parent} does not exist")
    made = sources(files)  # before reading: a file changed while it is read makes the export out of date
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".partial", dir=parent))
    except OSError as e:
        raise UsageError(f"cannot write {out}: {e.strerror or e}") from None
    try:
        w = _Writer(tmp, batch_rows)
        try:
            for g in games_of(files):
                w.game(g)
                if progress is not None:
                    progress(w.game_id)
        finally:
            counts = w.close()
        manifest = {"generator": GENERATOR, "schema_version": ARCHIVE_SCHEMA_VERSION,
                    "version": referee.__version__, "sources": made, "rows": counts.rows}
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        _move_into_place(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return counts


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


def export_parquet_command(paths: list[Path], output: Path | None) -> int:
    """``getaway-ref export --format parquet``: exit 1 if a record has syntax errors (its
    games are exported as far as they read), 2 for usage or I/O problems."""
    from_ = ", ".join(map(str, paths))
    if output is None:
        raise UsageError("--format parquet writes a directory of tables: name it with -o DIR")
    files = expand(paths)
    if not files:
        raise UsageError(f"no .gwy records found in {from_}")
    try:
        counts = write_archive(files, output)
    except OSError as e:
        raise UsageError(f"cannot write {output}: {e.strerror or e}") from None
    rows = counts.rows
    print(f"wrote {output}: {rows['games']} games, {rows['seats']} seats, {rows['tricks']} tricks, "
          f"{rows['plays']} plays, {rows['diagnostics']} diagnostics")
    if counts.syntax_errors:
        sys.stderr.write(f"{from_}: {counts.syntax_errors} syntax error(s); run getaway-ref check {from_}\n")
        return 1
    return 0

