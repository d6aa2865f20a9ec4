"""The referee in the page: what the site's Web Worker calls, inside Pyodide.

Each question is the command line's own command, run on the text written to a file of
Pyodide's in-memory file system, its output captured: ``check --format json`` (and plain
``check`` for the text as the terminal shows it), ``legal --format json`` and ``ask``. So the
page's answers are the CLI's, code path and words alike; nothing here judges or words
anything. A usage problem comes back as the CLI's ``error: ...`` line, with exit code 2.

This module is what ``check`` needs, imported to be ready (:func:`warm`); ``legal`` and ``ask``
are in ``answers.py``, which the worker imports on their first use: they need the table's
modules and rich, which they print with.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from referee.check import check_main
from referee.commands.options import EXIT_USAGE, UsageError
from referee.engine import language as L
from referee.notation.reader import Reader

WORK = Path(os.environ.get("GETAWAY_SITE_DIR", "/home/pyodide/games"))
DEFAULT_NAME = "game.gwy"


def file_name(name: str | None) -> str:
    """A plain file name: the last part of what the page gives, ``game.gwy`` when it gives none."""
    base = PurePosixPath((name or "").replace("\\", "/")).name
    return base if base not in ("", ".", "..") else DEFAULT_NAME


def run(command: Callable[[], int]) -> str:
    """The command's exit code, standard output and standard error, as JSON."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = command()
        except UsageError as e:
            err.write(f"error: {e}\n")
            code = EXIT_USAGE
        except SystemExit as e:  # argparse's own usage error
            code = e.code if isinstance(e.code, int) else EXIT_USAGE
    return json.dumps({"exit": code, "out": out.getvalue(), "err": err.getvalue()}, ensure_ascii=False)


def write_game(text: str, name: str | None) -> str:
    """The text as a file of the in-memory file system, by its plain name (the path the
    answers show, as the CLI run in the file's folder shows it)."""
    WORK.mkdir(parents=True, exist_ok=True)
    os.chdir(WORK)
    file = file_name(name)
    (WORK / file).write_text(text, encoding="utf-8", newline="")
    return file


def check(text: str, name: str | None = None, as_json: bool = True) -> str:
    """``getaway-ref check --format json NAME`` (or plain ``check NAME``) on the text."""
    file = write_game(text, name)
    return run(lambda: check_main(["--format", "json", file] if as_json else [file]))


def speak(lang: str) -> None:
    """Say every answer from now on in ``lang`` (the page's language, a code of the shipped
    catalogues; one we do not know: English): the commands read it as ``--lang``'s default
    (``GETAWAY_LANG``), the table as the current language."""
    try:
        L.choose(lang)
    except ValueError:
        L.choose(L.ENGLISH)


def warm() -> None:
    """Build the parser ``check`` reads with, so that the first check is quick."""
    Reader("<warm>")  # the first reader builds the one parser (or loads it from its cache)
    settle()


def settle() -> None:
    """Move what the start made (modules, the parser's tables) out of the garbage collector's
    way: a full collection scanned them all, a pause of about 30 ms in CPython (several times
    that in the browser) now and then in the middle of an entry; frozen, they are never scanned."""
    gc.collect()
    gc.freeze()
