"""The exact search core of the review's solver (issue 28): can a seat get away, forced or with
everyone's help, in a position with every hand known?

It lives in the engine because it is the engine's hot path: a question visits up to a few
hundred thousand positions, so it reads the state's ints and masks where the rest of the
package reads ``view()``. It writes no rule: what may happen is what the engine lists
(``takes``, ``legal_cards``, the draw's source), and what follows is the engine's own
``play``/``lead``/``take``/``draw`` on a ``fork()``. The typed face of it, with its classes
and the play it shows, is :mod:`referee.review.solver`.

Inside, an action is a small int (no object per node), in the order ``legal_actions()``
lists them:

* a play: ``seat << 6 | card``;
* a take: ``TAKE | taker << 6 | target``;
* a draw: ``DRAW | (source + 1) << 12 | drawer << 6 | card`` (source 0: the waste pile).

How each kind of node is scored for the seat analysed (``x``), and why a loss met through a
repetition is not kept, is told in :mod:`referee.review.solver`; the rules of the search are
the same here, node for node.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from referee.engine.events import Action, DrawCard, PlayCard, TakeHand
from referee.engine.state import DRAW, MOVE_KIND, TAKE, Engine, Phase

__all__ = ["OPEN", "SAFE", "ExactSearch", "SearchLimit", "decode", "encode"]

# A search path is a few frames per action: long endings need more than Python's default.
if sys.getrecursionlimit() < 20_000:
    sys.setrecursionlimit(20_000)

SAFE, OPEN = 0, 1  # forced by the seat against all others; with everyone's help
_KIND = MOVE_KIND
_NO_REPEAT = 1 << 30  # no repetition met below a node: its loss holds on every path
WIDE = 12  # more actions than this (draws from the waste pile): no look-up of them all first


class SearchLimit(RuntimeError):
    """The search met its node budget before an answer."""


def encode(a: Action) -> int:
    """An action as the search's int."""
    if isinstance(a, PlayCard):
        return a.seat << 6 | a.card
    if isinstance(a, TakeHand):
        return TAKE | a.taker << 6 | a.target
    return DRAW | ((a.source + 1) if a.source is not None else 0) << 12 | a.seat << 6 | a.card


def decode(m: int) -> Action:
    """The search's int as an action."""
    kind = m & _KIND
    if kind == 0:
        return PlayCard(m >> 6 & 63, m & 63)
    if kind == TAKE:
        return TakeHand(m >> 6 & 63, m & 63)
    src = m >> 12 & 255
    return DrawCard(m >> 6 & 63, m & 63, src - 1 if src else None)


def _actor(m: int) -> int:
    return m >> 6 & 63


class ExactSearch:
    """The search with its transposition table and move-ordering history, kept across
    questions. ``table_size`` bounds the table (entries; the oldest half is dropped when it
    is full); ``max_nodes`` bounds one question (:class:`SearchLimit` beyond it), None for
    no bound."""

    def __init__(self, *, table_size: int = 400_000, max_nodes: int | None = None) -> None:
        self.table: dict[tuple[object, ...], int] = {}  # position -> answers packed (see _search)
        self.table_size = table_size
        self.max_nodes = max_nodes
        self.history: dict[int, int] = {}
        self.nodes = 0  # every node searched, over the search's life
        self._budget = 0

    def wins(self, e: Engine, seat: int, mode: int) -> bool:
        """Can ``seat`` get away: forced (``mode`` SAFE) or with everyone's help (OPEN)?"""
        self._budget = self.max_nodes if self.max_nodes is not None else -1
        won, _ = self._search(e, seat, mode, 0, {})
        return won

    def order(self, a: Action, seat: int) -> int:
        """How often the action decided a question about ``seat``: the move order's weight."""
        return self.history.get(encode(a) | seat << 24, 0)

    def _store(self, key: tuple[object, ...], x: int, mode: int, won: bool) -> None:
        table = self.table
        old = table.get(key)
        if old is None and len(table) >= self.table_size:
            # Dicts keep insertion order: drop the oldest half (a bound, not the machine's).
            for k in list(table)[: len(table) // 2]:
                del table[k]
        bit = 4 * x + 2 * mode
        table[key] = (old or 0) | (1 << bit) | (int(won) << (bit + 1))

    def _known(self, e: Engine, x: int, mode: int) -> tuple[bool | None, tuple[object, ...] | None]:
        """What is settled of ``e`` without a search: x out (a win), the game over, or the
        table's answer; None if nothing is. The position's key, when it was made."""
        done = e.settled_for(x)
        if done is not None:
            return done, None
        # One key a position; each entry packs, for every seat and mode, whether it is known
        # (bit 4x + 2mode) and its answer (the bit above); x and mode are fixed within one
        # question, so the path needs the position only.
        key = e.position_key()
        known = self.table.get(key)
        if known is not None:
            bit = 4 * x + 2 * mode
            if known >> bit & 1:
                return bool(known >> (bit + 1) & 1), key
            # Safe implies open: a safe win is an open win, an open loss a safe loss.
            other = 4 * x + 2 * (SAFE if mode == OPEN else OPEN)
            if known >> other & 1 and bool(known >> (other + 1) & 1) is (mode == OPEN):
                return mode == OPEN, key
        return None, key

    def _search(self, e: Engine, x: int, mode: int, depth: int,
                path: dict[tuple[object, ...], int], key: tuple[object, ...] | None = None) -> tuple[bool, int]:
        """(x wins, the shallowest path depth a repetition below met; _NO_REPEAT if none).
        ``key``: the position's, when the caller found nothing settled (:meth:`_known`)."""
        if key is None:
            settled, key = self._known(e, x, mode)
            if settled is not None:
                return settled, _NO_REPEAT
            assert key is not None
        seen = path.get(key)
        if seen is not None:
            return False, seen  # a repetition: not a finite escape on this path
        self.nodes += 1
        if self._budget >= 0:
            self._budget -= 1
            if self._budget < 0:
                raise SearchLimit(f"more than {self.max_nodes} positions")
        path[key] = depth
        actions = e.search_moves()
        if not actions:
            won, rep = False, _NO_REPEAT  # nothing may happen: no escape (the engine never stalls)
        elif e.current_phase() is Phase.DRAW_DUE:
            won, rep = self._draw(e, x, mode, depth, path, e.twin_draws(actions))
        elif mode == OPEN:
            won, rep = self._any(e, x, mode, depth, path, actions)
        else:
            mine = [a for a in actions if _actor(a) == x]
            theirs = [a for a in actions if _actor(a) != x]
            won, rep = self._all(e, x, mode, depth, path, theirs)
            if won and mine and not any(not a & TAKE for a in theirs):
                won, rep = self._any(e, x, mode, depth, path, mine)
        del path[key]
        if won or rep >= depth:
            self._store(key, x, mode, won)
        return won, (_NO_REPEAT if won else rep)

    def _ordered(self, actions: list[int], x: int) -> Sequence[int]:
        if len(actions) < 2:
            return actions
        h = self.history
        xk = x << 24  # a history per seat analysed: who helps or hurts it differs from seat to seat
        return sorted(actions, key=lambda a: -h.get(a | xk, 0))

    def _credit(self, a: int, x: int, e: Engine) -> None:
        """The action decided the question at ``e``: a weight that doubles with each card
        held there, so a decision near the top of the tree, over many positions, outweighs
        the many near its leaves (the history heuristic's weight by depth)."""
        k = a | x << 24
        held = e.held_known()
        self.history[k] = self.history.get(k, 0) + (1 << held)

    def _children(self, e: Engine, x: int, mode: int, actions: list[int],
                  decisive: bool) -> tuple[int, list[tuple[int, Engine, tuple[object, ...]]]]:
        """Every action's position, each looked up first (an enhanced transposition cutoff):
        (an action whose settled answer is ``decisive``, or -1; the positions still to search,
        in the move order)."""
        rest = []
        for a in self._ordered(actions, x):
            c = e.child(a)
            settled, key = self._known(c, x, mode)
            if settled is None:
                assert key is not None
                rest.append((a, c, key))
            elif settled is decisive:
                return a, []
        return -1, rest

    def _any(self, e: Engine, x: int, mode: int, depth: int, path: dict[tuple[object, ...], int],
             actions: list[int]) -> tuple[bool, int]:
        """x wins if one of these actions wins (x's choice)."""
        hit, rest = self._children(e, x, mode, actions, True)
        if hit >= 0:
            self._credit(hit, x, e)
            return True, _NO_REPEAT
        rep = _NO_REPEAT
        for a, c, key in rest:
            won, r = self._search(c, x, mode, depth + 1, path, key)
            if won:
                self._credit(a, x, e)
                return True, _NO_REPEAT
            rep = min(rep, r)
        return False, rep

    def _all(self, e: Engine, x: int, mode: int, depth: int, path: dict[tuple[object, ...], int],
             actions: list[int]) -> tuple[bool, int]:
        """x wins if every one of these actions wins (the adversary's, or chance's, choice)."""
        if len(actions) > WIDE:
            return self._all_in_turn(e, x, mode, depth, path, actions)
        hit, rest = self._children(e, x, mode, actions, False)
        if hit >= 0:
            self._credit(hit, x, e)
            return False, _NO_REPEAT
        for a, c, key in rest:
            won, r = self._search(c, x, mode, depth + 1, path, key)
            if not won:
                self._credit(a, x, e)
                return False, r
        return True, _NO_REPEAT

    def _all_in_turn(self, e: Engine, x: int, mode: int, depth: int, path: dict[tuple[object, ...], int],
                     actions: list[int]) -> tuple[bool, int]:
        """:meth:`_all` for many actions (a draw from a large waste pile), each position searched
        as it is made: looking every one up first costs more than it saves there."""
        for a in self._ordered(actions, x):
            won, r = self._search(e.child(a), x, mode, depth + 1, path)
            if not won:
                self._credit(a, x, e)
                return False, r
        return True, _NO_REPEAT

    def _draw(self, e: Engine, x: int, mode: int, depth: int, path: dict[tuple[object, ...], int],
              actions: list[int]) -> tuple[bool, int]:
        """A draw: the card is chance (the worst for x); the hand drawn from, where the
        drawer may pick it, is the drawer's choice."""
        by_source: dict[int, list[int]] = {}
        for a in actions:
            by_source.setdefault(a >> 12 & 255, []).append(a)
        drawer_helps = mode == OPEN or e.to_act() == x
        rep = _NO_REPEAT
        for cards in by_source.values():
            won, r = self._all(e, x, mode, depth, path, cards)
            if won and drawer_helps:
                return True, _NO_REPEAT
            if not won and not drawer_helps:
                return False, r
            rep = min(rep, r)
        if drawer_helps:
            return False, rep  # no hand to draw from lets x win
        return True, _NO_REPEAT  # every hand, every card lets x win
