"""``check --output-format`` for tools: ``github``, ``sarif`` and ``junit``.

Each is a sink (:class:`referee.reports.sink.Sink`): ``check`` calls it as it streams a run.
The other formats have their own modules, each imported only by the runs that write it:
``text`` is ``console.py`` (rich), ``json`` and ``jsonl`` are ``report.py`` (pydantic).
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path, PurePosixPath
from typing import Any, TextIO
from urllib.parse import quote

from referee import __version__
from referee.notation.record import Span
from referee.reports.diagnostics import CODES, ERROR, MISTAKE, NOTE, Diagnostic, title
from referee.reports.layout import diagnostic_text
from referee.reports.select import code_severity, severity_of
from referee.reports.sink import GameOutcome, Sink, Totals

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _end_col(span: Span) -> int:
    """The column just past the diagnostic's text (the span stays on its line)."""
    return span.col + max(1, span.end - span.start)


def summary_line(t: Totals) -> str:
    def n(k: int, word: str) -> str:
        return f"{k} {word}{'s' if k != 1 else ''}"

    verdict = n(t["errors"], "problem") if t["errors"] else "no problems"
    unread = f", {t['unreadable']} unreadable" if t.get("unreadable") else ""
    return f"checked {n(t['files'], 'file')}, {n(t['games'], 'game')}, {n(t['plays'], 'play')}: {verdict}{unread}"


# ---- github: workflow commands -----------------------------------------------------------------------


def _gh_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_prop(s: str) -> str:
    return _gh_data(s).replace(":", "%3A").replace(",", "%2C")


GH_LEVEL = {ERROR: "error", MISTAKE: "error", NOTE: "notice"}


class GithubSink:
    """GitHub Actions workflow commands: one ``::error file=...,line=...::`` annotation per
    diagnostic, shown on the pull request's lines; mistakes fail the check as errors do."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.path = ""

    def _emit(self, diags: Iterable[Diagnostic]) -> None:
        for d in diags:
            sev = severity_of(d)
            props = [f"file={_gh_prop(d.path or self.path)}"]
            span = d.span
            if span is not None and span.line:
                props += [f"line={span.line}", f"col={span.col}", f"endLine={span.line}",
                          f"endColumn={_end_col(span)}"]
            heading = f"{d.code} {title(d.code)}" + (" (mistake)" if sev == MISTAKE else "")
            props.append(f"title={_gh_prop(heading)}")
            self.out.write(f"::{GH_LEVEL[sev]} {','.join(props)}::{_gh_data(f'{d.code} {d.message_with_help}')}\n")

    def start_file(self, path: str) -> None:
        self.path = path

    def prelude(self, diags: list[Diagnostic]) -> None:
        self._emit(diags)

    def game(self, g: GameOutcome) -> None:
        self._emit(g.diagnostics)

    def end_file(self, problem: str | None) -> None:
        if problem is not None:
            self.out.write(f"::error file={_gh_prop(self.path)},title=unreadable::{_gh_data(problem)}\n")

    def finish(self, totals: Totals) -> None:
        self.out.write(summary_line(totals) + "\n")
        self.out.flush()


# ---- SARIF 2.1.0 ----------------------------------------------------------------------------------------

SARIF_LEVEL = {ERROR: "error", MISTAKE: "error", NOTE: "note"}


def _uri(path: str) -> str:
    p = Path(path)
    if p.is_absolute():
        return p.as_uri()
    return quote(str(PurePosixPath(*p.parts)))


def sarif_rules() -> list[dict[str, Any]]:
    """Every code as a SARIF reportingDescriptor: title, explanation, the rule it cites."""
    rules = []
    for code, c in CODES.items():
        help_text = f"{c.explanation}\n\nRule: {c.rule}."
        if c.example:
            help_text += f"\n\nExample:\n{c.example}"
        rules.append({
            "id": code,
            "name": "".join(w.capitalize() for w in c.title.replace("-", " ").split() if w.isalnum()) or code,
            "shortDescription": {"text": c.title},
            "fullDescription": {"text": c.explanation},
            "help": {"text": help_text},
            "defaultConfiguration": {"level": SARIF_LEVEL[code_severity(code)]},
            "properties": {"citation": c.rule, "severity": code_severity(code)},
        })
    return rules


def _region(span: Span) -> dict[str, int]:
    return {"startLine": span.line, "startColumn": span.col, "endLine": span.line,
            "endColumn": _end_col(span),
            "charOffset": span.start, "charLength": max(0, span.end - span.start)}


class SarifSink:
    """One SARIF 2.1.0 log for the run: the rules (every code, with its help text and the
    rule it cites) and a result per diagnostic with its region; written at the end."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.path = ""
        self.index = {code: i for i, code in enumerate(CODES)}
        self.results: list[dict[str, Any]] = []
        self.notifications: list[dict[str, Any]] = []

    def _location(self, path: str, span: Span | None, label: str = "") -> dict[str, Any]:
        loc: dict[str, Any] = {"physicalLocation": {"artifactLocation": {"uri": _uri(path)}}}
        if span is not None and span.line:
            loc["physicalLocation"]["region"] = _region(span)
        if label:
            loc["message"] = {"text": label}
        return loc

    def _emit(self, diags: Iterable[Diagnostic]) -> None:
        for d in diags:
            sev = severity_of(d)
            path = d.path or self.path
            result: dict[str, Any] = {
                "ruleId": d.code,
                "level": SARIF_LEVEL[sev],
                "message": {"text": d.message_with_help},
                "locations": [self._location(path, d.span)],
                "properties": {"severity": sev, "game": d.game, "trick": d.trick},
            }
            if d.code in self.index:
                result["ruleIndex"] = self.index[d.code]
            related = [self._location(path, r.span, r.label) for r in d.related]
            if related:
                for i, r in enumerate(related):
                    r["id"] = i
                result["relatedLocations"] = related
            self.results.append(result)

    def start_file(self, path: str) -> None:
        self.path = path

    def prelude(self, diags: list[Diagnostic]) -> None:
        self._emit(diags)

    def game(self, g: GameOutcome) -> None:
        self._emit(g.diagnostics)

    def end_file(self, problem: str | None) -> None:
        if problem is not None:
            self.notifications.append({
                "level": "error", "message": {"text": f"{self.path}: {problem}"},
                "locations": [self._location(self.path, None)]})

    def log(self, totals: Totals) -> dict[str, Any]:
        invocation: dict[str, Any] = {"executionSuccessful": not totals.get("unreadable")}
        if self.notifications:
            invocation["toolExecutionNotifications"] = self.notifications
        return {
            "$schema": SARIF_SCHEMA,
            "version": "2.1.0",
            "runs": [{
                "tool": {"driver": {"name": "getaway-ref", "version": __version__,
                                    "semanticVersion": __version__, "rules": sarif_rules()}},
                "columnKind": "unicodeCodePoints",
                "invocations": [invocation],
                "results": self.results,
            }],
        }

    def finish(self, totals: Totals) -> None:
        self.out.write(json.dumps(self.log(totals), indent=2, ensure_ascii=False) + "\n")
        self.out.flush()


# ---- JUnit XML --------------------------------------------------------------------------------------------


class JunitSink:
    """JUnit XML: a test suite per file, a test case per game (and one for the file's own
    header when it has diagnostics); a game with an error or a mistake fails, notes pass."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.root = ET.Element("testsuites", name="getaway-ref check")
        self.suite: ET.Element | None = None
        self.path = ""

    def start_file(self, path: str) -> None:
        self.path = path
        self.suite = ET.SubElement(self.root, "testsuite", name=path)

    def _case(self, name: str, line: int, diags: Sequence[Diagnostic]) -> None:
        assert self.suite is not None, "start_file comes first"
        case = ET.SubElement(self.suite, "testcase", name=name, classname=self.path, file=self.path,
                                  line=str(line))
        failing = [d for d in diags if severity_of(d) != NOTE]
        if failing:
            first = failing[0]
            message = f"{first.code} {first.message}" + (f" (+{len(failing) - 1} more)" if len(failing) > 1 else "")
            f = ET.SubElement(case, "failure", message=message, type=first.code)
            f.text = "\n".join(diagnostic_text(d) for d in failing)
        notes = [d for d in diags if severity_of(d) == NOTE]
        if notes:
            out = ET.SubElement(case, "system-out")
            out.text = "\n".join(diagnostic_text(d) for d in notes)

    def prelude(self, diags: list[Diagnostic]) -> None:
        if diags:
            self._case("file header", 1, diags)

    def game(self, g: GameOutcome) -> None:
        self._case(f"game {g.number}", g.line, g.diagnostics)

    def end_file(self, problem: str | None) -> None:
        assert self.suite is not None, "start_file comes first"
        if problem is not None:
            case = ET.SubElement(self.suite, "testcase", name="read", classname=self.path, file=self.path)
            ET.SubElement(case, "error", message=problem, type="unreadable")
        cases = self.suite.findall("testcase")
        self.suite.set("tests", str(len(cases)))
        self.suite.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
        self.suite.set("errors", str(sum(1 for c in cases if c.find("error") is not None)))

    def finish(self, totals: Totals) -> None:
        suites = self.root.findall("testsuite")
        for k in ("tests", "failures", "errors"):
            self.root.set(k, str(sum(int(s.get(k, "0")) for s in suites)))
        ET.indent(self.root)
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        self.out.write(ET.tostring(self.root, encoding="unicode") + "\n")
        self.out.flush()


SINKS: dict[str, Callable[[], Sink]] = {
    "github": GithubSink,
    "sarif": SarifSink,
    "junit": JunitSink,
}


def make_sink(fmt: str) -> Sink:
    """The sink for a tool format (``text`` and ``json`` are check's own)."""
    return SINKS[fmt]()
