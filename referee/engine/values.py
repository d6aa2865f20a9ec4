"""The values the engine answers in: where a game stands (:class:`Phase`, kept inside the
engine as the plain ints below), the position (:class:`View`, :class:`Turn`,
:class:`Outcome`), a verdict on an action with its facts typed per code, and the two errors
of the boundary (:class:`IllegalAction`, :class:`CannotFollow`). Plain frozen values: nothing
here knows a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final, NamedTuple

from referee.engine.citations import Cite
from referee.engine.events import Action, LeadReason, RecordAction, TableAction


class Phase(IntEnum):
    """Where a game stands: ``Engine.phase``. An int, so the hot path compares it as one."""

    BEFORE_FIRST = 0  # the holder of the ace of spades is to open the first trick
    BETWEEN = 1  # a trick is over; the player with the power leads (or someone takes first)
    IN_TRICK = 2  # a trick is on the table
    DRAW_DUE = 3  # the power holder has no card and must draw before leading
    OVER = 4  # one player is left holding cards: the loser


# The engine keeps its phase as a plain int: CPython compares exact ints on a fast path.
BEFORE_FIRST: Final = 0
BETWEEN: Final = 1
IN_TRICK: Final = 2
DRAW_DUE: Final = 3
OVER: Final = 4
PHASE_NAMES = ("before the first trick", "between tricks", "in a trick", "a draw is due", "over")


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


PHASES = tuple(Phase)  # Phase by its int, without the enum's call
