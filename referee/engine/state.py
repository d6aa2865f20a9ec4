"""The rules engine: the state of a game and what may happen next, under a rule set.

Every other part of getaway-ref asks this module what is legal: the referee, the
simulator, ``show``, ``legal`` and ``live``. It knows nothing of records or text.

The rules are cited as their public name and section (referee.engine.citations); "ruling N"
is one of docs/rulings.md. :class:`Engine` is split by job into a chain of classes, each in
its own module, each layer reading the state through ``self`` (a lower layer never calls a
method only an upper one has; ``fork``, made here, is declared at the bottom):

* :class:`~referee.engine.table_state.TableState` (``table_state.py``): the fields, where the
  cards are, whose turn, the event log, the voids shown, the position as a ``View``;
* :class:`~referee.engine.judge.Judge` (``judge.py``): the duty to follow, the verdicts, what
  a seat may play;
* :class:`~referee.engine.play.Play` (``play.py``): what a legal play, take or draw does;
* :class:`~referee.engine.follow.Follow` (``follow.py``): ruling 1's penalty and a record
  followed as played (ruling 5);
* :class:`~referee.engine.sample.Sample` (``sample.py``): the review's samples;
* :class:`~referee.engine.moves.Moves` (``moves.py``): the exact search's moves and keys;
* :class:`Engine` (here): building a game, copying it, and applying a typed action.

Every public name of :class:`Engine` is its typed API; everything else begins with an
underscore. The values it answers in (:mod:`referee.engine.values`) are named here too: its
callers import them from this module.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.cards import BIT, CARD_COUNT, card_str, cards_of, ms_add, ms_cards
from referee.engine.events import (
    Action,
    DrawCard,
    Event,
    LeadReason,
    PlayCard,
    RecordAction,
    TableAction,
    TakeHand,
)
from referee.engine.moves import Moves
from referee.engine.rules import RuleSet
from referee.engine.table_state import TableState as TableState
from referee.engine.table_state import order_of_play as order_of_play
from referee.engine.table_state import pack_masks as pack_masks
from referee.engine.values import BEFORE_FIRST as BEFORE_FIRST
from referee.engine.values import BETWEEN as BETWEEN
from referee.engine.values import DRAW_DUE as DRAW_DUE
from referee.engine.values import IN_TRICK as IN_TRICK
from referee.engine.values import OVER as OVER
from referee.engine.values import PHASE_NAMES as PHASE_NAMES
from referee.engine.values import PHASES as PHASES
from referee.engine.values import CannotFollow as CannotFollow
from referee.engine.values import DrawDueFrom as DrawDueFrom
from referee.engine.values import IllegalAction as IllegalAction
from referee.engine.values import Outcome as Outcome
from referee.engine.values import Phase as Phase
from referee.engine.values import SuitHeld as SuitHeld
from referee.engine.values import TakeOnly as TakeOnly
from referee.engine.values import Turn as Turn
from referee.engine.values import TurnOf as TurnOf
from referee.engine.values import Verdict as Verdict
from referee.engine.values import VerdictDetail as VerdictDetail
from referee.engine.values import View as View


class Engine(Moves):
    """One game's state. Build it with :meth:`from_deal` or :meth:`from_position`."""

    __slots__ = ()

    # ---- building ---------------------------------------------------------------------

    @classmethod
    def from_deal(cls, rules: RuleSet, hands: Sequence[Sequence[int] | int], *, check: bool = True) -> Engine:
        """``hands[i]`` is a list of cards, or an int: the size of an unseen hand. Cards
        nobody is dealt stay out of play (a small deal, for a puzzle or a test). A card that
        is not in the pack, or is dealt more often than the pack holds it, or more cards
        than the pack holds, raise ValueError. ``check=False``
        is for a caller that has checked the deal itself (the referee reports a bad deal as
        R101/R102, card by card)."""
        e = cls(rules, len(hands))
        e._deal(hands, check)
        return e

    def _deal(self, hands: Sequence[Sequence[int] | int], check: bool) -> None:
        if check:
            self._check_deal(hands)
        self._place_hands(hands)
        self._phase = BEFORE_FIRST
        self._trick_no = 1
        self._first = True

    @classmethod
    def from_position(cls, rules: RuleSet, hands: Sequence[Sequence[int] | int | None], out: list[int],
                      waste: Sequence[int] | int | None, lead: int, trick_no: int,
                      trump: int = -1) -> Engine:
        """A game in progress: ``hands[i]`` cards, a size, or None for a seat that is out;
        ``waste`` a list of cards, an int size, or None for the rest of the pack."""
        e = cls(rules, len(hands))
        e._set_position(hands, out, waste, lead, trick_no, trump)
        return e

    def _set_position(self, hands: Sequence[Sequence[int] | int | None], out: list[int],
                      waste: Sequence[int] | int | None, lead: int, trick_no: int, trump: int) -> None:
        self._place_hands(hands)
        for s in out:
            self._out[s] = True
            self._out_order.append(s)
        if isinstance(waste, int):
            self._waste_unknown = waste
        elif waste is None:
            self._waste_unknown = self.hidden_size() - sum(self._unknown)
        else:
            for c in waste:
                self._waste_once, self._waste_twice = ms_add(self._waste_once, self._waste_twice, c)
                self._unhide(c)
        self._phase = BETWEEN
        self._first = False
        self._trick_no = trick_no
        self._power = lead
        self._lead_why = LeadReason.POSITION
        self._trump = trump
        self._finish_if_one_left()

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

    def resolved(self) -> Engine:
        """A copy in which the cards known by elimination are placed: when the cards nobody
        has seen can lie in one place only (one seat's unseen cards, or the waste pile's),
        they lie there, and that hand or pile is known whole. Nothing of this engine changes."""
        x = self.copy()
        x._place_by_elimination()
        return x

    def _place_by_elimination(self) -> None:
        places: list[int | str] = [s for s in range(self._n) if self._unknown[s] > 0]
        if self._waste_unknown > 0:
            places.append("waste")
        if len(places) != 1:
            return
        hidden = ms_cards(self._hidden_once, self._hidden_twice)
        where = places[0]
        if isinstance(where, int):
            for c in hidden:
                self._give(where, c)
            self._unknown[where] = 0
        else:
            for c in hidden:
                self._waste_once, self._waste_twice = ms_add(self._waste_once, self._waste_twice, c)
            self._waste_unknown = 0
        self._hidden_once = self._hidden_twice = 0

    # ---- applying a typed action ---------------------------------------------------------

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
            v = self._judge_play(s, c)
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
            v = self._judge_play(action.seat, action.card)
            if v is not None:
                raise IllegalAction(action, v)
            if self._phase in (BETWEEN, BEFORE_FIRST):
                self._lead(action.seat, action.card)
            else:
                self._play(action.seat, action.card)
        elif isinstance(action, TakeHand):
            v = self._judge_take(action.taker, action.target)
            if v is not None:
                raise IllegalAction(action, v)
            self._take(action.taker, action.target)
        else:
            v = self._judge_draw(action.seat, action.card, action.source)
            if v is not None:
                raise IllegalAction(action, v)
            self._draw(action.seat, action.card, action.source)
        return self.events_since(mark) if events else []

    def _invariant(self) -> str | None:
        total = [0] * CARD_COUNT
        def add(mask: int, k: int = 1) -> None:
            for c in cards_of(mask):
                total[c] += k
        for s in range(self._n):
            add(self._once[s])
            add(self._twice[s])
        for mask in (self._waste_once, self._waste_twice, self._hidden_once, self._hidden_twice):
            add(mask)
        for _, c in self._trick + self._pending:
            total[c] += 1
        want_once, want_twice = self._pack()
        for c in range(CARD_COUNT):
            want = (1 if want_once & BIT[c] else 0) + (1 if want_twice & BIT[c] else 0)
            if total[c] != want:
                return f"{card_str(c)} is in {total[c]} places"
        hidden = sum(self._unknown) + self._waste_unknown
        if self.hidden_size() != hidden:
            return f"{self.hidden_size()} unseen cards but hands and waste hide {hidden}"
        return None


# Compiled by mypyc (the optional build, README "Compiled engine") the class's __new__ runs
# __init__, which wants a rule set, and the classes keep no __slots__ but name the same
# fields __mypyc_attrs__: there copy() and fork() fill in a state built anew, not a bare one.
# Every field is TableState's (the layers above it add none).
_COMPILED = "__mypyc_attrs__" in vars(TableState)
_FIELDS: tuple[str, ...] = vars(TableState)["__mypyc_attrs__" if _COMPILED else "__slots__"]


def check_invariant(e: Engine) -> str | None:
    """Every card in exactly one place; None if so, else what is wrong (for tests)."""
    return e._invariant()
