"""The ``pimc`` bot: plays the whole game by perfect-information Monte Carlo (issue 41).

For the seat to act, the hands it has not seen are dealt at random consistently with what it
saw (the review's sampler, :meth:`Engine.sample_unseen`: its own hand as it is, no card into
a suit a seat has shown it lacks). Each legal action is tried in each sample and the sample
played on: by the exact solver once few cards are held (a sample it proves lost counts as
lost, one it proves safe as got away), by the sensible bots' rollout before that. The action
with the lowest mean chance of losing is chosen; among equals the one with the better solver
class, then the sensible bot's own choice. Takes between tricks are actions too: a take is
weighed against the seat's leads (where it leads) or against waiting.

The bot knows what the seat saw and nothing more: it follows the table's actions on an engine
dealt with the other hands face down (:class:`SeatView`), so a sample never holds a card the
seat could not know the place of. The same weighing (:func:`weigh`) gives the hint of ``live``,
``serve`` and ``ask --hint`` each legal card's chance of losing.

A strength setting trades samples for time: ``pimc`` deals :data:`SAMPLES` samples a choice,
``pimc:N`` deals N. Seeded: the table's generator gives the samples' seeds, so a game's seed
gives the same game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from referee.engine.cards import CARD_COUNT, RANK, SUIT, sort_key
from referee.engine.events import Action, DrawCard, PlayCard, TakeHand
from referee.engine.rules import RuleSet
from referee.engine.state import Engine, IllegalAction, Phase, Turn
from referee.notation.record import Action as RecordItem
from referee.notation.record import Draw, Take, Trick
from referee.players import bots as sim
from referee.players.solver import SearchLimit, SeatClass, Solver, cards_held

__all__ = ["BUDGET", "LEAF", "SAMPLES", "PimcBot", "SeatView", "Tally", "Weighed", "best", "candidates", "record_actions",
           "weigh"]

SAMPLES = 16  # samples a choice, by default (pimc:N for another number)
LEAF = 8  # cards held at most, for the solver to settle a sample
BUDGET = 20_000  # positions per solver question in a sample; past it the rollout decides
TABLE = 100_000  # the solver's transposition table, entries (kept for one game)
READS = True  # the samples read the others' plays as the sensible bot's (play_shows_lacking)
MARGIN = 2  # samples an action must save, net of those it loses, to replace the sensible choice
WORK = 60_000  # solver positions one choice may spend in all; past them its samples are rolled out

_LOST, _OPEN, _SAFE = SeatClass.LOST.rank, SeatClass.OPEN.rank, SeatClass.SAFE.rank


@dataclass(frozen=True, slots=True)
class Weighed:
    """One action weighed over the samples: ``action`` None is not taking (waiting for the
    lead); ``chance`` the share of the samples it lost; ``rank`` the mean solver class after it
    (lost 0, open 1, safe 2; a sample the solver did not settle counts as open); ``settled``
    the samples the solver settled (proved safe or lost); ``lost`` the samples it lost (bit k:
    sample k), to compare two actions sample by sample."""

    action: Action | None
    chance: float
    rank: float
    samples: int
    settled: int
    lost: int = 0


def _outcome(f: Engine, a: Action | None, seat: int, rng: random.Random, solver: Solver,
             leaf: int) -> tuple[int, int, bool]:
    """(lost 1 or 0, the solver's class rank, settled) for ``seat`` after ``a`` in the sample
    ``f`` (every hand known)."""
    g = f.fork()
    if a is not None:
        g.apply(a, events=False)
    if g.current_phase() is Phase.OVER:
        return (1, _LOST, True) if g.view().loser == seat else (0, _SAFE, True)
    if seat not in g.in_game():
        return 0, _SAFE, True
    rank = _OPEN
    if cards_held(g) <= leaf:
        try:
            cls = solver.classify(g, seat)
        except SearchLimit:
            cls = SeatClass.OPEN
        if cls is SeatClass.LOST:
            return 1, _LOST, True
        if cls is SeatClass.SAFE:
            return 0, _SAFE, True
    end = sim.rollout(g, rng)
    return int(end.view().loser == seat), rank, False


def weigh(view: Engine, seat: int, actions: Sequence[Action | None], *, samples: int = SAMPLES, seed: int = 0,
          solver: Solver | None = None, leaf: int = LEAF, lacks: Sequence[int] = (),
          work: int = WORK) -> list[Weighed]:
    """Each of ``actions`` (the seat's own, or None for not taking) weighed over ``samples``
    deals of the hands ``seat`` has not seen in ``view`` (the position as the seat knows it):
    every action on the same deals with the same generator, so two actions differ by
    themselves alone. ``lacks``: per seat, cards to keep out of its hand where a deal allows
    (``Engine.sample_unseen``). A view with every card known is its own one deal, played on
    ``samples`` times. ``work``: the solver positions the whole weighing may spend; past them
    the rest of the samples are rolled out (counted, not timed: the same choice on every
    machine)."""
    solver = solver if solver is not None else Solver(table_size=TABLE, max_nodes=BUDGET)
    n = len(actions)
    lost = [0] * n
    masks = [0] * n
    ranks = [0] * n
    settled = [0] * n
    got = 0
    known = view.all_known()
    own = {seat: view.known(seat)}
    start_nodes = solver.nodes
    for k in range(samples):
        if solver.nodes - start_nodes > work:
            leaf = -1
        rng = random.Random(seed * 7919 + k)
        f = view.fork() if known else view.sample_unseen(rng, own, None, lacks=lacks)
        if f is None:
            continue
        start = rng.getstate()
        try:
            outs = []
            for a in actions:
                rng.setstate(start)  # the same generator for every action: only the action differs
                outs.append(_outcome(f, a, seat, rng, solver, leaf))
        except (sim.SimulationError, IllegalAction):
            continue  # a position the bots cannot play on: no sample
        for i, (x, r, s) in enumerate(outs):
            lost[i] += x
            masks[i] |= x << got
            ranks[i] += r
            settled[i] += s
        got += 1
    if not got:
        return [Weighed(a, 0.5, _OPEN, 0, 0) for a in actions]
    return [Weighed(a, lost[i] / got, ranks[i] / got, got, settled[i], masks[i]) for i, a in enumerate(actions)]


def best(weighed: Sequence[Weighed], usual: int | None = None, *, margin: int = MARGIN) -> Weighed:
    """The choice. Without ``usual`` (the index of the choice to keep unless the samples say
    otherwise, the sensible bot's):
    the lowest chance of losing; among equals the better mean class, then not taking, then
    the first listed. With it: the action that, sample by sample, loses fewest of the deals
    on which the two differ, if it saves at least ``margin`` more of them than it loses (or
    as many, with a better solver class); else ``usual``. A handful of samples differ by luck:
    leaving the sensible play on a margin of one sample lost more often than it gained."""
    if usual is None:
        return min(weighed, key=lambda w: (w.chance, -w.rank, isinstance(w.action, TakeHand)))
    keep = weighed[usual]
    top, gain = keep, 0
    for w in weighed:
        if w is keep:
            continue
        g = (keep.lost & ~w.lost).bit_count() - (w.lost & ~keep.lost).bit_count()
        if (g, w.rank) > (gain, top.rank) and (g >= margin or (g >= 0 and w.rank > keep.rank)):
            top, gain = w, g
    return top


def candidates(view: Engine, seat: int, cards: Sequence[int]) -> list[int]:
    """The cards worth weighing of ``cards`` (the seat's legal cards): of cards of one suit with
    no card between them in rank but the seat's own and the waste pile's (so nobody can
    play between them), the lowest alone. With a double pack every card is weighed."""
    if view.rules.marked_ace or len(cards) < 2:
        return list(cards)
    mine = 0
    for c in view.known(seat):
        mine |= 1 << c
    for c in view.view().waste:
        mine |= 1 << c
    out: list[int] = []
    last = -1
    for c in sorted(cards, key=lambda x: (SUIT[x], RANK[x])):
        if last >= 0 and SUIT[last] == SUIT[c] and all(mine >> (SUIT[c] * 13 + r) & 1
                                                       for r in range(RANK[last] + 1, RANK[c])):
            last = c
            continue  # touches the card before it: weighed as that card
        out.append(c)
        last = c
    return out


def record_actions(items: Sequence[RecordItem]) -> list[Action]:
    """The engine's actions of a record's items (plays, takes, draws), in order."""
    out: list[Action] = []
    for it in items:
        if isinstance(it, Trick):
            out.extend(PlayCard(p.seat, p.card) for p in it.plays)
        elif isinstance(it, Take):
            out.append(TakeHand(it.taker, it.target))
        elif isinstance(it, Draw):
            out.append(DrawCard(it.seat, it.card, it.source))
    return out


def _masks(keep: Callable[[int, int], bool]) -> tuple[int, ...]:
    """For each card x, the mask of the cards c with ``keep(c, x)``."""
    return tuple(sum(1 << c for c in range(CARD_COUNT) if keep(c, x)) for x in range(CARD_COUNT))


def _low(c: int) -> tuple[int, int]:
    return RANK[c], sort_key(c)  # the order the sensible bot picks its lowest card by


def _high(c: int) -> tuple[int, int]:
    return RANK[c], -sort_key(c)  # and its highest


_LOWER_IN_SUIT = _masks(lambda c, x: SUIT[c] == SUIT[x] and _low(c) < _low(x))
_HIGHER_IN_SUIT = _masks(lambda c, x: SUIT[c] == SUIT[x] and _high(c) > _high(x))
_HIGHER = _masks(lambda c, x: _high(c) > _high(x))


def play_shows_lacking(turn: Turn, card: int) -> int:
    """The cards (a mask) that a play of ``card`` now says its seat did not hold, for a player
    who plays as the sensible bot (referee.selfplay.simulate.SensibleBot): one that follows
    or leads plays its lowest card of the suit (so held no lower one; in the first trick its
    highest, thrown to the waste pile), one that cannot follow sheds its highest card (so held
    none higher). The first lead is the card the rules ask for and shows nothing."""
    led = SUIT[turn.trick[0][1]] if turn.phase == Phase.IN_TRICK and turn.trick else -1
    if led < 0 and turn.first_trick:
        return 0
    if led < 0 or SUIT[card] == led:
        return _HIGHER_IN_SUIT[card] if turn.first_trick else _LOWER_IN_SUIT[card]
    if turn.trumps is None:
        return _HIGHER[card]  # a tochoo: the highest card
    return 0


class SeatView:
    """What one seat has seen of a game: an engine dealt with the seat's own hand and every
    other hand face down, following the table's actions (each unseen card is seen when it is
    played; a seat that does not follow is known to lack the suit, as at the table)."""

    def __init__(self, rules: RuleSet, seat: int, dealt: Sequence[int], sizes: Sequence[int]) -> None:
        self.seat = seat
        self.engine = Engine.from_deal(rules, [list(dealt) if s == seat else sizes[s] for s in range(len(sizes))])
        self.done = 0  # the table's actions followed so far
        # Per seat, the cards its plays say it did not hold (play_shows_lacking), kept out of
        # its hand in the samples where a deal allows.
        self.lacks = [0] * len(sizes)

    @classmethod
    def at_first_trick(cls, rules: RuleSet, seat: int, hand: Sequence[int], sizes: Sequence[int],
                       actions: Sequence[Action]) -> SeatView:
        """The view of a seat that first chooses in the first trick: its hand and the sizes now,
        with the plays made so far (only plays: nothing but the first trick came before)."""
        dealt = list(hand)
        before = list(sizes)
        for a in actions:
            if not isinstance(a, PlayCard):
                raise ValueError("a take or a draw before the seat's first choice")
            before[a.seat] += 1
            if a.seat == seat:
                dealt.append(a.card)
        view = cls(rules, seat, dealt, before)
        view.follow(actions)
        return view

    def follow(self, actions: Sequence[Action]) -> Engine:
        """Apply the table's actions not followed yet; the position as the seat knows it."""
        lacks = self.lacks
        for a in actions[self.done:]:
            if isinstance(a, PlayCard):
                lacks[a.seat] |= play_shows_lacking(self.engine.turn(), a.card)
            elif isinstance(a, TakeHand):
                lacks[a.taker] &= lacks[a.target]  # the target's cards join the taker's
                lacks[a.target] = 0
            else:
                lacks[a.seat] = 0  # a card drawn: what the seat lacked may have come back
            self.engine.apply(a, events=False)
        self.done = len(actions)
        return self.engine


class Tally:
    """The choices the pimc bots of this process weighed and the seconds they took (for the
    ladder's seconds a choice; bench/ladder.py)."""

    __slots__ = ("choices", "cpu", "seconds", "slowest", "slowest_cpu")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.choices = 0
        self.seconds = 0.0  # wall-clock
        self.slowest = 0.0
        self.cpu = 0.0  # the process's CPU time: what one core spends, whatever else the machine runs
        self.slowest_cpu = 0.0

    def add(self, seconds: float, cpu: float) -> None:
        self.choices += 1
        self.seconds += seconds
        self.slowest = max(self.slowest, seconds)
        self.cpu += cpu
        self.slowest_cpu = max(self.slowest_cpu, cpu)


class PimcBot(sim.Bot):
    """Perfect-information Monte Carlo (see the module): ``samples`` deals a choice."""

    name = "pimc"
    tally = Tally()

    def __init__(self, rng: random.Random, samples: int = SAMPLES) -> None:
        super().__init__(rng)
        self.samples = samples
        self.solver = Solver(table_size=TABLE, max_nodes=BUDGET)
        self.usual = sim.SensibleBot(rng)
        self.seen: SeatView | None = None
        self.reads = READS  # keep out of the samples what the others' plays showed they lacked
        self.lost_track = False  # the table did what the seat's view cannot follow (a penalty)
        self.planned: tuple[int, int] | None = None  # (actions seen, card): a lead weighed with a take

    def _view(self, table: sim.BotTable, seat: int) -> tuple[Engine, int] | None:
        if self.lost_track:
            return None
        actions = record_actions(table.actions)
        try:
            if self.seen is None:
                e = table.engine
                self.seen = SeatView.at_first_trick(e.rules, seat, e.known(seat), [e.size(s) for s in range(table.n)],
                                                    actions)
                return self.seen.engine, len(actions)
            return self.seen.follow(actions), len(actions)
        except (ValueError, IllegalAction):
            self.lost_track = True
            return None

    def _lacks(self) -> list[int]:
        return self.seen.lacks if self.seen is not None and self.reads else []

    def _seed(self) -> int:
        return self.rng.getrandbits(31)

    def card(self, table: sim.BotTable, seat: int, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        usual = self.usual.card(table, seat, legal)
        seen = self._view(table, seat)
        if seen is None:
            return usual
        view, mark = seen
        if self.planned is not None and self.planned[0] == mark and self.planned[1] in legal:
            return self.planned[1]
        cards = candidates(view, seat, legal)
        if usual not in cards:
            cards.append(usual)
        if len(cards) == 1:
            return cards[0]
        start, cpu = time.perf_counter(), time.process_time()
        weighed = weigh(view, seat, [PlayCard(seat, c) for c in cards], samples=self.samples, seed=self._seed(),
                        solver=self.solver, lacks=self._lacks())
        pick = best(weighed, cards.index(usual)).action
        self.tally.add(time.perf_counter() - start, time.process_time() - cpu)
        return pick.card if isinstance(pick, PlayCard) else usual

    def wants_take(self, table: sim.BotTable, taker: int, target: int) -> bool:
        seen = self._view(table, taker)
        if seen is None:
            return self.usual.wants_take(table, taker, target)
        view, mark = seen
        options: list[Action | None] = [TakeHand(taker, target)]
        leads = view.to_act() == taker and view.current_phase() is Phase.BETWEEN
        usual = 0 if self.usual.wants_take(table, taker, target) else None
        if leads:
            legal = list(view.playable(taker))
            lead = self.usual.card(table, taker, legal) if legal else -1
            options += [PlayCard(taker, c) for c in candidates(view, taker, legal)]
            if lead >= 0 and PlayCard(taker, lead) not in options:
                options.append(PlayCard(taker, lead))
            if usual is None and lead >= 0:
                usual = options.index(PlayCard(taker, lead))
        else:
            options.append(None)
            if usual is None:
                usual = 1  # waiting
        start, cpu = time.perf_counter(), time.process_time()
        pick = best(weigh(view, taker, options, samples=self.samples, seed=self._seed(), solver=self.solver,
                          lacks=self._lacks()), usual).action
        self.tally.add(time.perf_counter() - start, time.process_time() - cpu)
        if isinstance(pick, PlayCard):
            self.planned = (mark, pick.card)
        return isinstance(pick, TakeHand)


def make(kind: str, rng: random.Random) -> PimcBot:
    """The bot a ``--bot`` kind names: ``pimc`` or ``pimc:N`` (N samples a choice)."""
    _, _, n = kind.partition(":")
    return PimcBot(rng, int(n) if n else SAMPLES)
