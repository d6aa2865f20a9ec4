"""Judging up to the break: a game with a line that cannot be read is replayed up to that
line, with every finding before it, and the rest is reported as not judged ("judged to
line N"). The oracle of the property: the same record with the text ending just before the
broken line. Whatever the referee finds before the break, it finds in that shorter text."""

from __future__ import annotations

import json

from conftest import DATA, RECORDS, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import referee
from referee.judging.referee import Referee
from referee.reports.diagnostics import JudgedTo

RECORD_TEXTS = {p.name: p.read_text(encoding="utf-8") for p in sorted(RECORDS.glob("*.gwy"))}


def _facts(diags: list) -> list[tuple[str, int, int, str]]:
    # The result tag speaks of the whole game: not checked on a game judged in part.
    return [(d.code, d.span.line if d.span else 0, d.span.col if d.span else 0, d.message)
            for d in diags if d.code != "R112"]


def _game_at(games: list, line: int):  # type: ignore[no-untyped-def]
    found = None
    for g in games:
        if g.first_line <= line:
            found = g
    return found


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(RECORD_TEXTS)), st.data())
def test_a_line_cut_anywhere_is_judged_up_to_the_break(name: str, data: st.DataObject) -> None:
    lines = RECORD_TEXTS[name].split("\n")
    n = data.draw(st.integers(0, len(lines) - 1), label="line")
    cut = data.draw(st.integers(0, len(lines[n])), label="at")
    text = "\n".join(lines[:n] + [lines[n][:cut]] + lines[n + 1:])
    games = referee.parse(text)
    game = _game_at(games, n + 1)
    if game is None:
        return
    res = Referee().judge(game)
    if not isinstance(res.stopped, JudgedTo):
        # Not judged in part: either the cut line still reads, or the break is in the
        # header or the deal and nothing is replayed.
        assert not game.errors or not res.judged or res.stopped
        return
    brk = min(d.span.line for d in game.errors)
    assert res.stopped.line == brk and res.stopped.startswith(f"judged to line {brk - 1}:")
    # Every reading error is still reported, after what was judged.
    assert [d for d in res.diagnostics if d.code.startswith("S")][-len(game.errors):] == game.errors
    before = [d for d in res.diagnostics if not d.code.startswith("S") or d.span.line < brk]
    # The oracle: the text ending just before the broken line, judged whole.
    short = referee.parse("\n".join(text.split("\n")[:brk - 1]))
    oracle = Referee().judge(_game_at(short, n + 1))
    assert _facts(before) == _facts(oracle.diagnostics)
    assert res.tricks == oracle.tricks and res.sizes == oracle.sizes and res.game.plays == oracle.game.plays


PROVED = (DATA / "invalid" / "M201-renege-proved.gwy").read_text(encoding="utf-8")
# Its first game, with the line of trick 8 being typed (line 22): "8. North ".
TYPING = "\n".join(PROVED.split("\n")[:21] + ["8. North "]) + "\n"


def test_check_judges_a_game_up_to_the_line_being_typed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # East's K♣ in trick 4 is a renege that East's 4♥ in trick 7 proves (the record's
    # .expected file); the line being typed below does not hide it.
    f = tmp_path / "typing.gwy"
    f.write_text(TYPING, encoding="utf-8")
    r = run_cli("check", "--show-games", str(f))
    assert r.returncode == 1
    shown = [line.split(":")[0] for line in r.stdout.splitlines() if line.startswith(("error[", "mistake["))]
    assert shown == ["mistake[M201]", "error[S001]"]
    assert "typing.gwy:15:28" in r.stdout and "typing.gwy:22:" in r.stdout
    assert "judged to line 21: line 22 cannot be read" in r.stdout
    j = json.loads(run_cli("check", "--output-format", "json", str(f)).stdout)
    (g,) = j["files"][0]["games"]
    assert g["judged"] and g["stopped"].startswith("judged to line 21")
    assert g["tricks"] == 7 and [d["code"] for d in g["diagnostics"]] == ["M201", "S001"]
    assert g["hand_sizes"] == {"North": 14, "East": 7, "South": 9, "West": 6}  # the counts of line 21


def test_a_typo_in_the_middle_leaves_the_game_judged_to_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # A typo in trick 6: the renege of trick 4 is not proved yet (its proof is in trick 7),
    # so nothing is found before the break, and the game says how far it was judged.
    f = tmp_path / "typo.gwy"
    f.write_text(PROVED.replace("6. South 5♦, West K♠", "6. South 5♦, West KX", 1), encoding="utf-8")
    r = run_cli("check", "--show-games", str(f))
    assert r.returncode == 1
    assert "game 1" in r.stdout and "judged to line 17: line 18 cannot be read" in r.stdout
    assert "error[S002]" in r.stdout and "mistake[M201]" in r.stdout  # game 2's renege, judged whole
    assert r.stdout.splitlines()[-1].startswith("checked 1 file, 2 games")


def test_show_and_legal_stop_at_the_break(tmp_path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "typing.gwy"
    f.write_text(TYPING, encoding="utf-8")
    r = run_cli("show", str(f), "--format", "json")
    assert r.returncode == 1, r.stderr
    m = json.loads(r.stdout)
    assert m["stopped"].startswith("judged to line 21") and m["trick"] == 8
    assert [d["code"] for d in m["diagnostics"]] == ["M201", "S001"]
    assert {h["seat"]: h["cards"] for h in m["hands"]} == {"North": 14, "East": 7, "South": 9, "West": 6}
    r = run_cli("legal", str(f))
    assert r.returncode == 1
    assert "judged to line 21" in r.stdout


def test_a_break_in_the_deal_leaves_the_game_not_judged(tmp_path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "deal.gwy"
    f.write_text(TYPING.replace("West 13", "West 1X"), encoding="utf-8")
    r = run_cli("check", "--show-games", str(f))
    assert r.returncode == 1 and "not judged" in r.stdout and "judged to line" not in r.stdout
