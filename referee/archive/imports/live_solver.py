"""The ``bhabhi-live-solver`` is the archive the Getaway Live Solver (the public
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
"""

from __future__ import annotations

from typing import Any

from referee.archive.imports.common import SUIT_LETTERS, Imported, ImportProblem, cannot_deal, field_of
from referee.engine import cards as C
from referee.engine import events as EV
from referee.engine.language import gettext as _
from referee.engine.rules import parse_spec
from referee.engine.state import Engine

SEATS = ("user", "p2", "p3")
_CARD_RANKS = "23456789TJQKA"


def _card(value: Any, where: str) -> int:
    if not (isinstance(value, str) and len(value) == 2 and value[0] in _CARD_RANKS and value[1] in SUIT_LETTERS):
        raise ImportProblem(_("{where}: {value!r} is not a card (a rank 2-9, T, J, Q, K or A and a suit C, D, H or S)")
                            .format(where=where, value=value))
    card = C.parse_card(value)
    assert card is not None
    return card


def _seat(value: Any, where: str) -> int:
    if value not in SEATS:
        raise ImportProblem(_("{where}: {value!r} is not a seat (user, p2 or p3)").format(where=where, value=value))
    return SEATS.index(value)


def _rules(cfg: Any, where: str) -> tuple[str, list[str]]:
    """The rule set the app's settings imply, and where they depart from the texts."""
    said: list[str] = []
    words = ["pagat"]
    direction = field_of(cfg, "direction", where)
    if direction not in ("clockwise", "anticlockwise"):
        raise ImportProblem(_("{where}: {value!r} is not clockwise or anticlockwise").format(where=f"{where}.direction",
                                                                                               value=direction))
    if direction == "anticlockwise":
        words.append("direction=anticlockwise")
    take = field_of(field_of(cfg, "takeHand", where), "mode", f"{where}.takeHand")
    if take == "disabled":
        words.append("taking=no")
    elif take in ("adjacent", "configured"):
        said.append(f"the app lets a seat take the hand of {'the seat beside it' if take == 'adjacent' else 'a seat set in advance'}; "
                    "the texts allow only the next player holding cards (check reports any other take, R108)")
    elif take != "next-active":
        raise ImportProblem(_("{where}: {value!r} is not a mode of the format").format(where=f"{where}.takeHand.mode", value=take))
    zero = field_of(cfg, "zeroCardsWithPower", where)
    mode = field_of(zero, "mode", f"{where}.zeroCardsWithPower")
    if mode == "immediate-escape":
        words.append("last_card=pass_lead")
    elif mode == "draw-from-player":
        target = field_of(zero, "drawFromTarget", f"{where}.zeroCardsWithPower")
        words += ["last_card=draw_hand", "draw_from=next" if target == "next-active" else "draw_from=any"]
    elif mode != "waste-draw":
        raise ImportProblem(_("{where}: {value!r} is not a mode of the format").format(where=f"{where}.zeroCardsWithPower.mode",
                                                                                         value=mode))
    if field_of(cfg, "openingOffSuit", where) == "highest":
        said.append("the app asks for the highest card of another suit in the first trick; the texts let a player "
                    "without a spade play any card")
    two = field_of(cfg, "twoPlayer", where)
    if two != "pagat-shootout":
        said.append(f"the app ends a game of two players its own way ({two}); the texts' two-player ending is judged")
    return " ".join(words), said


def read_live_solver(data: Any) -> Imported:
    """The archive of the Getaway Live Solver as a record (see the module's docstring)."""
    if not isinstance(data, dict) or data.get("schemaVersion") != 1:
        raise ImportProblem(_("not an archive of schema version 1 (no {field} at the top)").format(field='"schemaVersion": 1'))
    timeline = field_of(data, "timeline", _("the archive"))
    events = field_of(timeline, "events", "timeline")
    cursor = field_of(timeline, "cursor", "timeline")
    if not isinstance(events, list) or not events:
        raise ImportProblem(_("{where}: no events").format(where="timeline.events"))
    if not isinstance(cursor, int) or not 1 <= cursor <= len(events):
        raise ImportProblem(_("{where}: {value!r} is not between 1 and the {n} events").format(where="timeline.cursor", value=cursor,
                                                                                                 n=len(events)))
    first = events[0]
    if field_of(first, "type", "timeline.events[0]") != "game-created":
        raise ImportProblem(_("{where}: the first event is not {kind}").format(where="timeline.events[0]", kind="game-created"))
    spec, departures = _rules(field_of(first, "rules", "timeline.events[0]"), "timeline.events[0].rules")
    rules = parse_spec(spec)
    where = "timeline.events[0]"
    user = [_card(c, f"{where}.userHand[{i}]") for i, c in enumerate(field_of(first, "userHand", where))]
    counts = field_of(first, "startingCounts", where)
    sizes = []
    for seat in SEATS:
        n = field_of(counts, seat, f"{where}.startingCounts")
        if not isinstance(n, int) or n < 0:
            raise ImportProblem(_("{where}: {value!r} is not a number of cards").format(where=f"{where}.startingCounts.{seat}", value=n))
        sizes.append(n)
    if sizes[0] != len(user):
        raise ImportProblem(_("{where}: the user's hand has {held} cards, its starting count says {count}").format(
            where=where, held=len(user), count=sizes[0]))
    ace = _seat(field_of(first, "aceSpadesHolder", where), f"{where}.aceSpadesHolder")

    lines = ["deal", f"user {' '.join(C.card_str(c) for c in C.sort_cards(user))}", f"p2 {sizes[1]}", f"p3 {sizes[2]}"]
    engine: Engine | None
    try:
        engine = Engine.from_deal(rules, [user, sizes[1], sizes[2]])
    except ValueError as e:
        raise cannot_deal(where, e) from None
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
        kind = field_of(ev, "type", at)
        if kind == "card-played":
            s, c = _seat(field_of(ev, "seat", at), f"{at}.seat"), _card(field_of(ev, "card", at), f"{at}.card")
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
            a, t = _seat(field_of(ev, "actor", at), f"{at}.actor"), _seat(field_of(ev, "target", at), f"{at}.target")
            shown = [_card(x, f"{at}.revealedCards[{k}]") for k, x in enumerate(field_of(ev, "revealedCards", at))]
            lines.append(f"{SEATS[a]} takes {SEATS[t]}" + (f"  # shown: {' '.join(C.card_str(x) for x in shown)}" if shown else ""))
            current, previous = None, []
            follow(EV.TakeHand(a, t))
        elif kind == "waste-card-drawn":
            s, c = _seat(field_of(ev, "seat", at), f"{at}.seat"), _card(field_of(ev, "card", at), f"{at}.card")
            lines.append(f"{SEATS[s]} draws {C.card_str(c)}")
            current, previous = None, []
            follow(EV.DrawCard(s, c, None))
        elif kind == "player-card-drawn":
            s, c = _seat(field_of(ev, "seat", at), f"{at}.seat"), _card(field_of(ev, "card", at), f"{at}.card")
            src = _seat(field_of(ev, "source", at), f"{at}.source")
            lines.append(f"{SEATS[s]} draws {C.card_str(c)} from {SEATS[src]}")
            current, previous = None, []
            follow(EV.DrawCard(s, c, src))
        elif kind == "game-created":
            raise ImportProblem(_("{where}: a second {kind} event (only the first event creates the game)").format(
                where=at, kind="game-created"))
        else:
            raise ImportProblem(_("{where}: {value!r} is not an event of the format").format(where=f"{at}.type", value=kind))
    head = ['[Seats "user p2 p3"]', f'[Rules "{spec}"]', '[Source "bhabhi-live-solver"]']
    notes = [f"# the app's seat {SEATS[ace]} held the A♠"] if ace != 0 else []
    notes += [f"# where the app departs from the texts: {d}" for d in departures]
    if cursor < len(events):
        notes.append(f"# {len(events) - cursor} event(s) after the app's cursor were undone and are left out")
    text = "%gwy 1\n\n%game\n" + "\n".join(head + notes + lines) + "\n"
    return Imported(text, spec, departures, plays)



# ---- thulla-ai: the completed game of the Thulla AI web app ------------------------------

# The rule set its engine implies: the first trick in turn from the A♠ holder, and a last card
