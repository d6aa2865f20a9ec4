"""What ``check`` hands an output format as it streams a run: the contract of every sink.

A sink is called, in order: ``start_file(path)``, ``prelude(diagnostics)`` (the file's own
diagnostics, such as the version line), ``game(outcome)`` for each game, ``end_file(problem)``
(``problem`` says why a file could not be read, or is None), and ``finish(totals)`` once at the
end. The diagnostics given have already been chosen by ``--select``/``--ignore``.

Types and the formats' names only, and light: the plain ``check`` imports this module before it knows which format
it writes, so it must not pull in pydantic, rich or xml.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NotRequired, Protocol, TypedDict

from referee.reports.diagnostics import Diagnostic

# check's output formats (--output-format, and output-format in the settings), defined once.
FORMATS = ("text", "json", "jsonl", "github", "sarif", "junit")


class GameOutcome(Protocol):
    """What a sink reads of a judged game (``referee.archive.slices.GameOutcome`` is one):
    a protocol, so that reports do not import the stage above them."""

    # Read-only (properties), so that any sequence will do.
    @property
    def number(self) -> int: ...
    @property
    def line(self) -> int: ...
    @property
    def seats(self) -> Sequence[str]: ...
    @property
    def rules(self) -> str | None: ...
    @property
    def judged(self) -> bool: ...
    @property
    def stopped(self) -> str | None: ...
    @property
    def tricks(self) -> int: ...
    @property
    def plays(self) -> int: ...
    @property
    def out_order(self) -> Sequence[int]: ...
    @property
    def loser(self) -> int | None: ...
    @property
    def legs(self) -> int | None: ...
    @property
    def finished(self) -> bool: ...
    @property
    def sizes(self) -> Sequence[int]: ...
    @property
    def diagnostics(self) -> Sequence[Diagnostic]: ...
    @property
    def errors(self) -> int: ...
    @property
    def seconds(self) -> float: ...  # how long reading and judging it took


class Totals(TypedDict):
    """The run's counts, given to ``finish``. ``errors`` counts what fails the check (errors
    and mistakes), ``warnings`` the notes; ``severities`` counts each severity reported."""

    files: int
    games: int
    plays: int
    errors: int
    warnings: int
    unreadable: int
    severities: NotRequired[dict[str, int]]
    settings: NotRequired[list[str]]  # the settings files used, in the order first used


class Sink(Protocol):
    def start_file(self, path: str) -> None: ...
    def prelude(self, diags: list[Diagnostic]) -> None: ...
    def game(self, g: GameOutcome) -> None: ...
    def end_file(self, problem: str | None) -> None: ...
    def finish(self, totals: Totals) -> None: ...


class EachDiagnostic:
    """What the sinks that write each diagnostic as it comes (jsonl, github, sarif) share: the
    file being read, and a file's own diagnostics and a game's handed alike to ``_emit``."""

    path = ""

    def _emit(self, diags: Iterable[Diagnostic]) -> None:
        raise NotImplementedError

    def start_file(self, path: str) -> None:
        self.path = path

    def prelude(self, diags: list[Diagnostic]) -> None:
        self._emit(diags)

    def game(self, g: GameOutcome) -> None:
        self._emit(g.diagnostics)
