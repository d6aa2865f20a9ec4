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

from typing import TYPE_CHECKING

from referee.reports.diagnostics import Diagnostic

if TYPE_CHECKING:
    from rich.console import Console


def _caret_line(source: str, col: int, width: int) -> str:
    # Tabs keep their width so the caret lines up under the card.
    prefix = "".join("\t" if ch == "\t" else " " for ch in source[: max(0, col - 1)])
    return prefix + "^" * max(1, width)


def diagnostic_lines(d: Diagnostic) -> list[tuple[str, str]]:
    """The lines of one diagnostic, each with a style name for colour ('' for none)."""
    out: list[tuple[str, str]] = []
    where = f" (game {d.game}" + (f", trick {d.trick}" if d.trick else "") + ")" if d.game else ""
    out.append((f"{d.severity}[{d.code}]: {d.message}", d.severity))
    if d.span is not None and d.span.line:
        gutter = " " * len(str(d.span.line))
        out.append((f"{gutter}--> {d.path}:{d.span.line}:{d.span.col}{where}", "dim"))
        out.append((f"{gutter} |", "dim"))
        out.append((f"{d.span.line} | {d.source_line}", ""))
        width = min(d.span.end - d.span.start, max(1, len(d.source_line) - d.span.col + 1))
        caret = _caret_line(d.source_line, d.span.col, width)
        out.append((f"{gutter} | {caret}" + (f" {d.label}" if d.label else ""), d.severity))
        for r in d.related:
            rg = " " * len(str(r.span.line))
            out.append((f"{rg}--> {d.path}:{r.span.line}:{r.span.col}", "dim"))
            out.append((f"{r.span.line} | {r.source_line}", ""))
            out.append((f"{rg} | {_caret_line(r.source_line, r.span.col, r.span.end - r.span.start)} {r.label}", "note"))
        out.append((f"{gutter} |", "dim"))
        pad = gutter + " "
    else:
        out.append((f"  --> {d.path}{where}", "dim"))
        pad = "  "
    for n in d.notes:
        out.append((f"{pad}= note: {n}", "note"))
    if d.help:
        out.append((f"{pad}= help: {d.help}", "help"))
    return out


def diagnostic_text(d: Diagnostic) -> str:
    return "\n".join(line for line, _ in diagnostic_lines(d))


STYLES = {"error": "bold red", "warning": "bold yellow", "note": "cyan", "help": "green", "dim": "blue"}


def print_diagnostic(console: Console, d: Diagnostic) -> None:
    from rich.text import Text

    for line, style in diagnostic_lines(d):
        console.print(Text(line, style=STYLES.get(style, "")), soft_wrap=True, highlight=False)
    console.print()
