"""``check --output-format`` for tools: ``github`` and ``junit``.

Each is a sink (:class:`referee.reports.sink.Sink`): ``check`` calls it as it streams a run.
The other formats have their own modules, each imported only by the runs that write it:
``text`` is ``console.py``, ``json`` and ``jsonl`` are ``report.py`` and ``sarif`` is
``sarif.py`` (pydantic).
"""

from __future__ import annotations

import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from typing import TextIO

from referee.notation.record import Span
from referee.reports.diagnostics import ERROR, MISTAKE, NOTE, Diagnostic, title
from referee.reports.layout import diagnostic_text
from referee.reports.select import severity_of
from referee.reports.sink import EachDiagnostic, GameOutcome, Sink, Totals


def end_column(span: Span) -> int:
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


class GithubSink(EachDiagnostic):
    """GitHub Actions workflow commands: one ``::error file=...,line=...::`` annotation per
    diagnostic, shown on the pull request's lines; mistakes fail the check as errors do.

    In order of file and line, whatever the order of the arguments and of the findings (the
    referee may find a problem further down before one further up): so each annotation is
    kept, as its line of text, until the end. A run for CI annotates few lines (GitHub shows
    only the first few dozen); an archive's full report is ``--format json``, which streams."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.path = ""
        self.notes: list[tuple[str, int, int, str]] = []  # (file, line, column, the command)

    def _emit(self, diags: Iterable[Diagnostic]) -> None:
        for d in diags:
            sev = severity_of(d)
            path = d.path or self.path
            props = [f"file={_gh_prop(path)}"]
            span = d.span
            if span is not None and span.line:
                props += [f"line={span.line}", f"col={span.col}", f"endLine={span.line}",
                          f"endColumn={end_column(span)}"]
            heading = f"{d.code} {title(d.code)}" + (" (mistake)" if sev == MISTAKE else "")
            props.append(f"title={_gh_prop(heading)}")
            line, col = (span.line, span.col) if span is not None else (0, 0)
            self.notes.append((path, line, col,
                               f"::{GH_LEVEL[sev]} {','.join(props)}::{_gh_data(f'{d.code} {d.message_with_help}')}\n"))

    def end_file(self, problem: str | None) -> None:
        if problem is not None:
            self.notes.append((self.path, 0, 0,
                               f"::error file={_gh_prop(self.path)},title=unreadable::{_gh_data(problem)}\n"))

    def finish(self, totals: Totals) -> None:
        self.notes.sort(key=lambda n: n[:3])  # stable: one place's annotations keep their order
        self.out.write("".join(n[3] for n in self.notes))
        self.out.write(summary_line(totals) + "\n")
        self.out.flush()


# ---- JUnit XML --------------------------------------------------------------------------------------------


class JunitSink:
    """JUnit XML: a test suite per file, a test case per game (and one for the file's own
    header when it has diagnostics); a game with an error or a mistake fails, notes pass.

    ``time`` (seconds) on each case is how long reading and judging its game took (in
    whichever process judged it), on each suite how long the check spent on its file, on the
    whole the sum of the suites: so a CI's report of slow tests points at slow games and
    files."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.root = ET.Element("testsuites", name="getaway-ref check")
        self.suite: ET.Element | None = None
        self.path = ""
        self.began = time.perf_counter()

    def start_file(self, path: str) -> None:
        self.path = path
        self.suite = ET.SubElement(self.root, "testsuite", name=path)
        self.began = time.perf_counter()

    def _case(self, name: str, line: int, diags: Sequence[Diagnostic], seconds: float = 0.0) -> None:
        assert self.suite is not None, "start_file comes first"
        case = ET.SubElement(self.suite, "testcase", name=name, classname=self.path, file=self.path,
                             line=str(line), time=f"{seconds:.6f}")
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
        self._case(f"game {g.number}", g.line, g.diagnostics, g.seconds)

    def end_file(self, problem: str | None) -> None:
        assert self.suite is not None, "start_file comes first"
        if problem is not None:
            case = ET.SubElement(self.suite, "testcase", name="read", classname=self.path, file=self.path,
                                 time="0.000")
            ET.SubElement(case, "error", message=problem, type="unreadable")
        cases = self.suite.findall("testcase")
        self.suite.set("tests", str(len(cases)))
        self.suite.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
        self.suite.set("errors", str(sum(1 for c in cases if c.find("error") is not None)))
        self.suite.set("time", f"{time.perf_counter() - self.began:.3f}")

    def finish(self, totals: Totals) -> None:
        suites = self.root.findall("testsuite")
        for k in ("tests", "failures", "errors"):
            self.root.set(k, str(sum(int(s.get(k, "0")) for s in suites)))
        self.root.set("time", f"{sum(float(s.get('time', '0')) for s in suites):.3f}")
        ET.indent(self.root)
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        self.out.write(ET.tostring(self.root, encoding="unicode") + "\n")
        self.out.flush()


SINKS: dict[str, Callable[[], Sink]] = {
    "github": GithubSink,
    "junit": JunitSink,
}


def make_sink(fmt: str) -> Sink:
    """The sink for a tool format (``text`` and ``json`` are check's own)."""
    return SINKS[fmt]()
