"""What the engine answers: typed values for what a card does, what happened, and why a
seat leads.

The engine keeps its state in ints and bit masks (see :mod:`referee.engine.state`); what
crosses its boundary is these small values. Each is a frozen slotted dataclass, so it is
cheap, hashable, and its repr evaluates back to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from referee.engine.citations import Cite
from referee.engine.codes import Code


class Effect(str, Enum):
    """What a card does to the trick it is played to (one rule, :func:`card_effect`)."""

    LEADS = "leads"  # opens the trick
    FOLLOWS = "follows"  # a card of the suit led
    TOCHOO = "tochoo"  # another suit: ends the trick (not in the first trick, not a trump)
    TRUMPS = "trumps"  # Donkey: a trump on another suit, or the card that makes its suit trumps
    DISCARD = "discard"  # the first trick: an off-suit card that ends nothing


class LeadReason(str, Enum):
    """Why a seat leads the next trick. Only POWER means the seat "has the power"."""

    ACE = "ace"  # holds the ace of spades, which opens the first trick
    POWER = "power"  # played the highest card of the suit led (or trump) to the last trick
    TAKE = "take"  # the seat due to lead had its hand taken; the lead passed on
    PASS_LEAD = "pass_lead"  # the power holder got away with the last card; the lead passed on
    PENALTY = "penalty"  # picked up a trick as the penalty for a mistake
    DRAW = "draw"  # had the power and no card, drew one and leads it
    POSITION = "position"  # a position written in the record says so
    TABLE = "table"  # led out of turn, and the table played on


class LegalReason(str, Enum):
    """Why these cards, and only these, may be played now."""

    ANY = "any"  # a lead: any card in hand
    ACE_FIRST = "ace_first"  # the first trick opens with the ace of spades
    FOLLOW = "follow"  # must follow the suit led
    FIRST_TRICK_SPADE = "first_trick_spade"  # the first trick: a spade if the seat holds one
    TRUMP = "trump"  # Donkey: cannot follow, must trump
    OFF_SUIT = "off_suit"  # cannot follow (nor trump): any card, a tochoo
    NOT_YOUR_TURN = "not_your_turn"
    NONE = "none"  # the trick has ended, the seat is out, a draw is due, the game is over


# ---- what happened ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    card: int
    effect: Effect


@dataclass(frozen=True, slots=True)
class TrumpsSet:
    """Donkey: the first card that could not follow made its suit trumps."""

    seat: int
    suit: int


@dataclass(frozen=True, slots=True)
class TrickToWaste:
    """A clean trick (everyone followed, or the first trick) goes to the waste pile."""

    winner: int
    cards: int


@dataclass(frozen=True, slots=True)
class PickedUp:
    """A tochoo ended the trick: the player of the highest card of the suit led picks it up."""

    seat: int
    cards: int


@dataclass(frozen=True, slots=True)
class Penalty:
    """Ruling 1: the offender (``seat``) picked up the ``cards`` of trick ``trick`` as the
    penalty for a mistake; ``leads``, the seat that leads next (None: the pickup ended the
    game). The one fact every sentence about a penalty is told from (judging/wording.py,
    :func:`~referee.judging.wording.penalty`)."""

    seat: int
    cards: int
    trick: int = 0
    leads: int | None = None


@dataclass(frozen=True, slots=True)
class GotAway:
    seat: int


@dataclass(frozen=True, slots=True)
class Leads:
    seat: int
    why: LeadReason


@dataclass(frozen=True, slots=True)
class DrawDue:
    """The seat has the power and no card: it must draw (from ``source``: None for the
    waste pile, a seat, or -2 for any other player's hand)."""

    seat: int
    source: int | None


@dataclass(frozen=True, slots=True)
class Drew:
    seat: int
    card: int
    source: int | None


@dataclass(frozen=True, slots=True)
class Took:
    taker: int
    target: int


@dataclass(frozen=True, slots=True)
class GameOver:
    loser: int
    legs: int


@dataclass(frozen=True, slots=True)
class MistakeMade:
    """A play the rules do not allow, made at the table (:class:`Penalise`, :class:`PlayAnyway`):
    what it broke and the facts that show it.

    ``suit``: for a renege, the suit the seat had to play (the suit led, or the trump in
    Donkey), which its card showed it lacked. ``proof``: a known card of that suit in the
    seat's hand, which proves the renege; None when the hand is unseen. ``turn``: for a
    play out of turn, the seat whose turn it was (-1 if nobody's)."""

    code: Code
    seat: int
    card: int
    suit: int | None = None
    proof: int | None = None
    turn: int | None = None


Event = (Played | TrumpsSet | TrickToWaste | PickedUp | Penalty | GotAway | Leads | DrawDue | Drew | Took | GameOver
         | MistakeMade)

ANY_SOURCE = -2  # DrawDue.source: from any other player's hand


def card_effect(suit: int, led: int, trump: int, *, first: bool, trumps: bool) -> Effect:
    """The one rule of what a card of ``suit`` does to a trick led in ``led``.

    Pagat, Getaway: Second and subsequent tricks: a card of another suit is a tochoo and
    ends the trick. Pagat, Getaway: First trick: in the first trick it ends nothing.
    Pagat, Getaway: Donkey: a trump never ends a trick, and the first card that cannot
    follow makes its suit trumps (``trump`` is -1 until then).
    """
    if suit == led:
        return Effect.FOLLOWS
    if trumps and (trump < 0 or suit == trump):
        return Effect.TRUMPS
    if first:
        return Effect.DISCARD
    return Effect.TOCHOO


# ---- what a program may ask the engine to do ------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayCard:
    """A seat plays a card (a lead between tricks, or a card to the trick on the table)."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class TakeHand:
    """Before a trick, ``taker`` takes the whole hand of ``target`` (Pagat, Getaway: Taking cards)."""

    taker: int
    target: int


@dataclass(frozen=True, slots=True)
class DrawCard:
    """A seat with the power and no card draws ``card`` from the waste pile (``source``
    None) or from a seat's hand."""

    seat: int
    card: int
    source: int | None = None


Action = PlayCard | TakeHand | DrawCard


# ---- what the table did that the rules do not allow ------------------------------------------


@dataclass(frozen=True, slots=True)
class Penalise:
    """docs/rulings.md, ruling 1: ``seat`` made a mistake by playing ``card`` (a renege, a
    play out of turn, a second card, a lead other than the ace of spades; with ``late``, a
    play to the trick a tochoo had just ended), picks up every card of the trick, its own
    included, and leads the next one.

    ``card`` None: the penalty for a mistake already on the table, in a trick the table
    played on (:class:`PlayAnyway`) and penalised when it was over."""

    seat: int
    card: int | None
    late: bool = False


@dataclass(frozen=True, slots=True)
class PlayAnyway:
    """A mistake the table did not stop: ``seat`` plays ``card`` where the rules do not allow
    it, and play goes on with the trick as played (ruling 1's penalty not applied). With
    ``late``, the card goes to the trick a tochoo had just ended, which is back on the table.
    The trick ends when the table ends it (:class:`EndTrick`) or penalises it."""

    seat: int
    card: int
    late: bool = False


@dataclass(frozen=True, slots=True)
class EndTrick:
    """The table ends a trick it played on after a mistake, as it was played: to the player
    of the highest card of the suit led at a tochoo, else to the waste pile."""


TableAction = Penalise | PlayAnyway | EndTrick


@dataclass(frozen=True, slots=True)
class Legal:
    """What a seat may play now, and why: the known cards it may play (for a hand nobody
    has seen, the cards it may hold that would be legal), the rule that says so, and where
    it is written (None when nothing may be played)."""

    seat: int
    cards: tuple[int, ...]
    reason: LegalReason
    cite: Cite | None = None


class Asked(NamedTuple):
    """One step of the duty to follow: the cards it asks for (a mask), the suit (-1: any
    card), the rule and its source, and the mistake of passing it by while able to meet it,
    with the verdict's reason for a hand known to hold such a card and for an unseen one that
    may. ``Engine`` keeps the steps of the trick on the table in the order the rule asks."""

    cards: int
    suit: int
    reason: LegalReason
    cite: Cite
    code: Code
    holds: str
    may_hold: str


@dataclass(frozen=True, slots=True)
class Duty:
    """What the rule asks of a seat now, as one value (``judge.duty_of``): the rule its
    known cards meet (``reason``, ``cite``; NONE or NOT_YOUR_TURN when it may play nothing),
    the known cards it may play, the cards its unseen cards may hold and legally play, and,
    in a trick, the rules that may be its duty in the order they are asked (several only
    while unseen cards may hold what an earlier one asks for)."""

    seat: int
    reason: LegalReason
    cite: Cite | None
    cards: tuple[int, ...]
    unseen: tuple[int, ...]
    steps: tuple[LegalReason, ...]


# ---- the judge following an imperfect record (branch seamjudge) ------------------------------
#
# A record may show what the rules cannot allow (an error in the record, docs/rulings.md,
# ruling 5) or a mistake the table played on (ruling 1). The referee follows it where the
# state allows, so that one bad line does not hide the rest of the game; each way of
# following is one of these actions, applied by ``Engine.apply_mistake``. One that cannot be
# followed in the state raises ``CannotFollow`` and changes nothing.


class VoidShown(NamedTuple):
    """The play that showed a seat's unseen cards lack a suit (a card of another suit from a
    hand nobody has seen): the referee's record of it, kept by the engine with the void
    (:class:`MarkVoid`). ``item``: the record's item (its index in the record's plays, takes,
    draws and counts); ``trick``: the record's trick number; ``first``: the first trick,
    where the suit due was a spade."""

    item: int
    trick: int
    seat: int
    card: int
    first: bool


@dataclass(frozen=True, slots=True)
class MarkVoid:
    """The seat's unseen cards hold no card of ``suit`` (what ``Engine.shows_void`` said its
    play showed); ``shown``: the play that showed it, None when nobody needs to know."""

    seat: int
    suit: int
    shown: VoidShown | None = None


@dataclass(frozen=True, slots=True)
class ForgetVoid:
    """A card of ``suit`` came from the seat's unseen cards after all (the renege it proves
    is said): they are no longer known to lack the suit."""

    seat: int
    suit: int


@dataclass(frozen=True, slots=True)
class RevealCard:
    """The seat is seen to hold ``card`` (it played the card and took it back, ruling 1):
    an unseen card of its hand becomes a known one."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class SwapFromWaste:
    """The record has ``seat`` play ``card``, a card of the waste pile: one of the seat's
    unseen cards takes its place there, so every size stays as the record has it."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class MoveFromWaste:
    """The record has ``seat`` take ``card`` from the waste pile when no draw was due."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class ForceDraw:
    """The record's drawn card is not where the rules draw from: the due drawer ``seat``
    draws it from wherever it is but another player's hand (the trick just played, the
    waste pile, the unseen cards)."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class MoveHand:
    """The record says ``target``'s hand went to ``taker``, allowed or not (docs/notation.md,
    Takes): followed whenever a hand can move (two seats in the game holding cards, between
    tricks)."""

    taker: int
    target: int


@dataclass(frozen=True, slots=True)
class CloseTrick:
    """The record leaves the trick on the table as it stands (unfinished, or played on after
    a mistake): it ends as played, to the player of the highest card of the suit led at a
    tochoo, else to the waste pile. Nothing changes between tricks."""


RecordAction = MarkVoid | ForgetVoid | RevealCard | SwapFromWaste | MoveFromWaste | ForceDraw | MoveHand | CloseTrick
