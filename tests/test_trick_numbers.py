"""Issue 35, items 5 and 6: trick numbers (docs/rulings.md, rulings 5 and 10), through
``check --format json`` as a user runs it.

A wrong number is an error of the record, not of the play: one S008 for it, and the line is
judged where it stands, with everything after it. Each number is checked against the line's
place in the order written, not against the number written before it.
"""

from __future__ import annotations

import json

from conftest import DATA, run_cli

INVALID = DATA / "invalid"


def _found(path) -> tuple[dict, list[tuple[str, int, int]]]:
    r = run_cli("check", str(path), "--format", "json")
    assert r.returncode == 1, r.stdout + r.stderr
    (game,) = json.loads(r.stdout)["files"][0]["games"]
    return game, [(d["code"], d["location"]["line"], d["location"]["column"]) for d in game["diagnostics"]]


def test_a_skipped_number_is_one_s008_and_the_replay_goes_on():
    game, found = _found(INVALID / "S008-skipped-number-judged-on.gwy")
    # the misnumbered line's play after a tochoo, and the lead out of turn a line later
    assert found == [("S008", 17, 1), ("M202", 17, 28), ("M203", 18, 18)]
    assert game["stopped"] is None and game["tricks"] == 3  # judged to its last line
    s008 = game["diagnostics"][0]
    assert s008["message"] == "expected trick 2, found trick 3"


def test_after_two_swapped_lines_a_right_number_is_right():
    game, found = _found(INVALID / "S008-swapped-numbers-then-right.gwy")
    assert found == [("S008", 17, 1), ("S008", 18, 1)]
    assert [d["message"] for d in game["diagnostics"]] == ["expected trick 2, found trick 3",
                                                            "expected trick 3, found trick 2"]
    assert game["stopped"] is None and game["tricks"] == 5


def test_a_wrong_first_number_and_lines_that_go_on_from_it(tmp_path):
    # 2, 3 where 1, 2 are due: one S008 (the first line); the line after it, going on from
    # it, is no second error, and the game is judged to its end
    head = (INVALID / "S008-swapped-numbers-then-right.gwy").read_text(encoding="utf-8").split("West 13\n", 1)[0]
    f = tmp_path / "first.gwy"
    f.write_text(head + "West 13\n2. West A♠, North J♠, East A♥, South 10♠\n3. West 5♥, North 9♥, East Q♥, South J♥\n",
                 encoding="utf-8")
    game, found = _found(f)
    assert found == [("S008", 16, 1)]
    assert game["diagnostics"][0]["message"] == "expected trick 1, found trick 2"
    assert game["stopped"] is None and game["tricks"] == 2
