"""``check``'s text output into a pipe or a file: the text a terminal would show, without
its colours, written straight to the stream.

A check of an archive is read by a program or kept in a file far more often than watched.
There rich adds nothing but its cost: its import is a sixth of check's start-up, and its
renderer, with a flush after every line, a tenth of a large check's time (issue 16). So
this sink writes the lines of ``layout.py`` itself, byte for byte what rich prints without
colour (tests/test_text_output.py holds it to that). What only rich lays out as it does, a
tab (expanded to the width of what stands before it on the screen), or an error for
standard error (which may be a terminal, in colour), hands the rest of the run to the rich
sink ``richer`` makes, once.

Light, as the plain ``check`` imports it before it knows what it will print: no rich here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import IO

from referee.reports.diagnostics import Diagnostic
from referee.reports.layout import flood, game_line, printed_lines, totals_line
from referee.reports.sink import GameOutcome, Sink, Totals


class PlainSink:
    """Diagnostics as they come, a line per game, and the totals, without colour."""

    def __init__(self, quiet: bool, richer: Callable[[], Sink], file: IO[str] | None = None) -> None:
        self.quiet = quiet
        self.richer = richer
        self.file = file  # None: standard output, as it is when written to
        self.path = ""
        self.rich: Sink | None = None  # the rich sink, once something only it can print came

    def _out(self) -> IO[str]:
        return self.file if self.file is not None else sys.stdout

    def _hand_over(self) -> Sink:
        """The rich sink, from here to the end of the run (what was written goes first)."""
        if self.rich is None:
            self._out().flush()
            self.rich = self.richer()
            self.rich.start_file(self.path)
        return self.rich

    def _write(self, lines: list[str]) -> bool:
        """Write these lines; False (nothing written) if one holds a tab."""
        if any("\t" in line for line in lines):
            return False
        self._out().write("".join(line + "\n" for line in lines))  # a closed pipe: see run_check
        return True

    @staticmethod
    def _diagnostics(diags: Sequence[Diagnostic]) -> list[str]:
        lines: list[str] = []
        for d, more in flood(diags):
            lines += [line for line, _ in printed_lines(d, more)]
            lines.append("")  # a blank line after each diagnostic
        return lines

    def start_file(self, path: str) -> None:
        self.path = path
        if self.rich is not None:
            self.rich.start_file(path)

    def prelude(self, diags: list[Diagnostic]) -> None:
        if self.rich is None and self._write(self._diagnostics(diags)):
            return
        self._hand_over().prelude(diags)

    def game(self, g: GameOutcome) -> None:
        if self.rich is None:
            lines = self._diagnostics(g.diagnostics) if g.diagnostics else []
            if not self.quiet:
                text, verdict, _ = game_line(self.path, g)
                lines.append(f"{text} — {verdict}")
            if self._write(lines):
                return
        self._hand_over().game(g)

    def end_file(self, problem: str | None) -> None:
        if problem is None:
            if self.rich is not None:
                self.rich.end_file(None)
            return
        self._hand_over().end_file(problem)  # said on standard error, which may be a terminal

    def finish(self, totals: Totals) -> None:
        if self.rich is None and self._write(["".join(piece for piece, _ in totals_line(totals))]):
            self._out().flush()
            return
        self._hand_over().finish(totals)


def write_diagnostics(diags: Sequence[Diagnostic], stream: IO[str]) -> bool:
    """Diagnostics written to ``stream`` as check writes them into a pipe or a file (a flood
    of identical ones once, with its count), when rich would print them without colour
    there: the way ``fmt``, ``show`` and ``legal`` report syntax errors at check's speed
    (issue 25: through rich's renderer, ten thousand errors took fifteen times as long).
    False, nothing written, when rich must print them (a terminal, or a tab to expand)."""
    if not writes_plain(stream):
        return False
    lines = PlainSink._diagnostics(diags)
    if any("\t" in line for line in lines):
        return False
    stream.write("".join(line + "\n" for line in lines))
    stream.flush()
    return True


def writes_plain(stream: IO[str] | None = None) -> bool:
    """Would rich print standard output (or ``stream``) without colour? By rich's own
    rules: not a terminal (TTY_COMPATIBLE and FORCE_COLOR say so first), and not in Jupyter."""
    if "ipykernel" in sys.modules:
        return False
    compatible = os.environ.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "0"
    force = os.environ.get("FORCE_COLOR")
    if force is not None:
        return force == ""
    try:
        return not (sys.stdout if stream is None else stream).isatty()
    except (ValueError, AttributeError):  # closed, or replaced by something without it
        return True
