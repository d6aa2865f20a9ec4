"""``getaway-ref puzzles``: the body of the command (cli.py reads the arguments and calls
:func:`puzzles_command`). An archive's games are cut into slices at their ``%game`` lines
(check's slices) and searched in this process or in ``--jobs`` worker processes (check's
pool); the puzzles found (:mod:`referee.review.puzzles`, each already verified) are told
apart by their position, numbered in the archive's order and written to a directory: one
record a puzzle, the whole deck as one record, and an index in JSON."""

from __future__ import annotations

import io
import json
import os
import shlex
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from referee.archive.inputs import holds_no_game
from referee.archive.jobs import available_cores, parse_jobs
from referee.archive.slices import Slice, WorkerFailed
from referee.archive.workers import PoolRunner
from referee.commands import UsageError, rules_options
from referee.commands.options import cannot_write
from referee.engine import language as L
from referee.engine.rules import RuleSet
from referee.files import WriteError, recover, replacing, write_text
from referee.notation.reader import VERSION, Reader, ReadError, chunks
from referee.notation.seek import find_game, ranges
from referee.review.puzzles import Found, dumps, found, game_puzzles
from referee.review.review import WINDOW
from referee.table.page import GENERATOR as PAGE_GENERATOR

GENERATOR = "getaway-ref puzzles"
INDEX = "index.json"
DECK = "deck.gwy"
SLICE_BYTES = 64 * 1024  # some fifty games a slice: a game's search takes milliseconds

# What every game of the run is searched with: rules, the seat of a "my mistakes" deck,
# the window (a worker's initializer sets it in each worker process).
Settings = tuple[RuleSet | None, str | None, int]
_settings: Settings = (None, None, WINDOW)


def _init(base: RuleSet | None, seat: str | None, window: int) -> None:
    global _settings
    _settings = (base, seat, window)


# A slice's yield: the games read, the puzzles found (verified), the games not read (their
# numbers: syntax errors), the puzzles not kept counted by why, and the name of the deck's
# seat as a game of the slice spells it (None: no game of the slice has it).
SliceResult = tuple[int, list[Found], list[int], dict[str, int], str | None]


def puzzles_slice(piece: Slice, settings: Settings | None = None) -> SliceResult:
    """The puzzles of one slice of an archive, each written and verified."""
    base, seat, window = settings or _settings
    path, start, end, games, lines, chars, name = piece
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read(end - start)
    reader = Reader(name)
    read = 0
    out: list[Found] = []
    skipped: list[int] = []
    dropped: Counter[str] = Counter()
    spelled: str | None = None
    source = os.path.basename(name)
    for number, text, first_line, offset in chunks(io.BytesIO(data), name, number=games, line=lines,
                                                  offset=chars, byte_offset=start):
        if number == 0:
            reader.read_prelude(text, offset)
            continue
        g = reader.parse_game(text, number, first_line, offset)
        if g.errors:
            skipped.append(g.number)
            continue
        read += 1
        if seat is not None and spelled is None:
            spelled = next((n for n in g.seats if n.lower() == seat.lower()), None)
        for p in game_puzzles(g, base, seat_name=seat, window=window):
            f2 = found(p, f"{source}, game {p.game}, line {p.line}")
            if isinstance(f2, str):
                dropped[f2] += 1
            else:
                out.append(f2)
    return read, out, skipped, dict(dropped), spelled


def _searched(file: Path, jobs: int) -> Iterator[SliceResult]:
    cut = (Slice(str(file), *r, str(file)) for r in ranges(str(file), SLICE_BYTES))
    if jobs <= 1:
        for piece in cut:
            yield puzzles_slice(piece)
        return
    try:
        runner = PoolRunner(jobs, _init, _settings)
    except WorkerFailed as e:
        raise UsageError(str(e)) from None
    done = False
    try:
        yield from runner.map(puzzles_slice, cut)
        done = True
    except WorkerFailed as e:
        raise UsageError(f"{file}: {e}") from None
    finally:
        runner.close(abort=not done)


def _first_problem(file: Path) -> str | None:
    """Why ``file`` is no archive (one line, at the line and column where it applies), or None."""
    try:
        head = find_game(str(file), 1)
    except ReadError as e:
        return f"{e.path}: {e.message}"
    if head.game is not None:
        return None
    pre = head.prelude
    if pre is not None and pre.errors:
        d = pre.errors[0]
        at = f":{d.span.line}:{d.span.col}" if d.span else ""
        return f"{file}{at}: {d.message}"
    return holds_no_game(file)


def _old_files(out: Path) -> list[str]:
    """The files a deck of ours in ``out`` wrote (to be replaced); UsageError if ``out`` holds
    anything else (nothing the user wrote is overwritten)."""
    if not out.exists():
        return []
    if not out.is_dir():
        raise UsageError(L.gettext("{folder} is not a directory; give a new or empty directory with -o").format(folder=out))
    names = os.listdir(out)
    if not names:
        return []
    try:
        doc = json.loads((out / INDEX).read_text(encoding="utf-8"))
        ours = doc.get("generator") == GENERATOR
        files = [str(p["file"]) for p in doc.get("puzzles", [])] + [DECK, INDEX]
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        ours, files = False, []
    if not ours or any(n not in files and not _page_of_ours(out / n) for n in names):
        raise UsageError(L.gettext("{folder} holds files that are not a deck of getaway-ref puzzles; give a new or "
                                   "empty directory with -o").format(folder=out))
    return files


def _page_of_ours(path: Path) -> bool:
    """A replay page ``html`` made of a puzzle of the deck (kept, and no reason to refuse)."""
    if path.suffix != ".html":
        return False
    try:
        with open(path, "rb") as f:
            return PAGE_GENERATOR.encode("utf-8") in f.read(4096)
    except OSError:
        return False


def puzzles_command(archive: Path, output: Path, seat: str | None = None, rules: str | None = None,
                    jobs: str = "1", window: int = WINDOW) -> int:
    """Find the puzzles of ``archive``'s games and write them to the directory ``output``:
    exit 0, 1 if a game could not be read (the others are searched), 2 for a usage problem
    or an archive that cannot be read at all. ``seat``: the "my mistakes" deck of that seat."""
    if window < 0:
        raise UsageError(L.gettext("--window is 0 or more"))
    try:
        wanted = parse_jobs(jobs)
    except ValueError as e:
        raise UsageError(str(e)) from None
    workers = wanted if wanted is not None else available_cores()
    default, overrides = rules_options(rules, None, [])
    base: RuleSet | None = default.with_options(**overrides) if default is not None and overrides else default
    recover([archive])  # a rewrite of it cut short by a kill: put back before it is read
    problem = _first_problem(archive)
    if problem is not None:
        raise UsageError(problem)
    old = _old_files(output)
    made_dir = not output.exists()
    _init(base, seat, window)
    games = again = 0
    keys: set[str] = set()
    entries: list[dict[str, object]] = []
    skipped: list[int] = []
    dropped: Counter[str] = Counter()
    spelled: str | None = None
    made = f"# made by {GENERATOR} {shlex.quote(archive.name)}" + (f" --seat {shlex.quote(seat)}" if seat else "")
    prelude = f"%gwy {VERSION}\n{made}\n"
    try:
        output.mkdir(parents=True, exist_ok=True)
        # Each puzzle written as it comes (in the archive's order), the deck streamed: a large
        # archive's deck is never held whole. The deck replaces the old one only at the end.
        with replacing(output / DECK, inputs=[archive]) as deck:
            deck.write(prelude)
            for read, got, skip, drop, name in _searched(archive, workers):
                games += read
                skipped += skip
                dropped.update(drop)
                spelled = spelled or name
                for f in got:
                    if f.key in keys:
                        again += 1
                        continue
                    keys.add(f.key)
                    file = f"puzzle-{len(entries) + 1:04d}.gwy"
                    write_text(output / file, prelude + "\n" + f.text, inputs=[archive])
                    deck.write("\n" + f.text)
                    entries.append({"number": len(entries) + 1, "file": file, **f.entry})
            if not games:
                raise UsageError(L.gettext("{file}: no game could be read: game {number} has syntax errors "
                                           "(run getaway-ref check)").format(file=archive, number=skipped[0])
                                 if skipped else L.gettext("{file}: holds no game").format(file=archive))
            if seat is not None and spelled is None:
                raise UsageError(L.gettext("no game of {file} has a seat called {seat}").format(file=archive, seat=seat))
        doc: dict[str, object] = {
            "generator": GENERATOR, "archive": archive.name, "deck": "mistakes" if seat else "unique",
            "seat": spelled, "window": window, "games": games, "found": len(entries) + again, "same_position": again,
            "not_verified": dict(dropped), "not_read": skipped, "puzzles": entries,
        }
        write_text(output / INDEX, dumps(doc), inputs=[archive])
    except ReadError as e:
        raise UsageError(f"{e.path}: {e.message}") from None
    except WriteError as ex:
        raise UsageError(str(ex)) from None
    except OSError as ex:
        raise UsageError(cannot_write(output, ex)) from None
    finally:
        if made_dir and not entries:
            try:
                output.rmdir()  # a directory this run made and left empty
            except OSError:
                pass
    for name in old:
        if name not in (DECK, INDEX) and not any(e["file"] == name for e in entries):
            try:
                (output / name).unlink()
            except OSError:
                pass
    n = len(entries)
    what = (L.ngettext("{n} puzzle from {seat}'s blunders", "{n} puzzles from {seat}'s blunders", n).format(n=n, seat=spelled)
            if seat else L.ngettext("{n} puzzle", "{n} puzzles", n).format(n=n))
    searched = L.ngettext("{n} game searched", "{n} games searched", games).format(n=games)
    kept = sum(dropped.values())
    print(L.gettext("wrote {puzzles} to {folder} ({searched}").format(puzzles=what, folder=output, searched=searched)
          + (L.gettext("; {n} found again at the same position").format(n=again) if again else "")
          + (L.gettext("; {n} not kept, failing their check").format(n=kept) if dropped else "") + ")")
    for number in skipped:
        print(L.gettext("not searched: game {number}: syntax errors (run getaway-ref check)").format(number=number))
    return 1 if skipped else 0
