"""The classes of the review by their definition (issue 35 item 7; docs/rulings.md, ruling
11), enumerated plainly and apart from the solver, for the review's tests:

* **lost**: no position in which the seat has got away can be reached at all, by any play of
  anyone and any card drawn: a reachability question, answered by walking every position
  reachable from the start (each once), not by a game search;
* **safe**: the seat gets away whatever the others play and whatever is drawn, with its own
  best play: a recursive enumeration of every line, a position met again on the line being
  no escape;
* **open**: everything else.
"""

from __future__ import annotations

from referee.engine.events import Action, DrawCard, TakeHand
from referee.engine.moves import position_key
from referee.engine.state import Engine, Phase

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


def reachable(e: Engine, x: int, limit: int = LIMIT) -> tuple[bool, bool]:
    """(can a position where x got away be reached, can a draw be reached): every position
    reachable from ``e`` by any action, each visited once."""
    seen = {position_key(e)}
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
            k = position_key(c)
            if k not in seen:
                if len(seen) >= limit:
                    raise Big
                seen.add(k)
                todo.append(c)
    return escape, draw


def forced(e: Engine, x: int, line: frozenset[tuple[object, ...]], count: list[int], limit: int = LIMIT) -> bool:
    """Does x get away from ``e`` whatever the others play and whatever card is drawn?"""
    count[0] += 1
    if count[0] > limit:
        raise Big
    state = _done(e, x)
    if state is not None:
        return state
    key = position_key(e)
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
        each = [all(forced(_after(e, a), x, line, count, limit) for a in draws) for draws in hands.values()]
        drawer = actions[0].seat  # type: ignore[union-attr]
        return any(each) if drawer == x else all(each)

    def who(a: Action) -> int:
        return a.taker if isinstance(a, TakeHand) else a.seat

    others = [a for a in actions if who(a) != x]
    own = [a for a in actions if who(a) == x]
    # The others may act first (a take between tricks, a play in a first trick in any order):
    # each of their actions must leave x getting away.
    for a in others:
        if not forced(_after(e, a), x, line, count, limit):
            return False
    # If one of them must lead or play anyway, x never gets to choose here.
    if any(not isinstance(a, TakeHand) for a in others) or not own:
        return True
    return any(forced(_after(e, a), x, line, count, limit) for a in own)


def enumerated_class(e: Engine, x: int, limit: int = LIMIT) -> tuple[str, bool]:
    """x's class by the definitions above, and whether a draw can be reached."""
    escape, draw = reachable(e, x, limit)
    if not escape:
        return "lost", draw
    return ("safe" if forced(e, x, frozenset(), [0], limit) else "open"), draw


def draw_share(e: Engine, x: int, limit: int = LIMIT) -> tuple[int, int]:
    """With a draw due from one hand or pile: (the cards after which x is safe, the cards)."""
    draws = [a for a in e.legal_actions() if isinstance(a, DrawCard)]
    safe = 0
    for a in draws:
        c = _after(e, a)
        state = _done(c, x)
        safe += state if state is not None else forced(c, x, frozenset(), [0], limit)
    return safe, len(draws)


__all__ = ["LIMIT", "Big", "draw_share", "enumerated_class", "forced", "reachable"]
