"""``getaway-ref import --from FORMAT FILE``: a game kept by a Getaway app, as a record the
referee can judge (docs/archives.md, "Importing games from apps"). Three formats:
``bhabhi-live-solver``, ``thulla-ai`` and ``card-game-thulla`` (below).

``bhabhi-live-solver`` is the archive the Getaway Live Solver (the public
repository Harman6139/bhabhi-live-solver, a three-player tracker for the phone) exports. What
this reader knows of it is the format's facts, as the repository declares them (its event
and archive schemas), written here in our own words:

* the file is one JSON object: ``schemaVersion`` 1, a ``timeline``, and two hashes
  (``semanticHash``, ``documentHash``; the app checks them, this reader does not);
* the timeline holds ``events`` and a ``cursor``: the events before the cursor are the game
  (those after it were undone), and ``orphanedEvents`` were corrected away;
* the first event is ``game-created``: the ``rules`` (direction, taking hands, what a seat
  with the power and no card does, the first trick's off-suit card, the two-player ending),
  the user's hand (``userHand``), each seat's starting count, and who holds the A♠;
* then ``card-played`` (seat, card), ``waste-card-drawn`` (seat, card),
  ``player-card-drawn`` (seat, source, card) and ``hand-taken`` (actor, target, the cards
  revealed);
* the seats are ``user``, ``p2`` and ``p3``, clockwise in that order; a card is a rank
  ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A`` and a suit letter ``C``, ``D``, ``H``, ``S``.

The app records no trick boundaries, so the tricks are split where the engine says each one
ends (after everyone played, at a tochoo); the record's rule set is the one the app's
settings imply, and where the app allows what the texts do not, the record says so in a
comment and ``check`` judges the game by the texts.

``thulla-ai`` is the completed game the Thulla AI web app (the public repository
ahmedpervaiz31/thulla-ai, a Python engine with a browser table and bots) writes for every
finished game. The fields read, as its code writes them (in our words):

* one JSON object, ``version`` 2; ``players``, the names by seat number (0, 1, ...,
  clockwise: the app's next player is the next number);
* ``opening_hands``: each seat's cards as dealt (null when the app kept no deal);
* ``tricks``: in order, each with its number ``n``, the ``leader_seat`` and the ``plays``
  (``seat``, ``card``) as played; the app's own notes on each play (the hand before, the
  legal cards, advice) are not read;
* ``takes``: each offer of the next player's hand, ``after_trick`` (the number of tricks
  played), ``asker_seat``, ``target_seat`` and ``given`` (false: not asked, or refused);
* ``result``: ``finishing_order`` (the seats in the order they got away) and the ``loser``;
* a card is a rank ``2``-``10``, ``J``, ``Q``, ``K``, ``A`` and a suit letter ``D``, ``H``,
  ``S``, ``C``.

The app's engine plays the first trick in turn from the A♠ holder, and lets a last card that
wins a clean trick get away, the lead passing on (Pagat's third variation), so its record is
judged by ``pagat last_card=pass_lead first_trick=in_turn``. Where it departs from the texts
(``THULLA_AI_DEPARTURES``) the record says so in comments; where judging by the texts parts
from what the app recorded (its two-player ending, a leader, the order of getting away), the
reader names the trick, and the app's loser is the record's ``[Result]``, which ``check``
holds against the replay.

``card-game-thulla`` is a match of the Bhabhi Thulla table built on boardgame.io (the public
repository samiUllah1526/card-game-thulla), as its storage keeps it: the SQLite row's
``initial_state``, ``log`` and ``state`` (JSON text), or the same as boardgame.io's fetch of
a match returns them (``initialState``, ``log``, ``state``, JSON). The fields read:

* ``initialState.G.hands``: each seat's cards (``"0"``, ``"1"``, ...; the next seat is the
  next number), a card's ``id`` being its suit letter, a dash and its rank 2-14 (``S-14`` is
  the A♠); ``initialState.G.takeRequiresPermission`` (a take waits for the answer);
* ``log``: the framework's entries in order; a move is ``action.payload`` with its ``type``,
  ``args`` and ``playerID``: ``playCard`` (the card's id), ``takeLeftHand``, ``respondTake``
  (true or false), ``leaveGame`` and ``playAgain`` (where the record stops), and the table's
  housekeeping (``startGame``, ``dismissPickup``, ...), which is passed over;
* ``state.G.dealHistory[0]``: the app's result of the first deal (``gotAway``, ``bhabhi``);
* ``metadata.players``: the names, when the row keeps them.

The log keeps no trick boundaries, so the reader follows the app's own bookkeeping: a trick
ends when everyone holding cards at its start has played, or at a card of another suit, and
a player who plays their last card is out at once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.commands import UsageError
from referee.engine import cards as C
from referee.engine import events as EV
from referee.engine.rules import parse_spec
from referee.engine.state import Engine
from referee.files import WriteError, io_error, write_text

SEATS = ("user", "p2", "p3")
_CARD_RANKS = "23456789TJQKA"
_CARD_SUITS = "CDHS"


class ImportProblem(Exception):
    """What makes a log unreadable, said in one line (where, what)."""


@dataclass
class Imported:
    """A log read: the record's text, the rule set, and what the reader had to say."""

    text: str
    spec: str
    departures: list[str] = field(default_factory=list)
    plays: int = 0
    # where judging by the texts parts from what the app recorded (the trick named)
    differs: list[str] = field(default_factory=list)


def _card(value: Any, where: str) -> int:
    if not (isinstance(value, str) and len(value) == 2 and value[0] in _CARD_RANKS and value[1] in _CARD_SUITS):
        raise ImportProblem(f"{where}: {value!r} is not a card (a rank 2-9, T, J, Q, K or A and a suit C, D, H or S)")
    card = C.parse_card(value)
    assert card is not None
    return card


def _seat(value: Any, where: str) -> int:
    if value not in SEATS:
        raise ImportProblem(f"{where}: {value!r} is not a seat (user, p2 or p3)")
    return SEATS.index(value)


def _field(obj: Any, key: str, where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise ImportProblem(f"{where}: no {key!r}")
    return obj[key]


def _rules(cfg: Any, where: str) -> tuple[str, list[str]]:
    """The rule set the app's settings imply, and where they depart from the texts."""
    said: list[str] = []
    words = ["pagat"]
    direction = _field(cfg, "direction", where)
    if direction not in ("clockwise", "anticlockwise"):
        raise ImportProblem(f"{where}.direction: {direction!r} is not clockwise or anticlockwise")
    if direction == "anticlockwise":
        words.append("direction=anticlockwise")
    take = _field(_field(cfg, "takeHand", where), "mode", f"{where}.takeHand")
    if take == "disabled":
        words.append("taking=no")
    elif take in ("adjacent", "configured"):
        said.append(f"the app lets a seat take the hand of {'the seat beside it' if take == 'adjacent' else 'a seat set in advance'}; "
                    "the texts allow only the next player holding cards (check reports any other take, R108)")
    elif take != "next-active":
        raise ImportProblem(f"{where}.takeHand.mode: {take!r} is not a mode of the format")
    zero = _field(cfg, "zeroCardsWithPower", where)
    mode = _field(zero, "mode", f"{where}.zeroCardsWithPower")
    if mode == "immediate-escape":
        words.append("last_card=pass_lead")
    elif mode == "draw-from-player":
        target = _field(zero, "drawFromTarget", f"{where}.zeroCardsWithPower")
        words += ["last_card=draw_hand", "draw_from=next" if target == "next-active" else "draw_from=any"]
    elif mode != "waste-draw":
        raise ImportProblem(f"{where}.zeroCardsWithPower.mode: {mode!r} is not a mode of the format")
    if _field(cfg, "openingOffSuit", where) == "highest":
        said.append("the app asks for the highest card of another suit in the first trick; the texts let a player "
                    "without a spade play any card")
    two = _field(cfg, "twoPlayer", where)
    if two != "pagat-shootout":
        said.append(f"the app ends a game of two players its own way ({two}); the texts' two-player ending is judged")
    return " ".join(words), said


def read_live_solver(data: Any) -> Imported:
    """The archive of the Getaway Live Solver as a record (see the module's docstring)."""
    if not isinstance(data, dict) or data.get("schemaVersion") != 1:
        raise ImportProblem("not an archive of schema version 1 (no \"schemaVersion\": 1 at the top)")
    timeline = _field(data, "timeline", "the archive")
    events = _field(timeline, "events", "timeline")
    cursor = _field(timeline, "cursor", "timeline")
    if not isinstance(events, list) or not events:
        raise ImportProblem("timeline.events: no events")
    if not isinstance(cursor, int) or not 1 <= cursor <= len(events):
        raise ImportProblem(f"timeline.cursor: {cursor!r} is not between 1 and the {len(events)} events")
    first = events[0]
    if _field(first, "type", "timeline.events[0]") != "game-created":
        raise ImportProblem("timeline.events[0]: the first event is not game-created")
    spec, departures = _rules(_field(first, "rules", "timeline.events[0]"), "timeline.events[0].rules")
    rules = parse_spec(spec)
    where = "timeline.events[0]"
    user = [_card(c, f"{where}.userHand[{i}]") for i, c in enumerate(_field(first, "userHand", where))]
    counts = _field(first, "startingCounts", where)
    sizes = []
    for seat in SEATS:
        n = _field(counts, seat, f"{where}.startingCounts")
        if not isinstance(n, int) or n < 0:
            raise ImportProblem(f"{where}.startingCounts.{seat}: {n!r} is not a number of cards")
        sizes.append(n)
    if sizes[0] != len(user):
        raise ImportProblem(f"{where}: the user's hand has {len(user)} cards, its starting count says {sizes[0]}")
    ace = _seat(_field(first, "aceSpadesHolder", where), f"{where}.aceSpadesHolder")

    lines = ["deal", f"user {' '.join(C.card_str(c) for c in C.sort_cards(user))}", f"p2 {sizes[1]}", f"p3 {sizes[2]}"]
    engine: Engine | None
    try:
        engine = Engine.from_deal(rules, [user, sizes[1], sizes[2]])
    except ValueError as e:
        raise ImportProblem(f"{where}: the deal cannot be: {e}") from None
    trick = 0
    current: list[str] | None = None  # the plays of the trick being written
    previous: list[str] = []  # the plays of the trick before, and whether a tochoo ended it
    tochoo_ended = False
    seats_in: set[int] = set()
    plays = 0

    def follow(action: EV.Action) -> list[EV.Event]:
        nonlocal engine
        if engine is None:
            return []
        try:
            return engine.apply(action)
        except ValueError:
            engine = None  # the engine cannot follow (the app allowed what the rules do not): check says what
            return []

    def mistake(s: int, c: int, late: bool) -> list[EV.Event] | None:
        """A play the rules do not allow, penalised as ruling 1 says (what check does when
        the table did not play on); None if even that cannot be."""
        if engine is None:
            return None
        try:
            return engine.apply(EV.Penalise(s, c, late=late))
        except ValueError:
            return None

    ended = (EV.TrickToWaste, EV.PickedUp, EV.Penalty)
    for i in range(1, cursor):
        ev = events[i]
        at = f"timeline.events[{i}]"
        kind = _field(ev, "type", at)
        if kind == "card-played":
            s, c = _seat(_field(ev, "seat", at), f"{at}.seat"), _card(_field(ev, "card", at), f"{at}.card")
            play = f"{SEATS[s]} {C.card_str(c)}"
            plays += 1
            if engine is not None and engine.verdict(EV.PlayCard(s, c)) is not None:
                # not allowed: a card after the tochoo that ended the trick before (written in
                # that trick's line), or a mistake in the trick on the table
                if current is None and tochoo_ended and previous and mistake(s, c, True) is not None:
                    previous.append(play)
                    lines[-1] = f"{trick}. " + ", ".join(previous)
                    continue
                if current is None:
                    trick += 1
                    current, seats_in = [], set()
                    lines.append("")
                current.append(play)
                seats_in.add(s)
                lines[-1] = f"{trick}. " + ", ".join(current)
                got = mistake(s, c, False)
                if got is None:
                    engine = None
                elif any(isinstance(e, ended) for e in got):
                    previous, current, tochoo_ended = current, None, False
                continue
            if current is not None and engine is None and s in seats_in:
                current = None  # without the engine: a seat playing again starts the next trick
            if current is None:
                trick += 1
                current, seats_in = [], set()
                lines.append("")  # the trick's line, written as its plays come
            current.append(play)
            seats_in.add(s)
            lines[-1] = f"{trick}. " + ", ".join(current)
            happened = follow(EV.PlayCard(s, c))
            if any(isinstance(e, ended) for e in happened):
                previous, current = current, None
                tochoo_ended = any(isinstance(e, EV.PickedUp) for e in happened)
        elif kind == "hand-taken":
            a, t = _seat(_field(ev, "actor", at), f"{at}.actor"), _seat(_field(ev, "target", at), f"{at}.target")
            shown = [_card(x, f"{at}.revealedCards[{k}]") for k, x in enumerate(_field(ev, "revealedCards", at))]
            lines.append(f"{SEATS[a]} takes {SEATS[t]}" + (f"  # shown: {' '.join(C.card_str(x) for x in shown)}" if shown else ""))
            current, previous = None, []
            follow(EV.TakeHand(a, t))
        elif kind == "waste-card-drawn":
            s, c = _seat(_field(ev, "seat", at), f"{at}.seat"), _card(_field(ev, "card", at), f"{at}.card")
            lines.append(f"{SEATS[s]} draws {C.card_str(c)}")
            current, previous = None, []
            follow(EV.DrawCard(s, c, None))
        elif kind == "player-card-drawn":
            s, c = _seat(_field(ev, "seat", at), f"{at}.seat"), _card(_field(ev, "card", at), f"{at}.card")
            src = _seat(_field(ev, "source", at), f"{at}.source")
            lines.append(f"{SEATS[s]} draws {C.card_str(c)} from {SEATS[src]}")
            current, previous = None, []
            follow(EV.DrawCard(s, c, src))
        elif kind == "game-created":
            raise ImportProblem(f"{at}: a second game-created event (only the first event creates the game)")
        else:
            raise ImportProblem(f"{at}.type: {kind!r} is not an event of the format")
    head = ['[Seats "user p2 p3"]', f'[Rules "{spec}"]', '[Source "bhabhi-live-solver"]']
    notes = [f"# the app's seat {SEATS[ace]} held the A♠"] if ace != 0 else []
    notes += [f"# where the app departs from the texts: {d}" for d in departures]
    if cursor < len(events):
        notes.append(f"# {len(events) - cursor} event(s) after the app's cursor were undone and are left out")
    text = "%gwy 1\n\n%game\n" + "\n".join(head + notes + lines) + "\n"
    return Imported(text, spec, departures, plays)



# ---- thulla-ai: the completed game of the Thulla AI web app ------------------------------

# The rule set its engine implies: the first trick in turn from the A♠ holder, and a last card
# that wins a clean trick gets away with the lead passing on (Pagat, Getaway: Variations, 3).
THULLA_AI_RULES = "pagat last_card=pass_lead first_trick=in_turn"
THULLA_AI_DEPARTURES = (
    "the app lets the player whose hand is asked for refuse it (a take with \"given\": false); "
    "the texts give the taker the hand (Pagat, Getaway: Taking cards)",
    "the app offers takes only in one round from the leader before each trick after the first, "
    "and none with two players left; the texts allow a take before any trick",
    "with two players left, the app lets a last card that wins a clean trick get away like any "
    "other; the texts have its player draw from the waste pile and lead (Pagat, Getaway: Two "
    "players; Variations, 3)",
)
_AI_RANKS = {"10": "T", **{r: r for r in "23456789JQKA"}}
_SEAT_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,19}")
_NOT_SEATS = {"deal", "takes", "draws", "from", "out"}


def _ai_card(value: Any, where: str) -> int:
    """A card as thulla-ai writes it: a rank 2-10, J, Q, K or A, then D, H, S or C."""
    if isinstance(value, str) and len(value) in (2, 3) and value[:-1] in _AI_RANKS and value[-1] in _CARD_SUITS:
        card = C.parse_card(_AI_RANKS[value[:-1]] + value[-1])
        if card is not None:
            return card
    raise ImportProblem(f"{where}: {value!r} is not a card (a rank 2-10, J, Q, K or A and a suit D, H, S or C)")


def _ai_seat(value: Any, n: int, where: str) -> int:
    if not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n):
        raise ImportProblem(f"{where}: {value!r} is not a seat (0 to {n - 1})")
    return value


def _ai_list(obj: Any, key: str, where: str) -> list[Any]:
    got = _field(obj, key, where)
    if not isinstance(got, list):
        raise ImportProblem(f"{where}.{key}: not a list")
    return got


def _seat_names(players: list[Any]) -> list[str]:
    """The players' names as the record's seats, when each is one word and they differ;
    otherwise seat1, seat2, ... (the app's names are kept in a comment)."""
    words = [p for p in players if isinstance(p, str) and _SEAT_WORD.fullmatch(p) and p.lower() not in _NOT_SEATS]
    if len(words) == len(players) and len({w.lower() for w in words}) == len(words):
        return words
    return [f"seat{i + 1}" for i in range(len(players))]


class _Following:
    """Our engine following an app's game action by action. The first action the texts do not
    allow (or a point where the app goes on where the texts would not) is noted, by trick, in
    ``differs``, and the following stops there; ``out`` keeps the seats that got away, in order,
    and ``over`` whether the texts ended the game."""

    def __init__(self, engine: Engine, seats: Sequence[str]) -> None:
        self.engine: Engine | None = engine
        self.seats = seats
        self.differs: list[str] = []  # where the texts part from what the app did, by trick
        self.out: list[int] = []
        self.over = False

    def stop(self, why: str) -> None:
        self.differs.append(why)
        self.engine = None

    def follow(self, action: EV.Action, said: str) -> None:
        e = self.engine
        if e is None:
            return
        why = e.verdict(action)
        if why is not None:
            self.stop(f"{said}: the texts do not allow it ({why.code}); check says why")
            return
        for ev in e.apply(action):
            if isinstance(ev, EV.GotAway):
                self.out.append(ev.seat)
            elif isinstance(ev, EV.GameOver):
                self.over = True
            elif isinstance(ev, EV.DrawDue) and ev.source is None:
                who = self.seats[ev.seat]
                self.stop(f"{said}: {who} has the power with no card, and the texts have {who} draw from the "
                          f"waste pile and lead; the app lets {who} get away")
                return


def read_thulla_ai(data: Any) -> Imported:
    """A completed game of the Thulla AI web app as a record (see the module's docstring)."""
    if not isinstance(data, dict) or data.get("version") != 2 or "tricks" not in data:
        raise ImportProblem("not a completed game of version 2 (no \"version\": 2 and \"tricks\" at the top)")
    players = _ai_list(data, "players", "the game")
    n = len(players)
    if not 2 <= n <= 8:
        raise ImportProblem(f"players: {n} players (a game has 2 to 8)")
    seats = _seat_names(players)
    opening = _field(data, "opening_hands", "the game")
    if opening is None:
        raise ImportProblem("opening_hands: null (the app kept no deal for this game, so it cannot be replayed)")
    if not isinstance(opening, list) or len(opening) != n:
        raise ImportProblem(f"opening_hands: not one hand for each of the {n} players")
    hands: list[list[int]] = []
    for s, hand in enumerate(opening):
        if not isinstance(hand, list):
            raise ImportProblem(f"opening_hands[{s}]: not a list of cards")
        hands.append([_ai_card(c, f"opening_hands[{s}][{k}]") for k, c in enumerate(hand)])
    rules = parse_spec(THULLA_AI_RULES)
    try:
        engine = Engine.from_deal(rules, hands)
    except ValueError as e:
        raise ImportProblem(f"opening_hands: the deal cannot be: {e}") from None
    texts = _Following(engine, seats)

    tricks = _ai_list(data, "tricks", "the game")
    takes = _ai_list(data, "takes", "the game")
    after: dict[int, list[tuple[int, Any]]] = {}
    for k, t in enumerate(takes):
        n_after = _field(t, "after_trick", f"takes[{k}]")
        if not isinstance(n_after, int) or isinstance(n_after, bool):
            raise ImportProblem(f"takes[{k}].after_trick: {n_after!r} is not a trick number")
        after.setdefault(n_after, []).append((k, t))

    lines = ["deal"] + [f"{seats[s]} {' '.join(C.card_str(c) for c in C.sort_cards(h))}" for s, h in enumerate(hands)]
    plays = 0

    def write_takes(number: int) -> None:
        for k, t in after.pop(number, []):
            at = f"takes[{k}]"
            a = _ai_seat(_field(t, "asker_seat", at), n, f"{at}.asker_seat")
            b = _ai_seat(_field(t, "target_seat", at), n, f"{at}.target_seat")
            given = _field(t, "given", at)
            if given is True:
                lines.append(f"{seats[a]} takes {seats[b]}")
                texts.follow(EV.TakeHand(a, b), f"the take after trick {number} ({seats[a]} takes {seats[b]})")
            elif given is False:
                lines.append(f"# {seats[a]} could take {seats[b]}'s hand and did not, or {seats[b]} refused it")
            else:
                raise ImportProblem(f"{at}.given: {given!r} is not true or false")

    write_takes(0)
    for i, trick in enumerate(tricks):
        at = f"tricks[{i}]"
        number = _field(trick, "n", at)
        if number != i + 1:
            raise ImportProblem(f"{at}.n: {number!r} where trick {i + 1} was due")
        leader = _ai_seat(_field(trick, "leader_seat", at), n, f"{at}.leader_seat")
        if texts.engine is not None and texts.engine.to_act() not in (leader, -1):
            texts.stop(f"trick {number}: the app has {seats[leader]} lead, the texts {seats[texts.engine.to_act()]}")
        written = []
        for k, p in enumerate(_ai_list(trick, "plays", at)):
            s = _ai_seat(_field(p, "seat", f"{at}.plays[{k}]"), n, f"{at}.plays[{k}].seat")
            c = _ai_card(_field(p, "card", f"{at}.plays[{k}]"), f"{at}.plays[{k}].card")
            written.append(f"{seats[s]} {C.card_str(c)}")
            plays += 1
            texts.follow(EV.PlayCard(s, c), f"trick {number} ({seats[s]} {C.card_str(c)})")
        if not written:
            raise ImportProblem(f"{at}.plays: no plays")
        lines.append(f"{number}. " + ", ".join(written))
        write_takes(number)
    if after:
        k = min(k for ts in after.values() for k, _ in ts)
        raise ImportProblem(f"takes[{k}].after_trick: no such trick among the {len(tricks)}")

    result = _field(data, "result", "the game")
    order = [_ai_seat(_field(w, "seat", f"result.finishing_order[{k}]"), n, f"result.finishing_order[{k}].seat")
             for k, w in enumerate(_ai_list(result, "finishing_order", "result"))]
    lost = _field(result, "loser", "result")
    app_loser = None if lost is None else _ai_seat(_field(lost, "seat", "result.loser"), n, "result.loser.seat")
    if texts.engine is not None and not texts.differs:
        left = [s for s in range(n) if s not in texts.out]
        referee_loser = left[0] if len(left) == 1 else None
        if (texts.out, referee_loser) != (order, app_loser):
            first = next((k for k, (x, y) in enumerate(zip(texts.out, order)) if x != y), min(len(texts.out), len(order)))
            texts.differs.append(f"the end, the order of getting away: the app's {' '.join(seats[s] for s in order) or 'none'}, "
                                 f"the texts' {' '.join(seats[s] for s in texts.out) or 'none'} (from the {first + 1}. out)")

    names = [] if seats[0] != "seat1" else [f"# seat{i + 1} is the app's {p!r}" for i, p in enumerate(players)]
    head = [f'[Seats "{" ".join(seats)}"]', f'[Rules "{THULLA_AI_RULES}"]', '[Source "thulla-ai"]']
    if app_loser is not None:
        head.append(f'[Result "{seats[app_loser]}"]')
    notes = names + [f"# where the app departs from the texts: {d}" for d in THULLA_AI_DEPARTURES]
    notes += [f"# where the texts part from the app: {d}" for d in texts.differs]
    text = "%gwy 1\n\n%game\n" + "\n".join(head + notes + lines) + "\n"
    return Imported(text, THULLA_AI_RULES, list(THULLA_AI_DEPARTURES), plays, texts.differs)



# ---- card-game-thulla: a boardgame.io match of the Bhabhi Thulla table -------------------

# Its engine plays the first trick in turn from the A♠ holder, and a player who plays their
# last card gets away at once, the lead passing on (Pagat, Getaway: Variations, 3).
CGT_RULES = "pagat last_card=pass_lead first_trick=in_turn"
CGT_DEPARTURES = (
    "in the first trick the app ends the trick at the first card of another suit (the cards go to "
    "the waste pile and the A♠ holder leads); the texts have everyone play to the first trick "
    "(Pagat, Getaway: First trick)",
    "the app lets a last card get away at once, also with one other player left, and ends the game "
    "as soon as one player holds cards, in the middle of a trick; the texts play the trick out and "
    "have a last card that wins a clean trick against one other player draw from the waste pile "
    "(Pagat, Getaway: Two players; Variations, 3)",
    "only the leader may take, before leading, and the app may let the player taken refuse; the "
    "texts let any player take before any trick, with no refusal (Pagat, Getaway: Taking cards)",
)
_CGT_SUITS = {"S": "S", "H": "H", "D": "D", "C": "C"}
_CGT_RANKS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}


def _cgt_card(value: Any, where: str) -> int:
    """A card as the app names it: its suit letter, a dash, its rank 2-14 (11 J ... 14 A)."""
    if isinstance(value, str) and "-" in value:
        suit, _, rank = value.partition("-")
        if suit in _CGT_SUITS and rank.isdigit() and int(rank) in _CGT_RANKS:
            card = C.parse_card(_CGT_RANKS[int(rank)] + suit)
            if card is not None:
                return card
    raise ImportProblem(f"{where}: {value!r} is not a card (a suit S, H, D or C, a dash and a rank 2 to 14)")


def _json_field(obj: Any, keys: tuple[str, ...], where: str) -> Any:
    """A field the storage may keep as JSON text (the SQLite row) or as JSON (boardgame.io's fetch)."""
    for key in keys:
        if isinstance(obj, dict) and key in obj:
            got = obj[key]
            if isinstance(got, str):
                try:
                    return json.loads(got)
                except json.JSONDecodeError as e:
                    raise ImportProblem(f"{where}.{key}: not JSON: {e.msg}") from None
            return got
    raise ImportProblem(f"{where}: no {keys[0]!r}")


def read_card_game_thulla(data: Any) -> Imported:
    """The first deal of a boardgame.io match of card-game-thulla as a record (see the
    module's docstring)."""
    initial = _json_field(data, ("initialState", "initial_state"), "the match")
    log = _json_field(data, ("log",), "the match")
    if not isinstance(log, list):
        raise ImportProblem("log: not a list of entries")
    g0 = _field(initial, "G", "initialState")
    raw_hands = _field(g0, "hands", "initialState.G")
    if not isinstance(raw_hands, dict) or not 2 <= len(raw_hands) <= 8:
        raise ImportProblem("initialState.G.hands: not the hands of 2 to 8 seats")
    ids = sorted(raw_hands, key=lambda k: int(k) if isinstance(k, str) and k.isdigit() else -1)
    if ids != [str(i) for i in range(len(ids))]:
        raise ImportProblem(f"initialState.G.hands: the seats are {', '.join(map(repr, ids))}, not 0 to {len(ids) - 1}")
    n = len(ids)
    hands = []
    for s in range(n):
        hand = raw_hands[str(s)]
        if not isinstance(hand, list):
            raise ImportProblem(f"initialState.G.hands.{s}: not a list of cards")
        hands.append([_cgt_card(_field(c, "id", f"initialState.G.hands.{s}[{k}]"), f"initialState.G.hands.{s}[{k}].id")
                      for k, c in enumerate(hand)])
    meta = data.get("metadata") if isinstance(data, dict) else None
    if isinstance(meta, str):
        try:
            meta = json.loads(meta)
        except json.JSONDecodeError:
            meta = None
    players = meta.get("players") if isinstance(meta, dict) else None
    names = [players.get(str(s), {}).get("name") if isinstance(players, dict) and isinstance(players.get(str(s)), dict)
             else None for s in range(n)]
    seats = _seat_names(names) if all(names) else [f"P{s + 1}" for s in range(n)]
    permission = bool(g0.get("takeRequiresPermission", False)) if isinstance(g0, dict) else False

    rules = parse_spec(CGT_RULES)
    try:
        engine = Engine.from_deal(rules, hands)
    except ValueError as e:
        raise ImportProblem(f"initialState.G.hands: the deal cannot be: {e}") from None
    texts = _Following(engine, seats)

    held = [set(h) for h in hands]
    active = [s for s in range(n) if held[s]]
    first = True
    trick: list[tuple[int, int]] = []
    in_trick: list[int] = []
    number = 0
    lines = ["deal"] + [f"{seats[s]} {' '.join(C.card_str(c) for c in C.sort_cards(h))}" for s, h in enumerate(hands)]
    finished = False
    pending: tuple[int, int] | None = None
    stopped = ""
    plays = 0

    def take(a: int, b: int, at: str) -> None:
        nonlocal finished
        lines.append(f"{seats[a]} takes {seats[b]}")
        texts.follow(EV.TakeHand(a, b), f"the take before trick {number + 1} ({seats[a]} takes {seats[b]})")
        held[a] |= held[b]
        held[b] = set()
        if b in active:
            active.remove(b)
        finished = len(active) == 1

    for i, entry in enumerate(log):
        at = f"log[{i}]"
        action = _field(entry, "action", at)
        if _field(action, "type", f"{at}.action") != "MAKE_MOVE":
            continue  # the framework's own entries (a turn ended)
        payload = _field(action, "payload", f"{at}.action")
        move = _field(payload, "type", f"{at}.action.payload")
        who = _field(payload, "playerID", f"{at}.action.payload")
        if move in ("startGame", "unlockPeek", "dismissPickup", "dismissTakeReject"):
            continue  # the table's housekeeping, no play
        if move == "playAgain":
            stopped = f"a new deal begins at {at}; the record keeps the first (the log does not hold the next deal's hands)"
            break
        if not (isinstance(who, str) and who.isdigit() and int(who) < n):
            raise ImportProblem(f"{at}.action.payload.playerID: {who!r} is not a seat (0 to {n - 1})")
        s = int(who)
        if move == "leaveGame":
            stopped = f"{seats[s]} left the table at {at} (the app throws the hand away); the record stops there"
            break
        if finished:
            raise ImportProblem(f"{at}: a {move} after the deal was over")
        args = payload.get("args") if isinstance(payload, dict) else None
        if move == "playCard":
            if not isinstance(args, list) or not args:
                raise ImportProblem(f"{at}.action.payload.args: no card")
            c = _cgt_card(args[0], f"{at}.action.payload.args[0]")
            if c not in held[s]:
                raise ImportProblem(f"{at}: {seats[s]} plays {C.card_str(c)}, which {seats[s]} does not hold")
            if not trick:
                number += 1
                in_trick = list(active)
                lines.append("")
            trick.append((s, c))
            plays += 1
            lines[-1] = f"{number}. " + ", ".join(f"{seats[p]} {C.card_str(x)}" for p, x in trick)
            texts.follow(EV.PlayCard(s, c), f"trick {number} ({seats[s]} {C.card_str(c)})")
            held[s].discard(c)
            if not held[s] and s in active:
                active.remove(s)
            led = C.SUIT[trick[0][1]]
            tochoo = len(trick) > 1 and C.SUIT[c] != led
            if len(active) == 1:
                finished = True
            elif tochoo or all(p in (q for q, _ in trick) for p in in_trick):
                if tochoo and not first:
                    high = max((x for x in trick if C.SUIT[x[1]] == led), key=lambda x: C.RANK[x[1]])[0]
                    held[high] |= {x for _, x in trick}
                    if high not in active:
                        active.append(high)
                first = False
                trick = []
        elif move == "takeLeftHand":
            later = [t for t in sorted(active) if t > s]
            b = (later or sorted(active))[0]
            if permission:
                pending = (s, b)
            else:
                take(s, b, at)
        elif move == "respondTake":
            if pending is None:
                raise ImportProblem(f"{at}: an answer to a take nobody asked for")
            a, b = pending
            pending = None
            if isinstance(args, list) and args and args[0] is True:
                take(a, b, at)
            else:
                lines.append(f"# {seats[b]} refused to give {seats[a]} the hand")
        else:
            raise ImportProblem(f"{at}.action.payload.type: {move!r} is not a move of the app")

    app: tuple[list[int], int] | None = None
    state = data.get("state") if isinstance(data, dict) else None
    if isinstance(state, str):
        state = _json_field(data, ("state",), "the match")
    history = state.get("G", {}).get("dealHistory") if isinstance(state, dict) and isinstance(state.get("G"), dict) else None
    if isinstance(history, list) and history and isinstance(history[0], dict):
        h = history[0]
        try:
            app = [int(x) for x in h.get("gotAway", [])], int(h["bhabhi"])
        except (KeyError, TypeError, ValueError):
            raise ImportProblem("state.G.dealHistory[0]: not a result (gotAway, bhabhi)") from None
    if texts.engine is not None and not texts.differs and finished and not texts.over:
        texts.differs.append(f"the end (trick {number}): the app ends the deal there, {seats[active[0]]} being the only one "
                             f"holding cards; by the texts the trick is played out and the game goes on")
    elif texts.engine is not None and not texts.differs and app is not None and texts.over:
        left = [x for x in range(n) if x not in texts.out]
        if (texts.out, left[:1]) != (app[0], [app[1]]):
            texts.differs.append(f"the end, the order of getting away: the app's {' '.join(seats[x] for x in app[0])}, "
                                 f"the texts' {' '.join(seats[x] for x in texts.out)}")
    head = [f'[Seats "{" ".join(seats)}"]', f'[Rules "{CGT_RULES}"]', '[Source "card-game-thulla"]']
    notes = []
    if app is not None and 0 <= app[1] < n:
        if texts.over:  # the replay ends too: check holds the app's loser against it
            head.append(f'[Result "{seats[app[1]]}"]')
        else:
            notes.append(f"# the app's result: {seats[app[1]]} lost")
    notes += [f"# where the app departs from the texts: {d}" for d in CGT_DEPARTURES]
    notes += [f"# where the texts part from the app: {d}" for d in texts.differs]
    notes += [f"# {stopped}"] if stopped else []
    text = "%gwy 1\n\n%game\n" + "\n".join(head + notes + [ln for ln in lines if ln]) + "\n"
    return Imported(text, CGT_RULES, list(CGT_DEPARTURES), plays, texts.differs)


READERS: dict[str, Callable[[Any], Imported]] = {"bhabhi-live-solver": read_live_solver, "thulla-ai": read_thulla_ai,
                                               "card-game-thulla": read_card_game_thulla}
FORMATS = tuple(READERS)


def import_command(fmt: str, file: Path, output: Path | None = None, force: bool = False) -> int:
    """``getaway-ref import --from FORMAT FILE``: the record on standard output, or written
    to ``output`` (an existing file only with ``force``); a log that cannot be read is one
    line naming the file and the place, exit 2."""
    reader = READERS.get(fmt)
    if reader is None:
        raise UsageError(f"--from {fmt}: the formats are {', '.join(FORMATS)}")
    try:
        raw = file.read_bytes()
    except OSError as e:
        raise UsageError(io_error(e, file)) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise UsageError(f"{file}: not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise UsageError(f"{file}:{e.lineno}:{e.colno}: not JSON: {e.msg}") from None
    try:
        got = reader(data)
    except ImportProblem as e:
        raise UsageError(f"{file}: {e}") from None
    if output is None:
        print(got.text, end="")
        return 0
    if output.exists() and not force:
        raise UsageError(f"{output} exists; give --force to replace it")
    try:
        write_text(output, got.text, inputs=[file])
    except (WriteError, OSError) as e:
        raise UsageError(f"cannot write {output}: {getattr(e, 'strerror', None) or e}") from None
    print(f"wrote {output}: 1 game, {got.plays} plays, rules {got.spec}"
          + (f"; {len(got.departures)} departure(s) of the app from the texts, noted in the record" if got.departures else ""))
    for d in got.differs:
        print(f"the texts part from the app at {d}")
    return 0
