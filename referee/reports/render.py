"""The other commands' human output: the lines of ``layout.py`` (diagnostics in the rustc
style) printed with rich, in the styles ``console.py`` names, on the consoles the commands
print on (their tables are rich's). ``check``'s text does without rich: ``console.py``.

The layout is re-exported here (``diagnostic_lines``, ``diagnostic_text``, ``quote``,
``Line``) for the commands that print it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from referee.reports.console import STYLES, write_diagnostics
from referee.reports.diagnostics import Diagnostic
from referee.reports.layout import DiagnosticFacts, Line, diagnostic_lines, diagnostic_text, printed_lines, quote
from referee.reports.text import safe

__all__ = [
    "STYLES",
    "DiagnosticFacts",
    "Line",
    "console",
    "diagnostic_lines",
    "diagnostic_text",
    "print_diagnostic",
    "print_diagnostics",
    "print_error",
    "print_lines",
    "quote",
]



def print_lines(console: Console, lines: Sequence[Line], styles: dict[str, str] = STYLES) -> None:
    """Lines of :func:`diagnostic_lines` on a rich console, never read as markup."""
    for line, style in lines:
        console.print(Text(line, style=styles.get(style, "")), soft_wrap=True, highlight=False)


def print_diagnostic(console: Console, d: Diagnostic, more: int = 0) -> None:
    """Print one diagnostic; ``more`` says how many identical ones it stands for besides."""
    print_lines(console, printed_lines(d, more))
    console.print()


class _PipeConsole(Console):
    """A console whose closed pipe is the command's to end (exit 2, referee/_start.py), where
    rich would end the process itself with exit 1."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


def print_diagnostics(console: Console, diags: Sequence[Diagnostic]) -> None:
    """Diagnostics as check prints them (a flood of identical ones once, with its count):
    by check's own renderer (reports/console.py), plain or in colour as the stream takes it."""
    write_diagnostics(diags, console.file)


def console(stderr: bool = False) -> Console:
    """A console for the commands' human output: no highlighting of numbers or names, no
    wrapping (a line of a record is printed whole)."""
    return _PipeConsole(stderr=stderr, highlight=False, soft_wrap=True)


def print_error(message: str, out: Console | None = None) -> None:
    """``error: MESSAGE`` on standard error (or ``out``); the message may quote a file name
    or an argument, so it is printed as typed, escaped, never read as markup."""
    line = Text("error", style="bold red")
    line.append(": " + safe(message))
    (out or console(stderr=True)).print(line, highlight=False)
