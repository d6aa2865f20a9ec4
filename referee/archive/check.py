"""``getaway-ref check``: read files game by game, judge each game, render the report.

Files are streamed: a game is read, judged, reported and dropped, so memory stays flat
whatever the file's size. With ``--jobs N`` batches of games go to N worker processes and
come back in input order (the work itself is ``slices.py``).

Start-up: a plain ``check FILE`` must start fast (tests/test_startup.py), and each output
format and each way of judging needs a library of its own: pydantic for json
and jsonl, xml for junit, multiprocessing for ``--jobs``, distributed for ``--dask``, rich's
progress bar for a long run on a terminal. So what a run chooses is imported when it is
chosen, in the section "chosen by the run" at the end of this module, and nowhere else.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from referee import __version__
from referee.archive.dask import DaskRunner
from referee.archive.inputs import problem as refuse
from referee.archive.slices import GameOutcome, InProcess, Runner, WorkerFailed, init, slices
from referee.commands.pipes import EXIT_CLOSED, closed_pipe, end_now, same_terminal
from referee.engine import language as L
from referee.engine.rules import RuleSet
from referee.files import reason_of
from referee.notation.reader import ReadError
from referee.reports.diagnostics import NOTE
from referee.reports.select import Policy
from referee.reports.sink import Sink, Totals

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

__all__ = ["FileSettings", "GameOutcome", "WorkerFailed", "run_check"]

PROGRESS_BYTES = 4_000_000  # a progress bar for inputs larger than this


@dataclass(frozen=True)
class FileSettings:
    """What one file is judged under: which diagnostics are reported, the rule set for games
    without a [Rules] tag and the options set over every game, and the settings file they
    came from (None: the defaults and the command line)."""

    policy: Policy
    default: RuleSet | None
    overrides: dict[str, object]
    source: Path | None = None


def run_check(files: list[Path], fmt: str, default: RuleSet | None, overrides: dict[str, object], force: bool,
              quiet: bool, jobs: int, dask: str | None = None, names: dict[Path, str] | None = None,
              policy: Policy | None = None, statistics: bool = False, exit_zero: bool | None = None,
              settings: Callable[[Path], FileSettings] | None = None) -> int:
    """Judge ``files`` and write the report; the exit code. ``settings`` gives each file's
    own settings (the nearest settings file's); without it every file is judged under
    ``default``, ``overrides`` and ``policy``."""
    # A closed pipe (check ... | head) is raised to the entry point, which ends every command
    # alike (referee/commands/pipes.py).
    return _run_check(files, fmt, default, overrides, force, quiet, jobs, dask, names, policy, statistics,
                      exit_zero, settings)


def _run_check(files: list[Path], fmt: str, default: RuleSet | None, overrides: dict[str, object], force: bool,
               quiet: bool, jobs: int, dask: str | None, names: dict[Path, str] | None,
               policy: Policy | None, statistics: bool, exit_zero: bool | None,
               settings: Callable[[Path], FileSettings] | None) -> int:
    # --select/--ignore/--exit-zero: what is reported and what fails. Each file's policy counts
    # into the run's counters, so the exit code and --statistics are the whole run's.
    run = policy or Policy()
    if exit_zero is not None:
        run.exit_zero = exit_zero
    fixed = FileSettings(run, default, overrides)
    used: list[Path | None] = []  # each file's settings file, for the report
    rules = (default, overrides)
    init(default, overrides, force)  # before --jobs forks its workers, which share what it built
    try:
        runner = _runner(jobs, dask, default, overrides, force)
    except WorkerFailed as e:
        _say_error(str(e))
        return 2
    sink = _open_sink(fmt, quiet)
    totals: Totals = {"games": 0, "plays": 0, "errors": 0, "warnings": 0, "files": 0, "unreadable": 0}
    progress = _progress(files)
    done = 0
    failed: str | None = None
    completed = False
    ended = True  # the runner's threads ended when it closed
    closed: BrokenPipeError | None = None
    try:
        for path in files:
            name = (names or {}).get(path, str(path))
            own = settings(path) if settings is not None else fixed
            used.append(own.source)
            file_policy = own.policy
            if file_policy is not run:
                file_policy.counts, file_policy.by_severity = run.counts, run.by_severity
            if (own.default, own.overrides) != rules:
                # Another settings file, another rule set: the judges start again with it.
                rules = (own.default, own.overrides)
                runner.close()
                init(own.default, own.overrides, force)
                runner = _runner(jobs, dask, own.default, own.overrides, force)
            sink.start_file(name)
            problem = refuse(path)
            size = _size(path)  # the slices' size for the runner, and the progress bar's share
            try:
                if problem is not None:
                    raise ReadError(name, problem)
                on_read: Callable[[int], object] | None = None
                if progress is not None:
                    bar, task = progress

                    def on_read(pos: int, base: int = done, bar: Progress = bar, task: TaskID = task) -> None:
                        bar.update(task, completed=base + pos)
                work = slices(str(path), on_read, name, runner.slice_bytes(size))
                for pre, games in runner(work):
                    pre = file_policy.keep(pre)
                    if pre:
                        sink.prelude(pre)
                    for g in games:
                        g.diagnostics = file_policy.keep(g.diagnostics)
                        totals["games"] += 1
                        if g.judged:  # the plays of a game not judged were not checked
                            totals["plays"] += g.plays
                        sink.game(g)
            except ReadError as e:
                problem = e.message
            except BrokenPipeError:
                raise  # the report's reader went away, not the file (run_check)
            except OSError as e:
                # "no such file", as every command says it (not the system's capitalised words)
                problem = reason_of(e)
            except WorkerFailed as e:
                failed = f"{name}: {e}"
                break
            # A file that could not be read was not checked: it is counted as unreadable only.
            totals["unreadable" if problem is not None else "files"] += 1
            sink.end_file(problem)
            done += size
        completed = failed is None
    except KeyboardInterrupt:
        failed = "interrupted"
    except BrokenPipeError as e:
        # The report's reader went away: the entry point ends every command alike, silently
        # with exit 2 (referee/commands/pipes.py); at once if the pool could not be ended.
        closed = e
    finally:
        ended = runner.close(abort=not completed)
        if progress is not None:
            progress[0].stop()
    if closed is not None:
        if not ended:
            closed_pipe()
            end_now(EXIT_CLOSED)
        raise closed
    if failed == "interrupted":
        sys.stdout.flush()
        sys.stderr.write(L.gettext("interrupted: the check was not finished") + "\n")
        return 130 if ended else end_now(130)
    if failed is not None:
        sys.stdout.flush()
        _say_error(L.gettext("{why}; the check was not finished").format(why=failed))
        return 2 if ended else end_now(2)
    # What the policy counted as it kept each diagnostic: errors and mistakes fail the
    # check, notes never do (referee.reports.select).
    totals["errors"], totals["warnings"] = run.failing, run.by_severity[NOTE]
    totals["severities"] = dict(run.by_severity)
    totals["settings"] = [str(p) for p in dict.fromkeys(used) if p is not None]
    sink.finish(totals)
    if statistics:
        (sys.stdout if fmt == "text" else sys.stderr).write(run.statistics_text())
    return run.exit_code(totals["unreadable"])


def _size(path: Path) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0


# ---- chosen by the run: imported when chosen (see the module's docstring) -------------------------


def _open_sink(fmt: str, quiet: bool) -> Sink:
    """The sink of an output format (each module is imported only by the runs that write it)."""
    if fmt == "text":
        from referee.reports.console import TextSink  # light: colour by hand on a terminal

        return TextSink(quiet)
    if fmt in ("json", "jsonl"):
        from referee.reports.report import JsonLinesSink, JsonSink  # pydantic

        return JsonSink() if fmt == "json" else JsonLinesSink()
    if fmt == "sarif":
        from referee.reports.sarif import SarifSink  # pydantic

        return SarifSink(__version__)
    from referee.reports.formats import make_sink  # xml (junit)

    return make_sink(fmt)


def _runner(jobs: int, dask: str | None, default: RuleSet | None, overrides: dict[str, object], force: bool) -> Runner:
    if dask is not None:
        return DaskRunner(dask, default, overrides, force)
    if jobs > 1:
        from referee.archive.workers import PoolRunner  # multiprocessing

        return PoolRunner(jobs, init, (default, overrides, force))
    return InProcess()


def _say_error(message: str) -> None:
    from referee.reports.console import say_error

    say_error(message)  # after what the report wrote


def _progress(files: list[Path]) -> tuple[Progress, TaskID] | None:
    """A progress bar on stderr, for long runs and only when stderr is a terminal."""
    total = sum(_size(p) for p in files)
    threshold = int(os.environ.get("GETAWAY_PROGRESS_BYTES", PROGRESS_BYTES))
    if total < threshold or not sys.stderr.isatty():
        return None
    # rich's progress bar costs more to import than a small check takes: only for long runs.
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

    # rich redirects standard output to the bar's terminal by default: right when the report
    # is on that screen (it is printed above the bar), wrong when it was sent to a file or a
    # pipe, which would get nothing (issue 24).
    bar = Progress("checking", BarColumn(), DownloadColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True), transient=True, redirect_stdout=same_terminal())
    task = bar.add_task("check", total=total)
    bar.start()
    return bar, task
