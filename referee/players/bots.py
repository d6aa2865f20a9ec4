"""The bundled bots, and the table that drives a game through the engine for them.

A bot reads the position from ``Engine.view()`` and picks among ``Engine.playable`` and
``Engine.legal_takes``; every action goes through ``Engine.apply``, which judges it first.
Nothing here knows a rule of Getaway beyond how to deal the pack. :func:`play_game` plays
one game and returns its record; :func:`rollout` plays a position on to its end and
:func:`bot_card` asks a bot for one card (the review's chances and hints).

This level sits below both ``selfplay/`` (the ``simulate`` command, which writes the games)
and ``review/`` (which plays positions on with these bots), so neither imports the other.
With ``mistakes`` > 0 a bot sometimes makes a table mistake instead of a legal play (a
renege, a play after a tochoo, a play out of turn); the record goes on as if the table
applied the penalty (docs/rulings.md, ruling 1: the typed action ``Penalise``, which the
engine judges as the mistake it is), and each game keeps the list of mistakes it holds.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import NoReturn

from referee.engine import language as L
from referee.engine.cards import RANK, SUIT, card_str, sort_cards, sort_key
from referee.engine.codes import Code, title
from referee.engine.deal import deal, play_order
from referee.engine.events import (
    ANY_SOURCE,
    DrawCard,
    Event,
    GameOver,
    GotAway,
    LegalReason,
    MistakeMade,
    Penalise,
    PlayCard,
    TakeHand,
    TrumpsSet,
)
from referee.engine.events import (
    Action as EngineAction,
)
from referee.engine.rules import RuleSet
from referee.engine.state import Engine, IllegalAction, Phase, Turn, View
from referee.judging import wording as W
from referee.notation.format import format_game
from referee.notation.record import (
    Action,
    Comment,
    Counts,
    Deal,
    Draw,
    Game,
    Hand,
    Play,
    Tag,
    Take,
    Trick,
)
from referee.players.solver import SearchLimit, SeatClass, Solver, cards_held, solvable

# Called after every action as observer(engine, kind, args) (for tests).
Observer = Callable[["Engine", str, tuple[object, ...]], None]

BOTS = ("random", "sensible", "solver")  # the quick bots (a game in milliseconds)
SEARCH_BOTS = ("pimc",)  # bots that search at every choice (seconds a game): pimc, or pimc:N samples
MISTAKE_KINDS = (Code.RENEGE, Code.AFTER_TOCHOO, Code.OUT_OF_TURN)  # the mistakes --mistakes injects

# How often a bot takes the next hand when nothing in particular tells it to.
RANDOM_TAKE = 0.02
SENSIBLE_TAKE = 0.004
# How often the first trick (in any order, ruling 2) is played in an order of its own.
SHUFFLED_FIRST_TRICK = 0.3
# The duties a bot's planned renege passes by: following the suit led (a spade in the first trick).
_FOLLOWING = (LegalReason.FOLLOW, LegalReason.FIRST_TRICK_SPADE)
# A safety net: no game of 104 cards comes near this many plays.
MAX_PLAYS = 100_000

COMPASS = ("North", "East", "South", "West")
NAMES = (
    "Anil", "Bina", "Chetan", "Divya", "Esha", "Farid", "Gita", "Hari",
    "Indu", "Jaya", "Kiran", "Lata", "Mohan", "Nita", "Omar", "Priya",
)


class SimulationError(RuntimeError):
    """The engine contradicted itself (a card it offered is judged illegal, a game that
    never ends): a bug to report, with the seed that shows it."""


def seat_names(players: int) -> tuple[str, ...]:
    """The seats, clockwise: the compass for four players, names otherwise."""
    if players == 4:
        return COMPASS
    if players == 2:
        return ("North", "South")
    return NAMES[:players]


# ---- what a game leaves behind ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mistake:
    """One injected table mistake: its code, the record's trick number, who, which card."""

    code: str
    trick: int
    seat: int
    card: int
    seat_name: str = field(default="", compare=False)

    def __str__(self) -> str:
        return f"{self.code} ({title(self.code)}) in trick {self.trick}: {self.seat_name} {card_str(self.card)}"


@dataclass(slots=True)
class SimStats:
    """Counts over one game or many."""

    games: int = 0
    plays: int = 0
    tricks: int = 0
    takes: int = 0
    draws: int = 0           # every draw
    draws_waste: int = 0     # of which from the waste pile
    draws_hand: int = 0      # of which from a player's hand
    tochoos: int = 0
    mistakes: Counter[str] = field(default_factory=Counter)   # code -> how many
    losers: Counter[str] = field(default_factory=Counter)     # seat name -> games lost

    def add(self, other: SimStats) -> SimStats:
        for k in ("games", "plays", "tricks", "takes", "draws", "draws_waste", "draws_hand", "tochoos"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.mistakes.update(other.mistakes)
        self.losers.update(other.losers)
        return self

    def summary(self, seats: Sequence[str] | None = None) -> str:
        """Two lines for people, in the language chosen: what was simulated (the counts), and
        the losers by seat. Codes and seat names stay as written."""
        n_m = sum(self.mistakes.values())
        mistakes = L.ngettext("{n} mistake", "{n} mistakes", n_m).format(n=n_m)
        if n_m:
            mistakes += " (" + L.gettext(", ").join(f"{c} {self.mistakes[c]}" for c in sorted(self.mistakes)) + ")"
        head = L.gettext("simulated {games}, {plays}, {tricks}, {takes}, {draws} ({waste} from the waste pile, "
                         "{hand} from a hand), {mistakes}").format(
            games=L.ngettext("{n} game", "{n} games", self.games).format(n=self.games),
            plays=L.ngettext("{n} play", "{n} plays", self.plays).format(n=self.plays),
            tricks=L.ngettext("{n} trick", "{n} tricks", self.tricks).format(n=self.tricks),
            takes=L.ngettext("{n} take", "{n} takes", self.takes).format(n=self.takes),
            draws=L.ngettext("{n} draw", "{n} draws", self.draws).format(n=self.draws),
            waste=self.draws_waste, hand=self.draws_hand, mistakes=mistakes)
        order = list(seats) if seats else sorted(self.losers)
        each = L.gettext(", ").join(f"{s} {self.losers.get(s, 0)}" for s in order)
        losers = L.gettext("losers: {seats}").format(seats=each)
        return head + "\n" + losers


@dataclass(slots=True)
class SimGame:
    """One simulated game: the record, its text, the mistakes injected into it, its counts."""

    number: int
    seed: str
    game: Game
    text: str
    mistakes: list[Mistake]
    stats: SimStats
    loser: int
    legs: int


# ---- the bots ----------------------------------------------------------------------------------


class Bot:
    """A bot chooses among what the engine allows; it never decides legality itself."""

    name = "bot"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def card(self, table: BotTable, seat: int, legal: list[int]) -> int:  # pragma: no cover
        raise NotImplementedError

    def wants_take(self, table: BotTable, taker: int, target: int) -> bool:  # pragma: no cover
        raise NotImplementedError


class RandomBot(Bot):
    """Any legal card; now and then a legal take."""

    name = "random"

    def card(self, table: BotTable, seat: int, legal: list[int]) -> int:
        return self.rng.choice(legal)

    def wants_take(self, table: BotTable, taker: int, target: int) -> bool:
        return self.rng.random() < RANDOM_TAKE


class SensibleBot(Bot):
    """Follows low, sheds its highest card on a tochoo, throws its highest spade into the
    first trick (it goes to the waste pile anyway), leads low from a long suit the next
    player is not known to lack, and takes the next hand when that player is known to be
    void in every suit it holds (otherwise rarely, and never when it would be left alone)."""

    name = "sensible"

    def card(self, table: BotTable, seat: int, legal: list[int]) -> int:
        v = table.turn
        high = lambda c: (RANK[c], -sort_key(c))  # noqa: E731
        low = lambda c: (RANK[c], sort_key(c))    # noqa: E731
        if v.phase in (Phase.BETWEEN, Phase.BEFORE_FIRST):
            return self._lead(table, seat, legal)
        if v.first_trick:
            return max(legal, key=high)
        if all(SUIT[c] == _led(v) for c in legal):
            return min(legal, key=low)
        if v.trumps is not None and all(SUIT[c] == v.trumps for c in legal):
            return min(legal, key=low)
        return max(legal, key=high)  # a tochoo: shed the highest card

    def _lead(self, table: BotTable, seat: int, legal: list[int]) -> int:
        v = table.view
        if len(legal) == 1:
            return legal[0]
        nxt = _next_holding(v, seat)
        avoid = table.lacks[nxt] if nxt >= 0 else 0
        by_suit: dict[int, list[int]] = {}
        for c in legal:
            by_suit.setdefault(SUIT[c], []).append(c)
        suits = [s for s in by_suit if not avoid & (1 << s)] or list(by_suit)
        if v.trumps is not None and len(suits) > 1:
            suits = [s for s in suits if s != v.trumps] or suits
        suit = max(suits, key=lambda s: (len(by_suit[s]), -s))
        return min(by_suit[suit], key=lambda c: (RANK[c], sort_key(c)))

    def wants_take(self, table: BotTable, taker: int, target: int) -> bool:
        v = table.view
        if len(_holding(v)) <= 2:
            return False
        mine = 0
        for c in v.known[taker]:
            mine |= 1 << SUIT[c]
        if mine and mine & ~table.lacks[target] == 0:
            return True
        return self.rng.random() < SENSIBLE_TAKE


class SolverBot(Bot):
    """Plays exactly once few cards are held: with at most ``WINDOW`` cards in the hands it
    asks the review's solver (referee.players.solver) for a play or take that keeps its seat's
    best class (safe, else open); before that, or when the search runs past its budget, it
    plays as the sensible bot."""

    name = "solver"
    WINDOW = 8
    BUDGET: int | None = 30_000  # positions per question; past it, the sensible bot's choice

    def __init__(self, rng: random.Random):
        super().__init__(rng)
        self.solver = Solver(max_nodes=self.BUDGET)
        self.fallback = SensibleBot(rng)

    def _options(self, e: Engine, seat: int) -> list[tuple[EngineAction, SeatClass]] | None:
        if not solvable(e) or cards_held(e) > self.WINDOW:
            return None
        try:
            return self.solver.choices(e, seat)
        except SearchLimit:
            return None

    def card(self, table: BotTable, seat: int, legal: list[int]) -> int:
        options = self._options(table.engine, seat)
        plays = [(a.card, c.rank) for a, c in options or () if isinstance(a, PlayCard) and a.card in legal]
        usual = self.fallback.card(table, seat, legal)
        if not plays:
            return usual
        top = max(r for _, r in plays)
        best = [c for c, r in plays if r == top]
        return usual if usual in best else best[0]

    def wants_take(self, table: BotTable, taker: int, target: int) -> bool:
        options = self._options(table.engine, taker)
        if options is None:
            return self.fallback.wants_take(table, taker, target)
        take = [c.rank for a, c in options if isinstance(a, TakeHand)]
        rest = [c.rank for a, c in options if not isinstance(a, TakeHand)]
        if not take:
            return False
        if rest:  # the seat leads: take only if it does better than its best lead
            return take[0] > max(rest)
        # Another seat leads: take only if the take is safe and waiting is not.
        return take[0] == SeatClass.SAFE.rank and self.solver.classify(table.engine, taker) is not SeatClass.SAFE


BOT_CLASSES: dict[str, type[Bot]] = {"random": RandomBot, "sensible": SensibleBot, "solver": SolverBot}


def known_bot(kind: str) -> bool:
    """Is ``kind`` a bot's name: one of :data:`BOTS`, ``pimc``, or ``pimc:N`` (N samples a choice)?"""
    return kind in BOT_CLASSES or re.fullmatch(r"pimc(:[1-9][0-9]{0,4})?", kind) is not None


def make_bot(kind: str, rng: random.Random) -> Bot:
    """The bot ``kind`` names (:func:`known_bot`), drawing on ``rng``."""
    if kind in BOT_CLASSES:
        return BOT_CLASSES[kind](rng)
    # pimc is built on this module's bots and rollout: imported when first seated
    from referee.players import pimc

    return pimc.make(kind, rng)


# ---- one game ----------------------------------------------------------------------------------


class BotTable:
    """Plays one game through the engine and writes its record as it goes."""

    def __init__(self, rules: RuleSet, hands: list[list[int]], rng: random.Random, bots: Sequence[str],
                 names: Sequence[str], *, mistakes: float = 0.0, inject: tuple[str, int] | None = None,
                 annotate: bool = False, observer: Observer | None = None) -> None:
        self.rules = rules
        self.rng = rng
        self.names = tuple(names)
        self.n = len(hands)
        self.engine = Engine.from_deal(rules, [list(h) for h in hands])
        self.turn: Turn = self.engine.turn()  # the position now, as read at each play
        self._view: View | None = None  # the whole position, made when first read after an action
        self.bots = [make_bot(b, rng) for b in bots]
        self.rate = mistakes
        self.inject = inject          # (code, play number): force one mistake of that kind from then on
        self.pending: str | None = None
        self.lapse = False            # the pending mistake lapses if it cannot be made at once
        self.annotate = annotate
        self.observer = observer
        self.actions: list[Action] = []
        self.mistakes: list[Mistake] = []
        self.stats = SimStats(games=1)
        self.lacks = [0] * self.n     # suits each seat was seen to lack (what a bot can know)
        self.no_take = False          # no take right after a penalty: the offender leads next

    # -- helpers -----------------------------------------------------------------------------

    def _notify(self, kind: str, *args: object) -> None:
        if self.observer is not None:
            self.observer(self.engine, kind, args)

    def _fail(self, what: str) -> NoReturn:
        raise SimulationError(f"{what} ({self.engine.describe(self.names)})")

    @property
    def view(self) -> View:
        """The whole position (the hands too): made only when read, as most plays need just
        the turn, and a view per action cost self-play half its time."""
        v = self._view
        if v is None:
            v = self._view = self.engine.view()
        return v

    def _refresh(self) -> None:
        self.turn = self.engine.turn()
        self._view = None

    def _do(self, action: EngineAction | Penalise) -> list[Event]:
        """Apply an action through the engine, which judges it first; the turn follows. The
        events of a plain action are not made (the simulator reads only a penalty's, and the
        comments read the log later through ``events_since``)."""
        events = self.engine.apply(action, events=isinstance(action, Penalise))
        self._refresh()
        return events

    def _hand(self, s: int) -> list[int]:
        return list(self.view.known[s])

    def _legal(self, s: int) -> list[int]:
        """The known cards the engine lets ``s`` play now."""
        return list(self.engine.playable(s))

    # -- the game --------------------------------------------------------------------------------

    def run(self) -> None:
        while self.turn.phase != Phase.OVER:
            if self.stats.plays > MAX_PLAYS:
                self._fail(f"no end after {MAX_PLAYS} plays")
            if self.turn.phase == Phase.DRAW_DUE:
                self._draw()
                continue
            if self.turn.phase in (Phase.BEFORE_FIRST, Phase.BETWEEN):
                if not self.no_take and self._takes():
                    continue
                self.no_take = False
                self._trick()
                continue
            self._fail("the simulator found the engine in a trick between tricks")

    def _takes(self) -> bool:
        """Offer each seat a take in turn from the one to act; True if one was made."""
        options = {a.taker: a.target for a in self.engine.legal_takes()}
        if not options:
            return False
        start = self.turn.to_act
        order = list(self.view.order)
        if start in order:
            i = order.index(start)
            order = order[i:] + order[:i]
        for taker in order:
            target = options.get(taker)
            if target is None:
                continue
            if not self.bots[taker].wants_take(self, taker, target):
                continue
            try:
                self._do(TakeHand(taker, target))
            except IllegalAction as ex:
                self._fail(f"the engine offered {self.names[taker]} a take of {self.names[target]} "
                           f"and judged it {ex.verdict.code}: {ex.verdict.reason}")
            self.lacks[taker] &= self.lacks[target]
            self.stats.takes += 1
            comment = None
            if self.annotate:
                comment = W.got_away(self.names[target], 0)
                if self.view.loser is not None:
                    comment += "; " + W.left_holding(self.names[self.view.loser])
            self.actions.append(Take(taker, target, comment))
            self._notify("take", taker, target)
            return True
        return False

    def _draw(self) -> None:
        v = self.view
        s = v.to_act
        src = v.draw_source
        if src is None:
            pool = _each_once_first(v.waste)
            if v.waste_size != len(v.waste):
                self._fail("the waste pile holds unseen cards in a game dealt face up")
            source = None
        else:
            if src != ANY_SOURCE:
                source = src
            else:  # any other player's hand
                source = self.rng.choice([t for t in _holding(v) if t != s])
            pool = _each_once_first(v.known[source])
        if not pool:
            self._fail(f"{self.names[s]} must draw from an empty place")
        c = self.rng.choice(pool)
        try:
            self._do(DrawCard(s, c, source))
        except IllegalAction as ex:
            self._fail(f"{self.names[s]} draws {card_str(c)}: judged {ex.verdict.code}: {ex.verdict.reason}")
        self.lacks[s] &= ~(1 << SUIT[c])
        self.stats.draws += 1
        if source is None:
            self.stats.draws_waste += 1
        else:
            self.stats.draws_hand += 1
        comment = None
        if self.annotate:
            comment = f"{self.names[s]}'s last card won a clean trick"
        self.actions.append(Draw(s, c, source, comment))
        self._notify("draw", s, c, source)

    # -- a trick -----------------------------------------------------------------------------------

    def _trick(self) -> None:
        number = self.turn.trick_no
        plays: list[Play] = []
        trick = Trick(number, plays)
        self._event_mark: int = self.engine.event_count()
        self.trick_end: str | None = None
        self.actions.append(trick)
        leader = self.turn.to_act
        if leader < 0:
            self._fail("nobody to lead")
        c = self._choose(leader)
        self._apply(leader, c, plays, lead=True)
        order = None
        if self.view.any_order:
            v = self.view
            # Ruling 2: in the first trick the others may play in any order (everyone who
            # held cards when it began: the others, as the leader alone may have played its last).
            held = [t for t in v.order if v.sizes[t] > 0 and t not in v.out_order]
            rest = [t for t in held if t != leader]
            if self.rng.random() < SHUFFLED_FIRST_TRICK:
                self.rng.shuffle(rest)
            else:
                i = v.order.index(leader)
                seq = v.order[i + 1:] + v.order[:i]
                rest = [t for t in seq if t in held]
            order = rest
        while self.turn.phase == Phase.IN_TRICK:
            if order is not None:
                played = {t for t, _ in self.turn.trick}
                s = next((t for t in order if t not in played), -1)
            else:
                s = self.turn.to_act
            if s < 0:
                self._fail("nobody to play in a trick that is not over")
            if self._maybe_mistake(s, plays, number):
                break
            c = self._choose(s)
            self._apply(s, c, plays, lead=False)
        self._after_trick(plays, number)
        self._comment_trick(trick)

    def _choose(self, s: int) -> int:
        legal = self._legal(s)
        if not legal:
            self._fail(f"{self.names[s]} is to act and has no legal card")
        return self.bots[s].card(self, s, legal)

    def _apply(self, s: int, c: int, plays: list[Play], lead: bool) -> None:
        before = self.turn
        try:
            self._do(PlayCard(s, c))
        except IllegalAction as ex:
            self._fail(f"{self.names[s]} {card_str(c)} is offered as legal but judged "
                       f"{ex.verdict.code}: {ex.verdict.reason}")
        plays.append(Play(s, c))
        self.stats.plays += 1
        led, trump = _led(before), before.trumps
        if not lead and SUIT[c] != led:
            # What every player sees: the seat has no card of the suit led (and, in Donkey,
            # no trump either when it played neither).
            self.lacks[s] |= 1 << led
            if trump is not None and SUIT[c] != trump:
                self.lacks[s] |= 1 << trump
        self._notify("play", s, c)

    def _after_trick(self, plays: list[Play], number: int) -> None:
        """A trick is over: who picked up what, and perhaps a play after the tochoo."""

        if self.turn.trick_no == number:
            return
        v = self.view
        self.stats.tricks += 1
        if self.trick_end == "penalty":
            return
        if v.picked_up_by is not None:
            self.trick_end = "tochoo"
            for p in plays:  # the cards of the trick, now in the hand of the seat that picked it up
                self.lacks[v.picked_up_by] &= ~(1 << SUIT[p.card])
            self.stats.tochoos += 1
            self._maybe_late_play(plays, number)
        else:
            self.trick_end = "waste"

    # -- mistakes ----------------------------------------------------------------------------------

    def _arm(self) -> None:
        """Decide, before a play, whether a mistake is coming (at the rate, or as planned)."""
        if self.pending is not None:
            return
        if self.inject is not None:
            code, at = self.inject
            if self.stats.plays >= at:
                self.pending = code
                self.inject = None
                self.lapse = False
            return
        if self.rate > 0 and self.rng.random() < self.rate:
            self.pending = self.rng.choice(MISTAKE_KINDS)
            self.lapse = True

    def _maybe_mistake(self, s: int, plays: list[Play], number: int) -> bool:
        """Instead of ``s``'s legal play, a renege by ``s`` or a play out of turn by another
        seat, if one is pending and possible now. True if the trick ended in a penalty."""

        self._arm()
        if self.pending not in (Code.RENEGE, Code.OUT_OF_TURN):
            return False  # nothing to make here: no view needed
        v = self.view
        if self.pending == Code.RENEGE:
            # The engine says what the rule asks of s (Engine.duty_of); a renege is a card
            # it does not allow, while the duty is to follow the suit led.
            duty = self.engine.duty_of(s)
            if duty.reason in _FOLLOWING:
                allowed = set(duty.cards)
                off = [c for c in self._hand(s) if c not in allowed]
                if off:
                    return self._penalty(Code.RENEGE, s, self.rng.choice(off), plays, number)
        elif self.pending == Code.OUT_OF_TURN and not v.any_order:
            # The seats still to play to this trick (everyone who holds cards and has not played).
            played = {t for t, _ in v.trick}
            others = [t for t in v.order if t != s and t not in played and t not in v.out_order and v.sizes[t] > 0]
            if others:
                t = self.rng.choice(others)
                return self._penalty(Code.OUT_OF_TURN, t, self.rng.choice(self._hand(t)), plays, number)
        if self.lapse and self.pending in (Code.RENEGE, Code.OUT_OF_TURN):
            # A mistake drawn at the rate is made at this play or not at all; a planned one
            # (``inject``) waits for its chance. A play after a tochoo waits for a tochoo.
            self.pending = None
        return False

    def _maybe_late_play(self, plays: list[Play], number: int) -> None:
        """Just after a tochoo: a seat that did not play to the trick plays to it anyway."""
        if self.pending != Code.AFTER_TOCHOO or self.turn.phase == Phase.OVER:
            return
        played = {p.seat for p in plays}  # the trick the tochoo ended
        late = [t for t in _holding(self.view) if t not in played]
        if late:
            t = self.rng.choice(late)
            self._penalty(Code.AFTER_TOCHOO, t, self.rng.choice(self._hand(t)), plays, number)

    def _penalty(self, code: Code, s: int, c: int, plays: list[Play], number: int) -> bool:
        """``s`` makes the mistake ``code`` by playing ``c``, and the table applies ruling 1's
        penalty; the engine judges the play and must find that very mistake."""
        try:
            events = self._do(Penalise(s, c, late=code == Code.AFTER_TOCHOO))
            found = events[0].code if events and isinstance(events[0], MistakeMade) else None
        except ValueError as ex:  # a record error (IllegalAction), or a legal play
            found, why = None, str(ex)
        else:
            why = "legal" if found is None else found
        if found != code:
            self._fail(f"{self.names[s]} {card_str(c)} should be {code}, judged {why}")
        plays.append(Play(s, c))
        self.pending = None
        self.no_take = True
        self.lacks[s] = 0
        self.stats.plays += 1
        self.stats.mistakes[code] += 1
        self.mistakes.append(Mistake(code, number, s, c, self.names[s]))
        self.trick_end = "penalty"
        self._notify("penalty", s, c, code)
        return True

    # -- comments ------------------------------------------------------------------------------------

    def _comment_trick(self, trick: Trick) -> None:
        """With ``annotate``: say at the end of a trick line what happened to the trick."""

        if not self.annotate:
            return
        v = self.view
        parts: list[str] = []
        m = self.mistakes[-1] if self.trick_end == "penalty" else None
        if m is not None:
            parts.append(f"{title(m.code)} ({m.code}): " + W.penalty_words(m.seat_name, len(trick.plays), trick.number,
                                                                             None, told="note"))
        elif trick.number == 1:
            parts.append(W.to_waste_note())
        elif self.trick_end == "tochoo":
            parts.append(W.tochoo_note(self.names[v.picked_up_by if v.picked_up_by is not None else -1], len(trick.plays)))
        # The events in the wording layer's words (judging/wording.py), a record's comment's short form.
        for ev in self._trick_events():
            if isinstance(ev, TrumpsSet):
                parts.append(W.trumps_set(ev.suit, symbol=False))
            elif isinstance(ev, GotAway):
                parts.append(W.got_away(self.names[ev.seat], 0))
            elif isinstance(ev, GameOver):
                parts.append(W.loses(self.names[ev.loser], ev.legs if self.rules.donkey else None))
        if parts:
            trick.comment = "; ".join(parts)
        if self.trick_end in ("tochoo", "penalty") and v.phase != Phase.OVER:
            self.actions.append(Counts(tuple((s, v.sizes[s]) for s in v.order if s not in v.out_order)))

    def _trick_events(self) -> list[Event]:
        e = self.engine
        start = getattr(self, "_event_mark", 0)
        self._event_mark = e.event_count()
        return e.events_since(start)


# ---- what the simulator reads of a view ---------------------------------------------------------


def _led(v: View | Turn) -> int:
    """The suit led to the trick on the table (-1 between tricks)."""
    return SUIT[v.trick[0][1]] if v.trick else -1


def _holding(v: View) -> list[int]:
    """The seats still in the game that hold cards, in the order of play."""
    out = v.out_order
    return [s for s in v.order if v.sizes[s] > 0 and s not in out]


def _next_holding(v: View, s: int) -> int:
    """The next seat after ``s`` in the order of play that is in the game and holds cards; -1
    if none but ``s``."""
    i = v.order.index(s)
    for t in v.order[i + 1:] + v.order[:i]:
        if v.sizes[t] > 0 and t not in v.out_order:
            return t
    return -1


def _each_once_first(cards: Sequence[int]) -> list[int]:
    """A sorted multiset of cards (a known hand, the waste pile) as one copy of each, then the
    second copies of a double pack: the order the simulator has always drawn from."""
    seen: set[int] = set()
    first: list[int] = []
    second: list[int] = []
    for c in cards:
        (second if c in seen else first).append(c)
        seen.add(c)
    return first + second


def play_game(rules: RuleSet, players: int, rng: random.Random, *, bots: Sequence[str] | None = None,
              mistakes: float = 0.0, inject: tuple[str, int] | None = None, number: int = 1,
              seed: str = "", annotate: bool = False, dealer: int | None = -1,
              observer: Observer | None = None, header: Sequence[str] = ()) -> SimGame:
    """Deal and play one game with ``rng``; return its record.

    ``bots`` names a bot per seat (default: all sensible). ``mistakes`` is the chance per
    play of a table mistake; ``inject=(code, k)`` instead makes one mistake of that kind at
    the first chance from the k-th play on. ``dealer`` is the dealing seat (-1: the one
    whose turn it is in a series, from ``number``; None: no [Dealer] tag). ``observer`` is
    called as ``observer(engine, kind, args)`` after every action (for tests).
    """

    check_players(rules, players)
    names = seat_names(players)
    bots = list(bots) if bots is not None else ["sensible"] * players
    if len(bots) != players or not all(known_bot(b) for b in bots):
        raise ValueError(f"bots: one of {', '.join(BOTS + SEARCH_BOTS)} per seat, {players} seats")
    order = play_order(rules, players)
    if dealer == -1:
        # The players take turns to deal (Pagat, Getaway, Deal): in the direction of play.
        dealer = order[(number - 2) % players]
    hands = deal(rng, rules, players, dealer)
    table = BotTable(rules, hands, rng, bots, names, mistakes=mistakes, inject=inject, annotate=annotate,
                   observer=observer)
    table.run()
    loser, legs = table.view.loser, table.view.legs
    if loser is None:
        table._fail("the game ended without a loser")
    table.stats.losers[names[loser]] += 1
    head: list[Tag | Comment] = [Tag("Seats", " ".join(names)), Tag("Rules", rules.spec())]
    if dealer is not None:
        head.append(Tag("Dealer", names[dealer]))
    head.append(Tag("Result", f"{names[loser]} {legs}" if rules.donkey else names[loser]))
    for line in header:
        head.append(Comment(line))
    if table.mistakes:
        head.append(Comment("mistakes made at the table, each penalised (ruling 1): "
                            + "; ".join(str(m) for m in table.mistakes)))
    if annotate and set(bots) != {"sensible"}:
        head.append(Comment("bots: " + ", ".join(f"{names[s]} {bots[s]}" for s in range(players))))
    setup = Deal([Hand(s, tuple(_sorted(h)), len(h)) for s, h in enumerate(hands)])
    game = Game(number=number, header=head, seats=names, rules=rules.spec(), setup=setup,
                actions=table.actions)
    return SimGame(number, seed, game, format_game(game), table.mistakes, table.stats, loser, legs)


def rollout(e: Engine, rng: random.Random, bots: Sequence[str] | None = None) -> Engine:
    """Play a position with every hand known on to its end with the bundled bots (one kind
    per seat, default sensible), writing no record: the engine at the end (``.loser``).
    The position is not changed. For the review's chances and the solver bot's tests."""
    n = len(e.view().sizes)
    table = BotTable(e.rules, [[] for _ in range(n)], rng, list(bots) if bots else ["sensible"] * n, seat_names(n))
    table.engine = t = e.fork()
    table._refresh()
    _seen_lacking(table)
    while table.view.phase == Phase.IN_TRICK:
        # The trick on the table first (run() starts from between tricks).
        s = table.view.to_act
        if s < 0:  # the first trick in any order: the next seat still to play
            s = next((x for x in table.view.order if table._legal(x)), -1)
        if s < 0 or not table._legal(s):
            table._fail("nobody may play to the trick on the table (a trick followed as played?)")
        table._apply(s, table._choose(s), [], lead=False)
    table.run()
    return t


def _seen_lacking(table: BotTable) -> None:
    """A table taken up mid-game knows what its players saw before: the suits each seat
    has shown it lacks (the engine's voids), as the table that played those tricks knew
    them. Without them the bots of a rollout lead into suits a real table knows are void,
    and play worse than the players whose game the review predicts (issue 28)."""
    table.lacks = [sum(1 << suit for suit in suits) for suits in table.view.voids]


def bot_card(e: Engine, seat: int, rng: random.Random, bot: str = "sensible") -> int:
    """The card a bundled bot would play for ``seat`` now, among the engine's legal cards;
    -1 if it has none. The position is not changed."""
    n = len(e.view().sizes)
    table = BotTable(e.rules, [[] for _ in range(n)], rng, [bot] * n, seat_names(n))
    table.engine = e.fork()
    table._refresh()
    _seen_lacking(table)
    legal = table._legal(seat)
    if not legal:
        return -1
    return table.bots[seat].card(table, seat, legal)


def _sorted(cards: Iterable[int]) -> list[int]:
    return sort_cards(cards)


def check_players(rules: RuleSet, players: int) -> None:
    limit = rules.most_seats
    if not 2 <= players <= limit:
        if rules.marked_ace:
            said = L.gettext("a game has 2 to {most} players with 2 packs, not {players}")
        elif players > limit:
            said = L.gettext("a game has 2 to {most} players with 1 pack, not {players} (more than {most} need a "
                             "double pack: {option})")
        else:
            said = L.gettext("a game has 2 to {most} players with 1 pack, not {players}")
        raise ValueError(said.format(most=limit, players=players, option="packs=2"))
