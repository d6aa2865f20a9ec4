"""The table's mistakes and the record followed as played, for
:class:`~referee.engine.state.Engine`.

Ruling 1's penalty (:func:`penalise`: the offender picks up the trick and leads); a trick
played on after a mistake, reopened and ended as the table ended it (:func:`reopen`,
:func:`close`); and the record actions the rules cannot explain but a record shows
(docs/rulings.md, ruling 5: a card moved from the waste pile, a forced draw, a hand moved, a
card revealed, a void learned), each applied by :func:`follow` or refused with
:class:`~referee.engine.values.CannotFollow`. ``Engine.apply_mistake`` is the way in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine.cards import BIT, SUIT
from referee.engine.codes import Code
from referee.engine.events import (
    CloseTrick,
    Effect,
    EndTrick,
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
from referee.engine.judge import mistake_facts, mistake_verdict
from referee.engine.values import BEFORE_FIRST, BETWEEN, DRAW_DUE, IN_TRICK, OVER, CannotFollow, IllegalAction

if TYPE_CHECKING:
    from referee.engine.state import Engine


def penalise(e: Engine, s: int, c: int | None, after_end: bool = False) -> None:
    """Ruling 1: the offender picks up every card played to the trick so far, their own
    (``c``) included, and leads the next trick; the trick's normal end does not happen.

    ``after_end``: the card was played to a trick that had already ended (a play after a
    tochoo): the cards the tochoo's winner picked up come back to the offender. Otherwise,
    between tricks, the card was a lead out of turn: the trick holds that card alone."""
    if c is not None:
        e._remove_from_hand(s, c)
    if e._phase != IN_TRICK and not after_end:
        e._trick = []
        if e._pending:
            e._flush_pending()
    elif e._phase != IN_TRICK:
        # The trick had already ended (a play after a tochoo): undo its pickup.
        trick = list(e._last_trick)
        if e._last_picker >= 0:
            for _, tc in trick:
                e._take_known(e._last_picker, tc)
        elif e._phase in (BETWEEN, DRAW_DUE) and e._pending:
            trick = list(e._pending)
            e._pending = []
        if e._phase == OVER:
            e._loser = -1
        e._trick = trick
        e._trick_no -= 1
    if c is not None:
        e._trick.append((s, c))
    taken = e._trick
    for _, tc in taken:
        e._give(s, tc)
    told = len(e._log)  # the penalty's entry, completed with who leads once that is known
    e._log.append((Penalty, s, len(taken), e._trick_no, None))
    e._last_trick, e._last_picker = list(taken), s
    e._pending = []
    e._end_trick()
    # Players who played their last card to the trick have got away; the offender holds
    # cards and leads.
    for t in e._seq:
        if t != s and not e._out[t] and e.size(t) == 0:
            e._get_away(t)
        elif e._out[t] and e.size(t) > 0:
            # A seat the undone pickup had sent out holds cards again.
            e._out[t] = False
            if t in e._out_order:
                e._out_order.remove(t)
    e._phase = BETWEEN
    e._lead_by(s, LeadReason.PENALTY)
    if not e._finish_if_one_left():
        e._log[told] = (Penalty, s, len(taken), e._trick_no - 1, e._power)
        e._log.append((Leads, s, LeadReason.PENALTY))


def reopen(e: Engine) -> None:
    """Follow a record in which play went on after the trick ended (a play after a
    tochoo that nobody noticed): the trick is back on the table, to be ended by
    :meth:`close`."""
    if e._phase == IN_TRICK:
        e._lenient = True
        return
    trick = list(e._last_trick)
    if e._last_picker >= 0:
        for _, tc in trick:
            e._take_known(e._last_picker, tc)
    else:
        trick = list(e._pending) or trick
        if not e._pending:
            for _, tc in trick:
                _remove_waste(e, tc)
        e._pending = []
    for t in list(e._out_order):
        if e.size(t) > 0:
            e._out[t] = False
            e._out_order.remove(t)
    e._trick = trick
    e._trick_no -= 1
    e._phase = IN_TRICK
    e._leader = trick[0][0]
    e._led = SUIT[trick[0][1]]
    e._played = 0
    for t, _ in trick:
        e._played |= 1 << t
    e._first = False
    e._tochoo = any(card_effect(SUIT[tc], e._led, e._trump, first=False, trumps=e._trumps) is Effect.TOCHOO
                      for _, tc in trick)
    e._lenient = True
    e._loser = -1


def _remove_waste(e: Engine, c: int) -> None:
    b = BIT[c]
    if e._waste_twice & b:
        e._waste_twice &= ~b
    else:
        e._waste_once &= ~b


def close(e: Engine) -> None:
    """End a lenient trick as the table ended it: to the winner at a tochoo, else to
    the waste pile."""
    if e._phase != IN_TRICK:
        return
    w = e._winner()
    # Logged as _resolve logs it: what the replay did with the trick is told by its
    # events (a pickup or the waste pile), however the trick ended.
    if e._tochoo and not e._first:
        e._pickup(w, e._trick)
        e._last_trick, e._last_picker = list(e._trick), w
        e._end_trick()
        e._log.append((PickedUp, w, len(e._last_trick)))
        e._settle(w)
    else:
        e._last_trick, e._last_picker = list(e._trick), -1
        e._pending = list(e._trick)
        e._end_trick()
        e._log.append((TrickToWaste, w, len(e._last_trick)))
        e._settle(w)


def can_move_hand(e: Engine, taker: int, target: int) -> bool:
    """Can ``target``'s hand go to ``taker`` at all, allowed or not: two different seats,
    both still in the game and holding cards, between tricks, the game not over. The
    referee follows a rejected take written in a record only then."""
    return (taker != target and e._phase in (BEFORE_FIRST, BETWEEN, DRAW_DUE)
            and not e._out[taker] and not e._out[target]
            and e.size(taker) > 0 and e.size(target) > 0)


def move_from_waste(e: Engine, s: int, c: int) -> bool:
    """Follow a record in which ``s`` took ``c`` from the waste pile when no draw was
    due (an error in the record, ruling 5): True if the card was there to take."""
    b = BIT[c]
    if e._waste_twice & b:
        e._waste_twice &= ~b
    elif e._waste_once & b:
        e._waste_once &= ~b
    elif e._waste_unknown > 0 and e._hidden_once & b:
        e._waste_unknown -= 1
        e._unhide(c)
    else:
        return False
    e._give(s, c)
    return True


def swap_from_waste(e: Engine, s: int, c: int) -> bool:
    """Follow a record in which ``s`` plays ``c``, a card of the waste pile (an error in
    the record, ruling 5): one of the seat's unseen cards takes its place in the waste,
    so every size stays as the record has it. False if the seat has no unseen card or
    the card is not in the waste pile."""
    if e._unknown[s] == 0 or not move_from_waste(e, s, c):
        return False
    # move_from_waste put the card in the hand; one unseen card goes the other way.
    e._unknown[s] -= 1
    e._waste_unknown += 1
    return True


def force_draw(e: Engine, s: int, c: int) -> bool:
    """Follow a record whose drawn card is not where the rules draw from (an error in
    the record, ruling 5): the draw happens as written if the card is anywhere but
    another player's hand (the trick just played, the waste pile, unseen). The draw is
    the due drawer's. False if the card cannot be taken without changing a hand."""
    if e._phase != DRAW_DUE:
        return False
    for i, (_, tc) in enumerate(e._pending):
        if tc == c:
            del e._pending[i]
            e._give_drawn(s, c)
            return True
    b = BIT[c]
    if (e._waste_once | e._waste_twice) & b or (e._hidden_once & b and e._waste_unknown > 0):
        move_from_waste(e, s, c)
        e._take_known(s, c)
        e._give_drawn(s, c)
        return True
    return False


def follow(e: Engine, action: RecordAction) -> None:
    """Apply a :data:`RecordAction` (see :meth:`apply_mistake`)."""
    if isinstance(action, MarkVoid):
        e._mark_void(action.seat, action.suit, action.shown)
    elif isinstance(action, ForgetVoid):
        e._void[action.seat] &= ~(1 << action.suit)
        e._since(action.seat).pop(action.suit, None)
    elif isinstance(action, RevealCard):
        if not e.may_hold(action.seat, action.card):
            raise CannotFollow(action, "the seat cannot hold the card")
        e._reveal(action.seat, action.card)
    elif isinstance(action, SwapFromWaste):
        if not swap_from_waste(e, action.seat, action.card):
            raise CannotFollow(action, "no unseen card of the seat, or the card not in the waste pile")
    elif isinstance(action, MoveFromWaste):
        if e._phase not in (BETWEEN, BEFORE_FIRST) or not move_from_waste(e, action.seat, action.card):
            raise CannotFollow(action, "the card is not in the waste pile between tricks")
    elif isinstance(action, ForceDraw):
        if action.seat != e._drawer or e._draw_source is not None or not force_draw(e, action.seat, action.card):
            raise CannotFollow(action, "no draw from the waste pile due to the seat, or the card is in a hand")
    elif isinstance(action, MoveHand):
        if not can_move_hand(e, action.taker, action.target):
            raise CannotFollow(action, "the hand cannot move")
        e._take(action.taker, action.target)
    else:
        assert isinstance(action, CloseTrick)
        close(e)


def apply_table_action(e: Engine, action: TableAction | RecordAction) -> None:
    """Apply what the table did that the rules do not allow, or a record followed where
    they cannot (``Engine.apply_mistake``, which says what each raises)."""
    if not isinstance(action, (Penalise, PlayAnyway, EndTrick)):
        follow(e, action)
        return
    if isinstance(action, EndTrick) or action.card is None:
        if not (e._phase == IN_TRICK and e._lenient):
            raise ValueError(f"{action}: no trick played on after a mistake is on the table")
        if isinstance(action, EndTrick):
            # The trick ends as _resolve would end it, told as the same events (close logs
            # the pickup or the waste pile).
            e._lead_why = LeadReason.POWER
            close(e)
        else:
            penalise(e, action.seat, None)
        return
    s, c, late = action.seat, action.card, action.late
    v = mistake_verdict(e, s, c, late=late, unseen=isinstance(action, Penalise))
    if v is None:
        raise ValueError(f"{action}: a legal play, not a mistake (apply it as a PlayCard)")
    if not v.code.startswith("M"):
        raise IllegalAction(action, v)
    e._log.append((MistakeMade, *mistake_facts(e, s, c, v)))
    if isinstance(action, Penalise):
        penalise(e, s, c, after_end=late)
    elif late or (e._phase != IN_TRICK and v.code in (Code.AFTER_TOCHOO, Code.SECOND_CARD)):
        reopen(e)
        e._play(s, c)
    elif e._phase == BETWEEN:
        e._lead_by(s, LeadReason.TABLE)  # the table let s lead out of turn and played on
        e._lead(s, c)
    elif e._phase == BEFORE_FIRST:
        e._play(s, c)
        e._lenient = True
    else:
        e._lenient = True
        e._play(s, c)
