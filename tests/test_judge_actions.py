"""The judge's side of the engine's typed API (issue 23): what an action would break, with its
facts typed per code; what a card from a hand nobody has seen shows; and the record followed
where the rules cannot allow it, through typed actions that change nothing when the state
cannot follow them."""

from __future__ import annotations

import pytest

from referee.engine.cards import parse_card
from referee.engine.events import ForgetVoid, MarkVoid, PlayAnyway, PlayCard, SwapFromWaste, VoidShown
from referee.engine.rules import rule_set
from referee.engine.state import CannotFollow, Engine, SuitHeld, TurnOf


def cards(text: str) -> list[int]:
    found = [parse_card(w) for w in text.split()]
    assert None not in found
    return [c for c in found if c is not None]


def table(seat1: list[int] | int) -> Engine:
    """Three players at trick 2, seat 0 to lead; seat 1's hand given, or unseen (a size)."""
    return Engine.from_position(rule_set("pagat"), [cards("2S 5H"), seat1, cards("4S 7H")], [], None, 0, 2)


def test_a_renege_names_the_suit_held_and_a_play_out_of_turn_whose_turn_it_was() -> None:
    e = table(cards("3S 6H"))
    e.apply(PlayCard(0, cards("2S")[0]))
    before = e.view()
    renege = e.verdict(PlayCard(1, cards("6H")[0]))
    assert renege is not None and renege.detail == SuitHeld(0)  # seat 1 holds a spade
    early = e.verdict(PlayCard(2, cards("4S")[0]))
    assert early is not None and early.detail == TurnOf(1)  # seat 1 plays before seat 2
    assert e.verdict(PlayCard(1, cards("3S")[0])) is None
    assert e.view() == before  # asking changes nothing
    # The same mistake played on is judged alike, and applied only through apply_mistake.
    played_on = e.verdict(PlayAnyway(1, cards("6H")[0]))
    assert played_on is not None and played_on.code == renege.code


def test_an_off_suit_card_from_an_unseen_hand_shows_a_void_the_engine_keeps_with_its_play() -> None:
    e = table(2)
    e.apply(PlayCard(0, cards("2S")[0]))
    heart = cards("6H")[0]
    # Seat 1's unseen cards may hold a spade (3S is nowhere seen): the heart may be a renege.
    assert e.could_have_followed(1, heart)
    assert e.shows_void(1, heart) == (0,)
    assert not e.could_have_followed(1, cards("3S")[0]) and e.shows_void(1, cards("3S")[0]) == ()
    e.apply(PlayCard(1, heart))  # legal: nobody has seen a spade in that hand
    shown = VoidShown(item=1, trick=2, seat=1, card=heart, first=False)
    e.apply_mistake(MarkVoid(1, 0, shown))
    assert e.unseen_void(1, 0) == shown
    assert e.view().voids[1] == (0,)
    e.apply_mistake(ForgetVoid(1, 0))
    assert e.unseen_void(1, 0) is None and e.view().voids[1] == ()


def test_a_record_the_state_cannot_follow_raises_and_changes_nothing() -> None:
    e = table(cards("3S 6H"))
    before = e.view()
    # Seat 0 holds no unseen card to put in the waste pile in place of the one it plays.
    with pytest.raises(CannotFollow):
        e.apply_mistake(SwapFromWaste(0, cards("9D")[0]))
    assert e.view() == before
