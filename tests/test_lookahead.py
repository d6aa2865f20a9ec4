"""The look-ahead after a mistake (referee/judging/lookahead.py): what the record does next,
and which state the table went on from."""

from __future__ import annotations

from referee.engine.cards import parse_card
from referee.engine.rules import parse_spec
from referee.engine.state import Engine
from referee.judging.lookahead import Entry, choose, fit, read_ahead, with_takes_and_draws
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


def test_read_ahead_finds_the_next_lead_the_counts_and_where_the_card_turns_up() -> None:
    rec = entries((2, 2, "6H"), Counts(((0, 13), (2, 12))), (3, 0, "7D"), (3, 1, "8D"), (4, 2, "6H"))
    a = read_ahead(rec, 0)
    assert not a.more and a.next_lead == 0
    assert a.counts is not None and a.counts.sizes == ((0, 13), (2, 12))
    assert a.card_next_by == 2  # South plays the 6♥ again in trick 4


def test_read_ahead_sees_play_going_on_with_the_same_trick() -> None:
    rec = entries((5, 2, "AD"), (5, 1, "JD"), (6, 0, "2C"))
    a = read_ahead(rec, 0)
    assert a.more and a.next_lead is None


def test_takes_before_the_next_trick_are_applied_to_a_copy() -> None:
    rules = parse_spec("pagat")
    e = Engine.from_deal(rules, [13, 13, 13, 13])
    e.phase = 1  # between tricks
    e.power, e.first = 0, False
    rec = entries((2, 3, "5H"), Take(0, 1), (3, 0, "7D"))
    y = with_takes_and_draws(e, rec, 0)
    assert y is not e and y.size(0) == 26 and e.size(0) == 13


def test_the_continuation_the_record_follows_is_chosen_penalty_first_on_a_tie() -> None:
    rules = parse_spec("pagat")
    north_leads = Engine.from_deal(rules, [13, 13, 13, 13])
    north_leads.phase, north_leads.power, north_leads.first = 1, 0, False
    south_leads = north_leads.copy()
    south_leads.power = 2
    rec = entries((2, 2, "6H"), (3, 0, "7D"))
    a = read_ahead(rec, 0)
    assert fit(north_leads, rec, 0, a, card("6H")) > fit(south_leads, rec, 0, a, card("6H"))
    assert choose([("penalty", south_leads), ("ignored", north_leads)], rec, 0, a, card("6H")) == "ignored"
    # Nothing to tell them apart: the penalty, which the rules require, is taken.
    blank = entries((2, 2, "6H"))
    assert choose([("penalty", south_leads), ("ignored", north_leads)], blank, 0, read_ahead(blank, 0),
                  card("6H")) == "penalty"
