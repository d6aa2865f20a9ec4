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
    from rich.markup import escape  # a message may quote [brackets]: they are text

    _console(stderr=True).print(f"[bold red]error[/]: {escape(message)}", highlight=False)
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
    from referee.commands import expand as files_of

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
) -> None:
    """Replay every game through the rules engine and report every illegal play and impossible fact."""
    from referee.commands import UsageError, check_command

    try:
        code = check_command(paths, output_format=format.value if format is not None else None, select=select,
                             ignore=ignore, exit_zero=exit_zero, statistics=statistics, rules=rules,
                             rules_file=rules_file, sets=sets, force_rules=force_rules, quiet=quiet, jobs=jobs)
    except UsageError as e:
        raise fail(str(e))
    raise typer.Exit(code)


# ---- fmt ----------------------------------------------------------------------------------------


@app.command()
def fmt(
    files: List[Path] = typer.Argument(..., help="records to format"),
    check_only: bool = typer.Option(False, "--check", help="exit 1 if a file is not in canonical form; change nothing"),
    write: bool = typer.Option(False, "--write", "-w", help="rewrite the files in place (atomically)"),
) -> None:
    """Print records in canonical form (or check it, or rewrite in place with --write)."""
    from referee.notation.reader import ReadError, Reader
    from referee.notation.format import format_file

    if check_only and write:
        raise fail("--check and --write do not go together")
    out = _console()
    err = _console(stderr=True)
    status = EXIT_OK
    for path in files:
        try:
            text = _read_text(path)
        except ReadError as e:
            err.print(f"[bold red]error[/]: {e}")
            status = EXIT_USAGE
            continue
        reader = Reader(str(path))
        games = list(reader.read_text(text))
        problems = list(reader.prelude.errors) + [d for g in games for d in g.errors]
        if problems:
            # A record with syntax errors is not reformatted: its text might be lost.
            from referee.reports.render import print_diagnostic

            for d in problems:
                print_diagnostic(err, d)
            err.print(f"{path}: not formatted: {len(problems)} syntax error{'s' if len(problems) != 1 else ''}")
            status = max(status, EXIT_FOUND)
            continue
        canon = format_file(reader.prelude, games)
        if check_only:
            if canon != text:
                err.print(f"{path}: not in canonical form (run getaway-ref fmt --write {path})")
                status = max(status, EXIT_FOUND)
        elif write:
            if canon != text:
                _atomic_write(path, canon)
                err.print(f"{path}: formatted")
        else:
            sys.stdout.write(canon)
    raise typer.Exit(status)


def _read_text(path: Path) -> str:
    from referee.notation.reader import ReadError

    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ReadError(str(path), "no such file") from None
    except IsADirectoryError:
        raise ReadError(str(path), "is a directory") from None
    except OSError as e:
        raise ReadError(str(path), e.strerror or str(e)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise ReadError(str(path), f"not UTF-8 text: byte 0x{raw[e.start]:02x} at byte offset {e.start} (line {line}) cannot be decoded") from None
    return text[1:] if text.startswith("\ufeff") else text


def _atomic_write(path: Path, text: str) -> None:
    """Write beside the file, then rename over it: a crash never leaves half a record."""
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent) or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        try:
            os.chmod(tmp, path.stat().st_mode & 0o777)
        except OSError:
            pass
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# ---- export, schema -------------------------------------------------------------------------------


@app.command()
def export(
    file: Path = typer.Argument(..., help="the record to export"),
    format: ExportFmt = typer.Option(ExportFmt.json, "--format", "-f", help="json (the only export format)"),
) -> None:
    """Write a record's games as JSON (see `getaway-ref schema`)."""
    from referee.notation.reader import ReadError, Reader
    from referee.reports.export import record_file
    try:
        text = _read_text(file)
    except ReadError as e:
        raise fail(str(e))
    reader = Reader(str(file))
    games = list(reader.read_text(text))
    sys.stdout.write(record_file(str(file), reader.prelude, games).model_dump_json(indent=2) + "\n")
    errors = len(reader.prelude.errors) + sum(len(g.errors) for g in games)
    if errors:
        _console(stderr=True).print(f"{file}: {errors} syntax error(s); run getaway-ref check {file}")
    raise typer.Exit(EXIT_FOUND if errors else EXIT_OK)


@app.command()
def schema() -> None:
    """Print the JSON Schemas of the record export and of the check report."""
    import json

    from referee.reports.export import schemas

    sys.stdout.write(json.dumps(schemas(), indent=2, ensure_ascii=False) + "\n")


# ---- explain, rules ----------------------------------------------------------------------------------


@app.command()
def explain(code: Optional[str] = typer.Argument(None, help="a diagnostic code such as M201; none lists them all")) -> None:
    """Explain a diagnostic code, with an example; with no code, list every code."""
    from referee.reports.diagnostics import CODES, explain as lookup
    from referee.reports.select import code_severity

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


@app.command("rules")
def rules_cmd(
    name: Optional[str] = typer.Argument(None, help="a preset to show in full"),
    format: Fmt = typer.Option(Fmt.text, "--format", "-f"),
) -> None:
    """List the rule presets and options, or show one preset."""
    import json

    from referee.engine.rules import OPTIONS, PRESET_SOURCES, PRESETS, RuleSet, format_value, option_values

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
