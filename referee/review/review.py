"""A game's review: a verdict on every play and take, exact where few cards are held, and
the mover's estimated chance of losing before that (issue 28).

Built on the one walk (referee.judging.replay): the positions reviewed are the referee's
own. Two kinds of judgement, one per play:

* **exact** (every hand known and at most ``window`` cards held): the solver's class of the
  mover before and after, and of every other choice it had. A play that left the seat in
  a worse class than another choice would have is a **blunder**; the one choice that kept
  the seat safe is the **only move**; one legal choice is **forced**; otherwise **good**.
* **chances** (earlier plays): the mover's chance of being the loser, before and after the
  play, judged from what that seat could know. The record is replayed once more from each
  seat's view (the other hands dealt face down, so the referee's knowledge of voids is what
  the seat knows); the unseen hands are sampled consistently with it and with what each
  seat's plays showed of its hand (:func:`revealed_lacks`); each sample is played on by
  the bundled bots, who know the voids shown so far as the table did (the solver settles
  a sample it finds lost once few cards are held), the same generator for before and
  after; the share lost is drawn towards an even share by a prior of a few samples, fewer
  the fewer seats are left (:func:`chance`). The rise in the chance of losing marks the
  play: 10, 20, 30 points for an inaccuracy, a mistake, a blunder (lichess's steps). Before is the
  chance with the bots choosing the mover's play, not with the best play: a simpler
  estimate than the best-play value, stated as such in the report.

Seeded: the same record, seed and sample count give the same review.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from referee.engine.cards import card_str
from referee.engine.events import Action, PlayCard, TakeHand
from referee.engine.language import gettext as _
from referee.engine.rules import RuleSet
from referee.engine.state import Engine, IllegalAction, Phase
from referee.judging import wording as W
from referee.judging.referee import Step
from referee.judging.replay import replay
from referee.notation.record import Deal, Game, Hand, Play, Position, Take
from referee.players.bots import SimulationError, bot_card, rollout
from referee.players.pimc import play_shows_lacking
from referee.players.solver import SearchLimit, SeatClass, Solver, cards_held, solvable

__all__ = [
    "GAME_WORK",
    "MARKS",
    "GameReview",
    "PlayReview",
    "PositionReview",
    "SeatStanding",
    "Work",
    "chance",
    "every_seat_chances",
    "loses",
    "mark_for",
    "prior_weight",
    "revealed_lacks",
    "review_game",
    "review_position",
    "sample_position",
    "view_steps",
]

WINDOW = 10  # cards held at most, for an exact verdict
LEAF = 8  # cards held at most, for the solver to settle a lost sample of the chances
BUDGET = 60_000  # positions per exact question; past it the play gets no exact verdict (seconds, not minutes)
SAMPLES = 12
# The work a game's review may spend, in positions: a search node, or a position a sample's
# rollout plays through (a play). A four-player game spends 100,000 to 250,000 at the
# defaults; sixteen players with two packs would spend some 30 million (minutes). Past the
# share of it that is left for each play, a play gets fewer samples, none once it is spent
# (issue 36; docs/review.md, "The work budget").
GAME_WORK = 1_000_000
# The prior's weight (see chance()): this many samples fewer than the seats still in the
# game, each losing an even share; fitted on self-play games of two seeds, measured on a
# third (docs/review.md, Calibration).
PRIOR_FEWER = 1.5
# The rise in the chance of losing (points) that marks a play, largest first (lichess).
MARKS = ((30, "blunder"), (20, "mistake"), (10, "inaccuracy"))


def mark_for(rise: float) -> str:
    """The mark of a rise in the chance of losing (a fraction): '' below 10 points."""
    for points, name in MARKS:
        if rise * 100 >= points - 1e-9:
            return name
    return ""


@dataclass(slots=True)
class PlayReview:
    """One play or take of the record, reviewed."""

    number: int  # its place among the game's plays and takes, from 1
    trick: int | None
    line: int
    seat: int
    action: str  # "Q♠", or "takes East"
    held: int  # cards held in the game before it
    exact: bool = False
    before: SeatClass | None = None
    after: SeatClass | None = None
    best: SeatClass | None = None  # the best class any choice of the seat's would have kept
    verdict: str = ""  # exact: "blunder", "only move", "forced", "good"; else ""
    better: list[str] = field(default_factory=list)  # for a blunder: the choices that kept ``best``
    solver_line: list[str] = field(default_factory=list)  # for a blunder or an only move
    chance_before: float | None = None  # the mover's chance of losing, before and after
    chance_after: float | None = None
    samples: int = 0
    mark: str = ""  # from the chances: "blunder", "mistake", "inaccuracy" or ""
    step: int = 0  # its index among the replay's steps (the page's position is step + 1)
    # Every seat's chance of losing after the play, each from that seat's own view (None:
    # no sample could be dealt); a seat out is 0, the loser of a finished game 1.
    chances: list[float | None] = field(default_factory=list)
    # A mistake the referee found at this play (its code and words; with the penalty, as the
    # table applied it or should have): the review judges no mistake, but says where it was.
    mistake: str = ""


@dataclass(slots=True)
class GameReview:
    """A game's review: every play and take, and what the review could not do."""

    number: int
    seats: tuple[str, ...]
    rules: str
    loser: str | None
    window: int
    samples: int
    seed: int
    plays: list[PlayReview] = field(default_factory=list)
    stopped: str | None = None  # why the replay (and so the review) stopped early
    work_budget: int = GAME_WORK  # positions the review could spend (see Work)
    work: int = 0  # positions it spent: search nodes and plays of the samples' rollouts
    # The first play (its number) that got fewer samples than asked for, the budget being
    # short; None if every play got them all.
    fewer_from: int | None = None

    @property
    def exact_share(self) -> float:
        """The share of the plays and takes that got an exact verdict."""
        return sum(p.exact for p in self.plays) / len(self.plays) if self.plays else 0.0


class Work:
    """The work a game's review spends, counted in positions (a search node; a play of a
    sample's rollout), and how many samples a play may have from what is left: each play an
    even share of what is left for the plays still to come, a sample costing what the last
    play's samples cost (the cards held, before any was taken). Counted, not timed, so a
    review is the same on every machine and whatever else runs."""

    __slots__ = ("_nodes0", "_per_sample", "budget", "played", "rollouts", "solver")

    def __init__(self, budget: int, solver: Solver) -> None:
        self.budget = budget
        self.solver = solver
        self._nodes0 = solver.nodes
        self.played = 0  # plays of the rollouts
        self.rollouts = 0
        self._per_sample = 0.0  # the plays of one rollout, lately

    @property
    def spent(self) -> int:
        return self.played + self.solver.nodes - self._nodes0

    def rollout(self, start: Engine, end: Engine) -> None:
        """Count a rollout from ``start`` to ``end``: about a play a seat a trick."""
        plays = (end.turn().trick_no - start.turn().trick_no + 1) * len(start.in_game())
        self.played += plays
        self.rollouts += 1
        self._per_sample = plays if self._per_sample == 0 else (self._per_sample + plays) / 2

    def samples(self, wanted: int, plays_left: int, sampled: int, held: int) -> int:
        """How many of ``wanted`` samples the next play may have, ``sampled`` being the seats
        (and plays) that are sampled for it, ``held`` the cards held now."""
        left = self.budget - self.spent
        if wanted <= 0 or left <= 0 or sampled <= 0:
            return 0
        per = self._per_sample or float(max(held, 1))
        return max(0, min(wanted, int(left / max(plays_left, 1) / (per * sampled))))


def action_words(a: Action, seats: Sequence[str]) -> str:
    """An action in the record's words: a card, "takes East", "draws Q♠"."""
    if isinstance(a, PlayCard):
        return card_str(a.card)
    if isinstance(a, TakeHand):
        return f"takes {seats[a.target]}"
    return f"draws {card_str(a.card)}"


def said_action(action: str) -> str:
    """An action as the review stores it (the record's words: a card, "takes East", "draws
    Q♠", "no take") in the current language's words."""
    verb, _sep, rest = action.partition(" ")
    if verb == "takes" and rest:
        return _("takes {seat}").format(seat=rest)
    if verb == "draws" and rest:
        return _("draws {card}").format(card=rest)
    if action == "no take":
        return _("no take")
    return action


def said_move(move: str) -> str:
    """One move of a line as the review stores it ("North takes East", "East 7♦"), said."""
    seat, _sep, action = move.partition(" ")
    return f"{seat} {said_action(action)}" if action else move


def line_words(e: Engine, line: Sequence[Action], seats: Sequence[str]) -> list[str]:
    """A line of actions in words, each with its seat: "East 7♦", "North takes East"."""
    out = []
    for a in line:
        who = a.taker if isinstance(a, TakeHand) else a.seat
        out.append(f"{seats[who]} {action_words(a, seats)}")
    return out


def _action(step: Step) -> Action | None:
    item = step.item
    if isinstance(item, Play):
        return PlayCard(item.seat, item.card)
    if isinstance(item, Take):
        return TakeHand(item.taker, item.target)
    return None


def _mistake(step: Step) -> str:
    """The first mistake (or record error) the referee reports at ``step``, in its words, with
    the penalty (docs/rulings.md, ruling 1) where it has one; '' if none."""
    for d in step.diagnostics:
        if not d.is_error:
            continue
        pen = d.penalty
        return W.review_mistake(d.code, d.message, None if pen is None else
                                (W.penalty_sentence(pen.seat, pen.cards, pen.trick, pen.leads, pen.leader), pen.applied))
    return ""


def known_position(e: Engine) -> Engine:
    """The position with the cards known by elimination placed (``Engine.resolved``): a
    position written with ``waste rest`` and every hand given has its waste pile known whole,
    and so can be solved."""
    return e if e.all_known() else e.resolved()


def played_clean(step: Step) -> bool:
    """A step the table played by the rules: nothing but notes reported at it."""
    return not any(d.is_error for d in step.diagnostics)


def review_game(game: Game, rules: RuleSet | None = None, *, window: int = WINDOW, samples: int = SAMPLES,
                seed: int = 0, chances: bool = True, solver: Solver | None = None,
                work: int = GAME_WORK, progress: Callable[[int, int], None] | None = None) -> GameReview:
    """Review one game of a record (``rules`` for a game without a [Rules] tag). ``window``:
    the most cards held for an exact verdict; ``samples``: hands sampled per play for the
    chances (0: none); ``seed``: the samples' generator; ``work``: the positions the review
    may spend (:class:`Work`; a play past its share gets fewer samples); ``progress``: told
    (plays reviewed, plays) after each play."""
    walk = replay(game, rules, snapshots=True)
    steps = list(walk)
    result = walk.result
    seats = game.seats
    loser = None
    review = GameReview(game.number, seats, game.rules, loser, window, samples if chances else 0, seed,
                        stopped=result.stopped, work_budget=work)
    end = steps[-1].after.view().loser if steps else None
    if end is not None:
        review.loser = seats[end]
    solver = solver or Solver(max_nodes=BUDGET)
    spend = Work(work, solver)
    views: dict[int, list[Step]] = {}
    plays_left = total = sum(1 for step in steps if _action(step) is not None)
    sampling = chances and samples > 0 and result.rules is not None
    for k, step in enumerate(steps):
        a = _action(step)
        if a is None:
            continue
        seat = a.taker if isinstance(a, TakeHand) else a.seat
        item = step.item
        span = item.seat_span if isinstance(item, Play) else item.span
        before = known_position(step.before)
        p = PlayReview(len(review.plays) + 1, step.trick, span.line, seat, action_words(a, seats),
                       cards_held(before), step=k)
        review.plays.append(p)
        now = before.view()
        judged = not (not played_clean(step) or now.phase == Phase.OVER or seat in now.out_order or now.as_played)
        exact = judged and solvable(before) and p.held <= window
        # Every seat's chances, and the mover's before and after where no exact verdict is.
        sampled = len(before.in_game()) + (2 if judged and not exact else 0)
        n = spend.samples(samples, plays_left, sampled, p.held) if sampling else 0
        plays_left -= 1
        if progress is not None:
            progress(total - plays_left - 1, total)
        if sampling and n < samples and review.fewer_from is None:
            review.fewer_from = p.number
        if n > 0:
            _every_seat(p, game, rules, _after(steps, k), k, n, seed, solver, views, len(steps), spend)
        if not judged:
            p.mistake = _mistake(step)
            continue  # a mistake or a record error: the referee's report says what it was
        if exact:
            _exact(p, before, a, seat, seats, solver)
        if not p.exact and n > 0:
            view = _seat_view(views, game, seat, rules, len(steps))
            if k < len(view):
                lacks = revealed_lacks(view, k)
                _chances(p, view[k].before, before, a, seat, n, seed, game.number, solver, lacks, spend)
    review.work = spend.spent
    return review


def _exact(p: PlayReview, before: Engine, a: Action, seat: int, seats: Sequence[str], solver: Solver) -> None:
    try:
        options = solver.choices(before, seat)
        now = solver.classify(before, seat)
    except SearchLimit:
        return
    # A take while another seat leads: not taking was the other choice, and leaves the
    # position as it is (the seat's class now).
    waiting = now if isinstance(a, TakeHand) and before.to_act() != seat else None
    mine = [c for o, c in options if o == a]
    if not mine:
        return
    after = mine[0]
    ranks = [c.rank for _o, c in options] + ([waiting.rank] if waiting is not None else [])
    top = max(ranks)
    p.exact = True
    p.before, p.after = now, after
    p.best = next(c for c in SeatClass if c.rank == top)
    keeping = [o for o, c in options if c.rank == top]
    if len(ranks) == 1:
        p.verdict = "forced"
    elif after.rank < top:
        p.verdict = "blunder"
        p.better = [action_words(o, seats) for o in keeping]
        if waiting is not None and waiting.rank == top:
            p.better.append("no take")
        if keeping:
            p.solver_line = _line(before, keeping[0], seat, seats, solver)
    elif after is SeatClass.SAFE and ranks.count(SeatClass.SAFE.rank) == 1:
        p.verdict = "only move"
        p.solver_line = _line(before, a, seat, seats, solver)
    else:
        p.verdict = "good"


def _line(before: Engine, first: Action, seat: int, seats: Sequence[str], solver: Solver) -> list[str]:
    e = before.fork()
    e.apply(first)
    try:
        rest = solver.line(e, seat, 10)
    except SearchLimit:
        rest = []
    return line_words(before, [first, *rest], seats)


# ---- chances ---------------------------------------------------------------------------------


def as_seen_by(game: Game, seat: int) -> Game | None:
    """The game as ``seat`` saw it: every other hand of the deal (or position) dealt face down."""
    setup = game.setup
    if not isinstance(setup, (Deal, Position)):
        return None
    items = [replace(h, cards=None, card_spans=()) if isinstance(h, Hand) and h.seat != seat and h.cards is not None
             else h for h in setup.items]
    return replace(game, setup=replace(setup, items=items))


def view_steps(game: Game, seat: int, rules: RuleSet | None, count: int) -> list[Step]:
    """The walk of the game as ``seat`` saw it (its first ``count`` steps): the referee's
    knowledge of that seat's view, voids included."""
    g = as_seen_by(game, seat)
    if g is None:
        return []
    return list(replay(g, rules, snapshots=True))[:count]


def sample_position(view: Engine, true: Engine, seat: int, a: Action | None, rng: random.Random,
                    lacks: Sequence[int] = ()) -> Engine | None:
    """A position with every hand known, consistent with what ``seat`` knows (``view``;
    ``a``: the seat's play about to be made from it, None for none):
    the seat's own hand as it truly is, the other unseen cards dealt at random to the hands
    that hold unseen cards, never into a suit a seat has shown it lacks. ``lacks``: per
    seat, a mask of the cards its plays say it did not hold (:func:`revealed_lacks`), kept
    out of its hand where a deal allows. None if no such deal was found in a few tries, or
    the unseen cards include the waste pile's."""
    # The seat knew its own hand (and its play: a card off the suit led says it held none of
    # that suit); the engine deals the rest (Engine.sample_unseen).
    play = a if isinstance(a, PlayCard) else None
    own = ([play.card] if play is not None else []) + true.known(seat)
    return view.sample_unseen(rng, {seat: own}, play, lacks=lacks)


def revealed_lacks(walk: Sequence[Step], upto: int) -> list[int]:
    """Per seat, a mask of the cards (bit c: card c) that the seat's clean plays in steps
    0 .. ``upto`` - 1 of ``walk`` say it did not hold, for a player who plays as the bundled
    sensible bot (referee.players.bots.SensibleBot): one that follows or leads plays
    its lowest card of the suit (so held no lower one), one that cannot follow sheds its
    highest card (so held none higher). A card still unseen in a hand was in it at every
    play since the deal, so the plays speak of the unseen cards it holds now. A take hands
    the target's cards to the taker (what both lacked stays lacked); any other way of
    getting an unseen card (a draw) forgets what the seat was known to lack.

    Voids say which suits a seat lacks; these say which cards. Dealing the samples as if
    they did not exist made the middle chances 2-4 points too sure (docs/review.md,
    Calibration)."""
    if not walk:
        return []
    n = len(walk[0].before.view().sizes)
    lacks = [0] * n
    for j in range(min(upto, len(walk))):
        step = walk[j]
        item = step.item
        e = step.before
        if isinstance(item, Play) and played_clean(step):
            # The reading of one play, the pimc bot's too (one function for both).
            lacks[item.seat] |= play_shows_lacking(e.turn(), item.card)
        elif isinstance(item, Take):
            lacks[item.taker] &= lacks[item.target]
            lacks[item.target] = 0
        elif j + 1 < len(walk):
            after = walk[j + 1].before
            for s in range(n):
                if after.size(s) - len(after.known(s)) > e.size(s) - len(e.known(s)):
                    lacks[s] = 0
    return lacks


def _seat_view(views: dict[int, list[Step]], game: Game, seat: int, rules: RuleSet | None, count: int) -> list[Step]:
    if seat not in views:
        views[seat] = view_steps(game, seat, rules, count)
    return views[seat]


def _after(steps: Sequence[Step], k: int) -> Engine:
    """The position after step ``k``: the next step's copy of it (a step's ``after`` is
    the walk's own engine, which moves on), or the walk's end after the last step."""
    return steps[k + 1].before if k + 1 < len(steps) else steps[k].after


def _every_seat(p: PlayReview, game: Game, rules: RuleSet | None, true: Engine, k: int, samples: int, seed: int,
                solver: Solver, views: dict[int, list[Step]], count: int, work: Work | None = None) -> None:
    p.chances = every_seat_chances(game, rules, true, k, p.number, samples, seed, solver, views, count, work)


def every_seat_chances(game: Game, rules: RuleSet | None, true: Engine, k: int, number: int, samples: int,
                       seed: int, solver: Solver, views: dict[int, list[Step]], count: int,
                       work: Work | None = None) -> list[float | None]:
    """Each seat's chance of losing after step ``k`` (the game's ``number``-th play or take;
    ``true``: the position after it), from that seat's view of the game after it: the
    unseen hands sampled as for the mover, each sample played on (:func:`loses`), the
    losses drawn towards an even share (:func:`chance`). ``views``: each seat's walk, filled
    on first use; ``count``: the game's steps. The review's chances, and the calibration
    bench's (bench/review_calibration.py)."""
    out: list[float | None] = []
    now = true.view()
    seats_in = len(now.sizes) - len(now.out_order)
    for s in range(len(now.sizes)):
        if now.phase == Phase.OVER:
            out.append(float(now.loser == s))
            continue
        if s in now.out_order:
            out.append(0.0)
            continue
        view = _seat_view(views, game, s, rules, count)
        if k >= len(view):
            out.append(None)
            continue
        lost = got = 0.0
        seen = _after(view, k)
        lacks = revealed_lacks(view, k + 1)
        for j in range(samples):
            rng = random.Random(f"review/{seed}/{game.number}/{number}/seat {s}/{j}")
            f = sample_position(seen, true, s, None, rng, lacks)
            if f is None:
                continue
            try:
                lost += loses(f, s, rng, solver, work)
            except SimulationError:
                continue
            got += 1
        out.append(chance(lost, int(got), seats_in, 0 if solvable(seen) else None) if got else None)
    return out


def prior_weight(seats_in: int) -> float:
    """The prior's weight, in samples, where ``seats_in`` seats are still in the game:
    PRIOR_FEWER fewer than them (half a sample with two seats left, two and a half with
    four). With fewer seats left fewer cards are unseen and the samples differ less from
    the truth: with two seats, a seat that lost all of its samples lost 99 games in 100,
    and a prior of two samples said 93 (docs/review.md, Calibration)."""
    return max(seats_in - PRIOR_FEWER, 0.0)


def chance(lost: float, got: int, seats_in: int, prior: float | None = None) -> float:
    """The chance of losing from ``lost`` lost games in ``got`` samples, with ``prior``
    samples more (default :func:`prior_weight`) that lose an even share (1 in
    ``seats_in``, the seats still in the game): the mean of the chance given the samples,
    for a prior of that mean and the weight of ``prior`` samples (a beta prior). A handful
    of sampled deals alone is too sure of itself: a chance measured 0 or 1 in 12 samples is
    rarely 0 or 1. Where the seat saw every card (the samples are one deal, and differ only
    by the bots' few random choices) the callers give no prior (docs/review.md,
    Calibration)."""
    weight = prior_weight(seats_in) if prior is None else prior
    return (lost + weight / seats_in) / (got + weight)


def loses(e: Engine, seat: int, rng: random.Random, solver: Solver, work: Work | None = None) -> float:
    """Whether ``seat`` loses from ``e`` (1.0 or 0.0): 1 when the solver, once at most LEAF
    cards are held, finds it lost on every line; else the bots' play to the end.

    A safe seat is not counted as getting away: safe says it *can* force its escape, and
    the players the chances predict (the sensible bots of the calibration's self-play, and
    people) miss a forced line about one time in twelve (docs/review.md, Calibration); lost
    holds whoever plays."""
    if e.turn().phase == Phase.OVER:
        return float(e.view().loser == seat)
    if seat not in e.in_game():
        return 0.0
    if cards_held(e) <= LEAF:
        try:
            if solver.classify(e, seat) is SeatClass.LOST:
                return 1.0
        except SearchLimit:
            pass
    end = rollout(e, rng)
    if work is not None:
        work.rollout(e, end)
    return float(end.view().loser == seat)


def _chances(p: PlayReview, view: Engine, true: Engine, a: Action, seat: int, samples: int, seed: int,
             number: int, solver: Solver, lacks: Sequence[int] = (), work: Work | None = None) -> None:
    """The mover's chance of losing after its play, and after the play the sensible bot
    would have made in its place (the "before"), over the same samples and the same
    generator: where the bot would have played the same card, the two agree exactly."""
    if isinstance(a, PlayCard) and len(true.playable(seat)) == 1:
        return  # one legal card: nothing to choose, nothing to mark
    before = after = 0.0
    got = 0
    for k in range(samples):
        rng = random.Random(f"review/{seed}/{number}/{p.number}/{k}")
        f = sample_position(view, true, seat, a, rng, lacks)
        if f is None:
            continue
        g = f.fork()
        try:
            g.apply(a)
        except IllegalAction:
            continue
        usual: Engine | None = None
        if isinstance(a, PlayCard):
            c = bot_card(f, seat, rng)
            if c >= 0 and c != a.card:
                usual = f.fork()
                usual.apply(PlayCard(seat, c))
        state = rng.getstate()
        try:
            lost = loses(g, seat, rng, solver, work)
            if usual is not None:
                rng.setstate(state)  # the same generator: only the play differs
                usual_lost = loses(usual, seat, rng, solver, work)
        except SimulationError:
            continue  # the bots cannot play this position on (a trick the table followed as played)
        after += lost
        before += lost if usual is None else usual_lost
        got += 1
    if got:
        p.samples = got
        seats_in = len(true.in_game())
        prior = 0 if solvable(view) else None
        p.chance_before, p.chance_after = chance(before, got, seats_in, prior), chance(after, got, seats_in, prior)
        p.mark = mark_for(p.chance_after - p.chance_before)


def iter_reviews(games: Sequence[Game], rules: RuleSet | None = None, **kw: object) -> Iterator[GameReview]:
    """Each game's review, in order (``kw`` as for :func:`review_game`)."""
    solver = Solver(max_nodes=BUDGET)
    for g in games:
        yield review_game(g, rules, solver=solver, **kw)  # type: ignore[arg-type]


# ---- every seat's class at one point of a game (review --at END, --after TRICK) ----------------

# A seat's standing where the solver cannot give a class: it got away; the search did not
# settle it within its budget; a hand or the waste pile holds unseen cards, or more than the
# window's cards are held.
Standing = str  # "safe", "open", "lost", "got away", "unsettled", "unknown"


@dataclass(slots=True)
class SeatStanding:
    """One seat at one point of a game: its class (a word of :data:`Standing`), where a draw
    decides an open seat the draws that leave it safe (of those that may come), and where no
    class is given its chance of losing from what it could know (sampled)."""

    seat: int
    cls: Standing
    held: int
    draws: tuple[int, int] | None = None
    chance: float | None = None


@dataclass(slots=True)
class PositionReview:
    """Every seat's standing at one point of a game (``where``: "end", or "after trick N")."""

    number: int
    seats: tuple[str, ...]
    rules: str
    where: str
    trick: int | None  # the trick number of the last play before the point; None: none
    line: int | None  # the record's line of that play; None: the setup
    held: int
    window: int
    budget: int | None
    nodes: int = 0
    standings: list[SeatStanding] = field(default_factory=list)
    stopped: str | None = None
    why_unknown: str = ""  # why no seat has an exact class, if none has


def review_position(game: Game, rules: RuleSet | None = None, *, after: int | None = None, window: int = WINDOW,
                    samples: int = SAMPLES, seed: int = 0, solver: Solver | None = None) -> PositionReview:
    """Every seat's class at the end of the record (``after`` None) or after trick ``after``
    (its last play; ValueError if the record has no such trick): the solver's class where
    every card is known and at most ``window`` cards are held, "unsettled" where its budget
    runs out first; otherwise each seat's chance of losing from what it could know."""
    walk = replay(game, rules, snapshots=True)
    steps = list(walk)
    result = walk.result
    k = len(steps) - 1
    if after is not None:
        found = [j for j, step in enumerate(steps) if step.trick == after and isinstance(step.item, Play)]
        if not found:
            have = sorted({step.trick for step in steps if step.trick is not None})
            raise ValueError((_("game {number} has no trick {trick} in its record (tricks {first} to {last})")
                              if have else _("game {number} has no trick {trick} in its record (no tricks)")).format(
                number=game.number, trick=after, first=have[0] if have else 0, last=have[-1] if have else 0))
        k = found[-1]
    if k >= 0:
        here = known_position(_after(steps, k))
    elif result.engine is not None:
        here = known_position(result.engine)
    else:
        raise ValueError(_("game {number}: the replay stops before any position: {why}").format(
            number=game.number, why=result.stopped))
    last = steps[k] if k >= 0 else None
    item = last.item if last is not None else None
    line = (item.seat_span.line if isinstance(item, Play) else item.span.line) if isinstance(item, (Play, Take)) \
        else None
    solver = solver or Solver(max_nodes=BUDGET)
    out = PositionReview(game.number, game.seats, game.rules, "end" if after is None else f"after trick {after}",
                         last.trick if last is not None else None, line, cards_held(here), window,
                         solver.max_nodes, stopped=result.stopped)
    now = here.view()
    exact = solvable(here) and out.held <= window
    if not exact and now.phase != Phase.OVER:
        out.why_unknown = (_("a hand or the waste pile holds cards nobody has seen") if not solvable(here) else
                           _("{cards} held, more than the window of {window}, --window").format(
                               cards=W.cards(out.held), window=window))
    start = solver.nodes
    views: dict[int, list[Step]] = {}
    sampled: list[float | None] = []
    if not exact and samples > 0 and k >= 0 and result.rules is not None and now.phase != Phase.OVER:
        sampled = every_seat_chances(game, rules, here, k, k + 1, samples, seed, solver, views, len(steps))
    for s in range(len(game.seats)):
        held = here.size(s)
        if now.phase == Phase.OVER:
            out.standings.append(SeatStanding(s, "lost" if now.loser == s else "got away", held))
            continue
        if s in now.out_order:
            out.standings.append(SeatStanding(s, "got away", held))
            continue
        if not exact:
            out.standings.append(SeatStanding(s, "unknown", held, chance=sampled[s] if sampled else None))
            continue
        try:
            cls = solver.classify(here, s)
            share = solver.draw_share(here, s) if cls is SeatClass.OPEN else None
        except SearchLimit:
            out.standings.append(SeatStanding(s, "unsettled", held))
            continue
        out.standings.append(SeatStanding(s, cls.value, held, share))
    out.nodes = solver.nodes - start
    return out
