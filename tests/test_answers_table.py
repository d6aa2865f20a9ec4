"""Issue 35, items 1-4: what the table reads agrees with the replay, on the records a user
asks about, through the CLI as a user runs it (``ask``, ``legal``, ``show``).

1. A lead out of turn where the record stops is told as the replay has it: the mistake ends
   the trick at once (docs/rulings.md, ruling 1), the offender picks up and leads.
2. Mid-trick, a ruling says who plays next and what the rule asks of them, as ``legal`` does.
3. The one-sentence answer keeps the fact that decides the trick: a draw by the seat with
   the power and no card, who made trumps, a take and who leads after it, a higher card by
   choice in the two-player ending (ruling 8).
4. ``show`` of a two-player ending says why a seat holding cards is out.
"""

from __future__ import annotations

import json
import re

from conftest import DATA, RECORDS, run_cli

from referee import parse
from referee.table.answers import narrate, tricks_of, verdict, walk

OUT_OF_TURN = DATA / "invalid" / "M203-lead-out-of-turn-where-the-record-stops.gwy"
MID_TRICK = DATA / "valid" / "mid-trick-where-the-record-stops.gwy"
TAKE = DATA / "valid" / "take-after-a-trick-passes-the-lead.gwy"


def _ask(path, trick: int, *args: str) -> list[str]:
    r = run_cli("ask", str(path), "--trick", str(trick), *args)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout.strip().splitlines()


def _words(sentence: str) -> int:
    return len(sentence.split())


# ---- item 1: one answer for a lead out of turn --------------------------------------------------


def test_a_lead_out_of_turn_where_the_record_stops_ends_its_trick_on_every_answer():
    # check: South led out of turn (East has the power) ...
    r = run_cli("check", str(OUT_OF_TURN), "--format", "json")
    rep = json.loads(r.stdout)
    assert r.returncode == 1
    assert [d["code"] for g in rep["files"][0]["games"] for d in g["diagnostics"]] == ["M203"]
    # ... legal: the penalty was applied, South leads trick 4 holding 7♥ again ...
    legal = run_cli("legal", str(OUT_OF_TURN)).stdout
    assert "South picked up the trick as the penalty and leads trick 4" in legal
    assert "known cards it may play: 7♥" in legal
    # ... and ask says the same: the trick ended at the mistake, nothing is still to play to it
    first, detail = _ask(OUT_OF_TURN, 3, "--explain")
    assert first == ("Trick 3: South led 7♥, but East has the power and leads trick 3 (M203); "
                     "penalty applied: South picks up 1 card and leads trick 4.")
    assert "South picks up 1 card as the penalty and leads trick 4." in detail
    for text in (first, detail):
        assert "not over" not in text and "to play" not in text
    # trick 2 is told as it ended, East's Q♥ taking the power; the penalty belongs to trick 3
    (second,) = _ask(OUT_OF_TURN, 2)
    assert second == ("Trick 2: the trick goes to the waste pile; East, with the highest heart (Q♥), "
                      "has the power and leads trick 3.")
    narrated = run_cli("show", str(OUT_OF_TURN), "--narrate").stdout
    trick2 = next(line for line in narrated.splitlines() if line.startswith("Trick 2:"))
    assert "penalty" not in trick2 and "East, with the highest heart (Q♥), has the power and leads trick 3" in trick2
    assert "South leads trick 4" in narrated.splitlines()[-1]


# ---- item 2: mid-trick, who plays next ------------------------------------------------------------


def test_mid_trick_the_ruling_says_who_plays_next_and_what_the_rule_asks():
    cases = [
        # hands unseen: the duty as the rule words it for a hand that may hold the suit
        (1, 3, "Trick 3: East led 3♥ and South followed with 7♥; West to play, following ♥ if able."),
        # West holds A♦ 6♦, known: it must follow
        (2, 11, "Trick 11: North led 7♦, East followed with 9♦ and South followed with 5♦; "
                "West to play, and must follow ♦."),
        # South holds no diamond, known: any card
        (3, 11, "Trick 11: North led 7♦ and East followed with 9♦; South to play: no ♦, so any card."),
    ]
    for game, trick, said in cases:
        (first,) = _ask(MID_TRICK, trick, "--game", str(game))
        assert first == said
        # legal names the same seat and the same duty (one wording, judging/wording.py)
        legal = run_cli("legal", str(MID_TRICK), "--game", str(game)).stdout
        who_and_duty = said.split("; ", 1)[1].rstrip(".")
        seat, duty = who_and_duty.split(" to play", 1)
        assert f"{seat} to play to trick {trick}{duty}" in legal, legal


def test_mid_trick_in_donkey_the_duty_to_trump_is_told():
    (first,) = _ask(RECORDS / "dispute-donkey.gwy", 3)
    # East's 2♦ made diamonds trumps; South holds no club but the 8♦: it must trump
    assert first.startswith("Trick 3: North led 5♣ and East could not follow and played 2♦, making diamonds trumps")
    assert first.endswith("; South to play: no ♣, so a trump ♦.")


def test_no_ruling_speaks_of_where_the_record_stops():
    # every trick of every shipped record, told short and in full (in-process: the words
    # are the same functions ask and live call)
    for path in sorted(RECORDS.glob("*.gwy")) + [MID_TRICK, OUT_OF_TURN]:
        for game in parse(path.read_text(encoding="utf-8"), str(path)):
            if game.errors:
                continue
            w = walk(game)
            told = narrate(w) + [verdict(w, t) for t in tricks_of(w)]
            assert not any("record stops" in t or "not over" in t for t in told), path


# ---- item 3: the fact that decides the trick -------------------------------------------------


def test_the_seat_with_the_power_and_no_card_draws():
    # not yet drawn: the short answer says West has no card and must draw
    (first,) = _ask(RECORDS / "dispute-draw.gwy", 11)
    assert first == ("Trick 11: the trick goes to the waste pile; West, with the highest diamond (A♦), has the power "
                     "but no card: must draw from the waste pile and lead it.")
    # drawn and recorded: the card drawn, and the lead of the next trick with it
    (first,) = _ask(RECORDS / "two-players-higher-card-by-choice.gwy", 20)
    assert first == ("Trick 20: the trick goes to the waste pile; West, with the highest diamond (9♦), has the power "
                     "but no card: draws 7♦ and leads trick 21.")
    # the draw-from-hand variant: from whose hand
    (first,) = _ask(RECORDS / "draw-from-hand.gwy", 20)
    assert "South, with the highest diamond (J♦), has the power but no card: draws 10♠ from West's hand" in first
    assert _words(first) <= 30


def test_who_made_trumps():
    (first,) = _ask(RECORDS / "donkey.gwy", 1)
    assert first.startswith("Trick 1: East's K♦ made diamonds trumps; ")
    assert "East, with the highest trump (K♦), has the power and leads trick 2" in first
    (later,) = _ask(RECORDS / "donkey.gwy", 3)
    assert "made" not in later  # trumps were made in trick 1, not again


def test_a_take_between_tricks_and_who_leads_after_it():
    (first,) = _ask(TAKE, 9)
    assert first == ("Trick 9: the trick goes to the waste pile; South has the power; North takes South's hand; "
                     "South gets away; the lead passes on: West leads trick 10.")
    # the detail tells the take and the lead once each, in the order they happened
    (_, detail) = _ask(TAKE, 9, "--explain")
    assert detail.count("leads trick 10") == 1 and detail.count("South gets away") == 1
    assert detail.index("has the power") < detail.index("North took South's hand") < detail.index("West leads trick 10")
    # a take that leaves the lead where it was
    (first,) = _ask(RECORDS / "take-and-draw.gwy", 20)
    assert first.endswith("South has the power; South takes West's hand; West gets away; South leads trick 21.")


def test_a_higher_card_by_choice_in_the_two_player_ending():
    (first,) = _ask(RECORDS / "two-players-higher-card-by-choice.gwy", 21)
    assert first == ("Trick 21: East played K♦ by choice, holding the lower 3♦ (docs/rulings.md, ruling 8); "
                     "the trick goes to the waste pile; West gets away; East loses.")


def test_the_short_answers_stay_short():
    for path, trick in ((RECORDS / "dispute-draw.gwy", 11), (RECORDS / "donkey.gwy", 1), (TAKE, 9),
                        (RECORDS / "two-players-higher-card-by-choice.gwy", 21), (OUT_OF_TURN, 3)):
        (first,) = _ask(path, trick)
        assert _words(first) <= 30 and first.count(". ") == 0, first


# ---- item 4: show of a two-player ending -----------------------------------------------------


def test_show_says_why_a_seat_holding_cards_is_out():
    r = run_cli("show", str(RECORDS / "dispute-two-players.gwy"))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    east = next(line for line in lines if line.startswith("East "))
    assert re.match(r"East\s+1\s+2♠\s+-\s+out \(3rd\)", east)
    why = [line for line in lines if line.startswith("East holds 1 card yet is out of the game")]
    assert len(why) == 1 and why[0].endswith("(Pagat, Getaway: Two players)")
    assert "a tochoo on a card drawn and led loses the leader the game" in why[0]
    # no line is padded: the table's last column ends where its text ends
    assert all(line == line.rstrip() for line in lines)
    # the same reason in JSON, and the Denexa ending cites Denexa
    j = json.loads(run_cli("show", str(RECORDS / "dispute-two-players.gwy"), "--format", "json").stdout)
    assert [h["out_why"] for h in j["hands"] if h["out_why"]] == [why[0]]
    r = run_cli("show", str(DATA / "valid" / "two-players-denexa.gwy"), "--game", "2")
    assert "East holds 1 card yet is out of the game" in r.stdout and "Denexa" in r.stdout
    # a seat that got away with no cards has no such line
    r = run_cli("show", str(RECORDS / "pass-lead-two-get-away-in-one-trick.gwy"))
    assert "yet is out of the game" not in r.stdout
