"""Human output: diagnostics in the rustc style, and the per-game summary.

    error[M201]: renege: East played K♣ on a heart lead while holding 9♥
      --> records/renege.gwy:15:28
       |
    15 | 4. West 2♥, North 6♥, East K♣
       |                            ^^ tochoo while holding the suit led
       |
       = note: Pagat, Getaway, "Second and subsequent tricks": ...
       = help: penalty (ruling 1): East picks up the 3 cards of trick 4 and leads trick 5
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from rich.console import Console
from rich.text import Text

from referee.engine.citations import is_citation
from referee.reports.diagnostics import Diagnostic
from referee.reports.text import safe

# A line of output and its style name (a key of STYLES; '' for none).
Line = tuple[str, str]


class DiagnosticFacts(Protocol):
    """What the compact form of a diagnostic reads: a :class:`Diagnostic`, or the JSON model
    of one that ``show`` and ``legal`` keep (no span, no source line)."""

    @property
    def code(self) -> str: ...
    @property
    def severity(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def trick(self) -> int | None: ...
    @property
    def notes(self) -> Sequence[str]: ...
    @property
    def help(self) -> str | None: ...


# A line longer than LONG characters is quoted as a window of WINDOW characters around the
# caret (as rustc does): errors on one long line cost output in proportion to their number,
# not to their number times the line's length.
LONG = 160
WINDOW = 120
BEFORE = 40  # of the window, how much stands before the caret


def _caret_line(source: str, col: int, width: int) -> str:
    # Tabs keep their width so the caret lines up under the card.
    prefix = "".join("\t" if ch == "\t" else " " for ch in source[: max(0, col - 1)])
    return prefix + "^" * max(1, width)


def quote(source: str, col: int, width: int) -> tuple[str, str]:
    """The source line as shown (escaped, and cut to a window around the caret if long) and
    the caret line under it."""
    col = max(1, col)
    width = max(1, min(width, max(1, len(source) - col + 1)))
    start, end = 0, len(source)
    if len(source) > LONG:
        start = max(0, min(col - 1 - BEFORE, len(source) - WINDOW))
        end = min(len(source), start + WINDOW)
        width = max(1, min(width, end - (col - 1)))
    before = source[start:col - 1]
    marked = source[col - 1:col - 1 + width]
    lead = "…" if start > 0 else ""
    tail = "…" if end < len(source) else ""
    shown = lead + safe(source[start:end]) + tail
    pad = lead + safe(before)
    return shown, _caret_line(pad, len(pad) + 1, len(safe(marked)) if marked else 1)


def diagnostic_lines(d: Diagnostic | DiagnosticFacts, *, compact: bool = False,
                     citations: bool = True) -> list[Line]:
    """The lines of one diagnostic, each with a style name for colour ('' for none): the one
    layout of a diagnostic, for ``check``, ``fmt``, ``show``, ``legal`` and ``live``.

    In full (a :class:`Diagnostic`, as ``check`` prints it): the header, where it is, the
    source line with a caret under what is wrong, related places, then the notes (rule
    citations) and the help (the penalty). ``compact`` (``live``, and ``show``/``legal``,
    which keep only the facts of a diagnostic) leaves out the place and the quoted line and
    names the trick in the header instead. ``citations=False`` leaves out the notes that cite
    a rule (the views name the rule beside each answer already). Text of the record (messages
    quote it) is escaped: see referee.reports.text."""
    if compact or not isinstance(d, Diagnostic):
        mentioned = not d.trick or f"trick {d.trick}" in d.message
        out: list[Line] = [(safe(f"{d.severity}[{d.code}]: {d.message}" + ("" if mentioned else f" (trick {d.trick})")),
                            d.severity)]
        return out + _notes(d, "  ", citations)
    out = [(safe(f"{d.severity}[{d.code}]: {d.message}"), d.severity)]
    where = f" (game {d.game}" + (f", trick {d.trick}" if d.trick else "") + ")" if d.game else ""
    path = safe(str(d.path))
    if d.span is not None and d.span.line:
        gutter = " " * len(str(d.span.line))
        out.append((f"{gutter}--> {path}:{d.span.line}:{d.span.col}{where}", "dim"))
        out.append((f"{gutter} |", "dim"))
        shown, caret = quote(d.source_line, d.span.col, d.span.end - d.span.start)
        out.append((f"{d.span.line} | {shown}", ""))
        out.append((f"{gutter} | {caret}" + (f" {safe(d.label)}" if d.label else ""), d.severity))
        for r in d.related:
            rg = " " * len(str(r.span.line))
            out.append((f"{rg}--> {path}:{r.span.line}:{r.span.col}", "dim"))
            shown, caret = quote(r.source_line, r.span.col, r.span.end - r.span.start)
            out.append((f"{r.span.line} | {shown}", ""))
            out.append((f"{rg} | {caret} {safe(r.label)}", "note"))
        out.append((f"{gutter} |", "dim"))
        pad = gutter + " "
    else:
        out.append((f"  --> {path}{where}", "dim"))
        pad = "  "
    return out + _notes(d, pad, citations)


def _notes(d: Diagnostic | DiagnosticFacts, pad: str, citations: bool) -> list[Line]:
    """The notes and the help, under the diagnostic."""
    out: list[Line] = [(f"{pad}= note: {safe(n)}", "note") for n in d.notes
                       if citations or not (is_citation(n) or n.startswith("rule set"))]
    if d.help:
        out.append((f"{pad}= help: {safe(d.help)}", "help"))
    return out


def diagnostic_text(d: Diagnostic) -> str:
    return "\n".join(line for line, _ in diagnostic_lines(d))


STYLES = {"error": "bold red", "warning": "bold yellow", "note": "cyan", "help": "green", "dim": "blue"}


def print_lines(console: Console, lines: Sequence[Line], styles: dict[str, str] = STYLES) -> None:
    """Lines of :func:`diagnostic_lines` on a rich console, never read as markup."""
    for line, style in lines:
        console.print(Text(line, style=styles.get(style, "")), soft_wrap=True, highlight=False)


def print_diagnostic(console: Console, d: Diagnostic, more: int = 0) -> None:
    """Print one diagnostic; ``more`` says how many identical ones it stands for besides."""
    lines = diagnostic_lines(d)
    if more:
        pad = lines[-1][0][: len(lines[-1][0]) - len(lines[-1][0].lstrip())] or "  "
        lines.append((f"{pad}= note: {more} more of the same {d.severity} in this game are not shown "
                      f"(--format json lists them all)", "note"))
    print_lines(console, lines)
    console.print()


def console(stderr: bool = False) -> Console:
    """A console for the commands' human output: no highlighting of numbers or names, no
    wrapping (a line of a record is printed whole)."""
    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def print_error(message: str, out: Console | None = None) -> None:
    """``error: MESSAGE`` on standard error (or ``out``); the message may quote a file name
    or an argument, so it is printed as typed, escaped, never read as markup."""
    line = Text("error", style="bold red")
    line.append(": " + safe(message))
    (out or console(stderr=True)).print(line, highlight=False)
