"""``check --output-format sarif``: a SARIF 2.1.0 log (OASIS), written by pydantic models of
the part of SARIF it uses, so that the models are the one source of its shape.

The log streams like the JSON report: the run's envelope (the tool, every code as a rule,
the root its paths are relative to), then a result per diagnostic as it is found, then the
invocation (did every file read?) at the end; memory stays flat on any archive.

Paths are relative to ``%SRCROOT%``, the directory check runs in, given in
``originalUriBaseIds``, as code scanning maps results to a repository's files; a file
outside it (``../other/x.gwy``) gets an absolute ``file:`` URI, which needs no root.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import Literal, TextIO
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from referee.notation.record import Span
from referee.reports.diagnostics import CODES, ERROR, MISTAKE, NOTE, Diagnostic
from referee.reports.formats import end_column
from referee.reports.report import around
from referee.reports.select import code_severity, severity_of
from referee.reports.sink import EachDiagnostic, Totals
from referee.reports.text import json_safe

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"

Level = Literal["error", "warning", "note", "none"]
LEVEL: dict[str, Level] = {ERROR: "error", MISTAKE: "error", NOTE: "note"}


class _Sarif(BaseModel):
    """SARIF's properties are camelCase; what is not given is left out (exclude_none)."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, serialize_by_alias=True)


class Message(_Sarif):
    text: str


class Region(_Sarif):
    start_line: int
    start_column: int
    end_line: int
    end_column: int
    char_offset: int
    char_length: int


class ArtifactLocation(_Sarif):
    uri: str
    uri_base_id: str | None = None


class PhysicalLocation(_Sarif):
    artifact_location: ArtifactLocation
    region: Region | None = None


class Location(_Sarif):
    id: int | None = None
    physical_location: PhysicalLocation
    message: Message | None = None


class ResultProperties(_Sarif):
    severity: str
    game: int | None
    trick: int | None


class Result(_Sarif):
    rule_id: str
    rule_index: int | None = None
    level: Level
    message: Message
    locations: list[Location]
    related_locations: list[Location] | None = None
    properties: ResultProperties


class Configuration(_Sarif):
    level: Level


class RuleProperties(_Sarif):
    citation: str
    severity: str


class ReportingDescriptor(_Sarif):
    id: str
    name: str
    short_description: Message
    full_description: Message
    help: Message
    default_configuration: Configuration
    properties: RuleProperties


class ToolComponent(_Sarif):
    name: str
    version: str
    semantic_version: str
    rules: list[ReportingDescriptor]


class Tool(_Sarif):
    driver: ToolComponent


class Notification(_Sarif):
    level: Level
    message: Message
    locations: list[Location]


class Invocation(_Sarif):
    execution_successful: bool
    tool_execution_notifications: list[Notification] | None = None


class Run(_Sarif):
    tool: Tool
    original_uri_base_ids: dict[str, ArtifactLocation] | None = None
    column_kind: Literal["unicodeCodePoints", "utf16CodeUnits"] = "unicodeCodePoints"
    results: list[Result]  # before the invocation, which is known only at the end: they stream
    invocations: list[Invocation]


class SarifLog(_Sarif):
    schema_: str = Field(default=SARIF_SCHEMA, alias="$schema")
    version: Literal["2.1.0"] = "2.1.0"
    runs: list[Run]


def rules() -> list[ReportingDescriptor]:
    """Every code as a SARIF rule: title, explanation, the rule it cites."""
    out = []
    for code, c in CODES.items():
        help_text = f"{c.explanation}\n\nRule: {c.rule}."
        if c.example:
            help_text += f"\n\nExample:\n{c.example}"
        out.append(ReportingDescriptor(
            id=code,
            name="".join(w.capitalize() for w in c.title.replace("-", " ").split() if w.isalnum()) or code,
            short_description=Message(text=c.title), full_description=Message(text=c.explanation),
            help=Message(text=help_text), default_configuration=Configuration(level=LEVEL[code_severity(code)]),
            properties=RuleProperties(citation=c.rule, severity=code_severity(code)),
        ))
    return out


def artifact(path: str, root: Path) -> ArtifactLocation:
    """Where a file is, for code scanning: relative to ``root`` (%SRCROOT%) when it lies
    inside it, else an absolute ``file:`` URI."""
    p = Path(os.path.abspath(path))  # not resolved: a link inside the root stays inside it
    try:
        inside = p.relative_to(root)
    except ValueError:
        return ArtifactLocation(uri=p.as_uri())
    return ArtifactLocation(uri=quote(str(PurePosixPath(*inside.parts))), uri_base_id=SRCROOT)


def _region(span: Span) -> Region:
    return Region(start_line=span.line, start_column=span.col, end_line=span.line, end_column=end_column(span),
                  char_offset=span.start, char_length=max(0, span.end - span.start))


class SarifSink(EachDiagnostic):
    """One SARIF 2.1.0 log for the run: the rules (every code, with its help text and the
    rule it cites) and a result per diagnostic with its region, streamed as found.
    ``version`` is the tool's, given by the command that runs the check (a report never
    imports the package above it)."""

    def __init__(self, version: str, out: TextIO | None = None, root: Path | None = None) -> None:
        self.version = version
        self.out = out or sys.stdout
        self.root = Path(os.path.abspath(root or Path.cwd()))
        self.path = ""
        self.index = {code: i for i, code in enumerate(CODES)}
        self.results = 0
        self.notifications: list[Notification] = []
        self.out.write(json_safe(around(self._log([]), "results", exclude_none=True)[0]))

    def _log(self, invocations: list[Invocation]) -> SarifLog:
        base = ArtifactLocation(uri=self.root.as_uri() + "/")  # a directory's URI ends with a slash
        tool = Tool(driver=ToolComponent(name="getaway-ref", version=self.version, semantic_version=self.version,
                                         rules=rules()))
        return SarifLog(runs=[Run(tool=tool, original_uri_base_ids={SRCROOT: base}, results=[],
                                  invocations=invocations)])

    def _location(self, path: str, span: Span | None, label: str = "", id: int | None = None) -> Location:
        return Location(id=id, physical_location=PhysicalLocation(
            artifact_location=artifact(path, self.root),
            region=_region(span) if span is not None and span.line else None),
            message=Message(text=label) if label else None)

    def _emit(self, diags: Iterable[Diagnostic]) -> None:
        for d in diags:
            sev = severity_of(d)
            path = d.path or self.path
            related = [self._location(path, r.span, r.label, i) for i, r in enumerate(d.related)]
            result = Result(rule_id=d.code, rule_index=self.index.get(d.code), level=LEVEL[sev],
                            message=Message(text=d.message_with_help), locations=[self._location(path, d.span)],
                            related_locations=related or None,
                            properties=ResultProperties(severity=sev, game=d.game, trick=d.trick))
            self.out.write(("," if self.results else "") + "\n" + json_safe(result.model_dump_json(exclude_none=True)))
            self.results += 1

    def end_file(self, problem: str | None) -> None:
        if problem is not None:
            self.notifications.append(Notification(level="error", message=Message(text=f"{self.path}: {problem}"),
                                                   locations=[self._location(self.path, None)]))

    def finish(self, totals: Totals) -> None:
        invocation = Invocation(execution_successful=not totals.get("unreadable"),
                                tool_execution_notifications=self.notifications or None)
        tail = around(self._log([invocation]), "results", exclude_none=True)[1]
        self.out.write(("\n" if self.results else "") + json_safe(tail) + "\n")
        self.out.flush()
