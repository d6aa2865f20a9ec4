"""The layout of check's human output, as plain lines: a diagnostic in the rustc style,
the line per game and the totals, each line with the name of its style.

    error[M201]: renege: East played K♣ on a heart lead while holding 9♥
      --> records/renege.gwy:15:28
       |
    15 | 4. West 2♥, North 6♥, East K♣
       |                            ^^ tochoo while holding the suit led
       |
       = note: Pagat, Getaway, "Second and subsequent tricks": ...
       = help: penalty (ruling 1): East picks up the 3 cards of trick 4 and leads trick 5

No colour here, and no rich: ``console.py`` writes these lines for ``check``, in colour on a
terminal by their style names; ``render.py`` prints them on rich's consoles for the other
commands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from referee.engine.citations import is_citation
from referee.engine.language import N_, ngettext
from referee.engine.language import gettext as _
from referee.reports.diagnostics import ERROR, MISTAKE, NOTE, SEVERITIES, Diagnostic, JudgedTo
from referee.reports.sink import GameOutcome, Totals
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


def window(length: int, col: int) -> tuple[int, int]:
    """Which characters of a line ``length`` long are quoted for a span at column ``col``
    (1-based): ``line[start:end]``, the whole line when it is short. The one definition of
    the window, for the text (:func:`quote`) and for the JSON reports alike."""
    if length <= LONG:
        return 0, length
    start = max(0, min(max(1, col) - 1 - BEFORE, length - WINDOW))
    return start, min(length, start + WINDOW)


def quote(source: str, col: int, width: int) -> tuple[str, str]:
    """The source line as shown (escaped, and cut to a window around the caret if long) and
    the caret line under it."""
    col = max(1, col)
    width = max(1, min(width, max(1, len(source) - col + 1)))
    start, end = window(len(source), col)
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
        # The trick is named once: not again when the message names it (in its language).
        trick = _("trick {trick}").format(trick=d.trick) if d.trick else ""
        mentioned = not trick or trick in d.message
        out: list[Line] = [(safe(f"{d.severity}[{d.code}]: {d.message}" + ("" if mentioned else f" ({trick})")),
                            d.severity)]
        return out + _notes(d, "  ", citations)
    out = [(safe(f"{d.severity}[{d.code}]: {d.message}"), d.severity)]
    where = ""
    if d.game:
        where = _("game {number}").format(number=d.game)
        if d.trick:
            where = _("{game}, {trick}").format(game=where, trick=_("trick {trick}").format(trick=d.trick))
        where = f" ({where})"
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
    note, help_ = _("note"), _("help")
    out: list[Line] = [(f"{pad}= {note}: {safe(n)}", "note") for n in d.notes
                       if citations or not (is_citation(n) or n.startswith("rule set"))]
    if d.help:
        out.append((f"{pad}= {help_}: {safe(d.help)}", "help"))
    return out


def diagnostic_text(d: Diagnostic) -> str:
    """A diagnostic as plain text, its lines joined."""
    return "\n".join(line for line, _style in diagnostic_lines(d))


def printed_lines(d: Diagnostic, more: int = 0) -> list[Line]:
    """The lines of one diagnostic as ``check`` prints it; ``more`` says how many identical
    ones it stands for besides."""
    lines = diagnostic_lines(d)
    if more:
        pad = lines[-1][0][: len(lines[-1][0]) - len(lines[-1][0].lstrip())] or "  "
        lines.append((f"{pad}= {_('note')}: " + ngettext(
            "{n} more of the same {severity} in this game is not shown (getaway-ref check --format json lists "
            "them all)",
            "{n} more of the same {severity} in this game are not shown (getaway-ref check --format json lists "
            "them all)", more).format(n=more, severity=_(d.severity)), "note"))
    return lines


FLOOD = 5  # more identical diagnostics than this in one game are shown once, with a count


def flood(diags: Sequence[Diagnostic]) -> list[tuple[Diagnostic, int]]:
    """The diagnostics to print, in order, each with how many identical ones it stands for
    besides: a flood of identical ones (same code and message, as one broken word repeated
    along a long line gives) is shown once, with how many there were."""
    same = Counter((d.code, d.message) for d in diags)
    shown: set[tuple[str, str]] = set()
    out: list[tuple[Diagnostic, int]] = []
    for d in diags:
        key = (d.code, d.message)
        if same[key] > FLOOD:
            if key in shown:
                continue
            shown.add(key)
            out.append((d, same[key] - 1))
        else:
            out.append((d, 0))
    return out


def game_line(path: str, g: GameOutcome) -> tuple[str, str, str]:
    """A game's summary line: (its facts, made safe to print; the verdict; the verdict's
    style)."""
    seats = g.seats
    bits = [f"{path}:{g.line}: " + _("game {number}").format(number=g.number)]
    if g.rules:
        bits.append(_("rules {rules}").format(rules=g.rules))
    if not g.judged:
        bits.append(_("not judged: {why}").format(why=g.stopped))
    else:
        bits.append(ngettext("{n} trick", "{n} tricks", g.tricks).format(n=g.tricks))
        if g.finished and g.loser is not None:
            bits.append(ngettext("{seat} lost with {n} card", "{seat} lost with {n} cards", g.legs).format(
                seat=seats[g.loser], n=g.legs) if g.legs else _("{seat} lost").format(seat=seats[g.loser]))
        elif g.stopped:
            # A game judged up to a broken line says so itself (its JudgedTo, in any language).
            bits.append(g.stopped if isinstance(g.stopped, JudgedTo) else _("replay stopped: {why}").format(why=g.stopped))
        else:
            bits.append(_("not finished"))
        if g.out_order:
            bits.append(_("got away: {seats}").format(seats=", ".join(seats[s] for s in g.out_order)))
        if g.sizes and not g.finished:
            bits.append(_("hands: {sizes}").format(sizes=", ".join(f"{seats[i]} {n}" for i, n in enumerate(g.sizes))))
    n = g.errors
    verdict = severity_counts([d.severity for d in g.diagnostics]) or _("ok")
    style = "green" if n == 0 else "bold red"
    return safe(" — ".join(bits)), verdict, style


# A count of findings by severity, each language's plural (engine/language.py).
def _counted(severity: str, n: int) -> str:
    if severity == ERROR:
        return ngettext("{n} error", "{n} errors", n).format(n=n)
    if severity == MISTAKE:
        return ngettext("{n} mistake", "{n} mistakes", n).format(n=n)
    return ngettext("{n} note", "{n} notes", n).format(n=n)


# The severities as words, for the catalogue (the head of a diagnostic keeps its code's English).
_SEVERITY_WORDS = (N_("error"), N_("mistake"), N_("note"))


def severity_counts(severities: list[str]) -> str:
    """``1 error, 2 mistakes, 1 note`` (empty for none)."""
    parts = []
    for sev in SEVERITIES:
        k = severities.count(sev)
        if k:
            parts.append(_counted(sev, k))
    return ", ".join(parts)


def totals_line(t: Totals) -> list[tuple[str, str]]:
    """The last line of a check, as pieces of text with their style names ('' for none)."""
    files = ngettext("{n} file", "{n} files", t["files"]).format(n=t["files"])
    games = ngettext("{n} game", "{n} games", t["games"]).format(n=t["games"])
    plays = ngettext("{n} play", "{n} plays", t["plays"]).format(n=t["plays"])
    out = [(_("checked {files}, {games}, {plays}: ").format(files=files, games=games, plays=plays), "")]
    if t["errors"]:
        sev = t.get("severities")
        said = severity_counts([k for k, v in sev.items() for _i in range(v)]) if sev else \
            _counted(ERROR, t["errors"])
        out.append((said, "bold red"))
    else:
        out.append((_("no errors"), "green"))
        notes = t.get("severities", {}).get(NOTE)
        if notes:
            out.append((f", {severity_counts([NOTE] * notes)}", ""))
    if t["unreadable"]:
        out += [(", ", ""), (_("{n} unreadable").format(n=t["unreadable"]), "bold red")]
    return out
