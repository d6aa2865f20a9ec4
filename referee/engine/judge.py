"""Judging on the engine's ints: what an action breaks (a verdict with its code and typed
facts) and what a seat may play now, for :class:`~referee.engine.state.Engine`.

The duty to follow is written once, as the steps of :func:`asked` (follow suit; in Donkey,
trump; else any card): every judge of a play, every list of legal cards, every void inferred
from a play and the solver's moves read these steps (Pagat, Getaway: First trick; Second and
subsequent tricks; Donkey). Record errors (R...) come before table mistakes (M...): a card the
player cannot hold is not judged as a mistake (docs/rulings.md, ruling 5).

:class:`Judge` is the layer of :class:`~referee.engine.state.Engine` above the state
(:class:`~referee.engine.table_state.TableState`): it reads the state through ``self`` and
changes nothing. Callers outside ``engine/`` ask its typed questions (``legal``, ``verdict``,
``duty``, ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

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
from referee.engine.events import (
    ANY_SOURCE,
    Action,
    Asked,
    DrawCard,
    Duty,
    Legal,
    LegalReason,
    Penalise,
    PlayAnyway,
    PlayCard,
    TableAction,
    TakeHand,
)
from referee.engine.table_state import TableState
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


class Judge(TableState):
    """What an action breaks and what a seat may play now: the judge's layer of the engine."""

    __slots__ = ()

    # ---- judging an action -----------------------------------------------------------

    def _judge_play(self, s: int, c: int) -> Verdict | None:
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

    def _steps_now(self) -> tuple[Asked, ...]:
        """The duty to follow in the trick on the table (:func:`asked`)."""
        return asked(self._led, self._first, self._trump if self._trumps else -1)

    def _judge_follow(self, s: int, c: int) -> Verdict | None:
        """The duty to follow (:func:`asked`): the first step the known hand meets must hold
        ``c``. Any card of the suit led is legal, higher or lower, in the two-player ending
        too (docs/rulings.md, ruling 8). Only known cards prove a renege now; unseen ones are
        judged later through voids (see the referee)."""
        hand = self._once[s]
        bit = BIT[c]
        for step in self._steps_now():
            if hand & step.cards:
                return OK if bit & step.cards else Verdict(step.code, step.holds, SuitHeld(step.suit))
        return OK

    def _judge_take(self, taker: int, target: int) -> Verdict | None:
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
            return Verdict(Code.WRONG_TAKE, "own hand", TakeOnly(self._take_target(taker)))
        if self._out[taker] or self.size(taker) == 0:
            return Verdict(Code.WRONG_TAKE, "the taker has no cards")
        want = self._take_target(taker)
        if target != want:
            return Verdict(Code.WRONG_TAKE, "not the next player holding cards", TakeOnly(want))
        return OK

    def _judge_draw(self, s: int, c: int, source: int | None) -> Verdict | None:
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

    def verdict(self, action: Action | TableAction) -> Verdict | None:
        """What ``action`` would break now (None: nothing, it is legal), changing nothing: a
        play, take or draw judged by the rules; a :class:`PlayAnyway` (``late``: to the trick
        that has just ended) or :class:`Penalise` judged as the mistake it would be (for
        :class:`Penalise` a card of another suit from an unseen hand that may hold the suit
        led is a renege: the table that penalised it saw the hand)."""
        if type(action) is PlayCard:
            return self._judge_play(action.seat, action.card)
        if isinstance(action, TakeHand):
            return self._judge_take(action.taker, action.target)
        if isinstance(action, DrawCard):
            return self._judge_draw(action.seat, action.card, action.source)
        if isinstance(action, (PlayAnyway, Penalise)) and action.card is not None:
            return self._mistake_verdict(action.seat, action.card, late=action.late,
                                        unseen=isinstance(action, Penalise))
        return OK

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

    # ---- what may be played now ------------------------------------------------------

    def _legal_cards(self, s: int) -> int:
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
        for step in self._steps_now():
            if hand & step.cards:
                return hand & step.cards
        return 0

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
        steps = self._steps_now()
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

    def _void_mask(self, s: int) -> int:
        m = 0
        for suit in range(4):
            if self._void[s] & (1 << suit):
                m |= SUIT_MASK[suit]
        return m

    def _legal_reason(self, s: int) -> tuple[LegalReason, int]:
        mask = self._legal_cards(s)
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
        steps = self._steps_now()
        if not hand and self._unknown[s]:
            return steps[0].reason, mask  # nothing known: the first thing the rule asks
        for step in steps:
            if hand & step.cards:
                return step.reason, mask
        return steps[-1].reason, mask

    def legal(self, s: int) -> Legal:
        """What seat ``s`` may play now, the rule that says so and where (known cards; for
        an unseen hand, the cards it may hold that would be legal): :meth:`duty_of`, with
        both kinds of card in one list."""
        d = self.duty_of(s)
        return Legal(s, tuple(sorted(d.cards + d.unseen)) if d.unseen else d.cards, d.reason, d.cite)

    def duty(self, s: int) -> tuple[LegalReason, ...]:
        """What the rule asks of ``s`` in the trick on the table, as the reasons of
        :meth:`legal` in the order the rule tries them: the first the hand meets is its
        duty. A hand known whole has one (``legal(s).reason``); a hand with unseen cards may
        have several: follow if it holds the suit led, else (Donkey) trump if it holds a
        trump, else any card. Empty when ``s`` is not to play (Pagat, Getaway: Second and
        subsequent tricks; Donkey)."""
        return self.duty_of(s).steps

    def playable(self, s: int) -> tuple[int, ...]:
        """The cards of :meth:`legal` that ``s`` is known to hold: what a player with the
        hand in front of it chooses among, without the rule's name or an unseen hand's
        possible cards (self-play asks it at every play)."""
        return tuple(cards_of(self._legal_cards(s)))

    def legal_actions(self) -> list[Action]:
        """Every action the rules allow now whose card is known: the plays of the seats
        that may play, the takes, and the draws of known cards."""
        return self._actions_now()

    def legal_takes(self) -> list[TakeHand]:
        """The takes of :meth:`legal_actions` alone: what a player deciding whether to take
        asks, without every play of the position listed as well."""
        return [TakeHand(taker, target) for taker, target in self.takes()]

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

    def _take_target(self, taker: int) -> int:
        """Whose hand ``taker`` may take now: the next seat in the direction of play holding
        cards (Pagat, Taking cards; ruling 3); -1 if none."""
        return self._next_seat(taker)

    def _actions_now(self) -> list[Action]:
        """Every action the rules allow now whose card is known (``Engine.legal_actions``)."""
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
            for c in cards_of(self._legal_cards(s)):
                out.append(PlayCard(s, c))
        return out

    # ---- mistakes, and what a play from unseen cards shows ---------------------------

    def _mistake_verdict(self, s: int, c: int, *, late: bool = False, unseen: bool = False) -> Verdict | None:
        """What ``s`` playing ``c`` now breaks (None: nothing). ``late``: the card is played
        to the trick that has just ended (after its tochoo, or a second card to it).
        ``unseen``: a card of another suit from a hand nobody has seen counts as a renege
        when the unseen cards may hold the suit led (or, in Donkey, a trump): the table that
        penalised it saw the hand."""
        if not late:
            v = self._judge_play(s, c)
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

    def _passed_by(self, s: int, c: int) -> Asked | None:
        """The first step of the duty (:func:`asked`) that ``s``'s unseen cards may hold and
        that playing ``c`` from them passes by, or None (a lead, a known hand, or ``c`` meets
        the first step the unseen cards may meet)."""
        if self._phase != IN_TRICK or self._unknown[s] == 0:
            return None
        bit = BIT[c]
        for step in self._steps_now():
            if bit & step.cards:
                return None
            if self._hidden_once & step.cards:
                return step
        return None

    def _voids_shown(self, s: int, c: int) -> tuple[int, ...]:
        """The suits ``s``'s unseen cards are shown to lack if it plays ``c`` now
        (``Engine.shows_void``): each step of the duty (:func:`asked`) the card does not meet."""
        if self._phase != IN_TRICK or self._unknown[s] == 0:
            return ()
        bit = BIT[c]
        out: list[int] = []
        for step in self._steps_now():
            if bit & step.cards:
                break
            out.append(step.suit)
        return tuple(out)

    def could_have_followed(self, s: int, c: int) -> bool:
        """Seat ``s`` plays ``c``, of another suit than the suit led, from unseen cards: could
        those cards have held the suit led (or, in Donkey, a trump when ``c`` is none)? Then
        the play may have been a renege, which the table saw and the record may show
        (Pagat, Getaway: Second and subsequent tricks; Donkey)."""
        return self._passed_by(s, c) is not None

    def shows_void(self, s: int, c: int) -> tuple[int, ...]:
        """The suits seat ``s``'s unseen cards are shown to lack if it plays ``c`` now: the
        suit led, for a card of another suit from unseen cards, and in Donkey the trump too
        when ``c`` is none (it had to trump if able). Empty for a lead or a known hand."""
        return self._voids_shown(s, c)

    def _draw_due(self) -> DrawDueFrom:
        src = self._draw_source
        return DrawDueFrom(self._drawer, None if src is None else src if isinstance(src, int) else ANY_SOURCE)

    def _check_deal(self, hands: Sequence[Sequence[int] | int]) -> None:
        """A deal the pack can give: ValueError for a card not in the pack, one dealt more often
        than the pack holds it, or more cards than the pack holds (``Engine.from_deal``)."""
        pack_once, pack_twice = self._pack()
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
