"""What every importer shares: the log read (``Imported``), the one-line problem
(``ImportProblem``), the seats named from the players, and the engine following an app's game
(``Following``), where the texts part from what the app did."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.engine import events as EV
from referee.engine.language import N_
from referee.engine.language import gettext as _
from referee.engine.rules import parse_spec
from referee.engine.state import Engine

_SEAT_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,19}")
_NOT_SEATS = {"deal", "takes", "draws", "from", "out"}

# the suit letters the apps write, as our notation reads them
SUIT_LETTERS = "CDHS"


# The JSON parser's reasons a log most often meets, said in the chosen language (any other
# as the parser words it: Python's own text, which we do not translate).
JSON_REASONS = {m: m for m in (
    N_("Expecting value"), N_("Extra data"), N_("Expecting ',' delimiter"), N_("Expecting ':' delimiter"),
    N_("Expecting property name enclosed in double quotes"), N_("Unterminated string starting at"),
)}


def json_reason(msg: str) -> str:
    """The JSON parser's reason ``msg`` in the chosen language when we know it, else as written."""
    known = JSON_REASONS.get(msg)
    return _(known) if known is not None else msg


def cannot_deal(where: str, why: object) -> ImportProblem:
    """The log's deal the pack cannot give, said in our words; the engine's own reason (which
    card, how many) follows in brackets as it words it, a technical detail."""
    return ImportProblem(_("{where}: the deal cannot be ({why})").format(where=where, why=why))


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



def seat_names(players: list[Any]) -> list[str]:
    """The players' names as the record's seats, when each is one word and they differ;
    otherwise seat1, seat2, ... (the app's names are kept in a comment)."""
    words = [p for p in players if isinstance(p, str) and _SEAT_WORD.fullmatch(p) and p.lower() not in _NOT_SEATS]
    if len(words) == len(players) and len({w.lower() for w in words}) == len(words):
        return words
    return [f"seat{i + 1}" for i in range(len(players))]


class Following:
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

    @classmethod
    def dealt(cls, spec: str, hands: Sequence[Sequence[int]], seats: Sequence[str], where: str) -> Following:
        """Our engine dealt the app's ``hands`` under the rule set ``spec``, ready to follow its
        game; a deal that cannot be is the log's problem, said as ``where: why``."""
        try:
            engine = Engine.from_deal(parse_spec(spec), [list(h) for h in hands])
        except ValueError as e:
            raise cannot_deal(where, e) from None
        return cls(engine, seats)

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




def reads_text(reader: Any) -> Any:
    """Mark a reader whose app keeps its log as text, not JSON: ``import`` hands it the file's
    text as it is."""
    reader.reads_text = True
    return reader


def field_of(obj: Any, key: str, where: str) -> Any:
    """``obj[key]``, or the one-line problem naming where it is missing."""
    if not isinstance(obj, dict) or key not in obj:
        raise ImportProblem(_("{where}: no {key!r}").format(where=where, key=key))
    return obj[key]
