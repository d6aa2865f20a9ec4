"""The exact endgame solver: with every hand known, can a seat force its getting away?

For each seat still in the game the solver gives one of three classes (issue 28):

* **safe**: the seat gets away whatever everyone else plays and whatever is drawn: the seat
  (with its best play) against a coalition of all the others and every card a draw may bring;
* **lost**: it cannot get away whatever anyone plays and whatever is drawn;
* **open**: everything else: some play by everyone, with some card drawn, lets it get away.

The search asks the engine for everything: what may happen is what ``Engine.legal_actions()``
lists, what follows is the engine's own move on a fork. Its hot loop is the engine's
(:mod:`referee.engine.search`, on the engine's ints); this module is its typed face, and
reads a position only through the engine's typed API (``view()``, ``turn()``,
``legal_actions()``, ``apply()``, ``in_game()``, ``size()``). No rule is written here.

How each kind of node is scored, for the seat analysed (``x``):

* **a draw** (from the waste pile, or from a hand in the draw-hand variant) is luck, nobody's
  choice (docs/rulings.md, ruling 11): for "safe" every card that may be drawn must leave
  ``x`` winning; for "open" one card that does is enough, so ``x`` is lost only if no card
  drawn lets it get away. Where the drawer may pick the hand it draws from, the drawer picks
  it (in "safe", a drawer other than ``x`` picks against it).
* **safe**: ``x`` chooses its own actions; every other seat is one adversary. Where several
  seats may act at once (a take by anyone between tricks, the first trick in any order) the
  adversary may act first: every action of theirs must leave ``x`` winning, and then ``x``
  needs one winning action of its own unless the others must act anyway (a lead or a play
  of theirs is among their actions).
* **open**: every seat's action and every draw is a choice in ``x``'s favour: is there any
  line at all on which ``x`` gets away?

Where a draw is what decides an open seat's fate (a draw is due, or comes after actions
nobody can choose), :meth:`Solver.draw_share` counts the cards that leave it safe: the share
of the draws after which it gets away whatever the others play and whatever is drawn later,
a share it can count on with its best play.

Picked-up cards go back to hands, so a position can come again. A forced escape must be
finite: a position met again on the path counts as not getting away. A win found that way
holds whatever the path (it never used a repetition); a loss holds only if every repetition
it met was of a position at or below it, so only those losses enter the transposition
table (the rest were true on this path only; the graph-history problem of game search).
Cards are merged only where it is proven: with two players left, a draw from the waste pile
tries one card of each class of twins (same suit, no held card between them; docs/review.md,
"Twins in the waste pile"); and with two seats left the table keeps one entry for positions
whose waste piles differ only in runs of waste cards longer than two or in the suits' names,
and carries a win to the positions of one shape with fewer waste cards, a loss to those with
more (``moves.search_key``; docs/review.md, "One key for many waste piles"). Every other
card is its own move; cards adjacent in one hand only set the order (``moves.touching``).
With two seats left a "safe" question takes turns with the other seat's, as the other seat
proven safe answers it too (``ExactSearch.wins``; docs/review.md, "Two seats left").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from referee.engine.events import Action, DrawCard, TakeHand
from referee.engine.search import OPEN, SAFE, ExactSearch, SearchLimit
from referee.engine.state import Engine, Phase

__all__ = ["NotSolvable", "SearchLimit", "SeatClass", "Solution", "Solver", "cards_held", "solvable", "solve"]


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


def solvable(e: Engine) -> bool:
    """Is every card of the position known: no unseen card in a hand or the waste pile?"""
    return e.all_known()


def cards_held(e: Engine) -> int:
    """How many cards the seats still in the game hold."""
    return sum(e.size(s) for s in e.in_game())


def actor(a: Action) -> int:
    """The seat that makes an action (the drawer of a draw)."""
    if isinstance(a, TakeHand):
        return a.taker
    return a.seat


@dataclass(frozen=True, slots=True)
class Solution:
    """What :func:`solve` found: each seat's class, and for each seat that may act now an
    action of its own that keeps its class (None if it has none to choose)."""

    classes: dict[int, SeatClass]
    best: dict[int, Action | None] = field(default_factory=dict)
    nodes: int = 0
    # For an open seat whose fate a draw decides (Solver.draw_share): (cards that leave it
    # safe, cards that may be drawn); absent where no draw decides it or it was not counted.
    draws: dict[int, tuple[int, int]] = field(default_factory=dict)


class Solver:
    """A solver with its transposition table, kept across calls
    (a game's review asks about many positions of one game). ``table_size`` bounds the
    table (entries; the oldest half is dropped when it is full); ``max_nodes`` bounds the
    positions one question searches, all its searches together (:class:`SearchLimit` beyond
    it), None for no bound."""

    def __init__(self, *, table_size: int = 400_000, max_nodes: int | None = None) -> None:
        self.search = ExactSearch(table_size=table_size, max_nodes=max_nodes)

    @property
    def nodes(self) -> int:
        """Every position searched, over the solver's life."""
        return self.search.nodes

    @property
    def max_nodes(self) -> int | None:
        return self.search.max_nodes

    # ---- the classes ------------------------------------------------------------------------

    def classify(self, e: Engine, seat: int) -> SeatClass:
        """The class of ``seat`` (still in the game) in the position ``e``."""
        if not solvable(e):
            raise NotSolvable("a hand or the waste pile holds unseen cards")
        if seat not in e.in_game():
            raise ValueError(f"seat {seat} has got away already")
        if not self.wins(e, seat, OPEN):
            return SeatClass.LOST
        return SeatClass.SAFE if self.wins(e, seat, SAFE) else SeatClass.OPEN

    def wins(self, e: Engine, seat: int, mode: int) -> bool:
        """Can ``seat`` get away: forced (``mode`` SAFE) or with everyone's help (OPEN)?"""
        return self.search.wins(e, seat, mode)

    def choices(self, e: Engine, seat: int) -> list[tuple[Action, SeatClass]]:
        """The seat's own actions now (plays and takes, not draws: a draw is chance), each
        with the seat's class after it (a seat that gets away by it is safe)."""
        out: list[tuple[Action, SeatClass]] = []
        for a in e.legal_actions():
            if isinstance(a, DrawCard) or actor(a) != seat:
                continue
            child = e.fork()
            child.apply(a, events=False)
            out.append((a, SeatClass.SAFE if seat not in child.in_game() else self.classify(child, seat)))
        return out

    def best(self, e: Engine, seat: int) -> Action | None:
        """An action of the seat's own that keeps its best class, the first of them in the
        engine's order (``legal_actions()``); None if it has no action to choose now."""
        options = self.choices(e, seat)
        if not options:
            return None
        top = max(c.rank for _, c in options)
        return next(a for a, c in options if c.rank == top)

    def draw_share(self, e: Engine, seat: int, steps: int = 60) -> tuple[int, int] | None:
        """Where a draw decides: (the cards after which ``seat`` is safe, the cards that may be
        drawn), the draw being the one due now or the first one after actions nobody chooses
        (one legal action each). Each card is equally likely, so the first over the second is
        the share of draws on which the seat gets away whatever the others play and whatever
        is drawn later: a share its best play can count on (a lower bound on its chance; a
        safe seat has every card, a lost seat none). Where the drawer may pick the hand it
        draws from, the seat picks its best hand, another drawer the worst for the seat. None
        where no draw comes first (then the share is unknown: counting it would need the
        chances of a whole game tree)."""
        e = e.fork()
        for _ in range(steps):
            if seat not in e.in_game() or e.current_phase() in (Phase.OVER, Phase.DRAW_DUE):
                break
            actions = e.legal_actions()
            if len(actions) != 1:
                return None
            e.apply(actions[0], events=False)
        if seat not in e.in_game() or e.current_phase() is not Phase.DRAW_DUE:
            return None
        by_source: dict[int | None, list[int]] = {}
        for a in e.legal_actions():
            if not isinstance(a, DrawCard):
                continue
            child = e.fork()
            child.apply(a, events=False)
            safe = seat not in child.in_game() or (
                child.turn().phase != Phase.OVER and self.classify(child, seat) is SeatClass.SAFE)
            by_source.setdefault(a.source, []).append(int(safe))
        if not by_source:
            return None
        shares = [(sum(v), len(v)) for v in by_source.values()]
        pick = max if e.to_act() == seat else min
        return pick(shares, key=lambda t: t[0] / t[1])

    def line(self, e: Engine, seat: int, length: int = 12) -> list[Action]:
        """The play the solver shows for ``seat``: the seat keeps its best class; every other
        seat answers with what is worst for it; a draw is the worst card for it. Up to
        ``length`` actions, or until the seat is out or the game over."""
        out: list[Action] = []
        e = e.fork()
        while len(out) < length and seat in e.in_game():
            turn = e.turn()
            if turn.phase == Phase.OVER:
                break
            actions = e.legal_actions()
            if not actions:
                break
            mover = turn.to_act
            mine = [a for a in actions if not isinstance(a, DrawCard) and actor(a) == seat]
            if mine and (mover == seat or mover < 0 or turn.phase == Phase.IN_TRICK):
                pick = self.best(e, seat)
                assert pick is not None
            else:
                # Others (or chance) act: the action worst for the seat; plays and draws of
                # the seat due to act, takes by others only if they do worse to the seat.
                pool = [a for a in actions if actor(a) != seat]
                scored = []
                for a in pool:
                    child = e.fork()
                    child.apply(a, events=False)
                    if seat not in child.in_game():
                        rank = 3
                    elif child.turn().phase == Phase.OVER:
                        rank = 0 if child.view().loser == seat else 3
                    else:
                        rank = self.classify(child, seat).rank
                    scored.append((rank, not isinstance(a, TakeHand), a))
                if not scored:
                    break
                pick = min(scored, key=lambda t: (t[0], not t[1]))[2]
            out.append(pick)
            e.apply(pick, events=False)
        return out


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
    targets = [t for t in engine.in_game() if seats is None or t in seats]
    if engine.turn().phase == Phase.OVER:
        loser = engine.view().loser
        return Solution({t: SeatClass.LOST for t in targets if t == loser}, {}, 0)
    classes = {t: s.classify(engine, t) for t in targets}
    acting = {actor(a) for a in engine.legal_actions() if not isinstance(a, DrawCard)}
    best = {t: s.best(engine, t) for t in targets if t in acting}
    draws = {}
    for t in targets:
        if classes[t] is SeatClass.OPEN:
            share = s.draw_share(engine, t)
            if share is not None:
                draws[t] = share
    return Solution(classes, best, s.nodes - start, draws)
