"""The review's answer for ``ask``, ``show --narrate`` and ``live``'s hint (issue 28), at the
API level (referee.review.ask): it tells the verdicts that ``review``'s text, its JSON and the
replay page tell, one verdict wherever a player reads it."""

from __future__ import annotations

import json
import re

import pytest
from conftest import RECORDS, run_cli

import referee
from referee.review.ask import could_get_away, get_away_answer, hint, trick_review_sentence
from referee.review.review import review_game
from referee.table.page import review_data

BLUNDER = RECORDS / "review-blunder.gwy"
SAMPLES = "4"


@pytest.fixture(scope="module")
def reviewed() -> tuple[referee.Game, object]:
    game = next(iter(referee.read(BLUNDER)))
    return game, review_game(game, samples=int(SAMPLES))


def test_text_json_page_and_ask_tell_the_same_verdicts(reviewed) -> None:
    game, r = reviewed
    seats = list(game.seats)
    js = run_cli("review", str(BLUNDER), "--samples", SAMPLES, "--format", "json")
    text = run_cli("review", str(BLUNDER), "--samples", SAMPLES)
    assert js.returncode == text.returncode == 0, js.stderr + text.stderr
    plays = json.loads(js.stdout)["games"][0]["plays"]
    # (line, seat, action, verdict or mark) of every play each of them marks.
    from_json = {(p["line"], p["seat"], p["action"], p["verdict"] if p["verdict"] in ("blunder", "only move")
                  else p["mark"]) for p in plays if p["verdict"] in ("blunder", "only move") or p["mark"]}
    from_text = {(int(m.group(1)), m.group(2), m.group(3), m.group(4)) for m in re.finditer(
        r"^  line (\d+), (?:trick \d+|take): (\S+) (.+?): (blunder|only move|mistake|inaccuracy) \(", text.stdout, re.M)}
    line_at = {p["step"] + 1: p["line"] for p in plays}  # the page's position of a play: its step + 1
    from_page = {(line_at[m["at"]], m["seat"], m["action"], m["mark"]) for m in review_data(r, 1)["marks"]}
    from_ask = set()
    for p in plays:
        if p["trick"] is None:
            continue
        a = get_away_answer(r, seats.index(p["seat"]), p["trick"])
        assert [q.number for q in a.plays if q.action == p["action"]] == [p["number"]]
        if a.verdict:
            from_ask.add((p["line"], p["seat"], p["action"], a.verdict))
            assert a.verdict in a.sentence  # the word the others print, in the sentence
    assert ("blunder" in {v for *_, v in from_json})
    assert from_json == from_text == from_page == from_ask


def test_ask_answers_yes_for_the_blunder_that_threw_away_a_safe_ending(reviewed) -> None:
    """North J♣ at trick 21 threw away a safe ending: A♥ or A♦ kept it safe (the solver, as
    test_review_cli holds); the answer says so, and that it is proven, not sampled."""
    game, r = reviewed
    a = get_away_answer(r, game.seats.index("North"), 21)
    assert a.answer == "yes" and a.verdict == "blunder"
    assert a.sentence.startswith("Yes: before its play to trick 21, North could force its getting away")
    assert "(exact, 10 cards held); North's J♣ was a blunder, leaving it open: A♥ or A♦ kept it safe" in a.sentence
    # North lost the game: after the trick its own view gives it a chance of losing.
    assert a.chance is not None and f"its chance of losing was {round(100 * a.chance)}%" in a.sentence


def test_a_seat_that_got_away_did_not_play_to_the_trick(reviewed) -> None:
    game, r = reviewed
    a = get_away_answer(r, game.seats.index("East"), 21)
    # East played no card after trick 20 of the record: it got away before trick 21.
    assert a.answer == "absent" and not a.plays
    assert a.sentence.startswith("East had got away before trick 21")
    assert a.chance == 0.0  # a seat that got away cannot lose


def test_every_exact_answer_is_the_seats_class_before_its_play(reviewed) -> None:
    """Yes: safe (it could force its getting away); only with help or luck: open; no: lost."""
    _, r = reviewed
    words = {"safe": ("yes", "Yes: "), "open": ("with help", "Only with help or luck: "), "lost": ("no", "No: ")}
    exact = [p for p in r.plays if p.exact and p.trick is not None]
    assert {p.before.value for p in exact} >= {"safe", "open"}
    for p in exact:
        a = get_away_answer(r, p.seat, p.trick)
        if a.plays[0] is p:
            answer, head = words[p.before.value]
            assert a.answer == answer and a.sentence.startswith(f"{head}before its play to trick {p.trick}, "
                                                                f"{r.seats[p.seat]} could")


def test_a_sampled_verdict_says_it_is_not_proven(reviewed) -> None:
    game, r = reviewed
    a = get_away_answer(r, game.seats.index("North"), 5)  # 11 cards in North's hand: no exact verdict
    assert a.answer == "chances"
    (p,) = a.plays
    assert p.chance_before is not None and p.chance_after is not None
    assert a.sentence.startswith(f"Not proven: from what North could know, its chance of losing was "
                                 f"{round(100 * p.chance_before)}% had it played as the sensible bot would, and "
                                 f"{round(100 * p.chance_after)}% after its 7♥ ({p.samples} samples)")


def test_asking_of_a_trick_or_seat_the_game_has_not_is_a_value_error(reviewed) -> None:
    _, r = reviewed
    with pytest.raises(ValueError, match="no trick 99 \\(tricks 1 to 25\\)"):
        get_away_answer(r, 0, 99)
    with pytest.raises(ValueError, match="no seat 7"):
        get_away_answer(r, 7, 3)


def test_could_get_away_reviews_the_game_as_review_does(reviewed) -> None:
    game, r = reviewed
    a = could_get_away(game, game.seats.index("South"), 21, samples=int(SAMPLES))
    assert a == get_away_answer(r, game.seats.index("South"), 21)
    assert a.verdict == "blunder" and "South's K♦ was a blunder, leaving it open: Q♠ kept it safe" in a.sentence


def test_narration_marks_the_trick_with_its_blunders(reviewed) -> None:
    _, r = reviewed
    said = trick_review_sentence(r, 21)
    assert said.startswith("Review: North's J♣ was a blunder, leaving it open: A♥ or A♦ kept it safe "
                           "(exact, 10 cards held); South's K♦ was a blunder")
    unmarked = [t for t in range(1, 26) if not any(p.trick == t and (p.mark or p.verdict in ("blunder", "only move"))
                                                   for p in r.plays)]
    assert unmarked and all(trick_review_sentence(r, t) == "" for t in unmarked)


def test_the_hint_tells_the_verdict_on_the_last_play_of_a_game_so_far(tmp_path) -> None:
    """A live game is a record that stops: cut after trick 21 (no result yet), the last play
    is South's K♦, the blunder the whole game's review finds there."""
    text = BLUNDER.read_text(encoding="utf-8")
    cut = text[:text.index("counts North 6, South 4")].replace('[Result "North"]\n', "")
    game = next(iter(referee.parse(cut)))
    said = hint(game, samples=2)
    assert said.startswith("Yes: before its play to trick 21, South could force its getting away")
    assert "South's K♦ was a blunder, leaving it open: Q♠ kept it safe" in said
    assert re.search(r"chances of losing now, each seat from what it could know: North \d+%, East 0%, South \d+%, "
                     r"West 0%\.$", said), said


def test_ask_review_on_the_command_line_gives_the_reviews_answer_after_the_trick() -> None:
    # `ask --review` reviews the game as `review` does with its defaults, and prints the
    # answer for the seat asked after the trick's own sentence; without a seat, every seat's
    # class after the trick, as `review --after TRICK` gives it (issue 35).
    r = run_cli("ask", str(BLUNDER), "--trick", "21", "--seat", "North", "--review")
    assert r.returncode == 0, r.stderr
    said, answer = r.stdout.splitlines()
    assert said.startswith("Trick 21: North led J♣")
    game = next(iter(referee.read(BLUNDER)))
    assert answer == could_get_away(game, game.seats.index("North"), 21).sentence
    assert answer.startswith("Yes: ") and "North's J♣ was a blunder" in answer
    bare = run_cli("ask", str(BLUNDER), "--trick", "21", "--review")
    assert bare.returncode == 0 and bare.stderr == ""
    said, every = bare.stdout.splitlines()
    assert said.startswith("Trick 21: ") and every.startswith("After trick 21 (10 cards held): North safe: ")
    after = run_cli("review", str(BLUNDER), "--after", "21").stdout.splitlines()[1:]
    assert len(after) == 4 and all(line.strip() in every for line in after)


def test_narration_with_review_ends_each_trick_with_its_marks() -> None:
    # `show --narrate --review`: each trick's paragraph, then the review's marks on its plays,
    # the same sentence the library gives for that trick; a trick it marks nothing in ends as before.
    r = run_cli("show", str(BLUNDER), "--narrate", "--review")
    plain = run_cli("show", str(BLUNDER), "--narrate")
    assert r.returncode == plain.returncode == 0, r.stderr
    game = next(iter(referee.read(BLUNDER)))
    rv = review_game(game)
    told = {int(m.group(1)): line for line in r.stdout.splitlines() if (m := re.match(r"Trick (\d+):", line))}
    before = {int(m.group(1)): line for line in plain.stdout.splitlines() if (m := re.match(r"Trick (\d+):", line))}
    assert told.keys() == before.keys()
    marked = 0
    for t, line in told.items():
        said = trick_review_sentence(rv, t)
        assert line == before[t] + (" " + said if said else "")
        marked += bool(said)
    assert marked >= 2 and "North's J♣ was a blunder" in told[21]
    alone = run_cli("show", str(BLUNDER), "--review")
    assert alone.returncode == 2 and "--review goes with --narrate" in alone.stderr
