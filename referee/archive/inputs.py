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
from pathlib import Path

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
        return "the file name is not UTF-8 text"
    for part in Path(s).parts:
        if len(part.encode("utf-8")) > NAME_MOST:
            return f"a part of the file name is longer than {NAME_MOST} bytes"
    try:
        st = os.stat(s)
    except OSError:
        return None
    if stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode):
        return None
    return "not a regular file (a device, a pipe or a socket); give a .gwy record"


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
