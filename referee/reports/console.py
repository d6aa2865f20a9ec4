"""``check``'s text output, the one renderer of it: the lines of ``layout.py`` (diagnostics
in the rustc style, a line per game, the totals) written as they are, and on a terminal
each line's style name turned into ANSI colour. Errors go to standard error the same way.

Colour is decided as rich decides it, so a user's settings mean the same in every command:
``TTY_COMPATIBLE=0/1`` first, then ``FORCE_COLOR`` (set and not empty: colour, even into a
pipe; set and empty: none), else whether the stream is a terminal; ``TERM=dumb`` (or ``unknown``) gets none;
``NO_COLOR`` (set and not empty) drops the colours and keeps bold.

No rich here: a check of an archive is read by a program or kept in a file far more often
than watched, and rich's import is a sixth of check's start-up and its renderer a tenth of a
large check's time (issue 16). The plain ``check`` imports this module before it knows what
it will print, so it stays light.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import IO

from referee.reports.diagnostics import Diagnostic
from referee.reports.layout import flood, game_line, printed_lines, totals_line
from referee.reports.sink import GameOutcome, Totals
from referee.reports.text import safe

# Each style name of the layout, as words of rich's style language (render.py hands these
# to rich for the other commands' output; here they become ANSI sequences).
STYLES = {"error": "bold red", "mistake": "bold red", "warning": "bold yellow", "note": "cyan", "help": "green",
          "dim": "blue", "green": "green", "bold red": "bold red"}

# Select Graphic Rendition parameters (ECMA-48) for those words.
_SGR = {"bold": "1", "red": "31", "green": "32", "yellow": "33", "blue": "34", "cyan": "36"}
_NOT_COLOUR = frozenset({"bold"})  # what NO_COLOR keeps

Paint = Callable[[str, str], str]


def _plain(text: str, style: str) -> str:
    return text


def wants_colour(stream: IO[str]) -> bool:
    """Is ``stream`` a terminal that shows colour, by rich's rules (the module's docstring)?"""
    env = os.environ
    compatible = env.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        terminal = compatible == "1"
    elif env.get("FORCE_COLOR") is not None:
        terminal = env["FORCE_COLOR"] != ""
    else:
        try:
            terminal = stream.isatty()
        except (ValueError, AttributeError):  # closed, or replaced by something without it
            terminal = False
    return terminal and env.get("TERM", "").lower() not in ("dumb", "unknown")


def painter(stream: IO[str]) -> Paint:
    """How to write a piece of text in a style name on ``stream``: as it is, or between the
    ANSI sequences of its style."""
    if not wants_colour(stream):
        return _plain
    no_colour = os.environ.get("NO_COLOR", "") != ""
    codes: dict[str, str] = {}
    for name, words in STYLES.items():
        sgr = [_SGR[w] for w in words.split() if w in _SGR and not (no_colour and w not in _NOT_COLOUR)]
        if sgr:
            codes[name] = "\x1b[" + ";".join(sgr) + "m"

    def paint(text: str, style: str) -> str:
        start = codes.get(style)
        return f"{start}{text}\x1b[0m" if start and text else text

    return paint


def say_error(message: str) -> None:
    """``error: MESSAGE`` on standard error, "error" in bold red on a terminal; what standard
    output has of the report goes first. The message is escaped (reports/text.py)."""
    sys.stdout.flush()
    sys.stderr.write(painter(sys.stderr)("error", "bold red") + ": " + safe(message) + "\n")
    sys.stderr.flush()


def _expand(line: str) -> str:
    # A tab goes to the next multiple of 8 columns of the line as printed, the gutter
    # included, so the caret under a line with tabs still stands under its card.
    return line.expandtabs(8) if "\t" in line else line


def write_diagnostics(diags: Sequence[Diagnostic], stream: IO[str]) -> None:
    """Diagnostics written to ``stream`` as check writes them (a flood of identical ones once,
    with its count; colour on a terminal): how ``fmt``, ``show`` and ``legal`` report syntax
    errors, at check's speed (issue 25: through rich's renderer ten thousand errors took
    fifteen times as long)."""
    sink = TextSink(quiet=True, file=stream)
    sink._write(sink._diagnostics(diags))
    stream.flush()


class TextSink:
    """Diagnostics as they come (a flood of identical ones shown once, layout.flood), a line
    per game unless ``quiet``, and the totals."""

    def __init__(self, quiet: bool, file: IO[str] | None = None) -> None:
        self.quiet = quiet
        self.file = file  # None: standard output, as it is when written to
        self.paint = painter(self._out())
        self.path = ""

    def _out(self) -> IO[str]:
        return self.file if self.file is not None else sys.stdout

    def _write(self, lines: list[str]) -> None:
        if lines:
            self._out().write("".join(line + "\n" for line in lines))  # a closed pipe: see run_check

    def _diagnostics(self, diags: Sequence[Diagnostic]) -> list[str]:
        lines: list[str] = []
        for d, more in flood(diags):
            lines += [self.paint(_expand(line), style) for line, style in printed_lines(d, more)]
            lines.append("")  # a blank line after each diagnostic
        return lines

    def start_file(self, path: str) -> None:
        self.path = path

    def prelude(self, diags: list[Diagnostic]) -> None:
        self._write(self._diagnostics(diags))

    def game(self, g: GameOutcome) -> None:
        lines = self._diagnostics(g.diagnostics) if g.diagnostics else []
        if not self.quiet:
            text, verdict, style = game_line(self.path, g)
            lines.append(_expand(text) + " — " + self.paint(verdict, style))
        self._write(lines)

    def end_file(self, problem: str | None) -> None:
        if problem is not None:
            say_error(f"{self.path}: {problem}")

    def finish(self, totals: Totals) -> None:
        self._write(["".join(self.paint(piece, style) for piece, style in totals_line(totals))])
        self._out().flush()
