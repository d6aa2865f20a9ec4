"""``check``'s text output, for people: diagnostics as they come (rustc style, from
``render.py``), a line per game, the totals, and error lines on standard error.

Imported only when a run writes text (or must say an error): it needs rich.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import IO

from rich.console import Console
from rich.text import Text

from referee.reports.diagnostics import NOTE, SEVERITIES, Diagnostic
from referee.reports.render import print_diagnostic
from referee.reports.sink import GameOutcome, Totals
from referee.reports.text import safe

FLOOD = 5  # more identical diagnostics than this in one game are shown once, with a count


def say_error(err: Console, message: str) -> None:
    """``error: MESSAGE`` on ``err``, "error" in bold red."""
    line = Text("error", style="bold red")
    line.append(": " + safe(message))
    err.print(line, highlight=False)


def stderr_console() -> Console:
    return Console(stderr=True, highlight=False, soft_wrap=True)


class TextSink:
    """Diagnostics as they come, a line per game, and the totals: for people."""

    def __init__(self, quiet: bool, file: IO[str] | None = None) -> None:
        self.quiet = quiet
        self.out = Console(file=file, highlight=False, soft_wrap=True)  # None: standard output
        self.err = stderr_console()
        self.path = ""
        # Where rich would print no colour (a pipe, a file: an archive's check), a game's line
        # is its text alone and is written to the stream directly. Through rich's renderer
        # and its flush after every print, the line per game cost a tenth of the whole check
        # of an archive (issue 16). A line rich would change (a tab, expanded) still goes
        # through rich, and so does everything else printed.
        self.plain = self.out.color_system is None and not self.out.is_jupyter and not self.out.record

    def start_file(self, path: str) -> None:
        self.path = path

    def prelude(self, diags: list[Diagnostic]) -> None:
        render_diags(self.out, diags, False)

    def game(self, g: GameOutcome) -> None:
        if not self.plain or g.diagnostics or self.quiet:
            render_game(self.out, self.path, g, self.quiet)
            return
        text, verdict, _ = game_line(self.path, g)
        line = f"{text} — {verdict}\n"
        if "\t" in line:
            render_game(self.out, self.path, g, self.quiet)
            return
        try:
            self.out.file.write(line)
        except BrokenPipeError:
            self.out.on_broken_pipe()  # as rich does for its own prints: a quiet exit 1

    def end_file(self, problem: str | None) -> None:
        if problem is not None:
            say_error(self.err, f"{self.path}: {problem}")

    def finish(self, totals: Totals) -> None:
        render_totals(self.out, totals)


def render_diags(out: Console, diags: Sequence[Diagnostic], quiet: bool) -> None:
    """Diagnostics in order; a flood of identical ones (same code and message, as one broken
    word repeated along a long line gives) is shown once, with how many there were."""
    if quiet:
        return
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


def render_game(out: Console, path: str, g: GameOutcome, quiet: bool) -> None:
    render_diags(out, g.diagnostics, False)
    if quiet:  # --quiet: the problems and the summary line, no line per game
        return
    text, verdict, style = game_line(path, g)
    line = Text(text + " — ")
    line.append(verdict, style=style)
    out.print(line, highlight=False)


def game_line(path: str, g: GameOutcome) -> tuple[str, str, str]:
    """A game's summary line: (its facts, made safe to print; the verdict; the verdict's
    style)."""
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
    return safe(" — ".join(bits)), verdict, style


def severity_counts(severities: list[str]) -> str:
    """``1 error, 2 mistakes, 1 note`` (empty for none)."""
    parts = []
    for sev in SEVERITIES:
        k = severities.count(sev)
        if k:
            parts.append(f"{k} {sev}{'s' if k != 1 else ''}")
    return ", ".join(parts)


def render_totals(out: Console, t: Totals) -> None:
    files = f"{t['files']} file{'s' if t['files'] != 1 else ''}"
    games = f"{t['games']} game{'s' if t['games'] != 1 else ''}"
    plays = f"{t['plays']} play{'s' if t['plays'] != 1 else ''}"
    if t["errors"]:
        sev = t.get("severities")
        said = severity_counts([k for k, v in sev.items() for _ in range(v)]) if sev else \
            f"{t['errors']} error{'s' if t['errors'] != 1 else ''}"
        verdict = f"[bold red]{said}[/]"
    else:
        verdict = "[green]no errors[/]" if not t.get("severities", {}).get(NOTE) else \
            f"[green]no errors[/], {severity_counts([NOTE] * t['severities'][NOTE])}"
    unread = f", [bold red]{t['unreadable']} unreadable[/]" if t["unreadable"] else ""
    out.print(f"checked {files}, {games}, {plays}: {verdict}{unread}")
