"""What judging one game gives (:class:`GameResult`), each item of its record replayed
(:class:`Step`), and a finding as a :class:`~referee.reports.diagnostics.Diagnostic` value."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from referee.engine import citations as R
from referee.engine import state as E
from referee.engine.events import Event
from referee.engine.rules import RuleSet
from referee.notation.record import (
    Counts,
    Draw,
    Game,
    Play,
    Span,
    Take,
)
from referee.reports.diagnostics import CODES, ERROR, Diagnostic, PenaltyFacts, Related


@dataclass
class GameResult:
    """What the referee found in one game."""

    game: Game
    rules: RuleSet | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    judged: bool = True
    stopped: str | None = None  # why the replay stopped early
    tricks: int = 0
    out_order: list[int] = field(default_factory=list)
    loser: int | None = None
    legs: int | None = None
    sizes: list[int] = field(default_factory=list)
    finished: bool = False
    engine: E.Engine | None = None
    # The replay's items (plays, takes, draws, counts, 0 up) it judged, and, for each item it
    # judged off the plain path (every take, draw and count, every mistake, every play the
    # engine did not accept at once), where that item's events and findings lie: (events
    # logged before it, after it, diagnostics before it, after it). A plain play is not
    # listed: its events are its Played and what followed, up to the next item's. Read with
    # the engine's ``logged()``, they say at which item each event and finding happened with
    # no second walk (the Parquet export).
    items: int = 0
    off_path: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == ERROR)


class Stopped(Exception):
    """The record cannot be judged on from here (a deal or position that cannot be true,
    a state the record cannot have): the message says why, as ``GameResult.stopped``."""


@dataclass(slots=True)
class Step:
    """One item of the record, replayed: the play, take, draw or count; the record's trick
    number (plays only); the state before and after; what happened (typed events of
    :mod:`referee.engine.events`); the diagnostics reported at it."""

    item: Play | Take | Draw | Counts
    trick: int | None
    before: E.Engine
    after: E.Engine
    events: list[Event]
    diagnostics: list[Diagnostic]


def diagnostic(game: Game, code: str, message: str, span: Span | None, *, label: str = "",
                notes: Iterable[str] = (), help: str | None = None, trick: int | None = None,
                related: Iterable[Related] = (), penalty: PenaltyFacts | None = None) -> Diagnostic:
    """A finding of the referee at ``span`` of ``game``, with its code's severity and, when no
    note cites a source, the code's rule."""
    kept = [n for n in notes if n]
    if code in CODES and not any(n.startswith((R.PAGAT, R.DENEXA, R.RULINGS, R.NOTATION)) for n in kept):
        kept.append(CODES[code].rule)
    return Diagnostic(
        code, message, span, label=label, notes=kept, help=help,
        severity=CODES[code].severity if code in CODES else ERROR, game=game.number, trick=trick,
        source_line=game.source_line(span.line) if span and span.line else "", path=game.path,
        related=list(related), penalty=penalty,
    )
