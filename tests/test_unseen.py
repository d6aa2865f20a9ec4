"""Unseen hands: a legal game stays legal when some or all hands are hidden.

The referee judges unseen hands on what can be known (sizes, where each card is, voids).
Hiding information can never turn a legal game into a wrong one, and it must not hide the
table mistakes that the plays themselves prove. These tests take simulated games with full
deals, hide hands, and check both.
"""

from __future__ import annotations

import random

import pytest

from referee.engine import state as E
from referee.engine.rules import parse_spec
from referee.judging.referee import Referee
from referee.notation.format import format_game
from referee.notation.reader import parse
from referee.notation.record import Deal, Hand
from referee.selfplay.simulate import simulate

SPECS = ["pagat", "denexa", "donkey", "pagat direction=anticlockwise", "pagat last_card=draw_hand",
         "pagat last_card=pass_lead", "pagat packs=2"]


def hidden(game, seats_to_hide):
    """The same game with the chosen seats' hands given only by their sizes."""
    items = []
    for it in game.setup.items:
        if isinstance(it, Hand) and it.seat in seats_to_hide:
            items.append(Hand(it.seat, None, it.size, it.comment))
        else:
            items.append(it)
    game.setup = Deal(items)
    return parse("%gwy 1\n" + format_game(game))[0]


@pytest.mark.parametrize("spec", SPECS)
def test_hiding_hands_never_makes_a_legal_game_wrong(spec):
    rules = parse_spec(spec)
    players = 10 if rules.packs == 2 else 4
    rng = random.Random(spec)
    for sim in simulate(players, 6, seed=7, rules=rules):
        n = len(sim.game.seats)
        for hide in (set(range(n)), {rng.randrange(n)}, set(rng.sample(range(n), n // 2))):
            g = hidden(parse("%gwy 1\n" + sim.text[sim.text.index("%game"):])[0], hide)
            assert not g.errors
            res = Referee(keep_engine=True).judge(g)
            assert res.diagnostics == [], (spec, sorted(hide), [(d.code, d.message) for d in res.diagnostics])
            assert res.finished and res.engine.view().loser == sim.loser
            assert E.check_invariant(res.engine) is None


def test_a_renege_in_a_hidden_game_is_still_found():
    """A renege the plays prove (a suit played later from the hand that showed none) is
    found with every hand hidden, at the tochoo."""
    found = 0
    for sim in simulate(4, 40, seed=3, rules=parse_spec("pagat"), mistakes=0.02):
        reneges = [m for m in sim.mistakes if m.code == "M201"]
        if not reneges:
            continue
        g = hidden(parse("%gwy 1\n" + sim.text[sim.text.index("%game"):])[0], set(range(4)))
        res = Referee().judge(g)
        codes = [d.code for d in res.diagnostics]
        # Hidden hands can only prove what the plays show; never a mistake that did not happen.
        assert set(codes) <= {m.code for m in sim.mistakes}, codes
        found += codes.count("M201")
    assert found > 0


UNSEEN_RENEGE = """%gwy 1

%game
[Seats "North East South West"]
[Rules "pagat"]
deal
North 13
East 13
South 13
West 13
1. West A♠, North J♠, East A♥, South 10♠
2. West 5♥, North 9♥, East Q♥, South J♥
3. East 3♥, South 7♥, West K♥, North 8♥
4. West 2♥, North 6♥, East K♣
counts {counts}
"""


@pytest.mark.parametrize("counts, penalised", [
    ("North 12, East 9, South 10, West 9", False),  # North, the tochoo's winner, holds the trick
    ("North 9, East 12, South 10, West 9", True),   # East, the offender, holds it: penalised
])
def test_a_penalised_tochoo_is_told_by_who_holds_the_trick_not_by_who_leads(counts, penalised):
    # No play follows the tochoo: only the count says where the 3 cards of trick 4 went, and
    # the referee reads the penalty (docs/rulings.md, ruling 1) from it.
    g = parse(UNSEEN_RENEGE.format(counts=counts), "u.gwy")[0]
    res = Referee().judge(g)
    assert [d.code for d in res.diagnostics] == (["M201"] if penalised else [])
    if penalised:
        p = res.diagnostics[0].penalty
        assert (p.seat, p.cards, p.trick, p.leads, p.applied) == ("East", 3, 4, 5, True)
