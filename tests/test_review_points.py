"""The review as a table meets it (issue 35 items 8 and 10, issue 36 item 4): every seat's class
at any point (``review --at END`` / ``--after TRICK``, ``ask --review``), the review text's
words (plurals, why the chances need not add up, a mistake where it happened, a progress bar on
a terminal only), and the work budget that bounds a game's review, counted in positions."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import DATA, ROOT, run_cli
from draw_enumeration import draw_share, enumerated_class

from referee.engine.state import Engine
from referee.judging.replay import replay
from referee.notation.reader import read
from referee.players.solver import Solver
from referee.review.command import counted, text_position, text_review
from referee.review.review import GAME_WORK, review_game, review_position

POSITION = DATA / "review" / "position-draw.gwy"
LAST_CARD = DATA / "valid" / "last-card-draw.gwy"


def _end(path, number: int = 1, after: int | None = None) -> Engine:
    """The position at the end of a game's record (or after the trick), cards known by
    elimination placed, as the review reads it."""
    game = list(read(str(path)))[number - 1]
    steps = list(replay(game, snapshots=True))
    if after is not None:
        k = max(j for j, s in enumerate(steps) if s.trick == after)
        e = steps[k + 1].before if k + 1 < len(steps) else steps[k].after
    else:
        w = replay(game)
        list(w)
        e = w.result.engine
    return e if e.all_known() else e.resolved()


def test_a_position_with_no_plays_gets_every_seats_class_from_review_at_end() -> None:
    """The record is a position block and nothing else: `review --at END --format json` lists
    every seat with its class, each the class the enumeration of every line finds."""
    r = run_cli("review", str(POSITION), "--at", "END", "--format", "json")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    doc = json.loads(r.stdout)
    (pos,) = doc["positions"]
    assert doc["games"] == [] and pos["where"] == "end" and pos["trick"] is None
    e = _end(POSITION)
    seats = pos["seats"]
    assert [s["seat"] for s in pos["standings"]] == seats
    for s in pos["standings"]:
        x = seats.index(s["seat"])
        want = "got away" if x in e.view().out_order else enumerated_class(e, x, limit=200_000)[0]
        assert s["class"] == want, s
    text = run_cli("review", str(POSITION), "--at", "end")
    assert text.returncode == 0
    for s in pos["standings"]:
        assert f"  {s['seat']} {'has got away' if s['class'] == 'got away' else s['class'] + ':'}" in text.stdout


def test_after_a_trick_where_a_draw_decides_each_open_seat_gets_its_share_of_the_draws() -> None:
    """After trick 30 of the last-card record North has won with its last card and draws from a
    waste pile of 47 cards: no seat is lost for the worst card, each open seat's share of the
    draws that leave it safe is the enumeration's."""
    r = run_cli("review", str(LAST_CARD), "--game", "1", "--after", "30", "--format", "json")
    assert r.returncode == 0, r.stderr
    (pos,) = json.loads(r.stdout)["positions"]
    e = _end(LAST_CARD, 1, after=30)
    by_seat = {s["seat"]: s for s in pos["standings"]}
    assert by_seat["North"]["draws"] == 47
    for name, s in by_seat.items():
        x = pos["seats"].index(name)
        if s["class"] == "open":
            assert (s["draws_safe"], s["draws"]) == draw_share(e, x, limit=200_000), name
    assert by_seat["West"]["class"] == "got away"
    assert {s["class"] for s in by_seat.values()} == {"open", "got away"}


def test_ask_review_without_a_seat_gives_every_seats_class_after_the_trick() -> None:
    r = run_cli("ask", str(LAST_CARD), "--game", "1", "--trick", "30", "--review")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    line = r.stdout.splitlines()[-1]
    assert line.startswith("After trick 30 (2 cards held): North open:")
    assert "safe after 5 of the 47 cards the draw may bring" in line and "West has got away" in line
    same = run_cli("review", str(LAST_CARD), "--game", "1", "--after", "30")
    for seat in ("North", "East", "South"):
        clause = next(ln.strip() for ln in same.stdout.splitlines() if ln.strip().startswith(seat))
        assert clause in line


def test_a_position_the_search_cannot_settle_within_its_budget_says_so() -> None:
    game = next(iter(read(str(POSITION))))
    r = review_position(game, solver=Solver(max_nodes=3))
    assert {t.cls for t in r.standings} == {"unsettled", "got away"}
    text = text_position(r)
    assert "East not settled: the search stopped at its budget of 3 positions" in text


def test_the_points_asked_for_are_checked() -> None:
    bad = run_cli("review", str(POSITION), "--at", "start")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "--at takes END" in bad.stderr
    none = run_cli("review", str(LAST_CARD), "--game", "1", "--after", "99")
    assert none.returncode == 1 and "no trick 99" in none.stdout and "Traceback" not in none.stderr


def test_counts_are_plural_where_they_should_be() -> None:
    assert [counted(n, w) for n, w in ((1, "blunder"), (2, "blunder"), (0, "inaccuracy"), (1, "inaccuracy"),
                                       (3, "only move"))] == [
        "1 blunder", "2 blunders", "0 inaccuracies", "1 inaccuracy", "3 only moves"]
    r = run_cli("review", "records/review-blunder.gwy", "--samples", "0")
    assert "North: 2 blunders, 0 mistakes, 0 inaccuracies, 0 only moves; East: 0 blunders," in r.stdout
    assert "South: 1 blunder, 0 mistakes" in r.stdout


def test_the_chances_say_why_they_need_not_add_up_and_a_mistake_is_named_where_it_happened() -> None:
    r = run_cli("review", "records/dispute-renege-illegal.gwy", "--samples", "1")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "need not add up to 100%" in out and "each seat is judged from its own view" in out
    assert ("  line 17, trick 5: East K♣: a mistake, not reviewed: M201 renege: East played K♣ on a heart lead "
            "while holding 9♥; penalised: East picks up the 3 cards of trick 5 and leads trick 6") in out


def _sixteen(tmp_path):
    path = tmp_path / "sixteen.gwy"
    r = run_cli("simulate", "--players", "16", "--set", "packs=2", "--seed", "1", "-o", str(path))
    assert r.returncode == 0, r.stderr
    return next(iter(read(str(path))))


def test_a_game_of_sixteen_with_two_packs_is_reviewed_within_its_work_budget(tmp_path) -> None:
    """Issue 36: the review of any legal game is bounded by a budget of positions (search nodes
    and rollout plays), counted, not timed. Sixteen players and two packs would spend some
    thirty million positions at twelve samples a play; with a budget it spends no more than
    the budget (and one play's share), the plays past their share get fewer samples, and the
    text says so."""
    game = _sixteen(tmp_path)
    budget = 40_000
    r = review_game(game, work=budget)
    assert r.work <= budget * 1.1
    assert r.fewer_from is not None and any(p.samples < 12 for p in r.plays)
    assert any(p.chances for p in r.plays)  # what the budget allowed was still spent on chances
    assert "the work budget (40,000 positions a game) was too short for 12 samples a play" in text_review(r)


def test_a_four_player_game_spends_a_tenth_of_the_budget_or_more_and_keeps_its_samples() -> None:
    """The default budget is about ten four-player games' work, and leaves a four-player
    game's samples alone: the bound costs the usual game nothing."""
    game = next(iter(read("records/full-game.gwy")))
    r = review_game(game)
    assert r.fewer_from is None and all(p.samples in (0, 12) for p in r.plays)
    assert 10 * r.work >= GAME_WORK, r.work


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_a_progress_bar_on_a_terminal_and_none_in_a_pipe() -> None:
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, COLUMNS="100", PYTHONPATH=str(ROOT))
    child = pexpect.spawn(sys.executable, ["-m", "referee", "review", "records/full-game.gwy"], cwd=str(ROOT),
                          env=env, encoding="utf-8", timeout=120)
    child.expect("reviewing")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    piped = subprocess.run([sys.executable, "-m", "referee", "review", "records/full-game.gwy"], cwd=str(ROOT),
                           capture_output=True, text=True, timeout=300, env=env)
    assert piped.returncode == 0 and piped.stderr == "" and "reviewing" not in piped.stdout


def test_where_no_exact_class_can_be_given_each_seat_gets_its_chance_from_its_own_view() -> None:
    r = run_cli("review", "records/full-game.gwy", "--after", "5", "--samples", "2", "--format", "json")
    assert r.returncode == 0, r.stderr
    (pos,) = json.loads(r.stdout)["positions"]
    assert pos["held"] == 40 and "more than the window of 10" in pos["why_unknown"]
    assert [s["class"] for s in pos["standings"]] == ["unknown"] * 4
    assert all(0 < s["chance"] < 1 for s in pos["standings"])


def test_the_json_names_the_mistake_where_the_text_does() -> None:
    r = run_cli("review", "records/dispute-renege-illegal.gwy", "--samples", "0", "--format", "json")
    plays = json.loads(r.stdout)["games"][0]["plays"]
    assert [p["mistake"].split(" ")[0] for p in plays] == ["", "", "M201"]
    assert "penalised: East picks up the 3 cards of trick 5" in plays[-1]["mistake"]
