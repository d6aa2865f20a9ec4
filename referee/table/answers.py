"""Questions about a game, answered from the replay: ``ask``, ``show --narrate``, and
``why``/``more``/``who leads``/``hands`` in ``live``.

Nothing here decides anything. A game is walked item by item (:func:`walk`): for each play,
take, draw or count, the engine before and after it, what the engine says happened (its
events: a trick to the waste pile, a pickup, the penalty, a seat getting away, the lead,
the end), and the diagnostics ``check`` reports at that item. How a trick ended is read from
those events once (:func:`outcome`): the last pickup the replay made of the trick (after a
penalty, the penalty's) and the last seat it set to lead, so that an answer names one
pickup and one leader, the replay's. A play is called a mistake exactly when the referee
reported one at it, with the referee's own message, rule note and penalty facts; a record
error is called an error in the record, never a mistake. The words are those of
:mod:`referee.judging.wording`.

An answer comes in two parts: the verdict, one short sentence (who did what, the penalty,
who picks up, who leads: :func:`verdict`), and the cited detail behind it
(:func:`trick_sentence`), given on request (``ask --explain``, ``more`` in ``live``). The
verdict keeps every fact it would be wrong without (a draw by the seat with the power and
no card, who made trumps, a take after the trick and who leads after it, a higher card by
choice: ruling 8), and mid-trick says who plays next and what the rule asks of them
(:func:`next_play`, from the engine's ``duty()``), as a live table needs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Union

from referee.archive.games import TableError, read_clean_game
from referee.commands import UsageError, rules_options
from referee.engine import cards as C
from referee.engine import events as EV
from referee.engine import state as E
from referee.engine.citations import is_citation
from referee.engine.codes import Code, say
from referee.engine.language import gettext as _
from referee.engine.language import ngettext
from referee.engine.rules import RuleSet
from referee.judging import wording as W
from referee.judging.referee import GameResult, Step
from referee.judging.replay import replay
from referee.notation.record import Counts, Draw, Game, Play, Span, Take
from referee.reports.diagnostics import Diagnostic
from referee.reports.render import print_error
from referee.reports.text import safe, safe_path
from referee.review.ask import could_get_away, standings_sentence, trick_review_sentence
from referee.review.hint import hint_at
from referee.review.review import GameReview, review_game
from referee.table.entry import seat_matches

Item = Union[Play, Take, Draw, Counts]


@dataclass
class Walk:
    game: Game
    result: GameResult  # the whole game judged, as check judges it
    start: E.Engine | None  # the state before the first item
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


def walk(game: Game, default: RuleSet | None = None, overrides: dict[str, object] | None = None) -> Walk:
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


_ordinal, _cards, _list, _cap = W.ordinal, W.cards, W.listed, W.cap


def penalty_applied(d: Diagnostic) -> bool | None:
    """Whether the table applied the penalty for a mistake (the referee's finding, kept in
    the diagnostic's penalty facts, the same in every language), or None when there is no
    penalty."""
    return d.penalty.applied if d.penalty is not None else None


def _applied(d: Diagnostic) -> str:
    if penalty_applied(d) is False:
        return _("the table did not apply it, and the referee follows the record as played")
    return _("the table applied it")


def rule_of(d: Diagnostic) -> str:
    """The rule a diagnostic cites: its first note that cites a source (a citation is the
    same in every language; the notes on the penalty's fate cite none), else its first note."""
    return next((n for n in d.notes if is_citation(n)), d.notes[0] if d.notes else "")


def penalty_words(d: Diagnostic) -> str:
    """The penalty of a mistake, told from its facts (the same words as its help)."""
    p = d.penalty
    if p is None:
        return ""
    if p.cards == 0:  # a renege proved later: what should have happened
        return W.penalty_missed(p.seat, p.trick)
    return W.penalty_sentence(p.seat, p.cards, p.trick, p.leads, p.leader)


def diagnostic_sentence(d: Diagnostic) -> str:
    """A diagnostic in words: what happened, the rule, the penalty and whether the table
    applied it (a mistake), or why the record cannot be true (a record error)."""
    rule = rule_of(d)
    if d.code.startswith("M") and d.is_error:
        penalty = penalty_words(d)
        return (_("a mistake ({code}): {message}").format(code=d.code, message=d.message)
                + (_(" — rule: {rule}").format(rule=rule) if rule else "")
                + (_("; penalty: {penalty}; {applied}").format(penalty=penalty, applied=_applied(d)) if penalty else ""))
    if d.code.startswith(("R", "S")) and d.is_error:
        said = _("an error in the record ({code}): {message}")
    elif d.severity == "note":
        said = _("a note ({code}): {message}")
    elif d.severity == "mistake":
        said = _("a mistake ({code}): {message}")
    else:
        said = _("an error ({code}): {message}")
    return said.format(code=d.code, message=d.message) + (f" — {d.help}" if d.help else "")


def _led(v: E.View) -> int:
    """The suit led to the trick on the table (-1: no trick on the table)."""
    return C.SUIT[v.trick[0][1]] if v.trick else -1


def _unseen(v: E.View, s: int) -> int:
    """How many of the seat's cards nobody has seen."""
    return v.sizes[s] - len(v.known[s])


def _why_tochoo(before: E.Engine, s: int, seats: Sequence[str]) -> str:
    """Why an off-suit card was legal, from the position before it."""
    v = before.view()
    led = _led(v)
    name = seats[s]
    suit = W.suit_word(led, True)
    if _unseen(v, s) == 0:
        return _("{seat} held no {suits}").format(seat=name, suits=suit)
    if led in v.voids[s]:
        shown = before.unseen_void(s, led)  # the play that showed it, as the judge noted it
        if shown is not None:
            return _("{seat} had shown no {suits} before, in trick {trick}").format(seat=name, suits=suit,
                                                                                   trick=shown.trick)
        return _("{seat} had shown no {suits} before").format(seat=name, suits=suit)
    return _("{seat}'s hand is unseen and nothing shows {a_suit} in it").format(seat=name, a_suit=W.a_suit(led))


def play_phrase(st: Step, seats: Sequence[str]) -> str:
    """One play: who played what, and what the engine says it did (a lead, a follow, a
    tochoo, a trump, a discard), or that the referee reported a mistake at it."""
    p = st.item
    assert isinstance(p, Play)
    b = st.before
    name, card = seats[p.seat], C.card_str(p.card)
    found = [d for d in st.diagnostics if d.is_error]
    if found:
        # a record error is an error in the record, never a mistake at the table (ruling 5)
        mistakes = [d.code for d in found if d.code.startswith("M")]
        errors = [d.code for d in found if not d.code.startswith("M")]
        what = _list(([_("a mistake: {codes}").format(codes=", ".join(mistakes))] if mistakes else [])
                     + ([_("an error in the record: {codes}").format(codes=", ".join(errors))] if errors else []))
        return _("{seat} played {card} ({what}, below)").format(seat=name, card=card, what=what)
    played = next((ev for ev in st.events if isinstance(ev, EV.Played) and ev.seat == p.seat and ev.card == p.card), None)
    effect = played.effect if played is not None else None
    if effect is EV.Effect.LEADS:
        return _("{seat} led {card}").format(seat=name, card=card)
    if effect is EV.Effect.FOLLOWS:
        return _("{seat} followed with {card}").format(seat=name, card=card)
    if effect is EV.Effect.TRUMPS:
        made = [ev for ev in st.events if isinstance(ev, EV.TrumpsSet)]
        if made:
            return _("{seat} could not follow and played {card}, making {suits} trumps").format(
                seat=name, card=card, suits=W.suit_word(made[0].suit, True))
        return _("{seat} trumped with {card} ({why})").format(seat=name, card=card, why=_why_tochoo(b, p.seat, seats))
    if effect is EV.Effect.DISCARD:
        return _("{seat} discarded {card} ({why}; no card ends the first trick)").format(
            seat=name, card=card, why=_why_tochoo(b, p.seat, seats))
    if effect is EV.Effect.TOCHOO:
        return _("{seat}'s {card} was a legal tochoo ({why})").format(seat=name, card=card,
                                                                     why=_why_tochoo(b, p.seat, seats))
    return _("{seat} played {card}").format(seat=name, card=card)


def _winning_card(trick: list[tuple[int, int]], w: int) -> int | None:
    for s, c in trick:
        if s == w:
            return c
    return None


def events_sentence(st: Step, seats: Sequence[str], *, skip_lead: int | None = None) -> str:
    """What followed one item, from the engine's events in the order they happened: the end
    of a trick, who picks up, who gets away, who leads and why, a draw due, the end of the
    game. (Per item: the replay page shows it at each step. A trick's story is told from
    its :func:`outcome`, which keeps only the pickup and the lead that stand.) With
    ``skip_lead``, a lead of that seat already told is not told again."""
    a = st.after.view()
    evs = [ev for ev in st.events if not isinstance(ev, (EV.Played, EV.TrumpsSet))]
    trick = [(x.seat, x.card) for x in st.events if isinstance(x, EV.Played)]
    return W.narrate(evs, seats, trick_no=a.trick_no, out_order=a.out_order, donkey=st.after.rules.donkey,
                     high=lambda w: highest_clause(a.last_trick or trick, w, a.trumps),
                     said_lead=set() if skip_lead is None else {skip_lead})


def highest_clause(trick: Sequence[tuple[int, int]], w: int, trump: int | None) -> str:
    """``, with the highest heart (6♥),``: the winner's card of a trick, when it is in it
    (``trump``: Donkey's trump suit once made)."""
    card = _winning_card(list(trick), w)
    if card is None or not trick:
        return ""
    led = C.SUIT[trick[0][1]]
    return W.highest(W.trump_word() if C.SUIT[card] == trump and C.SUIT[card] != led else W.suit_word(led), card)


def item_sentence(st: Step, seats: Sequence[str], *, skip_lead: int | None = None) -> str:
    """One non-play item (a take, a draw, a count) and what followed it."""
    it = st.item
    errs = [diagnostic_sentence(d) for d in st.diagnostics]
    if isinstance(it, Take):
        head = _("{taker} took {target}'s hand").format(taker=seats[it.taker], target=seats[it.target])
        follow = events_sentence(dataclasses.replace(st, events=[e for e in st.events if not isinstance(e, EV.Took)]),
                                 seats, skip_lead=skip_lead)
    elif isinstance(it, Draw):
        head = _("{seat} drew {card} from {source}").format(
            seat=seats[it.seat], card=C.card_str(it.card),
            source=W.hand_of(seats[it.source]) if it.source is not None else W.source_words(None, seats))
        follow = events_sentence(dataclasses.replace(st, events=[e for e in st.events if not isinstance(e, EV.Drew)]),
                                 seats, skip_lead=skip_lead)
    elif isinstance(it, Counts):
        head = _("the counts were stated ({counts})").format(counts=", ".join(f"{seats[s]} {n}" for s, n in it.sizes))
        # A trick played on after a mistake ends at the next item: its end is the trick's
        # outcome, told with the trick, not again here.
        follow = events_sentence(dataclasses.replace(st, events=[e for e in st.events if isinstance(
            e, (EV.GotAway, EV.GameOver, EV.DrawDue))]), seats, skip_lead=skip_lead)
        if not errs:
            head += _(" and agree with the replay")
    else:
        head, follow = "", ""
    return head + (": " + "; ".join(errs) if errs else "") + (f"; {follow}" if follow else "")


# ---- tricks ------------------------------------------------------------------------------------


def tricks_of(w: Walk) -> list[int]:
    seen: list[int] = []
    for st in w.steps:
        if st.trick is not None and st.trick not in seen:
            seen.append(st.trick)
    return seen


@dataclass
class Outcome:
    """How a trick ended, as the replay has it: read once from the engine's events, from
    the trick's lead to the next trick's lead (a trick played on after a mistake ends at
    the next item). Only what stands is kept: a later pickup of the same trick replaces an
    earlier one (the penalty after a play after a tochoo; the late card left with the trick),
    and the leader is the last seat the replay set to lead."""

    number: int
    plays: list[Step]
    after: list[Step]  # the takes, draws and counts written after the trick
    pickup: tuple[int, int] | None = None  # (seat, cards) who picked the trick up
    penalty: bool = False  # that pickup was ruling 1's penalty
    waste: int | None = None  # the seat with the power, when the trick went to the waste pile
    leader: int | None = None
    why: EV.LeadReason | None = None
    draw: EV.DrawDue | None = None
    got_away: list[int] = dataclasses.field(default_factory=list)
    over: EV.GameOver | None = None
    proofs: list[Diagnostic] = dataclasses.field(default_factory=list)  # reneges this trick proved
    trick_cards: list[tuple[int, int]] = dataclasses.field(default_factory=list)
    trumps: bool = False  # Donkey, and the trump suit once made
    trump: int | None = None
    # The number the record gives the trick played next (ruling 10: lines written out of
    # number order are played as written, so it need not be this number + 1); None: the
    # record stops after this trick.
    next_number: int | None = None
    # The state after the trick's last item: where a trick is not over, who plays next.
    now: E.Engine | None = None
    drew: EV.Drew | None = None  # the card the seat with the power and no card drew, when recorded
    takes: list[EV.Took] = dataclasses.field(default_factory=list)  # the takes written after the trick
    made: EV.TrumpsSet | None = None  # Donkey: the play of this trick that made trumps
    # who got away and who was set to lead by the items after the trick (a take), which
    # those items tell themselves
    told_after: list[EV.Event] = dataclasses.field(default_factory=list)

    @property
    def ended(self) -> bool:
        return self.pickup is not None or self.waste is not None or self.over is not None


# The event that opens a play's own part of its step: the card played, or the mistake it was
# (a lead out of turn the table penalised is told as MistakeMade, Penalty, Leads, with no
# Played: ruling 1 ends its trick at once). What a step tells before it belongs to the trick
# before (a trick played on after a mistake ends at the next item).
_OPENS = (EV.Played, EV.MistakeMade)


def outcome(w: Walk, number: int) -> Outcome:
    """Trick ``number`` of the record as the replay ended it (KeyError: no such trick)."""
    idx = [k for k, st in enumerate(w.steps) if st.trick == number]
    if not idx:
        raise KeyError(number)
    out = Outcome(number, [w.steps[k] for k in idx], [])
    end = len(w.steps)
    for k in range(idx[-1] + 1, len(w.steps)):
        if w.steps[k].trick is not None and w.steps[k].trick != number:
            end = k
            out.next_number = w.steps[k].trick
            break
        out.after.append(w.steps[k])
    evs: list[EV.Event] = []
    first = w.steps[idx[0]].events
    start = next((i for i, ev in enumerate(first) if isinstance(ev, _OPENS)), len(first))
    evs.extend(first[start:])  # what came before it ended the trick before
    later: set[int] = set()  # the events of the takes, draws and counts written after the trick
    for st in w.steps[idx[0] + 1:end]:
        if any(st is a for a in out.after):
            later.update(range(len(evs), len(evs) + len(st.events)))
        evs.extend(st.events)
    if end < len(w.steps):
        for ev in w.steps[end].events:
            if isinstance(ev, _OPENS):
                break
            evs.append(ev)
    for k, ev in enumerate(evs):
        if isinstance(ev, (EV.GotAway, EV.Leads)) and k in later:
            out.told_after.append(ev)
        if isinstance(ev, EV.Played):
            out.trick_cards.append((ev.seat, ev.card))
        elif isinstance(ev, EV.Penalty):
            out.pickup, out.penalty, out.waste = (ev.seat, ev.cards), True, None
        elif isinstance(ev, EV.PickedUp):
            out.pickup, out.penalty, out.waste = (ev.seat, ev.cards), False, None
        elif isinstance(ev, EV.TrickToWaste):
            out.pickup, out.penalty, out.waste = None, False, ev.winner
        elif isinstance(ev, EV.Leads):
            out.leader, out.why, out.draw = ev.seat, ev.why, None
        elif isinstance(ev, EV.DrawDue):
            out.draw, out.drew, out.leader, out.why = ev, None, None, None
        elif isinstance(ev, EV.Drew):
            # the seat that drew leads the card it drew
            out.draw, out.drew, out.leader, out.why = None, ev, ev.seat, EV.LeadReason.DRAW
        elif isinstance(ev, EV.Took):
            out.takes.append(ev)
        elif isinstance(ev, EV.TrumpsSet):
            out.made = ev
        elif isinstance(ev, EV.GotAway):
            out.got_away.append(ev.seat)
        elif isinstance(ev, EV.GameOver):
            out.over, out.leader, out.why, out.draw = ev, None, None, None
    last = out.plays[-1].after
    out.now = w.steps[end - 1].after
    out.trumps, out.trump = last.rules.donkey, last.view().trumps
    spans = {(sp.line, sp.start) for st in out.plays for sp in _spans(st.item)}
    for st in w.steps:
        for d in st.diagnostics:
            if any((r.span.line, r.span.start) in spans for r in d.related):
                out.proofs.append(d)
    return out


def outcome_clause(o: Outcome, seats: Sequence[str], *, penalty_said: bool = False, highest: bool = False,
                   short: bool = False, next_trick: int | None = None, ends: bool = False) -> str:
    """How the trick ended and who leads next, from its outcome: ``North picks up 3 cards
    and leads trick 5``; ``the trick goes to the waste pile and East leads trick 3``. With
    ``highest``, the winner's card is named (``North, with the highest heart (6♥), ...``).
    ``next_trick``: the number to give the next trick (the replay page passes the engine's
    count, which its lead line uses, where the record's trick numbers are out of order);
    by default the number the record gives the trick played next, else this one's + 1.
    ``ends``: told after the trick's plays, a pickup at a tochoo opens with ``the trick
    ends;`` (:func:`referee.judging.wording.trick_end`). ``short``: the one-sentence
    verdict, which tells what the items after the trick decide (the seat with the power
    and no card drawing, and what it drew; the takes, and who leads after them), since
    it tells them nowhere else."""
    nxt = next_trick if next_trick is not None else o.next_number if o.next_number is not None else o.number + 1
    parts: list[str] = []
    took = o.takes if short else []
    # With takes after the trick, the lead is told after them (it may pass on: ruling 3); in
    # the full story (not ``short``) the take's own sentence tells who it set to lead and
    # who got away by it.
    leads_now = o.leader if not took else None
    gone = o.got_away
    if not short:
        if any(isinstance(ev, EV.Leads) for ev in o.told_after):
            leads_now = None
        gone = [s for s in gone if not any(isinstance(ev, EV.GotAway) and ev.seat == s for ev in o.told_after)]
    drawing = short and o.waste is not None and (o.draw is not None or o.drew is not None)
    if o.pickup is not None:
        seat, n = o.pickup
        head = W.trick_end(seats[seat], n, penalty=o.penalty and not penalty_said,
                           high=highest_clause(o.trick_cards, seat, o.trump) if highest and not o.penalty else "",
                           leads=nxt if leads_now == seat else None, ends=ends)
        if leads_now is not None and leads_now != seat:
            head += "; " + W.lead_clause(seats[leads_now], nxt)
        parts.append(head)
    elif drawing and o.waste is not None:
        # The seat with the power had played its last card: it draws and leads what it drew
        # (Pagat, Getaway: Getting away). Without that fact the answer would name a leader
        # with no card.
        w = o.waste
        head = W.trick_end(seats[w], 0, waste=True, high=highest_clause(o.trick_cards, w, o.trump) if highest else "")
        if o.drew is not None:
            src = W.hand_of(seats[o.drew.source]) if o.drew.source is not None and o.drew.source >= 0 else None
            parts.append(head + W.no_card_drew(o.drew.card, src, None if took else nxt))
        elif o.draw is not None:
            parts.append(head + W.no_card_draws(W.source_words(o.draw.source, seats)))
    elif o.waste is not None and leads_now == o.waste and highest:
        parts.append(W.trick_end(seats[o.waste], 0, waste=True, high=highest_clause(o.trick_cards, o.waste, o.trump),
                                 leads=nxt))
    elif o.waste is not None and o.takes and highest:
        # the seat with the power, then the takes and who leads after them (the short
        # answer leaves out the winning card to make room for them)
        high = "" if short else highest_clause(o.trick_cards, o.waste, o.trump)
        parts.append(W.trick_end(seats[o.waste], 0, waste=True, high=high)
                     + ("; " + W.lead_clause(seats[leads_now], nxt) if leads_now is not None else ""))
    elif o.waste is not None:
        parts.append(W.to_waste(seats[leads_now] if leads_now is not None else None, nxt))
    elif not o.ended:
        # Mid-trick (a live table's record always stops so): who plays next and what the
        # rule asks of them, as the engine has it.
        now = o.now
        parts.append(next_play(now, seats, short=short) if now is not None and now.view().phase is E.Phase.IN_TRICK
                     else _("the trick is not over"))
    elif leads_now is not None:
        parts.append(W.lead_clause(seats[leads_now], nxt))
    parts.extend(W.took(seats[t.taker], seats[t.target]) for t in took)
    if gone:
        parts.append(W.get_away([seats[s] for s in gone]))
    if took and o.leader is not None:
        parts.append(W.lead_passes(seats[o.leader], nxt) if o.why is EV.LeadReason.TAKE
                     else W.lead_clause(seats[o.leader], nxt))
    if o.draw is not None and not drawing:
        parts.append(W.must_draw(seats[o.draw.seat], W.source_words(o.draw.source, seats)))
    if o.over is not None:
        parts.append(W.loses(seats[o.over.loser]) if short else W.game_over(seats[o.over.loser], o.over.legs, o.trumps))
    return "; ".join(p for p in parts if p)


def _proof_phrase(o: Outcome, d: Diagnostic, seats: Sequence[str]) -> str:
    """``East's 4♥ proves the renege of trick 4 (M201)``: the play of this trick that the
    diagnostic of an earlier one points at as its proof."""
    at = {(r.span.line, r.span.start) for r in d.related}
    by = next((st.item for st in o.plays if isinstance(st.item, Play)
               and any((sp.line, sp.start) in at for sp in _spans(st.item))), None)
    if isinstance(by, Play):
        return _("{seat}'s {card} proves the renege of trick {trick} ({code})").format(
            seat=seats[by.seat], card=C.card_str(by.card), trick=d.trick, code=d.code)
    return _("this trick proves the renege of trick {trick} ({code})").format(trick=d.trick, code=d.code)


def _deciding_plays(o: Outcome, seats: Sequence[str], *, told: bool, seat: int | None) -> str:
    """The facts of a trick's plays without which its verdict misleads, each with ``; ``:
    who made trumps in it (Donkey), and a higher card played by choice in the two-player
    ending while holding a lower one (docs/rulings.md, ruling 8: it decides who loses).
    ``told``: the plays are listed already; ``seat``: that seat's play is told already."""
    out = ""
    if o.made is not None and not told and o.made.seat != seat:
        card = next((c for s, c in o.trick_cards if s == o.made.seat and C.SUIT[c] == o.made.suit), None)
        if card is not None:
            out += W.made_trumps(seats[o.made.seat], card, o.made.suit) + "; "
    for st in o.plays:
        p = st.item
        if isinstance(p, Play):
            lower = st.before.lower_card_instead(p.seat, p.card)  # the engine's answer (ruling 8)
            if lower >= 0:
                out += W.by_choice(seats[p.seat], p.card, lower) + "; "
    return out


def verdict(w: Walk, number: int, seat: int | None = None) -> str:
    """Trick ``number`` in one short sentence: who did what (the first mistake or error in
    the record at it, else the card that decided the trick), the penalty, who picks up and
    who leads next, all as the replay has them. With ``seat``, that seat's part first."""
    seats = w.game.seats
    o = outcome(w, number)
    # the mistakes first (who did what, and the penalty), then the errors in the record
    found = sorted(((st, d) for st in o.plays for d in st.diagnostics if d.is_error),
                   key=lambda x: not x[1].code.startswith("M"))
    if seat is not None:
        mine = [(st, d) for st, d in found if isinstance(st.item, Play) and st.item.seat == seat]
        found = mine + [x for x in found if x not in mine]
    more = _(" (+{n} more)").format(n=len(found) - 1) if len(found) > 1 else ""
    if found:
        _first, d = found[0]
        if d.code.startswith("M"):
            head = f"{d.message} ({d.code})"
            applied = penalty_applied(d)
            if applied and o.penalty:
                tail = _("penalty applied: {outcome}").format(
                    outcome=outcome_clause(o, seats, penalty_said=True, short=True))
            else:
                tail = outcome_clause(o, seats, short=True)
                if applied is False:
                    head += _(", not penalised")
        else:
            head = _("{message} (an error in the record, {code})").format(message=d.message, code=d.code)
            tail = outcome_clause(o, seats, short=True)
        return _("Trick {number}: {head}; {tail}.").format(number=number, head=head + more, tail=tail)
    head = ""
    if o.proofs:
        head = _proof_phrase(o, o.proofs[0], seats) + "; "
    if not o.ended and seat is None:
        # A trick still on the table (a live game): its plays so far, then that it goes on.
        head += _list([play_phrase(st, seats) for st in o.plays if isinstance(st.item, Play)]) + "; "
    if seat is not None and not any(isinstance(st.item, Play) and st.item.seat == seat for st in o.plays):
        head += _("{seat} did not play to it; ").format(seat=seats[seat])
    elif seat is not None:
        st = next(st for st in o.plays if isinstance(st.item, Play) and st.item.seat == seat)
        head += play_phrase(st, seats) + "; "
    if o.pickup is not None and not o.penalty:
        tochoo = next(((st.item.seat, st.item.card) for st in o.plays for ev in st.events
                       if isinstance(st.item, Play) and isinstance(ev, EV.Played) and ev.effect is EV.Effect.TOCHOO),
                      None)
        if tochoo is not None and not (seat is not None and tochoo[0] == seat):
            head += _("{seat}'s {card} was a tochoo; ").format(seat=seats[tochoo[0]], card=C.card_str(tochoo[1]))
    head += _deciding_plays(o, seats, told=not o.ended and seat is None, seat=seat)
    return _("Trick {number}: {story}.").format(
        number=number, story=head + outcome_clause(o, seats, highest=o.pickup is None or not o.penalty, short=True))


def trick_sentence(w: Walk, number: int, seat: int | None = None) -> str:
    """Trick ``number`` told in full, with what the referee cited: its plays and what the
    referee said of each, how it ended and who leads next (its :func:`outcome`), and the
    takes, draws and counts after it; with ``seat``, that seat's part in it first."""
    seats = w.game.seats
    o = outcome(w, number)
    plays, after = o.plays, o.after
    phrases = [play_phrase(st, seats) for st in plays]
    mine = [st for st in plays if seat is not None and isinstance(st.item, Play) and st.item.seat == seat]
    told: set[int] = set()  # diagnostics already told in the seat's own phrase
    if seat is None:
        sentence = _("Trick {number}: {story}.").format(number=number, story=_cap(_list(phrases)))
    elif not mine:
        sentence = _("Trick {number}: {story}.").format(
            number=number, story=_("{seat} did not play to it; ").format(seat=seats[seat]) + _list(phrases))
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
                parts.append(_("{seat}'s {card} was {what}").format(
                    seat=seats[p.seat], card=C.card_str(p.card),
                    what=_("; and ").join(diagnostic_sentence(d) for d in errs)))
                told.update(id(d) for d in errs)
            else:
                parts.append(play_phrase(st, seats))
        later = [play_phrase(st, seats) for st in plays[k + 1:] if st not in mine]
        story = "; ".join(parts) + (_("; then {plays}").format(plays=_list(later)) if later else "")
        sentence = (_("Trick {number}, after {setting}: {story}.") if setting else _("Trick {number}: {story}.")).format(
            number=number, setting=setting, story=story)
    for st in plays:
        p = st.item
        assert isinstance(p, Play)
        for d in st.diagnostics:
            if id(d) not in told and (seat is None or p.seat == seat or d.is_error):
                sentence += " " + _("{seat}'s {card} was {what}").format(
                    seat=seats[p.seat], card=C.card_str(p.card), what=diagnostic_sentence(d)) + "."
    for d in o.proofs:
        sentence += f" {_cap(_proof_phrase(o, d, seats))}: {d.message}."
    end = outcome_clause(o, seats, highest=True, ends=True)
    if end:
        sentence += " " + _cap(end) + "."
    told_lead = None if any(isinstance(ev, EV.Leads) for ev in o.told_after) else o.leader
    for st in after:
        told_item = item_sentence(st, seats, skip_lead=told_lead)
        if told_item:
            sentence += " " + _cap(told_item) + "."
    return sentence


def narrate(w: Walk, review: GameReview | None = None) -> list[str]:
    """The whole game, trick by trick, one paragraph a trick (takes and draws with the
    trick they follow), then the end. With ``review`` (the game's review), each trick's
    paragraph ends with the plays it marks (blunder, only move, mistake, inaccuracy)."""
    seats = w.game.seats
    out: list[str] = []
    before_first = []
    for st in w.steps:
        if st.trick is not None:
            break
        before_first.append(_cap(item_sentence(st, seats)) + ".")
    if before_first:
        out.append(_("Before the first trick: {story}").format(story=" ".join(before_first)))
    for d in w.loose:
        out.append(_cap(diagnostic_sentence(d)) + ".")
    for t in tricks_of(w):
        said = trick_review_sentence(review, t) if review is not None else ""
        out.append(trick_sentence(w, t) + (" " + said if said else ""))
    res = w.result
    if res.stopped:
        out.append(_("The replay stops here: {why}.").format(why=res.stopped))
    elif not res.finished:
        e = w.steps[-1].after if w.steps else w.start
        if e is not None:
            out.append(_("The record ends before the game does; {now}.").format(now=lead_phrase(w, e)))
    return out


# ---- the state now -------------------------------------------------------------------------------


def lead_phrase(w: Walk, e: E.Engine) -> str:
    """Who is to act now and why, from the engine's view of the position."""
    seats = w.game.seats
    v = e.view()
    if v.phase is E.Phase.OVER:
        return _("the game is over: {seat} lost").format(seat=seats[v.loser if v.loser is not None else -1])
    if v.phase is E.Phase.DRAW_DUE:
        return say(Code.DRAW_OUT_OF_PLACE, "now", drawer=seats[v.to_act],
                   source=W.source_words(v.draw_source, seats)).message
    if v.phase is E.Phase.BEFORE_FIRST:
        holder = e.ace_holder()
        ace = C.card_str(e.first_card())
        return (_("{seat} leads trick 1 with {ace}, holding it").format(seat=seats[holder], ace=ace) if holder >= 0
                else _("whoever holds {ace} leads trick 1 with it").format(ace=ace))
    if v.phase is E.Phase.IN_TRICK:
        return next_play(e, seats, trick=True)
    # between tricks: the engine keeps why the seat leads
    if v.lead_why is EV.LeadReason.POWER and v.last_trick:
        card = _winning_card(list(v.last_trick), v.leader)
        if card is not None:
            return _("{seat} leads trick {trick}: they played the highest card, {card}, to trick {last}").format(
                seat=seats[v.leader], trick=v.trick_no, card=C.card_str(card), last=v.trick_no - 1)
    return _("{seat} leads trick {trick}: {why}").format(seat=seats[v.leader], trick=v.trick_no,
                                                          why=W.lead_why(v.lead_why))


def next_play(e: E.Engine, seats: Sequence[str], *, trick: bool = False, short: bool = False) -> str:
    """Mid-trick, what the table needs: who plays next and what the rule asks of them
    (``West to play, following ♥ if able``), as the engine has it (its ``duty()``); in a
    trick played on after a mistake nobody penalised, that the rest follows the ordinary
    rules. ``trick``: the trick's number is said (``West to play to trick 3, ...``);
    ``short``: the verdict has said the mistake was not penalised, and it is not said again."""
    v = e.view()
    n = v.trick_no
    turn = _due(e, v)
    if v.as_played:
        # Played on after a mistake nobody penalised: the rest of the trick follows the
        # ordinary rules, as the engine has them.
        if v.tochoo:
            return _("trick {n} went on after a mistake, and a tochoo has ended it: it is over at the next lead, "
                     "take or draw").format(n=n)
        if turn >= 0:
            return ("" if short else _("trick {n} goes on after a mistake the table did not penalise; ").format(
                n=n)) + W.to_play(
                seats[turn], e.duty(turn), _led(v), v.trumps, trick=n if trick and short else None, played_on=True)
    if turn < 0:
        still = [s for s in v.still_to_play if e.legal(s).reason not in (EV.LegalReason.NONE, EV.LegalReason.NOT_YOUR_TURN)]
        if v.first_trick and still:
            # the first trick, in any order (Pagat, First trick; docs/rulings.md, ruling 2)
            who = _list([seats[s] for s in still])
            if trick:
                return ngettext("{seats} still to play to trick {n}, a spade if it holds one",
                                "{seats} still to play to trick {n}, a spade if they hold one", len(still)).format(
                    seats=who, n=n)
            return ngettext("{seats} still to play, a spade if it holds one",
                            "{seats} still to play, a spade if they hold one", len(still)).format(seats=who)
        return _("trick {n} is being played; any seat still to play may play").format(n=n)
    return W.to_play(seats[turn], e.duty(turn), _led(v), v.trumps, trick=n if trick else None)


def _due(e: E.Engine, v: E.View) -> int:
    """The seat to play now, as the engine says: in a trick played on after a mistake the
    one seat the ordinary rules let play (-1: none, or any seat may)."""
    turn = v.to_act
    if turn >= 0 or not v.as_played:
        return turn
    due = [s for s in v.order if e.legal(s).reason not in (EV.LegalReason.NONE, EV.LegalReason.NOT_YOUR_TURN)]
    return due[0] if len(due) == 1 else -1


def hands_phrase(w: Walk, e: E.Engine) -> str:
    seats = w.game.seats
    v = e.view()
    parts = []
    for s in v.order:
        if s in v.out_order:
            parts.append(_("{seat} got away ({place})").format(seat=seats[s], place=_ordinal(v.out_order.index(s) + 1)))
            continue
        known = v.known[s]
        shown = " ".join(C.card_str(c) for c in known)
        unseen = _unseen(v, s)
        what = ((_("{shown} and {n} unseen").format(shown=shown, n=unseen) if unseen else shown) if known
                else (_("unseen") if unseen else ""))
        parts.append(f"{seats[s]} {_cards(v.sizes[s])}" + (f" ({what})" if what and v.sizes[s] else ""))
    return "; ".join(parts) + _("; the waste pile has {cards}").format(cards=_cards(v.waste_size))


def legal_phrase(w: Walk, e: E.Engine) -> str:
    """What may happen now, in one sentence: whose turn and why, the cards the engine allows
    (listed when the hand is known), and the takes allowed."""
    seats = w.game.seats
    v = e.view()
    text = lead_phrase(w, e)
    turn = _due(e, v)
    if turn >= 0 and v.phase not in (E.Phase.OVER, E.Phase.DRAW_DUE):
        legal = e.playable(turn)
        if _unseen(v, turn) == 0:
            text += (_("; {seat} may play {cards}").format(seat=seats[turn], cards=" ".join(C.card_str(c) for c in legal))
                     if legal else _("; {seat} may play nothing").format(seat=seats[turn]))
        elif legal:
            text += _("; of the cards known in {seat}'s hand, {cards} may be played, and any unseen card the rules "
                      "allow").format(seat=seats[turn], cards=" ".join(C.card_str(c) for c in legal))
        else:
            text += _("; {seat}'s hand is unseen: any card in it that the rules allow").format(seat=seats[turn])
    takes = e.takes()
    if takes:
        text += _("; takes allowed now: {takes}").format(
            takes=", ".join(_("{taker} takes {target}").format(taker=seats[a], target=seats[b]) for a, b in takes))
    return _cap(text) + "."


def live_answer(question: str, game: Game, res: GameResult) -> str:
    """``why``, ``more``, ``who leads``, ``hands``, ``legal`` in live: from the walk of the
    game so far. ``why`` is the verdict on the last trick (or item), ``more`` its detail."""
    w = walk(game, res.rules)
    e = w.steps[-1].after if w.steps else w.start
    if e is None:
        return _("the game cannot be replayed: {why}").format(why=res.stopped)
    if question.startswith("who"):
        return _cap(lead_phrase(w, e)) + "."
    if question == "hands":
        return _cap(hands_phrase(w, e)) + "."
    if question == "legal":
        return legal_phrase(w, e)
    # why / more: the last entry and what the referee made of it
    if not w.steps:
        return _("Nothing has been played yet; {now}.").format(now=lead_phrase(w, e))
    last = w.steps[-1]
    trick = last.trick
    if trick is None:
        # a take, draw or count after a trick belongs to that trick's story
        trick = next((st.trick for st in reversed(w.steps) if st.trick is not None), None)
        if trick is None or question != "more":
            return _cap(item_sentence(last, w.game.seats)) + "."
    return trick_sentence(w, trick) if question == "more" else verdict(w, trick)


# ---- the commands ----------------------------------------------------------------------------------


def _load(file: Path, game: int | None, rules: str | None) -> Walk:
    """The walk of one clean game; TableError if it cannot be had."""
    default, overrides = rules_options(rules, None, [])
    return walk(read_clean_game(file, game), default, overrides)


def narrate_command(file: Path, game: int | None, rules: str | None, review: bool = False) -> int:
    """``show FILE --narrate``: the game told trick by trick, with ``review`` the review's
    marks after each trick (seconds: the game is reviewed); exit 1 if the replay stops short."""
    try:
        w = _load(file, game, rules)
    except TableError as e:
        print_error(e.message)
        return e.code
    g = w.game
    # The file name, the [Event] tag and the seats are the user's text: escaped, as every
    # other command prints them (reports/text.py), never acted on by the terminal.
    rules_said = w.result.rules.spec() if w.result.rules else g.rules
    print(_("{file}, game {game}").format(file=safe_path(file), game=g.number)
          + safe((f" — {g.tag('Event')}" if g.tag("Event") else "") + _(" — rules {rules}").format(rules=rules_said)))
    reviewed = review_game(g, w.result.rules) if review and w.result.rules is not None else None
    for line in narrate(w, reviewed):
        print(safe(line))
    return 1 if w.result.stopped else 0


def ask_command(file: Path, trick: int, seat: str | None = None, game: int | None = None,
                rules: str | None = None, explain: bool = False, review: bool = False, hint: bool = False) -> int:
    """``getaway-ref ask``: what happened in a trick, in one short sentence (about one seat
    if ``seat`` names one); with ``explain``, the cited detail behind it on the next line;
    with ``review``, could that seat have got away: the review's answer (issue 28), the same
    verdict ``getaway-ref review`` gives, on the line after; with ``hint``, what the pimc bot
    would have played for that seat (default: the trick's leader) just before its play to the
    trick, and each of its choices' chance of losing from what it knew (issue 41)."""
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
            why = (_("no seat of this game is called so") if not hits else
                   _("it could be {seats}").format(seats=_(" or ").join(seats[h] for h in hits)))
            raise UsageError(_("--seat {seat}: {why} (seats: {seats})").format(seat=seat, why=why,
                                                                           seats=", ".join(seats)))
        who = hits[0]
    if trick not in tricks_of(w):
        have = tricks_of(w)
        raise UsageError((_("--trick {trick}: game {game} has tricks {first} to {last} in its record") if have else
                          _("--trick {trick}: game {game} has no tricks in its record")).format(
            trick=trick, game=w.game.number, first=have[0] if have else "", last=have[-1] if have else ""))
    print(ask_sentence(w, trick, who))
    if explain:
        print(trick_sentence(w, trick, who))
    if review and who is not None:
        print(could_get_away(w.game, who, trick, w.result.rules).sentence)
    elif review:
        print(standings_sentence(w.game, trick, w.result.rules))  # every seat, as review --after gives it
    if hint:
        print(hint_at(w.game, w.result.rules, trick=trick, seat=who).sentence)
    return 1 if w.result.stopped else 0  # as every table command: 1 when the replay cannot reach the end


def ask_sentence(w: Walk, trick: int, seat: int | None = None) -> str:
    """The verdict on a trick: one short sentence."""
    return verdict(w, trick, seat)
