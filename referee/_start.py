"""The ``getaway-ref`` command's entry point: ``check`` started without typer.

Start-up (issue 16): typer imports pydantic and builds every command's parameters, over half
of what ``getaway-ref check one-record.gwy`` spent before judging a single play. So a plain
``check`` command line is read here, and typer (``referee/cli.py``) takes every other
command, ``--help``, and any ``check`` line this reader does not take whole: an unknown or
repeated option, a value that needs checking (``--format xml``), ``--``, a rules option that
does not read. Those go to typer before anything is printed, so its messages and exit codes
stay exactly its own; ``GETAWAY_TYPER_ONLY=1`` sends every command line to typer (the tests
compare both ways). Deferred imports live only in the command-line layer (here, and each
command of ``referee/cli.py``) and the package's ``__getattr__``: typer is imported only
when it is needed.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from referee.commands import UsageError, check_command

# check's options: name -> (key, takes a value). The names are cli.check's, no others.
_CHECK_OPTIONS: dict[str, tuple[str, bool]] = {
    "--format": ("format", True), "-f": ("format", True),
    "--rules": ("rules", True),
    "--rules-file": ("rules_file", True),
    "--set": ("set", True),
    "--force-rules": ("force_rules", False),
    "--quiet": ("quiet", False), "-q": ("quiet", False),
    "--jobs": ("jobs", True), "-j": ("jobs", True),
    "--select": ("select", True), "--ignore": ("ignore", True),
    "--exit-zero": ("exit_zero", False), "--statistics": ("statistics", False),
    "--dask": ("dask", True),
}
_REPEATABLE = ("set", "select", "ignore")


class _ToTyper(Exception):
    """A command line for typer to read."""


@dataclass
class CheckLine:
    """check's arguments as read: the paths, each option that takes one value, each flag
    given, and the repeatable options' values in order."""

    paths: list[Path] = field(default_factory=list)
    values: dict[str, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    lists: dict[str, list[str]] = field(default_factory=lambda: {k: [] for k in _REPEATABLE})


def read_check_line(args: list[str]) -> CheckLine:
    """check's arguments as cli.check receives them; _ToTyper for anything else."""
    got = CheckLine()
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if not word.startswith("-") or word == "-":
            got.paths.append(Path(word))
            continue
        name, eq, value = word.partition("=") if word.startswith("--") else (word, "", "")
        if name not in _CHECK_OPTIONS:
            raise _ToTyper(word)  # --help, --, -qf, -j2, an unknown option
        key, takes_value = _CHECK_OPTIONS[name]
        if not takes_value:
            if eq or key in got.flags:
                raise _ToTyper(word)
            got.flags.add(key)
            continue
        if not eq:
            if i == len(args):
                raise _ToTyper(word)
            value = args[i]
            i += 1
        if value.startswith("-") or (key not in _REPEATABLE and key in got.values):
            raise _ToTyper(word)
        if key in _REPEATABLE:
            got.lists[key].append(value)
        else:
            got.values[key] = value
    if not got.paths or got.values.get("format", "text") not in ("text", "json", "jsonl", "github", "sarif", "junit"):
        raise _ToTyper("usage")
    return got


def fast_check(args: list[str]) -> int:
    """Run ``check ARGS`` as cli.check does (the same function), or raise _ToTyper before
    printing anything, so that typer reads the line and says what is wrong its own way."""
    got = read_check_line(args)
    rules_file = got.values.get("rules_file")
    try:
        return check_command(
            got.paths, output_format=got.values.get("format"), select=got.lists["select"], ignore=got.lists["ignore"],
            exit_zero="exit_zero" in got.flags, statistics="statistics" in got.flags, rules=got.values.get("rules"),
            rules_file=Path(rules_file) if rules_file is not None else None, sets=got.lists["set"],
            force_rules="force_rules" in got.flags, quiet="quiet" in got.flags, jobs=got.values.get("jobs", "auto"),
            dask=got.values.get("dask"))
    except UsageError:
        raise _ToTyper("usage") from None


def main() -> None:
    argv = sys.argv[1:]
    if argv[:1] == ["check"] and not os.environ.get("GETAWAY_TYPER_ONLY"):
        try:
            code = fast_check(argv[1:])
        except _ToTyper:
            pass
        except KeyboardInterrupt:
            sys.stderr.write("interrupted\n")
            sys.exit(130)
        else:
            sys.exit(code)
    if argv == ["lsp"]:
        # The editor server without typer: an editor waits for its answer to initialize.
        from referee.lsp import available

        if available():
            from referee.lsp.server import main as serve

            serve()
            sys.exit(0)
    from referee.cli import main as typer_main  # every other command line: typer's

    typer_main()
