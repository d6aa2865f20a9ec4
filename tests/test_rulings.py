"""Rulings a table can trust (issue 11): each wrong ruling met as a user meets it, through
the records in records/ and the command, and each wording a player argues about."""

from __future__ import annotations

import json

import pytest
from conftest import RECORDS, run_cli

from referee.engine import citations
from referee.engine.rules import parse_spec
from referee.engine.state import Phase
from referee.judging.referee import Referee
from referee.notation.reader import parse
from referee.reports.diagnostics import CODES


def judge_text(text: str, spec: str | None = None):
    (game,) = parse(text)
    assert not game.errors, game.errors
    return Referee(default=parse_spec(spec) if spec else None, force=spec is not None, keep_engine=True).judge(game)


def report(path):
    proc = run_cli("check", "--format", "json", str(path))
    return proc, json.loads(proc.stdout)


def diagnostics(rep):
    return [d for f in rep["files"] for g in f["games"] for d in g["diagnostics"]]


# ---- 1. a play after a tochoo that nobody noticed: one diagnostic, no cascade --------------


def test_unnoticed_play_after_a_tochoo_is_one_diagnostic_full_and_unseen_hands():
    proc, rep = report(RECORDS / "unnoticed-play-after-tochoo-illegal.gwy")
    assert proc.returncode == 1
    games = rep["files"][0]["games"]
    assert [g["seats"] for g in games] == [["North", "East", "South", "West"]] * 2  # full hands, then unseen
    for g in games:
        assert [(d["code"], d["trick"]) for d in g["diagnostics"]] == [("M202", 2)]
        d = g["diagnostics"][0]
        assert "South played 6♥ after East's tochoo K♣" in d["message"]
        assert d["penalty"] == {"seat": "South", "cards": 3, "trick": 2, "leads": 3, "applied": False}
        assert any("as if South had not played 6♥" in n for n in d["notes"])
        # The counts written after tricks 2 and 4 hold: North picked up the trick, South kept 6♥.
        assert g["hand_sizes"] == {"North": 15, "East": 9, "South": 10, "West": 10}


# ---- 2. ruling 8: a higher card by choice in the two-player ending is legal ---------------


def test_higher_card_by_choice_is_a_note_not_a_mistake():
    proc, rep = report(RECORDS / "two-players-higher-card-by-choice.gwy")
    assert proc.returncode == 0, proc.stdout  # a note never fails a check
    (g,) = rep["files"][0]["games"]
    assert [(d["code"], d["severity"], d["penalty"]) for d in g["diagnostics"]] == [("M206", "note", None)]
    assert g["loser"] == "East" and g["finished"] and g["out_order"][-1] == "West"
    assert g["hand_sizes"]["East"] == 2  # 3♦ and 5♠: no trick picked up as a penalty
    assert CODES["M206"].severity == "note"


def test_the_engine_offers_every_card_of_the_suit_in_the_shootout():
    from referee.judging.replay import replay

    (game,) = parse((RECORDS / "two-players-higher-card-by-choice.gwy").read_text(encoding="utf-8"))
    steps = list(replay(game, snapshots=True))
    lead = next(st for st in steps if st.trick == 21 and st.item.seat == 3)  # West leads the drawn 7♦
    after_lead = steps[steps.index(lead) + 1].before
    legal = after_lead.legal(1)  # East
    assert legal.reason.value == "follow"
    assert sorted(card_str(c) for c in legal.cards) == sorted(["3♦", "K♦"])


def card_str(c: int) -> str:
    from referee.engine.cards import card_str as cs

    return cs(c)


# ---- 3. ruling 9: pass_lead counts everyone who played to the trick -----------------------


def test_pass_lead_two_players_get_away_in_one_trick():
    proc, rep = report(RECORDS / "pass-lead-two-get-away-in-one-trick.gwy")
    assert proc.returncode == 0, proc.stdout
    (g,) = rep["files"][0]["games"]
    assert g["diagnostics"] == []
    assert g["finished"] and g["loser"] == "South"
    assert g["out_order"] == ["West", "East", "North"]


def test_pass_lead_with_two_players_in_the_trick_still_draws():
    # Only North and South left: North's last card wins, North must draw (Pagat's version 3).
    text = ("%gwy 1\n%game\n[Seats \"North East South West\"]\n[Rules \"pagat last_card=pass_lead\"]\n"
            "position\nNorth Q♦\nEast out\nSouth 5♦ 8♠\nWest out\nwaste rest\nlead North\ntrick 12\n"
            "12. North Q♦, South 5♦\n")
    res = judge_text(text)
    assert res.errors == 0 and not res.finished
    v = res.engine.view()
    assert v.phase == Phase.DRAW_DUE and v.to_act == 0  # a draw is due, North's


# ---- 4. Donkey names the card that ended the trick, and cites Donkey ---------------------


def test_donkey_play_after_the_tochoo_names_the_tochoo_not_the_trump():
    proc, rep = report(RECORDS / "donkey-play-after-tochoo-illegal.gwy")
    (d,) = diagnostics(rep)
    assert d["code"] == "M202"
    assert d["message"] == "West played 8♣ after South's tochoo 9♥ ended trick 5"
    assert any(n.startswith("Pagat, Getaway: Donkey") for n in d["notes"])


# ---- 5. the marked ace, one spelling everywhere -------------------------------------------


def test_double_pack_marked_ace_spelt_the_same_in_show_and_legal():
    rec = RECORDS / "double-pack-marked-ace-first.gwy"
    show = run_cli("show", str(rec), "--after", "0")
    legal = run_cli("legal", str(rec))
    assert show.returncode == 0 and legal.returncode == 0
    assert "whoever holds A♠* leads trick 1" in show.stdout
    assert "C A♠*" in run_cli("show", str(rec)).stdout and "A♠*" in legal.stdout
    # The plain A♠ is a card of its own in a double pack: it is listed among the spades a
    # seat may hold, never as the card that opens the first trick.
    assert "whoever holds A♠ " not in show.stdout and "opens trick 1 with A♠ " not in legal.stdout


def test_rejected_takes_record_keeps_its_counts():
    proc, rep = report(RECORDS / "rejected-takes-followed-illegal.gwy")
    assert [[d["code"] for d in g["diagnostics"]] for g in rep["files"][0]["games"]] == [["R108"]] * 3


# ---- 6. rejected takes: one behaviour ------------------------------------------------------


TAKES = """%gwy 1
%game
[Seats "North East South West"]
[Rules "{rules}"]
deal
North 13
East 13
South 13
West 13
1. West A♠, North J♠, East A♥, South 10♠
{take}
counts {counts}
"""


@pytest.mark.parametrize("rules,take,code,counts", [
    # the wrong hand: followed as written, the cards moved
    ("pagat", "North takes South", "R108", "North 24, West 12"),
    # taking not allowed by the rule set: followed as written too
    ("pagat taking=no", "North takes East", "R108", "North 24, South 12, West 12"),
    # one's own hand: nothing can move
    ("pagat", "North takes North", "R108", "North 12, East 12, South 12, West 12"),
])
def test_every_rejected_take_is_followed_when_a_hand_can_move(rules, take, code, counts):
    res = judge_text(TAKES.format(rules=rules, take=take, counts=counts))
    assert [d.code for d in res.diagnostics] == [code]  # and no R111: the counts agree


# ---- 7. the replay goes on after a record error ------------------------------------------


def test_record_errors_do_not_hide_the_rest_of_the_game():
    proc, rep = report(RECORDS / "record-errors-then-play-goes-on-illegal.gwy")
    g1, g2 = rep["files"][0]["games"]
    assert [d["code"] for d in g1["diagnostics"]] == ["R105", "M202"]
    assert g1["stopped"] is None
    assert [d["code"] for d in g2["diagnostics"]] == ["R114", "R112"]
    assert g2["finished"] and g2["loser"] == "South"


@pytest.mark.parametrize("draw,code", [
    ("East draws 7♦", "R107"),  # another player must draw: followed as the due draw
])
def test_a_wrong_draw_is_followed_and_the_game_goes_on(draw, code):
    text = ("%gwy 1\n%game\n[Seats \"North East South West\"]\n"
            "position\nNorth 9♦\nEast 5♦ K♣ 3♣\nSouth out\nWest out\nwaste rest\nlead North\ntrick 40\n"
            f"40. North 9♦, East 5♦\n{draw}\n41. North 7♦, East 3♣\n")
    res = judge_text(text)
    assert [d.code for d in res.diagnostics] == [code]
    assert res.finished  # North's drawn 7♦ met East's tochoo: North loses (Two players)
    assert res.game.seats[res.loser] == "North"


# ---- wording ----------------------------------------------------------------------------


def test_has_the_power_is_said_only_of_the_trick_winner():
    # After a take of the hand due to lead, the next seat leads: it does not "have the power".
    text = ("%gwy 1\n%game\n[Seats \"North East South West\"]\ndeal\nNorth 13\nEast 13\nSouth 13\nWest 13\n"
            "1. West A♠, North J♠, East A♥, South 10♠\nSouth takes West\n2. East 5♥\n")
    res = judge_text(text)
    (d,) = res.diagnostics
    assert d.code == "M203"
    assert "has the power" not in d.message and "North leads (the hand due to lead was taken) trick 2" in d.message


def test_no_penalty_lead_after_the_game_is_over():
    # Two players left: North leads its last card, East reneges holding 5♦. East picks up the
    # trick; North has got away, and East, alone with cards, has lost: nobody leads again.
    text = ("%gwy 1\n%game\n[Seats \"North East South West\"]\n"
            "position\nNorth 9♦\nEast 5♦ K♣\nSouth out\nWest out\nwaste rest\nlead North\ntrick 40\n"
            "40. North 9♦, East K♣\n")
    res = judge_text(text)
    (d,) = res.diagnostics
    assert d.code == "M201" and d.penalty is not None and d.penalty.applied
    assert res.finished and res.game.seats[res.loser] == "East"
    assert d.penalty.leads is None
    assert "leads trick" not in d.help and d.help.endswith("the game is over")


def test_one_leg_is_singular():
    # North's last card wins; with three in the trick North gets away (pass_lead), South
    # played its last card too, and East is left with one card: one leg.
    text = ("%gwy 1\n%game\n[Seats \"North East South West\"]\n[Rules \"donkey last_card=pass_lead\"]\n"
            "[Result \"East 2\"]\n"
            "position\nNorth 9♦\nEast 5♦ 3♣\nSouth 4♦\nWest out\nwaste rest\nlead North\ntrick 40\n"
            "40. North 9♦, East 5♦, South 4♦\n")
    res = judge_text(text)
    msgs = [d.message for d in res.diagnostics if d.code == "R112"]
    assert msgs and "1 card" in msgs[0] and "2 legs" in msgs[0]


def test_missing_card_of_a_deal_is_named():
    from referee.engine.cards import card_str

    hands = [list(range(i, 52, 4)) for i in range(4)]
    hands[3].remove(51)
    text = "%gwy 1\n%game\n[Seats \"N E S W\"]\ndeal\n" + "".join(
        f"{s} {' '.join(card_str(c) for c in h)}\n" for s, h in zip("NESW", hands))
    res = judge_text(text)
    (d,) = res.diagnostics
    assert d.code == "R102" and d.message.endswith(f"missing {card_str(51)}")


def test_r115_in_the_first_trick_cites_the_first_trick():
    text = ("%gwy 1\n%game\n[Seats \"North East South West\"]\ndeal\nNorth 13\nEast 13\nSouth 13\nWest 13\n"
            "1. West A♠, North J♠, East A♥\n2. West 5♥\n")
    res = judge_text(text)
    (d,) = [d for d in res.diagnostics if d.code == "R115"]
    assert any(n.startswith("Pagat, Getaway: First trick") for n in d.notes)


# ---- citations a user can open ---------------------------------------------------------------


def test_no_diagnostic_of_any_record_names_a_file_the_user_does_not_have():
    proc = run_cli("check", "--format", "json", str(RECORDS))
    rep = json.loads(proc.stdout)
    for d in diagnostics(rep):
        for text in d["notes"] + [d["help"] or "", d["message"]]:
            assert ".txt" not in text and "shared/" not in text and "README" not in text, text
        assert any(citations.is_citation(n) for n in d["notes"]), d


def test_every_code_cites_a_source_a_user_can_look_up():
    for code in CODES.values():
        assert code.rule.startswith((citations.PAGAT, citations.DENEXA, citations.RULINGS, citations.NOTATION)), code


def test_rulings_ship_with_the_package_and_print():
    r = run_cli("rules", "--rulings")
    assert r.returncode == 0
    for n in range(1, 12):
        assert f"Ruling {n}:" in r.stdout
    one = run_cli("explain", "ruling", "9")
    assert one.returncode == 0 and one.stdout.startswith("## Ruling 9:") and "Ruling 8" not in one.stdout
    bad = run_cli("explain", "ruling", "12")
    assert bad.returncode == 2 and "rulings 1 to 11" in bad.stderr


def test_records_check_as_their_names_say():
    for path in sorted(RECORDS.glob("*.gwy")):
        proc = run_cli("check", "-q", str(path))
        want = 1 if "illegal" in path.name else 0
        assert proc.returncode == want, (path.name, proc.stdout[-2000:])


def test_two_player_ending_cites_two_players_after_the_end_and_in_the_result():
    # West leads a drawn 7♣ and East, with no club, plays a heart: West loses at once (Pagat,
    # Two players, outcome 3), though East still holds cards.
    text = (RECORDS / "dispute-two-players.gwy").read_text(encoding="utf-8")
    text = text.replace('[Rules "pagat"]', '[Rules "pagat"]\n[Result "East"]') + "22. East 2♠\n"
    res = judge_text(text)
    codes = [d.code for d in res.diagnostics]
    assert codes == ["R110", "R112"], codes
    r110, r112 = res.diagnostics
    assert any(n.startswith("Pagat, Getaway: Two players") for n in r110.notes)
    assert "West lost" in r112.message and "holding cards" not in r112.message
    assert r112.help == 'write [Result "West"]'


def test_a_trick_left_on_the_table_is_counted():
    proc, rep = report(RECORDS / "double-pack-marked-ace-first.gwy")
    (g,) = rep["files"][0]["games"]
    assert g["tricks"] == 1
