"""One walk through a game: every command that needs the positions of a game (check,
show, legal, live, an editor's hover, a replay page, the answers) consumes this walk
rather than replaying the record its own way.

    for step in replay(game, snapshots=True):
        print(step.trick, step.item, step.events, step.diagnostics)

The walk is the referee's own: penalties are applied, or the record followed as played,
exactly as ``check`` judges it, so no consumer can disagree with ``check``.
"""

from __future__ import annotations

from collections.abc import Iterator

from referee.engine.rules import RuleSet
from referee.judging.referee import GameResult, Referee, Step
from referee.notation.record import Game

__all__ = ["Replay", "Step", "replay"]


class Replay:
    """An iterable walk with its result: iterate it for the steps, then read ``result``."""

    def __init__(self, game: Game, rules: RuleSet | None = None, *, snapshots: bool = False,
                 overrides: dict[str, object] | None = None, force: bool = False):
        self._referee = Referee(default=rules, overrides=overrides, force=force, keep_engine=True)
        self._steps = self._referee.steps(game, snapshots=snapshots)

    def __iter__(self) -> Iterator[Step]:
        return self._steps

    @property
    def result(self) -> GameResult:
        """The referee's findings; complete once the walk has been iterated to its end."""
        for _ in self._steps:
            pass
        return self._referee.result


def replay(game: Game, rules: RuleSet | None = None, *, snapshots: bool = False,
           overrides: dict[str, object] | None = None, force: bool = False) -> Replay:
    """Walk ``game`` item by item. ``rules`` judges a game whose record names no rule set
    (with ``force``, every game); ``overrides`` are options that always apply."""
    return Replay(game, rules, snapshots=snapshots, overrides=overrides, force=force)
