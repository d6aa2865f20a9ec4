"""A draw is luck, not an opponent (issue 35 item 7; docs/rulings.md, ruling 11).

The classes by their definition, checked by an enumeration written here on its own, apart from
the solver and from tests/review_positions.py's brute force:

* **lost**: no position in which the seat has got away can be reached at all, by any play of
  anyone and any card drawn. That is a plain reachability question, answered here by walking
  every position reachable from the start (each position once), not by a game search;
* **safe**: the seat gets away whatever the others play and whatever is drawn, with its own
  best play: a recursive enumeration of every line, a position met again on the line being
  no escape;
* **open**: everything else.

Positions: 2 to 4 seats, at most 6 cards held, one to four cards in the waste pile, under the
rule sets that draw from the waste pile or from a hand; only positions from which a draw can
be reached are kept (200 of them, the solver asked about every seat).
"""

from __future__ import annotations

import random

from review_positions import random_position

from referee.engine.events import Action, DrawCard, TakeHand
from referee.engine.state import Engine, Phase
from referee.review.solver import SeatClass, Solver, solve

SPECS = ("pagat", "denexa", "donkey", "pagat taking=no", "pagat two_players=denexa",
         "pagat last_card=draw_hand", "pagat direction=anticlockwise")
WANTED = 200  # positions with a draw within reach
LIMIT = 3000  # positions an enumeration may visit; a bigger example is left out


class Big(Exception):
    """The enumeration met LIMIT: the example is left out."""


def _after(e: Engine, a: Action) -> Engine:
    c = e.copy()
    c.apply(a)
    return c


def _done(e: Engine, x: int) -> bool | None:
    """True once x has got away, False once the game is over with x in it, else None."""
    v = e.view()
    if x in v.out_order:
        return True
    if e.current_phase() is Phase.OVER:
        return v.loser != x
    return None


def reachable(e: Engine, x: int) -> tuple[bool, bool]:
    """(can a position where x got away be reached, can a draw be reached): every position
    reachable from ``e`` by any action, each visited once."""
    seen = {e.position_key()}
    todo = [e]
    escape = draw = False
    while todo:
        p = todo.pop()
        state = _done(p, x)
        if state is not None:
            escape = escape or state
            continue
        if p.current_phase() is Phase.DRAW_DUE:
            draw = True
        for a in p.legal_actions():
            c = _after(p, a)
            k = c.position_key()
            if k not in seen:
                if len(seen) >= LIMIT:
                    raise Big
                seen.add(k)
                todo.append(c)
    return escape, draw


def forced(e: Engine, x: int, line: frozenset[tuple[object, ...]], count: list[int]) -> bool:
    """Does x get away from ``e`` whatever the others play and whatever card is drawn?"""
    count[0] += 1
    if count[0] > LIMIT:
        raise Big
    state = _done(e, x)
    if state is not None:
        return state
    key = e.position_key()
    if key in line:
        return False  # round in a circle: no escape on this line
    line = line | {key}
    actions = e.legal_actions()
    if not actions:
        return False
    if e.current_phase() is Phase.DRAW_DUE:
        # Luck: every card of a hand (or of the pile) must do; the drawer picks the hand.
        hands: dict[int | None, list[Action]] = {}
        for a in actions:
            assert isinstance(a, DrawCard)
            hands.setdefault(a.source, []).append(a)
        each = [all(forced(_after(e, a), x, line, count) for a in draws) for draws in hands.values()]
        drawer = actions[0].seat  # type: ignore[union-attr]
        return any(each) if drawer == x else all(each)

    def who(a: Action) -> int:
        return a.taker if isinstance(a, TakeHand) else a.seat

    others = [a for a in actions if who(a) != x]
    own = [a for a in actions if who(a) == x]
    # The others may act first (a take between tricks, a play in a first trick in any order):
    # each of their actions must leave x getting away.
    for a in others:
        if not forced(_after(e, a), x, line, count):
            return False
    # If one of them must lead or play anyway, x never gets to choose here.
    if any(not isinstance(a, TakeHand) for a in others) or not own:
        return True
    return any(forced(_after(e, a), x, line, count) for a in own)


def enumerated_class(e: Engine, x: int) -> tuple[str, bool]:
    """x's class by the definitions above, and whether a draw can be reached."""
    escape, draw = reachable(e, x)
    if not escape:
        return "lost", draw
    return ("safe" if forced(e, x, frozenset(), [0]) else "open"), draw


def _to_a_draw(e: Engine, rng: random.Random) -> Engine:
    """Random play on from ``e`` (plays before takes) to a position with a draw due, if one
    comes within a few actions; else ``e``."""
    c = e.copy()
    for _ in range(30):
        if c.current_phase() is Phase.DRAW_DUE:
            return c
        actions = c.legal_actions()
        if c.current_phase() is Phase.OVER or not actions:
            break
        plays = [a for a in actions if not isinstance(a, TakeHand)]
        c.apply(rng.choice(plays or actions))
    return e


def _positions() -> list[tuple[int, Engine, dict[int, str]]]:
    """WANTED positions (seeded) with a draw within reach and the enumeration's classes."""
    out = []
    for seed in range(20_000):
        rng = random.Random(f"draws/{seed}")
        e = random_position(rng, max_held=6, players=rng.randint(2, 4), spec=rng.choice(SPECS),
                            waste=rng.randint(1, 4))
        if seed % 2:
            e = _to_a_draw(e, rng)
        if e.current_phase() is Phase.OVER:
            continue
        try:
            found = {x: enumerated_class(e, x) for x in e.in_game()}
        except Big:
            continue
        if not any(draw for _, draw in found.values()):
            continue
        out.append((seed, e, {x: c for x, (c, _) in found.items()}))
        if len(out) == WANTED:
            break
    return out


POSITIONS = _positions()


def test_the_positions_are_enough_and_varied() -> None:
    """200 positions, each with a draw within reach; 2, 3 and 4 seats; a seat that only luck
    can save (open where the old rule, the worst card, said lost) among them."""
    assert len(POSITIONS) == WANTED
    assert {len(e.view().sizes) for _, e, _ in POSITIONS} == {2, 3, 4}
    classes = [c for _, _, found in POSITIONS for c in found.values()]
    assert {"safe", "open", "lost"} <= set(classes)


def test_the_solver_agrees_with_the_enumeration_on_every_seat() -> None:
    for seed, e, want in POSITIONS:
        solver = Solver()
        got = {x: solver.classify(e, x).value for x in e.in_game()}
        assert got == want, (seed, e.rules.spec())


def test_a_seat_one_card_can_save_is_open_with_its_share_of_the_draws() -> None:
    """Where a draw is due, an open seat's share (Solver.draw_share) is the number of cards
    after which the enumeration finds it safe, out of the cards that may be drawn; a seat with
    a card that saves it and a card that dooms it is open, never lost."""
    checked = luck = 0
    for seed, e, want in POSITIONS:
        if e.current_phase() is not Phase.DRAW_DUE:
            continue
        draws = [a for a in e.legal_actions() if isinstance(a, DrawCard)]
        if len({a.source for a in draws}) != 1:
            continue  # the drawer picks a hand: the share is of the hand it picks
        solution = solve(e)
        for x in e.in_game():
            if want[x] != "open":
                assert x not in solution.draws
                continue
            safe_after = 0
            for a in draws:
                c = _after(e, a)
                state = _done(c, x)
                safe_after += state if state is not None else forced(c, x, frozenset(), [0])
            assert solution.draws.get(x) == (safe_after, len(draws)), (seed, x)
            checked += 1
            # The worst card would leave it without a way out: the old rule called it lost.
            luck += any(not reachable(_after(e, a), x)[0] for a in draws if _done(_after(e, a), x) is None)
    assert checked >= 10
    assert luck >= 1  # the case of the issue: a lucky card saves a seat the worst card dooms
