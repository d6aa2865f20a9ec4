"""Engine.view(): the position as frozen values, true to what the engine then allows.

The view is what the rest of the package is to read instead of the engine's fields (issue
23), so it must say what the rules engine does: the seat it names to act is the seat whose
plays are legal, its counts account for every card of the pack, and it never changes when
the game moves on.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import referee
from referee import DrawCard, Engine, Phase, PlayCard, TakeHand
from referee.engine.codes import Code
from referee.engine.events import ANY_SOURCE, Effect, LegalReason, MistakeMade, PlayAnyway, Played

PRESET_NAMES = sorted(referee.PRESETS)


def games(seed: int, preset: str, players: int):  # type: ignore[no-untyped-def]
    """Each position of one game played at random through legal_actions() and apply()."""
    rng = random.Random(seed)
    rules = referee.rule_set(preset)
    engine = Engine.from_deal(rules, referee.deal(rng, rules, players))
    while True:
        yield engine
        actions = engine.legal_actions()
        if not actions:
            return
        plays = [a for a in actions if not isinstance(a, TakeHand)]
        engine.apply(rng.choice(plays or actions))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(PRESET_NAMES), players=st.integers(2, 7))
def test_the_view_names_the_seat_whose_plays_are_legal_and_accounts_for_every_card(
        seed: int, preset: str, players: int) -> None:
    pack = len(referee.pack(referee.rule_set(preset)))
    for engine in games(seed, preset, players):
        view = engine.view()
        actions = engine.legal_actions()
        players_who_may_play = {a.seat for a in actions if isinstance(a, PlayCard)}
        drawers = {a.seat for a in actions if isinstance(a, DrawCard)}
        # every card is in a hand, on the table or in the waste pile (a clean trick may wait
        # for the next one before it goes to the pile)
        assert sum(view.sizes) + len(view.trick) + view.waste_size <= pack
        assert all(len(known) <= size for known, size in zip(view.known, view.sizes))
        if view.phase == Phase.OVER:
            assert not actions and view.loser is not None
            assert view.sizes[view.loser] == view.legs
            continue
        assert view.loser is None
        if view.phase == Phase.BETWEEN:
            assert players_who_may_play == {view.leader} and view.to_act == view.leader
        elif view.phase == Phase.DRAW_DUE:
            assert drawers == {view.to_act}
        elif view.phase == Phase.IN_TRICK and view.to_act >= 0:
            assert players_who_may_play == {view.to_act}
            assert view.trick and view.trick[0][0] == view.leader
        for seat in view.out_order:
            assert view.sizes[seat] == 0 and seat not in players_who_may_play


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_view_is_frozen_and_keeps_its_position_when_the_game_moves_on(preset: str) -> None:
    positions = games(3, preset, 4)
    engine = next(positions)
    before = engine.view()
    kept = dataclasses.replace(before)
    for _ in range(20):
        engine = next(positions)
    assert before == kept and engine.view() != before
    with pytest.raises(dataclasses.FrozenInstanceError):
        before.trick_no = 9  # type: ignore[misc]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(PRESET_NAMES), players=st.integers(2, 7),
       last_card=st.sampled_from(["draw_waste", "draw_hand", "pass_lead"]))
def test_the_view_says_where_a_draw_comes_from_who_picked_up_and_the_order_of_play(
        seed: int, preset: str, players: int, last_card: str) -> None:
    rng = random.Random(seed)
    rules = referee.rule_set(preset).with_options(last_card=last_card)
    engine = Engine.from_deal(rules, referee.deal(rng, rules, players))
    order = engine.view().order
    # Every seat once, seat 0 first, in the direction of play.
    assert sorted(order) == list(range(players)) and order[0] == 0
    assert order[1] == (1 if rules.direction == "clockwise" else players - 1)
    while True:
        view = engine.view()
        actions = engine.legal_actions()
        if not actions:
            return
        assert view.first_trick == (view.trick_no == 1)
        draws = [a for a in actions if isinstance(a, DrawCard)]
        if view.phase == Phase.DRAW_DUE:
            sources = {a.source for a in draws}
            if view.draw_source is None:
                assert sources <= {None}  # the waste pile (its known cards)
            elif view.draw_source == ANY_SOURCE:  # any other player's hand
                assert view.to_act not in sources and None not in sources
            else:
                assert sources <= {view.draw_source}
        else:
            assert view.draw_source is None
        plays = [a for a in actions if not isinstance(a, TakeHand)]
        action = rng.choice(plays or actions)
        events = engine.apply(action)
        after = engine.view()
        picked = [e for e in events if isinstance(e, referee.PickedUp)]
        if picked:
            # A tochoo ended the trick: the view names who picked it up.
            assert after.picked_up_by == picked[-1].seat
        elif any(isinstance(e, referee.TrickToWaste) for e in events):
            assert after.picked_up_by is None


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(PRESET_NAMES), players=st.integers(3, 7))
def test_the_view_names_the_seats_still_to_play_and_a_trick_the_table_played_on(
        seed: int, preset: str, players: int) -> None:
    """``still_to_play`` are the seats the engine still lets play to the trick on the table
    (in turn or not); after a play out of turn that the table let stand (ruling 1, not
    penalised) the trick is ``as_played``: nobody's turn, the ordinary rules for the rest,
    and once a tochoo is in it (``tochoo``) nobody plays to it any more."""
    played_on_seen = 0
    for engine in games(seed, preset, players):
        view = engine.view()
        if view.phase != Phase.IN_TRICK:
            assert view.still_to_play == () and not view.as_played and not view.tochoo
            continue
        assert not view.as_played  # a game of legal plays only
        may = tuple(s for s in view.order if engine.legal(s).reason is not LegalReason.NONE)
        assert view.still_to_play == may and (view.to_act < 0 or view.to_act in may)
        later = [s for s in view.still_to_play if s != view.to_act and view.known[s]]
        if view.to_act < 0 or not later:
            continue
        # someone after the seat whose turn it is plays now, and the table plays on
        table = engine.fork()
        out_of_turn = later[-1]
        events = table.apply(PlayAnyway(out_of_turn, view.known[out_of_turn][0]))
        assert isinstance(events[0], MistakeMade) and events[0].code == Code.OUT_OF_TURN
        on = table.view()
        if on.phase != Phase.IN_TRICK:
            continue  # the play ended the trick (or the game)
        played_on_seen += 1
        assert on.as_played and on.to_act == -1 and out_of_turn not in on.still_to_play
        assert on.tochoo == any(isinstance(e, Played) and e.effect is Effect.TOCHOO for e in events)
        if on.tochoo:
            assert all(table.legal(s).reason is LegalReason.NONE for s in on.order)
    if players > 3 and preset != "donkey":
        assert played_on_seen  # the game had a trick in which a later seat could play early
