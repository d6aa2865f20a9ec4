"""The ``getaway-ref`` command.

Exit codes everywhere: 0 clean, 1 violations or record errors found, 2 usage or I/O error.
Modules are imported inside the commands so that ``check`` of one small record starts fast.
"""

from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from referee.engine.rules import RuleSet

app = typer.Typer(
    add_completion=True,
    no_args_is_help=True,
    help="Referee and record checker for the card game Getaway (Bhabhi, Thulla, Donkey).",
    pretty_exceptions_enable=False,
)

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2


class Fmt(str, Enum):
    text = "text"
    json = "json"


class OutputFormat(str, Enum):
    """check's outputs: for people, programs, CI systems and test reports."""

    text = "text"
    json = "json"
    jsonl = "jsonl"
    github = "github"
    sarif = "sarif"
    junit = "junit"


class ExportFmt(str, Enum):
    json = "json"


def _version_callback(value: bool) -> None:
    if value:
        from referee import __version__

        sys.stdout.write(f"getaway-ref {__version__}\n")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version_callback, is_eager=True,
                                 help="print the version and exit"),
) -> None:
    """Referee and record checker for the card game Getaway (Bhabhi, Thulla, Donkey)."""


def _console(stderr: bool = False) -> Console:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def fail(message: str) -> "typer.Exit":
    # The message may quote a file name or an argument: printed as typed, never as markup.
    from rich.text import Text

    from referee.reports.text import safe

    line = Text("error", style="bold red")
    line.append(": " + safe(message))
    _console(stderr=True).print(line, highlight=False)
    return typer.Exit(EXIT_USAGE)


def rules_options(rules: Optional[str], rules_file: Optional[Path],
                  sets: List[str]) -> tuple[RuleSet | None, dict[str, object]]:
    """--rules / --rules-file / --set, read into (default rule set, overrides); exit 2 on a
    usage problem."""
    from referee.commands import UsageError
    from referee.commands import rules_options as read

    try:
        return read(rules, rules_file, sets)
    except UsageError as e:
        raise fail(str(e))


def expand(paths: List[Path]) -> List[Path]:
    """Files as given; directories give their .gwy files, recursively, in name order."""
    from referee.archive.inputs import expand as files_of

    return files_of(paths)


# ---- check ------------------------------------------------------------------------------------


@app.command()
def check(
    paths: List[Path] = typer.Argument(..., help="records (.gwy files) or directories of them"),
    format: Optional[OutputFormat] = typer.Option(None, "--output-format", "--format", "-f", help="text for people, json or jsonl for programs, github for workflow annotations, sarif for code scanning, junit for test reports"),
    select: List[str] = typer.Option([], "--select", help="report only these codes or prefixes: --select R1,M201"),
    ignore: List[str] = typer.Option([], "--ignore", help="do not report these codes or prefixes: --ignore M"),
    exit_zero: bool = typer.Option(False, "--exit-zero", help="exit 0 even when errors or mistakes are found"),
    statistics: bool = typer.Option(False, "--statistics", help="a count per code at the end, most frequent first"),
    rules: Optional[str] = typer.Option(None, "--rules", help="rule set for games without a [Rules] tag, e.g. 'denexa' or 'pagat taking=no'"),
    rules_file: Optional[Path] = typer.Option(None, "--rules-file", help="house rules from a TOML or JSON file"),
    sets: List[str] = typer.Option([], "--set", help="override one option in every game: --set taking=no"),
    force_rules: bool = typer.Option(False, "--force-rules", help="--rules wins over the games' [Rules] tags"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="print only the problems and the summary line"),
    jobs: str = typer.Option("auto", "--jobs", "-j", help="judge the games in this many processes, or 'auto': one for a small input, one per core for a large one (the report keeps the input order)"),
    dask: Optional[str] = typer.Option(None, "--dask", help="judge the games on the Dask cluster whose scheduler is at this address (tcp://host:8786); the files must be readable by its workers at the same path"),
) -> None:
    """Replay every game through the rules engine and report every illegal play and impossible fact."""
    from referee.commands import UsageError, check_command

    try:
        code = check_command(paths, output_format=format.value if format is not None else None, select=select,
                             ignore=ignore, exit_zero=exit_zero, statistics=statistics, rules=rules,
                             rules_file=rules_file, sets=sets, force_rules=force_rules, quiet=quiet, jobs=jobs,
                             dask=dask)
    except UsageError as e:
        raise fail(str(e))
    raise typer.Exit(code)


# ---- fmt ----------------------------------------------------------------------------------------


@app.command()
def fmt(
    files: List[Path] = typer.Argument(..., help="records to format, directories of them, or - for standard input"),
    check_only: bool = typer.Option(False, "--check", help="exit 1 if a file is not in canonical form (2 for syntax or read errors); change nothing"),
    write: bool = typer.Option(False, "--write", "-w", help="rewrite the files in place (atomically)"),
    diff: bool = typer.Option(False, "--diff", help="print what would change, as a unified diff; change nothing"),
):
    """Print records in canonical form (or check it, show the diff, or rewrite in place with --write)."""
    import tempfile

    from referee.archive.inputs import STDIN, STDIN_NAME, expand, problem, spool_stdin
    from referee.files import Beside
    from referee.notation.format import format_stream
    from referee.notation.reader import ReadError

    if write and (check_only or diff):
        raise fail("--write does not go with --check or --diff")
    paths = expand(files)
    if not paths:
        raise fail("no .gwy records found in " + ", ".join(map(str, files)))
    if write and any(str(p) == STDIN for p in paths):
        raise fail("--write rewrites files; standard input has none")
    err = _console(stderr=True)
    status = EXIT_OK
    for path in paths:
        name = STDIN_NAME if str(path) == STDIN else str(path)
        why = problem(path)
        if why is not None:
            _say(err, f"{name}: {why}")
            status = EXIT_USAGE
            continue
        spooled = spool_stdin() if str(path) == STDIN else None
        source = spooled or path
        try:
            target = Beside(str(path)) if write else None
        except OSError as e:  # may not write it, or a special file: said in one line, nothing touched
            _say(err, str(e) if str(e).startswith(name) else f"{name}: {e.strerror or e}")
            status = EXIT_USAGE
            continue
        # Output waits in a temporary file until the whole record has read cleanly: a record
        # with a syntax error in its last game prints nothing, as before, in flat memory.
        shown = tempfile.TemporaryFile("w+", encoding="utf-8", newline="") if not write and not check_only or diff else None
        try:
            with open(source, "rb") as f:
                res = format_stream(f, name, out=target.file if target else (None if diff or check_only else shown),
                                    diff=shown if diff else None)
        except FileNotFoundError:
            res = None
            problem_text = "no such file"
        except IsADirectoryError:
            res = None
            problem_text = "is a directory"
        except ReadError as e:
            res = None
            problem_text = e.message
        except OSError as e:
            res = None
            problem_text = e.strerror or str(e)
        finally:
            if spooled is not None:
                spooled.unlink(missing_ok=True)
        if res is None or res.errors:
            if target is not None:
                target.discard()
            if shown is not None:
                shown.close()
            if res is None:
                _say(err, f"{name}: {problem_text}")
                status = EXIT_USAGE
                continue
            # A record with syntax errors is not reformatted: its text might be lost.
            from referee.reports.render import print_diagnostic

            for d in res.errors:
                print_diagnostic(err, d)
            n = len(res.errors)
            err.print(f"{name}: not formatted: {n} syntax error{'s' if n != 1 else ''}", markup=False)
            status = max(status, EXIT_USAGE if check_only or diff else EXIT_FOUND)
            continue
        if shown is not None:
            shown.seek(0)
            for block in iter(lambda: shown.read(1 << 16), ""):
                sys.stdout.write(block)
            shown.close()
        if write:
            if res.same:
                target.discard()
            else:
                target.commit()
                err.print(f"{name}: formatted", markup=False)
        elif check_only and not res.same:
            err.print(f"{name}: not in canonical form (run getaway-ref fmt --write {name})", markup=False)
            status = max(status, EXIT_FOUND)
        elif diff and not res.same:
            status = max(status, EXIT_FOUND)
    raise typer.Exit(status)


def _say(console, message: str) -> None:
    """error: MESSAGE, with the message (file names, arguments) printed as typed."""
    from rich.text import Text

    from referee.reports.text import safe

    line = Text("error", style="bold red")
    line.append(": " + safe(message))
    console.print(line, highlight=False)


# ---- export, schema -------------------------------------------------------------------------------


class ExportFmt(str, Enum):
    json = "json"
    jsonl = "jsonl"


@app.command()
def export(
    file: Path = typer.Argument(..., help="the record to export, or - for standard input"),
    format: ExportFmt = typer.Option(ExportFmt.json, "--format", "-f", help="json (one document), or jsonl (JSON Lines: the file, then one game a line, for archives)"),
    game: Optional[int] = typer.Option(None, "--game", "-g", min=1, help="export only this game of the file (found without reading the games before it)"),
):
    """Write a record's games as JSON, game by game (see `getaway-ref schema`)."""
    from referee.archive.inputs import STDIN, STDIN_NAME, problem, spool_stdin
    from referee.notation.reader import ReadError
    from referee.reports.export import write_export
    from referee.reports.text import json_safe

    name = STDIN_NAME if str(file) == STDIN else str(file)
    why = problem(file)
    if why is not None:
        raise fail(f"{name}: {why}")
    spooled = spool_stdin() if str(file) == STDIN else None
    try:
        if game is not None:
            errors = _export_one(spooled or file, name, game, format == ExportFmt.jsonl)
        else:
            with open(spooled or file, "rb") as f:
                errors = write_export(f, name, lambda t: sys.stdout.write(json_safe(t)), lines=format == ExportFmt.jsonl)
    except FileNotFoundError:
        raise fail(f"{name}: no such file")
    except IsADirectoryError:
        raise fail(f"{name}: is a directory")
    except ReadError as e:
        raise fail(f"{name}: {e.message}")
    except OSError as e:
        raise fail(f"{name}: {e.strerror or e}")
    finally:
        if spooled is not None:
            spooled.unlink(missing_ok=True)
    if errors:
        _console(stderr=True).print(f"{name}: {errors} syntax error(s); run getaway-ref check {name}", markup=False)
    raise typer.Exit(EXIT_FOUND if errors else EXIT_OK)


def _export_one(path: Path, name: str, number: int, lines: bool) -> int:
    """export --game N: game N alone, found by its %game line."""
    from referee.notation.seek import find_game
    from referee.reports.export import game_model, record_file

    found = find_game(str(path), number, name=name)
    if found.game is None:
        raise fail(f"{name}: there is no game {number} (the file holds {found.count})")
    g = found.game
    from referee.reports.text import json_safe

    if lines:
        sys.stdout.write(json_safe(game_model(g).model_dump_json()) + "\n")
    else:
        sys.stdout.write(json_safe(game_model(g).model_dump_json(indent=2)) + "\n")
    return len(g.errors)


@app.command()
def schema() -> None:
    """Print the JSON Schemas of the record export and of the check report."""
    import json

    from referee.reports.export import schemas

    sys.stdout.write(json.dumps(schemas(), indent=2, ensure_ascii=False) + "\n")


# ---- explain, rules ----------------------------------------------------------------------------------


@app.command()
def explain(
    code: Optional[str] = typer.Argument(None, help="a diagnostic code such as M201, or 'ruling'; none lists them all"),
    number: Optional[int] = typer.Argument(None, help="with 'ruling': which of our rulings (1-9)"),
):
    """Explain a diagnostic code, with an example, or one of our rulings (`explain ruling 5`);
    with no code, list every code."""
    from referee.reports.diagnostics import CODES, explain as lookup
    from referee.reports.select import code_severity

    if code is not None and code.lower() == "ruling":
        _print_ruling(number)
        return
    if code is None:
        for k, known in CODES.items():
            sys.stdout.write(f"{k}  {code_severity(k):<7}  {known.title}\n")
        return
    c = lookup(code)
    if c is None:
        raise fail(f"unknown code '{code}' (codes are {', '.join(CODES)})")
    out = _console()
    out.print(f"[bold]{c.code}[/]: {c.title} ({code_severity(c.code)})")
    out.print(f"rule: {c.rule}", markup=False)
    out.print()
    out.print(c.explanation, markup=False)
    if c.example:
        out.print()
        out.print("example:", markup=False)
        for line in c.example.splitlines():
            out.print("    " + line, markup=False)


def _print_ruling(number: Optional[int]) -> None:
    """One ruling of docs/rulings.md, as shipped with the package."""
    from referee.engine.citations import RULINGS_TITLES
    from referee.reports.docs import DocNotFound, ruling_text

    if number is None or number not in RULINGS_TITLES:
        raise fail(f"name a ruling: getaway-ref explain ruling N, with N one of the rulings 1 to {max(RULINGS_TITLES)}")
    try:
        text = ruling_text(number)
    except DocNotFound as e:
        raise fail(str(e))
    sys.stdout.write(text or "")


@app.command("rules")
def rules_cmd(
    name: Optional[str] = typer.Argument(None, help="a preset to show in full"),
    format: Fmt = typer.Option(Fmt.text, "--format", "-f"),
    rulings: bool = typer.Option(False, "--rulings", help="print our rulings on the points the rules texts leave open (docs/rulings.md)"),
):
    """List the rule presets and options, or show one preset; --rulings prints our rulings."""
    import json

    from referee.engine.rules import OPTIONS, PRESET_SOURCES, PRESETS, RuleSet, format_value, option_values

    if rulings:
        from referee.reports.docs import DocNotFound, doc_text

        try:
            sys.stdout.write(doc_text("rulings.md"))
        except DocNotFound as e:
            raise fail(str(e))
        return

    out = _console()
    if name is not None:
        r = PRESETS.get(name.lower())
        if r is None:
            raise fail(f"unknown rule set '{name}' (presets are {', '.join(PRESETS)})")
        if format == Fmt.json:
            sys.stdout.write(json.dumps(r.model_dump(), indent=2) + "\n")
            return
        out.print(f"[bold]{r.name}[/]: {PRESET_SOURCES[r.name]}", markup=True)
        for k in OPTIONS:
            f = RuleSet.model_fields[k]
            out.print(f"  {k} = {format_value(getattr(r, k))}", markup=False)
        return
    if format == Fmt.json:
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
        return
    out.print("[bold]presets[/]")
    for k, v in PRESETS.items():
        out.print(f"  {k:8} {PRESET_SOURCES[k]}", markup=False)
        if v.overrides():
            out.print("           " + " ".join(f"{a}={format_value(b)}" for a, b in v.overrides().items()), markup=False)
    out.print()
    out.print("[bold]options[/] (write them as option=value in [Rules \"...\"] or --set)")
    for k in OPTIONS:
        f = RuleSet.model_fields[k]
        vals = " | ".join(option_values(k))
        out.print(f"  {k} = {vals}   (default {format_value(getattr(PRESETS['pagat'], k))})", markup=False)
        out.print(f"      {f.description}", markup=False)
        out.print(f"      source: {(f.json_schema_extra or {}).get('source')}", markup=False)


@app.command()
def lsp() -> None:
    """Run the editor server (Language Server Protocol over stdio; needs the lsp extra)."""
    from referee.lsp import MISSING_HINT, available

    if not available():
        raise fail(MISSING_HINT)
    from referee.lsp.server import main as serve

    serve()


# Commands defined beside the code they drive; each module has register(app).
def _register_more() -> None:
    from referee.selfplay import simulate
    from referee.table import answers, live, page, views

    for mod in (simulate, views, live, answers, page):
        mod.register(app)


_register_more()


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)


if __name__ == "__main__":
    main()
