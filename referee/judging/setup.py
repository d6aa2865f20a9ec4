"""Checking one game's deal or position, before any engine exists: the record, its rule set
and the findings so far (:class:`Judging`); :meth:`Judging.setup` makes the engine the walk
(:mod:`referee.judging.referee`) replays the record on."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from referee.engine import cards as C
from referee.engine import citations as R
from referee.engine import state as E
from referee.engine.codes import Code
from referee.engine.rules import RuleSet
from referee.judging.result import GameResult, Stopped, diagnostic
from referee.notation.record import (
    Deal,
    Game,
    Hand,
    Lead,
    NextTrick,
    Out,
    Position,
    Span,
    Trick,
    Trumps,
    Waste,
)
from referee.reports.diagnostics import Diagnostic, PenaltyFacts, Related


class Judging:
    """One game being judged: its record, its rule set and the findings so far. The deal
    or position is checked here, before any engine exists; :meth:`setup` makes the engine."""

    __slots__ = ("game", "res", "rules")

    def __init__(self, game: Game, res: GameResult, rules: RuleSet) -> None:
        self.game = game
        self.res = res
        self.rules = rules

    # ---- diagnostics ------------------------------------------------------------------

    def report(self, code: str, message: str, span: Span | None, *, label: str = "",
               notes: Iterable[str] = (), help: str | None = None, trick: int | None = None,
               related: Iterable[Related] = (), penalty: PenaltyFacts | None = None) -> Diagnostic:
        d = diagnostic(self.game, code, message, span, label=label, notes=notes, help=help, trick=trick,
                        related=related, penalty=penalty)
        self.res.diagnostics.append(d)
        return d

    def seat(self, s: int | None) -> str:
        if s is None or s < 0:
            return "nobody"
        return self.game.seats[s]

    # ---- the deal or the position -------------------------------------------------------

    def setup(self, setup: Deal | Position) -> E.Engine:
        """The engine at the start of the record, once the deal or position is found true."""
        game, rules = self.game, self.rules
        n = len(game.seats)
        pack_once, pack_twice = E.pack_masks(rules)
        pack_size = pack_once.bit_count() + pack_twice.bit_count()
        seen: dict[int, int] = {}
        fatal = False
        placed = 0

        def place(card: int, span: Span, where: str) -> bool:
            nonlocal fatal
            allowed = (1 if pack_once & C.BIT[card] else 0) + (1 if pack_twice & C.BIT[card] else 0)
            seen[card] = seen.get(card, 0) + 1
            if seen[card] > allowed:
                what = "twice" if allowed == 1 else "three times"
                self.report(Code.DEALT_TWICE, f"{C.card_str(card)} is dealt {what}" if isinstance(setup, Deal)
                            else f"{C.card_str(card)} is placed {what}", span,
                            label=f"{C.card_str(card)} again, in {where}",
                            notes=[R.note("each card of the pack is in exactly one place", R.ruling(5))],
                            help="correct the hands so that every card appears as often as the pack holds it")
                fatal = True
                return False
            return True

        if isinstance(setup, Deal) and not pack_twice:
            dealt_hands = setup.hands
            dealt_cards = [h.cards for h in dealt_hands if h.cards is not None]
            if len(dealt_cards) == len(dealt_hands):
                # A single pack dealt card by card, as nearly every record is: the cards are
                # checked as bit masks, and the card-by-card walk below, which can say which
                # card is wrong and where, runs only if something is.
                union, placed = 0, 0
                for h, cards in zip(dealt_hands, dealt_cards):
                    mask = C.distinct_mask(cards)
                    if mask < 0 or union & mask:
                        break
                    union |= mask
                    placed += h.size
                else:
                    if union == pack_once and placed == pack_size:
                        # A seat the deal leaves out (only a program's record can: the reader
                        # requires every seat, S011) holds no cards.
                        dealt: list[Sequence[int] | int] = [0] * n
                        for h, cards in zip(dealt_hands, dealt_cards):
                            dealt[h.seat] = list(cards)
                        self._check_even(setup)
                        return E.Engine.from_deal(rules, dealt, check=False)  # checked above
                placed = 0
        hands: list[list[int] | int | None] = [None] * n
        for item in setup.items:  # not ``h``: typed Hand above, and a compiled walk checks it
            if isinstance(item, Hand):
                h = item
                if h.cards is not None:
                    for i, c in enumerate(h.cards):
                        sp = h.card_spans[i] if i < len(h.card_spans) else h.span
                        place(c, sp, f"{game.seats[h.seat]}'s hand")
                    hands[h.seat] = list(h.cards)
                else:
                    hands[h.seat] = h.size
                placed += h.size
        if isinstance(setup, Deal):
            if fatal:
                raise Stopped("the deal cannot be true")
            if placed != pack_size:
                missing = ""
                if placed < pack_size and all(h.cards is not None for h in setup.hands):
                    # Every hand is written card by card: the cards nobody was dealt are known.
                    gone = [c for c in range(C.CARD_COUNT) for _ in range(
                        (1 if pack_once & C.BIT[c] else 0) + (1 if pack_twice & C.BIT[c] else 0) - seen.get(c, 0))]
                    missing = ": missing " + " ".join(C.card_str(c) for c in C.sort_cards(gone)) if gone else ""
                self.report(Code.DEAL_DOES_NOT_ADD_UP, f"the deal holds {placed} cards, the pack {pack_size}{missing}",
                            setup.hands[-1].span if setup.hands else setup.span,
                            notes=[R.note("the whole pack is dealt", R.DEAL)],
                            help="check each hand's size" if not missing else "give the missing cards to their hands")
                raise Stopped("the deal cannot be true")
            self._check_even(setup)
            # As above: a seat the deal leaves out holds no cards.
            return E.Engine.from_deal(rules, [h if h is not None else 0 for h in hands], check=False)
        return self._position(setup, hands, placed, pack_size, place, lambda: fatal)

    def _check_even(self, deal: Deal) -> None:
        game, rules = self.game, self.rules
        if rules.deal == "piles":
            return  # Pagat, Variations: piles by eye, any sizes
        hands = deal.hands
        sizes = {h.seat: h.size for h in hands}
        lo, hi = min(sizes.values()), max(sizes.values())
        if hi - lo > 1:
            big = max(hands, key=lambda h: h.size)
            self.report(Code.UNEVEN_DEAL, f"hand sizes run from {lo} to {hi}: a deal gives at most one card more to some players",
                        big.span, label=f"{hi} cards",
                        notes=[R.note("as equally as possible", R.DEAL, R.ruling(7))],
                        help="with piles dealt by eye, play under deal=piles")
            return
        dealer = game.tag("Dealer")
        if dealer and hi != lo:
            seats_low = [s.lower() for s in game.seats]
            if dealer.lower() not in seats_low:
                return
            d = seats_low.index(dealer.lower())
            order = list(E.order_of_play(rules, len(game.seats)))
            i = order.index(d)
            after = [order[(i + k) % len(order)] for k in range(1, len(order) + 1)]
            extra = sum(1 for s in sizes.values() if s == hi)
            should = set(after[:extra])
            wrong = [h for h in hands if (h.size == hi) != (h.seat in should)]
            if wrong:
                h = wrong[0]
                self.report(Code.UNEVEN_DEAL, f"with {game.seats[d]} dealing, the extra cards go to "
                            + ", ".join(game.seats[s] for s in after[:extra]),
                            h.span, label=f"{game.seats[h.seat]} has {h.size}",
                            notes=[R.note("the extra cards go to the players next after the dealer", R.ruling(7))])

    def _position(self, pos: Position, hands: list[list[int] | int | None], placed: int, pack_size: int,
                  place: Callable[[int, Span, str], bool], fatal: Callable[[], bool]) -> E.Engine:
        game, rules = self.game, self.rules
        outs: list[int] = [o.seat for o in pos.of(Out)]
        wastes = pos.of(Waste)
        waste = wastes[0] if wastes else None
        waste_arg: list[int] | int | None = None
        if waste is not None and waste.cards is not None:
            for c in waste.cards:
                place(c, waste.span, "the waste pile")
            waste_arg = list(waste.cards)
            placed += len(waste.cards)
        elif waste is not None and waste.size is not None:
            waste_arg = waste.size
            placed += waste.size
        if fatal():
            raise Stopped("the position cannot be true")
        if waste is None or waste.rest:
            if placed > pack_size:
                self.report(Code.IMPOSSIBLE_POSITION, f"the hands hold {placed} cards, more than the pack's {pack_size}", pos.items[-1].span,
                            notes=[str(R.ruling(5))])
                raise Stopped("the position cannot be true")
            waste_arg = None
        elif placed != pack_size:
            self.report(Code.IMPOSSIBLE_POSITION, f"the position places {placed} cards, the pack has {pack_size}",
                        waste.span, label="the waste pile", notes=[R.note("every card is in one place", R.ruling(5))],
                        help="give the waste pile's size so that everything adds up, or write 'waste rest'")
            raise Stopped("the position cannot be true")
        for s, h in enumerate(hands):
            if s not in outs and (h == 0 or h == []):
                outs.append(s)  # an empty hand has got away (Pagat, "Getting away")
        for s in outs:
            hands[s] = None
        leads = pos.of(Lead)
        if not leads:
            self.report(Code.IMPOSSIBLE_POSITION, "the position does not say who leads next", pos.items[-1].span if pos.items else game.span,
                        notes=[R.note("the player with the power leads", R.LATER_TRICKS)],
                        help="add 'lead SEAT'")
            raise Stopped("the position cannot be true")
        lead = leads[0].seat
        if lead in outs or (hands[lead] is not None and (hands[lead] == 0 or hands[lead] == [])):
            self.report(Code.IMPOSSIBLE_POSITION, f"{game.seats[lead]} leads but holds no cards", leads[0].span,
                        notes=[R.note("a player with no cards has got away", R.GETTING_AWAY)])
            raise Stopped("the position cannot be true")
        nt = pos.of(NextTrick)
        first_trick = next((a.number for a in game.actions if isinstance(a, Trick)), None)
        trick_no = nt[0].number if nt else (first_trick or 2)
        trumps = pos.of(Trumps)
        trump = -1
        if trumps:
            if not rules.trumps:
                self.report(Code.IMPOSSIBLE_POSITION, f"the position names trumps, but the rule set {rules.spec()} has no trump suit",
                            trumps[0].span, notes=[R.note("trumps belong to the Kerala game", R.DONKEY)],
                            help="judge it as Donkey: [Rules \"donkey\"]")
                raise Stopped("the position cannot be true")
            trump = trumps[0].suit
        return E.Engine.from_position(rules, hands, outs, waste_arg, lead, trick_no, trump)
