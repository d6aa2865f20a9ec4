"""Checking one game's deal or position, before any engine exists: the record, its rule set
and the findings so far (:class:`Judging`); :meth:`Judging.setup` makes the engine the walk
(:mod:`referee.judging.referee`) replays the record on."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from referee.engine import cards as C
from referee.engine import state as E
from referee.engine.codes import Code, say
from referee.engine.language import gettext as _
from referee.engine.rules import RuleSet
from referee.judging import wording as W
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

    def tell(self, code: Code, span: Span | None, how: str = "", rule: str = "", *, help: str | None = None,
             trick: int | None = None, **facts: object) -> Diagnostic:
        """Report ``code`` in its catalogue's words (engine/codes.py, :func:`say`): the way it
        happened (``how``) and the form of the rule (``rule``), filled with ``facts`` (and
        ``trick``, the trick the finding belongs to, when given)."""
        w = say(code, how, rule, **facts) if trick is None else say(code, how, rule, trick=trick, **facts)
        return self.report(code, w.message, span, label=w.label, notes=w.notes, help=help, trick=trick)

    def seat(self, s: int | None) -> str:
        if s is None or s < 0:
            return _("nobody")
        return self.game.seats[s]

    # ---- the deal or the position -------------------------------------------------------

    def setup(self, setup: Deal | Position) -> E.Engine:
        """The engine at the start of the record, once the deal or position is found true."""
        game, rules = self.game, self.rules
        n = len(game.seats)
        pack_once, pack_twice = E.pack_masks(rules)
        pack_size = pack_once.bit_count() + pack_twice.bit_count()
        placing = _Placing(self, pack_once, pack_twice, "" if isinstance(setup, Deal) else "position")
        seen = placing.seen
        place = placing.place
        placed = 0

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
                        place(c, sp, W.hand_of(game.seats[h.seat]))
                    hands[h.seat] = list(h.cards)
                else:
                    hands[h.seat] = h.size
                placed += h.size
        if isinstance(setup, Deal):
            if placing.fatal:
                raise Stopped(_("the deal cannot be true"))
            if placed != pack_size:
                missing = ""
                if placed < pack_size and all(h.cards is not None for h in setup.hands):
                    # Every hand is written card by card: the cards nobody was dealt are known.
                    gone = [c for c in range(C.CARD_COUNT) for _k in range(
                        (1 if pack_once & C.BIT[c] else 0) + (1 if pack_twice & C.BIT[c] else 0) - seen.get(c, 0))]
                    missing = " ".join(C.card_str(c) for c in C.sort_cards(gone)) if gone else ""
                self.tell(Code.DEAL_DOES_NOT_ADD_UP, setup.hands[-1].span if setup.hands else setup.span,
                          "missing" if missing else "", placed=placed, pack=pack_size, cards=missing,
                          help=_("check each hand's size") if not missing else _("give the missing cards to their hands"))
                raise Stopped(_("the deal cannot be true"))
            self._check_even(setup)
            # As above: a seat the deal leaves out holds no cards.
            return E.Engine.from_deal(rules, [h if h is not None else 0 for h in hands], check=False)
        return self._position(setup, hands, placed, pack_size, placing)

    def _check_even(self, deal: Deal) -> None:
        game, rules = self.game, self.rules
        if not rules.even_deal:
            return  # Pagat, Variations: piles by eye, any sizes
        hands = deal.hands
        sizes = {h.seat: h.size for h in hands}
        lo, hi = min(sizes.values()), max(sizes.values())
        if hi - lo > 1:
            big = max(hands, key=lambda h: h.size)
            self.tell(Code.UNEVEN_DEAL, big.span, low=lo, high=hi, help=_("with piles dealt by eye, play under deal=piles"))
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
                self.tell(Code.UNEVEN_DEAL, h.span, "dealer", "dealer", dealer=game.seats[d],
                          seats=", ".join(game.seats[s] for s in after[:extra]), seat=game.seats[h.seat], size=h.size)

    def _position(self, pos: Position, hands: list[list[int] | int | None], placed: int, pack_size: int,
                  placing: _Placing) -> E.Engine:
        game, rules = self.game, self.rules
        outs: list[int] = [o.seat for o in pos.of(Out)]
        wastes = pos.of(Waste)
        waste = wastes[0] if wastes else None
        waste_arg: list[int] | int | None = None
        if waste is not None and waste.cards is not None:
            for c in waste.cards:
                placing.place(c, waste.span, W.source_words(None, game.seats))
            waste_arg = list(waste.cards)
            placed += len(waste.cards)
        elif waste is not None and waste.size is not None:
            waste_arg = waste.size
            placed += waste.size
        if placing.fatal:
            raise Stopped(_("the position cannot be true"))
        if waste is None or waste.rest:
            if placed > pack_size:
                self.tell(Code.IMPOSSIBLE_POSITION, pos.items[-1].span, "over", "over", placed=placed, pack=pack_size)
                raise Stopped(_("the position cannot be true"))
            waste_arg = None
        elif placed != pack_size:
            self.tell(Code.IMPOSSIBLE_POSITION, waste.span, placed=placed, pack=pack_size,
                      help=_("give the waste pile's size so that everything adds up, or write 'waste rest'"))
            raise Stopped(_("the position cannot be true"))
        for s, h in enumerate(hands):
            if s not in outs and (h == 0 or h == []):
                outs.append(s)  # an empty hand has got away (Pagat, "Getting away")
        for s in outs:
            hands[s] = None
        leads = pos.of(Lead)
        if not leads:
            self.tell(Code.IMPOSSIBLE_POSITION, pos.items[-1].span if pos.items else game.span, "no_lead", "no_lead",
                      help=_("add 'lead SEAT'"))
            raise Stopped(_("the position cannot be true"))
        lead = leads[0].seat
        if lead in outs or (hands[lead] is not None and (hands[lead] == 0 or hands[lead] == [])):
            self.tell(Code.IMPOSSIBLE_POSITION, leads[0].span, "leader_empty", "leader_empty", seat=game.seats[lead])
            raise Stopped(_("the position cannot be true"))
        nt = pos.of(NextTrick)
        first_trick = next((a.number for a in game.actions if isinstance(a, Trick)), None)
        trick_no = nt[0].number if nt else (first_trick or 2)
        trumps = pos.of(Trumps)
        trump = -1
        if trumps:
            if not rules.donkey:
                self.tell(Code.IMPOSSIBLE_POSITION, trumps[0].span, "trumps", "trumps", rules=rules.spec(),
                          help=_("judge it as Donkey: [Rules \"donkey\"]"))
                raise Stopped(_("the position cannot be true"))
            trump = trumps[0].suit
        return E.Engine.from_position(rules, hands, outs, waste_arg, lead, trick_no, trump)


class _Placing:
    """The cards of a deal or position placed one by one (:meth:`Judging.setup`): how often
    each has been seen, and whether one was seen more often than the pack holds it (fatal).
    An object of its own, not a closure in ``setup``: the compiled build keeps a closure's
    variables in an object that refers to the closure, a cycle that would keep every game's
    record alive until the cycle collector ran."""

    __slots__ = ("fatal", "judging", "pack_once", "pack_twice", "seen", "what")

    def __init__(self, judging: Judging, pack_once: int, pack_twice: int, what: str) -> None:
        self.judging = judging
        self.pack_once, self.pack_twice = pack_once, pack_twice
        self.what = what  # the catalogue's way for a position ("position"), "" for a deal
        self.seen: dict[int, int] = {}
        self.fatal = False

    def place(self, card: int, span: Span, where: str) -> bool:
        """Card ``card`` placed at ``span`` (in ``where``'s words); False (and fatal) if the
        pack does not hold it that often."""
        allowed = (1 if self.pack_once & C.BIT[card] else 0) + (1 if self.pack_twice & C.BIT[card] else 0)
        seen = self.seen
        seen[card] = seen.get(card, 0) + 1
        if seen[card] > allowed:
            # i18n: how often a card is dealt or placed: "{card} is dealt twice"
            times = _("twice") if allowed == 1 else _("three times")
            self.judging.tell(Code.DEALT_TWICE, span, self.what, card=C.card_str(card), times=times, where=where,
                              help=_("correct the hands so that every card appears as often as the pack holds it"))
            self.fatal = True
            return False
        return True
