"""The ``getaway-ref`` command's entry point: ``check`` started without typer.

Start-up (issue 16): typer imports pydantic and builds every command's parameters, over half
of what ``getaway-ref check one-record.gwy`` spent before judging a single play. So a plain
``check`` command line is read here, and typer (``referee/cli.py``) takes every other
command, ``--help``, and any ``check`` line this reader does not take whole: an unknown or
repeated option, a value that needs checking (``--format xml``), ``--``, a rules option that
does not read. Those go to typer before anything is printed, so its messages and exit codes
stay exactly its own; ``GETAWAY_TYPER_ONLY=1`` sends every command line to typer (the tests
compare both ways). This and the package's ``__getattr__`` are the only deferred imports of
start-up: typer is imported only when it is needed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from referee.archive.check import run_check
from referee.archive.jobs import choose_jobs
from referee.engine.rules import OPTIONS, RuleSet, RulesError, coerce, load_file, parse_spec

# check's options: name -> (key, takes a value). The names are cli.check's, no others.
_CHECK_OPTIONS: dict[str, tuple[str, bool]] = {
    "--format": ("format", True), "-f": ("format", True),
    "--rules": ("rules", True),
    "--rules-file": ("rules_file", True),
    "--set": ("set", True),
    "--force-rules": ("force_rules", False),
    "--quiet": ("quiet", False), "-q": ("quiet", False),
    "--jobs": ("jobs", True), "-j": ("jobs", True),
}


class _ToTyper(Exception):
    """A command line for typer to read."""


def expand(paths: list[Path]) -> list[Path]:
    """Files as given; directories give their .gwy files, recursively, in name order."""
    out = []
    for p in paths:
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*.gwy") if q.is_file()))
        else:
            out.append(p)
    return out


def read_check_line(args: list[str]) -> dict[str, Any]:
    """check's arguments as cli.check receives them; _ToTyper for anything else."""
    got: dict[str, Any] = {"paths": [], "set": []}
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if not word.startswith("-") or word == "-":
            got["paths"].append(Path(word))
            continue
        name, eq, value = word.partition("=") if word.startswith("--") else (word, "", "")
        if name not in _CHECK_OPTIONS:
            raise _ToTyper(word)  # --help, --, -qf, -j2, an unknown option
        key, takes_value = _CHECK_OPTIONS[name]
        if not takes_value:
            if eq or key in got:
                raise _ToTyper(word)
            got[key] = True
            continue
        if not eq:
            if i == len(args):
                raise _ToTyper(word)
            value = args[i]
            i += 1
        if value.startswith("-") or (key != "set" and key in got):
            raise _ToTyper(word)
        if key == "set":
            got["set"].append(value)
        else:
            got[key] = value
    if not got["paths"] or got.get("format", "text") not in ("text", "json"):
        raise _ToTyper("usage")
    return got


def _rules(got: dict[str, Any]) -> tuple[RuleSet | None, dict[str, object]]:
    """--rules-file, --rules and --set as cli._rules_options reads them (its messages on error)."""
    default = None
    try:
        if "rules_file" in got:
            default = load_file(got["rules_file"])
        if "rules" in got:
            default = parse_spec(got["rules"], base=default)
    except (OSError, RulesError):
        raise _ToTyper("rules") from None
    overrides: dict[str, object] = {}
    for s in got["set"]:
        key, eq, value = s.partition("=")
        key = key.strip().lower().replace("-", "_")
        if not eq or key not in OPTIONS:
            raise _ToTyper("--set")
        try:
            overrides[key] = coerce(key, value)
        except ValueError:
            raise _ToTyper("--set") from None
    return default, overrides


def fast_check(args: list[str]) -> int:
    """Run ``check ARGS`` as cli.check does, or raise _ToTyper before printing anything."""
    got = read_check_line(args)
    default, overrides = _rules(got)
    files = expand(got["paths"])
    if not files:
        raise _ToTyper("no records")
    try:
        jobs = choose_jobs(sum(p.stat().st_size for p in files if p.is_file()), got.get("jobs", "auto"))
    except ValueError:
        raise _ToTyper("--jobs") from None
    return run_check(files, got.get("format", "text"), default, overrides, bool(got.get("force_rules")),
                     bool(got.get("quiet")), jobs)


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
    from referee.cli import main as typer_main  # every other command line: typer's

    typer_main()  # type: ignore[no-untyped-call]  # cli.py is typer's, untyped
