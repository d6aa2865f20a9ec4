"""The review's samples: a copy of a position with the unseen cards of the hands dealt at
random around what is known (``Engine.sample_unseen``): a seat's own hand, the suits each
seat has shown it lacks, and the cards the review read from its plays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from referee.engine.cards import BIT, CARD_COUNT, SUIT, held_cards
from referee.engine.events import PlayCard

if TYPE_CHECKING:
    import random

    from referee.engine.state import Engine


def deal_unseen(e: Engine, rng: random.Random, known: Mapping[int, Sequence[int]], play: PlayCard | None,
                 tries: int) -> Engine | None:
    if e._waste_unknown:
        return None
    for _ in range(tries):
        f = e.fork()
        if play is not None:
            for suit in f.shows_void(play.seat, play.card):
                f._mark_void(play.seat, suit, None)
        for s, cards in known.items():
            for c in cards:
                if f._unknown[s] and not f._once[s] & BIT[c] and f.may_hold(s, c):
                    f._reveal(s, c)
        # Lowest card first, the single copies before the second ones: one order for a seed.
        pool = [c for c in range(CARD_COUNT) if f._hidden_once >> c & 1]
        pool += [c for c in range(CARD_COUNT) if f._hidden_twice >> c & 1]
        rng.shuffle(pool)
        ok = True
        for s in sorted(range(f._n), key=lambda t: -f._void[t].bit_count()):
            need = f._unknown[s]
            if need == 0:
                continue
            void = f._void[s]
            picked = [c for c in pool if not void >> SUIT[c] & 1][:need]
            if len(picked) < need:
                ok = False
                break
            for c in picked:
                pool.remove(c)
                f._reveal(s, c)
        if ok and f._waste_unknown == 0 and not any(f._unknown):
            return f
    return None


def deal_around(e: Engine, known: Mapping[int, Sequence[int]], lacks: Sequence[int], rng: random.Random,
                 tries: int) -> dict[int, list[int]] | None:
    """The unseen cards of every hand not in ``known`` (whose hands must be whole with
    their cards), dealt at random, each to a seat that may hold it: no void of its suit
    and not in the seat's ``lacks``. None if a known hand is not whole, or no deal was
    found in ``tries`` tries."""
    n = e._n
    pool = list(held_cards(e._hidden_once, e._hidden_twice))
    need = list(e._unknown)  # each hand's unseen cards
    for s, cards in known.items():
        held = e._once[s]
        for c in cards:
            if c in pool and not held & BIT[c]:
                pool.remove(c)
        if need[s] - sum(not held & BIT[c] for c in cards) != 0:
            return None
        need[s] = 0
    if sum(need) != len(pool):
        return None
    void = e._void
    takers = {c: [s for s in range(n) if need[s] and not void[s] >> SUIT[c] & 1 and not lacks[s] >> c & 1]
              for c in set(pool)}
    for _ in range(tries):
        # The cards fewest seats may hold first (random among equals), each to a seat in
        # proportion to the cards it still lacks: nearly even over the deals that fit.
        order = sorted(pool, key=lambda c: (len(takers[c]), rng.random()))
        left = list(need)
        out: dict[int, list[int]] = {}
        for c in order:
            can = [s for s in takers[c] if left[s]]
            if not can:
                break
            pick = rng.randrange(sum(left[s] for s in can))
            for s in can:
                pick -= left[s]
                if pick < 0:
                    break
            left[s] -= 1
            out.setdefault(s, []).append(c)
        else:
            return out
    return None
