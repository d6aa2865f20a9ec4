"""Judging on the engine's ints: what an action breaks (a verdict with its code and typed
facts) and what a seat may play now, for :class:`~referee.engine.state.Engine`.

The duty to follow is written once, as the steps of :func:`asked` (follow suit; in Donkey,
trump; else any card): every judge of a play, every list of legal cards, every void inferred
from a play and the solver's moves read these steps (Pagat, Getaway: First trick; Second and
subsequent tricks; Donkey). Record errors (R...) come before table mistakes (M...): a card the
player cannot hold is not judged as a mistake (docs/rulings.md, ruling 5).

Each function takes the engine as ``e`` and reads its fields: these are the engine's own
workings, split out of ``state.py`` by job; callers outside ``engine/`` ask the engine's
typed questions (``legal``, ``verdict``, ``duty``, ...) instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from referee.engine import citations as R
from referee.engine.cards import (
    BIT,
    CARD_COUNT,
    FULL_PACK,
    RANK,
    SUIT,
    SUIT_MASK,
    card_str,
    cards_of,
    distinct_mask,
    ms_cards,
)
from referee.engine.citations import Cite
from referee.engine.codes import Code
from referee.engine.events import ANY_SOURCE, Action, Asked, DrawCard, Duty, LegalReason, PlayCard, TakeHand
from referee.engine.values import (
    BEFORE_FIRST,
    BETWEEN,
    DRAW_DUE,
    IN_TRICK,
    OVER,
    DrawDueFrom,
    SuitHeld,
    TakeOnly,
    TurnOf,
    Verdict,
)

if TYPE_CHECKING:
    from referee.engine.state import Engine


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


# Where the rules that are not the duty to follow say what a seat may play.
_LEAD_CITES: dict[LegalReason, Cite] = {LegalReason.ANY: R.LATER_TRICKS, LegalReason.ACE_FIRST: R.FIRST_TRICK}


def judge_play(e: Engine, s: int, c: int) -> Verdict | None:
    """Is seat ``s`` playing card ``c`` now legal? None if so, else why not.

    Record errors (R...) come before table mistakes (M...): a card the player cannot
    hold is not judged as a mistake (ruling 5).
    """
    if e._phase == IN_TRICK:
        # The path of nearly every play, the checks of the general path below in the
        # same order (those that test the phase fall away).
        if e._out[s]:
            return Verdict(Code.SEAT_OUT, "the seat has got away")
        bit = BIT[c]
        hand = e._once[s]
        if not hand & bit and not (e._unknown[s] > 0 and e._hidden_once & bit):
            w = e.where(c)
            return Verdict(Code.IN_WASTE if w == "waste" else Code.NOT_IN_HAND, w)
        if e._lenient:
            return OK
        if e._played & (1 << s):
            return Verdict(Code.SECOND_CARD, "already played to this trick")
        if e._tochoo:
            return Verdict(Code.AFTER_TOCHOO, "the trick ended at a tochoo")
        if not (e._first and e._any_order):
            # _next_to_play, written out (once a play).
            active, played = e._active, e._played
            turn = -1
            for t in e._after[e._trick[-1][0]]:
                if active >> t & 1 and not played >> t & 1:
                    turn = t
                    break
            if s != turn:
                return Verdict(Code.OUT_OF_TURN, "not this seat's turn", TurnOf(turn))
        if SUIT[c] == e._led:
            return OK  # _judge_follow's first answer
        return judge_follow(e, s, c)
    if e._phase == BETWEEN:
        # A lead between tricks (nearly every other play): the general path below,
        # written out, in the same order.
        if e._out[s]:
            return Verdict(Code.SEAT_OUT, "the seat has got away")
        bit = BIT[c]
        if not e._once[s] & bit and not (e._unknown[s] > 0 and e._hidden_once & bit):
            w = e.where(c)
            return Verdict(Code.IN_WASTE if w == "waste" else Code.NOT_IN_HAND, w)
        if s != e._power:  # _judge_lead: the player with the power leads any card
            return Verdict(Code.OUT_OF_TURN, "not this seat's lead", TurnOf(e._power))
        return OK
    if e._phase == OVER:
        return Verdict(Code.AFTER_END, "the game is over")
    if e._out[s]:
        return Verdict(Code.SEAT_OUT, "the seat has got away")
    if e._phase == DRAW_DUE:
        return Verdict(Code.DRAW_OUT_OF_PLACE, "a draw is due", draw_due(e))
    if not e.may_hold(s, c):
        w = e.where(c)
        return Verdict(Code.IN_WASTE if w == "waste" else Code.NOT_IN_HAND, w)
    if e._phase in (BETWEEN, BEFORE_FIRST):
        return judge_lead(e, s, c)
    # in a trick
    if e._lenient:
        return OK
    if e._played & (1 << s):
        return Verdict(Code.SECOND_CARD, "already played to this trick")
    if e._tochoo:
        return Verdict(Code.AFTER_TOCHOO, "the trick ended at a tochoo")
    if not (e._first and e._any_order):
        turn = e._next_to_play()
        if s != turn:
            return Verdict(Code.OUT_OF_TURN, "not this seat's turn", TurnOf(turn))
    return judge_follow(e, s, c)


def judge_lead(e: Engine, s: int, c: int) -> Verdict | None:
    # Pagat, Second and subsequent tricks: the player with the power leads any card.
    if e._phase == BEFORE_FIRST:
        ace = e.first_card()
        holder = e.ace_holder()
        if c != ace:
            # Pagat, First trick: the holder of the ace of spades begins with it.
            return Verdict(Code.NOT_ACE_FIRST, "the first trick opens with the ace of spades", TurnOf(holder))
        return OK
    if s != e._power:
        return Verdict(Code.OUT_OF_TURN, "not this seat's lead", TurnOf(e._power))
    return OK


def steps_now(e: Engine) -> tuple[Asked, ...]:
    """The duty to follow in the trick on the table (:func:`asked`)."""
    return asked(e._led, e._first, e._trump if e._trumps else -1)


def judge_follow(e: Engine, s: int, c: int) -> Verdict | None:
    """The duty to follow (:func:`asked`): the first step the known hand meets must hold
    ``c``. Any card of the suit led is legal, higher or lower, in the two-player ending
    too (docs/rulings.md, ruling 8). Only known cards prove a renege now; unseen ones are
    judged later through voids (see the referee)."""
    hand = e._once[s]
    bit = BIT[c]
    for step in steps_now(e):
        if hand & step.cards:
            return OK if bit & step.cards else Verdict(step.code, step.holds, SuitHeld(step.suit))
    return OK


def judge_take(e: Engine, taker: int, target: int) -> Verdict | None:
    if e._phase == OVER:
        return Verdict(Code.AFTER_END, "the game is over")
    if not e.rules.taking:
        return Verdict(Code.WRONG_TAKE, "taking is not allowed by this rule set")
    if e._phase == IN_TRICK:
        return Verdict(Code.TAKE_IN_TRICK, "a trick is being played")
    if e._phase == DRAW_DUE:
        return Verdict(Code.DRAW_OUT_OF_PLACE, "a draw is due", draw_due(e))
    if taker == target:
        # Pagat, Taking cards: the hand of the player to one's left, never one's own.
        return Verdict(Code.WRONG_TAKE, "own hand", TakeOnly(e._take_target(taker)))
    if e._out[taker] or e.size(taker) == 0:
        return Verdict(Code.WRONG_TAKE, "the taker has no cards")
    want = e._take_target(taker)
    if target != want:
        return Verdict(Code.WRONG_TAKE, "not the next player holding cards", TakeOnly(want))
    return OK


def judge_draw(e: Engine, s: int, c: int, source: int | None) -> Verdict | None:
    if e._phase != DRAW_DUE:
        if e._phase == OVER:
            return Verdict(Code.AFTER_END, "the game is over")
        return Verdict(Code.DRAW_OUT_OF_PLACE, "no draw is due")
    if s != e._drawer:
        return Verdict(Code.DRAW_OUT_OF_PLACE, "another player must draw", draw_due(e))
    want = e._draw_source
    if want is None:
        if source is not None:
            return Verdict(Code.DRAW_OUT_OF_PLACE, "the draw is from the waste pile", draw_due(e))
        if (e._waste_once | e._waste_twice) & BIT[c]:
            return OK
        if e._waste_unknown > 0 and e._hidden_once & BIT[c]:
            return OK
        return Verdict(Code.DRAWN_CARD_NOT_THERE, e.where(c))
    if source is None:
        return Verdict(Code.DRAW_OUT_OF_PLACE, "the draw is from a player's hand", draw_due(e))
    if want != "any" and source != want:
        return Verdict(Code.DRAW_OUT_OF_PLACE, "the draw is from the next player's hand", draw_due(e))
    if source == s or e._out[source]:
        return Verdict(Code.DRAW_OUT_OF_PLACE, "the draw is from another player's hand", draw_due(e))
    if not e.may_hold(source, c):
        return Verdict(Code.DRAWN_CARD_NOT_THERE, e.where(c))
    return OK


def legal_cards(e: Engine, s: int) -> int:
    """The known cards ``s`` may play now, as a mask. In a trick followed as played after
    an unpenalised mistake (``lenient``) the rules give no legal play once a tochoo has
    ended it; the table's record decides what comes next."""
    if e._phase in (OVER, DRAW_DUE) or e._out[s]:
        return 0
    hand = e._once[s]
    if e._phase == BEFORE_FIRST:
        ace = e.first_card()
        return hand & BIT[ace]
    if e._phase == BETWEEN:
        return hand if s == e._power else 0
    if e._played & (1 << s) or e._tochoo:
        return 0
    if not (e._first and e._any_order) and s != e._next_to_play():
        return 0
    follow = hand & SUIT_MASK[e._led]  # the first step of the duty (asked()), tested first
    if follow or not hand:
        return follow
    for step in steps_now(e):
        if hand & step.cards:
            return hand & step.cards
    return 0


def duty_of(e: Engine, s: int) -> Duty:
    """What the rule asks of seat ``s`` now, as one value (:class:`Duty`): the rule its
    known cards meet and its source, the known cards it may play, the cards its unseen
    cards may hold and legally play, and in a trick the steps of :func:`asked` that may
    be its duty. Every other question of what may be played (``legal``, ``duty``,
    ``could_have_followed``, ``shows_void``, a verdict on an unseen hand) is read from
    the same steps."""
    reason, mask = legal_reason(e, s)
    if reason in (LegalReason.NONE, LegalReason.NOT_YOUR_TURN):
        return Duty(s, reason, None, (), (), ())
    if e._phase != IN_TRICK:
        allowed = BIT[e.first_card()] if reason == LegalReason.ACE_FIRST else FULL_PACK
        unseen = e._hidden_once & allowed & ~void_mask(e, s) if e._unknown[s] else 0
        return Duty(s, reason, _LEAD_CITES[reason], tuple(cards_of(mask)), tuple(cards_of(unseen & ~mask)), ())
    steps = steps_now(e)
    hand = e._once[s]
    hidden = e._hidden_once & ~void_mask(e, s) if e._unknown[s] else 0
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
                tuple(may) if e._unknown[s] else (reason,))


def void_mask(e: Engine, s: int) -> int:
    m = 0
    for suit in range(4):
        if e._void[s] & (1 << suit):
            m |= SUIT_MASK[suit]
    return m


def legal_reason(e: Engine, s: int) -> tuple[LegalReason, int]:
    mask = legal_cards(e, s)
    if e._phase in (OVER, DRAW_DUE) or e._out[s]:
        return LegalReason.NONE, 0
    if e._phase == BEFORE_FIRST:
        return (LegalReason.ACE_FIRST, mask) if s == e.ace_holder() or e.ace_holder() < 0 else \
            (LegalReason.NOT_YOUR_TURN, 0)
    if e._phase == BETWEEN:
        return (LegalReason.ANY, mask) if s == e._power else (LegalReason.NOT_YOUR_TURN, 0)
    if e._played & (1 << s) or e._tochoo:
        return LegalReason.NONE, 0
    if not (e._first and e._any_order) and s != e._next_to_play():
        return LegalReason.NOT_YOUR_TURN, 0
    hand = e._once[s]
    steps = steps_now(e)
    if not hand and e._unknown[s]:
        return steps[0].reason, mask  # nothing known: the first thing the rule asks
    for step in steps:
        if hand & step.cards:
            return step.reason, mask
    return steps[-1].reason, mask


def mistake_verdict(e: Engine, s: int, c: int, *, late: bool = False, unseen: bool = False) -> Verdict | None:
    """What ``s`` playing ``c`` now breaks (None: nothing). ``late``: the card is played
    to the trick that has just ended (after its tochoo, or a second card to it).
    ``unseen``: a card of another suit from a hand nobody has seen counts as a renege
    when the unseen cards may hold the suit led (or, in Donkey, a trump): the table that
    penalised it saw the hand."""
    if not late:
        v = judge_play(e, s, c)
        if v is None and unseen:
            step = passed_by(e, s, c)
            if step is not None:
                return Verdict(step.code, step.may_hold, SuitHeld(step.suit))
        return v
    if e._phase == IN_TRICK or not e._last_trick:
        raise ValueError(f"a late play of seat {s}: no trick has just ended")
    if e._out[s] and e._phase != OVER:
        return Verdict(Code.SEAT_OUT, "the seat has got away")
    if not e.may_hold(s, c):
        w = e.where(c)
        return Verdict(Code.IN_WASTE if w == "waste" else Code.NOT_IN_HAND, w)
    if any(t == s for t, _ in e._last_trick):
        return Verdict(Code.SECOND_CARD, "already played to this trick")
    return Verdict(Code.AFTER_TOCHOO, "the trick ended at a tochoo")


def mistake_facts(e: Engine, s: int, c: int, v: Verdict) -> tuple[Code, int, int, int | None, int | None, int | None]:
    """The fields of :class:`MistakeMade` for the mistake ``v`` of ``s`` playing ``c``."""
    code = Code(v.code)
    suit = proof = turn = None
    detail = v.detail
    if code == Code.RENEGE and isinstance(detail, SuitHeld):
        suit = detail.suit
        held = cards_of(e._once[s] & SUIT_MASK[suit])
        proof = min(held, key=lambda x: RANK[x]) if held else None
    elif code == Code.OUT_OF_TURN and isinstance(detail, TurnOf):
        turn = detail.seat
    return code, s, c, suit, proof, turn


def passed_by(e: Engine, s: int, c: int) -> Asked | None:
    """The first step of the duty (:func:`asked`) that ``s``'s unseen cards may hold and
    that playing ``c`` from them passes by, or None (a lead, a known hand, or ``c`` meets
    the first step the unseen cards may meet)."""
    if e._phase != IN_TRICK or e._unknown[s] == 0:
        return None
    bit = BIT[c]
    for step in steps_now(e):
        if bit & step.cards:
            return None
        if e._hidden_once & step.cards:
            return step
    return None


def draw_due(e: Engine) -> DrawDueFrom:
    src = e._draw_source
    return DrawDueFrom(e._drawer, None if src is None else src if isinstance(src, int) else ANY_SOURCE)


def check_deal(e: Engine, hands: Sequence[Sequence[int] | int]) -> None:
    """A deal the pack can give: ValueError for a card not in the pack, one dealt more often
    than the pack holds it, or more cards than the pack holds (``Engine.from_deal``)."""
    pack_once, pack_twice = e._pack()
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


def actions_now(e: Engine) -> list[Action]:
    """Every action the rules allow now whose card is known (``Engine.legal_actions``)."""
    out: list[Action] = []
    if e._phase == DRAW_DUE:
        src = e._draw_source
        if src is None:
            for c in ms_cards(e._waste_once, e._waste_twice):
                out.append(DrawCard(e._drawer, c, None))
        else:
            sources = [src] if isinstance(src, int) else [t for t in e.in_game() if t != e._drawer]
            for t in sources:
                for c in e.known(t):
                    out.append(DrawCard(e._drawer, c, t))
        return out
    for taker, target in e.takes():
        out.append(TakeHand(taker, target))
    for s in e._seq:
        for c in cards_of(legal_cards(e, s)):
            out.append(PlayCard(s, c))
    return out


def voids_shown(e: Engine, s: int, c: int) -> tuple[int, ...]:
    """The suits ``s``'s unseen cards are shown to lack if it plays ``c`` now
    (``Engine.shows_void``): each step of the duty (:func:`asked`) the card does not meet."""
    if e._phase != IN_TRICK or e._unknown[s] == 0:
        return ()
    bit = BIT[c]
    out: list[int] = []
    for step in steps_now(e):
        if bit & step.cards:
            break
        out.append(step.suit)
    return tuple(out)
