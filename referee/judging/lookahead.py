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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from referee.engine.state import BETWEEN, Engine
from referee.notation.record import Counts, Draw, Play, Take

# The referee's flattened record: (kind, item, trick number of a play or None). The kind
# names the item's type, so a test of ``entry[0]`` tells mypy what ``entry[1]`` is without a
# test of the item itself (the replay's plain play path reads millions of these).
PlayEntry = tuple[Literal["play"], Play, int]
Entry = (PlayEntry | tuple[Literal["take"], Take, None] | tuple[Literal["draw"], Draw, None]
         | tuple[Literal["counts"], Counts, None])


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
    _, play, trick = entry
    rest = entries[k + 1:]
    first_play = next((e for e in rest if e[0] == "play"), None)
    more = first_play is not None and first_play[2] == trick
    next_lead = first_play[1].seat if first_play is not None and not more else None
    after_trick = next(((kind, item) for kind, item, t in rest if not (kind == "play" and t == trick)), None)
    counts = after_trick[1] if after_trick is not None and isinstance(after_trick[1], Counts) else None
    by = next((e[1].seat for e in rest if e[0] == "play" and e[1].card == play.card), None)
    return Ahead(more, next_lead, counts, by)


def with_takes_and_draws(x: Engine, entries: Sequence[Entry], k: int) -> Engine:
    """State ``x`` with the takes and draws the record writes before its next trick
    applied where legal (a copy; ``x`` itself when there are none)."""
    trick = entries[k][2]
    y: Engine | None = None
    for kind, item, t in entries[k + 1:]:
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
