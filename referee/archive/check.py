"""``getaway-ref check``: read files game by game, judge each game, render the report.

Files are streamed: a game is read, judged, reported and dropped, so memory stays flat
whatever the file's size. With ``--jobs N`` batches of games go to N worker processes and
come back in input order.
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, NamedTuple, Protocol, Sequence

from referee.engine.rules import RuleSet
from referee.reports.diagnostics import Diagnostic
from referee.reports.sink import GameOutcome as Outcome, Sink, Totals

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID

    from referee.judging.referee import GameResult, Referee
    from referee.reports.select import Policy


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

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.is_error)

    @classmethod
    def of(cls, r: GameResult) -> GameOutcome:
        """The outcome of a judge.GameResult, without its record and engine."""
        game = r.game
        return cls(
            number=game.number, line=game.span.line or game.first_line, seats=game.seats,
            rules=r.rules.spec() if r.rules else None, judged=r.judged, stopped=r.stopped, tricks=r.tricks,
            plays=game.plays, out_order=r.out_order, loser=r.loser, legs=r.legs, finished=r.finished,
            sizes=r.sizes, diagnostics=r.diagnostics,
        )


# ---- the work: judge a batch of game texts -----------------------------------------------------

_referee: Referee | None = None  # the Referee of this process (of each --jobs worker)


def _init(default: RuleSet | None, overrides: dict[str, object], force: bool) -> None:
    global _referee
    from referee.judging.referee import Referee

    _referee = Referee(default, overrides, force)


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


def judge_range(piece: Slice) -> Judged:
    """Read one slice of a file, judge its games, and return the prelude's diagnostics
    (first slice only) and the outcomes."""
    import io

    from referee.notation.reader import Reader, chunks, quote_first_line

    path, start, end, games, lines, chars, name = piece
    assert _referee is not None, "_init runs first, in this process or in the worker's initializer"
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
        game = reader.parse_game(text, number, first_line, offset)
        out.append(GameOutcome.of(_referee.judge(game)))
    return prelude, out


def judge_range_with(fields: list[object], default: RuleSet | None, overrides: dict[str, object],
                     force: bool) -> Judged:
    """judge_range for a worker that was not started by us (Dask): the referee is built on
    first use and kept for the next slices with the same rules. The slice comes as a list
    (a tuple would be read by Dask as a task)."""
    global _settings
    key = (default, tuple(sorted(overrides.items())), force)
    # A Dask worker runs tasks in threads, and the reader keeps its state in one place per
    # process: one slice at a time (the GIL would allow no more anyway).
    with _judging:
        if _referee is None or _settings != key:
            _init(default, overrides, force)
            _settings = key
        return judge_range(Slice._make(fields))


_settings: tuple[RuleSet | None, tuple[tuple[str, object], ...], bool] | None = None
_judging = threading.Lock()


def _work(path: str, on_read: Callable[[int], object] | None = None,
          name: str | None = None) -> Iterator[Slice]:
    """The slices of a file, as arguments for judge_range; ``on_read`` hears the bytes cut."""
    import os

    from referee.notation.reader import RANGE_BYTES
    from referee.notation.seek import ranges

    size = int(os.environ.get("GETAWAY_RANGE_BYTES", RANGE_BYTES))  # tests cut small files finely
    for start, end, games, lines, chars in ranges(path, size):
        if on_read is not None:
            on_read(end)
        yield Slice(path, start, end, games, lines, chars, name or path)


# ---- running and rendering ----------------------------------------------------------------------------


class WorkerFailed(Exception):
    """A worker died (killed by the system, out of memory) or crashed: the run cannot be
    trusted, and ends with exit 2."""


class Runner(Protocol):
    """Judges the slices it is given and yields their results in input order."""

    def __call__(self, work: Iterable[Slice]) -> Iterator[Judged]: ...
    def close(self, abort: bool = False) -> None: ...


def run_check(files: list[Path], fmt: str, default: RuleSet | None, overrides: dict[str, object], force: bool,
              quiet: bool, jobs: int, dask: str | None = None, names: dict[Path, str] | None = None,
              policy: Policy | None = None, statistics: bool = False) -> int:
    from referee.notation.reader import ReadError
    from referee.reports.formats import make_sink
    from referee.reports.select import NOTE, Policy

    from referee.archive.inputs import problem as refuse

    _init(default, overrides, force)
    try:
        runner = _runner(jobs, dask, default, overrides, force)
    except WorkerFailed as e:
        _say_error(str(e))
        return 2
    policy = policy or Policy()  # --select/--ignore/--exit-zero: what is reported and what fails
    sink: Sink = _TextSink(quiet) if fmt == "text" else _JsonSink() if fmt == "json" else make_sink(fmt)
    totals: Totals = {"games": 0, "plays": 0, "errors": 0, "warnings": 0, "files": 0, "unreadable": 0}
    progress = _progress(files)
    done = 0
    failed: str | None = None
    completed = False
    try:
        for path in files:
            name = (names or {}).get(path, str(path))
            totals["files"] += 1
            sink.start_file(name)
            prelude: list[Diagnostic] = []
            problem = refuse(path)
            try:
                if problem is not None:
                    raise ReadError(name, problem)
                on_read: Callable[[int], object] | None = None
                if progress is not None:
                    bar, task = progress

                    def on_read(pos: int, base: int = done) -> None:
                        bar.update(task, completed=base + pos)
                work = _work(str(path), on_read, name)
                for pre, games in runner(work):
                    pre = policy.keep(pre)
                    if pre:
                        prelude.extend(pre)
                        sink.prelude(pre)
                    for g in games:
                        g.diagnostics = policy.keep(g.diagnostics)
                        totals["games"] += 1
                        totals["plays"] += g.plays
                        totals["errors"] += g.errors
                        totals["warnings"] += len(g.diagnostics) - g.errors
                        sink.game(g)
                totals["errors"] += sum(1 for d in prelude if d.is_error)
            except ReadError as e:
                problem = e.message
            except OSError as e:
                problem = str(e.strerror or e)
            except WorkerFailed as e:
                failed = f"{name}: {e}"
                break
            if problem is not None:
                totals["unreadable"] += 1
            sink.end_file(problem)
            done += _size(path)
        completed = failed is None
    except KeyboardInterrupt:
        failed = "interrupted"
    finally:
        runner.close(abort=not completed)
        if progress is not None:
            progress[0].stop()
    if failed == "interrupted":
        sys.stdout.flush()
        sys.stderr.write("interrupted: the check was not finished\n")
        return 130
    if failed is not None:
        sys.stdout.flush()
        _say_error(f"{failed}; the check was not finished")
        return 2
    # Errors and mistakes fail the check; notes never do (referee.reports.select).
    totals["errors"], totals["warnings"] = policy.failing, policy.by_severity[NOTE]
    totals["severities"] = dict(policy.by_severity)
    sink.finish(totals)
    if statistics:
        (sys.stdout if fmt == "text" else sys.stderr).write(policy.statistics_text())
    return policy.exit_code(totals["unreadable"])


def _say_error(message: str) -> None:
    from rich.console import Console
    from rich.text import Text

    from referee.reports.text import safe

    err = Console(stderr=True, highlight=False, soft_wrap=True)
    line = Text("error", style="bold red")
    line.append(": " + safe(message))
    err.print(line)


def _runner(jobs: int, dask: str | None, default: RuleSet | None, overrides: dict[str, object], force: bool) -> Runner:
    if dask is not None:
        from referee.archive.dask import DaskRunner

        return DaskRunner(dask, default, overrides, force)
    if jobs > 1:
        from referee.archive.workers import PoolRunner

        return PoolRunner(jobs, _init, (default, overrides, force))
    return _InProcess()


class _InProcess:
    """--jobs 1: the slices judged here, one after the other."""

    def __call__(self, work: Iterable[Slice]) -> Iterator[Judged]:
        return map(judge_range, work)

    def close(self, abort: bool = False) -> None:
        pass


class _TextSink:
    """Diagnostics as they come, a line per game, and the totals: for people."""

    def __init__(self, quiet: bool) -> None:
        from rich.console import Console

        self.quiet = quiet
        self.out = Console(highlight=False, soft_wrap=True)
        self.err = Console(stderr=True, highlight=False, soft_wrap=True)

    def start_file(self, path: str) -> None:
        self.path = path

    def prelude(self, diags: list[Diagnostic]) -> None:
        _render_diags(self.out, diags, False)

    def game(self, g: Outcome) -> None:
        _render_game(self.out, self.path, g, self.quiet)

    def end_file(self, problem: str | None) -> None:
        if problem is not None:
            from rich.text import Text

            from referee.reports.text import safe

            line = Text("error", style="bold red")
            line.append(f": {safe(self.path)}: {safe(problem)}")
            self.err.print(line, highlight=False)

    def finish(self, totals: Totals) -> None:
        _render_totals(self.out, totals)


class _JsonSink:
    """The report of ``report.Report``, written as the games are judged, so that memory stays
    flat on archives of any size: one game's summary at a time, the totals at the end."""

    def __init__(self) -> None:
        from referee.reports.report import REPORT_SCHEMA_VERSION, DiagnosticModel, GameSummary

        self.summary, self.diagnostic = GameSummary, DiagnosticModel
        from referee.reports.text import json_safe

        write = sys.stdout.write

        def w(text: str) -> None:
            write(json_safe(text))

        self.w = w
        self.w('{\n  "schema_version": %d,\n  "tool": "getaway-ref",\n  "files": [' % REPORT_SCHEMA_VERSION)
        self.files = 0

    def start_file(self, path: str) -> None:
        import json

        self.w(("," if self.files else "") + '\n    {"path": %s, "games": [' % json.dumps(path, ensure_ascii=False))
        self.files += 1
        self.games = 0
        self.pre: list[Diagnostic] = []

    def prelude(self, diags: list[Diagnostic]) -> None:
        self.pre.extend(diags)

    def game(self, g: Outcome) -> None:
        self.w(("," if self.games else "") + "\n      " + self.summary.of(g).model_dump_json())
        self.games += 1

    def end_file(self, problem: str | None) -> None:
        import json

        diags = "[" + ", ".join(self.diagnostic.of(d).model_dump_json() for d in self.pre) + "]"
        self.w(("\n    " if self.games else "") + '], "readable": %s, "problem": %s, "diagnostics": %s}'
               % ("true" if problem is None else "false", json.dumps(problem, ensure_ascii=False), diags))

    def finish(self, t: Totals) -> None:
        self.w('\n  ],\n  "games": %d,\n  "plays": %d,\n  "errors": %d,\n  "warnings": %d\n}\n'
               % (t["games"], t["plays"], t["errors"], t["warnings"]))


PROGRESS_BYTES = 4_000_000  # a progress bar for inputs larger than this


def _size(path: Path) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0


def _progress(files: list[Path]) -> tuple[Progress, TaskID] | None:
    """A progress bar on stderr, for long runs and only when stderr is a terminal."""
    import os

    total = sum(_size(p) for p in files)
    threshold = int(os.environ.get("GETAWAY_PROGRESS_BYTES", PROGRESS_BYTES))
    if total < threshold or not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

    bar = Progress("checking", BarColumn(), DownloadColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True), transient=True)
    task = bar.add_task("check", total=total)
    bar.start()
    return bar, task


FLOOD = 5  # more identical diagnostics than this in one game are shown once, with a count


def _render_diags(out: Console, diags: Sequence[Diagnostic], quiet: bool) -> None:
    """Diagnostics in order; a flood of identical ones (same code and message, as one broken
    word repeated along a long line gives) is shown once, with how many there were."""
    if quiet:
        return
    from collections import Counter

    from referee.reports.render import print_diagnostic

    same = Counter((d.code, d.message) for d in diags)
    shown: set[tuple[str, str]] = set()
    for d in diags:
        key = (d.code, d.message)
        if same[key] > FLOOD:
            if key in shown:
                continue
            shown.add(key)
            print_diagnostic(out, d, more=same[key] - 1)
        else:
            print_diagnostic(out, d)


def _render_game(out: Console, path: str, g: Outcome, quiet: bool) -> None:
    _render_diags(out, g.diagnostics, False)
    if quiet:  # --quiet: the problems and the summary line, no line per game
        return
    seats = g.seats
    bits = [f"{path}:{g.line}: game {g.number}"]
    if g.rules:
        bits.append(f"rules {g.rules}")
    if not g.judged:
        bits.append(f"not judged: {g.stopped}")
    else:
        bits.append(f"{g.tricks} trick{'s' if g.tricks != 1 else ''}")
        if g.finished and g.loser is not None:
            legs = f" with {g.legs} card{'s' if g.legs != 1 else ''}" if g.legs else ""
            bits.append(f"{seats[g.loser]} lost{legs}")
        elif g.stopped:
            bits.append(f"replay stopped: {g.stopped}")
        else:
            bits.append("not finished")
        if g.out_order:
            bits.append("got away: " + ", ".join(seats[s] for s in g.out_order))
        if g.sizes and not g.finished:
            bits.append("hands: " + ", ".join(f"{seats[i]} {n}" for i, n in enumerate(g.sizes)))
    n = g.errors
    verdict = severity_counts([d.severity for d in g.diagnostics]) or "ok"
    style = "green" if n == 0 else "bold red"
    from rich.text import Text

    from referee.reports.text import safe

    line = Text(safe(" — ".join(bits)) + " — ")
    line.append(verdict, style=style)
    out.print(line, highlight=False)


def severity_counts(severities: list[str]) -> str:
    """``1 error, 2 mistakes, 1 note`` (empty for none)."""
    parts = []
    for sev in ("error", "mistake", "note"):
        k = severities.count(sev)
        if k:
            parts.append(f"{k} {sev}{'s' if k != 1 else ''}")
    return ", ".join(parts)


def _render_totals(out: Console, t: Totals) -> None:
    files = f"{t['files']} file{'s' if t['files'] != 1 else ''}"
    games = f"{t['games']} game{'s' if t['games'] != 1 else ''}"
    plays = f"{t['plays']} play{'s' if t['plays'] != 1 else ''}"
    if t["errors"]:
        sev = t.get("severities")
        said = severity_counts([k for k, v in sev.items() for _ in range(v)]) if sev else \
            f"{t['errors']} error{'s' if t['errors'] != 1 else ''}"
        verdict = f"[bold red]{said}[/]"
    else:
        verdict = "[green]no errors[/]" if not t.get("severities", {}).get("note") else \
            f"[green]no errors[/], {severity_counts(['note'] * t['severities']['note'])}"
    unread = f", [bold red]{t['unreadable']} unreadable[/]" if t["unreadable"] else ""
    out.print(f"checked {files}, {games}, {plays}: {verdict}{unread}")
