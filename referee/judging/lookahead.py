"""After a mistake at the table: did the table apply the penalty, or play on?

The record says what happened next, not what should have. When a player makes a mistake
and the trick is over, the referee builds the states the table could have gone on from
(the penalty applied, as ruling 1 says; the mistake unnoticed, in its possible forms) and
tries each against the whole rest of the record (:func:`trial`): every later play, take
and draw must be one the state allows and every later count must agree, so the next lead, a
card of the trick played again later, or a count written two tricks on tells them apart.
The candidate that explains the record furthest wins; on a tie the first, in the order the
caller gives (docs/rulings.md, ruling 1: the penalty, then the card taken back by its
player, then the card left with the trick).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice
from typing import Literal

from referee.engine.cards import CARD_COUNT
from referee.engine.events import DrawCard, PlayCard, TakeHand
from referee.engine.state import Engine, IllegalAction
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


# PlayCard(seat, card) made once per seat and card, not once per play: the replay hands the
# engine one of these for every play of a record (PLAYS[seat][card]; see play_card).
PLAYS: list[list[PlayCard]] = []


def play_card(s: int, c: int) -> PlayCard:
    """The action of seat ``s`` playing card ``c``, the same object every time."""
    if s >= len(PLAYS):
        seats_for(s + 1)
    return PLAYS[s][c]


def seats_for(n: int) -> list[list[PlayCard]]:
    """:data:`PLAYS` with a row for each of ``n`` seats at least."""
    while len(PLAYS) < n:
        seat = len(PLAYS)
        PLAYS.append([PlayCard(seat, c) for c in range(CARD_COUNT)])
    return PLAYS


def play_of(entry: PlayEntry) -> Play:
    """The Play value of a play's entry (the record's own: the same object every time)."""
    return entry[4].plays[entry[5]]


def after(entries: Sequence[Entry], k: int) -> Iterator[Entry]:
    """The entries after entry ``k``, without copying them."""
    return islice(entries, k + 1, None)


def _explains(y: Engine, entry: Entry) -> bool:
    """Does state ``y`` allow the record's ``entry``? If so it is applied to ``y``."""
    kind, s, c, _, item, _ = entry
    try:
        if kind == "play":
            y.apply(play_card(s, c), events=False)
        elif isinstance(item, Take):
            if item.taker < 0 or item.target < 0:
                return False
            y.apply(TakeHand(item.taker, item.target), events=False)
        elif isinstance(item, Draw):
            if item.seat < 0 or item.card < 0:
                return False
            y.apply(DrawCard(item.seat, item.card, item.source), events=False)
    except IllegalAction:
        return False  # the rules do not allow it there: nothing changed
    # A count must agree with the state's sizes.
    return not (isinstance(item, Counts) and any(t >= 0 and y.size(t) != size for t, size in item.sizes))


def trial(x: Engine, entries: Sequence[Entry], start: int) -> int:
    """How many of the record's entries from ``start`` on state ``x`` explains, in order,
    before the first it cannot: a play or lead the rules do not allow there (out of turn,
    a card the seat cannot hold, ...), a take or draw not allowed, a count that disagrees.
    The state is played on a copy; ``x`` is unchanged. The whole rest explained gives the
    number of entries left."""
    y = x.copy()
    n = 0
    for entry in islice(entries, start, None):
        if not _explains(y, entry):
            return n
        n += 1
    return n


def best_trial(candidates: Sequence[tuple[str, Engine]], entries: Sequence[Entry], start: int) -> str:
    """The name of the candidate state that explains the record from ``start`` furthest, the
    first on a tie: :func:`trial` of each, run side by side and stopped as soon as one
    candidate is left that the record has not contradicted (it explains more than any
    other already), so the walk after a mistake costs a few entries, not the rest of the
    game, unless the record cannot tell the candidates apart."""
    names = [name for name, _ in candidates]
    states = [x.copy() for _, x in candidates]
    alive = list(range(len(states)))
    for entry in islice(entries, start, None):
        if len(alive) == 1:
            break
        still = [i for i in alive if _explains(states[i], entry)]
        if not still:
            break  # none explains this entry: the furthest were those alive before it
        alive = still
    return names[alive[0]]
