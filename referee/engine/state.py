"""The rules engine: the state of a game and what may happen next, under a rule set.

Every other part of getaway-ref asks this module what is legal: the referee, the
simulator, ``show``, ``legal`` and ``live``. It knows nothing of records or text.

A state is a handful of lists and ints (python-chess style): per seat a hand of known cards
as a pair of bit masks (see :mod:`referee.cards`), a count of cards nobody has seen, and a
mask of suits that seat's unseen cards are known to lack. Cards nobody has seen are the
``hidden`` multiset: the pack minus every card whose place is known.

The rules are cited as their public name and section (referee.engine.citations); "ruling N" is one of docs/rulings.md. The verbs are separate, as in python-chess: ``judge_*`` says whether an action
is legal (and why not) without changing anything, ``play``/``take``/``draw`` apply a legal
action, ``penalise`` applies ruling 1's penalty for a mistake.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from referee.engine import citations as R
from referee.engine.cards import (
    ACE_OF_SPADES,
    BIT,
    CARD_COUNT,
    FULL_PACK,
    MARKED_ACE,
    RANK,
    SUIT,
    SUIT_MASK,
    card_str,
    cards_of,
    distinct_mask,
    ms_add,
    ms_cards,
)
from referee.engine.citations import Cite
from referee.engine.codes import Code
from referee.engine.events import (
    ANY_SOURCE,
    Action,
    Asked,
    CloseTrick,
    DrawCard,
    DrawDue,
    Drew,
    Duty,
    Effect,
    EndTrick,
    Event,
    ForceDraw,
    ForgetVoid,
    GameOver,
    GotAway,
    LeadReason,
    Leads,
    Legal,
    LegalReason,
    MarkVoid,
    MistakeMade,
    MoveFromWaste,
    MoveHand,
    Penalise,
    Penalty,
    PickedUp,
    PlayAnyway,
    PlayCard,
    Played,
    RecordAction,
    RevealCard,
    SwapFromWaste,
    TableAction,
    TakeHand,
    Took,
    TrickToWaste,
    TrumpsSet,
    VoidShown,
    card_effect,
)
from referee.engine.rules import RuleSet

if TYPE_CHECKING:
    import random  # sample_unseen's generator: a plain check need not load the module


# The solver's moves as ints (engine/search.py): a play ``seat << 6 | card``, a take
# ``TAKE | taker << 6 | target``, a draw ``DRAW | (source + 1) << 12 | drawer << 6 | card``.
TAKE = 1 << 20
DRAW = 2 << 20
MOVE_KIND = 3 << 20


class Phase(IntEnum):
    """Where a game stands: ``Engine.phase``. An int, so the hot path compares it as one."""

    BEFORE_FIRST = 0  # the holder of the ace of spades is to open the first trick
    BETWEEN = 1  # a trick is over; the player with the power leads (or someone takes first)
    IN_TRICK = 2  # a trick is on the table
    DRAW_DUE = 3  # the power holder has no card and must draw before leading
    OVER = 4  # one player is left holding cards: the loser


# Effects the hot path compares (module constants: no look-up on the enum class each play;
# Final, so the compiled build reads them from C statics, not from the module's dict).
FOLLOWS: Final = Effect.FOLLOWS
TOCHOO: Final = Effect.TOCHOO
TRUMPS: Final = Effect.TRUMPS
LEADS: Final = Effect.LEADS
POWER: Final = LeadReason.POWER

# The engine keeps its phase as a plain int: CPython compares exact ints on a fast path.
BEFORE_FIRST: Final = int(Phase.BEFORE_FIRST)
BETWEEN: Final = int(Phase.BETWEEN)
IN_TRICK: Final = int(Phase.IN_TRICK)
DRAW_DUE: Final = int(Phase.DRAW_DUE)
OVER: Final = int(Phase.OVER)
PHASE_NAMES = ("before the first trick", "between tricks", "in a trick", "a draw is due", "over")

# what a judge says of a play
OK = None


# ---- the duty to follow: the rule, written once ----------------------------------------------

_ASKED: dict[int, tuple[Asked, ...]] = {}
_EVERY_CARD: Final = (1 << CARD_COUNT) - 1  # the marked ace of a double pack included


def asked(led: int, first: bool, trump: int) -> tuple[Asked, ...]:
    """What a seat playing to a trick led in ``led`` must play, as steps in the order the rule
    asks them: a card of the suit led (in the first trick, a spade); in Donkey, once a suit
    is trumps (``trump``, -1 before or outside Donkey), a trump; else any card, which ends the
    trick (a tochoo). A hand's duty is the first step it can meet. Every judge of a play, every
    list of legal cards, every void the engine infers from a play and the solver's moves read
    these steps, so a house rule of following changes here and nowhere else (Pagat, Getaway:
    First trick; Second and subsequent tricks; Donkey). The first step is always the suit
    led: the hot paths test it before asking for the rest."""
    key = led | first << 2 | (trump + 1) << 3
    steps = _ASKED.get(key)
    if steps is None:
        follow = (LegalReason.FIRST_TRICK_SPADE, R.FIRST_TRICK) if first else (LegalReason.FOLLOW, R.LATER_TRICKS)
        out = [Asked(SUIT_MASK[led], led, *follow, Code.RENEGE, "holds the suit led", "may hold the suit led")]
        if trump >= 0 and trump != led:
            out.append(Asked(SUIT_MASK[trump], trump, LegalReason.TRUMP, R.DONKEY, Code.RENEGE,
                             "holds a trump", "may hold a trump"))
        out.append(Asked(_EVERY_CARD, -1, LegalReason.OFF_SUIT, R.LATER_TRICKS, Code.RENEGE, "", ""))
        steps = _ASKED[key] = tuple(out)
    return steps


# Denexa's shootout, with ruling 8 that makes a higher card no mistake: its sources.
_SHOOTOUT: Final = (R.DENEXA_ENDING, R.ruling(8))

# Where the rules that are not the duty to follow say what a seat may play.
_LEAD_CITES: dict[LegalReason, Cite] = {LegalReason.ANY: R.LATER_TRICKS, LegalReason.ACE_FIRST: R.FIRST_TRICK}


@dataclass(frozen=True, slots=True)
class View:
    """A game's position as the rest of the package reads it: plain values, frozen, made when
    asked (:meth:`Engine.view`), so nothing outside the engine reads its ints and masks.

    Seats are indices into the record's seats; cards are card ints (:mod:`referee.engine.cards`).
    """

    phase: Phase
    trick_no: int  # the trick being played, or the next one between tricks
    trick: tuple[tuple[int, int], ...]  # the plays on the table, (seat, card), in order
    to_act: int  # the seat that must act; -1 when any seat may (the first trick) or none
    leader: int  # the seat due to lead next (between tricks), or that led this trick; -1 none
    lead_why: LeadReason  # why ``leader`` leads; only POWER means "has the power"
    sizes: tuple[int, ...]  # cards held by each seat, seen or not
    known: tuple[tuple[int, ...], ...]  # the cards known to be in each hand
    voids: tuple[tuple[int, ...], ...]  # the suits each seat has shown it lacks
    out_order: tuple[int, ...]  # the seats that got away, first first
    trumps: int | None  # Donkey: the trump suit once set
    waste: tuple[int, ...]  # the known cards of the waste pile
    waste_size: int  # how many cards the waste pile holds, seen or not
    loser: int | None  # the seat left holding cards, once the game is over
    legs: int  # the cards left in the loser's hand (Donkey's legs)
    order: tuple[int, ...]  # every seat, in the order of play from seat 0 (rules.direction)
    first_trick: bool  # the trick on the table, or the next, is the first (Pagat, First trick)
    draw_source: int | None  # a draw due comes from: None the waste pile, a seat, ANY_SOURCE any other hand
    picked_up_by: int | None  # who picked up the trick that ended last (a tochoo, a penalty); None: the waste
    last_trick: tuple[tuple[int, int], ...]  # the plays of the trick that ended last, (seat, card), in order
    ended_by: str  # how the game ended: "end" (one player left holding cards), "two_players" (Pagat, Two players), "" not yet
    hidden: tuple[int, ...]  # the cards nobody has seen, each once: an unseen hand may hold only these
    # seamviews (issue 23): what show and legal read of the position
    power: int | None  # the seat with the power, or that had it when the trick on the table was led; None: nobody
    led: int | None  # the suit led to the trick on the table
    tochoo: bool  # a card of another suit (not a trump) has ended the trick on the table
    as_played: bool  # the trick on the table went on after a mistake the table did not penalise: followed as played
    still_to_play: tuple[int, ...]  # the seats that held cards when the trick on the table began and have not played to it
    pending: tuple[tuple[int, int], ...]  # the clean trick just played, (seat, card): it joins the waste pile after the draw
    drawn_lead: bool  # the lead is a card just drawn (Pagat, Two players)
    hidden_cards: tuple[int, ...]  # the cards nobody has seen, a card twice when both its copies are (two packs)
    # issue 37: the rule facts the table reads, so that no module outside the engine reads an option
    any_order: bool  # the first trick (on the table or next) may be played in any order (first_trick=any_order)
    ended_cite: Cite | None  # the rule by which the game ended (the ending with two players, or End of Play); None: not over
    shootout: tuple[Cite, ...]  # in force on the trick on the table: Denexa's shootout (a drawn lead, two left), else ()


class Turn(NamedTuple):
    """The few values of :class:`View` a player reads at each play (:meth:`Engine.turn`):
    no hand is listed, so it costs a fraction of a view. Self-play asks it per action and a
    whole view only when a bot or a mistake needs the hands."""

    phase: Phase
    trick_no: int  # as View.trick_no
    trick: tuple[tuple[int, int], ...]  # as View.trick
    to_act: int  # as View.to_act
    first_trick: bool  # as View.first_trick
    trumps: int | None  # as View.trumps


class Outcome(NamedTuple):
    """How a game stands when its record ends (:meth:`Engine.outcome`); each value as in
    :class:`View`."""

    phase: Phase
    tricks: int  # tricks played to, the one on the table included
    out_order: tuple[int, ...]
    sizes: tuple[int, ...]
    loser: int | None
    legs: int
    ended_by: str


class SuitHeld(NamedTuple):
    """A renege's fact: the suit the seat had to play (the suit led, or the trump in Donkey)
    and holds (or, unseen, may hold)."""

    suit: int


class TurnOf(NamedTuple):
    """An out-of-turn play's fact, or a first trick opened with another card than the ace:
    the seat whose turn or lead it was (-1: nobody, or nobody known)."""

    seat: int


class DrawDueFrom(NamedTuple):
    """A draw out of place: the seat that must draw and where from (None: the waste pile;
    a seat; ``ANY_SOURCE``: any other player's hand)."""

    drawer: int
    source: int | None


class TakeOnly(NamedTuple):
    """A take of the wrong hand: the hand the taker may take (-1: none)."""

    target: int


# What a verdict says besides its code, per code (None: the code and reason say it all).
VerdictDetail = SuitHeld | TurnOf | DrawDueFrom | TakeOnly | None


@dataclass(slots=True)
class Verdict:
    """Why an action is not legal: a diagnostic code and the facts behind it."""

    code: str
    reason: str
    # For a renege: the suit the player held. For out of turn: whose turn it was. For a
    # draw out of place: who draws from where. For a wrong take: the hand that may be taken.
    detail: VerdictDetail = None


class IllegalAction(ValueError):
    """An action the rules do not allow now: ``verdict`` says which rule and why."""

    def __init__(self, action: Action | TableAction, verdict: Verdict) -> None:
        # The message is made when read: a replay that tries a record against several states
        # (the look-ahead) catches many of these and reads none.
        super().__init__(action, verdict)
        self.action = action
        self.verdict = verdict

    def __str__(self) -> str:
        return f"{self.action}: {self.verdict.code} {self.verdict.reason}"


class CannotFollow(ValueError):
    """A record's action (:data:`RecordAction`) the state cannot follow: nothing changed."""

    def __init__(self, action: RecordAction, why: str) -> None:
        super().__init__(f"{action}: {why}")
        self.action = action


def pack_masks(rules: RuleSet) -> tuple[int, int]:
    """The whole pack of a rule set as (once, twice): 52 cards, or 104 with the marked ace."""
    if rules.packs == 2:
        # Two of every card, but one of the two aces of spades is the marked one.
        return FULL_PACK | BIT[MARKED_ACE], FULL_PACK & ~BIT[ACE_OF_SPADES]
    return FULL_PACK, 0


@functools.lru_cache(maxsize=64)
def _order(direction: str, n: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    # Seats in order of play: the seats tag lists them clockwise (Pagat, Players and Cards:
    # deal and play are clockwise; Variations: some play anticlockwise). after[s]: the
    # other seats in the direction of play, from the next one after s (whose turn comes
    # next is asked at every play). Made once per table size: every game asks.
    seq = list(range(n)) if direction == "clockwise" else [0] + list(range(n - 1, 0, -1))
    return tuple(seq), tuple(tuple(seq[(seq.index(s) + k) % n] for k in range(1, n)) for s in range(n))


def order_of_play(rules: RuleSet, n: int) -> tuple[int, ...]:
    """Every seat of a table of ``n``, in the order of play from seat 0 (``View.order``),
    without an engine: the referee asks it to check who a deal's extra cards went to."""
    return _order(rules.direction, n)[0]


class Engine:
    """One game's state. Build it with :meth:`from_deal` or :meth:`from_position`."""

    __slots__ = (
        "_active",
        "_after",
        "_any_order",
        "_double",
        "_draw_source",
        "_drawer",
        "_drawn_lead",
        "_ended_by",
        "_first",
        "_hidden_once",
        "_hidden_twice",
        "_last_picker",
        "_last_trick",
        "_lead_why",
        "_leader",
        "_led",
        "_legs",
        "_lenient",
        "_log",
        "_loser",
        "_made",
        "_n",
        "_once",
        "_out",
        "_out_order",
        "_pending",
        "_phase",
        "_played",
        "_power",
        "_seq",
        "_tochoo",
        "_trick",
        "_trick_no",
        "_trump",
        "_trumps",
        "_twice",
        "_unknown",
        "_void",
        "_void_since",
        "_waste_once",
        "_waste_twice",
        "_waste_unknown",
        "rules",
    )

    def __init__(self, rules: RuleSet, n: int) -> None:
        self.rules = rules
        self._n = n
        self._double = rules.packs == 2
        self._trumps = rules.trumps
        self._any_order = rules.first_trick == "any_order"
        # Seats in order of play: the seats tag lists them clockwise (Pagat, Players and
        # Cards: deal and play are clockwise; Variations: some play anticlockwise).
        seq, self._after = _order(rules.direction, n)
        self._seq = list(seq)
        self._once = [0] * n
        self._twice = [0] * n
        self._unknown = [0] * n
        self._void = [0] * n
        # The play that showed a seat void in a suit: the referee's own reference, kept for it.
        self._void_since: list[dict[int, VoidShown | None]] = [{} for _ in range(n)]
        self._out = [False] * n
        self._out_order: list[int] = []
        self._waste_once = self._waste_twice = 0
        self._waste_unknown = 0
        self._hidden_once = self._hidden_twice = 0
        self._phase = BEFORE_FIRST
        self._trick_no = 1
        self._first = True
        self._trick: list[tuple[int, int]] = []
        self._played = 0  # mask of seats that played to the current trick
        self._active = 0  # mask of seats that held cards when the trick began
        self._leader = -1
        self._led = -1
        self._tochoo = False
        self._power = -1
        self._lead_why = LeadReason.ACE  # why ``power`` leads (only POWER means "has the power")
        self._trump = -1
        self._drawer = -1
        # Where the due draw comes from: a seat, "any" other hand, or None (the waste pile).
        self._draw_source: int | str | None = None
        self._pending: list[tuple[int, int]] = []  # a clean trick waiting for the waste pile
        self._drawn_lead = False
        self._loser = -1
        self._legs = 0
        self._ended_by = ""  # "end": one player left holding cards; "two_players": a tochoo on a drawn lead
        self._last_trick: list[tuple[int, int]] = []
        self._last_picker = -1
        self._lenient = False
        # What happened, as (event class, its fields...): a tuple is made on every play,
        # the event value only when someone asks for it (events_since), which a plain
        # check never does.
        self._log: list[tuple[Any, ...]] = []
        self._made: list[Event] = []

    # ---- building ---------------------------------------------------------------------

    def pack(self) -> tuple[int, int]:
        """The whole pack as (once, twice): 52 cards, or 104 with the marked ace."""
        return pack_masks(self.rules)

    @classmethod
    def from_deal(cls, rules: RuleSet, hands: Sequence[Sequence[int] | int], *, check: bool = True) -> Engine:
        """``hands[i]`` is a list of cards, or an int: the size of an unseen hand. Cards
        nobody is dealt stay out of play (a small deal, for a puzzle or a test). A card that
        is not in the pack, or is dealt more often than the pack holds it, or more cards
        than the pack holds, raise ValueError. ``check=False``
        is for a caller that has checked the deal itself (the referee reports a bad deal as
        R101/R102, card by card)."""
        e = cls(rules, len(hands))
        if check:
            e._check_deal(hands)
        e._place_hands(hands)
        e._phase = BEFORE_FIRST
        e._trick_no = 1
        e._first = True
        return e

    @classmethod
    def from_position(cls, rules: RuleSet, hands: Sequence[Sequence[int] | int | None], out: list[int],
                      waste: Sequence[int] | int | None, lead: int, trick_no: int,
                      trump: int = -1) -> Engine:
        """A game in progress: ``hands[i]`` cards, a size, or None for a seat that is out;
        ``waste`` a list of cards, an int size, or None for the rest of the pack."""
        e = cls(rules, len(hands))
        e._place_hands(hands)
        for s in out:
            e._out[s] = True
            e._out_order.append(s)
        if isinstance(waste, int):
            e._waste_unknown = waste
        elif waste is None:
            e._waste_unknown = e.hidden_size() - sum(e._unknown)
        else:
            for c in waste:
                e._waste_once, e._waste_twice = ms_add(e._waste_once, e._waste_twice, c)
                e._unhide(c)
        e._phase = BETWEEN
        e._first = False
        e._trick_no = trick_no
        e._power = lead
        e._lead_why = LeadReason.POSITION
        e._trump = trump
        e._finish_if_one_left()
        return e

    def _check_deal(self, hands: Sequence[Sequence[int] | int]) -> None:
        pack_once, pack_twice = self.pack()
        once = twice = 0
        total = 0
        for h in hands:
            if isinstance(h, int):
                if h < 0:
                    raise ValueError(f"a hand of {h} cards")
                total += h
                continue
            total += len(h)
            if h and min(h) >= 0 and max(h) < CARD_COUNT:
                mask = distinct_mask(h)
                if mask >= 0 and not once & mask and not mask & ~pack_once:
                    once |= mask  # distinct cards of the pack, none dealt before: the usual hand
                    continue
            for c in h:
                if not 0 <= c < CARD_COUNT:
                    raise ValueError(f"{c} is not a card (0-{CARD_COUNT - 1})")
                b = BIT[c]
                if once & b and (twice & b or not pack_twice & b):
                    raise ValueError(f"{card_str(c)} is dealt more often than the pack holds it")
                if once & b:
                    twice |= b
                elif pack_once & b:
                    once |= b
                else:
                    raise ValueError(f"{card_str(c)} is not in this pack")
        size = pack_once.bit_count() + pack_twice.bit_count()
        if total > size:
            raise ValueError(f"the deal holds {total} cards, the pack {size}")

    def _place_hands(self, hands: Sequence[Sequence[int] | int | None]) -> None:
        """Every card starts unseen; a hand given by its cards takes them out of hiding."""
        self._hidden_once, self._hidden_twice = self.pack()
        for s, h in enumerate(hands):
            if h is None:
                continue
            if isinstance(h, int):
                self._unknown[s] = h
            else:
                mask = distinct_mask(h)
                if mask >= 0 and not self._once[s] & mask and not self._hidden_twice & mask:
                    # Distinct cards, none held twice or hidden twice (a single pack): the
                    # card-by-card loop below, done for the whole hand at once.
                    self._once[s] |= mask
                    self._hidden_once &= ~mask
                    continue
                for c in h:
                    self._give(s, c)
                    self._unhide(c)

    def copy(self) -> Engine:
        e = Engine(self.rules, self._n) if _COMPILED else Engine.__new__(Engine)
        for k in _FIELDS:
            v = getattr(self, k)
            if type(v) is list:
                v = [dict(x) for x in v] if k == "void_since" else list(v)
            setattr(e, k, v)
        return e

    def fork(self) -> Engine:
        """A copy for search (the review's solver): the state alone, with an empty event log
        and without the referee's void references, so a node of a search tree costs a few
        list copies. Every rule still comes from this engine's methods. Written out field by
        field: a loop over the slots costs more than the rest of a search step."""
        e = Engine(self.rules, self._n) if _COMPILED else Engine.__new__(Engine)
        e.rules, e._n, e._seq, e._after = self.rules, self._n, self._seq, self._after
        e._waste_once, e._waste_twice, e._waste_unknown, e._hidden_once = self._waste_once, self._waste_twice, self._waste_unknown, self._hidden_once
        e._hidden_twice, e._phase, e._trick_no, e._first = self._hidden_twice, self._phase, self._trick_no, self._first
        e._played, e._active, e._leader, e._led = self._played, self._active, self._leader, self._led
        e._tochoo, e._power, e._trump, e._drawer = self._tochoo, self._power, self._trump, self._drawer
        e._draw_source, e._drawn_lead, e._loser, e._legs = self._draw_source, self._drawn_lead, self._loser, self._legs
        e._last_picker, e._lenient, e._double, e._trumps = self._last_picker, self._lenient, self._double, self._trumps
        e._any_order, e._lead_why, e._ended_by = self._any_order, self._lead_why, self._ended_by
        e._once, e._twice, e._unknown, e._void = self._once[:], self._twice[:], self._unknown[:], self._void[:]
        e._out, e._out_order = self._out[:], self._out_order[:]
        # The last trick's list is never changed in place (it is replaced when a trick ends),
        # so the fork shares it; the void references start empty, made on first use.
        e._trick, e._pending, e._last_trick = self._trick[:], self._pending[:], self._last_trick
        e._void_since = []
        e._log, e._made = [], []
        return e

    # ---- what happened ----------------------------------------------------------------------

    def event_count(self) -> int:
        """How many events have happened so far: a mark for :meth:`events_since`."""
        return len(self._log)

    def events_since(self, mark: int) -> list[Event]:
        """The events that happened after ``mark`` (an :meth:`event_count`), in order."""
        made, log = self._made, self._log
        for entry in log[len(made):]:
            made.append(entry[0](*entry[1:]))
        return made[mark:]

    @property
    def events(self) -> list[Event]:
        """Every event of the game so far, in order."""
        return self.events_since(0)

    # ---- card places ------------------------------------------------------------------------

    def _give(self, s: int, c: int) -> None:
        # cards.ms_add in place: the hot path of every pickup and deal.
        b = BIT[c]
        if self._once[s] & b:
            self._twice[s] |= b
        else:
            self._once[s] |= b

    def _take_known(self, s: int, c: int) -> bool:
        b = BIT[c]
        if self._twice[s] & b:
            self._twice[s] &= ~b
            return True
        if self._once[s] & b:
            self._once[s] &= ~b
            return True
        return False

    def _unhide(self, c: int) -> bool:
        b = BIT[c]
        if self._hidden_twice & b:
            self._hidden_twice &= ~b
            return True
        if self._hidden_once & b:
            self._hidden_once &= ~b
            return True
        return False

    def hidden_size(self) -> int:
        return self._hidden_once.bit_count() + self._hidden_twice.bit_count()

    def size(self, s: int) -> int:
        return self._once[s].bit_count() + self._twice[s].bit_count() + self._unknown[s]

    def holds_cards(self, s: int) -> bool:
        # A second copy is always in ``twice`` *and* ``once`` (see _give), so ``once`` alone
        # says whether any known card is left: cheaper than counting, on every trick's path.
        return bool(self._once[s]) or self._unknown[s] > 0

    def in_game_count(self) -> int:
        """How many seats are still playing (not out)."""
        return self._out.count(False)

    def known(self, s: int) -> list[int]:
        return ms_cards(self._once[s], self._twice[s])

    def may_hold(self, s: int, c: int) -> bool:
        """Could the seat hold this card? Known, or one of the cards nobody has seen while the
        seat holds unseen cards. A void shown does not rule a card out here: a seat that
        showed it lacks a suit and then plays one reneged, and the judge must find the card
        in its hand to say so (the review's samples keep to the voids: sample_unseen)."""
        if self._once[s] & BIT[c]:
            return True
        return self._unknown[s] > 0 and bool(self._hidden_once & BIT[c])

    def waste_size(self) -> int:
        return self._waste_once.bit_count() + self._waste_twice.bit_count() + self._waste_unknown

    def in_game(self) -> list[int]:
        """Seats still playing (not out), in order of play."""
        return [s for s in self._seq if not self._out[s]]

    def holding(self) -> list[int]:
        out, once, unknown = self._out, self._once, self._unknown
        return [s for s in self._seq if not out[s] and (once[s] or unknown[s] > 0)]

    def next_seat(self, s: int, *, holding: bool = True, skip: int = -1) -> int:
        """The next seat after ``s`` in the direction of play that is in the game (and holds
        cards); -1 if there is none but ``s``."""
        for t in self._after[s]:
            if t == skip or self._out[t]:
                continue
            if holding and not self.holds_cards(t):
                continue
            return t
        return -1

    def where(self, c: int) -> str:
        """Where a card is known to be, in words (for diagnostics)."""
        b = BIT[c]
        for s in range(self._n):
            if (self._once[s] | self._twice[s]) & b:
                return f"seat:{s}"
        if any(tc == c for _, tc in self._trick):
            return "trick"
        if any(tc == c for _, tc in self._pending):
            return "trick"
        if (self._waste_once | self._waste_twice) & b:
            return "waste"
        if (self._hidden_once | self._hidden_twice) & b:
            return "hidden"
        return "nowhere"

    # ---- whose turn --------------------------------------------------------------------------

    def to_act(self) -> int:
        """The seat that must act now: the leader between tricks, the drawer when a draw is
        due, the next player in a trick; -1 when any seat may (the first trick) or none."""
        if self._phase in (BEFORE_FIRST,):
            return self.ace_holder()
        if self._phase == BETWEEN:
            return self._power
        if self._phase == DRAW_DUE:
            return self._drawer
        if self._phase == IN_TRICK:
            if (self._first and self._any_order) or self._lenient:
                # Any order in the first trick; a trick followed as played after an
                # unpenalised mistake has no turn order left to enforce.
                return -1
            return self._next_to_play()
        return -1

    def _next_to_play(self) -> int:
        """The next seat in the direction of play that held cards when the trick began and
        has not played to it (Pagat, Second and subsequent tricks: the others play in turn;
        players out of cards are passed over, Getting away)."""
        active, played = self._active, self._played
        for t in self._after[self._trick[-1][0]]:
            if active >> t & 1 and not played >> t & 1:
                return t
        return -1

    def ace_holder(self) -> int:
        """Who holds the ace that opens the first trick (Pagat, First trick; the marked one
        with a double pack, Pagat, Variations). -1 if unknown (unseen hands)."""
        ace = MARKED_ACE if self._double else ACE_OF_SPADES
        for s in range(self._n):
            if self._once[s] & BIT[ace]:
                return s
        return -1

    def first_card(self) -> int:
        return MARKED_ACE if self._double else ACE_OF_SPADES

    # ---- judging a play ------------------------------------------------------------------

    def judge_play(self, s: int, c: int) -> Verdict | None:
        """Is seat ``s`` playing card ``c`` now legal? None if so, else why not.

        Record errors (R...) come before table mistakes (M...): a card the player cannot
        hold is not judged as a mistake (ruling 5).
        """
        if self._phase == IN_TRICK:
            # The path of nearly every play, the checks of the general path below in the
            # same order (those that test the phase fall away).
            if self._out[s]:
                return Verdict(Code.SEAT_OUT, "the seat has got away")
            bit = BIT[c]
            hand = self._once[s]
            if not hand & bit and not (self._unknown[s] > 0 and self._hidden_once & bit):
                w = self.where(c)
                return Verdict(Code.IN_WASTE if w == "waste" else Code.NOT_IN_HAND, w)
            if self._lenient:
                return OK
            if self._played & (1 << s):
                return Verdict(Code.SECOND_CARD, "already played to this trick")
            if self._tochoo:
                return Verdict(Code.AFTER_TOCHOO, "the trick ended at a tochoo")
            if not (self._first and self._any_order):
                # _next_to_play, written out (once a play).
                active, played = self._active, self._played
                turn = -1
                for t in self._after[self._trick[-1][0]]:
                    if active >> t & 1 and not played >> t & 1:
                        turn = t
                        break
                if s != turn:
                    return Verdict(Code.OUT_OF_TURN, "not this seat's turn", TurnOf(turn))
            if SUIT[c] == self._led:
                return OK  # _judge_follow's first answer
            return self._judge_follow(s, c)
        if self._phase == BETWEEN:
            # A lead between tricks (nearly every other play): the general path below,
            # written out, in the same order.
            if self._out[s]:
                return Verdict(Code.SEAT_OUT, "the seat has got away")
            bit = BIT[c]
            if not self._once[s] & bit and not (self._unknown[s] > 0 and self._hidden_once & bit):
                w = self.where(c)
                return Verdict(Code.IN_WASTE if w == "waste" else Code.NOT_IN_HAND, w)
            if s != self._power:  # _judge_lead: the player with the power leads any card
                return Verdict(Code.OUT_OF_TURN, "not this seat's lead", TurnOf(self._power))
            return OK
        if self._phase == OVER:
            return Verdict(Code.AFTER_END, "the game is over")
        if self._out[s]:
            return Verdict(Code.SEAT_OUT, "the seat has got away")
        if self._phase == DRAW_DUE:
            return Verdict(Code.DRAW_OUT_OF_PLACE, "a draw is due", self._draw_due())
        if not self.may_hold(s, c):
            w = self.where(c)
            return Verdict(Code.IN_WASTE if w == "waste" else Code.NOT_IN_HAND, w)
        if self._phase in (BETWEEN, BEFORE_FIRST):
            return self._judge_lead(s, c)
        # in a trick
        if self._lenient:
            return OK
        if self._played & (1 << s):
            return Verdict(Code.SECOND_CARD, "already played to this trick")
        if self._tochoo:
            return Verdict(Code.AFTER_TOCHOO, "the trick ended at a tochoo")
        if not (self._first and self._any_order):
            turn = self._next_to_play()
            if s != turn:
                return Verdict(Code.OUT_OF_TURN, "not this seat's turn", TurnOf(turn))
        return self._judge_follow(s, c)

    def _judge_lead(self, s: int, c: int) -> Verdict | None:
        # Pagat, Second and subsequent tricks: the player with the power leads any card.
        if self._phase == BEFORE_FIRST:
            ace = self.first_card()
            holder = self.ace_holder()
            if c != ace:
                # Pagat, First trick: the holder of the ace of spades begins with it.
                return Verdict(Code.NOT_ACE_FIRST, "the first trick opens with the ace of spades", TurnOf(holder))
            return OK
        if s != self._power:
            return Verdict(Code.OUT_OF_TURN, "not this seat's lead", TurnOf(self._power))
        return OK

    def _asked(self) -> tuple[Asked, ...]:
        """The duty to follow in the trick on the table (:func:`asked`)."""
        return asked(self._led, self._first, self._trump if self._trumps else -1)

    def _judge_follow(self, s: int, c: int) -> Verdict | None:
        """The duty to follow (:func:`asked`): the first step the known hand meets must hold
        ``c``. Any card of the suit led is legal, higher or lower, in the two-player ending
        too (docs/rulings.md, ruling 8). Only known cards prove a renege now; unseen ones are
        judged later through voids (see the referee)."""
        hand = self._once[s]
        bit = BIT[c]
        for step in self._asked():
            if hand & step.cards:
                return OK if bit & step.cards else Verdict(step.code, step.holds, SuitHeld(step.suit))
        return OK

    def shootout(self) -> bool:
        """Two players left, and the lead on the table is a drawn card (Denexa, How to Play
        Getaway: Ending the hand; Pagat, Getaway: Two players)."""
        return self._drawn_lead and self.in_game_count() == 2

    def lower_card_instead(self, s: int, c: int) -> int:
        """With two players left, ``s`` answers the other's last or drawn card with the
        higher ``c``: a known lower card of the suit that would have kept the game going,
        or -1. Legal either way (docs/rulings.md, ruling 8); the referee only notes it."""
        if self._phase != IN_TRICK or len(self._trick) != 1 or SUIT[c] != self._led or self.in_game_count() != 2:
            return -1
        lead_seat, lead_card = self._trick[0]
        if not (self._drawn_lead or self.size(lead_seat) == 0) or RANK[c] < RANK[lead_card]:
            return -1
        lower = [x for x in cards_of(self._once[s] & SUIT_MASK[self._led]) if RANK[x] < RANK[lead_card]]
        return lower[-1] if lower else -1

    # ---- applying a play --------------------------------------------------------------------

    def _remove_from_hand(self, s: int, c: int) -> bool:
        """Take the card out of the seat's hand; True if it came from the unseen cards."""
        if self._take_known(s, c):
            return False
        self._unknown[s] -= 1
        self._unhide(c)
        return True

    def play(self, s: int, c: int) -> bool:
        """Apply a play (the caller has judged it, or follows the record leniently).
        Returns True if the card came from the seat's unseen cards."""
        # _remove_from_hand, written out: this is the hot path of every replay.
        b = BIT[c]
        twice = self._twice
        if twice[s] & b:
            twice[s] &= ~b
            from_unseen = False
        else:
            once = self._once
            if once[s] & b:
                once[s] &= ~b
                from_unseen = False
            else:
                self._unknown[s] -= 1
                self._unhide(c)
                from_unseen = True
        phase = self._phase
        if phase in (BETWEEN, BEFORE_FIRST):
            self._open_trick(s, c)
            return from_unseen
        self._trick.append((s, c))
        played = self._played | 1 << s
        self._played = played
        suit = SUIT[c]
        if suit == self._led and phase == IN_TRICK:
            # Follows suit (card_effect's first answer): nothing else to decide.
            self._log.append((Played, s, c, FOLLOWS))
            if not self._lenient and not self._active & ~played:
                self._resolve()
            return from_unseen
        effect = self.effect(c)
        self._log.append((Played, s, c, effect))
        if self._lenient:
            # A trick followed as played after an unnoticed mistake: the record, not the
            # turn order, says when it ends; a tochoo still decides who picks it up.
            if effect is TOCHOO:
                self._tochoo = True
            return from_unseen
        if effect is TRUMPS and self._trump < 0:
            # Pagat, Getaway: Donkey: the first card that cannot follow makes its suit
            # trumps, and does not end the trick.
            self._trump = suit
            self._log.append((TrumpsSet, s, suit))
        elif effect is TOCHOO:
            self._tochoo = True
            self._resolve()
            return from_unseen
        # The trick is over when every seat that held cards at its start has played
        # (_next_to_play would find nobody left to play).
        if not self._active & ~self._played:
            self._resolve()
        return from_unseen

    def effect(self, c: int) -> Effect:
        """What card ``c`` does to the trick on the table now (one rule for every rule set,
        :func:`referee.engine.events.card_effect`)."""
        if self._phase != IN_TRICK or not self._trick:
            return Effect.LEADS
        return card_effect(SUIT[c], self._led, self._trump, first=self._first, trumps=self._trumps)

    def _open_trick(self, s: int, c: int) -> None:
        # Everyone still holding cards plays to the trick (Pagat, First trick; Second and
        # subsequent tricks), the leader included even if the lead was their last card.
        self._trick = [(s, c)]
        self._log.append((Played, s, c, LEADS))
        self._leader = s
        self._led = SUIT[c]
        self._tochoo = False
        self._lenient = False
        self._played = 1 << s
        out, once, unknown = self._out, self._once, self._unknown
        active = 0 if out[s] else 1 << s  # the leader, even if the lead was their last card
        for t in range(self._n):
            if not out[t] and (once[t] or unknown[t] > 0):
                active |= 1 << t
        self._active = active
        self._phase = IN_TRICK
        if self._active == self._played and not self._first:
            self._resolve()

    def winner(self, trick: list[tuple[int, int]] | None = None) -> int:
        """The seat whose card takes the trick: the highest trump if any (Donkey), else the
        highest card of the suit led; of two equal cards the first played (Pagat,
        Variations: double pack)."""
        trick = self._trick if trick is None else trick
        led = SUIT[trick[0][1]]
        trump = self._trump if self._trumps else -1  # no suit is -1: only Donkey has trumps
        best, best_key = -1, -1
        for s, c in trick:
            suit = SUIT[c]
            if suit == trump:
                key = 100 + RANK[c]
            elif suit == led:
                key = RANK[c]
            else:
                continue
            if key > best_key:
                best, best_key = s, key
        return best

    def _resolve(self) -> None:
        """The trick is over: a tochoo sends it to the winner's hand, a clean trick to the
        waste pile (Pagat, Second and subsequent tricks; First trick: always the waste)."""
        trick = self._trick
        w = self.winner()
        if self._tochoo and not self._first:
            # Two players left and the lead was a card drawn: a tochoo loses the leader the
            # game at once (Pagat, Two players, outcome 3; Denexa, Ending the hand).
            if self._drawn_lead and self.in_game_count() == 2:
                self._pickup(w, trick)
                self._last_trick, self._last_picker = list(trick), w
                self._end_trick()
                self._log.append((PickedUp, w, len(trick)))
                other = [t for t in self.in_game() if t != self._leader]
                for t in other:
                    self._get_away(t)
                self._game_over(self._leader)
                self._ended_by = "two_players"
                return
            self._pickup(w, trick)
            self._last_trick, self._last_picker = list(trick), w
            self._end_trick()
            self._lead_by(w, LeadReason.POWER)
            self._log.append((PickedUp, w, len(trick)))
            self._settle(w)
            return
        # The ended trick's list is never changed again (_end_trick starts a new one), so
        # last_trick may share it; pending is a copy, since a draw may take a card from it.
        self._last_trick, self._last_picker = trick, -1
        self._pending = list(trick)
        self._end_trick()
        self._power, self._lead_why = w, POWER  # _lead_by
        self._log.append((TrickToWaste, w, len(trick)))
        self._settle(w)

    def _pickup(self, s: int, trick: list[tuple[int, int]]) -> None:
        for _, c in trick:
            self._give(s, c)

    def _end_trick(self) -> None:
        self._trick = []
        self._played = 0
        self._tochoo = False
        self._lenient = False
        self._first = False
        self._drawn_lead = False
        self._trick_no += 1

    def _flush_pending(self) -> None:
        once, twice = self._waste_once, self._waste_twice
        for _, c in self._pending:  # cards.ms_add, written out: once per clean trick
            b = BIT[c]
            if once & b:
                twice |= b
            else:
                once |= b
        self._waste_once, self._waste_twice = once, twice
        self._pending = []

    def _get_away(self, s: int) -> None:
        if not self._out[s]:
            self._out[s] = True
            self._out_order.append(s)
            self._log.append((GotAway, s))

    def _settle(self, power: int) -> None:
        """After a trick: who got away, who leads, whether a draw is due, whether the game
        is over (Pagat, Getting away; Two players; End of Play)."""
        out, once, unknown = self._out, self._once, self._unknown
        for s in self._seq:
            if s != power and not out[s] and not (once[s] or unknown[s] > 0):
                self._get_away(s)
        self._phase = BETWEEN
        if once[power] or unknown[power] > 0:
            if self._pending:  # a clean trick goes to the waste pile now
                self._flush_pending()
            self._power = power
            # Everyone still in now holds cards (the loop above let go of the rest), so
            # the game can be over only if the power holder is the last one in.
            if self._out.count(False) > 1 or not self._finish_if_one_left():
                self._log.append((Leads, power, self._lead_why))
            return
        # The power holder has no card: their last card won a clean trick.
        others = [s for s in self.in_game() if s != power]
        if not others:
            # Nobody else holds cards: the power holder is the last one in (Pagat, Two
            # players: "if that was also B's last card then A is the loser").
            self._flush_pending()
            self._game_over(power)
            return
        mode = self.rules.last_card
        if mode == "pass_lead" and self._active.bit_count() > 2:
            # Pagat, Getaway: Variations (version 3); Denexa, How to Play Getaway: Getting
            # away: with more than two players the last card gets away and the next player
            # holding cards leads. docs/rulings.md, ruling 9: "more than two" counts everyone
            # who played to this trick, so several may get away in it.
            self._pass_lead(power)
            return
        if mode == "draw_hand":
            self._drawer = power
            self._draw_source = self.next_seat(power) if self.rules.draw_from == "next" else "any"
            self._phase = DRAW_DUE
            self._power = power
            self._log.append((DrawDue, power, ANY_SOURCE if self._draw_source == "any" else self._draw_source))
            return
        if self.waste_size() == 0:
            # Nothing to draw from (only the trick just played is face down): the player
            # gets away and the lead passes on, as version 3 of Pagat's Variations does.
            self._pass_lead(power)
            return
        self._drawer = power
        self._draw_source = None
        self._phase = DRAW_DUE
        self._power = power
        self._log.append((DrawDue, power, None))

    def _pass_lead(self, power: int) -> None:
        self._flush_pending()
        self._get_away(power)
        nxt = self.next_seat(power)
        self._lead_by(nxt, LeadReason.PASS_LEAD)
        if not self._finish_if_one_left() and nxt >= 0:
            self._log.append((Leads, nxt, LeadReason.PASS_LEAD))

    def _lead_by(self, s: int, why: LeadReason) -> None:
        self._power = s
        self._lead_why = why

    def _finish_if_one_left(self) -> bool:
        # Pagat, End of Play: the last player left holding cards is the loser.
        left = self.holding()
        if len(left) == 1 and self._phase != DRAW_DUE:
            for s in self.in_game():
                if s != left[0]:
                    self._get_away(s)
            self._game_over(left[0])
            return True
        return False

    def _game_over(self, loser: int) -> None:
        self._ended_by = "end"
        self._phase = OVER
        self._loser = loser
        self._legs = self.size(loser)
        self._power = -1
        self._log.append((GameOver, loser, self._legs))

    # ---- the penalty, and the record followed as played ------------------------------------

    def penalise(self, s: int, c: int | None, after_end: bool = False) -> None:
        """Ruling 1: the offender picks up every card played to the trick so far, their own
        (``c``) included, and leads the next trick; the trick's normal end does not happen.

        ``after_end``: the card was played to a trick that had already ended (a play after a
        tochoo): the cards the tochoo's winner picked up come back to the offender. Otherwise,
        between tricks, the card was a lead out of turn: the trick holds that card alone."""
        if c is not None:
            self._remove_from_hand(s, c)
        if self._phase != IN_TRICK and not after_end:
            self._trick = []
            if self._pending:
                self._flush_pending()
        elif self._phase != IN_TRICK:
            # The trick had already ended (a play after a tochoo): undo its pickup.
            trick = list(self._last_trick)
            if self._last_picker >= 0:
                for _, tc in trick:
                    self._take_known(self._last_picker, tc)
            elif self._phase in (BETWEEN, DRAW_DUE) and self._pending:
                trick = list(self._pending)
                self._pending = []
            if self._phase == OVER:
                self._loser = -1
            self._trick = trick
            self._trick_no -= 1
        if c is not None:
            self._trick.append((s, c))
        taken = self._trick
        for _, tc in taken:
            self._give(s, tc)
        told = len(self._log)  # the penalty's entry, completed with who leads once that is known
        self._log.append((Penalty, s, len(taken), self._trick_no, None))
        self._last_trick, self._last_picker = list(taken), s
        self._pending = []
        self._end_trick()
        # Players who played their last card to the trick have got away; the offender holds
        # cards and leads.
        for t in self._seq:
            if t != s and not self._out[t] and self.size(t) == 0:
                self._get_away(t)
            elif self._out[t] and self.size(t) > 0:
                # A seat the undone pickup had sent out holds cards again.
                self._out[t] = False
                if t in self._out_order:
                    self._out_order.remove(t)
        self._phase = BETWEEN
        self._lead_by(s, LeadReason.PENALTY)
        if not self._finish_if_one_left():
            self._log[told] = (Penalty, s, len(taken), self._trick_no - 1, self._power)
            self._log.append((Leads, s, LeadReason.PENALTY))

    def reopen(self) -> None:
        """Follow a record in which play went on after the trick ended (a play after a
        tochoo that nobody noticed): the trick is back on the table, to be ended by
        :meth:`close`."""
        if self._phase == IN_TRICK:
            self._lenient = True
            return
        trick = list(self._last_trick)
        if self._last_picker >= 0:
            for _, tc in trick:
                self._take_known(self._last_picker, tc)
        else:
            trick = list(self._pending) or trick
            if not self._pending:
                for _, tc in trick:
                    self._remove_waste(tc)
            self._pending = []
        for t in list(self._out_order):
            if self.size(t) > 0:
                self._out[t] = False
                self._out_order.remove(t)
        self._trick = trick
        self._trick_no -= 1
        self._phase = IN_TRICK
        self._leader = trick[0][0]
        self._led = SUIT[trick[0][1]]
        self._played = 0
        for t, _ in trick:
            self._played |= 1 << t
        self._first = False
        self._tochoo = any(card_effect(SUIT[tc], self._led, self._trump, first=False, trumps=self._trumps) is Effect.TOCHOO
                          for _, tc in trick)
        self._lenient = True
        self._loser = -1

    def _remove_waste(self, c: int) -> None:
        b = BIT[c]
        if self._waste_twice & b:
            self._waste_twice &= ~b
        else:
            self._waste_once &= ~b

    def close(self) -> None:
        """End a lenient trick as the table ended it: to the winner at a tochoo, else to
        the waste pile."""
        if self._phase != IN_TRICK:
            return
        w = self.winner()
        # Logged as _resolve logs it: what the replay did with the trick is told by its
        # events (a pickup or the waste pile), however the trick ended.
        if self._tochoo and not self._first:
            self._pickup(w, self._trick)
            self._last_trick, self._last_picker = list(self._trick), w
            self._end_trick()
            self._log.append((PickedUp, w, len(self._last_trick)))
            self._settle(w)
        else:
            self._last_trick, self._last_picker = list(self._trick), -1
            self._pending = list(self._trick)
            self._end_trick()
            self._log.append((TrickToWaste, w, len(self._last_trick)))
            self._settle(w)

    # ---- takes and draws ------------------------------------------------------------------------

    def take_target(self, taker: int) -> int:
        """Whose hand ``taker`` may take now: the next seat in the direction of play holding
        cards (Pagat, Taking cards; ruling 3); -1 if none."""
        return self.next_seat(taker)

    def judge_take(self, taker: int, target: int) -> Verdict | None:
        if self._phase == OVER:
            return Verdict(Code.AFTER_END, "the game is over")
        if not self.rules.taking:
            return Verdict(Code.WRONG_TAKE, "taking is not allowed by this rule set")
        if self._phase == IN_TRICK:
            return Verdict(Code.TAKE_IN_TRICK, "a trick is being played")
        if self._phase == DRAW_DUE:
            return Verdict(Code.DRAW_OUT_OF_PLACE, "a draw is due", self._draw_due())
        if taker == target:
            # Pagat, Taking cards: the hand of the player to one's left, never one's own.
            return Verdict(Code.WRONG_TAKE, "own hand", TakeOnly(self.take_target(taker)))
        if self._out[taker] or self.size(taker) == 0:
            return Verdict(Code.WRONG_TAKE, "the taker has no cards")
        want = self.take_target(taker)
        if target != want:
            return Verdict(Code.WRONG_TAKE, "not the next player holding cards", TakeOnly(want))
        return OK

    def can_move_hand(self, taker: int, target: int) -> bool:
        """Can ``target``'s hand go to ``taker`` at all, allowed or not: two different seats,
        both still in the game and holding cards, between tricks, the game not over. The
        referee follows a rejected take written in a record only then."""
        return (taker != target and self._phase in (BEFORE_FIRST, BETWEEN, DRAW_DUE)
                and not self._out[taker] and not self._out[target]
                and self.size(taker) > 0 and self.size(target) > 0)

    def take(self, taker: int, target: int) -> None:
        """``taker`` takes ``target``'s whole hand; the target has got away (ruling 3)."""
        for c in cards_of(self._once[target]) + cards_of(self._twice[target]):
            self._give(taker, c)
        self._once[target] = self._twice[target] = 0
        # Unseen cards join unseen cards: only a suit both lacked is still lacking.
        if self._unknown[target]:
            self._void[taker] &= self._void[target]
            since = self._since(taker)
            for suit in list(since):
                if not self._void[taker] & (1 << suit):
                    del since[suit]
        self._unknown[taker] += self._unknown[target]
        self._unknown[target] = 0
        self._get_away(target)
        passed = self._power == target
        if passed:
            # Ruling 3; Denexa, Getting away: the lead passes to the next player after the
            # target who still holds cards.
            self._lead_by(self.next_seat(target), LeadReason.TAKE)
        self._log.append((Took, taker, target))
        if not self._finish_if_one_left() and passed and self._power >= 0:
            self._log.append((Leads, self._power, LeadReason.TAKE))  # who leads now is an event too

    def judge_draw(self, s: int, c: int, source: int | None) -> Verdict | None:
        if self._phase != DRAW_DUE:
            if self._phase == OVER:
                return Verdict(Code.AFTER_END, "the game is over")
            return Verdict(Code.DRAW_OUT_OF_PLACE, "no draw is due")
        if s != self._drawer:
            return Verdict(Code.DRAW_OUT_OF_PLACE, "another player must draw", self._draw_due())
        want = self._draw_source
        if want is None:
            if source is not None:
                return Verdict(Code.DRAW_OUT_OF_PLACE, "the draw is from the waste pile", self._draw_due())
            if (self._waste_once | self._waste_twice) & BIT[c]:
                return OK
            if self._waste_unknown > 0 and self._hidden_once & BIT[c]:
                return OK
            return Verdict(Code.DRAWN_CARD_NOT_THERE, self.where(c))
        if source is None:
            return Verdict(Code.DRAW_OUT_OF_PLACE, "the draw is from a player's hand", self._draw_due())
        if want != "any" and source != want:
            return Verdict(Code.DRAW_OUT_OF_PLACE, "the draw is from the next player's hand", self._draw_due())
        if source == s or self._out[source]:
            return Verdict(Code.DRAW_OUT_OF_PLACE, "the draw is from another player's hand", self._draw_due())
        if not self.may_hold(source, c):
            return Verdict(Code.DRAWN_CARD_NOT_THERE, self.where(c))
        return OK

    def draw(self, s: int, c: int, source: int | None) -> None:
        if source is None:
            b = BIT[c]
            if self._waste_twice & b:
                self._waste_twice &= ~b
            elif self._waste_once & b:
                self._waste_once &= ~b
            else:
                self._waste_unknown -= 1
                self._unhide(c)
        else:
            self._remove_from_hand(source, c)
        self._give_drawn(s, c, source)
        if source is not None and self.size(source) == 0:
            self._get_away(source)
            self._finish_if_one_left()

    def reveal(self, s: int, c: int) -> None:
        """The seat is seen to hold ``c`` (it played the card and took it back): an unseen
        card of its hand becomes a known one."""
        if not self._once[s] & BIT[c]:
            self._unknown[s] -= 1
            self._unhide(c)
            self._give(s, c)

    def accept_lead(self, s: int) -> None:
        """The table let ``s`` lead out of turn and played on: ``s`` leads this trick."""
        self._lead_by(s, LeadReason.TABLE)

    def move_from_waste(self, s: int, c: int) -> bool:
        """Follow a record in which ``s`` took ``c`` from the waste pile when no draw was
        due (an error in the record, ruling 5): True if the card was there to take."""
        b = BIT[c]
        if self._waste_twice & b:
            self._waste_twice &= ~b
        elif self._waste_once & b:
            self._waste_once &= ~b
        elif self._waste_unknown > 0 and self._hidden_once & b:
            self._waste_unknown -= 1
            self._unhide(c)
        else:
            return False
        self._give(s, c)
        return True

    def swap_from_waste(self, s: int, c: int) -> bool:
        """Follow a record in which ``s`` plays ``c``, a card of the waste pile (an error in
        the record, ruling 5): one of the seat's unseen cards takes its place in the waste,
        so every size stays as the record has it. False if the seat has no unseen card or
        the card is not in the waste pile."""
        if self._unknown[s] == 0 or not self.move_from_waste(s, c):
            return False
        # move_from_waste put the card in the hand; one unseen card goes the other way.
        self._unknown[s] -= 1
        self._waste_unknown += 1
        return True

    def force_draw(self, s: int, c: int) -> bool:
        """Follow a record whose drawn card is not where the rules draw from (an error in
        the record, ruling 5): the draw happens as written if the card is anywhere but
        another player's hand (the trick just played, the waste pile, unseen). The draw is
        the due drawer's. False if the card cannot be taken without changing a hand."""
        if self._phase != DRAW_DUE:
            return False
        for i, (_, tc) in enumerate(self._pending):
            if tc == c:
                del self._pending[i]
                self._give_drawn(s, c)
                return True
        b = BIT[c]
        if (self._waste_once | self._waste_twice) & b or (self._hidden_once & b and self._waste_unknown > 0):
            self.move_from_waste(s, c)
            self._take_known(s, c)
            self._give_drawn(s, c)
            return True
        return False

    def _give_drawn(self, s: int, c: int, source: int | None = None) -> None:
        """The drawn card joins the drawer's hand, the trick just played goes to the waste
        pile, and the drawer leads (Pagat, Getaway: Getting away)."""
        self._give(s, c)
        self._flush_pending()
        self._phase = BETWEEN
        self._lead_by(s, LeadReason.DRAW)
        self._drawer = -1
        self._draw_source = None
        self._drawn_lead = True
        self._log.append((Drew, s, c, source))

    def lead(self, s: int, c: int) -> None:
        """Apply a lead between tricks (keeps the drawn-lead mark for the two-player rule)."""
        drawn = self._drawn_lead
        self.play(s, c)
        if self._phase == IN_TRICK:
            self._drawn_lead = drawn

    # ---- what may happen now ---------------------------------------------------------------------

    def legal_cards(self, s: int) -> int:
        """The known cards ``s`` may play now, as a mask. In a trick followed as played after
        an unpenalised mistake (``lenient``) the rules give no legal play once a tochoo has
        ended it; the table's record decides what comes next."""
        if self._phase in (OVER, DRAW_DUE) or self._out[s]:
            return 0
        hand = self._once[s]
        if self._phase == BEFORE_FIRST:
            ace = self.first_card()
            return hand & BIT[ace]
        if self._phase == BETWEEN:
            return hand if s == self._power else 0
        if self._played & (1 << s) or self._tochoo:
            return 0
        if not (self._first and self._any_order) and s != self._next_to_play():
            return 0
        follow = hand & SUIT_MASK[self._led]  # the first step of the duty (asked()), tested first
        if follow or not hand:
            return follow
        for step in self._asked():
            if hand & step.cards:
                return hand & step.cards
        return 0

    def legal(self, s: int) -> Legal:
        """What seat ``s`` may play now, the rule that says so and where (known cards; for
        an unseen hand, the cards it may hold that would be legal): :meth:`duty_of`, with
        both kinds of card in one list."""
        d = self.duty_of(s)
        return Legal(s, tuple(sorted(d.cards + d.unseen)) if d.unseen else d.cards, d.reason, d.cite)

    def duty_of(self, s: int) -> Duty:
        """What the rule asks of seat ``s`` now, as one value (:class:`Duty`): the rule its
        known cards meet and its source, the known cards it may play, the cards its unseen
        cards may hold and legally play, and in a trick the steps of :func:`asked` that may
        be its duty. Every other question of what may be played (``legal``, ``duty``,
        ``could_have_followed``, ``shows_void``, a verdict on an unseen hand) is read from
        the same steps."""
        reason, mask = self._legal_reason(s)
        if reason in (LegalReason.NONE, LegalReason.NOT_YOUR_TURN):
            return Duty(s, reason, None, (), (), ())
        if self._phase != IN_TRICK:
            allowed = BIT[self.first_card()] if reason == LegalReason.ACE_FIRST else FULL_PACK
            unseen = self._hidden_once & allowed & ~self._void_mask(s) if self._unknown[s] else 0
            return Duty(s, reason, _LEAD_CITES[reason], tuple(cards_of(mask)), tuple(cards_of(unseen & ~mask)), ())
        steps = self._asked()
        hand = self._once[s]
        hidden = self._hidden_once & ~self._void_mask(s) if self._unknown[s] else 0
        cite = steps[-1].cite
        may: list[LegalReason] = []
        allowed = 0
        for step in steps:
            if step.reason == reason:
                cite = step.cite
            if not (hand & step.cards or hidden & step.cards or step.suit < 0):
                continue  # neither the known nor the unseen cards can meet this step
            may.append(step.reason)
            allowed |= step.cards
            if hand & step.cards or step.suit < 0:
                break  # the known hand meets it: no later step can be the duty
        return Duty(s, reason, cite, tuple(cards_of(mask)), tuple(cards_of(hidden & allowed & ~mask)),
                    tuple(may) if self._unknown[s] else (reason,))

    def playable(self, s: int) -> tuple[int, ...]:
        """The cards of :meth:`legal` that ``s`` is known to hold: what a player with the
        hand in front of it chooses among, without the rule's name or an unseen hand's
        possible cards (self-play asks it at every play)."""
        return tuple(cards_of(self.legal_cards(s)))

    def _void_mask(self, s: int) -> int:
        m = 0
        for suit in range(4):
            if self._void[s] & (1 << suit):
                m |= SUIT_MASK[suit]
        return m

    def _legal_reason(self, s: int) -> tuple[LegalReason, int]:
        mask = self.legal_cards(s)
        if self._phase in (OVER, DRAW_DUE) or self._out[s]:
            return LegalReason.NONE, 0
        if self._phase == BEFORE_FIRST:
            return (LegalReason.ACE_FIRST, mask) if s == self.ace_holder() or self.ace_holder() < 0 else \
                (LegalReason.NOT_YOUR_TURN, 0)
        if self._phase == BETWEEN:
            return (LegalReason.ANY, mask) if s == self._power else (LegalReason.NOT_YOUR_TURN, 0)
        if self._played & (1 << s) or self._tochoo:
            return LegalReason.NONE, 0
        if not (self._first and self._any_order) and s != self._next_to_play():
            return LegalReason.NOT_YOUR_TURN, 0
        hand = self._once[s]
        steps = self._asked()
        if not hand and self._unknown[s]:
            return steps[0].reason, mask  # nothing known: the first thing the rule asks
        for step in steps:
            if hand & step.cards:
                return step.reason, mask
        return steps[-1].reason, mask

    def legal_actions(self) -> list[Action]:
        """Every action the rules allow now whose card is known: the plays of the seats
        that may play, the takes, and the draws of known cards."""
        out: list[Action] = []
        if self._phase == DRAW_DUE:
            src = self._draw_source
            if src is None:
                for c in ms_cards(self._waste_once, self._waste_twice):
                    out.append(DrawCard(self._drawer, c, None))
            else:
                sources = [src] if isinstance(src, int) else [t for t in self.in_game() if t != self._drawer]
                for t in sources:
                    for c in self.known(t):
                        out.append(DrawCard(self._drawer, c, t))
            return out
        for taker, target in self.takes():
            out.append(TakeHand(taker, target))
        for s in self._seq:
            for c in cards_of(self.legal_cards(s)):
                out.append(PlayCard(s, c))
        return out

    def legal_takes(self) -> list[TakeHand]:
        """The takes of :meth:`legal_actions` alone: what a player deciding whether to take
        asks, without every play of the position listed as well."""
        return [TakeHand(taker, target) for taker, target in self.takes()]

    def apply(self, action: Action | TableAction | RecordAction, *, events: bool = True) -> list[Event]:
        """Judge an action and, if legal, apply it: the events it caused. An illegal action
        raises :class:`IllegalAction` with the verdict, and changes nothing. With
        ``events=False`` the action is judged and applied alike but no event is made (an
        empty list; the log keeps them for :meth:`events_since`): self-play plays tens of
        thousands of actions a second and reads few of their events.

        What the table does that the rules do not allow is applied too, as typed actions
        (:meth:`apply_mistake`): ruling 1's penalty (:class:`Penalise`), a mistake played on
        (:class:`PlayAnyway`) and the end of such a trick (:class:`EndTrick`)."""
        if type(action) is PlayCard:
            # The path of nearly every action (the referee's replay, self-play): judged and
            # applied with the ints of the card and seat, no other object made.
            s, c = action.seat, action.card
            if not events:
                self.play_card(s, c)
                return []
            v = self.judge_play(s, c)
            if v is not None:
                raise IllegalAction(action, v)
            mark = len(self._log)
            if self._phase == IN_TRICK:
                self.play(s, c)
            else:
                self.lead(s, c)
            return self.events_since(mark)
        if not isinstance(action, (PlayCard, TakeHand, DrawCard)):
            return self.apply_mistake(action, events=events)
        mark = self.event_count()
        if isinstance(action, PlayCard):
            v = self.judge_play(action.seat, action.card)
            if v is not None:
                raise IllegalAction(action, v)
            if self._phase in (BETWEEN, BEFORE_FIRST):
                self.lead(action.seat, action.card)
            else:
                self.play(action.seat, action.card)
        elif isinstance(action, TakeHand):
            v = self.judge_take(action.taker, action.target)
            if v is not None:
                raise IllegalAction(action, v)
            self.take(action.taker, action.target)
        else:
            v = self.judge_draw(action.seat, action.card, action.source)
            if v is not None:
                raise IllegalAction(action, v)
            self.draw(action.seat, action.card, action.source)
        return self.events_since(mark) if events else []

    def play_card(self, s: int, c: int) -> bool:
        """Judge seat ``s`` playing card ``c`` now and, if legal, apply it without making its
        events: ``apply(PlayCard(s, c), events=False)`` with the ints alone, as the referee's
        replay asks at nearly every play. True if a trick is on the table after it (False:
        the play ended the trick). Raises :class:`IllegalAction`, changing nothing, if the
        rules do not allow it."""
        v = self.judge_play(s, c)
        if v is not None:
            raise IllegalAction(PlayCard(s, c), v)
        if self._phase == IN_TRICK:
            self.play(s, c)
        else:
            self.lead(s, c)
        return self._phase == IN_TRICK

    def do(self, action: Action) -> None:
        """Apply an action that :meth:`legal_actions` offered now, without judging it again
        and without making its events (they stay in the log): the review's search applies
        only what the engine itself listed, a few hundred thousand times a question."""
        if type(action) is PlayCard:
            if self._phase == IN_TRICK:
                self.play(action.seat, action.card)
            else:
                self.lead(action.seat, action.card)
        elif type(action) is TakeHand:
            self.take(action.taker, action.target)
        else:
            assert isinstance(action, DrawCard)
            self.draw(action.seat, action.card, action.source)

    def takes(self) -> list[tuple[int, int]]:
        """Every take allowed now, as (taker, target)."""
        if not self.rules.taking or self._phase not in (BETWEEN, BEFORE_FIRST):
            return []
        out = []
        for s in self.holding():
            t = self.take_target(s)
            if t >= 0:
                out.append((s, t))
        return out

    def view(self) -> View:
        """The position as frozen values (:class:`View`): what show, legal, the answers and
        the pages read, instead of the engine's own fields."""
        once, twice, unknown, void = self._once, self._twice, self._unknown, self._void
        in_trick = self._phase == IN_TRICK
        return View(
            phase=_PHASES[self._phase],
            trick_no=self._trick_no,
            trick=tuple(self._trick) if self._phase == IN_TRICK else (),
            to_act=self.to_act(),
            leader=self._leader if self._phase == IN_TRICK else self._power,
            lead_why=self._lead_why,
            # map and a list over zip, not a generator per seat: a view is asked per action.
            sizes=tuple([o.bit_count() + t.bit_count() + u for o, t, u in zip(once, twice, unknown)]),
            known=tuple(map(_cards_held, once, twice)),
            voids=tuple(map(_SUITS_OF.__getitem__, void)),
            out_order=tuple(self._out_order),
            trumps=self._trump if self._trump >= 0 else None,
            waste=_cards_held(self._waste_once, self._waste_twice),
            waste_size=self.waste_size(),
            loser=self._loser if self._phase == OVER and self._loser >= 0 else None,
            legs=self._legs,
            order=tuple(self._seq),
            first_trick=self._first,
            draw_source=(None if self._phase != DRAW_DUE or self._draw_source is None
                         else ANY_SOURCE if self._draw_source == "any" else int(self._draw_source)),
            picked_up_by=self._last_picker if self._last_picker >= 0 else None,
            last_trick=tuple(self._last_trick),
            ended_by=self._ended_by,
            hidden=_cards_held(self._hidden_once, 0),
            # seamviews (issue 23)
            power=self._power if self._power >= 0 else None,
            led=self._led if in_trick and self._led >= 0 else None,
            tochoo=in_trick and self._tochoo,
            as_played=in_trick and self._lenient,
            still_to_play=self._still_to_play() if in_trick else (),
            pending=tuple(self._pending),
            drawn_lead=self._drawn_lead,
            hidden_cards=_cards_held(self._hidden_once, self._hidden_twice),
            any_order=self._first and self._any_order,
            ended_cite=None if self._phase != OVER else R.END if self._ended_by != "two_players" else
            R.DENEXA_ENDING if self.rules.two_players == "denexa" else R.TWO_PLAYERS,
            shootout=_SHOOTOUT if in_trick and self.rules.two_players == "denexa" and self.shootout() else (),
        )

    def turn(self) -> Turn:
        """The position's few values a player reads at each play (:class:`Turn`), each the
        same as in :meth:`view`."""
        return Turn(_PHASES[self._phase], self._trick_no, tuple(self._trick) if self._phase == IN_TRICK else (),
                    self.to_act(), self._first, self._trump if self._trump >= 0 else None)

    # seamviews (issue 23): read-only questions of show and legal ---------------------------

    def _still_to_play(self) -> tuple[int, ...]:
        active, played = self._active, self._played
        return tuple([s for s in self._seq if active >> s & 1 and not played >> s & 1])

    def resolved(self) -> Engine:
        """A copy in which the cards known by elimination are placed: when the cards nobody
        has seen can lie in one place only (one seat's unseen cards, or the waste pile's),
        they lie there, and that hand or pile is known whole. Nothing of this engine changes."""
        x = self.copy()
        places = [s for s in range(self._n) if self._unknown[s] > 0] + (["waste"] if self._waste_unknown > 0 else [])
        if len(places) != 1:
            return x
        hidden = ms_cards(self._hidden_once, self._hidden_twice)
        where = places[0]
        if isinstance(where, int):
            for c in hidden:
                x._give(where, c)
            x._unknown[where] = 0
        else:
            for c in hidden:
                x._waste_once, x._waste_twice = ms_add(x._waste_once, x._waste_twice, c)
            x._waste_unknown = 0
        x._hidden_once = x._hidden_twice = 0
        return x

    def duty(self, s: int) -> tuple[LegalReason, ...]:
        """What the rule asks of ``s`` in the trick on the table, as the reasons of
        :meth:`legal` in the order the rule tries them: the first the hand meets is its
        duty. A hand known whole has one (``legal(s).reason``); a hand with unseen cards may
        have several: follow if it holds the suit led, else (Donkey) trump if it holds a
        trump, else any card. Empty when ``s`` is not to play (Pagat, Getaway: Second and
        subsequent tricks; Donkey)."""
        return self.duty_of(s).steps

    def sample_unseen(self, rng: random.Random, known: Mapping[int, Sequence[int]] | None = None,
                      play: PlayCard | None = None, tries: int = 20, lacks: Sequence[int] = ()) -> Engine | None:
        """A copy of the position with every unseen card of the hands dealt (the review's
        samples): first the cards of ``known`` (a seat's own hand as it truly is), each placed
        if the seat has an unseen card left and may hold it; then the other unseen cards at
        random, never into a suit a seat has shown it lacks, the seats with the most such
        suits first. ``play``: the seat's play about to be made from this position, which
        shows what a card off the suit led shows (no card of that suit, nor in Donkey of the
        trumps). ``lacks``: per seat, a mask of cards (bit c: card c) to keep out of its hand
        where a deal allows (the review's reading of the plays); a deal that keeps them too
        is tried first (:meth:`_deal_around`). None if the waste pile holds unseen cards or
        no deal fits in ``tries`` tries."""
        known = known or {}
        if any(lacks):
            dealt = self._deal_around(known, lacks, rng, tries)
            if dealt is not None:
                f = self._deal_unseen(rng, {**known, **dealt}, play, tries)
                if f is not None:
                    return f
        return self._deal_unseen(rng, known, play, tries)

    def _deal_unseen(self, rng: random.Random, known: Mapping[int, Sequence[int]], play: PlayCard | None,
                     tries: int) -> Engine | None:
        if self._waste_unknown:
            return None
        for _ in range(tries):
            f = self.fork()
            if play is not None:
                for suit in f.shows_void(play.seat, play.card):
                    f.mark_void(play.seat, suit, None)
            for s, cards in known.items():
                for c in cards:
                    if f._unknown[s] and not f._once[s] & BIT[c] and f.may_hold(s, c):
                        f.reveal(s, c)
            # Lowest card first, the single copies before the second ones: one order for a seed.
            pool = [c for c in range(CARD_COUNT) if f._hidden_once >> c & 1]
            pool += [c for c in range(CARD_COUNT) if f._hidden_twice >> c & 1]
            rng.shuffle(pool)
            ok = True
            for s in sorted(range(f._n), key=lambda t: -f._void[t].bit_count()):
                need = f._unknown[s]
                if need == 0:
                    continue
                void = f._void[s]
                picked = [c for c in pool if not void >> SUIT[c] & 1][:need]
                if len(picked) < need:
                    ok = False
                    break
                for c in picked:
                    pool.remove(c)
                    f.reveal(s, c)
            if ok and f._waste_unknown == 0 and not any(f._unknown):
                return f
        return None

    def _deal_around(self, known: Mapping[int, Sequence[int]], lacks: Sequence[int], rng: random.Random,
                     tries: int) -> dict[int, list[int]] | None:
        """The unseen cards of every hand not in ``known`` (whose hands must be whole with
        their cards), dealt at random, each to a seat that may hold it: no void of its suit
        and not in the seat's ``lacks``. None if a known hand is not whole, or no deal was
        found in ``tries`` tries."""
        n = self._n
        pool = list(_cards_held(self._hidden_once, self._hidden_twice))
        need = list(self._unknown)  # each hand's unseen cards
        for s, cards in known.items():
            held = self._once[s]
            for c in cards:
                if c in pool and not held & BIT[c]:
                    pool.remove(c)
            if need[s] - sum(not held & BIT[c] for c in cards) != 0:
                return None
            need[s] = 0
        if sum(need) != len(pool):
            return None
        void = self._void
        takers = {c: [s for s in range(n) if need[s] and not void[s] >> SUIT[c] & 1 and not lacks[s] >> c & 1]
                  for c in set(pool)}
        for _ in range(tries):
            # The cards fewest seats may hold first (random among equals), each to a seat in
            # proportion to the cards it still lacks: nearly even over the deals that fit.
            order = sorted(pool, key=lambda c: (len(takers[c]), rng.random()))
            left = list(need)
            out: dict[int, list[int]] = {}
            for c in order:
                can = [s for s in takers[c] if left[s]]
                if not can:
                    break
                pick = rng.randrange(sum(left[s] for s in can))
                for s in can:
                    pick -= left[s]
                    if pick < 0:
                        break
                left[s] -= 1
                out.setdefault(s, []).append(c)
            else:
                return out
        return None

    # ---- the solver's search (engine/search.py): its questions on the ints, moves as ints ----

    def all_known(self) -> bool:
        """Is every card of the position known: no unseen card in a hand or the waste pile?"""
        return self._waste_unknown == 0 and not any(self._unknown)

    def search_moves(self) -> list[int]:
        """What ``legal_actions()`` lists, as ints, in the same order."""
        phase = self._phase
        if phase == DRAW_DUE:
            d = self._drawer
            src = self._draw_source
            if src is None:
                base = DRAW | d << 6
                return [base | c for c in ms_cards(self._waste_once, self._waste_twice)]
            out: list[int] = []
            sources = [src] if isinstance(src, int) else [t for t in self.in_game() if t != d]
            for t in sources:
                base = DRAW | (t + 1) << 12 | d << 6
                out.extend(base | c for c in ms_cards(self._once[t], self._twice[t]))
            return out
        if phase == OVER:
            return []
        out = [TAKE | taker << 6 | target for taker, target in self.takes()]
        mover = self.to_act()
        # Only the seat to act has a legal card (legal_cards says 0 for every other seat), but in
        # a trick in any order, where every seat may play.
        for s in ((mover,) if mover >= 0 else self._seq):
            cards = self.legal_cards(s)
            if cards:
                key = cards << 6 | s
                plays = _PLAYS.get(key)
                if plays is None:
                    if len(_PLAYS) >= _PLAYS_KEPT:
                        _PLAYS.clear()
                    base = s << 6
                    plays = _PLAYS[key] = tuple([base | c for c in cards_of(cards)])
                out += plays
        return out

    def twin_draws(self, actions: list[int]) -> list[int]:
        """The draws of ``actions`` with one card of each class of twins: with two players left
        and one pack, two cards of the waste pile of one suit with no card of any hand between
        them in rank lead to positions of one value, for every seat and either question.

        Why (docs/review.md, "Twins in the waste pile"): the drawer holds no card, so it leads the
        card it draws; with two players left a tochoo on a drawn lead ends the game (Pagat,
        Getaway: Two players), and a clean trick sends the card back to the waste pile. So a card
        drawn from the waste never stays in a hand: the only cards it meets in a trick are the
        other player's, and they are the same below and above either twin. Swapping the twins
        maps one line of play onto the other, card for card, with the same winner of every trick.
        """
        if self._draw_source is not None or self._double or len(actions) < 2 or self.in_game_count() != 2:
            return actions
        held = 0
        for m in self._once:
            held |= m
        seen: set[tuple[int, int]] = set()
        out = []
        for a in actions:
            c = a & 63
            # The class: the suit, and the cards of the hands of that suit below the card.
            cls = (SUIT[c], (held & SUIT_MASK[SUIT[c]] & (BIT[c] - 1)).bit_count())
            if cls not in seen:
                seen.add(cls)
                out.append(a)
        return out

    def touching(self, actions: list[int]) -> list[int]:
        """For each of ``actions`` (:meth:`search_moves`' ints, in its order), the first action
        of its run: plays of one seat in one suit with no card between them in rank anywhere
        (a hand, the waste pile, the table, or unseen where a hand or the waste pile holds
        unseen cards; a card out of play is nowhere). Every other action is a run of its own.

        Touching cards are not equivalent (docs/review.md, "One key for many waste piles", its
        end: a pickup or a draw can part them, and then they meet in a trick), so the solver
        searches every one; but they nearly always have one value, so once one of them fails,
        the solver tries its other actions before the rest of that run."""
        present = self._waste_once | self._waste_twice
        if self._waste_unknown or any(self._unknown):
            present |= self._hidden_once | self._hidden_twice
        for m in self._once:
            present |= m
        for _, c in self._trick:
            present |= BIT[c]
        for _, c in self._pending:
            present |= BIT[c]
        out = []
        run = prev = -1
        for a in actions:
            c = a & 63
            # The same seat and suit as the action before, a play (not a take or a draw), and
            # no card present strictly between the two: cards of a suit are 13 bits in order.
            if (prev >= 0 and not a & MOVE_KIND and a >> 6 == prev >> 6 and SUIT[c] == SUIT[prev & 63]
                    and not present & (BIT[prev & 63] - (BIT[c] << 1))):
                out.append(run)
            else:
                run = a
                out.append(a)
            prev = a if not a & MOVE_KIND else -1
        return out

    def position_key(self) -> tuple[object, ...]:
        """Everything of a position that decides what may follow (not the trick number, the
        event log or why the leader leads): two positions with one key have one future."""
        return (self._phase, tuple(self._once), tuple(self._twice), tuple(self._out), self._waste_once, self._waste_twice, self._power,
                self._drawer, self._draw_source, tuple(self._trick), tuple(self._pending), self._tochoo, self._trump, self._first,
                self._drawn_lead, self._active, self._played)

    def search_key(self) -> tuple[object, ...]:
        """The transposition table's key (engine/search.py): :meth:`position_key`, except with
        two seats left and one pack, where it is a pair: the position's shape and a profile of
        its waste pile (docs/review.md, "One key for many waste piles").

        The shape reads each suit in rank order, the cards out of play skipped, each card
        labelled by where it is (the hand of the first or second seat left, the trick on the
        table), a run of waste cards between two labelled cards kept only as being there; the
        suits in the order of their codes (Donkey's trump suit, once set, last); and the
        position key's other fields. The profile says which runs hold two cards or more
        (:data:`WASTE_RUN_CAP`): positions of one shape and one profile have one value for
        every seat and either question, and of one shape, the one whose long runs include the
        other's is no better for any seat (more waste cards, more draws against it). With fewer
        than two waste cards the profile is negative: that key stands for itself alone.
        Elsewhere (the first trick, a draw due with its trick waiting for the waste pile, three
        seats or more, two packs, a trick of two cards) the argument is not made and the key is
        the position's own. The search keeps its path (repetitions) by :meth:`position_key`,
        never by this key."""
        out = self._out
        if (self._phase == DRAW_DUE or self._first or self._double or self._pending or len(self._trick) > 1
                or out.count(False) != 2):
            return self.position_key()
        first = out.index(False)
        once = self._once
        lo = once[first]
        hi = once[out.index(False, first + 1)]
        waste = self._waste_once
        trick = self._trick
        table = BIT[trick[0][1]] if trick else 0
        # Each suit's code (_suit_code): shape, long runs, runs, gaps, waste cards. The four
        # masks side by side, 64 bits apart: a suit's four 13-bit masks are then one shift and
        # one mask of this int (the code's look-up key; _lanes_to_packed on a miss).
        lanes = lo | hi << 64 | waste << 128 | table << 192
        get = _SUIT_CODES.get  # a miss is made and kept by _suit_code_of (a code is never 0)
        suits = [get(k0 := lanes & _LANES) or _suit_code_of(k0),
                 get(k1 := lanes >> 13 & _LANES) or _suit_code_of(k1),
                 get(k2 := lanes >> 26 & _LANES) or _suit_code_of(k2),
                 get(k3 := lanes >> 39 & _LANES) or _suit_code_of(k3)]
        # Suits in order of their codes: outside the first trick and with one pack no rule
        # names a suit, so renaming suits changes no value; Donkey's trump suit, once set,
        # keeps the last place.
        trump = self._trump
        if trump >= 0:
            last = suits.pop(trump)
            suits.sort()
            suits.append(last)
        else:
            suits.sort()
        # The profile: each suit's gaps' bits, runs and long runs, one after the other (a
        # small int: the table compares profiles of one shape bit by bit, see search._entry).
        profile = wasted = 0
        for c in suits:
            g = c >> 8 & 255
            profile = (profile << g | c >> 32 & 0xFFFF) << g | c >> 16 & 0xFFFF
            wasted += c & 255
        c0, c1, c2, c3 = suits
        # Between tricks the seats that held cards when the last trick began are stale: the
        # next lead sets them anew, and nothing reads them before (a seat that got away in
        # that trick would otherwise tell apart positions with one future).
        phase = self._phase
        shape = (_CANON, phase, tuple(out), self._power, self._drawer, self._draw_source, self._tochoo,
                 trump >= 0, self._drawn_lead, self._active if phase == IN_TRICK else 0, self._played,
                 trick[0][0] if trick else -1, c0 >> 48, c1 >> 48, c2 >> 48, c3 >> 48)
        return (shape, profile if wasted >= 2 else -1 - profile)

    def child(self, m: int) -> Engine:
        """The position after the action ``m`` (one that :meth:`search_moves` listed): applied to
        a fork, with no second judgement and no event made."""
        c = self.fork()
        kind = m & MOVE_KIND
        if kind == 0:
            if c._phase == IN_TRICK:
                c.play(m >> 6 & 63, m & 63)
            else:
                c.lead(m >> 6 & 63, m & 63)
        elif kind == TAKE:
            c.take(m >> 6 & 63, m & 63)
        else:
            src = m >> 12 & 255
            c.draw(m >> 6 & 63, m & 63, src - 1 if src else None)
        return c

    def settled_for(self, x: int) -> bool | None:
        """Whether ``x`` gets away, where nothing is left to search: True once it is out,
        the game's answer once it is over; None while it is still in a game going on."""
        if self._out[x]:
            return True
        if self._phase == OVER:
            return self._loser != x
        return None

    def mark_void(self, s: int, suit: int, ref: VoidShown | None) -> None:
        """The seat's unseen cards hold no card of ``suit`` (it played another suit)."""
        if not self._void[s] & (1 << suit):
            self._void[s] |= 1 << suit
            self._since(s)[suit] = ref

    def _since(self, s: int) -> dict[int, VoidShown | None]:
        """The seat's void references by suit; a fork's are made on first use (a search makes
        hundreds of thousands of forks and never asks)."""
        if not self._void_since:
            self._void_since = [{} for _ in range(self._n)]
        return self._void_since[s]

    def unseen_void(self, s: int, suit: int) -> VoidShown | None:
        """The play that showed the seat's unseen cards void in ``suit`` (:class:`MarkVoid`),
        or None (no void shown, or none kept)."""
        if self._void[s] & (1 << suit):
            return self._since(s).get(suit)
        return None

    # ---- the table's mistakes, as typed actions ------------------------------------------

    def apply_mistake(self, action: TableAction | RecordAction, *, events: bool = True) -> list[Event]:
        """Apply what the table did that the rules do not allow; the events it caused, the
        first a :class:`MistakeMade` with the facts of the mistake (none for ending a trick or
        penalising a mistake already on the table).

        The card is judged first: a card the seat cannot hold, a seat that has got away, a
        draw due (an error in the record, ruling 5) raise :class:`IllegalAction` with that
        verdict; a legal play raises ``ValueError`` (apply it as a :class:`PlayCard`). Either
        way nothing changes.

        A record followed where the rules cannot allow it (:data:`RecordAction`: a card moved
        from the waste pile, a forced draw, a hand moved, a card revealed, a void learned, a
        trick left as it stands) is applied here too; one the state cannot follow raises
        :class:`CannotFollow`, and nothing changes.

        With ``events=False`` no event is made (an empty list; the log keeps them), as for
        :meth:`apply`: the referee follows a record's mistakes without reading their events."""
        mark = self.event_count()
        if not isinstance(action, (Penalise, PlayAnyway, EndTrick)):
            self._follow(action)
            return self.events_since(mark) if events else []
        if isinstance(action, EndTrick) or action.card is None:
            if not (self._phase == IN_TRICK and self._lenient):
                raise ValueError(f"{action}: no trick played on after a mistake is on the table")
            if isinstance(action, EndTrick):
                # The trick ends as _resolve would end it, told as the same events (close logs
                # the pickup or the waste pile).
                self._lead_why = POWER
                self.close()
            else:
                self.penalise(action.seat, None)
            return self.events_since(mark) if events else []
        s, c, late = action.seat, action.card, action.late
        v = self.mistake_verdict(s, c, late=late, unseen=isinstance(action, Penalise))
        if v is None:
            raise ValueError(f"{action}: a legal play, not a mistake (apply it as a PlayCard)")
        if not v.code.startswith("M"):
            raise IllegalAction(action, v)
        self._log.append((MistakeMade, *self._mistake_facts(s, c, v)))
        if isinstance(action, Penalise):
            self.penalise(s, c, after_end=late)
        elif late or (self._phase != IN_TRICK and v.code in (Code.AFTER_TOCHOO, Code.SECOND_CARD)):
            self.reopen()
            self.play(s, c)
        elif self._phase == BETWEEN:
            self.accept_lead(s)
            self.lead(s, c)
        elif self._phase == BEFORE_FIRST:
            self.play(s, c)
            self._lenient = True
        else:
            self._lenient = True
            self.play(s, c)
        return self.events_since(mark) if events else []

    def mistake_verdict(self, s: int, c: int, *, late: bool = False, unseen: bool = False) -> Verdict | None:
        """What ``s`` playing ``c`` now breaks (None: nothing). ``late``: the card is played
        to the trick that has just ended (after its tochoo, or a second card to it).
        ``unseen``: a card of another suit from a hand nobody has seen counts as a renege
        when the unseen cards may hold the suit led (or, in Donkey, a trump): the table that
        penalised it saw the hand."""
        if not late:
            v = self.judge_play(s, c)
            if v is None and unseen:
                step = self._passed_by(s, c)
                if step is not None:
                    return Verdict(step.code, step.may_hold, SuitHeld(step.suit))
            return v
        if self._phase == IN_TRICK or not self._last_trick:
            raise ValueError(f"a late play of seat {s}: no trick has just ended")
        if self._out[s] and self._phase != OVER:
            return Verdict(Code.SEAT_OUT, "the seat has got away")
        if not self.may_hold(s, c):
            w = self.where(c)
            return Verdict(Code.IN_WASTE if w == "waste" else Code.NOT_IN_HAND, w)
        if any(t == s for t, _ in self._last_trick):
            return Verdict(Code.SECOND_CARD, "already played to this trick")
        return Verdict(Code.AFTER_TOCHOO, "the trick ended at a tochoo")

    def _mistake_facts(self, s: int, c: int, v: Verdict) -> tuple[Code, int, int, int | None, int | None, int | None]:
        """The fields of :class:`MistakeMade` for the mistake ``v`` of ``s`` playing ``c``."""
        code = Code(v.code)
        suit = proof = turn = None
        detail = v.detail
        if code == Code.RENEGE and isinstance(detail, SuitHeld):
            suit = detail.suit
            held = cards_of(self._once[s] & SUIT_MASK[suit])
            proof = min(held, key=lambda x: RANK[x]) if held else None
        elif code == Code.OUT_OF_TURN and isinstance(detail, TurnOf):
            turn = detail.seat
        return code, s, c, suit, proof, turn

    # ---- the judge's questions, and the record followed where the rules cannot allow it ----
    # (branch seamjudge)

    def verdict(self, action: Action | TableAction) -> Verdict | None:
        """What ``action`` would break now (None: nothing, it is legal), changing nothing: a
        play, take or draw judged by the rules; a :class:`PlayAnyway` (``late``: to the trick
        that has just ended) or :class:`Penalise` judged as the mistake it would be (for
        :class:`Penalise` a card of another suit from an unseen hand that may hold the suit
        led is a renege: the table that penalised it saw the hand)."""
        if type(action) is PlayCard:
            return self.judge_play(action.seat, action.card)
        if isinstance(action, TakeHand):
            return self.judge_take(action.taker, action.target)
        if isinstance(action, DrawCard):
            return self.judge_draw(action.seat, action.card, action.source)
        if isinstance(action, (PlayAnyway, Penalise)) and action.card is not None:
            return self.mistake_verdict(action.seat, action.card, late=action.late,
                                        unseen=isinstance(action, Penalise))
        return OK

    def holds_known(self, s: int, c: int) -> bool:
        """Is ``c`` known to be in seat ``s``'s hand (not merely possible among its unseen cards)?"""
        return bool(self._once[s] & BIT[c])

    def plain_phase(self, s: int, c: int) -> int:
        """The phase (an int of :class:`Phase`) if seat ``s`` playing ``c`` now is a plain
        play, else -1: the seat's hand is known, and either a trick is on the table, played
        in turn (no mistake played on), and ``c`` is not a higher card by choice in the
        two-player ending (:meth:`lower_card_instead`, worth a note), or the seat leads
        between tricks. Whether the play is legal, :meth:`apply` says. The referee's replay
        asks it at every play."""
        if self._unknown[s]:
            return -1
        phase = self._phase
        if phase == IN_TRICK:
            if self._lenient or (self._out.count(False) == 2 and self.lower_card_instead(s, c) >= 0):
                return -1
            return IN_TRICK
        return BETWEEN if phase == BETWEEN else -1

    def outcome(self) -> Outcome:
        """How the game stands at the end of a record (:class:`Outcome`), without making a
        view: the referee asks it once a game."""
        over = self._phase == OVER
        return Outcome(_PHASES[self._phase], self._trick_no - (0 if self._phase == IN_TRICK else 1),
                       tuple(self._out_order), tuple([self.size(s) for s in range(self._n)]),
                       self._loser if over and self._loser >= 0 else None, self._legs, self._ended_by)

    def ended_trick(self) -> tuple[tuple[int, int], ...]:
        """The plays of the trick that ended last, (seat, card), in order (as
        ``View.last_trick``), without making a view."""
        return tuple(self._last_trick)

    def in_trick(self) -> bool:
        """Is a trick on the table (``View.phase`` IN_TRICK)? After a play: False when the
        play ended the trick. The replay asks it after every play."""
        return self._phase == IN_TRICK

    def hands_seen(self) -> bool:
        """Is every hand made of known cards only (none unseen)? Then it stays so: cards
        only ever go from unseen to known."""
        return not any(self._unknown)

    def trick_number(self) -> int:
        """The trick being played, or the next one between tricks (as ``View.trick_no``),
        without making a view: the replay asks it after every play."""
        return self._trick_no

    def current_phase(self) -> Phase:
        """Where the game stands (as ``View.phase``), without making a view."""
        return _PHASES[self._phase]

    def played_on(self) -> bool:
        """Is a trick on the table that the table played on after a mistake it did not
        penalise (:class:`PlayAnyway`)? Its turn order is no longer enforced, and the record
        ends it (:class:`EndTrick`, :class:`Penalise`, :class:`~referee.engine.events.CloseTrick`)."""
        return self._lenient and self._phase == IN_TRICK

    def waiting(self) -> tuple[int, ...]:
        """The seats still to play to the trick on the table, in order of play: those that
        held cards when it began and have not played to it (none between tricks)."""
        if self._phase != IN_TRICK:
            return ()
        return tuple(t for t in self._seq if self._active >> t & 1 and not self._played >> t & 1)

    def could_have_followed(self, s: int, c: int) -> bool:
        """Seat ``s`` plays ``c``, of another suit than the suit led, from unseen cards: could
        those cards have held the suit led (or, in Donkey, a trump when ``c`` is none)? Then
        the play may have been a renege, which the table saw and the record may show
        (Pagat, Getaway: Second and subsequent tricks; Donkey)."""
        return self._passed_by(s, c) is not None

    def _passed_by(self, s: int, c: int) -> Asked | None:
        """The first step of the duty (:func:`asked`) that ``s``'s unseen cards may hold and
        that playing ``c`` from them passes by, or None (a lead, a known hand, or ``c`` meets
        the first step the unseen cards may meet)."""
        if self._phase != IN_TRICK or self._unknown[s] == 0:
            return None
        bit = BIT[c]
        for step in self._asked():
            if bit & step.cards:
                return None
            if self._hidden_once & step.cards:
                return step
        return None

    def shows_void(self, s: int, c: int) -> tuple[int, ...]:
        """The suits seat ``s``'s unseen cards are shown to lack if it plays ``c`` now: the
        suit led, for a card of another suit from unseen cards, and in Donkey the trump too
        when ``c`` is none (it had to trump if able). Empty for a lead or a known hand."""
        if self._phase != IN_TRICK or self._unknown[s] == 0:
            return ()
        bit = BIT[c]
        out: list[int] = []
        for step in self._asked():
            if bit & step.cards:
                break
            out.append(step.suit)
        return tuple(out)

    def _draw_due(self) -> DrawDueFrom:
        src = self._draw_source
        return DrawDueFrom(self._drawer, None if src is None else src if isinstance(src, int) else ANY_SOURCE)

    def _follow(self, action: RecordAction) -> None:
        """Apply a :data:`RecordAction` (see :meth:`apply_mistake`)."""
        if isinstance(action, MarkVoid):
            self.mark_void(action.seat, action.suit, action.shown)
        elif isinstance(action, ForgetVoid):
            self._void[action.seat] &= ~(1 << action.suit)
            self._since(action.seat).pop(action.suit, None)
        elif isinstance(action, RevealCard):
            if not self.may_hold(action.seat, action.card):
                raise CannotFollow(action, "the seat cannot hold the card")
            self.reveal(action.seat, action.card)
        elif isinstance(action, SwapFromWaste):
            if not self.swap_from_waste(action.seat, action.card):
                raise CannotFollow(action, "no unseen card of the seat, or the card not in the waste pile")
        elif isinstance(action, MoveFromWaste):
            if self._phase not in (BETWEEN, BEFORE_FIRST) or not self.move_from_waste(action.seat, action.card):
                raise CannotFollow(action, "the card is not in the waste pile between tricks")
        elif isinstance(action, ForceDraw):
            if action.seat != self._drawer or self._draw_source is not None or not self.force_draw(action.seat, action.card):
                raise CannotFollow(action, "no draw from the waste pile due to the seat, or the card is in a hand")
        elif isinstance(action, MoveHand):
            if not self.can_move_hand(action.taker, action.target):
                raise CannotFollow(action, "the hand cannot move")
            self.take(action.taker, action.target)
        else:
            assert isinstance(action, CloseTrick)
            self.close()

    def describe(self, seat_names: Sequence[str]) -> str:
        """One line of state, for debugging and ``repr``."""
        parts = []
        for s in self._seq:
            parts.append(f"{seat_names[s]}:{self.size(s)}{'(out)' if self._out[s] else ''}")
        return f"trick {self._trick_no}, {PHASE_NAMES[self._phase]}, " + " ".join(parts)


# Compiled by mypyc (the optional build, README "Compiled engine") the class's __new__ runs
# __init__, which wants a rule set, and the class keeps no __slots__ but names the same
# fields __mypyc_attrs__: there copy() and fork() fill in a state built anew, not a bare one.
_COMPILED = "__mypyc_attrs__" in vars(Engine)
_FIELDS: tuple[str, ...] = vars(Engine)["__mypyc_attrs__" if _COMPILED else "__slots__"]

_PHASES = tuple(Phase)  # Phase by its int, without the enum's call

# The suits of a void mask (bit ``suit`` set), in suit order: View.voids.
_SUITS_OF = tuple(tuple(suit for suit in range(4) if m >> suit & 1) for m in range(16))


@functools.lru_cache(maxsize=4096)
def _cards_held(once: int, twice: int) -> tuple[int, ...]:
    """A hand or a pile as View shows it, canonical order. Cached: from one view to the next,
    a play changes one or two hands, and the simulator and the pages ask a view per step."""
    return tuple(ms_cards(once, twice) if twice else cards_of(once))


# The canonical search key (Engine.search_key): a run of waste cards between two labelled
# cards of a suit counts up to this many (the profile's bit: two or more). Two, not one:
# docs/review.md, "One key for many waste piles" (with one, tests/test_review_keys.py finds
# positions of one key with different values).
WASTE_RUN_CAP = 2
_CANON = "canonical"  # the first item of a canonical key: never equal to a position_key
# A suit's code (_suit_code) by its four 13-bit masks in the lanes of one int (first seat's
# hand, second seat's, waste, table; _LANES): endings meet few distinct suits, so nearly every
# look-up is a hit.
_SUIT_CODES: dict[int, int] = {}
# A seat's plays as the search's ints (Engine.search_moves) by the seat and its legal cards: a
# search meets the same hands over and over. Tuples of ints, which the cycle collector stops
# tracking; emptied when it holds _PLAYS_KEPT of them.
_PLAYS: dict[int, tuple[int, ...]] = {}
_PLAYS_KEPT = 1 << 16


# One suit's 13 bits in each of the four 64-bit lanes of Engine.search_key's ``lanes``.
_LANES = 0x1FFF | 0x1FFF << 64 | 0x1FFF << 128 | 0x1FFF << 192


def _lanes_to_packed(k: int) -> int:
    """A suit's four masks from their lanes (search_key) to _suit_code's packing."""
    return k & 0x1FFF | (k >> 64 & 0x1FFF) << 13 | (k >> 128 & 0x1FFF) << 26 | (k >> 192 & 0x1FFF) << 39


def _suit_code_of(k: int) -> int:
    """A suit's code by its lanes (Engine.search_key), made once and kept."""
    code = _SUIT_CODES.get(k)
    if code is None:
        code = _SUIT_CODES[k] = _suit_code(_lanes_to_packed(k))
    return code


def _suit_code(packed: int) -> int:
    """One suit of Engine.search_key (its four 13-bit masks packed: the first seat's hand, the
    second's, the waste pile, the table), as shape << 48 | long runs << 32 | runs << 16 | gaps
    << 8 | waste cards (so codes sort by shape, then long runs, then runs). The shape: from
    the suit's lowest rank up, 2 bits a labelled card (1, 2 the first or second seat's hand,
    3 the table) after a leading 1 bit. Runs: a bit a gap (below, between
    and above the labelled cards; the lowest gap the highest bit), set where waste cards lie
    in it; long runs: set where :data:`WASTE_RUN_CAP` or more do (always clear with a cap of
    1); waste cards: each gap's, counted up to two, summed."""
    shape = 1
    present = long = wasted = gaps = 0
    run = 0
    for r in range(14):
        if r < 13 and packed >> (26 + r) & 1:
            run += 1
            continue
        if r == 13:
            label = 0
        elif packed >> r & 1:
            label = 1
        elif packed >> (13 + r) & 1:
            label = 2
        elif packed >> (39 + r) & 1:
            label = 3
        else:
            continue  # out of play: never comes back
        present = present << 1 | int(run >= 1)
        long = long << 1 | int(WASTE_RUN_CAP >= 2 and run >= WASTE_RUN_CAP)
        wasted += min(run, 2)
        gaps += 1
        run = 0
        if label:
            shape = shape << 2 | label
    return shape << 48 | long << 32 | present << 16 | gaps << 8 | wasted


def check_invariant(e: Engine) -> str | None:
    """Every card in exactly one place; None if so, else what is wrong (for tests)."""
    total = [0] * CARD_COUNT
    def add(mask: int, k: int = 1) -> None:
        for c in cards_of(mask):
            total[c] += k
    for s in range(e._n):
        add(e._once[s])
        add(e._twice[s])
    for mask in (e._waste_once, e._waste_twice, e._hidden_once, e._hidden_twice):
        add(mask)
    for _, c in e._trick + e._pending:
        total[c] += 1
    want_once, want_twice = e.pack()
    for c in range(CARD_COUNT):
        want = (1 if want_once & BIT[c] else 0) + (1 if want_twice & BIT[c] else 0)
        if total[c] != want:
            return f"{card_str(c)} is in {total[c]} places"
    if e.hidden_size() != sum(e._unknown) + e._waste_unknown:
        return f"{e.hidden_size()} unseen cards but hands and waste hide {sum(e._unknown) + e._waste_unknown}"
    return None
