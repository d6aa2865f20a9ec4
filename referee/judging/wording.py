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

# How a mistake's help opens: the penalty of ruling 1 follows, told by penalty_sentence.
PENALTY_HELP = "penalty (ruling 1): "

# Why a seat leads (the engine's LeadReason), as a reason clause: "North leads trick 5: ...".
LEAD_WHY: dict[EV.LeadReason, str] = {
    EV.LeadReason.ACE: "they hold the ace of spades, which opens the first trick",
    EV.LeadReason.POWER: "they played the highest card of the suit led (or the highest trump) to the last trick",
    EV.LeadReason.TAKE: "the seat due to lead had its hand taken, and the lead passed on",
    EV.LeadReason.PASS_LEAD: "the seat with the power got away with its last card, and the lead passed on",
    EV.LeadReason.PENALTY: f"they picked up a trick as the penalty for a mistake ({R.ruling(1)})",
    EV.LeadReason.DRAW: "they had the power and no card, and lead the card they drew",
    EV.LeadReason.POSITION: "the position written in the record says so",
    EV.LeadReason.TABLE: "they led out of turn and the table played on",
}

# The same reasons as a verb phrase: "North has the power and leads trick 5".
LEADS: dict[EV.LeadReason, str] = {
    EV.LeadReason.ACE: "holds the ace of spades and leads",
    EV.LeadReason.POWER: "has the power and leads",
    EV.LeadReason.TAKE: "leads (the hand due to lead was taken)",
    EV.LeadReason.PASS_LEAD: "leads (the lead passed on)",
    EV.LeadReason.PENALTY: "picked up the trick as the penalty and leads",
    EV.LeadReason.DRAW: "leads the card drawn in",
    EV.LeadReason.POSITION: "leads",
    EV.LeadReason.TABLE: "leads",
}


def cards(n: int) -> str:
    """``1 card``, ``4 cards``."""
    return f"{n} card{'s' if n != 1 else ''}"


def card_list(cs: Sequence[int]) -> str:
    return " ".join(C.card_str(c) for c in cs)


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def listed(parts: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    parts = [p for p in parts if p]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def lead_why(why: EV.LeadReason) -> str:
    return LEAD_WHY.get(why, "")


def leads(why: EV.LeadReason) -> str:
    return LEADS.get(why, "leads")


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
    if leader is not None and leader != seat:
        then = f"; {leader} leads" + (f" trick {next_trick}" if next_trick is not None and told != "note" else "")
    else:
        then = " and leads" + (f" trick {next_trick}" if next_trick is not None and told != "note" else "")
    if told == "note":
        return f"{seat} picks up {cards(n)}" + then
    if told == "trick":
        return pickup(seat, n, penalty=True) + (then if next_trick is not None else "")
    took = f"{seat} picks up " + ("the card" if n == 1 else f"the {n} cards") + f" of trick {trick}"
    return took + (then if next_trick is not None else "; the game is over")


def penalty_sentence(seat: str, n: int, trick: int, next_trick: int | None, leader: str | None = None) -> str:
    """The penalty as the referee states it (:func:`penalty_words`)."""
    return penalty_words(seat, n, trick, next_trick, leader=leader)


def penalty_help(seat: str, n: int, trick: int, next_trick: int | None, leader: str | None = None) -> str:
    """A mistake's help: the penalty, as the referee states it."""
    return PENALTY_HELP + penalty_words(seat, n, trick, next_trick, leader=leader)


def penalty_missed_help(seat: str, trick: int) -> str:
    """The help of a renege proved later, when the trick has long been played on."""
    return PENALTY_HELP + penalty_missed(seat, trick)


def penalty_missed(seat: str, trick: int) -> str:
    """A penalty the table did not apply, long played on: what should have happened."""
    return f"{seat} should have picked up trick {trick} and led trick {trick + 1}"


# ---- why a card may be played ------------------------------------------------------------------


def must_follow(suit: int) -> str:
    """A seat that holds the suit led: ``must follow ♦``."""
    return f"must follow {C.SUIT_SYMBOLS[suit]}"


def following(suit: int) -> str:
    """Whose turn it is in a trick: ``following ♦ if able``."""
    return f"following {C.SUIT_SYMBOLS[suit]} if able"


def follow_if_able(suit: int) -> str:
    """The rest of a trick played on after a mistake: the ordinary rules."""
    return following(suit) + " (a tochoo ends the trick)"


def to_play(seat: str, reasons: Sequence[EV.LegalReason], led: int, trump: int | None, *,
            trick: int | None = None, played_on: bool = False) -> str:
    """Who plays next to the trick on the table and what the rule asks of them, from the
    engine's answer (``Engine.duty``: the reasons in the order the rule tries them), as the
    table needs it mid-trick: ``South to play, following ♥ if able``; ``South to play, and
    must follow ♥`` (a hand known to hold one); ``South to play: no ♥, so any card``.
    ``trick``: said as ``to play to trick 3``; ``played_on``: the trick goes on after a
    mistake nobody penalised, where a tochoo ends it."""
    head = f"{seat} to play" + (f" to trick {trick}" if trick is not None else "")
    sym = C.SUIT_SYMBOLS[led]
    first = reasons[0] if reasons else EV.LegalReason.OFF_SUIT
    trumps = f", else a trump {C.SUIT_SYMBOLS[trump]}" if trump is not None and EV.LegalReason.TRUMP in reasons else ""
    tail = " (a tochoo ends the trick)" if played_on else ""
    if first in (EV.LegalReason.FOLLOW, EV.LegalReason.FIRST_TRICK_SPADE):
        if len(reasons) == 1:
            return f"{head}, and {must_follow(led)}"
        return f"{head}, {following(led)}{trumps}{tail}"
    if first is EV.LegalReason.TRUMP and trump is not None:
        return f"{head}: no {sym}, so a trump {C.SUIT_SYMBOLS[trump]}" + (" if able" if len(reasons) > 1 else "")
    return f"{head}: no {sym}, so any card{tail}"


def another_suit(led: int, *, first: bool, donkey: bool, trump: int | None) -> str:
    """What a card of another suit than the one led does now (Pagat, First trick; Second
    and subsequent tricks; Donkey): the legal answer's last word on a follow."""
    if first:
        return "a card of another suit does not end the first trick"
    if donkey and trump is None:
        return "a card of another suit makes trumps and does not end the trick"
    if trump is not None:
        return (f"a card of neither {C.SUIT_SYMBOLS[led]} nor the trump {C.SUIT_SYMBOLS[trump]} is a tochoo: "
                "it ends the trick")
    return "a card of another suit is a tochoo: it ends the trick"


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
        return (must_follow(led) if exact or not holds else f"{must_follow(led)}: it holds {held}"), "another suit"
    if follow:  # unseen cards that may hold the suit led
        rule = f"{must_follow(led)} if it holds one"
        if EV.LegalReason.TRUMP in reasons:
            rule += f", else a trump {t} if it holds one"
        return rule + ", else any card", f"another suit while holding a {C.suit_name(led)}"
    if first == EV.LegalReason.TRUMP and len(reasons) == 1:
        return (f"holds no {led_sym}: must play a trump {t}",
                f"anything but a trump {t}" if exact else f"a suit other than the trump {t}")
    if first == EV.LegalReason.TRUMP:
        return f"holds no {led_sym}: must play a trump {t} if it holds one, else any card", None
    return f"holds no {led_sym}" + (f" (shown in trick {shown_in})" if shown_in else "") + ": any card", None


# ---- events told in words ------------------------------------------------------------------------


def pickup(seat: str, n: int, *, penalty: bool = False) -> str:
    return f"{seat} picks up {cards(n)}" + (" as the penalty" if penalty else "")


def lead_clause(seat: str, trick: int, why: EV.LeadReason | None = None) -> str:
    """``South leads trick 5`` (with the reason in brackets when given)."""
    return f"{seat} leads trick {trick}" + (f" ({LEAD_WHY[why]})" if why is not None and why in LEAD_WHY else "")


def lead_passes(seat: str, trick: int) -> str:
    """The seat due to lead had its hand taken (docs/rulings.md, ruling 3): ``the lead
    passes on: West leads trick 10``."""
    return f"the lead passes on: {seat} leads trick {trick}"


def got_away(seat: str, place: int) -> str:
    return f"{seat} gets away" + (f" ({ordinal(place)})" if place else "")


def opens_first_trick(ace: str) -> str:
    """What the first lead must be (the rule, for ``legal``): ``A♠ opens the first trick``."""
    return f"{ace} opens the first trick"


def draw_due(seat: str, source: str) -> str:
    return f"{seat} has the power and no card left, so draws from {source} and leads the card"


def no_card_draws(source: str) -> str:
    """Said after ``West ... has the power`` when the seat won with its last card and the
    draw is not yet written: `` but no card: must draw from the waste pile and lead it``."""
    return f" but no card: must draw from {source} and lead it"


def no_card_drew(card: int, source: str | None, trick: int | None) -> str:
    """Said after ``West ... has the power`` when the seat won with its last card and the
    record gives the card it drew: `` but no card: draws 7♦ and leads trick 21`` (the
    source said when it is a hand, not the waste pile)."""
    return (f" but no card: draws {C.card_str(card)}" + (f" from {source}" if source else "")
            + (f" and leads trick {trick}" if trick is not None else " and leads it"))


def by_choice(seat: str, card: int, lower: int) -> str:
    """Ruling 8, as the verdict's opening: ``East played K♦ by choice, holding the lower
    3♦ (docs/rulings.md, ruling 8)``."""
    return f"{seat} played {C.card_str(card)} by choice, holding the lower {C.card_str(lower)} ({R.ruling(8)})"


def made_trumps(seat: str, card: int, suit: int) -> str:
    """Donkey: ``East's K♦ made diamonds trumps``."""
    return f"{seat}'s {C.card_str(card)} made {C.suit_name(suit, True)} trumps"


def source_words(source: int | None, seats: Sequence[str]) -> str:
    """Where a draw comes from: the waste pile, a seat's hand, or any other hand."""
    if source is None:
        return "the waste pile"
    if source == EV.ANY_SOURCE or source < 0:
        return "any other player's hand"
    return f"{seats[source]}'s hand"


def out_holding(seat: str, n: int, two_players: str | None) -> str:
    """Why a seat counts as got away while it still holds cards. ``two_players``: the
    source of the two-player ending that put it out (Pagat, Getaway: Two players; Denexa's
    shootout), None when the game ended otherwise."""
    if two_players is not None:
        return (f"{seat} holds {cards(n)} yet is out of the game: with two players left, a tochoo on a card "
                f"drawn and led loses the leader the game at once, and the other player is out, whatever they "
                f"still hold ({two_players})")
    return f"{seat} is out of the game though its hand holds {cards(n)}"


def game_over(loser: str, legs: int | None, donkey: bool) -> str:
    if donkey and legs is not None:
        return f"the game is over: {loser} is the donkey ({legs} leg{'s' if legs != 1 else ''})"
    return f"the game is over: {loser} is left holding cards and loses"


def took(taker: str, target: str) -> str:
    return f"{taker} takes {target}'s hand"


def drew(seat: str, card: int, source: str | None) -> str:
    return f"{seat} draws {C.card_str(card)}" + (f" from {source}" if source else "") + " and leads it"


# ---- how a trick ended (ask, show --narrate, the replay page and live tell it alike) -----------


def highest(kind: str, card: int) -> str:
    """``, with the highest heart (6♥),``: the card that won a trick (``kind``: the name of
    the suit led, or ``trump``)."""
    return f", with the highest {kind} ({C.card_str(card)}),"


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
        head = f"the trick goes to the waste pile; {seat}{high} has the power"
    else:
        head = ("the trick ends; " if ends else "") + pickup(seat + high, n)
    return head + (f" and leads trick {leads}" if leads is not None else "")


def trumps_set(suit: int) -> str:
    """Donkey: ``♥ hearts are trumps``."""
    return f"{C.SUIT_SYMBOLS[suit]} {C.suit_name(suit, True)} are trumps"


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
        return seats[s] if s is not None and 0 <= s < len(seats) else "nobody"

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
            parts.append(drew(name(ev.seat), ev.card, f"{seats[ev.source]}'s hand"
                              if ev.source is not None and ev.source >= 0 else None))
        elif isinstance(ev, EV.GameOver):
            parts.append(game_over(name(ev.loser), ev.legs, donkey))
        elif isinstance(ev, EV.TrumpsSet):
            parts.append(trumps_set(ev.suit))
    return "; ".join(parts)


# ---- the review's answers (issue 28, branch review): ask, show --narrate, live's hint ----------

# A seat's class in a position with every hand known (the review's solver), as the answer
# to "could it have got away?" and as a clause.
GET_AWAY_ANSWER = {"safe": "Yes", "open": "Only with help or luck", "lost": "No"}
GET_AWAY_CLASS = {
    "safe": "could force its getting away, whatever the others did and whatever was drawn",
    "open": "could not force its getting away, but some play by everyone (and some card drawn) let it get away",
    "lost": "could not get away, whatever anyone played and whatever was drawn",
}


def percent(chance: float) -> str:
    """A chance as the review prints it: "83%"."""
    return f"{round(100 * chance)}%"


def review_class(seat: str, trick: int, held: int, before: str) -> str:
    """The exact answer before the seat's play: "Yes: before its play to trick 12, East
    could force its getting away, whatever the others did (exact, 10 cards held)"."""
    return (f"{GET_AWAY_ANSWER[before]}: before its play to trick {trick}, {seat} {GET_AWAY_CLASS[before]} "
            f"(exact, {cards(held)} held)")


def review_play(seat: str, action: str, verdict: str, after: str, best: str, better: Sequence[str]) -> str:
    """The exact verdict on the play: "East's J♣ was a blunder, leaving it open: A♥ or A♦
    kept it safe"; "East's 7♦ was the only move that kept it safe"."""
    if verdict == "blunder":
        return f"{seat}'s {action} was a blunder, leaving it {after}: {' or '.join(better)} kept it {best}"
    if verdict == "only move":
        return f"{seat}'s {action} was the only move that kept it safe"
    if verdict == "forced":
        return f"{seat}'s {action} was forced (its one legal choice), leaving it {after}"
    return f"{seat}'s {action} kept it {after}, as well as any other choice"


def review_chances(seat: str, action: str, before: float, after: float, samples: int, mark: str) -> str:
    """The sampled verdict: "Not proven: from what East could know, its chance of losing was
    50% had it played as the sensible bot would, and 83% after its 5♥ (12 samples): a
    blunder"."""
    said = (f"Not proven: from what {seat} could know, its chance of losing was {percent(before)} had it "
            f"played as the sensible bot would, and {percent(after)} after its {action} ({samples} samples)")
    return said + (f": {'an' if mark[0] in 'aeiou' else 'a'} {mark}" if mark else "")


def review_unjudged(seat: str, action: str, why: str) -> str:
    """A play the review gave no verdict: "East's 7♦ was not reviewed: it was a mistake"."""
    return f"{seat}'s {action} was not reviewed: {why}"


def review_absent(seat: str, trick: int, out: bool) -> str:
    """The seat did not play to the trick."""
    return f"{seat} had got away before trick {trick}" if out else f"{seat} did not play to trick {trick}"


def review_after(seat: str, trick: int, chance: float) -> str:
    """The seat's chance of losing after the trick, from its own view."""
    return f"after trick {trick}, from what {seat} could know, its chance of losing was {percent(chance)}"


def review_mistake(code: str, message: str, penalty: tuple[str, bool] | None) -> str:
    """A mistake where the review met it: "M201 renege: ...; penalised: East picks up the 3
    cards of trick 5 and leads trick 6" (``penalty``: its sentence, and whether the table
    applied it)."""
    said = f"{code} {message}"
    if penalty is not None:
        said += ("; penalised: " if penalty[1] else "; the table did not apply the penalty: ") + penalty[0]
    return said


# Every seat's standing at one point of a game (review --at END / --after TRICK, ask --review
# without --seat; issue 35): the classes as docs/review.md defines them, a draw being luck
# (docs/rulings.md, ruling 11).
STANDING = {
    "safe": "safe: it gets away whatever the others play and whatever is drawn",
    "open": "open: it can get away, but only if the others' play or the draw helps it",
    "lost": "lost: it cannot get away, whatever anyone plays and whatever is drawn",
    "got away": "has got away",
}


def review_standing(seat: str, cls: str, draws: tuple[int, int] | None = None, chance: float | None = None,
                    budget: int | None = None, why: str = "") -> str:
    """One seat's standing: "East open: it can get away, ...; safe after 5 of 47 possible
    draws"; "South not settled: ..."; "West no exact class (...): its chance of losing,
    from what it could know, 40%"."""
    if cls in STANDING:
        said = f"{seat} {STANDING[cls]}"
        if draws is not None:
            said += f"; safe after {draws[0]} of the {draws[1]} cards the draw may bring"
        elif cls == "open":
            said += "; its share of lucky draws unknown"
        return said
    if cls == "unsettled":
        return (f"{seat} not settled: the search stopped at its budget of {budget:,} positions"
                if budget is not None else f"{seat} not settled")
    said = f"{seat} has no exact class" + (f" ({why})" if why else "")
    if chance is not None:
        said += f"; from what it could know, its chance of losing is {percent(chance)}"
    return said


def review_position_head(where: str, trick: int | None, held: int) -> str:
    """ "At the end of the record (after trick 30, 8 cards held)"; "After trick 12 (…)"."""
    if where != "end":
        return f"After trick {trick} ({cards(held)} held)"
    return "At the end of the record (" + (f"after trick {trick}, " if trick is not None else "") + f"{cards(held)} held)"


# ---- the hint (issue 41): the pimc bot's choice and each choice's chance of losing -----------------


def hint_sentence(seat: str, choice: str, options: Sequence[tuple[str, float]], samples: int, exact: bool,
                  where: str = "now") -> str:
    """The hint: "Hint for East now: 7♠ (chance of losing 12%). Each choice, from what East
    knows (16 deals of the cards East has not seen): 7♠ 12%, 9♠ 40%, takes North 55%"; where
    the seat knows every card and the solver settles it, "(exact: every card known)"."""
    how = ("every card known, so one deal, the solver's verdict where it settles it, the bots' play where not"
           if exact else f"{samples} deal{'s' if samples != 1 else ''} of the cards {seat} has not seen")
    each = ", ".join(f"{words} {percent(c)}" for words, c in options)
    chance = next((c for words, c in options if words == choice), None)
    head = f"Hint for {seat} {where}: {choice}" + (f" (chance of losing {percent(chance)})" if chance is not None else "")
    return f"{head}. Each choice, from what {seat} knows ({how}): {each}."


def hint_none(seat: str | None, why: str) -> str:
    """No hint: "No hint: the game is over"."""
    return f"No hint{' for ' + seat if seat else ''}: {why}."
