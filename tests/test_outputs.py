"""What check's outputs carry for a reader: a window of a long line in the JSON reports (issue
25), the text in colour on a terminal and plain elsewhere (issue 24), and what CI reads of
SARIF, JUnit and GitHub annotations (issue 24)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

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
