"""What check's outputs carry for a reader: a window of a long line in the JSON reports (issue
25), the text in colour on a terminal and plain elsewhere (issue 24), and what CI reads of
SARIF, JUnit and GitHub annotations (issue 24)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from conftest import RECORDS, run_cli

RENEGE = RECORDS / "dispute-renege-illegal.gwy"
SERIES = RECORDS / "series.gwy"
HEAD = '%gwy 1\n%game\n[Seats "North East South West"]\ndeal\nNorth 13\nEast 13\nSouth 13\nWest 13\n'


# ---- a long line is quoted as a window, with where it starts --------------------------------------------


def test_json_quotes_a_window_of_a_long_line_that_the_location_maps_back_to_the_file(tmp_path: Path) -> None:
    line = "1. " + ", ".join(["North Zz"] * 300)
    p = tmp_path / "long.gwy"
    p.write_text(HEAD + line + "\n", encoding="utf-8")
    text = p.read_text(encoding="utf-8")
    for fmt in ("json", "jsonl"):
        r = run_cli("check", "--format", fmt, str(p))
        assert r.returncode == 1, r.stderr
        if fmt == "json":
            diags = [d for f in json.loads(r.stdout)["files"] for g in f["games"] for d in g["diagnostics"]]
        else:
            diags = [json.loads(row) for row in r.stdout.splitlines()]
        assert len(diags) >= 300
        for d in diags:
            loc = d["location"]
            assert loc["line"] == 9
            quoted, start = d["source_line"], d["source_column"] - 1
            # A bounded piece of the line, at the place it says, holding the span...
            assert 0 < len(quoted) <= 160 < len(line)
            assert line[start:start + len(quoted)] == quoted
            assert start <= loc["column"] - 1 < start + len(quoted)
            # ...and the offsets fetch the text from the file itself.
            assert text[loc["offset"]:loc["end"]] in ("Zz", "North Zz")


def test_json_quotes_a_short_line_whole(tmp_path: Path) -> None:
    p = tmp_path / "short.gwy"
    p.write_text(HEAD + "1. West A♠, North Zz\n", encoding="utf-8")
    r = run_cli("check", "--format", "jsonl", str(p))
    (d,) = [json.loads(row) for row in r.stdout.splitlines()]
    assert d["code"] == "S002", d
    assert d["source_line"] == "1. West A♠, North Zz" and d["source_column"] == 1


# ---- the JSON shapes are their models' ---------------------------------------------------------------------


def test_the_json_report_is_exactly_what_its_model_writes(tmp_path: Path) -> None:
    from referee.reports.report import Report

    bad = tmp_path / "bad.gwy"
    bad.write_text("%gwy 1\n%game\n[Seats \"A B\"]\ndeal\nA 26\nB 26\n1. A QX\n", encoding="utf-8")
    files = [str(RENEGE), str(SERIES), str(tmp_path / "missing.gwy"), str(bad)]
    for jobs in ("1", "2"):
        r = run_cli("check", "--format", "json", "--jobs", jobs, *files)
        assert r.returncode == 2, r.stderr
        report = Report.model_validate_json(r.stdout)
        # Every field the model has, and nothing else: the model is the one source of the shape.
        assert json.loads(r.stdout) == report.model_dump(mode="json")
        assert [f.path for f in report.files] == files
        assert [f.readable for f in report.files] == [True, True, False, True]
        assert len(report.files[1].games) == 5 and report.games == 1 + 5 + 1
        assert report.files[2].problem and not report.files[2].games


def test_each_jsonl_line_is_what_its_model_writes(tmp_path: Path) -> None:
    from referee.reports.report import DiagnosticLine, UnreadableLine

    r = run_cli("check", "--format", "jsonl", str(RENEGE), str(tmp_path / "missing.gwy"))
    first, last = r.stdout.splitlines()
    assert json.loads(first) == DiagnosticLine.model_validate_json(first).model_dump(mode="json")
    assert json.loads(first)["code"] == "M201"
    assert json.loads(last) == UnreadableLine.model_validate_json(last).model_dump(mode="json")
    assert json.loads(last)["code"] is None


# ---- what CI reads: SARIF's paths, JUnit's times, GitHub's order ----------------------------------------


def sarif(*args: str, cwd: Path) -> Any:
    from sarif_pydantic import Sarif

    r = run_cli("check", "--format", "sarif", *args, cwd=cwd)
    assert r.returncode in (1, 2), r.stderr
    return Sarif.model_validate_json(r.stdout).runs[0]


def test_sarif_paths_are_relative_to_the_directory_checked_from_or_absolute_outside_it(tmp_path: Path) -> None:
    project, outside = tmp_path / "club", tmp_path / "bad"
    (project / "games").mkdir(parents=True)
    outside.mkdir()
    inside = project / "games" / "renege game.gwy"
    inside.write_text(RENEGE.read_text(encoding="utf-8"), encoding="utf-8")
    (outside / "empty.gwy").write_text(RENEGE.read_text(encoding="utf-8"), encoding="utf-8")
    run = sarif("games/renege game.gwy", "../bad/empty.gwy", cwd=project)
    (root,) = run.original_uri_base_ids.items()
    assert root[0] == "%SRCROOT%" and root[1].uri == project.as_uri() + "/"
    here, there = (res.locations[0].physical_location.artifact_location for res in run.results)
    assert (here.uri, here.uri_base_id) == ("games/renege%20game.gwy", "%SRCROOT%")
    assert urljoin(root[1].uri, here.uri) == inside.as_uri()
    # Outside the root: no "../" for a scanner to misplace, the file's own URI.
    assert there.uri == (outside / "empty.gwy").as_uri() and there.uri_base_id is None
    # An absolute path inside the root is relative to it as well.
    run = sarif(str(inside), cwd=project)
    assert run.results[0].locations[0].physical_location.artifact_location.uri == "games/renege%20game.gwy"


def test_junit_cases_and_suites_say_how_long_they_took(tmp_path: Path) -> None:
    r = run_cli("check", "--format", "junit", str(SERIES), str(RENEGE), str(tmp_path / "missing.gwy"))
    root = ET.fromstring(r.stdout)
    suites = root.findall("testsuite")
    assert len(suites) == 3
    for suite in suites:
        cases = suite.findall("testcase")
        assert cases and all(float(c.get("time", "-1")) >= 0 for c in cases)
        # A suite's time holds its cases' (each judged within the file's run).
        assert float(suite.get("time", "-1")) >= sum(float(c.get("time", "0")) for c in cases) - 0.001
    assert float(root.get("time", "-1")) == pytest.approx(sum(float(s.get("time", "0")) for s in suites), abs=0.002)


def test_junit_written_as_it_goes_is_the_document_elementtree_would_lay_out(tmp_path: Path) -> None:
    # The report is written piece by piece (a case at a time, through spool files) so that an
    # archive of any size fits in memory; what a CI reads must still be one well-formed
    # document, laid out as ElementTree lays out the same tree, with the counts that hold.
    empty = tmp_path / "empty.gwy"
    empty.write_text("%gwy 1\n", encoding="utf-8")
    r = run_cli("check", "--format", "junit", str(SERIES), str(RENEGE), str(empty), str(tmp_path / "missing.gwy"))
    assert r.stdout.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    root = ET.fromstring(r.stdout)
    again = ET.fromstring(r.stdout)
    ET.indent(again)
    assert r.stdout.split("\n", 1)[1] == ET.tostring(again, encoding="unicode") + "\n"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == [str(SERIES), str(RENEGE), str(empty), str(tmp_path / "missing.gwy")]
    for key, child in (("tests", "testcase"), ("failures", "testcase/failure"), ("errors", "testcase/error")):
        assert [int(s.get(key, "-1")) for s in suites] == [len(s.findall(child)) for s in suites]
        assert int(root.get(key, "-1")) == len(root.findall("testsuite/" + child))
    assert suites[2].findall("testcase") == [] and int(root.get("failures", "0")) > 0


def test_github_annotations_come_in_order_of_file_and_line(tmp_path: Path) -> None:
    mixed = RECORDS / "simulated-mistakes-illegal.gwy"
    files = [str(mixed), str(tmp_path / "missing.gwy"), str(RENEGE), str(RECORDS / "pagat-example.gwy"), str(mixed)]
    r = run_cli("check", "--format", "github", *files)
    assert r.returncode == 2
    found = re.findall(r"^::\w+ file=([^,]+)(?:,line=(\d+),col=(\d+))?", r.stdout, re.M)
    places = [(path, int(line or 0), int(col or 0)) for path, line, col in found]
    assert places == sorted(places)  # by file, then line, then column
    assert {p for p, _, _ in places} == {str(mixed), str(tmp_path / "missing.gwy"), str(RENEGE)}
    assert len([p for p in places if p[0] == str(mixed)]) >= 6  # the file checked twice, its annotations together
    # the summary stays last; the missing file is unreadable, not checked
    assert r.stdout.splitlines()[-1].startswith("checked 4 files") and r.stdout.rstrip().endswith("1 unreadable")
