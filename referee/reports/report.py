"""The report of a check as pydantic models: the JSON of ``check --format json``, and the two
sinks that write it as a run streams (``json``: the whole Report; ``jsonl``: a diagnostic a line).

Records are plain dataclasses for speed; pydantic is used only here, at the edge, where a
game's findings become JSON (python-chess keeps its board as ints for the same reason).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Literal, TextIO, cast, get_args

from pydantic import BaseModel, Field

from referee.reports.diagnostics import ERROR, MISTAKE, NOTE, SEVERITIES, Diagnostic, title
from referee.reports.sink import GameOutcome, Totals
from referee.reports.text import json_safe

Severity = Literal["error", "mistake", "note"]  # diagnostics.SEVERITIES, as a type the schema shows
assert get_args(Severity) == SEVERITIES

REPORT_SCHEMA_VERSION = 1


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
    source_line: str = ""
    label: str = ""
    notes: list[str] = []
    help: str | None = None
    related: list[RelatedModel] = []
    penalty: PenaltyModel | None = None

    @classmethod
    def of(cls, d: Diagnostic) -> "DiagnosticModel":
        loc = None
        if d.span is not None and d.span.line:
            loc = Location(path=d.path, line=d.span.line, column=d.span.col, offset=d.span.start, end=d.span.end)
        return cls(
            code=d.code, severity=cast(Severity, d.severity), message=d.message, game=d.game, trick=d.trick,
            location=loc, source_line=d.source_line, label=d.label, notes=d.notes, help=d.help,
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
    def of(cls, g: GameOutcome) -> "GameSummary":
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
    path: str
    readable: bool = True
    problem: str | None = Field(None, description="why the file could not be read")
    diagnostics: list[DiagnosticModel] = Field([], description="file-level diagnostics (the version line)")
    games: list[GameSummary] = []


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


class JsonSink:
    """The :class:`Report`, written as the games are judged, so that memory stays flat on
    archives of any size: one game's summary at a time, the totals at the end. The text is
    what dumping the whole Report would give."""

    def __init__(self, out: TextIO | None = None) -> None:
        raw = (out or sys.stdout).write

        def w(text: str) -> None:
            raw(json_safe(text))

        self.w = w
        self.w('{\n  "schema_version": %d,\n  "tool": "getaway-ref",\n  "files": [' % REPORT_SCHEMA_VERSION)
        self.files = 0
        self.games = 0
        self.pre: list[Diagnostic] = []

    def start_file(self, path: str) -> None:
        self.w(("," if self.files else "") + '\n    {"path": %s, "games": [' % json.dumps(path, ensure_ascii=False))
        self.files += 1
        self.games = 0
        self.pre = []

    def prelude(self, diags: list[Diagnostic]) -> None:
        self.pre.extend(diags)

    def game(self, g: GameOutcome) -> None:
        self.w(("," if self.games else "") + "\n      " + GameSummary.of(g).model_dump_json())
        self.games += 1

    def end_file(self, problem: str | None) -> None:
        diags = "[" + ", ".join(DiagnosticModel.of(d).model_dump_json() for d in self.pre) + "]"
        self.w(("\n    " if self.games else "") + '], "readable": %s, "problem": %s, "diagnostics": %s}'
               % ("true" if problem is None else "false", json.dumps(problem, ensure_ascii=False), diags))

    def finish(self, t: Totals) -> None:
        sev = t.get("severities", {})
        counts = Counts(errors=sev.get(ERROR, 0), mistakes=sev.get(MISTAKE, 0), notes=sev.get(NOTE, 0))
        self.w('\n  ],\n  "games": %d,\n  "plays": %d,\n  "errors": %d,\n  "warnings": %d,\n  "counts": %s,\n'
               '  "settings": %s\n}\n'
               % (t["games"], t["plays"], t["errors"], t["warnings"], counts.model_dump_json(indent=2).replace("\n", "\n  "),
                  json.dumps(t.get("settings", []), ensure_ascii=False, indent=2).replace("\n", "\n  ")))


class JsonLinesSink:
    """One JSON object per line per diagnostic, as it is found (``jq``-friendly, streamable);
    a file that cannot be read gives a line with ``"code": null`` and its problem."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.path = ""

    def _emit(self, diags: Iterable[Diagnostic]) -> None:
        for d in diags:
            data = DiagnosticModel.of(d).model_dump(mode="json")
            data["path"] = d.path or self.path
            data["title"] = title(d.code)
            self.out.write(json.dumps(data, ensure_ascii=False) + "\n")

    def start_file(self, path: str) -> None:
        self.path = path

    def prelude(self, diags: list[Diagnostic]) -> None:
        self._emit(diags)

    def game(self, g: GameOutcome) -> None:
        self._emit(g.diagnostics)

    def end_file(self, problem: str | None) -> None:
        if problem is not None:
            self.out.write(json.dumps({"code": None, "severity": ERROR, "path": self.path, "message": problem},
                                      ensure_ascii=False) + "\n")

    def finish(self, totals: Totals) -> None:
        self.out.flush()
