"""Each rule-set option: one record, legal under one setting and wrong under another.

The expected outcomes are worked out from the rules texts (shared/rules/), not from the
referee's output: each test says which section it follows.
"""

from __future__ import annotations

import pytest

from referee.engine.rules import PRESETS, parse_spec
from referee.engine.state import Phase
from referee.judging.referee import Referee
from referee.notation.reader import parse


def judge(text: str, spec: str | None = None, **kw):
    games = parse("%gwy 1\n" + text)
    assert len(games) == 1 and not games[0].errors, games[0].errors
    default = parse_spec(spec) if spec else None
    return Referee(default=default, force=spec is not None, keep_engine=True, **kw).judge(games[0])


def codes(res) -> list[str]:
    return [d.code for d in res.diagnostics]


# ---- direction (Pagat, Variations: anticlockwise) ---------------------------------------------

THREE = """%game
[Seats "North East South"]
position
North 5♥ 2♣
East 6♥ 3♣
South 7♥ 4♣
waste rest
lead North
trick 5
"""


def test_direction_clockwise_east_follows_north():
    res = judge(THREE + "5. North 5♥, East 6♥, South 7♥\n", "pagat")
    assert codes(res) == []
    assert res.engine.view().leader == 2  # South's 7♥ is the highest heart


def test_direction_anticlockwise_south_follows_north():
    # Anticlockwise the next to play after North is South (the seat to North's right).
    # East before South in a whole trick is either a play out of turn or the record's order;
    # cut short (East plays and the record moves on), it is a play out of turn.
    res = judge(THREE + "5. North 5♥, East 6♥\n", "pagat direction=anticlockwise")
    assert codes(res) == ["M203"]
    assert "South's turn" in res.diagnostics[0].message
    # Whole, with every play legal in turn, it is still a play out of turn: the order written
    # is the order of play (docs/rulings.md, ruling 10), and nobody made East pick up.
    whole = judge(THREE + "5. North 5♥, East 6♥, South 7♥\n", "pagat direction=anticlockwise")
    assert codes(whole) == ["M203"] and "South's turn" in whole.diagnostics[0].message
    assert whole.diagnostics[0].penalty is not None and whole.diagnostics[0].penalty.applied is False
    ok = judge(THREE + "5. North 5♥, South 7♥, East 6♥\n", "pagat direction=anticlockwise")
    assert codes(ok) == []


def test_direction_decides_whose_hand_is_taken():
    # Pagat, Taking cards / Variations: the hand of the next player in the direction of play.
    cw = judge(THREE + "North takes East\n", "pagat")
    assert codes(cw) == []
    acw = judge(THREE + "North takes East\n", "pagat direction=anticlockwise")
    assert codes(acw) == ["R108"]
    assert "South's hand" in acw.diagnostics[0].message


# ---- last_card (Pagat, Getting away; Variations, three versions) ------------------------------

LAST = """%game
[Seats "North East South"]
position
North A♥
East 6♥ 3♣
South 7♥ 4♣
waste rest
lead North
trick 9
9. North A♥, East 6♥, South 7♥
"""


def test_last_card_draw_waste_requires_a_draw():
    # North's last card won a clean trick: North draws from the waste pile and leads it.
    res = judge(LAST + "North draws 3♠\n10. North 3♠, East 3♣\n", "pagat")
    assert codes(res) == []
    # Without the draw the next lead cannot be North's.
    bad = judge(LAST + "10. East 3♣, South 4♣\n", "pagat")
    assert codes(bad) == ["R107"]


def test_last_card_pass_lead_gets_away():
    # Version 3 (and Denexa): with more than two players North gets away; East leads.
    res = judge(LAST + "10. East 3♣, South 4♣\n", "pagat last_card=pass_lead")
    assert codes(res) == []
    assert 0 in res.engine.view().out_order
    drew = judge(LAST + "North draws 3♠\n", "pagat last_card=pass_lead")
    assert codes(drew) == ["R107"]


def test_last_card_draw_from_the_next_hand():
    # Version 2: North draws from the next player holding cards (East), not the waste pile.
    res = judge(LAST + "North draws 3♣ from East\n10. North 3♣, South 4♣\n", "pagat last_card=draw_hand")
    # East's last card was drawn: East has got away. South beats North's drawn club, so
    # North is out too and South, the last one holding cards, loses.
    assert codes(res) == []
    v = res.engine.view()
    assert 1 in v.out_order and v.phase == Phase.OVER and v.loser == 2
    waste = judge(LAST + "North draws 3♠\n", "pagat last_card=draw_hand")
    assert codes(waste) == ["R107"]
    other = judge(LAST + "North draws 4♣ from South\n", "pagat last_card=draw_hand")
    assert codes(other) == ["R107"]
    anyone = judge(LAST + "North draws 4♣ from South\n", "pagat last_card=draw_hand draw_from=any")
    assert codes(anyone) == []


# ---- taking (Pagat, Taking cards) -------------------------------------------------------------------


def test_taking_allowed_or_not():
    assert codes(judge(THREE + "East takes South\n", "pagat")) == []
    res = judge(THREE + "East takes South\n", "pagat taking=no")
    assert codes(res) == ["R108"]
    assert "does not allow taking" in res.diagnostics[0].message


# ---- deal (Pagat, Variations: piles; ruling 7) ----------------------------------------------------


PILES = """%game
[Seats "North East South West"]
deal
North 15
East 11
South 13
West 13
"""


def test_piles_deal_allows_any_sizes():
    assert codes(judge(PILES, "pagat deal=piles")) == []
    res = judge(PILES, "pagat")
    assert codes(res) == ["R103"]


def test_dealer_gets_extras_right():
    text = """%game
[Seats "North East South West"]
[Dealer "West"]
deal
North 14
East 13
South 13
West 12
"""
    # 52 cards to 4 players is even; this deal is uneven by two, wrong under even dealing.
    assert codes(judge(text, "pagat")) == ["R103"]
    three = """%game
[Seats "North East South"]
[Dealer "South"]
deal
North 18
East 17
South 17
"""
    # 52 = 18 + 17 + 17: the extra card goes to the player after the dealer, North.
    assert codes(judge(three, "pagat")) == []
    wrong = three.replace('[Dealer "South"]', '[Dealer "North"]')
    assert codes(judge(wrong, "pagat")) == ["R103"]


# ---- packs (Pagat, Variations: double pack) ------------------------------------------------------


def test_double_pack_tie_goes_to_the_first_played():
    text = """%game
[Seats "North East South"]
position
North K♥ 2♣
East K♥ 3♣
South 5♥ 4♣
waste rest
lead North
trick 5
5. North K♥, East K♥, South 5♥
"""
    res = judge(text, "pagat packs=2")
    assert codes(res) == []
    assert res.engine.view().leader == 0  # North's K♥ was played first
    single = parse("%gwy 1\n" + text.replace("position", "position"))[0]
    one = Referee(default=parse_spec("pagat"), force=True).judge(single)
    assert codes(one) == ["R101"]  # one pack has one K♥


def test_marked_ace_only_in_a_double_pack():
    text = '%gwy 1\n%game\n[Seats "A B"]\n[Rules "pagat"]\ndeal\nA A♠* 2♠\nB 3♠\n'
    assert [d.code for d in parse(text)[0].errors] == ["S002"]


# ---- trumps (Pagat, Donkey) --------------------------------------------------------------------------


DONKEY = """%game
[Seats "North East South West"]
position
North 5♥ 2♣
East 3♣ 9♦
South 6♥ 4♣
West 7♥ 8♣
waste rest
lead North
trick 5
5. North 5♥, East 3♣, South 6♥, West 7♥
"""


def test_donkey_first_void_sets_trumps_and_wins():
    res = judge(DONKEY, "donkey")
    assert codes(res) == []
    e = res.engine
    assert e.view().trumps == 3  # clubs
    assert e.view().leader == 1  # East's 3♣ is the only trump: East wins the trick
    assert e.waste_size() > 0 and e.size(0) == 1  # the trick went to the waste pile


def test_same_trick_in_getaway_is_a_tochoo_then_plays_after_it():
    res = judge(DONKEY, "pagat")
    assert codes(res) == ["M202"]


def test_donkey_must_trump_when_void():
    text = DONKEY.replace("5. North 5♥, East 3♣, South 6♥, West 7♥\n",
                          "5. North 5♥, East 3♣, South 6♥, West 7♥\n6. East 9♦, North 2♣\n")
    # Trumps are clubs. On East's 9♦ North has no diamond and holds the trump 2♣: it trumps.
    res = judge(text, "donkey")
    assert "M201" not in codes(res)


# ---- first_trick (Pagat, First trick; Denexa, Game play) ----------------------------------------------

FIRST = """%game
[Seats "North East South"]
deal
North A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♥ K♥ Q♥ J♥ 10♥
East 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦
South 5♦ 4♦ 3♦ 2♦ A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣
1. North A♠, South 2♣, East 2♥
"""


def test_first_trick_any_order_or_in_turn():
    assert codes(judge(FIRST, "pagat")) == []
    res = judge(FIRST, "pagat first_trick=in_turn")
    # In turn, South plays before East in the first trick: out of turn (ruling 10), and the
    # table played on.
    assert codes(res) == ["M203"] and "South played 2♣ out of turn: it was East's turn" in res.diagnostics[0].message
    assert res.diagnostics[0].penalty is not None and res.diagnostics[0].penalty.applied is False


# ---- two_players (Pagat, Two players; Denexa, Ending the hand) ------------------------------------------

TWO = """%game
[Seats "North East South"]
position
North 9♦
East K♦ 3♦ 5♣
South out
waste rest
lead North
trick 20
20. North 9♦, East 3♦
North draws 2♠
21. North 2♠, East 5♣
"""


def test_two_players_tochoo_on_a_drawn_lead_loses_at_once():
    # Pagat, Two players, outcome 3: East cannot follow the drawn 2♠: North loses at once.
    res = judge(TWO, "pagat")
    assert codes(res) == []
    assert res.engine.view().phase == Phase.OVER and res.engine.view().loser == 0


def test_two_player_ending_higher_card_by_choice_is_legal():
    text = TWO.replace("21. North 2♠, East 5♣\n", "")
    text = text.replace("North draws 2♠\n", "North draws 2♠\n").replace("waste rest", "waste rest")
    text = text.replace("North draws 2♠", "North draws 7♦") + "21. North 7♦, East K♦\n"
    # East holds K♦ and nothing lower than 7♦ now (3♦ was played): K♦ is forced, legal.
    assert codes(judge(text, "denexa")) == []
    low = TWO.replace("East K♦ 3♦ 5♣", "East K♦ 3♦ 2♦ 5♣").replace("waste rest", "waste rest")
    low = low.replace("North draws 2♠\n21. North 2♠, East 5♣\n", "North draws 7♦\n21. North 7♦, East K♦\n")
    # Here East still holds 2♦, lower than the drawn 7♦: K♦ is still legal (ruling 8), under
    # both two-player rules; a note says the 2♦ would have kept the game going.
    for rules in ("denexa", "pagat"):
        res = judge(low, rules)
        assert [(d.code, d.severity) for d in res.diagnostics] == [("M206", "note")], rules
        assert res.finished and res.errors == 0


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_name_themselves(name):
    r = PRESETS[name]
    assert r.spec() == name
    assert parse_spec(r.spec()) == r
