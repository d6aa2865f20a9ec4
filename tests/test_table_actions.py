"""What the table does that the rules do not allow, as typed actions through ``Engine.apply``:
ruling 1's penalty (``Penalise``), a mistake played on (``PlayAnyway``) and the end of such a
trick (``EndTrick``). A program that follows a record or makes mistakes on purpose (the
simulator) relies on these: the engine judges the card, says what was broken with its facts,
and applies the penalty as docs/rulings.md, ruling 1 says.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import referee
from referee import (
    EndTrick,
    Engine,
    IllegalAction,
    LeadReason,
    MistakeMade,
    Penalise,
    Penalty,
    Phase,
    PlayAnyway,
    PlayCard,
    TakeHand,
)
from referee.engine.cards import SUIT
from referee.engine.codes import Code

P = referee.parse_card


def in_trick(seed: int, players: int, preset: str = "pagat") -> Engine | None:
    """A game played at random to a trick after the first with at least one card on the table."""
    rng = random.Random(seed)
    rules = referee.rule_set(preset).with_options(taking=False)
    engine = Engine.from_deal(rules, referee.deal(rng, rules, players))
    stop = rng.randint(8, 40)
    for _ in range(stop):
        actions = [a for a in engine.legal_actions() if not isinstance(a, TakeHand)]
        if not actions:
            return None
        engine.apply(rng.choice(actions))
    while engine.view().phase != Phase.IN_TRICK or engine.view().first_trick:
        actions = engine.legal_actions()
        if not actions:
            return None
        engine.apply(rng.choice(actions))
    return engine


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000), players=st.integers(3, 6))
def test_a_renege_penalised_picks_up_the_trick_and_leads_with_its_proof(seed: int, players: int) -> None:
    engine = in_trick(seed, players)
    if engine is None:
        return
    view = engine.view()
    seat = view.to_act
    led = SUIT[view.trick[0][1]]
    off = [c for c in view.known[seat] if SUIT[c] != led]
    if not off or not any(SUIT[c] == led for c in view.known[seat]):
        return  # nothing to renege with
    card = off[0]
    with pytest.raises(IllegalAction) as refused:
        engine.apply(PlayCard(seat, card))
    assert refused.value.verdict.code == Code.RENEGE
    events = engine.apply(Penalise(seat, card))
    mistake = events[0]
    assert isinstance(mistake, MistakeMade)
    assert (mistake.code, mistake.seat, mistake.card, mistake.suit) == (Code.RENEGE, seat, card, led)
    assert mistake.proof in view.known[seat] and mistake.proof is not None and SUIT[mistake.proof] == led
    # the penalty as one fact: the offender, the cards of this trick, and who leads next (ruling 1: the offender)
    assert Penalty(seat, len(view.trick) + 1, view.trick_no, seat) in events
    after = engine.view()
    # Ruling 1: every card of the trick, the offender's own included, goes to the offender.
    assert after.sizes[seat] == view.sizes[seat] + len(view.trick)
    assert [after.sizes[s] for s in range(players) if s != seat] == [view.sizes[s] for s in range(players) if s != seat]
    if after.phase != Phase.OVER:
        assert after.to_act == seat and after.lead_why == LeadReason.PENALTY
        assert after.trick_no == view.trick_no + 1


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000), players=st.integers(3, 6))
def test_a_play_out_of_turn_names_whose_turn_it_was(seed: int, players: int) -> None:
    engine = in_trick(seed, players)
    if engine is None:
        return
    view = engine.view()
    played = {s for s, _ in view.trick}
    others = [s for s in view.order if s != view.to_act and s not in played and view.sizes[s] > 0
              and s not in view.out_order]
    if not others:
        return
    seat = others[0]
    card = view.known[seat][0]
    mistake = engine.apply(Penalise(seat, card))[0]
    assert mistake == MistakeMade(Code.OUT_OF_TURN, seat, card, turn=view.to_act)


def test_a_legal_play_or_a_card_not_held_is_refused_and_changes_nothing() -> None:
    engine = in_trick(3, 4)
    assert engine is not None
    view = engine.view()
    seat = view.to_act
    legal = engine.legal(seat).cards[0]
    with pytest.raises(ValueError, match="legal play"):
        engine.apply(Penalise(seat, legal))
    with pytest.raises(ValueError, match="legal play"):
        engine.apply(PlayAnyway(seat, legal))
    elsewhere = next(c for c in view.known[(seat + 1) % 4] if c not in view.known[seat])
    with pytest.raises(IllegalAction) as refused:
        engine.apply(Penalise(seat, elsewhere))
    assert refused.value.verdict.code == Code.NOT_IN_HAND
    with pytest.raises(ValueError, match="no trick played on"):
        engine.apply(EndTrick())
    assert engine.view() == view


def deal_of_the_doc() -> Engine:
    """docs/library.md's deal, the first trick played and Anu leading 2♥ to trick 2."""
    hands = [[P(w) for w in h.split()] for h in (
        "A♠ 2♥ 3♥ 4♦ 5♦ 6♦ 7♦ 8♦ 10♦ J♦ Q♦ K♦ A♦", "K♠ 5♥ 6♣ 7♣ 2♠ 3♠ 4♠ 5♠ 6♠ 4♥ 6♥ 7♥ 9♥",
        "Q♠ 8♥ 9♦ J♣ 7♠ 8♠ 9♠ 10♠ J♥ Q♥ K♥ A♥ 2♣", "J♠ 10♥ 2♦ 3♦ 3♣ 4♣ 5♣ 8♣ 9♣ 10♣ Q♣ K♣ A♣")]
    engine = Engine.from_deal(referee.rule_set("pagat"), hands)
    for seat, card in ((0, "A♠"), (1, "K♠"), (2, "Q♠"), (3, "J♠"), (0, "2♥")):
        engine.apply(PlayCard(seat, P(card)))
    return engine


def test_a_play_after_a_tochoo_penalised_undoes_the_pickup() -> None:
    engine = deal_of_the_doc()
    # Trick 2 goes clean to the waste pile; Dev leads 3♣ and Anu's 3♥ is a tochoo: Dev picks up.
    for seat, card in ((1, "5♥"), (2, "8♥"), (3, "10♥"), (3, "3♣"), (0, "3♥")):
        engine.apply(PlayCard(seat, P(card)))
    before = engine.view()
    assert before.picked_up_by == 3 and before.sizes == (10, 11, 11, 12) and before.trick_no == 4
    # Babu, who had not played to trick 3, plays 7♣ to it after the tochoo.
    mistake = engine.apply(Penalise(1, P("7♣"), late=True))[0]
    assert mistake == MistakeMade(Code.AFTER_TOCHOO, 1, P("7♣"))
    after = engine.view()
    # Dev gives back the two cards; Babu picks up the three, its 7♣ among them, and leads trick 4.
    assert after.sizes == (10, 13, 11, 10)
    assert after.to_act == 1 and after.trick_no == 4 and after.lead_why == LeadReason.PENALTY


def test_a_lead_out_of_turn_played_on_is_led_by_its_player() -> None:
    engine = deal_of_the_doc()
    for seat, card in ((1, "5♥"), (2, "8♥"), (3, "10♥")):  # a clean trick: Dev has the power
        engine.apply(PlayCard(seat, P(card)))
    assert engine.view().to_act == 3
    events = engine.apply(PlayAnyway(1, P("7♣")))
    assert events[0] == MistakeMade(Code.OUT_OF_TURN, 1, P("7♣"), turn=3)
    view = engine.view()
    assert view.phase == Phase.IN_TRICK and view.leader == 1 and view.lead_why == LeadReason.TABLE
    assert view.trick == ((1, P("7♣")),)
