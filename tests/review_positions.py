"""Random endgame positions with every hand known, and a brute-force solver, for the
review's tests (issue 28): the brute force is the definition of the classes written as
plainly as possible (no table, no move order, no pruning), so the solver can be checked
against it."""

from __future__ import annotations

import random

from referee.engine.events import Action, DrawCard, TakeHand
from referee.engine.moves import position_key, settled_for
from referee.engine.rules import RuleSet, rule_set
from referee.engine.state import Engine, Phase

# Rule sets the positions are drawn under: the presets and the options that change an
# ending (the last card, taking, the double pack, the direction, the two-player rule).
RULE_SPECS = (
    "pagat", "denexa", "donkey", "pagat taking=no", "pagat last_card=draw_hand",
    "pagat last_card=draw_hand draw_from=any", "pagat packs=2", "pagat direction=anticlockwise",
    "donkey last_card=pass_lead", "pagat two_players=denexa",
)


def random_position(rng: random.Random, max_held: int = 8, players: int | None = None,
                    spec: str | None = None, waste: int | None = None) -> Engine:
    """A position between tricks (then a few random legal actions on): 2-6 seats, some
    out, at most ``max_held`` cards held, a few cards in the waste pile (``waste``: that many)."""
    rules: RuleSet = rule_set(spec or rng.choice(RULE_SPECS))
    n = players or rng.randint(2, 6)
    pack = list(range(52)) * (2 if rules.packs == 2 else 1)
    rng.shuffle(pack)
    in_game = rng.randint(2, n)
    seats = rng.sample(range(n), in_game)
    held = rng.randint(in_game, max(in_game, max_held))
    sizes = [1] * in_game
    for _ in range(held - in_game):
        sizes[rng.randrange(in_game)] += 1
    hands: list[list[int] | None] = [None] * n
    for s, k in zip(seats, sizes):
        hand: list[int] = []
        while len(hand) < k:
            c = pack.pop()
            if rules.packs == 2 and c in hand:
                continue  # two copies in one hand: allowed, but keep hands plain
            hand.append(c)
        hands[s] = hand
    pile = [pack.pop() for _ in range(rng.choice((0, 1, 2, 3)) if waste is None else waste)]
    out = [s for s in range(n) if hands[s] is None]
    trump = rng.randrange(4) if rules.trumps and rng.random() < 0.7 else -1
    e = Engine.from_position(rules, hands, out, pile, rng.choice(seats), 5, trump)
    for _ in range(rng.choice((0, 0, 1, 2, 3))):
        actions = e.legal_actions()
        if e.current_phase() is Phase.OVER or not actions:
            break
        e.apply(rng.choice(actions))
    return e


def _actor(a: Action) -> int:
    return a.taker if isinstance(a, TakeHand) else a.seat


class TooBig(Exception):
    """The brute force met its budget of positions: the example is left out."""


def brute_wins(e: Engine, x: int, cooperative: bool, path: frozenset[tuple[object, ...]] = frozenset(),
               budget: list[int] | None = None) -> bool:
    """Can ``x`` get away from ``e``: forced (not ``cooperative``: whatever the others play and
    whatever card is drawn) or with everyone's help and some card drawn (``cooperative``;
    docs/rulings.md, ruling 11)? A repetition is no escape. ``budget``
    ([positions]) raises TooBig when it runs out."""
    if budget is not None:
        budget[0] -= 1
        if budget[0] < 0:
            raise TooBig
    done = settled_for(e, x)  # x out, or the game over
    if done is not None:
        return done
    key = position_key(e)  # what decides the future: the engine's own notion of one position
    if key in path:
        return False
    path = path | {key}
    actions = e.legal_actions()

    def after(a: Action) -> bool:
        c = e.copy()
        c.apply(a)
        return brute_wins(c, x, cooperative, path, budget)

    if not actions:
        return False
    if e.current_phase() is Phase.DRAW_DUE:
        sources: dict[int | None, list[Action]] = {}
        for a in actions:
            assert isinstance(a, DrawCard)
            sources.setdefault(a.source, []).append(a)
        if cooperative:
            return any(after(a) for a in actions)  # a draw is luck: one card that lets x away is enough
        results = [all(after(a) for a in cards) for cards in sources.values()]
        return any(results) if e.to_act() == x else all(results)
    if cooperative:
        return any(after(a) for a in actions)
    mine = [a for a in actions if _actor(a) == x]
    theirs = [a for a in actions if _actor(a) != x]
    if not all(after(a) for a in theirs):
        return False
    if any(not isinstance(a, TakeHand) for a in theirs) or not mine:
        return True
    return any(after(a) for a in mine)


def brute_class(e: Engine, x: int, budget: int | None = None) -> str:
    b = None if budget is None else [budget]
    if not brute_wins(e, x, True, budget=b):
        return "lost"
    return "safe" if brute_wins(e, x, False, budget=b) else "open"


__all__ = ["RULE_SPECS", "TooBig", "brute_class", "brute_wins", "random_position"]
