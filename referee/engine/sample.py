"""The review's samples: a copy of a position with the unseen cards of the hands dealt at
random around what is known (``Engine.sample_unseen``): a seat's own hand, the suits each
seat has shown it lacks, and the cards the review read from its plays. :class:`Sample` is
that layer of :class:`~referee.engine.state.Engine`; each try deals on a fork, through the
fork's own methods.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from referee.engine.cards import BIT, CARD_COUNT, SUIT, held_cards
from referee.engine.events import PlayCard
from referee.engine.follow import Follow

if TYPE_CHECKING:
    import random

    from referee.engine.state import Engine


class Sample(Follow):
    """The review's samples of a position: the layer that deals the unseen cards."""

    __slots__ = ()

    def sample_unseen(self, rng: random.Random, known: Mapping[int, Sequence[int]] | None = None,
                      play: PlayCard | None = None, tries: int = 20, lacks: Sequence[int] = ()) -> Engine | None:
        """A copy of the position with every unseen card of the hands dealt (the review's
        samples): first the cards of ``known`` (a seat's own hand as it truly is), each placed
        if the seat has an unseen card left and may hold it; then the other unseen cards at
        random, never into a suit a seat has shown it lacks, the seats with the most such
        suits first. ``play``: the seat's play about to be made from this position, which
        shows what a card off the suit led shows (no card of that suit, nor in Donkey of the
        trumps). ``lacks``: per seat, a mask of cards (bit c: card c) to keep out of its hand
        where a deal allows (the review's reading of the plays); a deal that keeps them too
        is tried first (:meth:`_deal_around`). None if the waste pile holds unseen cards or
        no deal fits in ``tries`` tries."""
        known = known or {}
        if any(lacks):
            dealt = self._deal_around(known, lacks, rng, tries)
            if dealt is not None:
                f = self._deal_unseen(rng, {**known, **dealt}, play, tries)
                if f is not None:
                    return f
        return self._deal_unseen(rng, known, play, tries)

    def _deal_unseen(self, rng: random.Random, known: Mapping[int, Sequence[int]], play: PlayCard | None,
                     tries: int) -> Engine | None:
        if self._waste_unknown:
            return None
        for _ in range(tries):
            f = self.fork()
            if f._deal_into(rng, known, play):
                return f
        return None

    def _deal_into(self, rng: random.Random, known: Mapping[int, Sequence[int]], play: PlayCard | None) -> bool:
        """One try of :meth:`_deal_unseen`, on a fork: deal this position's unseen cards (the
        ``known`` ones first, the rest at random outside each seat's voids). True if every
        unseen card found a hand."""
        if play is not None:
            for suit in self.shows_void(play.seat, play.card):
                self._mark_void(play.seat, suit, None)
        for s, cards in known.items():
            for c in cards:
                if self._unknown[s] and not self._once[s] & BIT[c] and self.may_hold(s, c):
                    self._reveal(s, c)
        # Lowest card first, the single copies before the second ones: one order for a seed.
        pool = [c for c in range(CARD_COUNT) if self._hidden_once >> c & 1]
        pool += [c for c in range(CARD_COUNT) if self._hidden_twice >> c & 1]
        rng.shuffle(pool)
        void = self._void
        for s in sorted(range(self._n), key=lambda t: -void[t].bit_count()):
            need = self._unknown[s]
            if need == 0:
                continue
            lacking = void[s]
            picked = [c for c in pool if not lacking >> SUIT[c] & 1][:need]
            if len(picked) < need:
                return False
            for c in picked:
                pool.remove(c)
                self._reveal(s, c)
        return self._waste_unknown == 0 and not any(self._unknown)

    def _deal_around(self, known: Mapping[int, Sequence[int]], lacks: Sequence[int], rng: random.Random,
                     tries: int) -> dict[int, list[int]] | None:
        """The unseen cards of every hand not in ``known`` (whose hands must be whole with
        their cards), dealt at random, each to a seat that may hold it: no void of its suit
        and not in the seat's ``lacks``. None if a known hand is not whole, or no deal was
        found in ``tries`` tries."""
        n = self._n
        pool = list(held_cards(self._hidden_once, self._hidden_twice))
        need = list(self._unknown)  # each hand's unseen cards
        for s, cards in known.items():
            held = self._once[s]
            for c in cards:
                if c in pool and not held & BIT[c]:
                    pool.remove(c)
            if need[s] - sum(not held & BIT[c] for c in cards) != 0:
                return None
            need[s] = 0
        if sum(need) != len(pool):
            return None
        void = self._void
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
