"""check as clubs and CI use it: severities and the exit code, --select/--ignore,
--exit-zero, --statistics, --quiet, settings from pyproject.toml or getaway-ref.toml, the
output formats for tools, and the packaging a user relies on (--version, completion,
explain's list, export's formats)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from conftest import DATA, RECORDS, ROOT, run_cli

from referee.reports.diagnostics import CODES, Diagnostic

RENEGE = RECORDS / "dispute-renege-illegal.gwy"  # one M201, penalised
CLEAN = RECORDS / "pagat-example.gwy"
MIXED = RECORDS / "simulated-mistakes-illegal.gwy"
R104 = DATA / "invalid" / "R104-not-in-hand.gwy"


def jsonl(*args: str, cwd: Path | None = None) -> list[dict[str, Any]]:
    r = run_cli("check", *args, "--output-format", "jsonl", cwd=cwd)
    assert r.returncode in (0, 1), r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def codes(*args: str, cwd: Path | None = None) -> list[str]:
    return [d["code"] for d in jsonl(*args, cwd=cwd)]


# ---- severities and the exit code -------------------------------------------------------------------


def test_a_penalised_mistake_is_a_mistake_and_fails_by_default() -> None:
    (d,) = jsonl(str(RENEGE))
    assert d["code"] == "M201" and d["severity"] == "mistake"
    assert run_cli("check", str(RENEGE)).returncode == 1
    assert {d["severity"] for d in jsonl(str(R104)) if d["code"] == "R104"} == {"error"}
    assert run_cli("check", str(CLEAN)).returncode == 0


def test_notes_never_change_the_exit_code() -> None:
    from referee.reports.select import Policy

    def diag(code: str, severity: str) -> Diagnostic:
        return Diagnostic(code=code, message="m", span=None, severity=severity)

    p = Policy()
    assert p.keep([diag("R111", "note"), diag("M201", "warning")]) and p.exit_code() == 0
    p = Policy()
    p.keep([diag("M201", "error")])
    assert p.exit_code() == 1 and p.exit_code(unreadable=1) == 2


def test_ignore_a_group_makes_a_record_with_only_mistakes_pass() -> None:
    r = run_cli("check", str(RENEGE), "--ignore", "M")
    assert r.returncode == 0, r.stdout
    assert "M201" not in r.stdout
    r = run_cli("check", str(RENEGE), str(R104), "--ignore", "M")
    assert r.returncode == 1 and "R104" in r.stdout and "M201" not in r.stdout


def test_select_codes_and_prefixes_and_the_more_specific_entry_wins() -> None:
    everything = codes(str(MIXED), str(R104), str(RENEGE))
    assert {"M201", "R104"} <= set(everything)
    assert set(codes(str(MIXED), str(R104), str(RENEGE), "--select", "R1,M201")) == \
        {c for c in everything if c.startswith("R1") or c == "M201"}
    assert set(codes(str(MIXED), str(R104), str(RENEGE), "--select", "M", "--ignore", "M201")) == \
        {c for c in everything if c.startswith("M") and c != "M201"}
    assert codes(str(RENEGE), "--ignore", "M", "--select", "M201") == ["M201"]


def test_exit_zero_reports_everything_and_exits_0() -> None:
    r = run_cli("check", str(RENEGE), "--exit-zero")
    assert r.returncode == 0 and "M201" in r.stdout


def test_unknown_codes_are_a_usage_error_listing_the_valid_ones() -> None:
    r = run_cli("check", str(RENEGE), "--select", "M2,X12")
    assert r.returncode == 2
    assert "X12" in r.stderr and "M201" in r.stderr and "R115" in r.stderr and "Traceback" not in r.stderr


def test_statistics_counts_each_code_most_frequent_first() -> None:
    found = codes(str(MIXED), str(RENEGE))
    r = run_cli("check", str(MIXED), str(RENEGE), "--statistics", "-q")
    rows = [line.split() for line in r.stdout.splitlines() if re.match(r"^\s*\d+\s+[SRM]\d{3}\s", line)]
    got = [(int(row[0]), row[1]) for row in rows]
    expected = sorted(((found.count(c), c) for c in set(found)), key=lambda x: (-x[0], x[1]))
    assert got == expected and len(got) >= 2
    assert all(row[2] in ("error", "mistake", "note") for row in rows)


def test_by_default_a_check_prints_the_problems_and_the_summary_line_only() -> None:
    # As ruff and pgn-extract do: an archive of clean games is one line, not a line a game.
    plain = run_cli("check", str(RENEGE), str(CLEAN)).stdout
    assert "game 1 — rules pagat" not in plain
    assert "mistake[M201]" in plain and "renege: East played K♣" in plain
    assert plain.rstrip().splitlines()[-1].startswith("checked 2 files, 2 games")
    (only,) = run_cli("check", str(CLEAN)).stdout.strip().splitlines()
    assert only.startswith("checked 1 file, 1 game") and only.endswith("no errors")
    # -q stays, and says the same
    assert run_cli("check", str(RENEGE), str(CLEAN), "-q").stdout == plain


@pytest.mark.parametrize("flag", ["--show-games", "-v", "--verbose"])
def test_the_line_per_game_on_request(flag: str) -> None:
    r = run_cli("check", str(RENEGE), str(CLEAN), flag)
    lines = r.stdout.splitlines()
    assert sum(1 for line in lines if " — rules pagat" in line) == 2
    assert f"{CLEAN}:" in r.stdout and "mistake[M201]" in r.stdout
    # -q wins: a script's -q keeps its output whatever else is asked for
    assert " — rules pagat" not in run_cli("check", str(RENEGE), str(CLEAN), flag, "-q").stdout


# ---- settings files ------------------------------------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    d = tmp_path / "club" / "records" / "2024"
    d.mkdir(parents=True)
    shutil.copy(RENEGE, d / "renege.gwy")
    return tmp_path / "club"


def test_pyproject_settings_are_found_from_the_checked_file_upwards(project: Path) -> None:
    f = project / "records" / "2024" / "renege.gwy"
    assert run_cli("check", str(f)).returncode == 1
    (project / "pyproject.toml").write_text('[project]\nname = "club"\n\n[tool.getaway-ref]\nignore = ["M"]\n')
    assert run_cli("check", str(f)).returncode == 0
    # the command line wins
    r = run_cli("check", str(f), "--select", "M201", "--ignore", "R")
    assert r.returncode == 1 and "M201" in r.stdout
    # a nearer getaway-ref.toml governs its directory
    (project / "records" / "getaway-ref.toml").write_text('exit-zero = true\noutput-format = "github"\n')
    r = run_cli("check", "2024/renege.gwy", cwd=project / "records")
    assert r.returncode == 0 and r.stdout.startswith("::error file=2024/renege.gwy,line=17,col=28,")


def test_a_pyproject_without_our_table_is_passed_over(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.getaway-ref]\nignore = "M"\n')
    (project / "records" / "pyproject.toml").write_text('[project]\nname = "other"\n')
    assert run_cli("check", str(project / "records" / "2024" / "renege.gwy")).returncode == 0


def test_settings_give_the_default_rule_set(tmp_path: Path) -> None:
    src = (RECORDS / "anticlockwise.gwy").read_text(encoding="utf-8")
    f = tmp_path / "anti.gwy"
    f.write_text("".join(line for line in src.splitlines(True) if not line.startswith("[Rules")), encoding="utf-8")
    assert run_cli("check", str(f), "-q").returncode == 1
    (tmp_path / "getaway-ref.toml").write_text('rules = "pagat"\nset = { direction = "anticlockwise" }\n')
    r = run_cli("check", str(f), "--show-games")
    assert r.returncode == 0, r.stdout
    assert "rules pagat direction=anticlockwise" in r.stdout
    assert run_cli("check", str(f), "--set", "direction=clockwise", "-q").returncode == 1


@pytest.mark.parametrize("text, words", [
    ('[tool.getaway-ref]\nignroe = ["M"]\n', ["ignroe", "valid keys are", "select", "ignore", "exit-zero"]),
    ('[tool.getaway-ref]\nignore = ["Q7"]\n', ["Q7", "M201"]),
    ('[tool.getaway-ref]\noutput-format = "xml"\n', ["xml", "sarif", "junit"]),
    ('[tool.getaway-ref\n', ["not valid TOML"]),
])
def test_bad_settings_are_a_usage_error_naming_the_file(project: Path, text: str, words: list[str]) -> None:
    (project / "pyproject.toml").write_text(text)
    r = run_cli("check", str(project / "records" / "2024" / "renege.gwy"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "pyproject.toml" in r.stderr
    for w in words:
        assert w in r.stderr


# ---- output formats -------------------------------------------------------------------------------------------


def test_format_is_an_alias_of_output_format() -> None:
    a = run_cli("check", str(RENEGE), "--format", "jsonl").stdout
    assert a == run_cli("check", str(RENEGE), "--output-format", "jsonl").stdout and a.startswith("{")
    assert json.loads(run_cli("check", str(RENEGE), "-f", "json").stdout)["schema_version"] >= 1


def test_jsonl_is_one_diagnostic_a_line_matching_the_json_report() -> None:
    lines = jsonl(str(MIXED), str(RENEGE))
    report = json.loads(run_cli("check", str(MIXED), str(RENEGE), "--format", "json").stdout)
    from_report = [(d["code"], d["location"]["line"], d["location"]["column"])
                   for f in report["files"] for g in f["games"] for d in g["diagnostics"]]
    assert [(d["code"], d["location"]["line"], d["location"]["column"]) for d in lines] == from_report
    assert all(d["path"] in (str(MIXED), str(RENEGE)) and d["title"] == CODES[d["code"]].title for d in lines)


def test_github_annotations_carry_file_line_column_code_and_title() -> None:
    r = run_cli("check", str(RENEGE), str(R104), "--output-format", "github")
    assert r.returncode == 1
    notes = [line for line in r.stdout.splitlines() if line.startswith("::")]
    found = jsonl(str(RENEGE), str(R104))
    assert len(notes) == len(found) >= 2
    pat = re.compile(r"^::(error|warning|notice) file=([^,]+),line=(\d+),col=(\d+),endLine=\d+,endColumn=\d+,"
                     r"title=([SRM]\d{3}) ([^:]+)::(.*)$")
    for line, d in zip(notes, found):
        m = pat.match(line)
        assert m, line
        level, path, ln, col, code, title, message = m.groups()
        assert code == d["code"]
        assert (path, int(ln), int(col)) == (d["path"], d["location"]["line"], d["location"]["column"])
        assert title.startswith(CODES[code].title) and d["message"] in message and level == "error"
    assert "title=M201 renege (mistake)" in r.stdout
    assert r.stdout.splitlines()[-1].startswith("checked 2 files")


def _no_unknown_fields(model: Any, where: str = "log") -> None:
    """sarif-pydantic allows extra fields; a field it does not know is a misspelt one."""
    from pydantic import BaseModel

    if isinstance(model, BaseModel):
        # run.columnKind is SARIF 2.1.0's, but sarif-pydantic 0.6 does not model it
        extra = set(model.model_extra or {}) - {"$schema", "columnKind"}
        assert not extra, f"{where}: fields unknown to SARIF 2.1.0: {extra}"
        for name in type(model).model_fields:
            _no_unknown_fields(getattr(model, name), f"{where}.{name}")
    elif isinstance(model, list):
        for i, x in enumerate(model):
            _no_unknown_fields(x, f"{where}[{i}]")


def test_sarif_is_valid_sarif_2_1_0_with_rules_help_citations_and_regions() -> None:
    from sarif_pydantic import Sarif

    r = run_cli("check", str(RENEGE), str(R104), str(CLEAN), "--output-format", "sarif")
    assert r.returncode == 1
    log = Sarif.model_validate_json(r.stdout)
    _no_unknown_fields(log)
    assert log.version == "2.1.0"
    (run,) = log.runs
    rules = run.tool.driver.rules
    assert [x.id for x in rules] == list(CODES)
    renege = rules[list(CODES).index("M201")]
    assert renege.help.text.startswith(CODES["M201"].explanation)
    assert CODES["M201"].rule in renege.help.text and renege.properties["citation"] == CODES["M201"].rule
    found = jsonl(str(RENEGE), str(R104), str(CLEAN))
    assert [res.rule_id for res in run.results] == [d["code"] for d in found]
    for res, d in zip(run.results, found):
        assert rules[res.rule_index].id == res.rule_id
        loc = res.locations[0].physical_location
        # Relative to the root the log names (check ran in ROOT), as code scanning maps it.
        base = run.original_uri_base_ids[loc.artifact_location.uri_base_id].uri
        assert urljoin(base, loc.artifact_location.uri) == Path(d["path"]).as_uri()
        assert (loc.region.start_line, loc.region.start_column) == (d["location"]["line"], d["location"]["column"])
        assert loc.region.char_offset == d["location"]["offset"]
        assert loc.region.char_length == d["location"]["end"] - d["location"]["offset"]
        assert d["message"] in res.message.text


def test_sarif_related_locations_point_at_the_proof_of_a_renege() -> None:
    from sarif_pydantic import Sarif

    f = DATA / "invalid" / "M201-renege-proved.gwy"
    lines = jsonl(str(f))
    related = [r for d in lines for r in d["related"]]
    assert related, "the record proves its renege later"
    log = Sarif.model_validate_json(run_cli("check", str(f), "--output-format", "sarif").stdout)
    got = [(x.physical_location.region.start_line, x.message.text)
           for res in log.runs[0].results for x in (res.related_locations or [])]
    assert got == [(r["location"]["line"], r["label"]) for r in related]


def test_junit_has_one_test_case_per_game_and_fails_those_with_problems() -> None:
    series = RECORDS / "series.gwy"
    r = run_cli("check", str(series), str(RENEGE), "--output-format", "junit")
    root = ET.fromstring(r.stdout)
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == [str(series), str(RENEGE)]
    games = json.loads(run_cli("check", str(series), "--format", "json").stdout)["files"][0]["games"]
    cases = suites[0].findall("testcase")
    assert [c.get("name") for c in cases] == [f"game {g['game']}" for g in games]
    assert [c.find("failure") is not None for c in cases] == [bool(g["diagnostics"]) for g in games]
    (renege,) = suites[1].findall("testcase")
    failure = renege.find("failure")
    assert failure is not None and failure.get("type") == "M201" and "renege" in (failure.text or "")
    assert root.get("tests") == str(len(games) + 1)
    assert root.get("failures") == str(1 + sum(1 for g in games if g["diagnostics"]))


def test_an_unreadable_file_is_reported_in_every_format_and_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.gwy"
    bad.write_bytes(b"%gwy 1\n\xff\n")
    for fmt in ("github", "jsonl", "sarif", "junit"):
        r = run_cli("check", str(bad), "--output-format", fmt)
        assert r.returncode == 2, fmt
        assert "UTF-8" in r.stdout and "Traceback" not in r.stderr, fmt


# ---- packaging and help ------------------------------------------------------------------------------------------


def test_version_is_defined_once_and_shown() -> None:
    import tomllib
    from importlib.metadata import version

    import referee

    r = run_cli("--version")
    # the version, then which build runs (test_first_hour and test_compiled read the second line)
    assert r.returncode == 0 and r.stdout.splitlines()[0] == f"getaway-ref {referee.__version__}"
    assert version("getaway-ref") == referee.__version__
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project and "version" in project["dynamic"]


def test_shell_completion_is_offered() -> None:
    r = subprocess.run([sys.executable, "-m", "referee", "--show-completion", "bash"], capture_output=True, text=True,
                       cwd=ROOT, env={"PATH": "/usr/bin:/bin", "SHELL": "/bin/bash"})
    assert r.returncode == 0, r.stderr
    assert "complete" in r.stdout and "_COMPLETE" in r.stdout


def _complete_in_bash(tmp_path: Path, *words: str) -> list[str]:
    """What bash offers after ``getaway-ref WORDS`` with our completion script loaded (the
    last word is the one being completed)."""
    prog = tmp_path / "getaway-ref"
    prog.write_text(f"#!/bin/sh\nexec {sys.executable} -m referee \"$@\"\n", encoding="utf-8")
    prog.chmod(0o755)
    env = {"PATH": f"{tmp_path}:/usr/bin:/bin", "SHELL": "/bin/bash", "PYTHONPATH": str(ROOT)}
    script = subprocess.run(["getaway-ref", "--show-completion", "bash"], capture_output=True, text=True, env=env,
                            cwd=ROOT).stdout
    (tmp_path / "complete.bash").write_text(script, encoding="utf-8")
    line = " ".join(["getaway-ref", *words])
    r = subprocess.run(["bash", "-c", f'. {tmp_path}/complete.bash; COMP_WORDS=({line}); COMP_CWORD={len(words)}; '
                        '_getaway_ref_completion getaway-ref; printf "%s\\n" "${COMPREPLY[@]}"'],
                       capture_output=True, text=True, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return [w for w in r.stdout.splitlines() if w]


def test_bash_completes_checks_options_and_their_values_from_its_one_table(tmp_path: Path) -> None:
    from referee.commands.options import CHECK_OPTIONS
    from referee.reports.sink import FORMATS

    assert set(_complete_in_bash(tmp_path, "check", "--f")) == {
        n for o in CHECK_OPTIONS for n in o.names if n.startswith("--f")}
    assert _complete_in_bash(tmp_path, "check", "--format", "j") == [f for f in FORMATS if f.startswith("j")]
    assert "show" in _complete_in_bash(tmp_path, "sh")


def test_explain_without_a_code_lists_every_code_with_title_and_severity() -> None:
    r = run_cli("explain")
    assert r.returncode == 0
    rows = [line.split(None, 2) for line in r.stdout.splitlines()]
    assert [row[0] for row in rows] == list(CODES)
    for code, severity, title in rows:
        assert title == CODES[code].title
        # M206 is a hint since ruling 8: a higher card by choice is no mistake.
        want = "note" if code == "M206" else {"S": "error", "R": "error", "M": "mistake"}[code[0]]
        assert severity == want


def test_export_offers_only_the_format_it_writes() -> None:
    r = run_cli("export", "--help")
    (line,) = [x for x in r.stdout.splitlines() if "--format" in x]
    assert "json" in line and "text" not in line
    r = run_cli("export", str(CLEAN), "--format", "text")
    assert r.returncode == 2 and "text" in r.stderr


def test_licence_and_typing_marker_ship() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT" or project["license"] == {"text": "MIT"} or project["license"] == {"file": "LICENSE"}
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert (ROOT / "referee" / "py.typed").exists()
    assert "License :: OSI Approved :: MIT License" in project["classifiers"]
