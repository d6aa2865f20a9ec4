"""The ``getaway-ref`` command's entry point: ``check`` started without typer.

Start-up (issue 16): typer imports pydantic and builds every command's parameters, over half
of what ``getaway-ref check one-record.gwy`` spent before judging a single play. ``check`` is
read by its own parser, argparse, made from the one declaration of its options
(``referee/commands/options.py``); typer (``referee/cli.py``) takes every other command and
``getaway-ref --help``. Deferred imports live only in the command-line layer (here, and each
command of ``referee/cli.py``) and the package's ``__getattr__``: typer is imported only when
it is needed.

Every command ends the same way when the reader of its output goes away
(``getaway-ref ... | head``): silently, exit 2 (``referee/commands/pipes.py``).
"""

from __future__ import annotations

import sys

from referee.commands.pipes import closed_pipe, interrupted


def main() -> None:
    argv = sys.argv[1:]
    code: int | str | None
    try:
        if argv[:1] == ["check"]:
            from referee.check import check_main  # argparse: no typer for a check

            code = check_main(argv[1:])
            sys.stdout.flush()
        elif argv == ["lsp"] and _lsp_available():
            # The editor server without typer: an editor waits for its answer to initialize.
            # It has closed its standard output when it returns: nothing is left to flush.
            from referee.lsp.server import main as serve

            code = serve()
        else:
            code = _typer(argv)
    except BrokenPipeError:
        code = closed_pipe()
    except KeyboardInterrupt:
        code = interrupted()
    except SystemExit as e:
        code = _flushed(e)
    sys.exit(code)


def _typer(argv: list[str]) -> int:
    """Every other command line, through typer's: ``--lang`` taken first, wherever it
    stands, for every command (issue 40)."""
    from referee.commands.options import UsageError, choose_language, machine_line, say_error, take_language

    try:
        lang, rest = take_language(argv)
        choose_language(lang, machine=machine_line(rest))
    except UsageError as e:
        say_error(str(e))
        return 2
    sys.argv[1:] = rest
    from referee.cli import main as typer_main  # typer's

    typer_main()
    return 0


def _lsp_available() -> bool:
    from referee.lsp import available  # the lsp extra installed? (typer says how to get it if not)

    return available()


def _flushed(e: SystemExit) -> int | str | None:
    """A command's own exit, once what it wrote is delivered (a closed pipe: exit 2)."""
    if type(sys.stdout).__name__ == "PacifyFlushWrapper":
        # click met the closed pipe first (printing help, say) and ended with exit 1.
        return closed_pipe()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return closed_pipe()
    return e.code if isinstance(e.code, (int, str)) or e.code is None else 1
