"""Questions about a game, answered in one sentence: ``ask``, ``show --narrate``, and
``why``/``who leads``/``hands`` in ``live``.

Nothing here decides anything. A game is walked item by item (:func:`walk`): for each play,
take, draw or count, the engine before and after it, what the engine says happened (its
events: a trick to the waste pile, a pickup, a seat getting away, the lead, the end), and the
diagnostics ``check`` reports at that item. The sentences only put those answers into words:
a play is called a mistake exactly when the referee reported one at it, with the referee's
own message, rule note and penalty; a tochoo is called legal only when the referee reported
nothing at it, and the reason given (the seat's known hand, or the void it showed) is read
from the engine's state before the play.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence, Union

from referee.engine import cards as C
from referee.engine import citations as R
from referee.engine import state as E
from referee.engine.rules import RuleSet
from referee.engine import events as EV
from referee.judging.referee import GameResult, Step
from referee.judging.replay import replay
from referee.notation.record import Counts, Draw, Game, Play, Span, Take
from referee.commands import UsageError, rules_options
from referee.reports.diagnostics import PENALTY_HELP, Diagnostic
from referee.reports.render import print_error
from referee.reports.text import safe, safe_path
from referee.table.entry import seat_matches
from referee.table.views import TableError, read_clean_game

Item = Union[Play, Take, Draw, Counts]


@dataclass
class Walk:
    game: Game
    result: GameResult  # the whole game judged, as check judges it
    start: Optional[E.Engine]  # the state before the first item
    steps: list[Step]
    loose: list[Diagnostic]  # diagnostics at no item (the deal, the header, the result tag)


def _spans(item: Item) -> list[Span]:
    if isinstance(item, Play):
        return [item.card_span, item.seat_span]
    spans = [item.span]
    if isinstance(item, Draw):
        spans.append(item.card_span)
    if isinstance(item, Take):
        spans.append(item.target_span)
    return spans


def walk(game: Game, default: Optional[RuleSet] = None, overrides: Optional[dict[str, object]] = None) -> Walk:
    """Every item of a game with the engine before and after it, its events and its
    diagnostics: the referee's one replay (:func:`referee.judging.replay.replay`), as
    ``check`` judges it; each diagnostic placed at the item it points at."""
    r = replay(game, default, snapshots=True, overrides=overrides)
    raw = list(r)
    full = r.result
    end = full.engine
    start = raw[0].before if raw else end
    if start is None:
        return Walk(game, full, None, [], list(full.diagnostics))
    steps: list[Step] = []
    for k, st in enumerate(raw):
        # A step's ``after`` is the referee's live engine: the next step's copy of the state
        # before it is this step's state after it.
        after = raw[k + 1].before if k + 1 < len(raw) else (end if end is not None else st.after)
        steps.append(Step(st.item, st.trick, st.before, after, list(st.events), []))
    loose: list[Diagnostic] = []
    for d in full.diagnostics:
        hit = None
        if d.span is not None:
            for st in steps:
                if any(sp.line == d.span.line and sp.start <= d.span.start < max(sp.end, sp.start + 1)
                       for sp in _spans(st.item) if sp.line):
                    hit = st
                    break
        if hit is None:
            loose.append(d)
        else:
            hit.diagnostics.append(d)
    return Walk(game, full, start, steps, loose)


# ---- words ---------------------------------------------------------------------------------------


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def _list(parts: Sequence[str]) -> str:
    parts = [p for p in parts if p]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def penalty_applied(d: Diagnostic) -> Optional[bool]:
    """Whether the table applied the penalty for a mistake (the referee's finding), or None
    when there is no penalty."""
    if d.penalty is not None:
        return d.penalty.applied
    if not d.code.startswith("M"):
        return None
    return not any(n.startswith("the penalty was not applied") for n in d.notes)


def _applied(d: Diagnostic) -> str:
    if penalty_applied(d) is False:
        return "the table did not apply it, and the referee follows the record as played"
    return "the table applied it"


def rule_of(d: Diagnostic) -> str:
    """The rule a diagnostic cites (its first note that is not about the penalty's fate)."""
    rules = [n for n in d.notes if not n.startswith("the penalty was")]
    return rules[0] if rules else ""


def diagnostic_sentence(d: Diagnostic) -> str:
    """A diagnostic in words: what happened, the rule, the penalty and whether the table
    applied it (a mistake), or why the record cannot be true (a record error)."""
    rule = rule_of(d)
    if d.code.startswith("M") and d.is_error:
        penalty = (d.help or "").replace(PENALTY_HELP, "")
        return (f"a mistake ({d.code}): {d.message}" + (f" — rule: {rule}" if rule else "")
                + (f"; penalty: {penalty}; {_applied(d)}" if penalty else ""))
    kind = "a record error" if d.code.startswith("R") and d.is_error else f"a {d.severity}"
    return f"{kind} ({d.code}): {d.message}" + (f" — {d.help}" if d.help else "")


def _why_tochoo(before: E.Engine, s: int, seats: Sequence[str]) -> str:
    """Why an off-suit card was legal, from the engine's state before it."""
    led = before.led
    name = seats[s]
    suit = C.suit_name(led, True)
    if before.unknown[s] == 0:
        return f"{name} held no {suit}"
    since = before.unseen_void(s, led)
    if since is not None:
        return f"{name} had shown no {suit} since trick {since}" if isinstance(since, int) else \
            f"{name} had shown no {suit} before"
    return f"{name}'s hand is unseen and nothing shows a {suit[:-1]} in it"


def play_phrase(st: Step, seats: Sequence[str]) -> str:
    """One play: who played what, and what the engine says it did (a lead, a follow, a
    tochoo, a trump, a discard), or that the referee reported a mistake at it."""
    p = st.item
    assert isinstance(p, Play)
    b = st.before
    name, card = seats[p.seat], C.card_str(p.card)
    mistakes = [d for d in st.diagnostics if d.is_error]
    if mistakes:
        return f"{name} played {card} (a mistake: {', '.join(d.code for d in mistakes)}, below)"
    played = next((ev for ev in st.events if isinstance(ev, EV.Played) and ev.seat == p.seat and ev.card == p.card), None)
    effect = played.effect if played is not None else None
    if effect is EV.Effect.LEADS:
        return f"{name} led {card}"
    if effect is EV.Effect.FOLLOWS:
        return f"{name} followed with {card}"
    if effect is EV.Effect.TRUMPS:
        made = [ev for ev in st.events if isinstance(ev, EV.TrumpsSet)]
        if made:
            return f"{name} could not follow and played {card}, making {C.suit_name(made[0].suit, True)} trumps"
        return f"{name} trumped with {card} ({_why_tochoo(b, p.seat, seats)})"
    if effect is EV.Effect.DISCARD:
        return f"{name} discarded {card} ({_why_tochoo(b, p.seat, seats)}; no card ends the first trick)"
    if effect is EV.Effect.TOCHOO:
        return f"{name}'s {card} was a legal tochoo ({_why_tochoo(b, p.seat, seats)})"
    return f"{name} played {card}"


def _winning_card(trick: list[tuple[int, int]], w: int) -> Optional[int]:
    for s, c in trick:
        if s == w:
            return c
    return None


def events_sentence(st: Step, seats: Sequence[str]) -> str:
    """What followed an item, from the engine's events: the end of the trick, who picks up,
    who gets away, who leads and why, a draw due, the end of the game."""
    parts: list[str] = []
    a = st.after
    evs = [ev for ev in st.events if not isinstance(ev, (EV.Played, EV.TrumpsSet))]
    said_lead: set[int] = set()
    for k, ev in enumerate(evs):
        if isinstance(ev, (EV.PickedUp, EV.TrickToWaste)):
            w = ev.seat if isinstance(ev, EV.PickedUp) else ev.winner
            trick = [(x.seat, x.card) for x in st.events if isinstance(x, EV.Played)]
            trick = a.last_trick or trick
            card = _winning_card(trick, w)
            led = C.SUIT[trick[0][1]] if trick else None
            high = ""
            if card is not None and led is not None:
                kind = "trump" if a.trumps and C.SUIT[card] == a.trump and C.SUIT[card] != led else C.suit_name(led)
                high = f", with the highest {kind} ({C.card_str(card)}),"
            leads = any(isinstance(e2, EV.Leads) and e2.seat == w for e2 in evs[k:])
            if leads:
                said_lead.add(w)
            if isinstance(ev, EV.PickedUp):
                parts.append(f"the trick ends; {seats[w]}{high} picks up {_cards(ev.cards)}"
                             + (f" and leads trick {a.trick_no}" if leads else ""))
            else:
                parts.append(f"the trick goes to the waste pile; {seats[w]}{high} has the power"
                             + (f" and leads trick {a.trick_no}" if leads else ""))
        elif isinstance(ev, EV.Penalty):
            said_lead.add(ev.seat)
            parts.append(f"{seats[ev.seat]} picks up {_cards(ev.cards)} as the penalty and leads trick {a.trick_no}")
        elif isinstance(ev, EV.GotAway):
            place = a.out_order.index(ev.seat) + 1 if ev.seat in a.out_order else 0
            parts.append(f"{seats[ev.seat]} gets away" + (f" ({_ordinal(place)})" if place else ""))
        elif isinstance(ev, EV.Leads):
            if ev.seat not in said_lead:
                parts.append(f"{seats[ev.seat]} leads trick {a.trick_no} ({LEAD_WHY[ev.why]})")
        elif isinstance(ev, EV.DrawDue):
            src = ev.source
            where = ("the waste pile" if src is None else "any other player's hand" if src == EV.ANY_SOURCE
                     else f"{seats[src]}'s hand")
            parts.append(f"{seats[ev.seat]} has the power and no card left, so draws from {where} and leads the card")
        elif isinstance(ev, EV.Took):
            parts.append(f"{seats[ev.taker]} takes {seats[ev.target]}'s hand")
        elif isinstance(ev, EV.Drew):
            parts.append(f"{seats[ev.seat]} draws {C.card_str(ev.card)}"
                         + (f" from {seats[ev.source]}'s hand" if ev.source is not None and ev.source >= 0 else "")
                         + " and leads it")
        elif isinstance(ev, EV.GameOver):
            if a.trumps:
                parts.append(f"the game is over: {seats[ev.loser]} is the donkey ({ev.legs} leg{'s' if ev.legs != 1 else ''})")
            else:
                parts.append(f"the game is over: {seats[ev.loser]} is left holding cards and loses")
    return "; ".join(parts)


# Why a seat leads, in words (the engine's LeadReason).
LEAD_WHY = {
    EV.LeadReason.ACE: "they hold the ace of spades, which opens the first trick",
    EV.LeadReason.POWER: "they played the highest card of the suit led (or the highest trump) to the last trick",
    EV.LeadReason.TAKE: "the seat due to lead had its hand taken, and the lead passed on",
    EV.LeadReason.PASS_LEAD: "the seat with the power got away with its last card, and the lead passed on",
    EV.LeadReason.PENALTY: f"they picked up a trick as the penalty for a mistake ({R.ruling(1)})",
    EV.LeadReason.DRAW: "they had the power and no card, and lead the card they drew",
    EV.LeadReason.POSITION: "the position written in the record says so",
}


def item_sentence(st: Step, seats: Sequence[str]) -> str:
    """One non-play item (a take, a draw, a count) and what followed it."""
    it = st.item
    errs = [diagnostic_sentence(d) for d in st.diagnostics]
    if isinstance(it, Take):
        head = f"{seats[it.taker]} took {seats[it.target]}'s hand"
        follow = events_sentence(dataclasses.replace(st, events=[e for e in st.events if not isinstance(e, EV.Took)]), seats)
    elif isinstance(it, Draw):
        head = f"{seats[it.seat]} drew {C.card_str(it.card)}" + (
            f" from {seats[it.source]}'s hand" if it.source is not None else " from the waste pile")
        follow = events_sentence(dataclasses.replace(st, events=[e for e in st.events if not isinstance(e, EV.Drew)]), seats)
    elif isinstance(it, Counts):
        head = "the counts were stated (" + ", ".join(f"{seats[s]} {n}" for s, n in it.sizes) + ")"
        follow = events_sentence(st, seats)
        if not errs:
            head += " and agree with the replay"
    return head + (": " + "; ".join(errs) if errs else "") + (f"; {follow}" if follow else "")


# ---- tricks ------------------------------------------------------------------------------------


def tricks_of(w: Walk) -> list[int]:
    seen: list[int] = []
    for st in w.steps:
        if st.trick is not None and st.trick not in seen:
            seen.append(st.trick)
    return seen


def trick_sentence(w: Walk, number: int, seat: Optional[int] = None) -> str:
    """Trick ``number`` in one sentence: its plays, what the referee said of each, how it
    ended and who leads next; with ``seat``, that seat's part in it first."""
    seats = w.game.seats
    idx = [k for k, st in enumerate(w.steps) if st.trick == number]
    if not idx:
        raise KeyError(number)
    plays = [w.steps[k] for k in idx]
    # the items between this trick and the next (takes, draws, counts) belong to its story
    after: list[Step] = []
    for st in w.steps[idx[-1] + 1:]:
        if st.trick is not None:
            break
        after.append(st)
    phrases = []
    ends = []
    for st in plays:
        phrases.append(play_phrase(st, seats))
        follow = events_sentence(st, seats)
        if follow:
            ends.append(follow)
    mine = [st for st in plays if seat is not None and isinstance(st.item, Play) and st.item.seat == seat]
    told: set[int] = set()  # diagnostics already told in the seat's own phrase
    if seat is None:
        body = _list(phrases)
        sentence = f"Trick {number}: " + _cap(body) + "."
    elif not mine:
        sentence = f"Trick {number}: {seats[seat]} did not play to it; " + _list(phrases) + "."
    else:
        # the seat's play first, with the referee's verdict on it in full; the plays
        # before it as the setting
        k = plays.index(mine[0])
        setting = _list([play_phrase(st, seats) for st in plays[:k]])
        parts = []
        for st in mine:
            p = st.item
            assert isinstance(p, Play)
            errs = [d for d in st.diagnostics if d.is_error]
            if errs:
                parts.append(f"{seats[p.seat]}'s {C.card_str(p.card)} was "
                             + "; and ".join(diagnostic_sentence(d) for d in errs))
                told.update(id(d) for d in errs)
            else:
                parts.append(play_phrase(st, seats))
        later = [play_phrase(st, seats) for st in plays[k + 1:] if st not in mine]
        sentence = (f"Trick {number}" + (f", after {setting}" if setting else "") + ": " + "; ".join(parts)
                    + (f"; then {_list(later)}" if later else "") + ".")
    for st in plays:
        p = st.item
        assert isinstance(p, Play)
        for d in st.diagnostics:
            if id(d) not in told and (seat is None or p.seat == seat or d.is_error):
                sentence += f" {seats[p.seat]}'s {C.card_str(p.card)} was {diagnostic_sentence(d)}."
    sentence += "".join(" " + _cap(e) + "." for e in ends)
    for st in after:
        sentence += " " + _cap(item_sentence(st, seats)) + "."
    return sentence


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def narrate(w: Walk) -> list[str]:
    """The whole game, trick by trick, one paragraph a trick (takes and draws with the
    trick they follow), then the end."""
    seats = w.game.seats
    out: list[str] = []
    before_first = []
    for st in w.steps:
        if st.trick is not None:
            break
        before_first.append(_cap(item_sentence(st, seats)) + ".")
    if before_first:
        out.append("Before the first trick: " + " ".join(before_first))
    for d in w.loose:
        out.append(_cap(diagnostic_sentence(d)) + ".")
    for t in tricks_of(w):
        out.append(trick_sentence(w, t))
    res = w.result
    if res.stopped:
        out.append(f"The replay stops here: {res.stopped}.")
    elif not res.finished:
        e = w.steps[-1].after if w.steps else w.start
        if e is not None:
            out.append("The record ends before the game does; " + lead_phrase(w, e) + ".")
    return out


# ---- the state now -------------------------------------------------------------------------------


def lead_phrase(w: Walk, e: E.Engine) -> str:
    """Who is to act now and why, from the engine and the last events that set the lead."""
    seats = w.game.seats
    if e.phase == E.OVER:
        return f"the game is over: {seats[e.loser]} lost"
    if e.phase == E.DRAW_DUE:
        src = e.draw_source
        where = "the waste pile" if src is None else f"{seats[src]}'s hand" if isinstance(src, int) else "any other player's hand"
        return f"{seats[e.drawer]} has the power and no card, and must draw from {where}"
    if e.phase == E.BEFORE_FIRST:
        holder = e.ace_holder()
        ace = C.card_str(e.first_card())
        return (f"{seats[holder]} leads trick 1 with {ace}, holding it" if holder >= 0
                else f"whoever holds {ace} leads trick 1 with it")
    if e.phase == E.IN_TRICK:
        turn = e.to_act()
        if turn < 0:
            return f"trick {e.trick_no} is being played; any seat still to play may play"
        return f"{seats[turn]} is to play to trick {e.trick_no}, following {C.SUIT_SYMBOLS[e.led]} if able"
    # between tricks: the engine keeps why the seat leads
    if e.lead_why is EV.LeadReason.POWER and e.last_trick:
        card = _winning_card(e.last_trick, e.power)
        if card is not None:
            return (f"{seats[e.power]} leads trick {e.trick_no}: they played the highest card, "
                    f"{C.card_str(card)}, to trick {e.trick_no - 1}")
    return f"{seats[e.power]} leads trick {e.trick_no}: {LEAD_WHY[e.lead_why]}"



def hands_phrase(w: Walk, e: E.Engine) -> str:
    seats = w.game.seats
    parts = []
    for s in e.seq:
        if e.out[s]:
            parts.append(f"{seats[s]} got away ({_ordinal(e.out_order.index(s) + 1)})")
            continue
        known = e.known(s)
        shown = " ".join(C.card_str(c) for c in known)
        unseen = e.unknown[s]
        what = shown + (f" and {unseen} unseen" if unseen and known else "") if known else ("unseen" if unseen else "")
        parts.append(f"{seats[s]} {_cards(e.size(s))}" + (f" ({what})" if what and e.size(s) else ""))
    return "; ".join(parts) + f"; the waste pile has {_cards(e.waste_size())}"


def legal_phrase(w: Walk, e: E.Engine) -> str:
    """What may happen now, in one sentence: whose turn and why, the cards the engine allows
    (listed when the hand is known), and the takes allowed."""
    seats = w.game.seats
    text = lead_phrase(w, e)
    turn = e.to_act()
    if turn >= 0 and e.phase not in (E.OVER, E.DRAW_DUE):
        legal = C.cards_of(e.legal_cards(turn))
        if e.unknown[turn] == 0:
            text += f"; {seats[turn]} may play " + (" ".join(C.card_str(c) for c in legal) if legal else "nothing")
        elif legal:
            text += (f"; of the cards known in {seats[turn]}'s hand, {' '.join(C.card_str(c) for c in legal)} may "
                     "be played, and any unseen card the rules allow")
        else:
            text += f"; {seats[turn]}'s hand is unseen: any card in it that the rules allow"
    takes = e.takes()
    if takes:
        text += "; takes allowed now: " + ", ".join(f"{seats[a]} takes {seats[b]}" for a, b in takes)
    return _cap(text) + "."


def live_answer(question: str, game: Game, res: GameResult) -> str:
    """``why``, ``who leads``, ``hands`` in live: one sentence from the walk of the game so far."""
    w = walk(game, res.rules)
    e = w.steps[-1].after if w.steps else w.start
    if e is None:
        return f"the game cannot be replayed: {res.stopped}"
    if question.startswith("who"):
        return _cap(lead_phrase(w, e)) + "."
    if question == "hands":
        return _cap(hands_phrase(w, e)) + "."
    if question == "legal":
        return legal_phrase(w, e)
    # why: the last entry and what the referee made of it
    if not w.steps:
        return "Nothing has been played yet; " + lead_phrase(w, e) + "."
    last = w.steps[-1]
    if last.trick is not None:
        return trick_sentence(w, last.trick)
    return _cap(item_sentence(last, w.game.seats)) + "."




# ---- the commands ----------------------------------------------------------------------------------


def _load(file: Path, game: Optional[int], rules: Optional[str]) -> Walk:
    """The walk of one clean game; TableError if it cannot be had."""
    default, overrides = rules_options(rules, None, [])
    return walk(read_clean_game(file, game), default, overrides)


def narrate_command(file: Path, game: Optional[int], rules: Optional[str]) -> int:
    """``show FILE --narrate``: the game told trick by trick; exit 1 if the replay stops short."""
    try:
        w = _load(file, game, rules)
    except TableError as e:
        print_error(e.message)
        return e.code
    g = w.game
    # The file name, the [Event] tag and the seats are the user's text: escaped, as every
    # other command prints them (reports/text.py), never acted on by the terminal.
    print(safe_path(file) + safe(f", game {g.number}" + (f" — {g.tag('Event')}" if g.tag("Event") else "")
                                 + f" — rules {w.result.rules.spec() if w.result.rules else g.rules}"))
    for line in narrate(w):
        print(safe(line))
    return 1 if w.result.stopped else 0


def ask_command(file: Path, trick: int, seat: Optional[str] = None, game: Optional[int] = None,
                rules: Optional[str] = None) -> int:
    """``getaway-ref ask``: what happened in a trick, in one sentence (about one seat if
    ``seat`` names one)."""
    try:
        w = _load(file, game, rules)
    except TableError as e:
        print_error(e.message)
        return e.code
    seats = w.game.seats
    who = None
    if seat is not None:
        hits = seat_matches(seat, seats)
        if len(hits) != 1:
            raise UsageError(f"--seat {seat}: " + ("no seat of this game is called so" if not hits else
                             "it could be " + " or ".join(seats[h] for h in hits)) + f" (seats: {', '.join(seats)})")
        who = hits[0]
    if trick not in tricks_of(w):
        have = tricks_of(w)
        raise UsageError(f"--trick {trick}: game {w.game.number} has "
                         + (f"tricks {have[0]} to {have[-1]}" if have else "no tricks") + " in its record")
    print(ask_sentence(w, trick, who))
    return 1 if w.result.stopped else 0  # as every table command: 1 when the replay cannot reach the end


def ask_sentence(w: Walk, trick: int, seat: Optional[int] = None) -> str:
    return trick_sentence(w, trick, seat)
