"""``legal`` and ``ask`` in the page (see ``browser.py``): the command line's own commands on
the text. A module of its own because they import the table's modules and rich, which
``check`` never needs: the worker imports it on the first question.
"""

from __future__ import annotations

from pathlib import Path

from referee.commands.options import UsageError
from referee.engine import language as L
from referee.site.browser import run, write_game
from referee.table.answers import ask_command
from referee.table.views import legal_command


def legal(text: str, name: str | None = None) -> str:
    """``getaway-ref legal --format json NAME`` on the text."""
    file = write_game(text, name)
    return run(lambda: legal_command(Path(file), as_json=True))


def ask(text: str, trick: int, seat: str | None = None, name: str | None = None) -> str:
    """``getaway-ref ask NAME --trick TRICK [--seat SEAT]`` on the text."""
    file = write_game(text, name)
    if int(trick) < 1:
        return run(lambda: _no_such_trick(trick))
    return run(lambda: ask_command(Path(file), int(trick), seat or None))


def _no_such_trick(trick: int) -> int:
    """A trick before the first, refused as the command line refuses a usage problem."""
    raise UsageError(L.gettext("{option} {trick}: a trick is numbered from 1").format(option="--trick", trick=trick))
