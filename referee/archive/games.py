"""One game of a file, for the commands that answer about one game: ``show``, ``legal``,
``ask``, ``html`` and ``review``.

It sits below both ``table/`` and ``review/`` (with the other readers of what a command is
given, ``archive/inputs.py``), so that each reads a game the same way and says a file's
problems in the same words, and neither imports the other for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from referee.archive.inputs import holds_no_game, problem
from referee.engine import language as L
from referee.files import recover
from referee.notation.reader import ReadError, readable_part
from referee.notation.record import Game
from referee.notation.seek import find_game
from referee.reports.diagnostics import Diagnostic


class TableError(Exception):
    """A usage problem (exit 2) or a record that cannot be shown (exit 1)."""

    def __init__(self, message: str, code: int = 2, diagnostics: Iterable[Diagnostic] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.diagnostics = list(diagnostics)


def read_clean_game(file: Path, game: int | None) -> Game:
    """The game, or a TableError if it has syntax errors (show and legal judge whole games)."""
    g = read_game(file, game)
    if g.errors:
        raise TableError(game_has_syntax_errors(file, g.number), 1, g.errors)
    return g


def game_has_syntax_errors(file: Path | str, number: int) -> str:
    """A game that cannot be shown for its syntax errors, and the command that lists them
    (show, legal, html, review, live)."""
    return L.gettext("{file}: game {number} has syntax errors (run getaway-ref check {file})").format(
        file=file, number=number)


def not_a_record(file: Path | str, why: str) -> str:
    """A file whose header cannot be read, so not a record; the reader's reason after ours."""
    return L.gettext("{file}: not a .gwy record: {why}").format(file=file, why=why)


def no_such_game(file: Path | str, number: int | None, count: int) -> str:
    """A game number past the file's last game, and how many it holds (show, html, export --game)."""
    return L.ngettext("{file}: there is no game {number} (the file holds {n} game)",
                      "{file}: there is no game {number} (the file holds {n} games)", count).format(
        file=file, number=number, n=count)


def read_judgeable_game(file: Path, game: int | None) -> Game:
    """The game, if it can be replayed at least in part: a game with a line that cannot be
    read is judged up to that line (show and legal then say where they stopped); a
    TableError if its header or deal cannot be read."""
    g = read_game(file, game)
    if g.errors and readable_part(g) is None:
        raise TableError(game_has_syntax_errors(file, g.number), 1, g.errors)
    return g


def read_game(path: Path, number: int | None = None) -> Game:
    """Game ``number`` (1-based) of a file, or its last game, found by its %game line
    without parsing the games before it (referee.notation.seek). No game: exit 2."""
    why = problem(path)
    if why is not None:
        raise TableError(f"{path}: {why}")
    recover([path])  # a rewrite of it cut short by a kill: put back before it is read
    try:
        found = find_game(str(path), number)
    except ReadError as e:
        raise TableError(f"{e.path}: {e.message}") from None
    if found.game is not None:
        return found.game
    if found.count:
        raise TableError(no_such_game(path, number, found.count))
    if found.prelude is not None and found.prelude.errors:
        raise TableError(not_a_record(path, found.prelude.errors[0].message), 2, found.prelude.errors)
    raise TableError(holds_no_game(path))
