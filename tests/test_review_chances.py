"""The review's chances (issue 28): the deals sampled for a play agree with what the mover
could know, and the marks follow the rise in the chance of losing."""

from __future__ import annotations

import random

import pytest
from conftest import RECORDS

import referee
from referee.engine.cards import RANK, SUIT, SUIT_MASK
from referee.engine.events import PlayCard
from referee.notation.record import Play
from referee.players.solver import solvable
from referee.review.review import (
    chance,
    mark_for,
    prior_weight,
    revealed_lacks,
    review_game,
    sample_position,
    view_steps,
)


@pytest.mark.parametrize("record", ["review-blunder.gwy", "take-and-draw.gwy", "donkey.gwy", "pagat-example.gwy"])
def test_sampled_deals_agree_with_what_the_mover_knew(record: str) -> None:
    game = next(iter(referee.read(RECORDS / record)))
    steps = list(referee.replay(game, snapshots=True))
    views: dict[int, list[referee.Step]] = {}
    rng = random.Random(record)
    checked = 0
    for k, step in enumerate(steps):
        if not isinstance(step.item, Play) or step.diagnostics or k % 3:
            continue
        seat, card = step.item.seat, step.item.card
        view = views.setdefault(seat, view_steps(game, seat, None, len(steps)))[k].before
        true = step.before
        f = sample_position(view, true, seat, PlayCard(seat, card), rng)
        assert f is not None
        checked += 1
        assert solvable(f)
        for s in range(true._n):
            assert f.size(s) == true.size(s), s
            # A card the view did not show in the hand is never of a suit the seat showed it lacked.
            for c in f.known(s):
                if not view._once[s] >> c & 1:
                    assert not view._void[s] >> SUIT[c] & 1, (s, c)
        if true._unknown[seat] == 0:
            assert f.known(seat) == true.known(seat)  # the mover's own hand, as it was
        else:
            assert card in f.known(seat)
        f.apply(PlayCard(seat, card))  # the play the record holds is legal in the sample
    assert checked >= 5


def test_marks_follow_the_rise_in_the_chance_of_losing() -> None:
    assert [mark_for(r) for r in (-0.5, 0.0, 0.09, 0.1, 0.19, 0.2, 0.29, 0.3, 1.0)] == [
        "", "", "", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_a_review_is_seeded() -> None:
    game = next(iter(referee.read(RECORDS / "take-and-draw.gwy")))
    a = review_game(game, samples=3, seed=5)
    b = review_game(game, samples=3, seed=5)
    assert [(p.chance_before, p.chance_after, p.mark) for p in a.plays] == [
        (p.chance_before, p.chance_after, p.mark) for p in b.plays]
    assert any(p.samples == 3 for p in a.plays)


def test_every_seat_has_a_chance_at_every_play() -> None:
    game = next(iter(referee.read(RECORDS / "donkey.gwy")))
    a = review_game(game, samples=3, seed=2)
    b = review_game(game, samples=3, seed=2)
    assert [p.chances for p in a.plays] == [p.chances for p in b.plays]  # seeded
    steps = list(referee.replay(game, snapshots=True))
    views: dict[int, list[referee.Step]] = {}
    for p in a.plays:
        assert len(p.chances) == len(a.seats)
        # The position after the play: the next step's copy of it, or the end of the walk.
        after = steps[p.step + 1].before if p.step + 1 < len(steps) else steps[p.step].after
        for s, c in enumerate(p.chances):
            if c is None:
                continue  # no deal consistent with the seat's view was found in a few tries
            now = after.view()
            if s in now.out_order:
                assert c == 0.0  # a seat that got away cannot lose
                continue
            if now.phase == referee.Phase.OVER:
                continue  # the loser of a finished game: 1, the game's result
            # The samples lost (at most 3 samples), with prior_weight samples more that lose an even
            # share; none where the seat saw every card (every sample is then one deal).
            view = views.setdefault(s, view_steps(game, s, None, len(steps)))
            seen = view[p.step + 1].before if p.step + 1 < len(view) else view[p.step].after
            prior = 0 if solvable(seen) else prior_weight(len(now.sizes) - len(now.out_order))
            share = prior / (len(now.sizes) - len(now.out_order))
            assert any(abs(c * (n + prior) - share - round(c * (n + prior) - share)) < 1e-9
                       and -1e-9 <= c * (n + prior) - share <= n + 1e-9 for n in (1, 2, 3)), c
    assert sum(c is None for p in a.plays for c in p.chances) < len(a.plays)
    last = a.plays[-1]
    assert a.loser is not None
    assert last.chances == [float(name == a.loser) for name in a.seats]
    # Before the end, more than one seat could still lose in some seat's eyes.
    assert any(sum(c is not None and 0 < c < 1 for c in p.chances) >= 2 for p in a.plays)



def test_a_chance_is_drawn_towards_an_even_share_by_the_prior() -> None:
    """A few samples alone are too sure: 0 lost of 12 is not a chance of 0, 12 of 12 not 1.
    The prior's samples lose an even share: with no samples the chance is that share, and
    the more samples the nearer the chance is to their share."""
    assert chance(0, 0, 4) == pytest.approx(0.25)
    assert 0 < chance(0, 12, 4) < chance(0, 4, 4) < 0.25
    assert 0.25 < chance(4, 4, 4) < chance(12, 12, 4) < 1
    assert chance(6, 12, 2) == pytest.approx(0.5)  # a half is already the even share of two
    assert chance(3, 12, 4) == pytest.approx(0.25)
    assert chance(0, 12, 4, prior=0) == 0.0  # no prior: the samples' share as it is


def test_the_prior_weighs_less_the_fewer_seats_are_left() -> None:
    """With fewer seats left fewer cards are unseen and the samples are nearer the truth: a
    seat that lost every sample with one other seat left is nearer certain than with three."""
    weights = [prior_weight(n) for n in range(2, 9)]
    assert weights == sorted(weights) and weights[0] > 0
    assert chance(12, 12, 2) > chance(12, 12, 3) > chance(12, 12, 4)
    assert chance(0, 12, 2) < chance(0, 12, 3) < chance(0, 12, 4)
    for n in range(2, 9):
        assert chance(0, 0, n) == pytest.approx(1 / n)  # no sample: the even share


@pytest.mark.parametrize("spec,players", [("pagat", 4), ("pagat", 3), ("donkey", 4)])
def test_what_the_plays_say_of_a_hand_holds_for_the_bots_that_made_them(spec: str, players: int) -> None:
    """A sensible bot that follows plays its lowest card of the suit, and one that cannot
    follow sheds its highest card: what its plays say it lacked, it truly lacked, at every
    point of the game and for every seat's view. And it says something: cards beyond the
    voids are ruled out, so the samples are dealt with fewer wrong hands."""
    from referee.selfplay.simulate import simulate

    ruled_out = 0
    for g in simulate(players, 4, 11, referee.rule_set(spec)):
        steps = list(referee.replay(g.game, snapshots=True))
        for viewer in range(players):
            view = view_steps(g.game, viewer, None, len(steps))
            for k in range(0, len(view), 2):
                lacks = revealed_lacks(view, k)
                seen = view[k].before
                for s in range(players):
                    if s == viewer:
                        continue
                    voids = sum(SUIT_MASK[suit] for suit in seen.view().voids[s])
                    ruled_out += bin(lacks[s] & ~voids).count("1")
                    unseen = [c for c in steps[k].before.known(s) if c not in seen.known(s)]
                    assert not [c for c in unseen if lacks[s] >> c & 1], (g.number, k, viewer, s)
    assert ruled_out > 100


def test_a_sample_never_deals_a_hand_a_card_its_plays_said_it_lacked() -> None:
    """The samples follow what the plays revealed (where some deal fits it): a seat that
    followed with a card is never dealt a lower card of that suit, one that shed a card on
    a tochoo never a higher card; the truth is such a deal, so one always fits."""
    from referee.selfplay.simulate import simulate

    checked = 0
    for g in simulate(4, 3, 12):
        steps = list(referee.replay(g.game, snapshots=True))
        view = view_steps(g.game, 0, None, len(steps))
        for k in range(1, len(view), 3):
            lacks = revealed_lacks(view, k)
            seen = view[k].before
            for j in range(4):
                f = sample_position(seen, steps[k].before, 0, None, random.Random(f"{g.number}/{k}/{j}"), lacks)
                assert f is not None
                for s in range(1, 4):
                    dealt = [c for c in f.known(s) if c not in seen.known(s)]
                    assert len(f.known(s)) == steps[k].before.size(s)
                    assert not [c for c in dealt if lacks[s] >> c & 1], (g.number, k, s)
                    checked += bool(dealt)
    assert checked > 50


def test_the_first_lead_and_a_follow_say_what_the_bots_mean() -> None:
    """The first lead is the card the rules ask for: it says nothing of the hand. A card
    that follows suit after it says the seat held no lower card of that suit."""
    from referee.selfplay.simulate import simulate

    g = next(iter(simulate(4, 1, 3)))
    steps = list(referee.replay(g.game, snapshots=True))
    view = view_steps(g.game, 0, None, len(steps))
    first = view[0].item
    assert isinstance(first, Play)
    assert revealed_lacks(view, 1)[first.seat] == 0
    # The first later trick's follows (after the first trick): lower cards of the suit ruled out.
    for k, step in enumerate(view):
        turn = step.before.turn()
        if isinstance(step.item, Play) and turn.trick and not turn.first_trick \
                and SUIT[step.item.card] == SUIT[turn.trick[0][1]]:
            t, x = step.item.seat, step.item.card
            lacked = revealed_lacks(view, k + 1)[t]
            new = lacked & ~revealed_lacks(view, k)[t]  # what this play added
            lower = [c for c in range(52) if SUIT[c] == SUIT[x] and RANK[c] < RANK[x]]
            assert all(lacked >> c & 1 for c in lower)
            assert new and not [c for c in range(53) if new >> c & 1 and c not in lower]
            break
    else:
        pytest.fail("no follow after the first trick")
