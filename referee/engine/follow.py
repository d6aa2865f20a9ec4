"""The table's mistakes and the record followed as played: :class:`Follow`, the layer of
:class:`~referee.engine.state.Engine` above what a legal action does
(:class:`~referee.engine.play.Play`).

Ruling 1's penalty (:meth:`Follow._penalise`: the offender picks up the trick and leads); a
trick played on after a mistake, reopened and ended as the table ended it
(:meth:`Follow._reopen`, :meth:`Follow._close`); and the record actions the rules cannot
explain but a record shows (docs/rulings.md, ruling 5: a card moved from the waste pile, a
forced draw, a hand moved, a card revealed, a void learned), each applied by
:meth:`Follow._follow` or refused with :class:`~referee.engine.values.CannotFollow`.
``Engine.apply_mistake`` is the way in.
"""

from __future__ import annotations

from referee.engine.cards import BIT, SUIT
from referee.engine.codes import Code
from referee.engine.events import (
    CloseTrick,
    Effect,
    EndTrick,
    Event,
    ForceDraw,
    ForgetVoid,
    LeadReason,
    Leads,
    MarkVoid,
    MistakeMade,
    MoveFromWaste,
    MoveHand,
    Penalise,
    Penalty,
    PickedUp,
    PlayAnyway,
    RecordAction,
    RevealCard,
    SwapFromWaste,
    TableAction,
    TrickToWaste,
    card_effect,
)
from referee.engine.play import Play
from referee.engine.values import BEFORE_FIRST, BETWEEN, DRAW_DUE, IN_TRICK, OVER, CannotFollow, IllegalAction


class Follow(Play):
    """The table's mistakes and the record followed as played: the layer above the rules'
    own actions."""

    __slots__ = ()

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
        self._apply_table_action(action)
        return self.events_since(mark) if events else []

    def _apply_table_action(self, action: TableAction | RecordAction) -> None:
        """Apply what the table did that the rules do not allow, or a record followed where
        they cannot (``Engine.apply_mistake``, which says what each raises)."""
        if not isinstance(action, (Penalise, PlayAnyway, EndTrick)):
            self._follow(action)
            return
        if isinstance(action, EndTrick) or action.card is None:
            if not (self._phase == IN_TRICK and self._lenient):
                raise ValueError(f"{action}: no trick played on after a mistake is on the table")
            if isinstance(action, EndTrick):
                # The trick ends as _resolve would end it, told as the same events (close logs
                # the pickup or the waste pile).
                self._lead_why = LeadReason.POWER
                self._close()
            else:
                self._penalise(action.seat, None)
            return
        s, c, late = action.seat, action.card, action.late
        v = self._mistake_verdict(s, c, late=late, unseen=isinstance(action, Penalise))
        if v is None:
            raise ValueError(f"{action}: a legal play, not a mistake (apply it as a PlayCard)")
        if not v.code.startswith("M"):
            raise IllegalAction(action, v)
        self._log.append((MistakeMade, *self._mistake_facts(s, c, v)))
        if isinstance(action, Penalise):
            self._penalise(s, c, after_end=late)
        elif late or (self._phase != IN_TRICK and v.code in (Code.AFTER_TOCHOO, Code.SECOND_CARD)):
            self._reopen()
            self._play(s, c)
        elif self._phase == BETWEEN:
            self._lead_by(s, LeadReason.TABLE)  # the table let s lead out of turn and played on
            self._lead(s, c)
        elif self._phase == BEFORE_FIRST:
            self._play(s, c)
            self._lenient = True
        else:
            self._lenient = True
            self._play(s, c)

    def _follow(self, action: RecordAction) -> None:
        """Apply a :data:`RecordAction` (see :meth:`apply_mistake`)."""
        if isinstance(action, MarkVoid):
            self._mark_void(action.seat, action.suit, action.shown)
        elif isinstance(action, ForgetVoid):
            self._void[action.seat] &= ~(1 << action.suit)
            self._since(action.seat).pop(action.suit, None)
        elif isinstance(action, RevealCard):
            if not self.may_hold(action.seat, action.card):
                raise CannotFollow(action, "the seat cannot hold the card")
            self._reveal(action.seat, action.card)
        elif isinstance(action, SwapFromWaste):
            if not self._swap_from_waste(action.seat, action.card):
                raise CannotFollow(action, "no unseen card of the seat, or the card not in the waste pile")
        elif isinstance(action, MoveFromWaste):
            if self._phase not in (BETWEEN, BEFORE_FIRST) or not self._move_from_waste(action.seat, action.card):
                raise CannotFollow(action, "the card is not in the waste pile between tricks")
        elif isinstance(action, ForceDraw):
            if action.seat != self._drawer or self._draw_source is not None or not self._force_draw(action.seat, action.card):
                raise CannotFollow(action, "no draw from the waste pile due to the seat, or the card is in a hand")
        elif isinstance(action, MoveHand):
            if not self._can_move_hand(action.taker, action.target):
                raise CannotFollow(action, "the hand cannot move")
            self._take(action.taker, action.target)
        else:
            assert isinstance(action, CloseTrick)
            self._close()

    def _penalise(self, s: int, c: int | None, after_end: bool = False) -> None:
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

    def _reopen(self) -> None:
        """Follow a record in which play went on after the trick ended (a play after a
        tochoo that nobody noticed): the trick is back on the table, to be ended by
        :meth:`_close`."""
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

    def _close(self) -> None:
        """End a lenient trick as the table ended it: to the winner at a tochoo, else to
        the waste pile."""
        if self._phase != IN_TRICK:
            return
        w = self._winner()
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

    def _can_move_hand(self, taker: int, target: int) -> bool:
        """Can ``target``'s hand go to ``taker`` at all, allowed or not: two different seats,
        both still in the game and holding cards, between tricks, the game not over. The
        referee follows a rejected take written in a record only then."""
        return (taker != target and self._phase in (BEFORE_FIRST, BETWEEN, DRAW_DUE)
                and not self._out[taker] and not self._out[target]
                and self.size(taker) > 0 and self.size(target) > 0)

    def _move_from_waste(self, s: int, c: int) -> bool:
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

    def _swap_from_waste(self, s: int, c: int) -> bool:
        """Follow a record in which ``s`` plays ``c``, a card of the waste pile (an error in
        the record, ruling 5): one of the seat's unseen cards takes its place in the waste,
        so every size stays as the record has it. False if the seat has no unseen card or
        the card is not in the waste pile."""
        if self._unknown[s] == 0 or not self._move_from_waste(s, c):
            return False
        # move_from_waste put the card in the hand; one unseen card goes the other way.
        self._unknown[s] -= 1
        self._waste_unknown += 1
        return True

    def _force_draw(self, s: int, c: int) -> bool:
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
            self._move_from_waste(s, c)
            self._take_known(s, c)
            self._give_drawn(s, c)
            return True
        return False
