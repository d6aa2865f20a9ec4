"""``review`` in the page: the command line's own ``review`` on the text (see ``browser.py``),
its progress told to the page as it goes. The site runs it in a Web Worker of its own, so
the page and the engine's other questions (the table, a check) answer while a review runs.
A module of its own because the review imports the solver and rich, which nothing else the
page asks needs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from referee.review.command import review_command
from referee.site.browser import run, write_game


class Told:
    """The review's progress, told to the page: ``tell(game, done, total)`` at each play
    reached, and ``done == total`` when a game's review ends (the review itself tells each
    play as it starts on it)."""

    def __init__(self, tell: Callable[[int, int, int], object]) -> None:
        self.tell = tell
        self.games = 0
        self.total = 0

    def __call__(self, done: int, total: int) -> None:
        self.total = total
        self.tell(self.games, done, total)

    def game(self) -> None:
        self.end()
        self.games += 1
        self.total = 0

    def end(self) -> None:
        if self.games and self.total:
            self.tell(self.games, self.total, self.total)

    def close(self) -> None:
        self.end()


def review(text: str, name: str | None, as_json: bool, tell: Callable[[int, int, int], object]) -> str:
    """``getaway-ref review [--format json] NAME`` on the text, its progress told as it goes."""
    file = write_game(text, name)
    told = Told(tell)
    return run(lambda: review_command(Path(file), fmt="json" if as_json else "text", progress=told))
