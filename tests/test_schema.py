"""The JSON Schemas are published in schema/getaway-ref.schema.json; a change to the models
must come with a new copy of that file (and a thought for the programs that read it)."""

from __future__ import annotations

import json

from conftest import ROOT, run_cli

SCHEMA = ROOT / "schema" / "getaway-ref.schema.json"
REGENERATE = "regenerate it with: getaway-ref schema > schema/getaway-ref.schema.json"


def test_committed_schema_matches_the_models():
    assert SCHEMA.is_file(), f"{SCHEMA} is missing; {REGENERATE}"
    r = run_cli("schema")
    assert r.returncode == 0, r.stderr
    committed = SCHEMA.read_text(encoding="utf-8")
    assert json.loads(r.stdout) == json.loads(committed), (
        f"the record/report models changed and {SCHEMA.name} is out of date; {REGENERATE}"
    )
    assert r.stdout == committed, f"{SCHEMA.name} is not byte for byte the output; {REGENERATE}"


def test_schema_describes_the_record_and_the_report():
    from referee.reports.export import RecordFile
    from referee.reports.report import Report

    data = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert set(data) == {"record", "report", "report_line"}
    assert data["record"] == RecordFile.model_json_schema()
    assert data["report"] == Report.model_json_schema()
    assert {"files", "games", "plays", "errors", "warnings"} <= set(data["report"]["properties"])
    assert {"path", "version", "games"} <= set(data["record"]["properties"])


def test_export_and_report_validate_against_the_schema(tmp_path):
    import pytest

    jsonschema = pytest.importorskip("jsonschema")
    data = json.loads(SCHEMA.read_text(encoding="utf-8"))
    record = ROOT / "records" / "pagat-example.gwy"
    r = run_cli("export", str(record))
    assert r.returncode == 0, r.stderr
    jsonschema.validate(json.loads(r.stdout), data["record"])
    r = run_cli("check", "--format", "json", str(record))
    assert r.returncode == 0, r.stderr
    jsonschema.validate(json.loads(r.stdout), data["report"])
    # Every shape check writes: a report with problems and an unreadable file, and its lines.
    bad = [str(ROOT / "records" / "simulated-mistakes-illegal.gwy"), str(tmp_path / "missing.gwy")]
    r = run_cli("check", "--format", "json", *bad)
    assert r.returncode == 2, r.stderr
    jsonschema.validate(json.loads(r.stdout), data["report"])
    r = run_cli("check", "--format", "jsonl", *bad)
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(lines) >= 5 and lines[-1]["code"] is None
    for line in lines:
        jsonschema.validate(line, data["report_line"])
