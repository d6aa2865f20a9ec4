"""``check --output-format`` for tools: ``github`` and ``junit``.

Each is a sink (:class:`referee.reports.sink.Sink`): ``check`` calls it as it streams a run.
The other formats have their own modules, each imported only by the runs that write it:
``text`` is ``console.py``, ``json`` and ``jsonl`` are ``report.py`` and ``sarif`` is
``sarif.py`` (pydantic).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
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
    files.

    The counts stand on the opening tags, before what they count, so each case is written
    as it comes to a spool file (this file's cases), and each finished suite to another:
    memory holds one case at a time however large the archive. The document is the one
    ``ET.indent`` would lay out, written piece by piece."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.suites: TextIO = tempfile.TemporaryFile("w+", encoding="utf-8")  # the finished suites
        self.cases: TextIO | None = None  # this file's cases
        self.path = ""
        self.began = time.perf_counter()
        self.counts = [0, 0, 0]  # this file's tests, failures, errors
        self.totals = [0, 0, 0]  # every file's
        self.seconds = 0.0  # the suites' times, as written (the whole's is their sum)
        self.files = 0

    def start_file(self, path: str) -> None:
        self.path = path
        self.cases = tempfile.TemporaryFile("w+", encoding="utf-8")
        self.counts = [0, 0, 0]
        self.began = time.perf_counter()

    def _put(self, case: ET.Element) -> None:
        assert self.cases is not None, "start_file comes first"
        ET.indent(case, space="  ", level=2)
        self.cases.write("    " + ET.tostring(case, encoding="unicode") + "\n")
        self.counts[0] += 1

    def _case(self, name: str, line: int, diags: Sequence[Diagnostic], seconds: float = 0.0) -> None:
        case = ET.Element("testcase", name=name, classname=self.path, file=self.path, line=str(line),
                          time=f"{seconds:.6f}")
        failing = [d for d in diags if severity_of(d) != NOTE]
        if failing:
            first = failing[0]
            message = f"{first.code} {first.message}" + (f" (+{len(failing) - 1} more)" if len(failing) > 1 else "")
            f = ET.SubElement(case, "failure", message=message, type=first.code)
            f.text = "\n".join(diagnostic_text(d) for d in failing)
            self.counts[1] += 1
        notes = [d for d in diags if severity_of(d) == NOTE]
        if notes:
            out = ET.SubElement(case, "system-out")
            out.text = "\n".join(diagnostic_text(d) for d in notes)
        self._put(case)

    def prelude(self, diags: list[Diagnostic]) -> None:
        if diags:
            self._case("file header", 1, diags)

    def game(self, g: GameOutcome) -> None:
        self._case(f"game {g.number}", g.line, g.diagnostics, g.seconds)

    def end_file(self, problem: str | None) -> None:
        assert self.cases is not None, "start_file comes first"
        if problem is not None:
            case = ET.Element("testcase", name="read", classname=self.path, file=self.path, time="0.000")
            ET.SubElement(case, "error", message=problem, type="unreadable")
            self.counts[2] += 1
            self._put(case)
        took = f"{time.perf_counter() - self.began:.3f}"
        self.seconds += float(took)
        self.files += 1
        for k in range(3):
            self.totals[k] += self.counts[k]
        suite = _tag("testsuite", name=self.path, tests=str(self.counts[0]), failures=str(self.counts[1]),
                     errors=str(self.counts[2]), time=took)
        self.cases.seek(0)
        if self.counts[0]:
            self.suites.write(f"  {suite}>\n")
            shutil.copyfileobj(self.cases, self.suites)
            self.suites.write("  </testsuite>\n")
        else:
            self.suites.write(f"  {suite} />\n")
        self.cases.close()
        self.cases = None

    def finish(self, totals: Totals) -> None:
        tests, failures, errors = self.totals
        root = _tag("testsuites", name="getaway-ref check", tests=str(tests), failures=str(failures),
                    errors=str(errors), time=f"{self.seconds:.3f}")
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        if self.files:
            self.out.write(f"{root}>\n")
            self.suites.seek(0)
            shutil.copyfileobj(self.suites, self.out)
            self.out.write("</testsuites>\n")
        else:
            self.out.write(f"{root} />\n")
        self.suites.close()
        self.out.flush()


def _tag(element: str, **attrs: str) -> str:
    """An element's opening tag without its closing ``>``, its attributes escaped by
    ElementTree as in a whole document."""
    return ET.tostring(ET.Element(element, attrs), encoding="unicode")[:-3]


SINKS: dict[str, Callable[[], Sink]] = {
    "github": GithubSink,
    "junit": JunitSink,
}


def make_sink(fmt: str) -> Sink:
    """The sink for a tool format (``text`` and ``json`` are check's own)."""
    return SINKS[fmt]()
