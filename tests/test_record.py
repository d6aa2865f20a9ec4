"""The record's trick lines: the reader keeps a trick as its seats and cards and makes its
Play values only when asked (issue 16). Whichever way a trick is made, it says the same."""

from __future__ import annotations

from conftest import RECORDS

import referee
from referee.notation.record import Play, Span, Trick

ALL = sorted(RECORDS.glob("*.gwy"))


def tricks(path):
    return [a for g in referee.read(str(path)) for a in g.actions if isinstance(a, Trick)]


def test_seats_and_cards_are_the_plays_of_every_trick_read():
    for path in ALL:
        for t in tricks(path):
            seats, cards = list(t.seats), list(t.cards)  # before any Play is made
            assert [(p.seat, p.card) for p in t.plays] == list(zip(seats, cards)), (path, t.number)
            assert t.seats == seats and t.cards == cards  # and after


def test_a_trick_read_equals_the_same_trick_made_of_plays():
    for t in tricks(RECORDS / "pagat-example.gwy"):
        made = Trick(t.number, [Play(s, c) for s, c in zip(t.seats, t.cards)], t.comment)
        assert made == t and t == made
        assert Trick(t.number + 1, made.plays, t.comment) != t
        assert Trick(t.number, made.plays[:-1], t.comment) != t


def test_a_trick_changed_through_its_plays_says_so_everywhere():
    t = tricks(RECORDS / "pagat-example.gwy")[0]
    extra = Play(0, referee.parse_card("2C"))
    t.plays.append(extra)
    assert t.seats[-1] == 0 and t.cards[-1] == extra.card and len(t.seats) == len(t.plays)
    games = list(referee.read(str(RECORDS / "pagat-example.gwy")))
    assert games[0].actions[0] != t


def test_a_tricks_repr_evaluates_back_to_an_equal_trick():
    for t in tricks(RECORDS / "pagat-example.gwy"):
        assert eval(repr(t), {"Trick": Trick, "Play": Play}) == t


def test_a_trick_made_of_plays_keeps_the_list_it_was_given():
    # The simulator writes a trick as it is played: the list grows after the trick is made.
    plays: list[Play] = []
    t = Trick(3, plays, span=Span(4, 1, 40, 52))
    plays.extend([Play(1, 5), Play(2, 6)])
    assert t.seats == [1, 2] and t.cards == [5, 6] and t.span == Span(4, 1, 40, 52)


def test_a_game_counts_its_plays_from_its_tricks():
    game = next(iter(referee.read(str(RECORDS / "pagat-example.gwy"))))
    assert game.plays == sum(len(t.plays) for t in game.actions if isinstance(t, Trick)) > 0
