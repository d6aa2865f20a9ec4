"""The rules engine: the state of a game and what may happen next, under a rule set.

Every other part of getaway-ref asks this module what is legal: the referee, the
simulator, ``show``, ``legal`` and ``live``. It knows nothing of records or text.

A state is a handful of lists and ints (python-chess style): per seat a hand of known cards
as a pair of bit masks (see :mod:`referee.cards`), a count of cards nobody has seen, and a
mask of suits that seat's unseen cards are known to lack. Cards nobody has seen are the
``hidden`` multiset: the pack minus every card whose place is known.

The rules are cited as their public name and section (referee.engine.citations); "ruling N"
is one of docs/rulings.md. The engine is split by job: this module keeps the state and what a
legal action does to it (``_play``, ``_take``, ``_draw``: applied once judged); whether an
action is legal and what a seat may play is :mod:`referee.engine.judge`; the table's mistakes
and a record followed as played (ruling 1's penalty, ruling 5) are
:mod:`referee.engine.follow`; the exact search's moves and keys are
:mod:`referee.engine.moves`; the review's samples are :mod:`referee.engine.sample`. Every
public name of :class:`Engine` is its typed API; everything else begins with an underscore.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

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
from referee.engine.events import (
    ANY_SOURCE,
    Action,
    DrawCard,
    DrawDue,
    Drew,
    Duty,
    Effect,
    Event,
    GameOver,
    GotAway,
    LeadReason,
    Leads,
    Legal,
    LegalReason,
    Penalise,
    PickedUp,
    PlayAnyway,
    PlayCard,
    Played,
    RecordAction,
    TableAction,
    TakeHand,
    Took,
    TrickToWaste,
    TrumpsSet,
    VoidShown,
    card_effect,
)
from referee.engine.follow import apply_table_action
from referee.engine.judge import (
    OK,
    actions_now,
    check_deal,
    duty_of,
    judge_draw,
    judge_play,
    judge_take,
    legal_cards,
    mistake_verdict,
    passed_by,
    voids_shown,
)
from referee.engine.rules import RuleSet
from referee.engine.sample import deal_around, deal_unseen
from referee.engine.values import (
    BEFORE_FIRST as BEFORE_FIRST,
)
from referee.engine.values import (
    BETWEEN as BETWEEN,
)
from referee.engine.values import (
    DRAW_DUE as DRAW_DUE,
)
from referee.engine.values import (
    IN_TRICK as IN_TRICK,
)
from referee.engine.values import (
    OVER as OVER,
)
from referee.engine.values import (
    PHASE_NAMES as PHASE_NAMES,
)

# The values the engine answers in, named here too: its callers import them from this module.
from referee.engine.values import (
    PHASES,
    view_of,
)
from referee.engine.values import (
    CannotFollow as CannotFollow,
)
from referee.engine.values import (
    DrawDueFrom as DrawDueFrom,
)
from referee.engine.values import (
    IllegalAction as IllegalAction,
)
from referee.engine.values import (
    Outcome as Outcome,
)
from referee.engine.values import (
    Phase as Phase,
)
from referee.engine.values import (
    SuitHeld as SuitHeld,
)
from referee.engine.values import (
    TakeOnly as TakeOnly,
)
from referee.engine.values import (
    Turn as Turn,
)
from referee.engine.values import (
    TurnOf as TurnOf,
)
from referee.engine.values import (
    Verdict as Verdict,
)
from referee.engine.values import (
    VerdictDetail as VerdictDetail,
)
from referee.engine.values import (
    View as View,
)

if TYPE_CHECKING:
    import random  # sample_unseen's generator: a plain check need not load the module


# Effects the hot path compares (module constants: no look-up on the enum class each play;
# Final, so the compiled build reads them from C statics, not from the module's dict).
FOLLOWS: Final = Effect.FOLLOWS
TOCHOO: Final = Effect.TOCHOO
TRUMPS: Final = Effect.TRUMPS
LEADS: Final = Effect.LEADS
POWER: Final = LeadReason.POWER

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

    def _pack(self) -> tuple[int, int]:
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
            check_deal(e, hands)
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

    def _place_hands(self, hands: Sequence[Sequence[int] | int | None]) -> None:
        """Every card starts unseen; a hand given by its cards takes them out of hiding."""
        self._hidden_once, self._hidden_twice = self._pack()
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

    def _next_seat(self, s: int, *, holding: bool = True, skip: int = -1) -> int:
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

    def _play(self, s: int, c: int) -> bool:
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
        effect = self._effect(c)
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

    def _effect(self, c: int) -> Effect:
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

    def _winner(self, trick: list[tuple[int, int]] | None = None) -> int:
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
        w = self._winner()
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
            self._draw_source = self._next_seat(power) if self.rules.draw_from == "next" else "any"
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
        nxt = self._next_seat(power)
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

    # ---- takes and draws ------------------------------------------------------------------------

    def _take_target(self, taker: int) -> int:
        """Whose hand ``taker`` may take now: the next seat in the direction of play holding
        cards (Pagat, Taking cards; ruling 3); -1 if none."""
        return self._next_seat(taker)

    def _take(self, taker: int, target: int) -> None:
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
            self._lead_by(self._next_seat(target), LeadReason.TAKE)
        self._log.append((Took, taker, target))
        if not self._finish_if_one_left() and passed and self._power >= 0:
            self._log.append((Leads, self._power, LeadReason.TAKE))  # who leads now is an event too

    def _draw(self, s: int, c: int, source: int | None) -> None:
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

    def _reveal(self, s: int, c: int) -> None:
        """The seat is seen to hold ``c`` (it played the card and took it back): an unseen
        card of its hand becomes a known one."""
        if not self._once[s] & BIT[c]:
            self._unknown[s] -= 1
            self._unhide(c)
            self._give(s, c)

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

    def _lead(self, s: int, c: int) -> None:
        """Apply a lead between tricks (keeps the drawn-lead mark for the two-player rule)."""
        drawn = self._drawn_lead
        self._play(s, c)
        if self._phase == IN_TRICK:
            self._drawn_lead = drawn

    # ---- what may happen now ---------------------------------------------------------------------

    def legal(self, s: int) -> Legal:
        """What seat ``s`` may play now, the rule that says so and where (known cards; for
        an unseen hand, the cards it may hold that would be legal): :meth:`_duty_of`, with
        both kinds of card in one list."""
        d = duty_of(self, s)
        return Legal(s, tuple(sorted(d.cards + d.unseen)) if d.unseen else d.cards, d.reason, d.cite)

    def playable(self, s: int) -> tuple[int, ...]:
        """The cards of :meth:`legal` that ``s`` is known to hold: what a player with the
        hand in front of it chooses among, without the rule's name or an unseen hand's
        possible cards (self-play asks it at every play)."""
        return tuple(cards_of(legal_cards(self, s)))

    def legal_actions(self) -> list[Action]:
        """Every action the rules allow now whose card is known: the plays of the seats
        that may play, the takes, and the draws of known cards."""
        return actions_now(self)
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
            v = judge_play(self, s, c)
            if v is not None:
                raise IllegalAction(action, v)
            mark = len(self._log)
            if self._phase == IN_TRICK:
                self._play(s, c)
            else:
                self._lead(s, c)
            return self.events_since(mark)
        if not isinstance(action, (PlayCard, TakeHand, DrawCard)):
            return self.apply_mistake(action, events=events)
        mark = self.event_count()
        if isinstance(action, PlayCard):
            v = judge_play(self, action.seat, action.card)
            if v is not None:
                raise IllegalAction(action, v)
            if self._phase in (BETWEEN, BEFORE_FIRST):
                self._lead(action.seat, action.card)
            else:
                self._play(action.seat, action.card)
        elif isinstance(action, TakeHand):
            v = judge_take(self, action.taker, action.target)
            if v is not None:
                raise IllegalAction(action, v)
            self._take(action.taker, action.target)
        else:
            v = judge_draw(self, action.seat, action.card, action.source)
            if v is not None:
                raise IllegalAction(action, v)
            self._draw(action.seat, action.card, action.source)
        return self.events_since(mark) if events else []

    def play_card(self, s: int, c: int) -> bool:
        """Judge seat ``s`` playing card ``c`` now and, if legal, apply it without making its
        events: ``apply(PlayCard(s, c), events=False)`` with the ints alone, as the referee's
        replay asks at nearly every play. True if a trick is on the table after it (False:
        the play ended the trick). Raises :class:`IllegalAction`, changing nothing, if the
        rules do not allow it."""
        v = judge_play(self, s, c)
        if v is not None:
            raise IllegalAction(PlayCard(s, c), v)
        if self._phase == IN_TRICK:
            self._play(s, c)
        else:
            self._lead(s, c)
        return self._phase == IN_TRICK

    def takes(self) -> list[tuple[int, int]]:
        """Every take allowed now, as (taker, target)."""
        if not self.rules.taking or self._phase not in (BETWEEN, BEFORE_FIRST):
            return []
        out = []
        for s in self.holding():
            t = self._take_target(s)
            if t >= 0:
                out.append((s, t))
        return out

    def view(self) -> View:
        """The position as frozen values (:class:`View`): what show, legal, the answers and
        the pages read, instead of the engine's own fields."""
        return view_of(self)

    def turn(self) -> Turn:
        """The position's few values a player reads at each play (:class:`Turn`), each the
        same as in :meth:`view`."""
        return Turn(PHASES[self._phase], self._trick_no, tuple(self._trick) if self._phase == IN_TRICK else (),
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

    def duty_of(self, s: int) -> Duty:
        """What the rule asks of seat ``s`` now, as one value (:class:`Duty`): the reason, its
        source, the cards it allows among those known, and what an unseen hand may not play.
        Every other question of what may be played (``legal``, ``duty``, the verdicts, the
        solver's moves) reads the same function (``engine/judge.py``)."""
        return duty_of(self, s)

    def duty(self, s: int) -> tuple[LegalReason, ...]:
        """What the rule asks of ``s`` in the trick on the table, as the reasons of
        :meth:`legal` in the order the rule tries them: the first the hand meets is its
        duty. A hand known whole has one (``legal(s).reason``); a hand with unseen cards may
        have several: follow if it holds the suit led, else (Donkey) trump if it holds a
        trump, else any card. Empty when ``s`` is not to play (Pagat, Getaway: Second and
        subsequent tricks; Donkey)."""
        return duty_of(self, s).steps

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
            dealt = deal_around(self, known, lacks, rng, tries)
            if dealt is not None:
                f = deal_unseen(self, rng, {**known, **dealt}, play, tries)
                if f is not None:
                    return f
        return deal_unseen(self, rng, known, play, tries)

    # ---- what is known, and the voids the plays showed --------------------------------------

    def all_known(self) -> bool:
        """Is every card of the position known: no unseen card in a hand or the waste pile?"""
        return self._waste_unknown == 0 and not any(self._unknown)

    def _mark_void(self, s: int, suit: int, ref: VoidShown | None) -> None:
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

    # ---- the table's mistakes, as typed actions (engine/follow.py) ----------------------------

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
        apply_table_action(self, action)
        return self.events_since(mark) if events else []
    # ---- the judge's questions ---------------------------------------------------------------

    def verdict(self, action: Action | TableAction) -> Verdict | None:
        """What ``action`` would break now (None: nothing, it is legal), changing nothing: a
        play, take or draw judged by the rules; a :class:`PlayAnyway` (``late``: to the trick
        that has just ended) or :class:`Penalise` judged as the mistake it would be (for
        :class:`Penalise` a card of another suit from an unseen hand that may hold the suit
        led is a renege: the table that penalised it saw the hand)."""
        if type(action) is PlayCard:
            return judge_play(self, action.seat, action.card)
        if isinstance(action, TakeHand):
            return judge_take(self, action.taker, action.target)
        if isinstance(action, DrawCard):
            return judge_draw(self, action.seat, action.card, action.source)
        if isinstance(action, (PlayAnyway, Penalise)) and action.card is not None:
            return mistake_verdict(self, action.seat, action.card, late=action.late,
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
        return Outcome(PHASES[self._phase], self._trick_no - (0 if self._phase == IN_TRICK else 1),
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
        return PHASES[self._phase]

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
        return passed_by(self, s, c) is not None

    def shows_void(self, s: int, c: int) -> tuple[int, ...]:
        """The suits seat ``s``'s unseen cards are shown to lack if it plays ``c`` now: the
        suit led, for a card of another suit from unseen cards, and in Donkey the trump too
        when ``c`` is none (it had to trump if able). Empty for a lead or a known hand."""
        return voids_shown(self, s, c)

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
    want_once, want_twice = e._pack()
    for c in range(CARD_COUNT):
        want = (1 if want_once & BIT[c] else 0) + (1 if want_twice & BIT[c] else 0)
        if total[c] != want:
            return f"{card_str(c)} is in {total[c]} places"
    if e.hidden_size() != sum(e._unknown) + e._waste_unknown:
        return f"{e.hidden_size()} unseen cards but hands and waste hide {sum(e._unknown) + e._waste_unknown}"
    return None
