"""What a legal action does to the state: a play, the end of a trick (to the waste pile, or
picked up at a tochoo), getting away, the lead, a draw due and drawn, a take. The layer of
:class:`~referee.engine.state.Engine` above the judge: each action here is applied once judged
(or when the record is followed as played, :mod:`referee.engine.follow`).
"""

from __future__ import annotations

from typing import Final

from referee.engine.cards import BIT, RANK, SUIT, cards_of
from referee.engine.events import (
    ANY_SOURCE,
    DrawDue,
    Drew,
    Effect,
    GameOver,
    GotAway,
    LeadReason,
    Leads,
    PickedUp,
    PlayCard,
    Played,
    Took,
    TrickToWaste,
    TrumpsSet,
    card_effect,
)
from referee.engine.judge import Judge
from referee.engine.values import BEFORE_FIRST, BETWEEN, DRAW_DUE, IN_TRICK, OVER, IllegalAction

# Effects the hot path compares (module constants: no look-up on the enum class each play;
# Final, so the compiled build reads them from C statics, not from the module's dict).
FOLLOWS: Final = Effect.FOLLOWS
TOCHOO: Final = Effect.TOCHOO
TRUMPS: Final = Effect.TRUMPS
LEADS: Final = Effect.LEADS
POWER: Final = LeadReason.POWER


class Play(Judge):
    """What a legal action does: the layer that changes the state by the rules."""

    __slots__ = ()

    # ---- applying a play -------------------------------------------------------------

    def play_card(self, s: int, c: int) -> bool:
        """Judge seat ``s`` playing card ``c`` now and, if legal, apply it without making its
        events: ``apply(PlayCard(s, c), events=False)`` with the ints alone, as the referee's
        replay asks at nearly every play. True if a trick is on the table after it (False:
        the play ended the trick). Raises :class:`IllegalAction`, changing nothing, if the
        rules do not allow it."""
        v = self._judge_play(s, c)
        if v is not None:
            raise IllegalAction(PlayCard(s, c), v)
        if self._phase == IN_TRICK:
            self._play(s, c)
        else:
            self._lead(s, c)
        return self._phase == IN_TRICK

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

    # ---- takes and draws -------------------------------------------------------------

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
