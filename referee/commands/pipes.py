"""How every command ends when the reader of its output goes away (``getaway-ref ... | head``).

One behaviour for all of them, as the README promises: nothing more is written, nothing is
said (the record is not to blame, and there is nobody left to tell), and the exit code is 2,
an I/O error: the output was not all delivered. ``referee/_start.py`` applies it to whatever
a command raises or leaves unflushed; a command that stops early itself (``check``,
``simulate``) ends with :func:`closed_pipe` too.
"""

from __future__ import annotations

import os
import sys
from typing import NoReturn

from referee.engine import language as L

EXIT_CLOSED = 2  # the output was not all delivered: an I/O error
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report Ctrl-C


def closed_pipe() -> int:
    """Standard output goes nowhere from here (so that the interpreter's last flush cannot
    fail and print a traceback of its own); the exit code."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # standard output closed or replaced: nothing to redirect
        pass
    return EXIT_CLOSED


def end_now(code: int) -> NoReturn:
    """End the process at once with ``code``, what was written delivered, without waiting
    for its threads: for a run whose worker pool kept a thread that could not be ended (the
    interpreter's exit would wait for it for ever, issue 36). Nothing the user wrote is at
    stake: ``check`` writes no file."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def same_terminal() -> bool:
    """Are standard output and standard error one terminal (the output on the screen where a
    progress bar is)? Then rich may print the output above its bar; otherwise the bar must
    leave standard output alone, or a redirect or pipe gets nothing (issue 24)."""
    try:
        return sys.stdout.isatty() and os.path.samestat(os.fstat(sys.stdout.fileno()), os.fstat(sys.stderr.fileno()))
    except (ValueError, AttributeError, OSError):  # closed, or replaced by something without a descriptor
        return False


def interrupted() -> int:
    """Ctrl-C: one line on standard error, exit 130."""
    try:
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):
        closed_pipe()
    try:
        sys.stderr.write(L.gettext("interrupted") + "\n")
    except OSError:
        pass
    return EXIT_INTERRUPTED
