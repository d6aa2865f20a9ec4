"""``check``'s text output on a terminal, for people: diagnostics as they come (rustc
style, from ``layout.py``), a line per game, the totals, and error lines on standard error,
in colour. Into a pipe or a file the same text is written by ``plain.py``, without rich.

Imported only when a run writes text to a terminal (or must say an error): it needs rich.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO

from rich.console import Console
from rich.text import Text

from referee.reports.diagnostics import Diagnostic
from referee.reports.layout import flood, game_line, totals_line
from referee.reports.render import print_diagnostic
from referee.reports.sink import GameOutcome, Totals
from referee.reports.text import safe


def say_error(err: Console, message: str) -> None:
    """``error: MESSAGE`` on ``err``, "error" in bold red."""
    line = Text("error", style="bold red")
    line.append(": " + safe(message))
    err.print(line, highlight=False)


class _Console(Console):
    """A console whose closed pipe is check's to end (archive.check.run_check: exit 2),
    where rich would end the process itself with exit 1."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


def stderr_console() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


class TextSink:
    """Diagnostics as they come, a line per game, and the totals: for people."""

    def __init__(self, quiet: bool, file: IO[str] | None = None) -> None:
        self.quiet = quiet
        self.out = _Console(file=file, highlight=False, soft_wrap=True)  # None: standard output
        self.err = stderr_console()
        self.path = ""

    def start_file(self, path: str) -> None:
        self.path = path

    def prelude(self, diags: list[Diagnostic]) -> None:
        render_diags(self.out, diags, False)

    def game(self, g: GameOutcome) -> None:
        render_game(self.out, self.path, g, self.quiet)

    def end_file(self, problem: str | None) -> None:
        if problem is not None:
            say_error(self.err, f"{self.path}: {problem}")

    def finish(self, totals: Totals) -> None:
        render_totals(self.out, totals)


def render_diags(out: Console, diags: Sequence[Diagnostic], quiet: bool) -> None:
    """Diagnostics in order, a flood of identical ones shown once (layout.flood)."""
    if quiet:
        return
    for d, more in flood(diags):
        print_diagnostic(out, d, more=more)


def render_game(out: Console, path: str, g: GameOutcome, quiet: bool) -> None:
    render_diags(out, g.diagnostics, False)
    if quiet:  # --quiet: the problems and the summary line, no line per game
        return
    text, verdict, style = game_line(path, g)
    line = Text(text + " — ")
    line.append(verdict, style=style)
    out.print(line, highlight=False)


def render_totals(out: Console, t: Totals) -> None:
    line = Text()
    for piece, style in totals_line(t):
        line.append(piece, style=style)
    out.print(line, highlight=False)
