"""After a mistake at the table: did the table apply the penalty, or play on?

The record says what happened next, not what should have. When a player makes a mistake
and the trick is over, the referee builds the states the table could have gone on from
(the penalty applied, as ruling 1 says; the mistake unnoticed, in its possible forms) and
reads ahead in the record to see which one it follows: who leads the next trick (after the
takes and draws written before it), the counts written after the trick, and where the
offending card turns up next. The best fit wins; on a tie the penalty, which the rules
require, is taken.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Literal

from referee.engine.state import BETWEEN, Engine
from referee.notation.record import Counts, Draw, Play, Take, Trick

# The referee's flattened record, an entry per play, take, draw and count, in order:
# (kind, seat, card, trick number, item, index). A play is ("play", seat, card, number,
# trick, i), play i of a trick line, read as two ints: its Play value, made only when a
# diagnostic or a step asks, is play_of(entry). A take, draw or count is (kind, -1, -1,
# None, item, -1). The kind names the item's type, so a test of ``entry[0]`` tells mypy
# what the rest is; the entries of a trick line are made at C speed, with no Python
# object per play (issue 16).
PlayEntry = tuple[Literal["play"], int, int, int, Trick, int]
Entry = (PlayEntry | tuple[Literal["take"], int, int, None, Take, int]
         | tuple[Literal["draw"], int, int, None, Draw, int] | tuple[Literal["counts"], int, int, None, Counts, int])


def play_of(entry: PlayEntry) -> Play:
    """The Play value of a play's entry (the record's own: the same object every time)."""
    return entry[4].plays[entry[5]]


def after(entries: Sequence[Entry], k: int) -> Iterator[Entry]:
    """The entries after entry ``k``, without copying them."""
    return islice(entries, k + 1, None)


@dataclass(slots=True)
class Ahead:
    """What the record does after the item at index ``k`` (a play of trick ``trick``)."""

    more: bool  # the record goes on with plays to the same trick
    next_lead: int | None  # the seat that leads the next trick, if the record has one
    counts: Counts | None  # a count line right after the trick
    card_next_by: int | None  # the seat that next plays the card of the mistake


def read_ahead(entries: Sequence[Entry], k: int) -> Ahead:
    """What the record does after its entry ``k`` (a play)."""
    entry = entries[k]
    assert entry[0] == "play", "the look-ahead starts at a play"
    card, trick = entry[2], entry[3]
    rest = list(after(entries, k))
    first_play = next((e for e in rest if e[0] == "play"), None)
    more = first_play is not None and first_play[3] == trick
    next_lead = first_play[1] if first_play is not None and not more else None
    after_trick = next((e for e in rest if not (e[0] == "play" and e[3] == trick)), None)
    counts = after_trick[4] if after_trick is not None and after_trick[0] == "counts" else None
    by = next((e[1] for e in rest if e[0] == "play" and e[2] == card), None)
    return Ahead(more, next_lead, counts, by)


def with_takes_and_draws(x: Engine, entries: Sequence[Entry], k: int) -> Engine:
    """State ``x`` with the takes and draws the record writes before its next trick
    applied where legal (a copy; ``x`` itself when there are none)."""
    trick = entries[k][3]
    y: Engine | None = None
    for kind, _, _, t, item, _ in after(entries, k):
        if kind == "play":
            if t == trick:
                continue
            break
        if isinstance(item, Take) and item.taker >= 0 and item.target >= 0:
            y = y or x.copy()
            if y.judge_take(item.taker, item.target) is None:
                y.take(item.taker, item.target)
        elif isinstance(item, Draw) and item.seat >= 0 and item.card >= 0:
            y = y or x.copy()
            if y.judge_draw(item.seat, item.card, item.source) is None:
                y.draw(item.seat, item.card, item.source)
    return y or x


def fit(x: Engine, entries: Sequence[Entry], k: int, ahead: Ahead, card: int) -> int:
    """How well the record's continuation fits state ``x``: the next lead counts most,
    then the counts, then whether the card of the mistake is next played by a seat that
    holds it in ``x``."""
    y = with_takes_and_draws(x, entries, k)
    lead_ok = ahead.next_lead is None or (y.phase == BETWEEN and y.power == ahead.next_lead)
    counts_ok = ahead.counts is None or all(y.size(t) == n for t, n in ahead.counts.sizes if t >= 0)
    card_ok = ahead.card_next_by is None or y.may_hold(ahead.card_next_by, card)
    return 4 * lead_ok + 2 * counts_ok + card_ok


def choose(candidates: Sequence[tuple[str, Engine]], entries: Sequence[Entry], k: int, ahead: Ahead,
           card: int) -> str:
    """The name of the candidate state the record follows; the first on a tie."""
    best, best_fit = candidates[0][0], -1
    for name, x in candidates:
        f = fit(x, entries, k, ahead, card)
        if f > best_fit:
            best, best_fit = name, f
    return best
