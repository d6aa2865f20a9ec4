"""The look-ahead after a mistake (referee/judging/lookahead.py): which state the table
went on from, tried against the rest of the record."""

from __future__ import annotations

from referee.engine.cards import parse_card
from referee.engine.rules import parse_spec
from referee.engine.state import Engine
from referee.judging.lookahead import Entry, best_trial, trial
from referee.notation.record import Counts, Play, Take, Trick


def card(text: str) -> int:
    c = parse_card(text)
    assert c is not None
    return c


def entries(*items: tuple[int, int, str] | Counts | Take) -> list[Entry]:
    """The referee's flattened record: plays carry their seat, card and trick number, and
    their trick line (one line a play here)."""
    out: list[Entry] = []
    for it in items:
        if isinstance(it, tuple):
            trick, seat, c = it
            out.append(("play", seat, card(c), trick, Trick(trick, [Play(seat, card(c))]), 0))
        elif isinstance(it, Counts):
            out.append(("counts", -1, -1, None, it, -1))
        else:
            out.append(("take", -1, -1, None, it, -1))
    return out


def between(power: int) -> Engine:
    """Four seats of 13 unseen cards, between tricks 2 and 3, ``power`` to lead."""
    e = Engine.from_deal(parse_spec("pagat"), [13, 13, 13, 13])
    e._phase, e._power, e._first, e._trick_no = 1, power, False, 3
    return e


def test_a_state_explains_the_record_up_to_the_first_play_it_does_not_allow() -> None:
    rec = entries((3, 0, "7D"), (3, 1, "8D"), (3, 2, "9D"), (3, 3, "10D"))
    assert trial(between(0), rec, 0) == 4  # North leads, all follow: the whole rest
    assert trial(between(2), rec, 0) == 0  # South has the power: North's lead is out of turn
    assert trial(between(0), rec, 2) == 0  # from the third entry North has not led: South out of turn


def test_a_later_count_tells_the_states_apart() -> None:
    plays = [(3, 0, "7D"), (3, 1, "8D"), (3, 2, "9D"), (3, 3, "10D")]
    true = entries(*plays, Counts(((0, 12), (2, 12))), (4, 3, "2C"))
    false = entries(*plays, Counts(((0, 13), (2, 12))), (4, 3, "2C"))
    assert trial(between(0), true, 0) == 6
    assert trial(between(0), false, 0) == 4  # the count is not explained, nor what follows it


def test_a_take_the_state_does_not_allow_ends_the_trial() -> None:
    rec = entries(Take(0, 1), (3, 0, "7D"))
    assert trial(between(0), rec, 0) == 2
    assert trial(between(0), entries(Take(0, 2), (3, 0, "7D")), 0) == 0  # not the next seat


def test_the_candidate_that_explains_most_wins_and_the_first_on_a_tie() -> None:
    rec = entries((3, 2, "6H"), (3, 3, "7H"))
    # The penalty (North leads) fails at once; South leading explains all of it.
    assert best_trial([("penalty", between(0)), ("ignored", between(2))], rec, 0) == "ignored"
    # Nothing to tell them apart: the first, the penalty that the rules require.
    assert best_trial([("penalty", between(2)), ("ignored", between(2))], rec, 0) == "penalty"
    # Neither explains the whole record: the one that explains more of it.
    longer = entries((3, 1, "6H"), (3, 2, "7H"), (3, 3, "8H"), (3, 0, "9H"), (4, 2, "10H"))  # South leads: not its lead
    assert best_trial([("north", between(0)), ("east", between(1))], longer, 0) == "east"
    assert trial(between(1), longer, 0) == 4 and trial(between(0), longer, 0) == 0
