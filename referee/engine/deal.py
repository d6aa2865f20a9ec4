"""The pack and the deal: the cards a game is played with and how they are dealt.

Pagat, Getaway: Players and Cards (one pack of 52); Variations (a double pack, one of the
two aces of spades marked; piles dealt by eye). docs/rulings.md, ruling 7: an even deal
goes round from the player after the dealer, so the extra cards go to the players next
after the dealer. A program that embeds the referee deals with :func:`deal` and starts a
game with ``Engine.from_deal(rules, hands)``.
"""

from __future__ import annotations

import random

from referee.engine.cards import ACE_OF_SPADES, MARKED_ACE
from referee.engine.rules import RuleSet
from referee.engine.state import order_of_play

__all__ = ["deal", "pack", "pile_sizes", "play_order"]


def pack(rules: RuleSet) -> list[int]:
    """The cards of the pack: 52, or two packs of 52 with one of the two aces of spades
    marked (Pagat, Getaway, Variations: double pack)."""

    cards = list(range(52))
    if rules.packs == 2:
        cards += [c for c in range(52) if c != ACE_OF_SPADES] + [MARKED_ACE]
    return cards


def play_order(rules: RuleSet, players: int) -> list[int]:
    """The seats in the direction of play, as the engine orders them."""

    return list(order_of_play(rules, players))


def deal(rng: random.Random, rules: RuleSet, players: int, dealer: int | None = None) -> list[list[int]]:
    """Shuffle and deal. An even deal goes round one card at a time from the player after
    the dealer, so the extra cards of an uneven deal go to the players next after the dealer
    (ruling 7); a piles deal cuts the pack into piles of roughly equal, uncounted size
    (Pagat, Getaway, Variations)."""
    cards = pack(rules)
    rng.shuffle(cards)
    order = play_order(rules, players)
    if dealer is not None:
        i = order.index(dealer)
        order = order[i + 1:] + order[:i + 1]
    hands: list[list[int]] = [[] for _ in range(players)]
    if rules.deal == "piles":
        sizes = pile_sizes(rng, len(cards), players)
        at = 0
        for s, size in zip(order, sizes):
            hands[s] = cards[at:at + size]
            at += size
    else:
        for k, c in enumerate(cards):
            hands[order[k % players]].append(c)
    return hands


def pile_sizes(rng: random.Random, total: int, players: int) -> list[int]:
    """Piles that look about equal: each within a fifth of an equal share, at least one card,
    and (with more than one player) never all equal."""
    base = total // players
    sizes = [base + (1 if k < total % players else 0) for k in range(players)]
    if players < 2:
        return sizes
    slack = max(1, base // 5)
    moves = 0
    while moves < players * 2 or max(sizes) - min(sizes) < 2:
        a, b = rng.randrange(players), rng.randrange(players)
        k = rng.randint(1, slack)
        if a != b and sizes[a] - k >= max(1, base - slack) and sizes[b] + k <= base + slack + 1:
            sizes[a] -= k
            sizes[b] += k
        moves += 1
        if moves > 10_000:
            break
    return sizes
