"""Unicode case mapping never turns a letter into a suit or a rank, and a seats error
without a [Seats] tag still has a place (issue 13, items 5 and 7)."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli


@pytest.mark.parametrize("line,code", [
    ("1. West Aſ", "S002"),  # LATIN SMALL LETTER LONG S upper-cases to S
    ("1. West ıS", "S002"),  # DOTLESS I is no rank
])
def test_a_non_ascii_letter_is_no_card(tmp_path, line, code):
    p = tmp_path / "x.gwy"
    p.write_text('%gwy 1\n%game\n[Seats "North East South West"]\ndeal\nNorth 13\nEast 13\nSouth 13\nWest 13\n'
                 + line + "\n", encoding="utf-8")
    r = run_cli("check", "--format", "json", str(p))
    rep = json.loads(r.stdout)
    assert [d["code"] for g in rep["files"][0]["games"] for d in g["diagnostics"]] == [code]


def test_trumps_long_s_is_not_clubs(tmp_path):
    p = tmp_path / "t.gwy"
    p.write_text('%gwy 1\n%game\n[Seats "North East South West"]\n[Rules "donkey"]\nposition\nNorth 5♣\n'
                 "East 2♦\nSouth 9♥\nWest 8♣\nwaste rest\ntrumps ſ\nlead North\ntrick 5\n", encoding="utf-8")
    r = run_cli("check", str(p))
    assert r.returncode == 1 and "found 'ſ'" in r.stdout


def test_wrong_number_of_seats_without_a_seats_tag_is_located(tmp_path):
    p = tmp_path / "s.gwy"
    p.write_text("%gwy 1\n%game\ndeal\nA 52\n", encoding="utf-8")
    rep = json.loads(run_cli("check", "--format", "json", str(p)).stdout)
    (d,) = [d for g in rep["files"][0]["games"] for d in g["diagnostics"]]
    assert d["code"] == "S006" and d["location"]["line"] == 3


def test_show_json_writes_bidi_controls_as_escapes(tmp_path):
    p = tmp_path / "b.gwy"
    p.write_text('%gwy 1\n%game\n[Event "evil \u202e title"]\n[Seats "North East South West"]\ndeal\n'
                 "North 13\nEast 13\nSouth 13\nWest 13\n", encoding="utf-8")
    r = run_cli("show", str(p), "--format", "json")
    assert r.returncode == 0, r.stderr
    assert "\u202e" not in r.stdout and "\\u202e" in r.stdout
    assert json.loads(r.stdout)["event"] == "evil \u202e title"
