"""The ``getaway-ref`` command: the typer app. Every command here only reads its arguments
and calls the library function that does the work (``referee/commands.py``,
``referee/tools.py``, ``referee/table/``, ``referee/selfplay/``), then exits with the code
it returns; a :class:`~referee.commands.UsageError` is printed as ``error: ...`` (exit 2).

Exit codes everywhere: 0 clean, 1 violations or record errors found, 2 usage or I/O error.

Start-up: this module is the one place of the package (with the package's own ``__getattr__``,
``referee/__init__.py``) where modules are imported inside functions. Each command imports
the module that does its work when it runs, so that a command pays only for what it uses:
``getaway-ref check`` must start within 200 ms of bare Python (``tests/test_startup.py``,
``bench/``), and typer, pydantic and the table's modules (rich tables, prompt-toolkit) are
not imported by a plain ``check``. Every other module imports at its top.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Callable, List, NoReturn, Optional

import typer

import referee
from referee.commands import UsageError, check_command

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
    jsonl = "jsonl"


def _version_callback(value: bool) -> None:
    if value:
        sys.stdout.write(f"getaway-ref {referee.__version__}\n")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version_callback, is_eager=True,
                                 help="print the version and exit"),
) -> None:
    """Referee and record checker for the card game Getaway (Bhabhi, Thulla, Donkey)."""


def fail(message: str) -> typer.Exit:
    """Print ``error: MESSAGE`` and give the exit (2) to raise."""
    from referee.reports.render import print_error  # deferred: see the module's docstring

    print_error(message)
    return typer.Exit(EXIT_USAGE)


def _run(command: Callable[[], int]) -> NoReturn:
    """Run a library command and exit with its code; a usage problem is ``error: ...``, exit 2."""
    try:
        code = command()
    except UsageError as e:
        raise fail(str(e)) from None
    raise typer.Exit(code)


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
    _run(lambda: check_command(
        paths, output_format=format.value if format is not None else None, select=select, ignore=ignore,
        exit_zero=exit_zero, statistics=statistics, rules=rules, rules_file=rules_file, sets=sets,
        force_rules=force_rules, quiet=quiet, jobs=jobs, dask=dask))


# ---- fmt, export, schema ------------------------------------------------------------------------


@app.command()
def fmt(
    files: List[Path] = typer.Argument(..., help="records to format, directories of them, or - for standard input"),
    check_only: bool = typer.Option(False, "--check", help="exit 1 if a file is not in canonical form (2 for syntax or read errors); change nothing"),
    write: bool = typer.Option(False, "--write", "-w", help="rewrite the files in place (atomically)"),
    diff: bool = typer.Option(False, "--diff", help="print what would change, as a unified diff; change nothing"),
) -> None:
    """Print records in canonical form (or check it, show the diff, or rewrite in place with --write)."""
    from referee.tools import fmt_command

    _run(lambda: fmt_command(files, check_only=check_only, write=write, diff=diff))


@app.command()
def export(
    file: Path = typer.Argument(..., help="the record to export, or - for standard input"),
    format: ExportFmt = typer.Option(ExportFmt.json, "--format", "-f", help="json (one document), or jsonl (JSON Lines: the file, then one game a line, for archives)"),
    game: Optional[int] = typer.Option(None, "--game", "-g", min=1, help="export only this game of the file (found without reading the games before it)"),
) -> None:
    """Write a record's games as JSON, game by game (see `getaway-ref schema`)."""
    from referee.tools import export_command

    _run(lambda: export_command(file, lines=format == ExportFmt.jsonl, game=game))


@app.command()
def schema() -> None:
    """Print the JSON Schemas of the record export and of the check report."""
    from referee.tools import schema_command

    _run(schema_command)


# ---- explain, rules, lsp --------------------------------------------------------------------------


@app.command()
def explain(
    code: Optional[str] = typer.Argument(None, help="a diagnostic code such as M201, or 'ruling'; none lists them all"),
    number: Optional[int] = typer.Argument(None, help="with 'ruling': which of our rulings (1-10)"),
) -> None:
    """Explain a diagnostic code, with an example, or one of our rulings (`explain ruling 5`);
    with no code, list every code."""
    from referee.tools import explain_command

    _run(lambda: explain_command(code, number))


@app.command("rules")
def rules_cmd(
    name: Optional[str] = typer.Argument(None, help="a preset to show in full"),
    format: Fmt = typer.Option(Fmt.text, "--format", "-f"),
    rulings: bool = typer.Option(False, "--rulings", help="print our rulings on the points the rules texts leave open (docs/rulings.md)"),
) -> None:
    """List the rule presets and options, or show one preset; --rulings prints our rulings."""
    from referee.tools import rules_command

    _run(lambda: rules_command(name, as_json=format == Fmt.json, rulings=rulings))


@app.command()
def lsp() -> None:
    """Run the editor server (Language Server Protocol over stdio; needs the lsp extra)."""
    from referee.lsp import MISSING_HINT, available

    if not available():
        raise fail(MISSING_HINT)
    from referee.lsp.server import main as serve

    serve()


# ---- self-play ------------------------------------------------------------------------------------


@app.command()
def simulate(
    players: int = typer.Option(4, "--players", "-n", help="players at the table (2-8; up to 16 with packs=2)"),
    games: int = typer.Option(1, "--games", "-g", min=0, help="games to play"),
    seed: int = typer.Option(0, "--seed", "-s", help="the same seed gives the same file, byte for byte"),
    rules: Optional[str] = typer.Option(None, "--rules", help="a preset or a spec: 'pagat', 'donkey', 'pagat taking=no'"),
    rules_file: Optional[Path] = typer.Option(None, "--rules-file", help="house rules from a TOML or JSON file"),
    sets: List[str] = typer.Option([], "--set", help="override one option: --set packs=2"),
    bot: List[str] = typer.Option([], "--bot", help="SEAT=random|sensible (or just random|sensible for every seat)"),
    mistakes: float = typer.Option(0.0, "--mistakes", min=0.0, max=1.0,
                                   help="chance per play of a table mistake (renege, play after a tochoo, out of turn)"),
    comments: bool = typer.Option(False, "--comments", help="say in comments what happens to each trick"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="write the record here instead of stdout"),
    force: bool = typer.Option(False, "--force", help="overwrite an existing --output file"),
) -> None:
    """Play games between bots through the rules engine and write them as a .gwy record."""
    from referee.selfplay.simulate import simulate_command

    _run(lambda: simulate_command(players=players, games=games, seed=seed, rules=rules, rules_file=rules_file,
                                  sets=sets, bot=bot, mistakes=mistakes, comments=comments, output=output,
                                  force=force))


# ---- at the table ---------------------------------------------------------------------------------


@app.command()
def show(
    file: Path = typer.Argument(..., help="a record (.gwy)"),
    game: Optional[int] = typer.Option(None, "--game", "-g", min=1, help="which game of the file (default: the last)"),
    after: Optional[int] = typer.Option(None, "--after", "-a", min=0,
                                        help="the state after this trick (default: the end of the record)"),
    format: Fmt = typer.Option(Fmt.text, "--format", "-f", help="text for people, json for programs"),
    rules: Optional[str] = typer.Option(None, "--rules", help="rule set for a game without a [Rules] tag"),
    narrate: bool = typer.Option(False, "--narrate", help="tell the whole game trick by trick, in sentences"),
) -> None:
    """The state of a game at a point: hands, known cards and voids, the waste pile, the trick on the table, who has the power."""
    if narrate:
        from referee.table.answers import narrate_command

        _run(lambda: narrate_command(file, game, rules))
    from referee.table.views import show_command

    _run(lambda: show_command(file, game, after, as_json=format == Fmt.json, rules=rules))


@app.command()
def legal(
    file: Path = typer.Argument(..., help="a record (.gwy)"),
    game: Optional[int] = typer.Option(None, "--game", "-g", min=1, help="which game of the file (default: the last)"),
    format: Fmt = typer.Option(Fmt.text, "--format", "-f", help="text for people, json for programs"),
    rules: Optional[str] = typer.Option(None, "--rules", help="rule set for a game without a [Rules] tag"),
) -> None:
    """What may happen next at the end of the record: whose turn, which cards, which takes, whether a draw is due."""
    from referee.table.views import legal_command

    _run(lambda: legal_command(file, game, as_json=format == Fmt.json, rules=rules))


@app.command("tally")
def tally(
    paths: List[Path] = typer.Argument(..., help="records (.gwy files) or directories of them"),
    format: Fmt = typer.Option(Fmt.text, "--format", "-f", help="text for people, json for programs"),
    rules: Optional[str] = typer.Option(None, "--rules", help="rule set for games without a [Rules] tag"),
) -> None:
    """How often each player lost, over every game ([Result] tag, or the replay when there is none); Donkey's legs."""
    from referee.archive.tally import tally_command

    _run(lambda: tally_command(paths, as_json=format == Fmt.json, rules=rules))


@app.command()
def live(
    file: Optional[Path] = typer.Argument(None, help="the record to write (continued if it exists); default: a new live-DATE-TIME.gwy"),
    seats: Optional[str] = typer.Option(None, "--seats", help="a new game's seats, clockwise (default \"North East South West\")"),
    rules: Optional[str] = typer.Option(None, "--rules", help="a new game's rule set, e.g. 'pagat', 'donkey', 'pagat taking=no'"),
    deal: Optional[str] = typer.Option(None, "--deal", help="a new game's deal: 'even' (default), sizes '13 13 13 13', "
                                                             "or hands 'AKQ.T92..J43; 13; 13; 13'"),
) -> None:
    """Referee a game as it is played: type each action, get the ruling at once; the record is saved after every entry."""
    from referee.table.live import live_command

    _run(lambda: live_command(file, seats, rules, deal))


@app.command()
def ask(
    file: Path = typer.Argument(..., help="a record (.gwy)"),
    trick: int = typer.Option(..., "--trick", "-t", min=1, help="the trick asked about"),
    seat: Optional[str] = typer.Option(None, "--seat", "-s", help="the seat asked about (a name or its unique prefix)"),
    game: Optional[int] = typer.Option(None, "--game", "-g", min=1, help="which game of the file (default: the last)"),
    rules: Optional[str] = typer.Option(None, "--rules", help="rule set for a game without a [Rules] tag"),
    explain: bool = typer.Option(False, "--explain", "-e", help="after the verdict, the detail: each play, the rules cited, the penalty"),
) -> None:
    """What happened in a trick, in one short sentence: who did what, the penalty, who picks up and who leads next; --explain adds the cited detail."""
    from referee.table.answers import ask_command

    _run(lambda: ask_command(file, trick, seat, game, rules, explain))


@app.command("html")
def html(
    file: Path = typer.Argument(..., help="a record (.gwy)"),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="the page to write (default: FILE with .html)"),
    game: Optional[int] = typer.Option(None, "--game", "-g", min=1, help="which game of the file (default: the last)"),
    rules: Optional[str] = typer.Option(None, "--rules", help="rule set for a game without a [Rules] tag"),
) -> None:
    """A self-contained page that replays a game: the trick on the table, the hands, the waste pile, who leads and why, every diagnostic at its play."""
    from referee.table.page import html_command

    _run(lambda: html_command(file, output, game, rules))


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)


if __name__ == "__main__":
    main()
