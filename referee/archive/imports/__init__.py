"""``getaway-ref import --from FORMAT FILE``: a game kept by a Getaway app, as a record the
referee can judge (docs/archives.md, "Importing games from apps"). One module a format, each
with what it reads of the app's log; ``common.py`` holds what they share. A new format is a
module here and its line in ``READERS``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.archive.imports.bhabi_thulla_game import read_bhabi_thulla_game
from referee.archive.imports.card_game_thulla import read_card_game_thulla
from referee.archive.imports.common import Imported, ImportProblem, json_reason
from referee.archive.imports.live_solver import read_live_solver
from referee.archive.imports.thulla_ai import read_thulla_ai
from referee.archive.imports.thulla_masters import read_thulla_masters
from referee.archive.inputs import not_text
from referee.commands import UsageError
from referee.commands.options import cannot_write, exists_already
from referee.engine import language as L
from referee.files import WriteError, io_error, write_text

__all__ = ["FORMATS", "READERS", "ImportProblem", "Imported", "import_command"]

READERS: dict[str, Callable[[Any], Imported]] = {
    "bhabhi-live-solver": read_live_solver,
    "thulla-ai": read_thulla_ai,
    "card-game-thulla": read_card_game_thulla,
    "bhabi-thulla-game": read_bhabi_thulla_game,
    "thulla-masters": read_thulla_masters,
}
FORMATS = tuple(READERS)


def import_command(fmt: str, file: Path, output: Path | None = None, force: bool = False) -> int:
    """``getaway-ref import --from FORMAT FILE``: the record on standard output, or written
    to ``output`` (an existing file only with ``force``); a log that cannot be read is one
    line naming the file and the place, exit 2."""
    reader = READERS.get(fmt)
    if reader is None:
        raise UsageError(L.gettext("--from {format}: the formats are {formats}").format(format=fmt, formats=", ".join(FORMATS)))
    try:
        raw = file.read_bytes()
    except OSError as e:
        raise UsageError(io_error(e, file)) from None
    try:
        text = raw.decode("utf-8-sig")
        # a reader marked reads_text (common.reads_text) takes the text; the others, its JSON
        data = text if getattr(reader, "reads_text", False) else json.loads(text)
    except UnicodeDecodeError:
        raise UsageError(not_text(file)) from None
    except json.JSONDecodeError as e:
        # the file and place as written; JSON's own reason (the parser's words) after ours
        raise UsageError(L.gettext("{file}:{line}:{column}: not JSON: {why}").format(
            file=file, line=e.lineno, column=e.colno, why=json_reason(e.msg))) from None
    try:
        got = reader(data)
    except ImportProblem as e:
        raise UsageError(f"{file}: {e}") from None
    if output is None:
        print(got.text, end="")
        return 0
    if output.exists() and not force:
        raise UsageError(exists_already(output))
    try:
        write_text(output, got.text, inputs=[file])
    except (WriteError, OSError) as e:
        raise UsageError(cannot_write(output, e)) from None
    departures = len(got.departures)
    print(L.ngettext("wrote {file}: 1 game, {n} play, rules {rules}", "wrote {file}: 1 game, {n} plays, rules {rules}",
                     got.plays).format(file=output, n=got.plays, rules=got.spec)
          + (L.ngettext("; {n} departure of the app from the texts, noted in the record",
                        "; {n} departures of the app from the texts, noted in the record", departures).format(n=departures)
             if departures else ""))
    for d in got.differs:
        # where the app and the texts part (the record's comment, in English like the record)
        print(L.gettext("the texts part from the app at {place}").format(place=d))
    return 0
