"""The exact endgame solver: with every hand known, can a seat force its getting away?

For each seat still in the game the solver gives one of three classes (issue 28):

* **safe**: the seat can force its getting away whatever everyone else does: the seat
  against a coalition of all the others;
* **open**: it cannot force it, but some play by everyone lets it get away;
* **lost**: no play by anyone lets it get away.

The search asks the engine for everything: ``Engine.legal_actions()`` for what may happen,
``Engine.apply()`` on an ``Engine.fork()`` for what follows. No rule is written here.

How each kind of node is scored, for the seat analysed (``x``):

* **a draw** (from the waste pile, or from a hand in the draw-hand variant) is chance, and
  chance is scored as the worst case for ``x``: every card that may be drawn must leave
  ``x`` winning. Where the drawer may pick the hand it draws from, the drawer picks it.
* **safe**: ``x`` chooses its own actions; every other seat is one adversary. Where several
  seats may act at once (a take by anyone between tricks, the first trick in any order) the
  adversary may act first: every action of theirs must leave ``x`` winning, and then ``x``
  needs one winning action of its own unless the others must act anyway (a lead or a play
  of theirs is among their actions).
* **open**: every seat's action is a choice in ``x``'s favour; only draws are against it.

Picked-up cards go back to hands, so a position can come again. A forced escape must be
finite: a position met again on the path counts as not getting away. A win found that way
holds whatever the path (it never used a repetition); a loss holds only if every repetition
it met was of a position at or below it, so only those losses enter the transposition
table (the rest were true on this path only; the graph-history problem of game search).
Cards are not merged into equivalence classes: each card is its own move (no equivalence
is assumed that is not proven).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from referee.engine.events import Action, DrawCard, TakeHand
from referee.engine.state import DRAW_DUE, IN_TRICK, OVER, Engine

__all__ = ["NotSolvable", "SearchLimit", "SeatClass", "Solution", "Solver", "cards_held", "solvable", "solve"]

# A search path is a few frames per action: long endings need more than Python's default.
if sys.getrecursionlimit() < 20_000:
    sys.setrecursionlimit(20_000)

# No repetition met below a node: its loss holds on every path.
_NO_REPEAT = 1 << 30
_SAFE, _OPEN = 0, 1


class SeatClass(str, Enum):
    """What a seat can make of a position with every hand known."""

    SAFE = "safe"
    OPEN = "open"
    LOST = "lost"

    @property
    def rank(self) -> int:
        """lost 0 < open 1 < safe 2: higher is better for the seat."""
        return _RANK[self]


_RANK = {SeatClass.LOST: 0, SeatClass.OPEN: 1, SeatClass.SAFE: 2}


class NotSolvable(ValueError):
    """The position holds cards nobody has seen (a hand or the waste pile): the solver
    needs every hand known."""


class SearchLimit(RuntimeError):
    """The search met its node budget before an answer (``Solver(max_nodes=...)``)."""


def solvable(e: Engine) -> bool:
    """Is every card of the position known: no unseen card in a hand or the waste pile?"""
    return e.waste_unknown == 0 and not any(e.unknown)


def cards_held(e: Engine) -> int:
    """How many cards the seats still in the game hold."""
    return sum(e.size(s) for s in e.in_game())


def actor(a: Action) -> int:
    """The seat that makes an action (the drawer of a draw)."""
    if isinstance(a, TakeHand):
        return a.taker
    return a.seat


def state_key(e: Engine) -> tuple[object, ...]:
    """Everything of a position that decides what may follow (not the trick number, the
    event log or why the leader leads): two positions with one key have one future."""
    return (e.phase, tuple(e.once), tuple(e.twice), tuple(e.out), e.waste_once, e.waste_twice, e.power,
            e.drawer, e.draw_source, tuple(e.trick), tuple(e.pending), e.tochoo, e.trump, e.first,
            e.drawn_lead, e.active, e.played)


@dataclass(frozen=True, slots=True)
class Solution:
    """What :func:`solve` found: each seat's class, and for each seat that may act now an
    action of its own that keeps its class (None if it has none to choose)."""

    classes: dict[int, SeatClass]
    best: dict[int, Action | None] = field(default_factory=dict)
    nodes: int = 0


class Solver:
    """A solver with its transposition table and move-ordering history, kept across calls
    (a game's review asks about many positions of one game). ``table_size`` bounds the
    table (entries; the oldest half is dropped when it is full); ``max_nodes`` bounds one
    call's search (:class:`SearchLimit` beyond it), None for no bound."""

    def __init__(self, *, table_size: int = 400_000, max_nodes: int | None = None) -> None:
        self.table: dict[tuple[object, ...], int] = {}  # position -> answers packed (see _search)
        self.table_size = table_size
        self.max_nodes = max_nodes
        self.history: dict[Action, int] = {}
        self.nodes = 0  # every node searched, over the solver's life
        self._budget = 0

    # ---- the classes ------------------------------------------------------------------------

    def classify(self, e: Engine, seat: int) -> SeatClass:
        """The class of ``seat`` (still in the game) in the position ``e``."""
        if not solvable(e):
            raise NotSolvable("a hand or the waste pile holds unseen cards")
        if e.out[seat]:
            raise ValueError(f"seat {seat} has got away already")
        if not self.wins(e, seat, _OPEN):
            return SeatClass.LOST
        return SeatClass.SAFE if self.wins(e, seat, _SAFE) else SeatClass.OPEN

    def choices(self, e: Engine, seat: int) -> list[tuple[Action, SeatClass]]:
        """The seat's own actions now (plays and takes, not draws: a draw is chance), each
        with the seat's class after it (a seat that gets away by it is safe)."""
        out: list[tuple[Action, SeatClass]] = []
        for a in e.legal_actions():
            if isinstance(a, DrawCard) or actor(a) != seat:
                continue
            child = e.fork()
            child.apply(a)
            out.append((a, SeatClass.SAFE if child.out[seat] else self.classify(child, seat)))
        return out

    def best(self, e: Engine, seat: int) -> Action | None:
        """An action of the seat's own that keeps its best class, the first found in the
        solver's move order; None if it has no action to choose now."""
        options = self.choices(e, seat)
        if not options:
            return None
        top = max(c.rank for _, c in options)
        picks = [a for a, c in options if c.rank == top]
        return max(picks, key=lambda a: self.history.get(a, 0))

    def line(self, e: Engine, seat: int, length: int = 12) -> list[Action]:
        """The play the solver shows for ``seat``: the seat keeps its best class; every other
        seat answers with what is worst for it; a draw is the worst card for it. Up to
        ``length`` actions, or until the seat is out or the game over."""
        out: list[Action] = []
        e = e.fork()
        while len(out) < length and e.phase != OVER and not e.out[seat]:
            actions = e.legal_actions()
            if not actions:
                break
            mover = e.to_act()
            mine = [a for a in actions if not isinstance(a, DrawCard) and actor(a) == seat]
            if mine and (mover == seat or mover < 0 or e.phase == IN_TRICK):
                pick = self.best(e, seat)
                assert pick is not None
            else:
                # Others (or chance) act: the action worst for the seat; plays and draws of
                # the seat due to act, takes by others only if they do worse to the seat.
                pool = [a for a in actions if actor(a) != seat]
                scored = []
                for a in pool:
                    child = e.fork()
                    child.apply(a)
                    rank = 3 if child.out[seat] else (0 if child.phase == OVER and child.loser == seat
                                                      else self.classify(child, seat).rank)
                    scored.append((rank, not isinstance(a, TakeHand), a))
                if not scored:
                    break
                pick = min(scored, key=lambda t: (t[0], not t[1]))[2]
            out.append(pick)
            e.apply(pick)
        return out

    # ---- the search ---------------------------------------------------------------------------

    def wins(self, e: Engine, seat: int, mode: int) -> bool:
        """Can ``seat`` get away: forced (``mode`` safe) or with everyone's help (open)?"""
        self._budget = self.max_nodes if self.max_nodes is not None else -1
        won, _ = self._search(e, seat, mode, 0, {})
        return won

    def _store(self, key: tuple[object, ...], x: int, mode: int, won: bool) -> None:
        table = self.table
        old = table.get(key)
        if old is None and len(table) >= self.table_size:
            # Dicts keep insertion order: drop the oldest half (a bound, not the machine's).
            for k in list(table)[: len(table) // 2]:
                del table[k]
        bit = 4 * x + 2 * mode
        table[key] = (old or 0) | (1 << bit) | (int(won) << (bit + 1))

    def _search(self, e: Engine, x: int, mode: int, depth: int,
                path: dict[tuple[object, ...], int]) -> tuple[bool, int]:
        """(x wins, the shallowest path depth a repetition below met; _NO_REPEAT if none)."""
        if e.out[x]:
            return True, _NO_REPEAT
        if e.phase == OVER:
            return e.loser != x, _NO_REPEAT
        # One key a position, hashed once a lookup; each entry packs, for every seat and
        # mode, whether it is known (bit 4x + 2mode) and its answer (the bit above); x and
        # mode are fixed within one question, so the path needs the position only.
        key = state_key(e)
        known = self.table.get(key)
        if known is not None:
            bit = 4 * x + 2 * mode
            if known >> bit & 1:
                return bool(known >> (bit + 1) & 1), _NO_REPEAT
            # Safe implies open: a safe win is an open win, an open loss a safe loss.
            other = 4 * x + 2 * (_SAFE if mode == _OPEN else _OPEN)
            if known >> other & 1 and bool(known >> (other + 1) & 1) is (mode == _OPEN):
                return mode == _OPEN, _NO_REPEAT
        seen = path.get(key)
        if seen is not None:
            return False, seen  # a repetition: not a finite escape on this path
        self.nodes += 1
        if self._budget >= 0:
            self._budget -= 1
            if self._budget < 0:
                raise SearchLimit(f"more than {self.max_nodes} positions")
        path[key] = depth
        actions = e.legal_actions()
        if not actions:
            won, rep = False, _NO_REPEAT  # nothing may happen: no escape (the engine never stalls)
        elif e.phase == DRAW_DUE:
            won, rep = self._draw(e, x, mode, depth, path, actions)
        elif mode == _OPEN:
            won, rep = self._any(e, x, mode, depth, path, actions)
        else:
            mine = [a for a in actions if actor(a) == x]
            theirs = [a for a in actions if actor(a) != x]
            won, rep = self._all(e, x, mode, depth, path, theirs)
            if won and mine and not any(not isinstance(a, TakeHand) for a in theirs):
                won, rep = self._any(e, x, mode, depth, path, mine)
        del path[key]
        if won or rep >= depth:
            self._store(key, x, mode, won)
        return won, (_NO_REPEAT if won else rep)

    def _child(self, e: Engine, a: Action) -> Engine:
        child = e.fork()
        child.do(a)  # an action legal_actions() listed: no second judgement, no events
        return child

    def _ordered(self, actions: Sequence[Action]) -> Sequence[Action]:
        if len(actions) < 2:
            return actions
        h = self.history
        return sorted(actions, key=lambda a: -h.get(a, 0))

    def _any(self, e: Engine, x: int, mode: int, depth: int, path: dict[tuple[object, ...], int],
             actions: Sequence[Action]) -> tuple[bool, int]:
        """x wins if one of these actions wins (x's choice)."""
        rep = _NO_REPEAT
        for a in self._ordered(actions):
            won, r = self._search(self._child(e, a), x, mode, depth + 1, path)
            if won:
                self.history[a] = self.history.get(a, 0) + 1
                return True, _NO_REPEAT
            rep = min(rep, r)
        return False, rep

    def _all(self, e: Engine, x: int, mode: int, depth: int, path: dict[tuple[object, ...], int],
             actions: Sequence[Action]) -> tuple[bool, int]:
        """x wins if every one of these actions wins (the adversary's, or chance's, choice)."""
        for a in self._ordered(actions):
            won, r = self._search(self._child(e, a), x, mode, depth + 1, path)
            if not won:
                self.history[a] = self.history.get(a, 0) + 1
                return False, r
        return True, _NO_REPEAT

    def _draw(self, e: Engine, x: int, mode: int, depth: int, path: dict[tuple[object, ...], int],
              actions: Sequence[Action]) -> tuple[bool, int]:
        """A draw: the card is chance (the worst for x); the hand drawn from, where the
        drawer may pick it, is the drawer's choice."""
        by_source: dict[int | None, list[Action]] = {}
        for a in actions:
            assert isinstance(a, DrawCard)
            by_source.setdefault(a.source, []).append(a)
        drawer_helps = mode == _OPEN or e.drawer == x
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


def solve(engine: Engine, seats: Sequence[int] | None = None, *, solver: Solver | None = None,
          max_nodes: int | None = None) -> Solution:
    """Classify each seat still in the game (or ``seats``) of a position with every hand
    known, and find for each seat that may act now an action that keeps its class.

    Raises :class:`NotSolvable` if a hand or the waste pile holds unseen cards, and
    :class:`SearchLimit` if ``max_nodes`` positions did not settle it."""
    if not solvable(engine):
        raise NotSolvable("a hand or the waste pile holds unseen cards")
    s = solver if solver is not None else Solver(max_nodes=max_nodes)
    start = s.nodes
    if engine.phase == OVER:
        chosen = [t for t in engine.in_game() if seats is None or t in seats]
        return Solution({t: SeatClass.LOST for t in chosen if t == engine.loser}, {}, 0)
    targets = [t for t in engine.in_game() if seats is None or t in seats]
    classes = {t: s.classify(engine, t) for t in targets}
    acting = {actor(a) for a in engine.legal_actions() if not isinstance(a, DrawCard)}
    best = {t: s.best(engine, t) for t in targets if t in acting}
    return Solution(classes, best, s.nodes - start)

