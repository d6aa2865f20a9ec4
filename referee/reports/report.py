"""The report of a check as pydantic models: the JSON of ``check --format json``, and the two
sinks that write it as a run streams (``json``: the whole Report; ``jsonl``: a diagnostic a line).

Records are plain dataclasses for speed; pydantic is used only here, at the edge, where a
game's findings become JSON (python-chess keeps its board as ints for the same reason).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Literal, TextIO, cast, get_args

from pydantic import BaseModel, Field

from referee.reports.diagnostics import ERROR, MISTAKE, NOTE, SEVERITIES, Diagnostic, title
from referee.reports.layout import window
from referee.reports.sink import EachDiagnostic, GameOutcome, Totals
from referee.reports.text import json_safe

Severity = Literal["error", "mistake", "note"]  # diagnostics.SEVERITIES, as a type the schema shows
assert get_args(Severity) == SEVERITIES

# 2: a long line's source_line is a window of it, from source_column (issue 25).
REPORT_SCHEMA_VERSION = 2


class Location(BaseModel):
    path: str
    line: int
    column: int
    offset: int = Field(description="0-based character offset in the file")
    end: int = Field(description="0-based character offset just past the text")


class RelatedModel(BaseModel):
    location: Location
    label: str


class PenaltyModel(BaseModel):
    """Ruling 1's penalty for a mistake at the table."""

    seat: str = Field(description="the offender, who picks up the trick")
    cards: int = Field(description="how many cards of the trick they pick up")
    trick: int
    leads: int | None = Field(description="the trick the offender leads next; null when the game ended")
    applied: bool = Field(description="whether the table applied the penalty (else the record went on as played)")


class DiagnosticModel(BaseModel):
    code: str
    severity: Severity = Field(
        description="error: the record is broken or cannot be true (S, R codes); mistake: a player's mistake "
                    "at the table (M codes); note: a hint that never changes the outcome")
    message: str
    game: int | None = None
    trick: int | None = None
    location: Location | None = None
    source_line: str = Field("", description=(
        "the line the diagnostic is on; a long line is quoted as a window around the location, as the text "
        "output quotes it (the location's offsets fetch the whole line from the file)"))
    source_column: int = Field(1, description="the column of the line at which source_line starts (1: the whole "
                                              "line, or its beginning)")
    label: str = ""
    notes: list[str] = []
    help: str | None = None
    related: list[RelatedModel] = []
    penalty: PenaltyModel | None = None

    @classmethod
    def of(cls, d: Diagnostic) -> DiagnosticModel:
        loc = None
        if d.span is not None and d.span.line:
            loc = Location(path=d.path, line=d.span.line, column=d.span.col, offset=d.span.start, end=d.span.end)
        # A window of the line, not all of it: each of a long line's diagnostics would
        # otherwise carry the whole line, and the report grow as the square of its length.
        start, end = window(len(d.source_line), d.span.col if d.span is not None else 1)
        return cls(
            code=d.code, severity=cast(Severity, d.severity), message=d.message, game=d.game, trick=d.trick,
            location=loc, source_line=d.source_line[start:end], source_column=start + 1, label=d.label,
            notes=d.notes, help=d.help,
            related=[RelatedModel(location=Location(path=d.path, line=r.span.line, column=r.span.col,
                                                    offset=r.span.start, end=r.span.end), label=r.label)
                     for r in d.related],
            penalty=PenaltyModel(seat=d.penalty.seat, cards=d.penalty.cards, trick=d.penalty.trick,
                                 leads=d.penalty.leads, applied=d.penalty.applied) if d.penalty else None,
        )


class GameSummary(BaseModel):
    game: int
    line: int
    seats: list[str]
    rules: str | None = Field(description="the rule set the game was judged by, as a [Rules] tag writes it")
    judged: bool
    stopped: str | None = None
    tricks: int
    out_order: list[str] = Field(description="seats in the order they got away")
    loser: str | None = None
    legs: int | None = Field(None, description="cards left in the loser's hand (Donkey's legs)")
    finished: bool
    hand_sizes: dict[str, int]
    errors: int
    warnings: int
    diagnostics: list[DiagnosticModel]

    @classmethod
    def of(cls, g: GameOutcome) -> GameSummary:
        """The summary of a check.GameOutcome."""
        seats = list(g.seats)
        return cls(
            game=g.number, line=g.line, seats=seats, rules=g.rules, judged=g.judged, stopped=g.stopped,
            tricks=g.tricks, out_order=[seats[s] for s in g.out_order],
            loser=seats[g.loser] if g.loser is not None else None, legs=g.legs, finished=g.finished,
            hand_sizes={seats[i]: n for i, n in enumerate(g.sizes)} if g.sizes else {},
            errors=g.errors, warnings=len(g.diagnostics) - g.errors,
            diagnostics=[DiagnosticModel.of(d) for d in g.diagnostics],
        )


class FileReport(BaseModel):
    # The games before what is known only once they are read: the report streams them.
    path: str
    games: list[GameSummary] = []
    readable: bool = True
    problem: str | None = Field(default=None, description="why the file could not be read")
    diagnostics: list[DiagnosticModel] = Field(default=[], description="file-level diagnostics (the version line)")


class Counts(BaseModel):
    """The run's diagnostics by severity, in the words the text's summary line uses."""

    errors: int = Field(description="record errors (S and R codes)")
    mistakes: int = Field(description="players' mistakes at the table (M codes)")
    notes: int = Field(description="notes; they never fail a check")


class Report(BaseModel):
    schema_version: int = REPORT_SCHEMA_VERSION
    tool: str = "getaway-ref"
    files: list[FileReport]
    games: int
    plays: int = Field(description="the plays of the games judged")
    errors: int = Field(deprecated=True, description="errors and mistakes together: what fails the check "
                                                     "(deprecated: see counts)")
    warnings: int = Field(deprecated=True, description="notes (deprecated: see counts.notes)")
    counts: Counts
    settings: list[str] = Field(description="the settings files the records were judged under, in the order "
                                            "first used; empty when none was")


def around(model: BaseModel, items: str, exclude_none: bool = False) -> tuple[str, str]:
    """The JSON of ``model`` in two parts, before and after the items of its list field
    ``items`` (left empty): a writer streams the items between the two, and the envelope
    around them is still the model's own serialisation."""
    text = model.model_dump_json(exclude_none=exclude_none)
    # A key is never inside a string (the quotes of a string are escaped), so the first
    # `"items":[]` is the field's.
    head, found, tail = text.partition(f'"{items}":[]')
    if not found:
        raise ValueError(f"{type(model).__name__}.{items} is not an empty list")
    return f'{head}"{items}":[', "]" + tail


class JsonSink:
    """The :class:`Report`, written by its models as the games are judged, so that memory
    stays flat on archives of any size: each game's :class:`GameSummary` on a line of its
    own as it comes, the file's and the run's envelopes (their :func:`around` parts) around
    them, the totals at the end."""

    def __init__(self, out: TextIO | None = None) -> None:
        raw = (out or sys.stdout).write

        def w(text: str) -> None:
            raw(json_safe(text))

        self.w = w
        self.w(around(Report(files=[], games=0, plays=0, errors=0, warnings=0, counts=Counts(errors=0, mistakes=0, notes=0),
                          settings=[]), "files")[0])
        self.files = 0
        self.games = 0
        self.path = ""
        self.pre: list[Diagnostic] = []

    def start_file(self, path: str) -> None:
        self.w(("," if self.files else "") + "\n" + around(FileReport(path=path), "games")[0])
        self.files += 1
        self.games = 0
        self.path = path
        self.pre = []

    def prelude(self, diags: list[Diagnostic]) -> None:
        self.pre.extend(diags)

    def game(self, g: GameOutcome) -> None:
        self.w(("," if self.games else "") + "\n" + GameSummary.of(g).model_dump_json())
        self.games += 1

    def end_file(self, problem: str | None) -> None:
        done = FileReport(path=self.path, readable=problem is None, problem=problem,
                          diagnostics=[DiagnosticModel.of(d) for d in self.pre])
        self.w(("\n" if self.games else "") + around(done, "games")[1])

    def finish(self, t: Totals) -> None:
        sev = t.get("severities", {})
        counts = Counts(errors=sev.get(ERROR, 0), mistakes=sev.get(MISTAKE, 0), notes=sev.get(NOTE, 0))
        report = Report(files=[], games=t["games"], plays=t["plays"], errors=t["errors"], warnings=t["warnings"],
                        counts=counts, settings=list(t.get("settings", [])))
        self.w(("\n" if self.files else "") + around(report, "files")[1] + "\n")


class DiagnosticLine(DiagnosticModel):
    """A line of ``check --format jsonl``: a diagnostic, with its file and its code's title."""

    path: str
    title: str


class UnreadableLine(BaseModel):
    """A line of ``check --format jsonl`` for a file that could not be read."""

    code: None = None
    severity: Literal["error"] = "error"
    path: str
    message: str = Field(description="why the file could not be read")


class JsonLinesSink(EachDiagnostic):
    """One JSON object per line per diagnostic, as it is found (``jq``-friendly, streamable):
    a :class:`DiagnosticLine`, or an :class:`UnreadableLine` (``"code": null``) for a file
    that cannot be read."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.path = ""

    def _write(self, line: BaseModel) -> None:
        self.out.write(json_safe(line.model_dump_json()) + "\n")

    def _emit(self, diags: Iterable[Diagnostic]) -> None:
        for d in diags:
            model = DiagnosticModel.of(d)
            self._write(DiagnosticLine(**dict(model), path=d.path or self.path, title=title(d.code)))

    def end_file(self, problem: str | None) -> None:
        if problem is not None:
            self._write(UnreadableLine(path=self.path, message=problem))

    def finish(self, totals: Totals) -> None:
        self.out.flush()
