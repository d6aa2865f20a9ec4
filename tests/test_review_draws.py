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

from draw_enumeration import Big, _after, _done, draw_share, enumerated_class, reachable
from review_positions import random_position

from referee.engine.events import DrawCard, TakeHand
from referee.engine.state import Engine, Phase
from referee.players.solver import Solver, solve

SPECS = ("pagat", "denexa", "donkey", "pagat taking=no", "pagat two_players=denexa",
         "pagat last_card=draw_hand", "pagat direction=anticlockwise")
WANTED = 200  # positions with a draw within reach


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
            assert solution.draws.get(x) == draw_share(e, x), (seed, x)
            checked += 1
            # The worst card would leave it without a way out: the old rule called it lost.
            luck += any(not reachable(_after(e, a), x)[0] for a in draws if _done(_after(e, a), x) is None)
    assert checked >= 10
    assert luck >= 1  # the case of the issue: a lucky card saves a seat the worst card dooms
