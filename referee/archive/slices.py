"""The work of ``check``: a file cut into slices, and a slice read and judged game by game.

The same functions run in this process (``--jobs 1``), in the ``--jobs N`` worker processes
(``workers.py``) and on Dask workers (``dask.py``). Each process keeps one Referee, built by
``init``; what comes back of a game is a small ``GameOutcome``, cheap to send between
processes, and the slices come back in input order whoever judged them.
"""

from __future__ import annotations

import gc
import io
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields
from operator import attrgetter
from time import perf_counter
from typing import NamedTuple, Protocol

from referee.engine import language as L
from referee.engine.rules import RuleSet
from referee.judging.referee import GameResult, Referee
from referee.notation.reader import RANGE_BYTES, Reader, chunks, quote_first_line
from referee.notation.seek import ranges
from referee.reports.diagnostics import Diagnostic


@dataclass(slots=True)
class GameOutcome:
    """What the report needs of a judged game: small, and cheap to send between processes."""

    number: int
    line: int
    seats: tuple[str, ...]
    rules: str | None
    judged: bool
    stopped: str | None
    tricks: int
    plays: int
    out_order: list[int]
    loser: int | None
    legs: int | None
    finished: bool
    sizes: list[int]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    seconds: float = 0.0  # reading and judging it, where it was judged (JUnit's time)

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.is_error)

    def __reduce__(self) -> tuple[type[GameOutcome], tuple[object, ...]]:
        # Sent back from a worker as the constructor's arguments: half the pickling and
        # unpickling time of a slotted class's default (its state as a dict). The main process
        # unpickles every worker's outcomes, so this sets how many workers it can keep up with.
        return GameOutcome, _outcome_fields(self)

    @classmethod
    def of(cls, r: GameResult) -> GameOutcome:
        """The outcome of a judged game, without its record and engine."""
        game = r.game
        return cls(
            number=game.number, line=game.span.line or game.first_line, seats=game.seats,
            rules=rules_spec(r.rules) if r.rules else None, judged=r.judged, stopped=r.stopped, tricks=r.tricks,
            plays=game.plays, out_order=r.out_order, loser=r.loser, legs=r.legs, finished=r.finished,
            sizes=r.sizes, diagnostics=r.diagnostics,
        )


# Every field of an outcome, in the constructor's order (one C call: GameOutcome.__reduce__).
_outcome_fields: Callable[[GameOutcome], tuple[object, ...]] = attrgetter(*(f.name for f in fields(GameOutcome)))


# The spec of each rule set met (an archive names one or two, game after game), kept with
# the rule set itself so that its id stays its own: spec() walks every option, a few µs a game.
_SPECS: dict[int, tuple[RuleSet, str]] = {}


def rules_spec(rules: RuleSet) -> str:
    """The rule set's spec, worked out once per rule set met (the export asks it too)."""
    got = _SPECS.get(id(rules))
    if got is None or got[0] is not rules:
        if len(_SPECS) >= 64:
            _SPECS.clear()
        got = _SPECS[id(rules)] = (rules, rules.spec())
    return got[1]


class Slice(NamedTuple):
    """A slice of a file for judge_range: its first and last byte (it starts at a %game line,
    or at the file's start), the games, lines and characters before it, and the name the
    report gives the file (standard input: "<stdin>")."""

    path: str
    start: int
    end: int
    games: int
    lines: int
    chars: int
    name: str


Judged = tuple[list[Diagnostic], list[GameOutcome]]  # a slice's prelude diagnostics and games


class WorkerFailed(Exception):
    """A worker died (killed by the system, out of memory) or crashed: the run cannot be
    trusted, and ends with exit 2. Its message is a sentence of the catalogue; the
    exception's own words, if any, after ours."""


def worker_died() -> WorkerFailed:
    """A worker process gone without a word (the pool is broken): said alike wherever it is seen."""
    return WorkerFailed(L.gettext("a worker process died (killed by the system, or out of memory?)"))


def worker_crashed(e: BaseException) -> WorkerFailed:
    """A crash inside a worker (a bug): our sentence, the exception's name and words after it."""
    return WorkerFailed(L.gettext("a worker failed: {why}").format(why=f"{type(e).__name__}: {e}"))


class Runner(Protocol):
    """Judges the slices it is given and yields their results in input order."""

    def __call__(self, work: Iterable[Slice]) -> Iterator[Judged]: ...
    def close(self, abort: bool = False) -> bool: ...  # False: a thread of it could not be ended
    def slice_bytes(self, file_bytes: int) -> int: ...


# ---- the referee of this process ----------------------------------------------------------------

_referee: Referee | None = None  # the Referee of this process (of each --jobs worker)
_settings: tuple[RuleSet | None, tuple[tuple[str, object], ...], bool] | None = None
_judging = threading.Lock()


def init(default: RuleSet | None, overrides: dict[str, object], force: bool) -> None:
    """Build this process's referee (the --jobs workers' initializer; a Dask worker's first
    slice)."""
    global _referee
    _referee = Referee(default, overrides, force)
    # Everything imported and built so far (the grammar, the tables, the referee) lives as long
    # as the process: kept out of the cycle collector's full passes, which otherwise walk it
    # again and again while an archive is judged (4 % of a compiled check). In the main
    # process this comes before --jobs forks its workers, as the gc module advises.
    gc.freeze()


def judge_range(piece: Slice) -> Judged:
    """Read one slice of a file, judge its games, and return the prelude's diagnostics
    (first slice only) and the outcomes."""
    path, start, end, games, lines, chars, name = piece
    assert _referee is not None, "init runs first, in this process or in the worker's initializer"
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read(end - start)
    reader = Reader(name)
    prelude: list[Diagnostic] = []
    out: list[GameOutcome] = []
    for number, text, first_line, offset in chunks(io.BytesIO(data), name, number=games, line=lines,
                                                  offset=chars, byte_offset=start):
        if number == 0:
            reader.read_prelude(text, offset)
            prelude.extend(reader.prelude.errors)
            continue
        if first_line == 1:
            quote_first_line(prelude, text)
        began = perf_counter()
        outcome = GameOutcome.of(_referee.judge(reader.parse_game(text, number, first_line, offset)))
        outcome.seconds = perf_counter() - began
        out.append(outcome)
    return prelude, out


def judge_range_with(fields: list[str | int], default: RuleSet | None, overrides: dict[str, object],
                     force: bool, lang: str = L.ENGLISH) -> Judged:
    """judge_range for a worker that was not started by us (Dask): the referee is built on
    first use and kept for the next slices with the same rules. The slice comes as a list
    (a tuple would be read by Dask as a task), with the language of the run's sentences
    (``--lang``: a Dask worker has neither our command line nor our environment)."""
    with L.speaking(lang):
        return _judge_range_with(fields, default, overrides, force)


def _judge_range_with(fields: list[str | int], default: RuleSet | None, overrides: dict[str, object],
                      force: bool) -> Judged:
    global _settings
    key = (default, tuple(sorted(overrides.items())), force)
    # A Dask worker runs tasks in threads, and the reader keeps its state in one place per
    # process: one slice at a time (the GIL would allow no more anyway).
    with _judging:
        if _referee is None or _settings != key:
            init(default, overrides, force)
            _settings = key
        path, start, end, games, lines, chars, name = fields
        return judge_range(Slice(str(path), int(start), int(end), int(games), int(lines), int(chars), str(name)))


def slices(path: str, on_read: Callable[[int], object] | None = None, name: str | None = None,
           size: int = RANGE_BYTES) -> Iterator[Slice]:
    """The slices of a file, of about ``size`` bytes (the runner's choice), as arguments for
    judge_range; ``on_read`` hears the bytes cut."""
    size = int(os.environ.get("GETAWAY_RANGE_BYTES", size))  # tests cut small files finely
    for start, end, games, lines, chars in ranges(path, size):
        if on_read is not None:
            on_read(end)
        yield Slice(path, start, end, games, lines, chars, name or path)


class InProcess:
    """--jobs 1: the slices judged here, one after the other."""

    def __call__(self, work: Iterable[Slice]) -> Iterator[Judged]:
        return map(judge_range, work)

    def close(self, abort: bool = False) -> bool:
        return True

    def slice_bytes(self, file_bytes: int) -> int:
        return RANGE_BYTES
