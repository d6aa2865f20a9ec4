"""What ``fmt``, ``export``, ``schema``, ``explain`` and ``rules`` do, without the parser.

Each function takes the command's arguments as plain values, prints what the command prints
and returns its exit code (0 clean, 1 found, 2 usage or I/O error); a usage problem said in
one line is a :class:`referee.commands.UsageError` for the caller to print. ``check`` is in
``referee/check.py``, kept apart because a plain ``check`` must not load what these use
(pydantic for the JSON models, rich for the text).
"""

from __future__ import annotations

import errno
import json
import sys
from pathlib import Path
from typing import TextIO, cast

from rich.console import Console
from rich.text import Text

from referee.archive.games import no_such_game
from referee.archive.inputs import STDIN, STDIN_NAME, expand, has_syntax_errors, no_records, problem, spool_stdin
from referee.commands import UsageError
from referee.engine.citations import RULINGS_TITLES
from referee.engine.codes import said_explanation, said_title
from referee.engine.language import gettext, ngettext
from referee.engine.rules import (
    OPTIONS,
    PRESET_SOURCES,
    PRESETS,
    RuleSet,
    format_value,
    option_values,
    unknown_preset,
)
from referee.files import Beside, WriteError, not_written, reason_of, recover, scratch
from referee.notation.format import Formatted, format_stream
from referee.notation.reader import ReadError
from referee.notation.seek import find_game
from referee.reports.diagnostics import CODES
from referee.reports.diagnostics import explain as lookup
from referee.reports.docs import DocNotFound, ruling_text, rulings_text, said_example
from referee.reports.export import game_model, schemas, write_export
from referee.reports.render import console, print_diagnostics, print_error
from referee.reports.select import code_severity
from referee.reports.text import json_safe

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2


# ---- fmt --------------------------------------------------------------------------------------------


def fmt_command(files: list[Path], *, check_only: bool = False, write: bool = False, diff: bool = False) -> int:
    """``getaway-ref fmt``: the records in canonical form on standard output, or checked
    (``check_only``), or as a diff, or rewritten in place (``write``)."""
    if write and (check_only or diff):
        raise UsageError(gettext("{write} does not go with {check} or {diff}").format(
            write="--write", check="--check", diff="--diff"))
    paths = expand(files)
    if not paths:
        raise UsageError(no_records(files))
    if write and any(str(p) == STDIN for p in paths):
        raise UsageError(gettext("{option} rewrites files; standard input has none").format(option="--write"))
    err = console(stderr=True)
    recover(paths)  # a rewrite of these files cut short by a kill: put back before they are read
    status = EXIT_OK
    for path in paths:
        status = max(status, _fmt_one(path, err, check_only=check_only, write=write, diff=diff))
    return status


def _fmt_one(path: Path, err: Console, *, check_only: bool, write: bool, diff: bool) -> int:
    """One file of ``fmt``: its exit code."""
    name = STDIN_NAME if str(path) == STDIN else str(path)
    why = problem(path)
    if why is not None:
        print_error(f"{name}: {why}", err)
        return EXIT_USAGE
    spooled = spool_stdin() if str(path) == STDIN else None
    source = spooled or path
    try:
        target = Beside(str(path)) if write else None
    except OSError as e:  # may not write it, or a special file: said in one line, nothing touched
        print_error(str(e) if str(e).startswith(name) else f"{name}: {reason_of(e)}", err)
        return EXIT_USAGE
    # Output waits in a temporary file until the whole record has read cleanly: a record
    # with a syntax error in its last game prints nothing, as before, in flat memory.
    shown: TextIO | None = (cast(TextIO, scratch()) if (not write and not check_only) or diff else None)
    res: Formatted | None = None
    problem_text = ""
    try:
        with open(source, "rb") as f:
            # (a cast: referee.files gives its file as IO[str], format_stream asks for TextIO)
            res = format_stream(f, name, out=cast(TextIO, target.file) if target else (None if diff or check_only else shown),
                                diff=shown if diff else None)
    except ReadError as e:
        problem_text = e.message
    except OSError as e:
        if target is not None and e.errno in (errno.EFBIG, errno.ENOSPC, errno.EDQUOT):
            # the new text did not fit
            problem_text = not_written(e)
        elif e.errno in (errno.EFBIG, errno.ENOSPC, errno.EDQUOT):
            # the output held back in a temporary file until the record has read cleanly
            problem_text = gettext("cannot hold the output in a temporary file: {why}").format(why=reason_of(e))
        else:
            problem_text = reason_of(e)
    finally:
        if spooled is not None:
            spooled.unlink(missing_ok=True)
    if res is None or res.errors:
        if target is not None:
            target.discard()
        if shown is not None:
            shown.close()
        if res is None:
            print_error(f"{name}: {problem_text}", err)
            return EXIT_USAGE
        # A record with syntax errors is not reformatted: its text might be lost.
        print_diagnostics(err, res.errors)  # as check prints them, at check's speed
        n = len(res.errors)
        err.print(ngettext("{file}: not formatted: {n} syntax error", "{file}: not formatted: {n} syntax errors",
                           n).format(file=name, n=n), markup=False)
        return EXIT_USAGE if check_only or diff else EXIT_FOUND
    if shown is not None:
        shown.seek(0)
        for block in iter(lambda: shown.read(1 << 16), ""):
            sys.stdout.write(block)
        shown.close()
    if target is not None:
        if res.same:
            target.discard()
        else:
            try:
                target.commit()
            except OSError as e:  # changed meanwhile (Changed), a full disk, ...: one line, the file as it is
                print_error(str(e) if isinstance(e, WriteError) else f"{name}: {not_written(e)}", err)
                return EXIT_USAGE
            err.print(gettext("{file}: formatted").format(file=name), markup=False)
    elif check_only and not res.same:
        err.print(gettext("{file}: not in canonical form (run getaway-ref fmt --write {file})").format(file=name),
                  markup=False)
        return EXIT_FOUND
    elif diff and not res.same:
        return EXIT_FOUND
    return EXIT_OK


# ---- export, schema -----------------------------------------------------------------------------------


def export_command(file: Path, *, lines: bool = False, game: int | None = None) -> int:
    """``getaway-ref export``: a record's games as JSON (``lines``: JSON Lines), or game
    ``game`` alone; exit 1 if the record has syntax errors."""
    name = STDIN_NAME if str(file) == STDIN else str(file)
    why = problem(file)
    if why is not None:
        raise UsageError(f"{name}: {why}")
    recover([file])  # a rewrite of it cut short by a kill: put back before it is read
    spooled = spool_stdin() if str(file) == STDIN else None
    try:
        if game is not None:
            errors = _export_one(spooled or file, name, game, lines)
        else:
            with open(spooled or file, "rb") as f:
                errors = write_export(f, name, lambda t: sys.stdout.write(json_safe(t)), lines=lines)
    except ReadError as e:
        raise UsageError(f"{name}: {e.message}") from None
    except BrokenPipeError:
        raise  # the reader of the JSON went away, not the record (referee/commands/pipes.py)
    except OSError as e:
        if e.filename is None and e.errno in (errno.EFBIG, errno.ENOSPC, errno.EDQUOT):
            raise  # the JSON did not fit where it goes, not the record: the common path says so
        raise UsageError(f"{name}: {reason_of(e)}") from None
    finally:
        if spooled is not None:
            spooled.unlink(missing_ok=True)
    if errors:
        console(stderr=True).print(has_syntax_errors(name, errors), markup=False)
    return EXIT_FOUND if errors else EXIT_OK


def _export_one(path: Path, name: str, number: int, lines: bool) -> int:
    """export --game N: game N alone, found by its %game line."""
    found = find_game(str(path), number, name=name)
    if found.game is None:
        raise UsageError(no_such_game(name, number, found.count))
    g = found.game
    model = game_model(g)
    sys.stdout.write(json_safe(model.model_dump_json() if lines else model.model_dump_json(indent=2)) + "\n")
    return len(g.errors)


def schema_command() -> int:
    """``getaway-ref schema``: the JSON Schemas of the record export and of the check report."""
    sys.stdout.write(json.dumps(schemas(), indent=2, ensure_ascii=False) + "\n")
    return EXIT_OK


# ---- explain, rules -----------------------------------------------------------------------------------


def explain_command(code: str | None, number: int | None = None) -> int:
    """``getaway-ref explain``: one code with its rule and an example, one of our rulings
    (``explain ruling N``), or with no code every code."""
    if code is not None and code.lower() == "ruling":
        if number is None or number not in RULINGS_TITLES:
            raise UsageError(gettext("name a ruling: getaway-ref explain ruling N, with N one of the rulings 1 to "
                                     "{last}").format(last=max(RULINGS_TITLES)))
        try:
            text = ruling_text(number)
        except DocNotFound as e:
            raise UsageError(str(e)) from None
        sys.stdout.write(text or "")
        return EXIT_OK
    if code is None:
        for k, known in CODES.items():
            sys.stdout.write(f"{k}  {_severity(k):<7}  {said_title(known)}\n")
        return EXIT_OK
    c = lookup(code)
    if c is None:
        raise UsageError(gettext("unknown code '{code}' (codes are {codes})").format(code=code, codes=", ".join(CODES)))
    out = console()
    out.print(f"[bold]{c.code}[/]: {said_title(c)} ({_severity(c.code)})")
    if c.retired:
        out.print(gettext("retired, no longer reported: {reason}").format(reason=gettext(c.retired)), markup=False)
    # i18n: the rule a code cites follows, a source's name and section as the diagnostics cite it
    out.print(gettext("rule: {rule}").format(rule=c.rule), markup=False)
    out.print()
    out.print(said_explanation(c), markup=False)
    if c.example:
        out.print()
        # i18n: the heading of a code's example (a record's lines and what the referee says of them)
        out.print(gettext("example:"), markup=False)
        for line in said_example(c.example, gettext).splitlines():
            out.print("    " + line, markup=False)
    return EXIT_OK


def _severity(code: str) -> str:
    """A code's severity in words (the catalogue has them from reports/layout.py)."""
    return gettext(code_severity(code))


def rules_command(name: str | None, *, as_json: bool = False, rulings: bool = False) -> int:
    """``getaway-ref rules``: the presets and options, one preset in full, or our rulings."""
    if rulings:
        try:
            sys.stdout.write(rulings_text())
        except DocNotFound as e:
            raise UsageError(str(e)) from None
        return EXIT_OK
    out = console()
    if name is not None:
        r = PRESETS.get(name.lower())
        if r is None:
            raise UsageError(unknown_preset(name))
        if as_json:
            sys.stdout.write(json.dumps(r.model_dump(), indent=2) + "\n")
            return EXIT_OK
        out.print(f"[bold]{r.name}[/]: {PRESET_SOURCES[r.name]}", markup=True)
        for k in OPTIONS:
            out.print(f"  {k} = {format_value(getattr(r, k))}", markup=False)
        return EXIT_OK
    if as_json:
        data = {
            "presets": {k: v.model_dump() for k, v in PRESETS.items()},
            "options": {
                k: {
                    "values": option_values(k),
                    "default": format_value(getattr(PRESETS["pagat"], k)),
                    "description": RuleSet.model_fields[k].description,
                    "source": (RuleSet.model_fields[k].json_schema_extra or {}).get("source"),
                }
                for k in OPTIONS
            },
        }
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return EXIT_OK
    # i18n: rules' headings: the preset rule sets, then the options one may set
    out.print(gettext("presets"), style="bold", markup=False)
    for k, v in PRESETS.items():
        out.print(f"  {k:8} {PRESET_SOURCES[k]}", markup=False)
        if v.overrides():
            out.print("           " + " ".join(f"{a}={format_value(b)}" for a, b in v.overrides().items()), markup=False)
    out.print()
    out.print(Text.assemble((gettext("options"), "bold"), " ",
                            gettext('(write them as option=value in [Rules "..."] or --set)')))
    for k in OPTIONS:
        f = RuleSet.model_fields[k]
        vals = " | ".join(option_values(k))
        # i18n: an option's values, then the one a table plays when nothing says otherwise
        out.print(f"  {k} = {vals}   " + gettext("(default {value})").format(value=format_value(getattr(PRESETS["pagat"], k))),
                  markup=False)
        out.print("      " + gettext(f.description), markup=False)
        # i18n: where the option's rule is written: a source's name and section, as cited
        out.print("      " + gettext("source: {source}").format(source=(f.json_schema_extra or {}).get("source")),
                  markup=False)
    return EXIT_OK
