"""The files a command is given, looked at before anything reads them.

A name that is not a regular file (``/dev/zero``, a pipe, a socket) would be read for ever
or until memory runs out; a name longer than the file system allows, or one that is not
UTF-8, cannot be reported faithfully. Each gets one line and exit 2. ``-`` is standard
input, copied to a temporary file so that it is read like any other (and by ``--jobs``).
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from referee.engine import language as L

NAME_MOST = 255  # bytes in one part of a path: what Linux, macOS and Windows file systems allow
STDIN = "-"
STDIN_NAME = "<stdin>"


def problem(path: Path) -> str | None:
    """Why ``path`` cannot be read as a record, or None. A missing file is not a problem
    here: the reader says so in its own words."""
    s = str(path)
    if s == STDIN:
        return None
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return L.gettext("the file name is not UTF-8 text")
    for part in Path(s).parts:
        if len(part.encode("utf-8")) > NAME_MOST:
            return L.gettext("a part of the file name is longer than {most} bytes").format(most=NAME_MOST)
    try:
        st = os.stat(s)
    except OSError:
        return None
    if stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode):
        return None
    return L.gettext("not a regular file (a device, a pipe or a socket); give a .gwy record")


# The refusals every command that reads records says alike, written once (check, tally, fmt,
# export, link, import): each a whole sentence of the catalogue, the names as given.


def no_records(paths: Sequence[Path | str]) -> str:
    """A command given names that hold no record: the names as the user gave them."""
    return L.gettext("no .gwy records found in {paths}").format(paths=", ".join(map(str, paths)))


def holds_no_game(path: Path | str) -> str:
    """A file with no ``%game`` line, so no game to take from it (link, puzzles)."""
    return L.gettext("{file}: holds no game (a game begins with a %game line)").format(file=path)


def not_text(path: Path | str) -> str:
    """A file whose bytes are not UTF-8, so not a record or a log."""
    return L.gettext("{file}: not UTF-8 text").format(file=path)


def spool_stdin() -> Path:
    """Standard input copied to a temporary file, a block at a time."""
    fd, tmp = tempfile.mkstemp(prefix="getaway-stdin-", suffix=".gwy")
    with os.fdopen(fd, "wb") as f:
        src = sys.stdin.buffer
        while True:
            block = src.read(1 << 20)
            if not block:
                break
            f.write(block)
    return Path(tmp)


def expand(paths: list[Path]) -> list[Path]:
    """Files as given; directories give their .gwy files, recursively, in name order."""
    out: list[Path] = []
    for p in paths:
        if str(p) != STDIN and problem(p) is None and p.is_dir():
            out.extend(sorted(q for q in p.rglob("*.gwy") if q.is_file()))
        else:
            out.append(p)
    return out


def has_syntax_errors(name: Path | str, n: int) -> str:
    """A record exported as far as it reads: how many syntax errors, and the command that shows them."""
    return L.ngettext("{file}: {n} syntax error; run getaway-ref check {file}",
                      "{file}: {n} syntax errors; run getaway-ref check {file}", n).format(file=name, n=n)
