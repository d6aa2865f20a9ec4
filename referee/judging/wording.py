"""The game's sentences, written once: why a seat leads, ruling 1's penalty, why a card may
be played, and what happened (an event of the engine) told in words.

The referee's messages and help, ``ask``, ``show --narrate``, ``live``'s answers, ``legal``
and the replay page take their words from here, so that a reason or a penalty reads the
same wherever it is told. Everything here takes plain values (seat names, card ints, the
engine's enums and events): it decides nothing and reads no state. A penalty is told from
its facts (who picks up how many cards of which trick, who leads next), never by editing
another sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from referee.engine import cards as C
from referee.engine import citations as R
from referee.engine import events as EV
from referee.engine.language import ENGLISH, N_, current, ngettext
from referee.engine.language import gettext as _

# How a mistake's help opens: the penalty of ruling 1 follows, told by penalty_sentence.
PENALTY_HELP = N_("penalty (ruling 1): {penalty}")

# Why a seat leads (the engine's LeadReason), as a reason clause: "North leads trick 5: ...".
LEAD_WHY: dict[EV.LeadReason, str] = {
    EV.LeadReason.ACE: N_("they hold the ace of spades, which opens the first trick"),
    EV.LeadReason.POWER: N_("they played the highest card of the suit led (or the highest trump) to the last trick"),
    EV.LeadReason.TAKE: N_("the seat due to lead had its hand taken, and the lead passed on"),
    EV.LeadReason.PASS_LEAD: N_("the seat with the power got away with its last card, and the lead passed on"),
    EV.LeadReason.PENALTY: N_("they picked up a trick as the penalty for a mistake ({ruling})"),
    EV.LeadReason.DRAW: N_("they had the power and no card, and lead the card they drew"),
    EV.LeadReason.POSITION: N_("the position written in the record says so"),
    EV.LeadReason.TABLE: N_("they led out of turn and the table played on"),
}

# The same reasons as a verb phrase: "North has the power and leads trick 5".
LEADS: dict[EV.LeadReason, str] = {
    EV.LeadReason.ACE: N_("holds the ace of spades and leads"),
    EV.LeadReason.POWER: N_("has the power and leads"),
    EV.LeadReason.TAKE: N_("leads (the hand due to lead was taken)"),
    EV.LeadReason.PASS_LEAD: N_("leads (the lead passed on)"),
    EV.LeadReason.PENALTY: N_("picked up the trick as the penalty and leads"),
    EV.LeadReason.DRAW: N_("leads the card drawn in"),
    EV.LeadReason.POSITION: N_("leads"),
    EV.LeadReason.TABLE: N_("leads"),
}

# The suits as players name them (cards.SUIT_NAMES is the notation's, in English).
SUIT_WORDS = (N_("spade"), N_("heart"), N_("diamond"), N_("club"))
SUITS_WORDS = (N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs"))
A_SUIT = (N_("a spade"), N_("a heart"), N_("a diamond"), N_("a club"))


def suit_word(suit: int, plural: bool = False) -> str:
    """A suit's name in the current language: ``heart``, ``hearts``."""
    return _((SUITS_WORDS if plural else SUIT_WORDS)[suit])


def trump_word() -> str:
    return _("trump")


def lead_kind(*, drawn: bool) -> str:
    """What the other player's card was, in the two-player ending (ruling 8)."""
    return _("drawn lead") if drawn else _("last card")


def a_suit(suit: int) -> str:
    """``a heart``: one card of the suit, unnamed."""
    return _(A_SUIT[suit])


def cards(n: int) -> str:
    """``1 card``, ``4 cards``."""
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def card_list(cs: Sequence[int]) -> str:
    return " ".join(C.card_str(c) for c in cs)


def ordinal(n: int) -> str:
    if current() != ENGLISH:
        # i18n: a place in the order of getting away: 1st, 2nd, 3rd
        return _("ordinal {n}").format(n=n)
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def listed(parts: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    parts = [p for p in parts if p]
    if len(parts) <= 1:
        return "".join(parts)
    # i18n: the last two of a list: "a, b and c"
    return _("{first} and {last}").format(first=_(", ").join(parts[:-1]), last=parts[-1])


def cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def lead_why(why: EV.LeadReason) -> str:
    return _(LEAD_WHY[why]).format(ruling=R.ruling(1)) if why in LEAD_WHY else ""


def leads(why: EV.LeadReason) -> str:
    return _(LEADS.get(why, "leads"))


# ---- the penalty (docs/rulings.md, ruling 1) --------------------------------------------------


def penalty_words(seat: str, n: int, trick: int, next_trick: int | None, *, told: str = "help",
                  leader: str | None = None) -> str:
    """Ruling 1's penalty from its facts (the engine's :class:`~referee.engine.events.Penalty`:
    the offender, the cards picked up, the trick, who leads next), the one place a penalty is
    put in words. ``told``: "help", as the referee states it (``South picks up the 4 cards
    of trick 4 and leads trick 5``; when the pickup ends the game, nobody leads again);
    "trick", at the end of a trick told play by play (``South picks up 4 cards as the
    penalty and leads trick 5``); "note", a record's comment (``South picks up 4 cards and
    leads``). ``leader``: the seat that leads next when it is not the offender."""
    numbered = next_trick is not None and told != "note"
    if leader is not None and leader != seat:
        then = (_("; {leader} leads trick {trick}") if numbered else _("; {leader} leads")).format(
            leader=leader, trick=next_trick)
    else:
        then = (_(" and leads trick {trick}") if numbered else _(" and leads")).format(trick=next_trick)
    if told == "note":
        return _("{seat} picks up {cards}").format(seat=seat, cards=cards(n)) + then
    if told == "trick":
        return pickup(seat, n, penalty=True) + (then if next_trick is not None else "")
    took = ngettext("{seat} picks up the card of trick {trick}", "{seat} picks up the {n} cards of trick {trick}",
                    n).format(seat=seat, n=n, trick=trick)
    return took + (then if next_trick is not None else _("; the game is over"))


def penalty_sentence(seat: str, n: int, trick: int, next_trick: int | None, leader: str | None = None) -> str:
    """The penalty as the referee states it (:func:`penalty_words`)."""
    return penalty_words(seat, n, trick, next_trick, leader=leader)


def penalty_help(seat: str, n: int, trick: int, next_trick: int | None, leader: str | None = None) -> str:
    """A mistake's help: the penalty, as the referee states it."""
    return _(PENALTY_HELP).format(penalty=penalty_words(seat, n, trick, next_trick, leader=leader))


def penalty_missed_help(seat: str, trick: int) -> str:
    """The help of a renege proved later, when the trick has long been played on."""
    return _(PENALTY_HELP).format(penalty=penalty_missed(seat, trick))


def penalty_missed(seat: str, trick: int) -> str:
    """A penalty the table did not apply, long played on: what should have happened."""
    return _("{seat} should have picked up trick {trick} and led trick {next}").format(
        seat=seat, trick=trick, next=trick + 1)


# ---- why a card may be played ------------------------------------------------------------------


def must_follow(suit: int) -> str:
    """A seat that holds the suit led: ``must follow ♦``."""
    return _("must follow {suit}").format(suit=C.SUIT_SYMBOLS[suit])


def following(suit: int) -> str:
    """Whose turn it is in a trick: ``following ♦ if able``."""
    return _("following {suit} if able").format(suit=C.SUIT_SYMBOLS[suit])


def follow_if_able(suit: int) -> str:
    """The rest of a trick played on after a mistake: the ordinary rules."""
    return following(suit) + _(" (a tochoo ends the trick)")


def to_play(seat: str, reasons: Sequence[EV.LegalReason], led: int, trump: int | None, *,
            trick: int | None = None, played_on: bool = False) -> str:
    """Who plays next to the trick on the table and what the rule asks of them, from the
    engine's answer (``Engine.duty``: the reasons in the order the rule tries them), as the
    table needs it mid-trick: ``South to play, following ♥ if able``; ``South to play, and
    must follow ♥`` (a hand known to hold one); ``South to play: no ♥, so any card``.
    ``trick``: said as ``to play to trick 3``; ``played_on``: the trick goes on after a
    mistake nobody penalised, where a tochoo ends it."""
    head = (_("{seat} to play to trick {trick}") if trick is not None else _("{seat} to play")).format(
        seat=seat, trick=trick)
    sym = C.SUIT_SYMBOLS[led]
    first = reasons[0] if reasons else EV.LegalReason.OFF_SUIT
    trumps = (_(", else a trump {trump}").format(trump=C.SUIT_SYMBOLS[trump])
              if trump is not None and EV.LegalReason.TRUMP in reasons else "")
    tail = _(" (a tochoo ends the trick)") if played_on else ""
    if first in (EV.LegalReason.FOLLOW, EV.LegalReason.FIRST_TRICK_SPADE):
        if len(reasons) == 1:
            return _("{head}, and {rule}").format(head=head, rule=must_follow(led))
        return f"{head}, {following(led)}{trumps}{tail}"
    if first is EV.LegalReason.TRUMP and trump is not None:
        return (_("{head}: no {suit}, so a trump {trump} if able") if len(reasons) > 1
                else _("{head}: no {suit}, so a trump {trump}")).format(head=head, suit=sym,
                                                                        trump=C.SUIT_SYMBOLS[trump])
    return _("{head}: no {suit}, so any card").format(head=head, suit=sym) + tail


def another_suit(led: int, *, first: bool, donkey: bool, trump: int | None) -> str:
    """What a card of another suit than the one led does now (Pagat, First trick; Second
    and subsequent tricks; Donkey): the legal answer's last word on a follow."""
    if first:
        return _("a card of another suit does not end the first trick")
    if donkey and trump is None:
        return _("a card of another suit makes trumps and does not end the trick")
    if trump is not None:
        return _("a card of neither {led} nor the trump {trump} is a tochoo: it ends the trick").format(
            led=C.SUIT_SYMBOLS[led], trump=C.SUIT_SYMBOLS[trump])
    return _("a card of another suit is a tochoo: it ends the trick")


def duty(reasons: Sequence[EV.LegalReason], led: int, trump: int | None, *, exact: bool,
         holds: Sequence[int] = (), shown_in: int | None = None) -> tuple[str, str | None]:
    """What a seat must play to a trick led in ``led``, from the engine's answer
    (``Engine.duty``: the reasons in the order the rule tries them), as ``legal`` tells it:
    the rule in words and what the seat may not play (None: nothing). ``exact``: the whole
    hand is known; ``holds``: the cards of the suit led it is known to hold; ``shown_in``:
    the trick in which its unseen cards showed they lack the suit led."""
    led_sym = C.SUIT_SYMBOLS[led]
    t = C.SUIT_SYMBOLS[trump] if trump is not None else ""
    first = reasons[0] if reasons else EV.LegalReason.OFF_SUIT
    follow = first in (EV.LegalReason.FOLLOW, EV.LegalReason.FIRST_TRICK_SPADE)
    if follow and len(reasons) == 1:
        held = ", ".join(C.card_str(c) for c in holds)
        return (must_follow(led) if exact or not holds
                else _("{rule}: it holds {held}").format(rule=must_follow(led), held=held)), _("another suit")
    if follow:  # unseen cards that may hold the suit led
        if EV.LegalReason.TRUMP in reasons:
            rule = _("must follow {suit} if it holds one, else a trump {trump} if it holds one, else any card")
        else:
            rule = _("must follow {suit} if it holds one, else any card")
        return (rule.format(suit=led_sym, trump=t),
                _("another suit while holding {a_suit}").format(a_suit=a_suit(led)))
    if first == EV.LegalReason.TRUMP and len(reasons) == 1:
        return (_("holds no {suit}: must play a trump {trump}").format(suit=led_sym, trump=t),
                (_("anything but a trump {trump}") if exact else _("a suit other than the trump {trump}")).format(
                    trump=t))
    if first == EV.LegalReason.TRUMP:
        return _("holds no {suit}: must play a trump {trump} if it holds one, else any card").format(
            suit=led_sym, trump=t), None
    if shown_in:
        return _("holds no {suit} (shown in trick {trick}): any card").format(suit=led_sym, trick=shown_in), None
    return _("holds no {suit}: any card").format(suit=led_sym), None


# ---- events told in words ------------------------------------------------------------------------


def pickup(seat: str, n: int, *, penalty: bool = False) -> str:
    return (_("{seat} picks up {cards} as the penalty") if penalty else _("{seat} picks up {cards}")).format(
        seat=seat, cards=cards(n))


def lead_clause(seat: str, trick: int, why: EV.LeadReason | None = None) -> str:
    """``South leads trick 5`` (with the reason in brackets when given)."""
    said = _("{seat} leads trick {trick}").format(seat=seat, trick=trick)
    return said + (f" ({lead_why(why)})" if why is not None and why in LEAD_WHY else "")


def lead_passes(seat: str, trick: int) -> str:
    """The seat due to lead had its hand taken (docs/rulings.md, ruling 3): ``the lead
    passes on: West leads trick 10``."""
    return _("the lead passes on: {seat} leads trick {trick}").format(seat=seat, trick=trick)


def got_away(seat: str, place: int) -> str:
    if place:
        return _("{seat} gets away ({place})").format(seat=seat, place=ordinal(place))
    return _("{seat} gets away").format(seat=seat)


def get_away(seats: Sequence[str]) -> str:
    """Several seats out by one trick, in one clause: ``North and East get away``."""
    return ngettext("{seats} gets away", "{seats} get away", len(seats)).format(seats=listed(seats))


def to_waste(leader: str | None, trick: int) -> str:
    """A clean trick told without its winner: ``the trick goes to the waste pile and East
    leads trick 3`` (the first part alone when nobody is set to lead yet)."""
    if leader is None:
        return _("the trick goes to the waste pile")
    return _("the trick goes to the waste pile and {seat} leads trick {trick}").format(seat=leader, trick=trick)


def must_draw(seat: str, source: str) -> str:
    """A draw still due after the trick: ``West must draw from the waste pile and lead``."""
    return _("{seat} must draw from {source} and lead").format(seat=seat, source=source)


def loses(seat: str, legs: int | None = None) -> str:
    """The end of the game in the one-sentence verdict and a record's comment: ``South
    loses`` (in Donkey ``South loses with 2 legs``)."""
    if legs is None:
        return _("{seat} loses").format(seat=seat)
    return ngettext("{seat} loses with {legs} leg", "{seat} loses with {legs} legs", legs).format(seat=seat, legs=legs)


def left_holding(seat: str) -> str:
    """A record's comment after the take that ends the game: ``South is left holding cards``."""
    return _("{seat} is left holding cards").format(seat=seat)


def to_waste_note() -> str:
    """A record's comment at the end of a clean first trick: ``to the waste pile``."""
    return _("to the waste pile")


def tochoo_note(seat: str, n: int) -> str:
    """A record's comment at the end of a trick a tochoo ended: ``tochoo: North picks up 3 cards``."""
    return _("tochoo: {pickup}").format(pickup=pickup(seat, n))


def opens_first_trick(ace: str) -> str:
    """What the first lead must be (the rule, for ``legal``): ``A♠ opens the first trick``."""
    return _("{ace} opens the first trick").format(ace=ace)


def draw_due(seat: str, source: str) -> str:
    return _("{seat} has the power and no card left, so draws from {source} and leads the card").format(
        seat=seat, source=source)


def no_card_draws(source: str) -> str:
    """Said after ``West ... has the power`` when the seat won with its last card and the
    draw is not yet written: `` but no card: must draw from the waste pile and lead it``."""
    return _(" but no card: must draw from {source} and lead it").format(source=source)


def no_card_drew(card: int, source: str | None, trick: int | None) -> str:
    """Said after ``West ... has the power`` when the seat won with its last card and the
    record gives the card it drew: `` but no card: draws 7♦ and leads trick 21`` (the
    source said when it is a hand, not the waste pile)."""
    said = (_(" but no card: draws {card} from {source}") if source else _(" but no card: draws {card}")).format(
        card=C.card_str(card), source=source)
    return said + (_(" and leads trick {trick}").format(trick=trick) if trick is not None else _(" and leads it"))


def by_choice(seat: str, card: int, lower: int) -> str:
    """Ruling 8, as the verdict's opening: ``East played K♦ by choice, holding the lower
    3♦ (docs/rulings.md, ruling 8)``."""
    return _("{seat} played {card} by choice, holding the lower {lower} ({ruling})").format(
        seat=seat, card=C.card_str(card), lower=C.card_str(lower), ruling=R.ruling(8))


def kept_going(lower: str) -> str:
    """Ruling 8's help: ``3♦ would have kept the game going``."""
    return _("{card} would have kept the game going").format(card=lower)


def made_trumps(seat: str, card: int, suit: int) -> str:
    """Donkey: ``East's K♦ made diamonds trumps``."""
    return _("{seat}'s {card} made {suits} trumps").format(seat=seat, card=C.card_str(card),
                                                            suits=suit_word(suit, True))


def source_words(source: int | None, seats: Sequence[str]) -> str:
    """Where a draw comes from: the waste pile, a seat's hand, or any other hand."""
    if source is None:
        return _("the waste pile")
    if source == EV.ANY_SOURCE or source < 0:
        return _("any other player's hand")
    return hand_of(seats[source])


def hand_of(seat: str) -> str:
    """``North's hand``."""
    return _("{seat}'s hand").format(seat=seat)


def out_holding(seat: str, n: int, two_players: str | None) -> str:
    """Why a seat counts as got away while it still holds cards. ``two_players``: the
    source of the two-player ending that put it out (Pagat, Getaway: Two players; Denexa's
    shootout), None when the game ended otherwise."""
    if two_players is not None:
        return _("{seat} holds {cards} yet is out of the game: with two players left, a tochoo on a card "
                 "drawn and led loses the leader the game at once, and the other player is out, whatever they "
                 "still hold ({source})").format(seat=seat, cards=cards(n), source=two_players)
    return _("{seat} is out of the game though its hand holds {cards}").format(seat=seat, cards=cards(n))


def game_over(loser: str, legs: int | None, donkey: bool) -> str:
    if donkey and legs is not None:
        return ngettext("the game is over: {loser} is the donkey ({legs} leg)",
                        "the game is over: {loser} is the donkey ({legs} legs)", legs).format(loser=loser, legs=legs)
    return _("the game is over: {loser} is left holding cards and loses").format(loser=loser)


def took(taker: str, target: str) -> str:
    return _("{taker} takes {target}'s hand").format(taker=taker, target=target)


def drew(seat: str, card: int, source: str | None) -> str:
    return (_("{seat} draws {card} from {source} and leads it") if source
            else _("{seat} draws {card} and leads it")).format(seat=seat, card=C.card_str(card), source=source)


# ---- how a trick ended (ask, show --narrate, the replay page and live tell it alike) -----------


def highest(kind: str, card: int) -> str:
    """``, with the highest heart (6♥),``: the card that won a trick (``kind``: the name of
    the suit led, or ``trump``)."""
    return _(", with the highest {kind} ({card}),").format(kind=kind, card=C.card_str(card))


def trick_end(seat: str, n: int, *, waste: bool = False, penalty: bool = False, high: str = "",
              leads: int | None = None, ends: bool = False) -> str:
    """How a trick ended, one sentence wherever it is told: ``North, with the highest heart
    (6♥), picks up 3 cards and leads trick 5``; ``the trick goes to the waste pile; West has
    the power and leads trick 2``; ``South picks up 4 cards as the penalty and leads trick
    5``. ``high``: the winner's card (:func:`highest`); ``leads``: the trick the same seat
    leads next, if it does; ``ends``: told after the plays, a pickup at a tochoo opens with
    ``the trick ends;``."""
    if penalty:
        return penalty_words(seat + high, n, 0, leads, told="trick")
    if waste:
        head = _("the trick goes to the waste pile; {seat} has the power").format(seat=seat + high)
    else:
        head = (_("the trick ends; ") if ends else "") + pickup(seat + high, n)
    return head + (_(" and leads trick {trick}").format(trick=leads) if leads is not None else "")


def trumps_set(suit: int, symbol: bool = True) -> str:
    """Donkey: ``♥ hearts are trumps`` (a record's comment without the symbol)."""
    if symbol:
        return _("{symbol} {suits} are trumps").format(symbol=C.SUIT_SYMBOLS[suit], suits=suit_word(suit, True))
    return _("{suits} are trumps").format(suits=suit_word(suit, True))


def narrate(events: Sequence[EV.Event], seats: Sequence[str], *, trick_no: int, out_order: Sequence[int],
            donkey: bool, high: Callable[[int], str], said_lead: set[int] | None = None) -> str:
    """What followed an action, from the engine's events in the order they happened, in one
    sentence: the end of a trick, who picks up (a penalty as :func:`penalty_words` tells it),
    who gets away, who leads and why, a draw due, a take, a draw, trumps made, the end of the
    game. The one narrator of events: ``ask``, ``show --narrate``, the replay page and
    ``live`` tell what happened with it. ``trick_no``: the trick now (the one led next);
    ``out_order``: the seats out, in order; ``high(w)``: the clause naming the card that won
    the trick for ``w`` (:func:`highest`); ``said_lead``: seats whose lead is already told."""
    parts: list[str] = []
    said = set() if said_lead is None else said_lead

    def name(s: int | None) -> str:
        return seats[s] if s is not None and 0 <= s < len(seats) else _("nobody")

    evs = [ev for ev in events if not isinstance(ev, EV.Played)]
    for k, ev in enumerate(evs):
        if isinstance(ev, (EV.PickedUp, EV.TrickToWaste)):
            w = ev.seat if isinstance(ev, EV.PickedUp) else ev.winner
            leads = any(isinstance(e2, EV.Leads) and e2.seat == w for e2 in evs[k:])
            if leads:
                said.add(w)
            parts.append(trick_end(name(w), ev.cards, waste=isinstance(ev, EV.TrickToWaste), high=high(w),
                                   leads=trick_no if leads else None, ends=True))
        elif isinstance(ev, EV.Penalty):
            said.add(ev.seat if ev.leads is None else ev.leads)
            parts.append(penalty_words(name(ev.seat), ev.cards, ev.trick, trick_no, told="trick",
                                       leader=None if ev.leads is None else name(ev.leads)))
        elif isinstance(ev, EV.GotAway):
            parts.append(got_away(name(ev.seat), out_order.index(ev.seat) + 1 if ev.seat in out_order else 0))
        elif isinstance(ev, EV.Leads):
            if ev.seat not in said:
                said.add(ev.seat)
                parts.append(lead_clause(name(ev.seat), trick_no, ev.why))
        elif isinstance(ev, EV.DrawDue):
            parts.append(draw_due(name(ev.seat), source_words(ev.source, seats)))
        elif isinstance(ev, EV.Took):
            parts.append(took(name(ev.taker), name(ev.target)))
        elif isinstance(ev, EV.Drew):
            parts.append(drew(name(ev.seat), ev.card, hand_of(seats[ev.source])
                              if ev.source is not None and ev.source >= 0 else None))
        elif isinstance(ev, EV.GameOver):
            parts.append(game_over(name(ev.loser), ev.legs, donkey))
        elif isinstance(ev, EV.TrumpsSet):
            parts.append(trumps_set(ev.suit))
    return "; ".join(parts)


# ---- the review's answers (issue 28, branch review): ask, show --narrate, live's hint ----------

# A seat's class in a position with every hand known (the review's solver), as the answer
# to "could it have got away?" and as a clause.
GET_AWAY_ANSWER = {"safe": N_("Yes"), "open": N_("Only with help or luck"), "lost": N_("No")}
GET_AWAY_CLASS = {
    "safe": N_("could force its getting away, whatever the others did and whatever was drawn"),
    "open": N_("could not force its getting away, but some play by everyone (and some card drawn) let it get away"),
    "lost": N_("could not get away, whatever anyone played and whatever was drawn"),
}
# The review's words for a class and a verdict (docs/review.md), as a sentence says them.
CLASS_WORDS = {"safe": N_("safe"), "open": N_("open"), "lost": N_("lost"), "got away": N_("got away")}
MARK_WORDS = {"blunder": N_("a blunder"), "mistake": N_("a mistake"), "inaccuracy": N_("an inaccuracy")}


def get_away_answer(cls: str) -> str:
    return _(GET_AWAY_ANSWER[cls])


def get_away_class(cls: str) -> str:
    return _(GET_AWAY_CLASS[cls])


def class_word(cls: str) -> str:
    return _(CLASS_WORDS[cls]) if cls in CLASS_WORDS else cls


def percent(chance: float) -> str:
    """A chance as the review prints it: "83%"."""
    return f"{round(100 * chance)}%"


def review_class(seat: str, trick: int, held: int, before: str) -> str:
    """The exact answer before the seat's play: "Yes: before its play to trick 12, East
    could force its getting away, whatever the others did (exact, 10 cards held)"."""
    return _("{answer}: before its play to trick {trick}, {seat} {why} (exact, {cards} held)").format(
        answer=_(GET_AWAY_ANSWER[before]), trick=trick, seat=seat, why=_(GET_AWAY_CLASS[before]), cards=cards(held))


def review_play(seat: str, action: str, verdict: str, after: str, best: str, better: Sequence[str]) -> str:
    """The exact verdict on the play: "East's J♣ was a blunder, leaving it open: A♥ or A♦
    kept it safe"; "East's 7♦ was the only move that kept it safe"."""
    if verdict == "blunder":
        return _("{seat}'s {action} was a blunder, leaving it {after}: {better} kept it {best}").format(
            seat=seat, action=action, after=class_word(after), better=_(" or ").join(better), best=class_word(best))
    if verdict == "only move":
        return _("{seat}'s {action} was the only move that kept it safe").format(seat=seat, action=action)
    if verdict == "forced":
        return _("{seat}'s {action} was forced (its one legal choice), leaving it {after}").format(
            seat=seat, action=action, after=class_word(after))
    return _("{seat}'s {action} kept it {after}, as well as any other choice").format(
        seat=seat, action=action, after=class_word(after))


def review_chances(seat: str, action: str, before: float, after: float, samples: int, mark: str) -> str:
    """The sampled verdict: "Not proven: from what East could know, its chance of losing was
    50% had it played as the sensible bot would, and 83% after its 5♥ (12 samples): a
    blunder"."""
    said = ngettext("Not proven: from what {seat} could know, its chance of losing was {before} had it played as "
                    "the sensible bot would, and {after} after its {action} ({samples} sample)",
                    "Not proven: from what {seat} could know, its chance of losing was {before} had it played as "
                    "the sensible bot would, and {after} after its {action} ({samples} samples)", samples).format(
        seat=seat, before=percent(before), after=percent(after), action=action, samples=samples)
    return said + (": " + (_(MARK_WORDS[mark]) if mark in MARK_WORDS else mark) if mark else "")


def review_unjudged(seat: str, action: str, why: str) -> str:
    """A play the review gave no verdict: "East's 7♦ was not reviewed: it was a mistake"."""
    return _("{seat}'s {action} was not reviewed: {why}").format(seat=seat, action=action, why=why)


def review_absent(seat: str, trick: int, out: bool) -> str:
    """The seat did not play to the trick."""
    return (_("{seat} had got away before trick {trick}") if out else _("{seat} did not play to trick {trick}")).format(
        seat=seat, trick=trick)


def review_after(seat: str, trick: int, chance: float) -> str:
    """The seat's chance of losing after the trick, from its own view."""
    return _("after trick {trick}, from what {seat} could know, its chance of losing was {chance}").format(
        trick=trick, seat=seat, chance=percent(chance))


def review_mistake(code: str, message: str, penalty: tuple[str, bool] | None) -> str:
    """A mistake where the review met it: "M201 renege: ...; penalised: East picks up the 3
    cards of trick 5 and leads trick 6" (``penalty``: its sentence, and whether the table
    applied it)."""
    said = f"{code} {message}"
    if penalty is not None:
        said += (_("; penalised: {penalty}") if penalty[1] else _("; the table did not apply the penalty: {penalty}")
                 ).format(penalty=penalty[0])
    return said


# Every seat's standing at one point of a game (review --at END / --after TRICK, ask --review
# without --seat; issue 35): the classes as docs/review.md defines them, a draw being luck
# (docs/rulings.md, ruling 11).
STANDING = {
    "safe": N_("safe: it gets away whatever the others play and whatever is drawn"),
    "open": N_("open: it can get away, but only if the others' play or the draw helps it"),
    "lost": N_("lost: it cannot get away, whatever anyone plays and whatever is drawn"),
    "got away": N_("has got away"),
}


def review_standing(seat: str, cls: str, draws: tuple[int, int] | None = None, chance: float | None = None,
                    budget: int | None = None, why: str = "") -> str:
    """One seat's standing: "East open: it can get away, ...; safe after 5 of 47 possible
    draws"; "South not settled: ..."; "West no exact class (...): its chance of losing,
    from what it could know, 40%"."""
    if cls in STANDING:
        said = f"{seat} {_(STANDING[cls])}"
        if draws is not None:
            said += _("; safe after {safe} of the {all} cards the draw may bring").format(safe=draws[0], all=draws[1])
        elif cls == "open":
            said += _("; its share of lucky draws unknown")
        return said
    if cls == "unsettled":
        return (_("{seat} not settled: the search stopped at its budget of {budget} positions").format(
            seat=seat, budget=f"{budget:,}") if budget is not None else _("{seat} not settled").format(seat=seat))
    said = (_("{seat} has no exact class ({why})") if why else _("{seat} has no exact class")).format(seat=seat, why=why)
    if chance is not None:
        said += _("; from what it could know, its chance of losing is {chance}").format(chance=percent(chance))
    return said


def review_position_head(where: str, trick: int | None, held: int) -> str:
    """ "At the end of the record (after trick 30, 8 cards held)"; "After trick 12 (…)"."""
    if where != "end":
        return _("After trick {trick} ({cards} held)").format(trick=trick, cards=cards(held))
    if trick is not None:
        return _("At the end of the record (after trick {trick}, {cards} held)").format(trick=trick, cards=cards(held))
    return _("At the end of the record ({cards} held)").format(cards=cards(held))


# Puzzles (getaway-ref puzzles; issue 41, item 4): a position where one card keeps the mover
# safe, as docs/review.md defines safe. A line is the solver's, each action in the record's words.

PUZZLE_CLASS = {
    "safe": N_("{card} keeps {seat} safe."),
    "open": N_("{card} leaves {seat} open (it gets away only if the others' play or the draw helps it)."),
    "lost": N_("{card} leaves {seat} lost."),
}
PUZZLE_END = {"got_away": N_("{seat} gets away"), "lost": N_("{seat} is left holding cards")}


def puzzle_task(seat: str, legal: int, solutions: int) -> str:
    """The puzzle's question: "South to play, 4 legal cards: which one keeps South safe?"."""
    if solutions == 1:
        return _("{seat} to play, {legal} legal cards: which one keeps {seat} safe, getting away whatever the "
                 "others play?").format(seat=seat, legal=legal)
    return _("{seat} to play, {legal} legal cards: which keep {seat} safe, getting away whatever the "
             "others play?").format(seat=seat, legal=legal)


def puzzle_answer(seat: str, card: int, cls: str, line: Sequence[str], end: str = "") -> str:
    """One card's answer with the solver's line: "K♣ keeps South safe. The solver's line:
    South K♣, East 5♠, ...; South gets away"; for another card its refutation."""
    said = _(PUZZLE_CLASS[cls]).format(card=C.card_str(card), seat=seat)
    if line:
        moves = ", ".join(line)
        if end in PUZZLE_END:
            moves = _("{moves}; {end}").format(moves=moves, end=_(PUZZLE_END[end]).format(seat=seat))
        said += " " + _("The solver's line: {moves}.").format(moves=moves)
    return said


def puzzle_played(seat: str, card: int) -> str:
    """A "my mistakes" puzzle: what the seat played in its game."""
    return _("In the game {seat} played {card} here.").format(seat=seat, card=C.card_str(card))


def puzzle_verdict(right: bool) -> str:
    """What the page says first when a card is picked."""
    return _("Right.") if right else _("Not this one.")


# ---- the hint (issue 41): the pimc bot's choice and each choice's chance of losing -----------------


def hint_sentence(seat: str, choice: str, options: Sequence[tuple[str, float]], samples: int, exact: bool,
                  trick: int | None = None) -> str:
    """The hint: "Hint for East now: 7♠ (chance of losing 12%). Each choice, from what East
    knows (16 deals of the cards East has not seen): 7♠ 12%, 9♠ 40%, takes North 55%"; where
    the seat knows every card and the solver settles it, "(exact: every card known)". With
    ``trick``, the hint before the seat's play to that trick of the record."""
    if exact:
        how = _("every card known, so one deal, the solver's verdict where it settles it, the bots' play where not")
    else:
        how = ngettext("{n} deal of the cards {seat} has not seen", "{n} deals of the cards {seat} has not seen",
                       samples).format(n=samples, seat=seat)
    each = _(", ").join(_("{choice} {chance}").format(choice=words, chance=percent(c)) for words, c in options)
    chance = next((c for words, c in options if words == choice), None)
    if trick is None:
        head = (_("Hint for {seat} now: {choice}") if chance is None else
                _("Hint for {seat} now: {choice} (chance of losing {chance})"))
    else:
        head = (_("Hint for {seat} before its play to trick {trick}: {choice}") if chance is None else
                _("Hint for {seat} before its play to trick {trick}: {choice} (chance of losing {chance})"))
    head = head.format(seat=seat, trick=trick, choice=choice, chance=percent(chance) if chance is not None else "")
    return _("{head}. Each choice, from what {seat} knows ({how}): {each}.").format(head=head, seat=seat, how=how,
                                                                                   each=each)


def hint_none(seat: str | None, why: str) -> str:
    """No hint: "No hint: the game is over"."""
    if seat:
        return _("No hint for {seat}: {why}.").format(seat=seat, why=why)
    return _("No hint: {why}.").format(why=why)


# ---- the editor's words (getaway-ref lsp; issue 40) -------------------------------------------------
# The hover, completion details, quick fixes, outline and hand sizes the editor server shows,
# said in the editor's language (its ``initialize`` locale). The position's facts already said
# by ``legal`` (its summary, the waste pile, the trick on the table) come from table/views.py.


def before_play(seat: str, card: str) -> str:
    """The hover's heading over a play: ``Before East K♣``."""
    return _("Before {seat} {card}").format(seat=seat, card=card)


def in_trick(trick: int) -> str:
    """``(trick 4)``: which trick a play belongs to."""
    return _("(trick {trick})").format(trick=trick)


def not_replayed(why: str) -> str:
    return _("the game cannot be replayed to this play: {why}").format(why=why)


def led_trick(seat: str, trick: int, why: EV.LeadReason, *, led: bool) -> str:
    """Who has the lead of the trick and why: ``North led trick 4: they played ...``;
    ``led``: the trick has begun (its lead is played)."""
    said = _("{seat} led trick {trick}: {why}") if led else _("{seat} leads trick {trick}: {why}")
    return said.format(seat=seat, trick=trick, why=lead_why(why))


def hand_size(seat: str, n: int | None) -> str:
    """One seat's hand size: ``North 9``; ``South out`` (None: the seat is out)."""
    if n is None:
        return _("{seat} out").format(seat=seat)
    return _("{seat} {n}").format(seat=seat, n=n)


def hands(sizes: Sequence[tuple[str, int, bool]]) -> str:
    """``hands: North 9, East 10 (out), ...``: each seat's cards, and whether it is out."""
    each = [(_("{seat} {n} (out)") if out else _("{seat} {n}")).format(seat=seat, n=n) for seat, n, out in sizes]
    return _("hands: {hands}").format(hands=_(", ").join(each))


def may_play(seat: str, action: str, cards: str | None, *, follow: str | None = None, unseen: int = 0) -> str:
    """What a seat may play now, in one line: ``East may play: 5♦ 9♦``; ``North may play: a ♠
    if it holds one (unseen cards: 13)``. ``action``: "lead" or "play"; ``cards``: the cards
    ("-" for none; None: not known); ``follow``: the suit it must follow if it holds one
    (None with ``cards`` None: any card); ``unseen``: its cards nobody has seen."""
    if cards is None:
        cards = _("a {suit} if it holds one").format(suit=follow) if follow else _("any card")
    said = (_("{seat} may lead: {cards}") if action == "lead" else _("{seat} may play: {cards}")).format(
        seat=seat, cards=cards)
    return said + (_(" (unseen cards: {n})").format(n=unseen) if unseen else "")


def may_not(what: str) -> str:
    return _("may not: {cards}").format(cards=what)


def not_to_play(seat: str) -> str:
    return _("{seat} is not among those who may play now").format(seat=seat)


def may_play_now() -> str:
    """A seat's completion detail: it may play to the trick now."""
    return _("may play now")


def seat_word() -> str:
    return _("seat")


def may_play_it(seat: str, action: str) -> str:
    """A card's completion detail: the seat may play (or lead) it now."""
    return (_("{seat} may lead it") if action == "lead" else _("{seat} may play it")).format(seat=seat)


def only_if_void(seat: str, suit: str) -> str:
    """A card of an unseen hand, of another suit than the one led."""
    return _("only if {seat} holds no {suit}").format(seat=seat, suit=suit)


def may_hold(seat: str) -> str:
    return _("{seat} may hold it").format(seat=seat)


def add_rules_fix(tag: str) -> str:
    """A quick fix: write the project's default rule set's tag (``[Rules "denexa"]``) in a game."""
    return _("Add {tag} (the project's default rule set)").format(tag=tag)


def sort_hand_fix(seat: str) -> str:
    return _("Sort {seat}'s hand").format(seat=seat)


def trick_name(trick: int) -> str:
    """A trick in the outline: ``trick 4``."""
    return _("trick {trick}").format(trick=trick)


def game_name(game: int, event: str | None = None) -> str:
    """A game in the outline: ``game 2``, ``game 2: Pagat's worked example``."""
    if event:
        return _("game {game}: {event}").format(game=game, event=event)
    return _("game {game}").format(game=game)
