"""The state of one game, kept as ints and masks, and the questions that only read it: the
lowest layer of :class:`~referee.engine.state.Engine` (see that module for the chain).

A state is a handful of lists and ints (python-chess style): per seat a hand of known cards
as a pair of bit masks (see :mod:`referee.engine.cards`), a count of cards nobody has seen, and a
mask of suits that seat's unseen cards are known to lack. Cards nobody has seen are the
``hidden`` multiset: the pack minus every card whose place is known.

:class:`TableState` owns every field (its ``__slots__``); the layers above it read and change
them through ``self``. What it answers here changes nothing: where the cards are, whose turn
it is, the event log, the voids shown, the position as a :class:`~referee.engine.values.View`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from referee.engine import citations as R
from referee.engine.cards import (
    ACE_OF_SPADES,
    BIT,
    FULL_PACK,
    MARKED_ACE,
    distinct_mask,
    held_cards,
    ms_cards,
)
from referee.engine.events import ANY_SOURCE, Event, LeadReason, VoidShown
from referee.engine.rules import RuleSet
from referee.engine.values import (
    BEFORE_FIRST,
    BETWEEN,
    DRAW_DUE,
    IN_TRICK,
    OVER,
    PHASE_NAMES,
    PHASES,
    Outcome,
    Phase,
    Turn,
    View,
)

if TYPE_CHECKING:
    from referee.engine.state import Engine


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


# Denexa's shootout, with ruling 8 that makes a higher card no mistake: its sources.
_SHOOTOUT: Final = (R.DENEXA_ENDING, R.ruling(8))

# The suits of a void mask (bit ``suit`` set), in suit order: View.voids.
_SUITS_OF = tuple(tuple(suit for suit in range(4) if m >> suit & 1) for m in range(16))


class TableState:
    """One game's state: the fields, and the questions that read them."""

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

    # ---- building --------------------------------------------------------------------

    def _pack(self) -> tuple[int, int]:
        """The whole pack as (once, twice): 52 cards, or 104 with the marked ace."""
        return pack_masks(self.rules)

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

    def fork(self) -> Engine:
        """A copy for search (``Engine.fork``, which makes it: only the top of the chain knows
        the class to make). Declared here for the layers that search or sample a position."""
        raise NotImplementedError

    # ---- what happened ---------------------------------------------------------------

    def event_count(self) -> int:
        """How many events have happened so far: a mark for :meth:`events_since`."""
        return len(self._log)

    def events_since(self, mark: int) -> list[Event]:
        """The events that happened after ``mark`` (an :meth:`event_count`), in order."""
        made, log = self._made, self._log
        for entry in log[len(made):]:
            made.append(entry[0](*entry[1:]))
        return made[mark:]

    def logged(self, mark: int = 0) -> list[tuple[Any, ...]]:
        """The events after ``mark`` as the engine logs them, not made into values: each
        ``(event class, its fields in order)``, so ``entry[0](*entry[1:])`` is the event
        :meth:`events_since` would give. For a reader of whole archives (the Parquet export),
        which reads every event of every game and makes no object per play."""
        return self._log[mark:]

    @property
    def events(self) -> list[Event]:
        """Every event of the game so far, in order."""
        return self.events_since(0)

    # ---- card places -----------------------------------------------------------------

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

    # ---- whose turn ------------------------------------------------------------------

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

    def shootout(self) -> bool:
        """Two players left, and the lead on the table is a drawn card (Denexa, How to Play
        Getaway: Ending the hand; Pagat, Getaway: Two players)."""
        return self._drawn_lead and self.in_game_count() == 2

    # ---- what is known, and the voids the plays showed -------------------------------

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

    # ---- the position, read ----------------------------------------------------------

    def holds_known(self, s: int, c: int) -> bool:
        """Is ``c`` known to be in seat ``s``'s hand (not merely possible among its unseen cards)?"""
        return bool(self._once[s] & BIT[c])

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

    def describe(self, seat_names: Sequence[str]) -> str:
        """One line of state, for debugging and ``repr``."""
        parts = []
        for s in self._seq:
            parts.append(f"{seat_names[s]}:{self.size(s)}{'(out)' if self._out[s] else ''}")
        return f"trick {self._trick_no}, {PHASE_NAMES[self._phase]}, " + " ".join(parts)

    def turn(self) -> Turn:
        """The position's few values a player reads at each play (:class:`Turn`), each the
        same as in :meth:`view`."""
        return Turn(PHASES[self._phase], self._trick_no, tuple(self._trick) if self._phase == IN_TRICK else (),
                    self.to_act(), self._first, self._trump if self._trump >= 0 else None)

    # seamviews (issue 23): read-only questions of show and legal ---------------------------

    def _still_to_play(self) -> tuple[int, ...]:
        active, played = self._active, self._played
        return tuple([s for s in self._seq if active >> s & 1 and not played >> s & 1])

    def view(self) -> View:
        """The position as frozen values (:class:`View`): what show, legal, the answers and
        the pages read, instead of the engine's own fields."""
        once, twice, unknown, void = self._once, self._twice, self._unknown, self._void
        in_trick = self._phase == IN_TRICK
        return View(
            phase=PHASES[self._phase],
            trick_no=self._trick_no,
            trick=tuple(self._trick) if self._phase == IN_TRICK else (),
            to_act=self.to_act(),
            leader=self._leader if self._phase == IN_TRICK else self._power,
            lead_why=self._lead_why,
            # map and a list over zip, not a generator per seat: a view is asked per action.
            sizes=tuple([o.bit_count() + t.bit_count() + u for o, t, u in zip(once, twice, unknown)]),
            known=tuple(map(held_cards, once, twice)),
            voids=tuple(map(_SUITS_OF.__getitem__, void)),
            out_order=tuple(self._out_order),
            trumps=self._trump if self._trump >= 0 else None,
            waste=held_cards(self._waste_once, self._waste_twice),
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
            hidden=held_cards(self._hidden_once, 0),
            # seamviews (issue 23)
            power=self._power if self._power >= 0 else None,
            led=self._led if in_trick and self._led >= 0 else None,
            tochoo=in_trick and self._tochoo,
            as_played=in_trick and self._lenient,
            still_to_play=self._still_to_play() if in_trick else (),
            pending=tuple(self._pending),
            drawn_lead=self._drawn_lead,
            hidden_cards=held_cards(self._hidden_once, self._hidden_twice),
            any_order=self._first and self._any_order,
            ended_cite=None if self._phase != OVER else R.END if self._ended_by != "two_players" else
            R.DENEXA_ENDING if self.rules.two_players == "denexa" else R.TWO_PLAYERS,
            shootout=_SHOOTOUT if in_trick and self.rules.two_players == "denexa" and self.shootout() else (),
        )
