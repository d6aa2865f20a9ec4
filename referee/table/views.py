"""At the table: ``show`` (the state at a point) and ``legal`` (what may happen next), over
records replayed by the referee (``tally`` is ``referee/tally.py``).

Nothing here decides a rule. The state is the engine the referee keeps after replaying a
record once (``Referee(keep_engine=True, stop_after=N)``; ``show`` reads the hands at each
trick's end from the same walk's steps, :func:`walk_game`), read through the engine's typed
API alone: the position from ``view()``, every "may" from ``legal()``, ``playable()``,
``duty()`` and ``takes()``. This module says it in words (the rule's words are
judging/wording.py's), as rich tables for people and as pydantic models for programs.

The rules are cited as their public name and section (referee.engine.citations); "ruling N" is one of docs/rulings.md.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, Field
from rich.console import Console
from rich.segment import Segment, Segments
from rich.table import Table
from rich.text import Text

from referee.archive.games import TableError, read_judgeable_game
from referee.commands import rules_options
from referee.engine import cards as C
from referee.engine import citations as R
from referee.engine import events as EV
from referee.engine import state as E
from referee.engine.citations import Cite
from referee.engine.codes import Code
from referee.engine.language import gettext as _
from referee.engine.language import ngettext
from referee.engine.rules import RuleSet
from referee.judging import wording as W
from referee.judging.referee import GameResult, Referee
from referee.notation.record import Game, Play, Position, Trick
from referee.reports.diagnostics import Diagnostic
from referee.reports.render import console, diagnostic_lines, print_diagnostics, print_error, print_lines
from referee.reports.text import json_safe, safe

Phase = Literal["before_first", "between", "in_trick", "draw_due", "over"]
PHASES: tuple[Phase, ...] = ("before_first", "between", "in_trick", "draw_due", "over")

CITE_FIRST = R.cites(R.FIRST_TRICK, R.ruling(2))
CITE_TAKE = R.cites(R.TAKING, R.ruling(3))
CITE_DRAW = R.cites(R.GETTING_AWAY, R.ruling(4))
CITE_END = str(R.END)

# A command's answer: the model show or legal prints.
_M = TypeVar("_M", bound=BaseModel)


# ---- the models (the JSON of --format json) ------------------------------------------------------


class VoidModel(BaseModel):
    suit: str = Field(description="the suit's symbol: ♠ ♥ ♦ ♣")
    name: str = Field(description="the suit's name, plural")
    since_trick: int | None = Field(
        default=None, description="unseen cards: the trick in which the seat showed it; a known hand: the trick after "
                          "which it held none (0: since the deal or the position)")
    shown_by: str | None = Field(default=None, description="the off-suit card that showed it, for unseen cards")


class SeatModel(BaseModel):
    seat: str
    cards: int = Field(description="hand size")
    known: list[str] = Field(description="cards known to be in the hand (the whole hand when `full`)")
    full: bool = Field(description="the whole hand is known")
    unseen: int = Field(description="cards of the hand nobody has seen")
    voids: list[VoidModel] = Field(description="suits the hand is known to lack")
    out: bool = Field(description="has got away")
    out_position: int | None = Field(default=None, description="1 for the first to get away, 2 for the next, ...")
    power: bool = Field(description="has the power (leads the next trick, or led this one)")
    to_act: bool = Field(description="must act now (may act, in a first trick played in any order)")
    out_why: str | None = Field(default=None, description="why the seat is out while it still holds cards "
                                "(the two-player ending), with the rule's source")


class PlayModel(BaseModel):
    seat: str
    card: str


class TrickModel(BaseModel):
    number: int
    leader: str
    led: str = Field(description="the suit led")
    plays: list[PlayModel]
    tochoo: bool = Field(description="a card of another suit (not a trump) has been played to it")
    as_played: bool = Field(
        default=False, description="play went on after a mistake the table did not penalise; the referee follows it as played")


class WastePileModel(BaseModel):
    size: int
    known: list[str] = Field(description="cards known to lie in it (all of them when `full`)")
    full: bool
    unseen: int
    pending: list[PlayModel] = Field(
        default=[], description="the clean trick just played: it joins the pile after the draw, and is not drawn from")


class DiagModel(BaseModel):
    code: str
    severity: str
    message: str
    trick: int | None = None
    line: int | None = None
    notes: list[str] = []
    help: str | None = None

    @classmethod
    def of(cls, d: Diagnostic) -> DiagModel:
        return cls(code=d.code, severity=d.severity, message=d.message, trick=d.trick,
                   line=d.span.line if d.span is not None and d.span.line else None, notes=list(d.notes),
                   help=d.help)


class StateModel(BaseModel):
    """``getaway-ref show --format json``."""

    path: str
    game: int
    event: str | None = None
    seats: list[str]
    rules: str
    after: int | None = Field(default=None, description="the state after this trick (null: the end of the record)")
    trick: int = Field(description="the trick on the table, or the next one")
    phase: Literal["before_first", "between", "in_trick", "draw_due", "over"]
    phase_text: str
    power: str | None = Field(None, description="who has the power: played the highest card of the suit led "
                                 "(or trump) to the last trick, and so leads")
    leads: str | None = Field(None, description="who leads the trick on the table or the next one")
    lead_reason: str | None = Field(None, description="why: power, ace, take, pass_lead, penalty, draw, position, table")
    to_act: str | None = Field(None, description="who must act now; null when several may (first trick) or none")
    any_order: bool = Field(False, description="the first trick, played in any order: everyone still to play may")
    start: Literal["deal", "position"] = Field("deal", description="how the record starts: void since_trick 0 means since then")
    donkey: bool = Field(False, description="the rule set has trumps (Donkey)")
    trump: str | None = Field(None, description="Donkey: the trump suit, once made")
    hands: list[SeatModel]
    waste: WastePileModel
    trick_on_table: TrickModel | None = None
    out_order: list[str]
    over: bool
    loser: str | None = None
    legs: int | None = Field(default=None, description="cards the loser is left with (Donkey's legs)")
    stopped: str | None = Field(default=None, description="why the replay stopped before the end of the record")
    diagnostics: list[DiagModel] = []


class SeatLegalModel(BaseModel):
    seat: str
    action: Literal["lead", "play"]
    exact: bool = Field(description="the whole hand is known, so `cards` is every card the seat may play")
    cards: list[str] = Field(description="the known cards the seat may play")
    any_card: bool = Field(default=False, description="any card of the hand may be played")
    must_follow: str | None = Field(default=None, description="the suit to follow if the seat holds one")
    must_trump: str | None = Field(default=None, description="Donkey: the trump to play if the seat cannot follow")
    unseen: int = 0
    unseen_may_follow: list[str] = Field(
        default=[], description="cards of the suit to follow that the seat's unseen cards may hold")
    shown_void: VoidModel | None = Field(default=None, description="the seat has shown it holds none of the suit led")
    may_not: str | None = Field(default=None, description="what the seat may not play, in words")
    ends_trick: str | None = Field(default=None, description="what a card of another suit does, in words")
    rule: str = Field(description="the rule, in words")
    cite: str


class TakeModel(BaseModel):
    taker: str
    target: str


class DrawModel(BaseModel):
    seat: str
    source: str = Field(description="'waste' or a seat's name, or 'any' (any other player's hand)")
    cards: list[str] = Field(description="the cards the draw may be, where known")
    unseen: int = Field(description="cards of the source nobody has seen")
    not_from: list[str] = Field(default=[], description="the trick just played: not drawn from")
    cite: str


class LegalModel(BaseModel):
    """``getaway-ref legal --format json``."""

    path: str
    game: int
    seats: list[str]
    rules: str
    trick: int
    phase: Literal["before_first", "between", "in_trick", "draw_due", "over"]
    summary: str = Field(description="whose turn, in one line")
    to_act: str | None = None
    any_order: bool = False
    trick_on_table: TrickModel | None = None
    plays: list[SeatLegalModel] = []
    takes: list[TakeModel] = []
    takes_cite: str | None = None
    draw: DrawModel | None = None
    over: bool = False
    loser: str | None = None
    legs: int | None = None
    notes: list[str] = []
    stopped: str | None = None
    diagnostics: list[DiagModel] = Field(default=[], description="the referee's findings in the record")
    then: LegalModel | None = Field(
        default=None, description="for a trick followed as played after an unpenalised mistake: what may happen once it ends")


LegalModel.model_rebuild()


# ---- loading a game -----------------------------------------------------------------------------


def judge_game(game: Game, after: int | None = None, default: RuleSet | None = None, overrides: dict[str, object] | None = None,
               force: bool = False) -> GameResult:
    """Replay a game (up to and including trick ``after``) and keep the engine."""
    res = Referee(default, overrides, force, keep_engine=True, stop_after=after).judge(game)
    _replayed(game, res, after)
    return res


def _replayed(game: Game, res: GameResult, after: int | None) -> E.Engine:
    if after is not None:
        # The result tag speaks of the whole game, not of the part replayed.
        res.diagnostics = [d for d in res.diagnostics if d.code != Code.RESULT_CONTRADICTS]
    return engine_of(game, res)


def engine_of(game: Game, res: GameResult) -> E.Engine:
    """The engine at the end of a replay judged with ``keep_engine=True``; a TableError
    (exit 1) for a game that cannot be replayed at all."""
    if res.engine is None:
        raise TableError(_("{file}: game {number} cannot be replayed: {why}").format(
            file=game.path, number=game.number, why=res.stopped), 1, res.diagnostics)
    return res.engine


@dataclass(frozen=True, slots=True)
class Walked:
    """What ``show`` takes from one walk of a game (:func:`walk_game`): the referee's result,
    with its engine at the point asked for, and the suits each hand known whole held after
    every trick of the record up to that point (``suits_after[k]``: per seat a mask of suits,
    bit ``suit``, or None for a hand with unseen cards), for the voids' "since"."""

    result: GameResult
    suits_after: dict[int, tuple[int | None, ...]]


def _unseen(v: E.View, s: int) -> int:
    """The cards of seat ``s``'s hand nobody has seen."""
    return v.sizes[s] - len(v.known[s])


def _waste_unseen(v: E.View) -> int:
    return v.waste_size - len(v.waste)


def _suits_held(v: E.View) -> tuple[int | None, ...]:
    held: list[int | None] = []
    for size, cards in zip(v.sizes, v.known):
        mask = 0
        for c in cards:
            mask |= 1 << C.SUIT[c]
        held.append(None if size > len(cards) else mask)
    return tuple(held)


def walk_game(game: Game, after: int | None = None, default: RuleSet | None = None,
              overrides: dict[str, object] | None = None, force: bool = False) -> Walked:
    """One replay of a game, up to and including trick ``after``: the referee's walk, its
    steps read as they come. The state at each end of a trick is the state before the first
    play of a later trick (the state the referee stops at when told ``stop_after``), so
    everything ``show`` says comes from this one walk, not a replay per trick."""
    referee = Referee(default, overrides, force, keep_engine=True, stop_after=after)
    nums = _record_tricks(game, after)
    due = [nums[0] - 1, *nums] if nums else []  # the start, then every trick of the record
    suits: dict[int, tuple[int | None, ...]] = {}
    for step in referee.steps(game, snapshots=bool(due)):
        tno = step.trick
        if due and tno is not None and tno > due[0] and isinstance(step.item, Play):
            held = _suits_held(step.before.view())
            while due and due[0] < tno:
                suits[due.pop(0)] = held
    res = referee.result
    e = _replayed(game, res, after)
    if due:
        held = _suits_held(e.view())
        for k in due:
            suits[k] = held
    return Walked(res, suits)


def check_after(game: Game, after: int | None) -> None:
    """--after names a trick of the record (or the one before its first: the start)."""
    if after is None:
        return
    nums = _record_tricks(game, None)
    if not nums:
        return
    if after > nums[-1]:
        raise TableError(_("{option} {after}: game {number} ends at trick {last}").format(
            option="--after", after=after, number=game.number, last=nums[-1]))
    if after < nums[0] - 1:
        raise TableError(_("{option} {after}: game {number} starts at trick {first} ({option} {start} is its "
                           "starting position)").format(option="--after", after=after, number=game.number,
                                                        first=nums[0], start=nums[0] - 1))


# ---- reading the engine ---------------------------------------------------------------------------
# Everything below reads the engine through its typed API (tests/test_engine_boundary.py): the
# position as a View, and a copy of it with the cards known by elimination placed
# (Engine.resolved), so that a hand known so is told as a whole; the rules' answers from
# legal(), playable(), duty() and takes().

IN_TRICK, BEFORE_FIRST, BETWEEN, DRAW_DUE, OVER = (E.Phase.IN_TRICK, E.Phase.BEFORE_FIRST, E.Phase.BETWEEN,
                                                   E.Phase.DRAW_DUE, E.Phase.OVER)


def suit_symbol(suit: int) -> str:
    return C.SUIT_SYMBOLS[suit]


def cards_str(cards: Iterable[int]) -> list[str]:
    return [C.card_str(c) for c in cards]


def _record_tricks(game: Game, after: int | None) -> list[int]:
    nums = sorted({a.number for a in game.actions if isinstance(a, Trick)})
    return [n for n in nums if after is None or n <= after]


def _hand_voids(game: Game, v: E.View, after: int | None, walked: Callable[[], dict[int, tuple[int | None, ...]]],
                seats: list[int]) -> dict[tuple[int, int], int]:
    """For seats whose whole hand is known: since which trick each suit it lacks has been
    lacking, from the suits held after each trick of the walk (``walked()``, asked only when
    such a hand lacks a suit). 0: since the deal (or position)."""
    now = _suits_held(v)
    missing = {s: [u for u in range(4) if not (now[s] or 0) >> u & 1] for s in seats}
    if not any(missing.values()):
        return {}
    suits_after = walked()
    nums = _record_tricks(game, after)
    in_trick = v.phase == IN_TRICK and bool(nums)
    completed = nums[:-1] if in_trick else nums
    first = nums[0] - 1 if nums else 0
    snaps = [(k, suits_after[k]) for k in [first] + completed if k in suits_after]
    if in_trick or not snaps:
        snaps.append((nums[-1] if nums else first, now))
    out: dict[tuple[int, int], int] = {}
    for s in seats:
        for u in missing[s]:
            since = 0
            for i in range(len(snaps) - 1, -1, -1):
                hand = snaps[i][1][s]
                if hand is None or hand >> u & 1:
                    since = snaps[i + 1][0] if i + 1 < len(snaps) else snaps[-1][0]
                    break
            out[(s, u)] = since
    return out


def _plays(seats: Sequence[str], trick: Iterable[tuple[int, int]]) -> list[PlayModel]:
    return [PlayModel(seat=seats[s], card=C.card_str(c)) for s, c in trick]


def _led(v: E.View) -> int:
    assert v.led is not None, "a trick is on the table"
    return v.led


def trick_model(v: E.View, seats: Sequence[str]) -> TrickModel | None:
    if v.phase != IN_TRICK or not v.trick:
        return None
    return TrickModel(number=v.trick_no, leader=seats[v.leader], led=suit_symbol(_led(v)),
                      plays=_plays(seats, v.trick), tochoo=v.tochoo, as_played=v.as_played)


def _seat(seats: Sequence[str], s: int | None) -> str | None:
    return seats[s] if s is not None and s >= 0 else None


def _void_model(e: E.Engine, s: int, suit: int) -> VoidModel:
    """A void of unseen cards, with the play that showed it when the engine knows it."""
    shown = e.unseen_void(s, suit)
    tno = shown.trick if shown is not None else None
    card = C.card_str(shown.card) if shown is not None else None
    return VoidModel(suit=suit_symbol(suit), name=C.suit_name(suit, True), since_trick=tno,
                     shown_by=_("{card} in trick {trick}").format(card=card, trick=tno) if card and tno else None)


def ending_note(v: E.View, s: int, seats: Sequence[str]) -> str:
    """Why a seat counts as got away while it still holds cards ("" when it does not): the
    engine's own record of how the game ended (``ended_by``), in words with the rule's
    source. ``show`` prints it under the table, the replay page beside the hand."""
    size = v.sizes[s]
    if not (s in v.out_order and size > 0):
        return ""
    cite = str(v.ended_cite) if v.ended_by == "two_players" and v.ended_cite is not None else None
    return W.out_holding(seats[s], size, cite)


def state_model(game: Game, res: GameResult, after: int | None = None, default: RuleSet | None = None, overrides: dict[str, object] | None = None,
                force: bool = False, *, suits_after: dict[int, tuple[int | None, ...]] | None = None) -> StateModel:
    """The state at the end of the replay ``res``. ``suits_after``: the hands' suits after each
    trick, from the same walk (:func:`walk_game`); without it, a hand known whole that lacks a
    suit has the game walked once more to say since when."""
    e = engine_of(game, res)
    v = e.view()
    x: E.Engine = e.resolved()
    xv = x.view()
    seats = list(game.seats)
    out = set(v.out_order)
    any_order = v.phase == IN_TRICK and v.any_order
    full_seats = [s for s in range(len(seats)) if _unseen(xv, s) == 0 and v.sizes[s] > 0 and s not in out]

    def walked() -> dict[int, tuple[int | None, ...]]:
        return suits_after if suits_after is not None else walk_game(game, after, default, overrides, force).suits_after

    since = _hand_voids(game, v, after, walked, [s for s in full_seats if _unseen(v, s) == 0])
    hands: list[SeatModel] = []
    for s in range(len(seats)):
        full = _unseen(xv, s) == 0
        known = xv.known[s]
        voids: list[VoidModel] = []
        if v.sizes[s] > 0 and s not in out:
            held = {C.SUIT[c] for c in known}
            for u in range(4):
                if u in held:
                    continue
                if full:
                    voids.append(VoidModel(suit=suit_symbol(u), name=C.suit_name(u, True),
                                           since_trick=since.get((s, u))))
                elif u in v.voids[s]:
                    voids.append(_void_model(e, s, u))
        to = v.to_act == s or (any_order and s in v.still_to_play and not v.tochoo)
        hands.append(SeatModel(
            seat=seats[s], cards=v.sizes[s], known=cards_str(known), full=full,
            unseen=0 if full else _unseen(v, s), voids=voids, out=s in out,
            out_position=v.out_order.index(s) + 1 if s in out else None,
            power=v.power == s and v.lead_why is EV.LeadReason.POWER,
            to_act=to and v.phase != OVER, out_why=ending_note(v, s, seats) or None,
        ))
    waste = WastePileModel(
        size=v.waste_size, known=cards_str(xv.waste), full=_waste_unseen(xv) == 0, unseen=_waste_unseen(xv),
        pending=_plays(seats, v.pending),
    )
    return StateModel(
        path=str(game.path), game=game.number, event=game.tag("Event"), seats=seats,
        rules=res.rules.spec() if res.rules else "?", after=after, trick=v.trick_no, phase=PHASES[v.phase],
        phase_text=E.PHASE_NAMES[v.phase], power=_seat(seats, v.power) if v.lead_why is EV.LeadReason.POWER else None,
        leads=_seat(seats, v.leader), lead_reason=v.lead_why.value if v.phase != OVER else None,
        to_act=_seat(seats, v.to_act), any_order=any_order,
        start="position" if isinstance(game.setup, Position) else "deal", donkey=e.rules.donkey,
        trump=suit_symbol(v.trumps) if v.trumps is not None else None,
        hands=hands, waste=waste, trick_on_table=trick_model(v, seats),
        out_order=[seats[s] for s in v.out_order], over=v.phase == OVER,
        loser=_seat(seats, v.loser) if v.phase == OVER else None,
        legs=v.legs if v.phase == OVER else None, stopped=res.stopped,
        diagnostics=[DiagModel.of(d) for d in res.diagnostics],
    )


# ---- what may happen next -------------------------------------------------------------------------


def _cite(*cites: Cite | None) -> str:
    """The sources of what a seat may play, as one note (the engine's, never built here)."""
    return R.cites(*(c for c in cites if c is not None))


def _seat_legal(v: E.View, x: E.Engine, xv: E.View, s: int, seats: Sequence[str], action: str) -> SeatLegalModel:
    """What seat ``s`` may play now: ``v`` is the position, ``x`` the engine with the cards
    known by elimination placed (:meth:`Engine.resolved`) and ``xv`` its view."""
    name = seats[s]
    exact = _unseen(xv, s) == 0
    playable = set(x.playable(s))
    cards = [c for c in xv.known[s] if c in playable]  # a card held twice is listed twice
    if action == "lead":
        if v.phase == BEFORE_FIRST:
            ace = C.card_str(x.first_card())
            return SeatLegalModel(seat=name, action="lead", exact=True, cards=[ace],
                                  rule=W.opens_first_trick(ace), cite=_cite(x.duty_of(s).cite))
        rule, cite = _("leads any card"), _cite(x.duty_of(s).cite)
        if v.drawn_lead:
            rule, cite = _("leads the card it has just drawn"), CITE_DRAW
        return SeatLegalModel(seat=name, action="lead", exact=exact, cards=cards_str(xv.known[s]),
                              any_card=True, unseen=0 if exact else _unseen(xv, s), rule=rule, cite=cite)
    led = _led(v)
    first = v.first_trick
    trump = v.trumps  # Donkey's trump suit once set (None outside Donkey)
    other = W.another_suit(led, first=first, donkey=x.rules.donkey, trump=trump)
    # The rule and its source are the engine's (Engine.duty_of); Denexa's shootout, when
    # in force on the trick, is the view's.
    cite = _cite(x.duty_of(s).cite, *v.shootout)
    led_sym = suit_symbol(led)
    # The rule is the engine's (Engine.duty: the reasons of legal() in the order the rule
    # tries them); only its words are said here, by judging/wording.py.
    duty = x.duty(s) or (EV.LegalReason.OFF_SUIT,)
    follows = duty[0] in (EV.LegalReason.FOLLOW, EV.LegalReason.FIRST_TRICK_SPADE) and len(duty) == 1
    if exact:
        rule, may_not = W.duty(duty, led, trump, exact=True)
        return SeatLegalModel(seat=name, action="play", exact=True, cards=cards_str(cards), must_follow=led_sym,
                              must_trump=suit_symbol(trump) if trump is not None and not follows else None,
                              may_not=may_not, ends_trick=other, rule=rule, cite=cite)
    # Unseen cards: what can be said is the duty to follow and what the seat has shown.
    void_led = led in xv.voids[s]
    may_follow = [] if void_led else [c for c in xv.hidden_cards if C.SUIT[c] == led]
    shown = _void_model(x, s, led) if void_led else None
    rule, may_not = W.duty(duty, led, trump, exact=False, holds=cards,
                           shown_in=shown.since_trick if shown is not None else None)
    return SeatLegalModel(seat=name, action="play", exact=False, cards=cards_str(cards), must_follow=led_sym,
                          must_trump=suit_symbol(trump) if trump is not None and EV.LegalReason.TRUMP in duty else None,
                          unseen=_unseen(xv, s), unseen_may_follow=cards_str(may_follow),
                          shown_void=shown, may_not=may_not, ends_trick=other,
                          rule=rule, cite=cite)


def _draw_model(v: E.View, xv: E.View, seats: Sequence[str]) -> DrawModel:
    s = v.to_act  # the drawer
    src = v.draw_source
    pending = cards_str(c for _, c in v.pending)
    if src is None:
        return DrawModel(seat=seats[s], source="waste", cards=cards_str(xv.waste),
                         unseen=_waste_unseen(xv), not_from=pending, cite=CITE_DRAW + f"; {R.LAST_CARD}")
    if src == EV.ANY_SOURCE:  # from any other player's hand
        return DrawModel(seat=seats[s], source="any", cards=[], unseen=0, not_from=pending,
                         cite=R.cites(R.DRAW_FROM_HAND, R.ruling(4)))
    return DrawModel(seat=seats[s], source=seats[src], cards=cards_str(xv.known[src]),
                     unseen=_unseen(xv, src), not_from=pending, cite=R.cites(R.DRAW_FROM_HAND, R.ruling(4)))


def legal_model(game: Game, res: GameResult) -> LegalModel:
    """What may happen next at the end of the replay."""
    e = engine_of(game, res)
    v = e.view()
    seats = list(game.seats)
    if not (v.phase == IN_TRICK and v.as_played):
        return _legal(game, res, e)
    # Play went on after a mistake nobody penalised: the referee follows the table, and the
    # rest of the trick is played by the ordinary rules (follow suit if able; a tochoo ends
    # it). The engine says who may play what; it ends at the next lead, take or draw.
    out = set(v.out_order)
    still = [s for s in v.still_to_play if s not in out]
    closed = e.copy()
    closed.apply(EV.EndTrick())  # as the table would end it
    then = _legal(game, res, closed)
    then.trick_on_table = None
    x: E.Engine = e.resolved()
    xv = x.view()
    due = [s for s in still if e.legal(s).reason not in (EV.LegalReason.NONE, EV.LegalReason.NOT_YOUR_TURN)]
    plays = [_seat_legal(v, x, xv, s, seats, "play") for s in due]
    if v.tochoo:
        still = []  # a tochoo ended it, mistake or not: nobody plays to it any more
    who = _(", ").join(seats[s] for s in still)
    summary = (_("trick {trick} went on after a mistake the table did not penalise").format(trick=v.trick_no)
               + (_("; a tochoo in it has ended it") if v.tochoo else
                  _("; the rest of it follows the ordinary rules: {seats} may still play to it, {follow}").format(
                      seats=who, follow=W.follow_if_able(_led(v))) if still else "")
               + (_("; next: {then}") if v.tochoo else _("; when it ends: {then}")).format(then=then.summary))
    notes = [_("the referee follows trick {trick} as played: it ends at the next lead, take or draw").format(trick=v.trick_no)
             + (_("; by the tochoo in it, its winner picks it up") if v.tochoo else _("; it goes to the waste pile"))]
    return LegalModel(path=str(game.path), game=game.number, seats=seats,
                      rules=res.rules.spec() if res.rules else "?", trick=v.trick_no, phase="in_trick",
                      summary=summary, trick_on_table=trick_model(v, seats), plays=plays, notes=notes,
                      stopped=res.stopped, diagnostics=[DiagModel.of(d) for d in res.diagnostics], then=then)


def _legal(game: Game, res: GameResult, e: E.Engine) -> LegalModel:
    seats = list(game.seats)
    v = e.view()
    x: E.Engine = e.resolved()
    xv = x.view()
    notes: list[str] = []
    model = LegalModel(path=str(game.path), game=game.number, seats=seats,
                       rules=res.rules.spec() if res.rules else "?", trick=v.trick_no, phase=PHASES[v.phase],
                       summary="", trick_on_table=trick_model(v, seats), notes=notes, stopped=res.stopped,
                       diagnostics=[DiagModel.of(d) for d in res.diagnostics])
    if res.stopped:
        model.notes.append(_("the replay stopped before the end of the record: {why}; this is the state where it stopped")
                           .format(why=res.stopped))
    if v.phase == OVER:
        model.over = True
        model.loser = _seat(seats, v.loser)
        model.legs = v.legs
        model.summary = _over_text(v, seats, donkey=e.rules.donkey)
        model.notes.append(_("{rule}: nothing more is played").format(rule=CITE_END))
        return model
    if v.phase == DRAW_DUE:
        model.to_act = seats[v.to_act]
        model.draw = _draw_model(v, xv, seats)
        model.summary = draw_text(model.draw, seats)
        return model
    if v.phase in (BETWEEN, BEFORE_FIRST):
        if v.phase == BEFORE_FIRST:
            holder = e.ace_holder()
            if holder < 0:
                holder = x.ace_holder()
            first = e.first_card()
            ace = C.card_str(first)
            if holder >= 0:
                model.to_act = seats[holder]
                model.plays = [_seat_legal(v, x, xv, holder, seats, "lead")]
                model.summary = _("{seat} opens trick {trick} with {card}").format(seat=seats[holder], trick=v.trick_no,
                                                                                   card=ace)
            else:
                out = set(v.out_order)
                maybe = [s for s in range(len(seats)) if s not in out and e.may_hold(s, first)]
                model.plays = [SeatLegalModel(seat=seats[s], action="lead", exact=False, cards=[ace], unseen=_unseen(v, s),
                                              rule=_("opens the first trick with {card} if it holds it").format(card=ace),
                                              cite=str(R.FIRST_TRICK)) for s in maybe]
                model.summary = _("whoever holds {card} opens trick {trick} with it ({seats})").format(
                    card=ace, trick=v.trick_no, seats=_(" or ").join(seats[s] for s in maybe))
        else:
            model.to_act = seats[v.leader]
            model.plays = [_seat_legal(v, x, xv, v.leader, seats, "lead")]
            # i18n: {leads} is a verb phrase: "has the power and leads"
            model.summary = _("{seat} {leads} trick {trick}").format(seat=seats[v.leader], leads=W.leads(v.lead_why),
                                                                     trick=v.trick_no)
        model.takes = [TakeModel(taker=seats[a], target=seats[b]) for a, b in e.takes()]
        if model.takes:
            model.takes_cite = CITE_TAKE
            model.summary += _("; before it, a player may take the next player's hand")
        elif not e.rules.may_take:
            model.notes.append(_("taking is not allowed by this rule set (taking=no)"))
        return model
    # in a trick
    turn = v.to_act
    if v.any_order:
        who = list(v.still_to_play)
        model.any_order = True
        model.plays = [_seat_legal(v, x, xv, s, seats, "play") for s in who]
        model.summary = _("trick {trick} (the first, in any order): {seats} still to play, a spade if they hold one").format(
            trick=v.trick_no, seats=_(", ").join(seats[s] for s in who))
        model.notes.append(_("{rule}: in the first trick the others may play in any order").format(rule=CITE_FIRST))
        return model
    if turn >= 0:
        model.to_act = seats[turn]
        model.plays = [_seat_legal(v, x, xv, turn, seats, "play")]
        model.summary = W.to_play(seats[turn], e.duty(turn), _led(v), v.trumps, trick=v.trick_no)
    else:
        model.summary = _("trick {trick}: nobody is to play").format(trick=v.trick_no)
    return model


def _over_text(v: E.View, seats: Sequence[str], *, donkey: bool) -> str:
    if v.loser is None:
        return _("game over")
    n = v.legs if v.legs is not None else 0
    if donkey:
        return ngettext("game over: {seat} lost (a donkey with {n} leg)", "game over: {seat} lost (a donkey with {n} legs)",
                        n).format(seat=seats[v.loser], n=v.legs)
    return ngettext("game over: {seat} lost holding {n} card", "game over: {seat} lost holding {n} cards",
                    n).format(seat=seats[v.loser], n=v.legs)


def draw_text(d: DrawModel, seats: Sequence[str]) -> str:
    if d.source == "waste":
        said = (_("{seat} has the power and no card: draws from the waste pile (not from the trick just played) and "
                  "leads the card drawn") if d.not_from else
                _("{seat} has the power and no card: draws from the waste pile and leads the card drawn"))
    elif d.source == "any":
        said = _("{seat} has the power and no card: draws from any other player's hand and leads the card drawn")
    else:
        said = _("{seat} has the power and no card: draws from {source}'s hand and leads the card drawn")
    return said.format(seat=d.seat, source=d.source)


# ---- rendering ------------------------------------------------------------------------------------


def _cards_line(cards: list[str], unseen: int = 0) -> str:
    s = " ".join(cards)
    if unseen:
        s = (s + " " if s else "") + _("+{n} unseen").format(n=unseen)
    return s or "-"


def _print_unpadded(out: Console, table: Table) -> None:
    """A table without the spaces rich pads its last column with: a line ends at its last
    character (a copied line, a diff or a documentation example keeps no trailing blanks)."""
    for line in Segment.split_lines(out.render(table)):
        while line and not line[-1].control and not line[-1].text.rstrip():
            line.pop()
        if line:
            last = line[-1]
            line[-1] = Segment(last.text.rstrip(), last.style, last.control)
        out.print(Segments([*line, Segment.line()]))


def render_state(out: Console, m: StateModel) -> None:
    title = safe(_("{file}, game {game}").format(file=m.path, game=m.game)
                 + (f" — {m.event}" if m.event else ""))
    where = (_("after trick {trick}").format(trick=m.after) if m.after is not None
             else _("at the end of the record"))
    out.print(Text(_("{title} — rules {rules} — {where}").format(title=title, rules=m.rules, where=where),
                   style="bold"))
    t = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for col in (_("seat"), _("cards"), _("known cards"), _("void in (since trick)"), _("status")):
        t.add_column(col, overflow="fold")
    start = _("deal") if m.start == "deal" else _("position")
    for h in m.hands:
        voids = _(", ").join(f"{v.suit} ({start if v.since_trick == 0 else v.since_trick if v.since_trick is not None else '?'})"
                             for v in h.voids) or "-"
        status = []
        if h.out:
            status.append(_("out ({place})").format(place="?" if h.out_position is None else W.ordinal(h.out_position)))
        if m.over and m.loser == h.seat:
            status.append(_("lost"))
        if h.power and not m.over:
            status.append(_("power"))
        if h.to_act:
            status.append(_("to act"))
        known = _cards_line(h.known, h.unseen)
        if h.full and h.cards and not h.out:
            status.insert(0, _("hand known"))
        t.add_row(Text(safe(h.seat)), str(h.cards), known, voids, _(", ").join(status) or "-")
    _print_unpadded(out, t)
    for h in m.hands:
        if h.out_why:  # out with cards in hand: the rule that put it out (Pagat, Getaway: Two players)
            out.print(safe(h.out_why), markup=False)
    w = m.waste
    pile = waste_pile_words(w.size)
    out.print(pile + (_(": {cards}").format(cards=" ".join(w.known)) if w.full and w.known else
                      _(", known: {cards}").format(cards=" ".join(w.known)) if w.known else ""), markup=False)
    if w.pending:
        out.print(_("trick just played (joins the waste pile after the draw): {plays}").format(
            plays=_(", ").join(f"{p.seat} {p.card}" for p in w.pending)), markup=False)
    if m.trick_on_table:
        tt = m.trick_on_table
        out.print(_("on the table, trick {trick} ({suit} led): {plays}").format(
                      trick=tt.number, suit=tt.led, plays=_(", ").join(f"{p.seat} {p.card}" for p in tt.plays))
                  + (_(" — tochoo") if tt.tochoo else "") + (_(" — followed as played") if tt.as_played else ""),
                  markup=False)
    if m.trump:
        out.print(_("trumps: {suit}").format(suit=m.trump), markup=False)
    if m.over:
        legs = m.legs if m.legs is not None else 0
        said = (ngettext("game over: {seat} lost, a donkey with {n} leg", "game over: {seat} lost, a donkey with {n} legs",
                         legs) if m.donkey else
                ngettext("game over: {seat} lost, holding {n} card", "game over: {seat} lost, holding {n} cards", legs))
        out.print(Text(said.format(seat=m.loser, n=m.legs), style="bold"))
    else:
        if m.phase == "in_trick":
            if m.to_act:
                out.print(_("trick {trick}: {seat} to play").format(trick=m.trick, seat=m.to_act), markup=False)
            else:
                who = _(", ").join(h.seat for h in m.hands if h.to_act)
                if who:
                    out.print(_("trick {trick}: {seats} to play, in any order").format(trick=m.trick, seats=who),
                              markup=False)
                else:
                    out.print(_("trick {trick}: followed as played after a mistake; it ends at the next lead, take "
                                "or draw of the record").format(trick=m.trick), markup=False)
        elif m.phase == "draw_due":
            out.print(_("{seat} has the power and no card: must draw").format(seat=m.to_act), markup=False)
        else:
            who = m.to_act or _("whoever holds {card}").format(card=FIRST_CARD["packs=2" in m.rules])
            why = {"take": _(" (the hand due to lead was taken)"), "pass_lead": _(" (the lead passed on)"),
                   "penalty": _(" (after the penalty)"), "table": _(" (the table let it lead)")}.get(m.lead_reason or "", "")
            said = (_("power: {seat} leads trick {trick}{why}") if m.power else
                    _("to lead: {seat} leads trick {trick}{why}"))
            out.print(said.format(seat=who, trick=m.trick, why=why), markup=False)
    if m.out_order:
        out.print(_("got away: {seats}").format(seats=_(", ").join(m.out_order)), markup=False)
    if m.stopped:
        out.print(Text(_("replay stopped: {why}").format(why=m.stopped), style="bold red"))
    _render_diags(out, m.diagnostics)


def _render_diags(out: Console, diags: list[DiagModel]) -> None:
    # The facts of each diagnostic, in the one layout of referee.reports.render; the rule
    # cited by a note is named beside each answer already.
    for d in diags:
        print_lines(out, diagnostic_lines(d, compact=True, citations=False))


FIRST_CARD = {False: C.card_str(C.ACE_OF_SPADES), True: C.card_str(C.MARKED_ACE)}


def waste_pile_words(n: int) -> str:
    """``waste pile: 12 cards`` (show, and the editor's hover)."""
    return ngettext("waste pile: {n} card", "waste pile: {n} cards", n).format(n=n)


def on_the_table(plays: Sequence[PlayModel]) -> str:
    """``on the table: West 2♥, North 6♥`` (legal, and the editor's hover)."""
    return _("on the table: {plays}").format(plays=_(", ").join(f"{p.seat} {p.card}" for p in plays))


def render_legal(out: Console, m: LegalModel, *, header: bool = True) -> None:
    if header:
        out.print(Text(safe(_("{file}, game {game} — rules {rules} — trick {trick}").format(
            file=m.path, game=m.game, rules=m.rules, trick=m.trick)), style="bold"))
    if m.trick_on_table:
        tt = m.trick_on_table
        out.print(on_the_table(tt.plays), markup=False)
    out.print(Text(m.summary, style="bold"))
    for p in m.plays:
        out.print(f"  {p.seat}: {p.rule}", markup=False)
        if p.exact or p.cards:
            label = _("may play: {cards}") if p.exact else _("known cards it may play: {cards}")
            out.print("    " + label.format(cards=" ".join(p.cards) or "-"), markup=False)
        if not p.exact:
            extra = ngettext("{n} unseen card", "{n} unseen cards", p.unseen).format(n=p.unseen)
            if p.unseen_may_follow:
                extra += _("; a {suit} among them would be one of {cards}").format(
                    suit=p.must_follow, cards=" ".join(p.unseen_may_follow))
            out.print(f"    {extra}", markup=False)
        if p.may_not:
            out.print("    " + _("may not play: {cards}").format(cards=p.may_not), markup=False)
        if p.ends_trick and p.action == "play":
            out.print(f"    {p.ends_trick}", markup=False)
        out.print("    " + _("rule: {rule}").format(rule=p.cite), markup=False)
    if m.takes:
        out.print(_("takes allowed now: {takes}").format(takes=_(", ").join(
            _("{taker} takes {target}").format(taker=t.taker, target=t.target) for t in m.takes)), markup=False)
        out.print("    " + _("rule: {rule}").format(rule=m.takes_cite), markup=False)
    if m.draw:
        d = m.draw
        if d.source == "waste" and d.cards and not d.unseen:
            out.print("  " + _("the draw is one of: {cards}").format(cards=" ".join(d.cards)), markup=False)
        elif d.cards or d.unseen:
            out.print("  " + _("the draw: {cards}").format(cards=_cards_line(d.cards, d.unseen)), markup=False)
        if d.not_from:
            out.print("  " + _("not from the trick just played: {cards}").format(cards=" ".join(d.not_from)),
                      markup=False)
        out.print("    " + _("rule: {rule}").format(rule=d.cite), markup=False)
    for n in m.notes:
        out.print(_("note: {note}").format(note=n), markup=False)
    if m.then is not None:
        out.print(_("when the trick ends:"), markup=False)
        render_legal(out, m.then, header=False)
    if header and m.diagnostics:
        _render_diags(out, m.diagnostics)


# ---- the commands ---------------------------------------------------------------------------------


def report_error(e: TableError) -> int:
    """A game that cannot be shown: its diagnostics, then ``error: ...``; the exit code."""
    err = console(stderr=True)
    print_diagnostics(err, e.diagnostics)  # as check prints them, at check's speed
    print_error(e.message, err)
    return e.code


def _answer(file: Path, game: int | None, as_json: bool, rules: str | None,
            build: Callable[[Game, RuleSet | None, dict[str, object]], tuple[GameResult, _M]],
            render: Callable[[Console, _M], None]) -> int:
    """Read one clean game, build the answer, print it as text or JSON; exit 1 if the
    replay stopped short (show and legal)."""
    default, overrides = rules_options(rules, None, [])
    try:
        g = read_judgeable_game(file, game)
        res, m = build(g, default, overrides)
    except TableError as e:
        return report_error(e)
    if g.errors:
        # Judged up to a line that cannot be read: that line's diagnostics, in full, where
        # errors go, whatever the answer's format.
        print_diagnostics(console(stderr=True), g.errors)
    if as_json:
        sys.stdout.write(json_safe(m.model_dump_json(indent=2)) + "\n")
    else:
        render(console(), m)
    return 1 if res.stopped else 0


def show_command(file: Path, game: int | None = None, after: int | None = None, *, as_json: bool = False,
                 rules: str | None = None) -> int:
    """``getaway-ref show``: the state of a game after trick ``after`` (default: its end)."""

    def build(g: Game, default: RuleSet | None, overrides: dict[str, object]) -> tuple[GameResult, StateModel]:
        check_after(g, after)
        walked = walk_game(g, after, default, overrides)  # the one replay show reads
        return walked.result, state_model(g, walked.result, after, default, overrides, suits_after=walked.suits_after)

    return _answer(file, game, as_json, rules, build, render_state)


def legal_command(file: Path, game: int | None = None, *, as_json: bool = False, rules: str | None = None) -> int:
    """``getaway-ref legal``: what may happen next at the end of the record."""

    def build(g: Game, default: RuleSet | None, overrides: dict[str, object]) -> tuple[GameResult, LegalModel]:
        res = judge_game(g, None, default, overrides)
        return res, legal_model(g, res)

    return _answer(file, game, as_json, rules, build, render_legal)
