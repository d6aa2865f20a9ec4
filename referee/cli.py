"""The ``getaway-ref`` command: the typer app. Every command here only reads its arguments
and calls the library function that does the work (``referee/check.py``, ``referee/tally.py``,
``referee/tools.py``, ``referee/table/``, ``referee/selfplay/``, ``referee/review/``), then exits with the code
it returns; a :class:`~referee.commands.UsageError` is printed as ``error: ...`` (exit 2).
``check`` is the exception: its words go to its own parser (``referee/commands/options.py``),
which the entry point (``referee/_start.py``) calls without typer; it is declared here to be
listed in ``getaway-ref --help``.

Exit codes everywhere: 0 clean, 1 violations or record errors found, 2 usage or I/O error (a
reader that went away included: ``referee/commands/pipes.py``). Help reads as prose: click's
plain layout, arguments by their names (``FILE``, ``FILES...``), no Python types.

Start-up: this module is one of the places of the package (with ``_start.py`` and the
package's own ``__getattr__``) where modules are imported inside functions. Each command
imports the module that does its work when it runs, so that a command pays only for what it
uses; typer, pydantic and the table's modules (rich tables, prompt-toolkit) are not imported
by a plain ``check`` (``tests/test_startup.py``, ``bench/``). Every other module imports at
its top.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Any, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup

import referee
from referee.commands import UsageError
from referee.commands.options import CHECK_HELP, LANG_HELP, choose_language
from referee.commands.pipes import closed_pipe
from referee.engine import language as L
from referee.engine.language import N_
from referee.engine.language import gettext as _

# Help is said in the language chosen (issue 40): every command's help and every option's is
# marked here (N_) and translated when it is shown, after referee/_start.py has chosen the
# language; click's and typer's own words are ours too: the help option's and the shell
# completion's help (translated as ours are), the head of the usage line, and typer's
# "[default: ...]" and "[required]", which typer asks of gettext's default domain (pointed
# at our catalogue by :func:`speak_typer`).
TYPER_WORDS = (N_("Show this message and exit."), N_("Install completion for the current shell."),
               N_("Show completion for the current shell, to copy it or customize the installation."),
               N_("default: {default}"), N_("required"), N_("Usage:"))
LANG_ANYWHERE = N_("; given anywhere on the line")
# A help made of two sentences of the catalogue, said one after the other.
_JOINED = {LANG_HELP + LANG_ANYWHERE: (LANG_HELP, LANG_ANYWHERE)}


def said(text: str) -> str:
    """A help of ours (or click's) in the language chosen."""
    parts = _JOINED.get(text)
    return "".join(_(p) for p in parts) if parts else _(text)


def speak_typer() -> None:
    """typer's own words ("[default: text]", "[required]") go through gettext's default domain:
    our catalogue, in the language chosen (gettext reads it from ``LANGUAGE``, which the
    chosen language is also written to for that reason)."""
    import gettext
    import os

    gettext.bindtextdomain(L.DOMAIN, str(L.LOCALE_DIR))
    gettext.textdomain(L.DOMAIN)
    os.environ["LANGUAGE"] = L.current()


def _help_rows(cmd: Any, ctx: Any, formatter: Any) -> None:
    """A command's arguments and options, their help in the language chosen."""
    args = [(p.metavar or (p.name or "").upper(), said(getattr(p, "help", None) or ""))
            for p in cmd.get_params(ctx) if p.param_type_name == "argument"]
    opts = []
    for p in cmd.get_params(ctx):
        if p.param_type_name == "option" and (rv := p.get_help_record(ctx)):
            names, text = rv
            english = p.help or ""
            if english and text.startswith(english):  # typer's [default: ...] follows it
                text = said(english) + text[len(english):]
            opts.append((names, text))
    for title, rows in ((_("Arguments"), args), (_("Options"), opts)):
        if rows:
            with formatter.section(title):
                formatter.write_dl(rows)


def _usage(cmd: Any, ctx: Any, formatter: Any) -> None:
    formatter.write_usage(ctx.command_path, " ".join(cmd.collect_usage_pieces(ctx)), prefix=_("Usage:") + " ")


def _help_text(cmd: Any, formatter: Any) -> None:
    text = inspect.cleandoc(cmd.help).partition("\f")[0] if cmd.help else ""
    if text:
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(said(text))


class ProseCommand(TyperCommand):
    """A command's help as ruff's and black's read: ``FILE``, ``[FILE]``, ``FILES...``, an
    argument's help without a Python type or typer's braces."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for p in self.get_params(ctx):
            if p.param_type_name == "argument":
                name = p.metavar or (p.name or "").upper()
                pieces.append(name if p.required else f"[{name}]")
        return pieces

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        _usage(self, ctx, formatter)

    def format_help_text(self, ctx: Any, formatter: Any) -> None:
        _help_text(self, formatter)

    def format_options(self, ctx: Any, formatter: Any) -> None:
        _help_rows(self, ctx, formatter)


class CheckCommand(ProseCommand):
    """``check`` as typer lists it: its words are read by argparse from the one table of its
    options (referee/commands/options.py), and the shell's completion offers that table too,
    since click sees no option of its own here."""

    def shell_complete(self, ctx: Any, incomplete: str) -> list[Any]:
        # typer (0.29 on) carries its own click, which may be the only one installed; typer.core
        # imports its CompletionItem without listing it as an export.
        from typer.core import CompletionItem  # type: ignore[attr-defined]

        from referee.commands.options import CHECK_OPTIONS

        before = ctx.args[-1] if ctx.args else ""
        wanting = next((o for o in CHECK_OPTIONS if before in o.names and o.metavar is not None), None)
        if wanting is not None:  # the word after --format, --rules-file, ...
            if wanting.choices:
                return [CompletionItem(c) for c in wanting.choices if c.startswith(incomplete)]
            return []  # a file, or a value of the user's: the shell's own completion (typer's -o default)
        if incomplete.startswith("-"):
            return [CompletionItem(name, help=_(o.help)) for o in CHECK_OPTIONS for name in o.names
                    if name.startswith("--") and name.startswith(incomplete)]
        return []  # a record or a folder of them: the shell completes file names itself


class ProseGroup(TyperGroup):
    """The command list with each command's summary whole (wrapped, never cut with "..."),
    and every command's help in prose (:class:`ProseCommand`)."""

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        cmd = super().get_command(ctx, cmd_name)
        if type(cmd) is TyperCommand:
            cmd.__class__ = ProseCommand  # the same object, its help written as prose
        return cmd

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        _usage(self, ctx, formatter)

    def format_help_text(self, ctx: Any, formatter: Any) -> None:
        _help_text(self, formatter)

    def format_options(self, ctx: Any, formatter: Any) -> None:
        _help_rows(self, ctx, formatter)
        self.format_commands(ctx, formatter)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, said(cmd.get_short_help_str(limit=10_000))))
        if rows:
            with formatter.section(_("Commands")):
                formatter.write_dl(rows)


app = typer.Typer(
    cls=ProseGroup,
    add_completion=True,
    no_args_is_help=True,
    help=N_("Referee and record checker for the card game Getaway (Bhabhi, Thulla, Donkey)."),
    pretty_exceptions_enable=False,
    # Help as prose, click's plain layout: wrapped to the terminal, never cut, no boxes.
    rich_markup_mode=None,
)

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2


class Fmt(str, Enum):
    text = "text"
    json = "json"


class ExportFmt(str, Enum):
    json = "json"
    jsonl = "jsonl"
    parquet = "parquet"  # the archive extra: referee/archive/parquet.py


def build_line() -> str:
    """Which build runs: the compiled modules (``pip install .``, hatch_build.py) or the Python
    modules (an editable install, ``GETAWAY_PURE_PYTHON=1``, a machine without a C compiler).
    Python loads a compiled module in place of its source beside it, so the files say it."""
    package = Path(referee.__file__).resolve().parent
    compiled = sorted(p.name.split(".")[0] for p in [*package.rglob("*.so"), *package.rglob("*.pyd")])
    if compiled:
        return _("build: compiled ({n} modules by mypyc: {modules}), what `pip install .` installs").format(
            n=len(compiled), modules=", ".join(compiled))
    return _("build: Python modules (an editable or pure-Python install; `pip install .` gives the compiled "
             "build, about twice as fast)")


def _version_callback(value: bool) -> None:
    if value:
        sys.stdout.write(f"getaway-ref {referee.__version__}\n{build_line()}\n")
        raise typer.Exit(EXIT_OK)


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version_callback, is_eager=True,
                                 help=N_("print the version and which build runs (compiled or Python modules), and exit")),
    lang: str | None = typer.Option(None, "--lang", metavar="LANG", help=LANG_HELP + LANG_ANYWHERE),
) -> None:
    """Referee and record checker for the card game Getaway (Bhabhi, Thulla, Donkey)."""
    if lang is not None:  # referee/_start.py takes --lang first; this is for the app called as a library
        choose_language(lang)


def at_least(low: int) -> Callable[[int | None], int | None]:
    """A check of a number option, said in words (click's ``[x>=1]`` is not prose)."""

    def check(value: int | None) -> int | None:
        if value is not None and value < low:
            raise typer.BadParameter(_("{value} is less than {low}; give {low} or more").format(value=value, low=low))
        return value

    return check


def between(low: float, high: float) -> Callable[[float], float]:
    """A check of a fraction option, said in words."""

    def check(value: float) -> float:
        if not low <= value <= high:
            raise typer.BadParameter(_("{value} is not between {low} and {high}").format(value=value, low=low, high=high))
        return value

    return check


def fail(message: str) -> typer.Exit:
    """Print ``error: MESSAGE`` and give the exit (2) to raise."""
    from referee.reports.render import print_error  # deferred: see the module's docstring

    print_error(message)
    return typer.Exit(EXIT_USAGE)


def _run(command: Callable[[], int]) -> NoReturn:
    """Run a library command and exit with its code; a usage problem is ``error: ...``, exit 2."""
    try:
        code = command()
        sys.stdout.flush()  # what it wrote is delivered before it counts as done
    except UsageError as e:
        raise fail(str(e)) from None
    except BrokenPipeError:
        # The reader went away (... | head): silence and exit 2, as for every command
        # (referee/commands/pipes.py), where click would say nothing and exit 1.
        raise typer.Exit(closed_pipe()) from None
    except OSError as e:
        # An I/O error no command foresaw (a file size limit, a full disk, a temporary
        # directory that cannot be written): one line, exit 2, never a traceback.
        from referee.files import io_error  # deferred: see the module's docstring

        raise fail(io_error(e)) from None
    raise typer.Exit(code)


# ---- check ------------------------------------------------------------------------------------


@app.command(cls=CheckCommand, context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                                                 "help_option_names": []}, help=CHECK_HELP, add_help_option=False)
def check(ctx: typer.Context) -> None:
    # check's words are read by its one parser (referee/commands/options.py), not typer's: this
    # entry only lists it in `getaway-ref --help` (the entry point runs check without typer).
    from referee.check import check_main

    _run(lambda: check_main(ctx.args))


# ---- fmt, export, schema ------------------------------------------------------------------------


@app.command(help=N_("Print records in canonical form (or check it, show the diff, or rewrite in place with --write)."))
def fmt(
    files: list[Path] = typer.Argument(..., metavar="FILES...", help=N_("records to format, directories of them, or - for standard input")),
    check_only: bool = typer.Option(False, "--check", help=N_("exit 1 if a file is not in canonical form (2 for syntax or read errors); change nothing")),
    write: bool = typer.Option(False, "--write", "-w", help=N_("rewrite the files in place (atomically)")),
    diff: bool = typer.Option(False, "--diff", help=N_("print what would change, as a unified diff; change nothing")),
) -> None:
    from referee.tools import fmt_command

    _run(lambda: fmt_command(files, check_only=check_only, write=write, diff=diff))


@app.command(help=N_("Write a record's games as JSON, game by game (see `getaway-ref schema`), or an archive as Parquet tables."))
def export(
    file: Path = typer.Argument(..., metavar="FILE", help=N_("the record to export, or - for standard input")),
    format: ExportFmt = typer.Option(ExportFmt.json, "--format", "-f", metavar="FORMAT", help=N_("json (one document), or jsonl (JSON Lines: the file, then one game a line, for archives), or parquet (tables for getaway-ref query, into -o DIR; FILE may be a directory of records)")),
    game: int | None = typer.Option(None, "--game", "-g", callback=at_least(1), metavar="N", help=N_("export only this game of the file (found without reading the games before it)")),
    output: Path | None = typer.Option(None, "--output", "-o", metavar="DIR", help=N_("parquet: the directory of the tables (docs/archives.md)")),
    review: bool = typer.Option(False, "--review", help=N_("parquet: the review's verdict on every play and take too (the verdicts table; as getaway-ref review judges, so it is slow)")),
    jobs: str | None = typer.Option(None, "--jobs", "-j", metavar="N", help=N_("parquet: judge the games in this many processes, or auto (the default: one for a small input, one per core for a large one); the tables keep the input order")),
) -> None:
    if format == ExportFmt.parquet:
        _export_parquet(file, output, game, jobs or "auto", review)
    if output is not None:
        raise fail(_("-o DIR goes with --format parquet; JSON is written to standard output"))
    if jobs is not None or review:
        raise fail(_("{option} goes with --format parquet").format(option="--jobs" if jobs is not None else "--review"))
    from referee.tools import export_command

    _run(lambda: export_command(file, lines=format == ExportFmt.jsonl, game=game))


@app.command(help=N_("Print the JSON Schemas of the record export and of the check report."))
def schema() -> None:
    from referee.tools import schema_command

    _run(schema_command)


# ---- explain, rules, lsp --------------------------------------------------------------------------


@app.command(help=N_("Explain a diagnostic code, with an example, or one of our rulings (`explain ruling 5`); with no code, list every code."))
def explain(
    code: str | None = typer.Argument(None, metavar="CODE", help=N_("a diagnostic code such as M201, or 'ruling'; none lists them all")),
    number: int | None = typer.Argument(None, metavar="N", help=N_("with 'ruling': which of our rulings (1-10)")),
) -> None:
    from referee.tools import explain_command

    _run(lambda: explain_command(code, number))


@app.command("rules", help=N_("List the rule presets and options, or show one preset; --rulings prints our rulings."))
def rules_cmd(
    name: str | None = typer.Argument(None, metavar="PRESET", help=N_("a preset to show in full")),
    format: Fmt = typer.Option(Fmt.text, "--format", "-f", metavar="FORMAT", help=N_("text for people, json for programs")),
    rulings: bool = typer.Option(False, "--rulings", help=N_("print our rulings on the points the rules texts leave open (docs/rulings.md)")),
) -> None:
    from referee.tools import rules_command

    _run(lambda: rules_command(name, as_json=format == Fmt.json, rulings=rulings))


@app.command(help=N_("Run the editor server (Language Server Protocol over stdio; needs the lsp extra)."))
def lsp() -> None:
    from referee.lsp import MISSING_HINT, available

    if not available():
        raise fail(_(MISSING_HINT))
    from referee.lsp.server import main as serve

    raise SystemExit(serve())


# ---- self-play ------------------------------------------------------------------------------------


@app.command(help=N_("Play games between bots through the rules engine and write them as a .gwy record."))
def simulate(
    players: int = typer.Option(4, "--players", "-n", metavar="N", help=N_("players at the table (2-8; up to 16 with packs=2)")),
    games: int = typer.Option(1, "--games", "-g", callback=at_least(0), metavar="N", help=N_("games to play")),
    seed: int = typer.Option(0, "--seed", "-s", metavar="N", help=N_("the same seed gives the same file, byte for byte")),
    rules: str | None = typer.Option(None, "--rules", metavar="SPEC", help=N_("a preset or a spec: 'pagat', 'donkey', 'pagat taking=no'")),
    rules_file: Path | None = typer.Option(None, "--rules-file", metavar="FILE", help=N_("house rules from a TOML or JSON file")),
    sets: list[str] = typer.Option([], "--set", metavar="OPTION=VALUE", help=N_("override one option: --set packs=2")),
    bot: list[str] = typer.Option([], "--bot", metavar="[SEAT=]BOT", help=N_("SEAT=random|sensible|solver|pimc[:SAMPLES] (or just the bot, for every seat)")),
    mistakes: float = typer.Option(0.0, "--mistakes", callback=between(0.0, 1.0), metavar="CHANCE",
                                   help=N_("chance per play of a table mistake (renege, play after a tochoo, out of turn)")),
    comments: bool = typer.Option(False, "--comments", help=N_("say in comments what happens to each trick")),
    output: Path | None = typer.Option(None, "--output", "-o", metavar="FILE", help=N_("write the record here instead of stdout")),
    force: bool = typer.Option(False, "--force", help=N_("overwrite an existing --output file")),
) -> None:
    from referee.selfplay.simulate import simulate_command

    _run(lambda: simulate_command(players=players, games=games, seed=seed, rules=rules, rules_file=rules_file,
                                  sets=sets, bot=bot, mistakes=mistakes, comments=comments, output=output,
                                  force=force))


# ---- at the table ---------------------------------------------------------------------------------


@app.command(help=N_("The state of a game at a point: hands, known cards and voids, the waste pile, the trick on the table, who has the power."))
def show(
    file: Path = typer.Argument(..., metavar="FILE", help=N_("a record (.gwy)")),
    game: int | None = typer.Option(None, "--game", "-g", callback=at_least(1), metavar="N", help=N_("which game of the file (default: the last)")),
    after: int | None = typer.Option(None, "--after", "-a", callback=at_least(0), metavar="TRICK",
                                        help=N_("the state after this trick (default: the end of the record)")),
    format: Fmt = typer.Option(Fmt.text, "--format", "-f", metavar="FORMAT", help=N_("text for people, json for programs")),
    rules: str | None = typer.Option(None, "--rules", metavar="SPEC", help=N_("rule set for a game without a [Rules] tag")),
    narrate: bool = typer.Option(False, "--narrate", help=N_("tell the whole game trick by trick, in sentences")),
    review: bool = typer.Option(False, "--review", help=N_("with --narrate: after each trick, the game review's marks on its plays (seconds: the game is reviewed)")),
) -> None:
    if review and not narrate:
        raise fail(_("--review goes with --narrate: the review's marks are told trick by trick"))
    if narrate:
        from referee.table.answers import narrate_command

        _run(lambda: narrate_command(file, game, rules, review))
    from referee.table.views import show_command

    _run(lambda: show_command(file, game, after, as_json=format == Fmt.json, rules=rules))


@app.command(help=N_("What may happen next at the end of the record: whose turn, which cards, which takes, whether a draw is due."))
def legal(
    file: Path = typer.Argument(..., metavar="FILE", help=N_("a record (.gwy)")),
    game: int | None = typer.Option(None, "--game", "-g", callback=at_least(1), metavar="N", help=N_("which game of the file (default: the last)")),
    format: Fmt = typer.Option(Fmt.text, "--format", "-f", metavar="FORMAT", help=N_("text for people, json for programs")),
    rules: str | None = typer.Option(None, "--rules", metavar="SPEC", help=N_("rule set for a game without a [Rules] tag")),
) -> None:
    from referee.table.views import legal_command

    _run(lambda: legal_command(file, game, as_json=format == Fmt.json, rules=rules))


@app.command("tally", help=N_("How often each player lost, over every game ([Result] tag, or the replay when there is none); Donkey's legs."))
def tally(
    paths: list[Path] = typer.Argument(..., metavar="FILES...", help=N_("records (.gwy files) or directories of them")),
    format: Fmt = typer.Option(Fmt.text, "--format", "-f", metavar="FORMAT", help=N_("text for people, json for programs")),
    rules: str | None = typer.Option(None, "--rules", metavar="SPEC", help=N_("rule set for games without a [Rules] tag")),
) -> None:
    from referee.tally import tally_command

    _run(lambda: tally_command(paths, as_json=format == Fmt.json, rules=rules))


@app.command(help=N_("Referee a game as it is played: type each action, get the ruling at once; the record is saved after every entry."))
def live(
    file: Path | None = typer.Argument(None, metavar="FILE", help=N_("the record to write (continued if it exists); default: a new live-DATE-TIME.gwy")),
    seats: str | None = typer.Option(None, "--seats", metavar="NAMES", help=N_("a new game's seats, clockwise (default \"North East South West\")")),
    rules: str | None = typer.Option(None, "--rules", metavar="SPEC", help=N_("a new game's rule set, e.g. 'pagat', 'donkey', 'pagat taking=no'")),
    deal: str | None = typer.Option(None, "--deal", metavar="DEAL", help=N_("a new game's deal: 'even' (default), sizes '13 13 13 13', "
                                                             "or hands 'AKQ.T92..J43; 13; 13; 13'")),
) -> None:
    from referee.table.live import live_command

    _run(lambda: live_command(file, seats, rules, deal))


@app.command(help=N_("What happened in a trick, in one short sentence: who did what, the penalty, who picks up and who leads next; --explain adds the cited detail."))
def ask(
    file: Path = typer.Argument(..., metavar="FILE", help=N_("a record (.gwy)")),
    trick: int = typer.Option(..., "--trick", "-t", callback=at_least(1), metavar="N", help=N_("the trick asked about")),
    seat: str | None = typer.Option(None, "--seat", "-s", metavar="SEAT", help=N_("the seat asked about (a name or its unique prefix)")),
    game: int | None = typer.Option(None, "--game", "-g", callback=at_least(1), metavar="N", help=N_("which game of the file (default: the last)")),
    rules: str | None = typer.Option(None, "--rules", metavar="SPEC", help=N_("rule set for a game without a [Rules] tag")),
    explain: bool = typer.Option(False, "--explain", "-e", help=N_("after the verdict, the detail: each play, the rules cited, the penalty")),
    review: bool = typer.Option(False, "--review", help=N_("could --seat have got away in this trick: the game review's answer; without --seat, every seat's class after the trick (seconds: the game is reviewed)")),
    hint: bool = typer.Option(False, "--hint", help=N_("what the pimc bot would have played for --seat (default: the trick's leader) just before its play to the trick, and each choice's chance of losing from what the seat knew")),
) -> None:
    from referee.table.answers import ask_command

    _run(lambda: ask_command(file, trick, seat, game, rules, explain, review, hint))


@app.command("html", help=N_("A self-contained page that replays a record's games: the seats around the table, the trick list, the waste pile, who leads and why, every ruling at its play."))
def html(
    file: Path = typer.Argument(..., metavar="FILE", help=N_("a record (.gwy)")),
    output: Path | None = typer.Option(None, "--output", "-o", metavar="FILE", help=N_("the page to write (default: FILE with .html)")),
    game: int | None = typer.Option(None, "--game", "-g", callback=at_least(1), metavar="N", help=N_("only this game of the file (default: every game, with a picker)")),
    rules: str | None = typer.Option(None, "--rules", metavar="SPEC", help=N_("rule set for a game without a [Rules] tag")),
    review: bool = typer.Option(False, "--review", help=N_("review each game too (seconds a game): the marks on the plays, a chart of each seat's chance of losing")),
) -> None:
    from referee.table.page import html_command

    _run(lambda: html_command(file, output, game, rules, review))


@app.command("serve", help=N_("The live referee as a web page for the phones at the table: one phone records, every phone sees the table and asks; the record is saved after every entry."))
def serve(
    file: Path | None = typer.Argument(None, metavar="[FILE]", help=N_("the record to write (continued if it exists); default: a new live-DATE-TIME.gwy")),
    host: str | None = typer.Option(None, "--host", metavar="ADDRESS", help=N_("listen on this address, e.g. 0.0.0.0 for the phones on this network "
                                                            "(default 127.0.0.1 only); the address printed then carries a join token")),
    port: int = typer.Option(8765, "--port", "-p", callback=at_least(0), metavar="PORT", help=N_("the port (0: any free one)")),
    seats: str | None = typer.Option(None, "--seats", metavar="NAMES", help=N_("a new game's seats, clockwise (default \"North East South West\")")),
    rules: str | None = typer.Option(None, "--rules", metavar="SPEC", help=N_("a new game's rule set, e.g. 'pagat', 'donkey'")),
    deal: str | None = typer.Option(None, "--deal", metavar="DEAL", help=N_("a new game's deal, as for live")),
    recorder_qr: bool = typer.Option(False, "--recorder-qr", help=N_("print a QR code of the recorder's address too "
                                                                   "(anyone who sees it can record)")),
    seat_phones: bool = typer.Option(False, "--seat-phones", help=N_("each player records their own plays from their own "
                                     "phone: an address and a QR code per seat, whose phone may record only that seat's "
                                     "plays, takes and draws (the recorder's address still records every seat)")),
    request_timeout: float = typer.Option(10.0, "--request-timeout", min=0.1, metavar="SECONDS",
                                          help=N_("how long a phone may take to send one request before it is cut off")),
    hints: bool = typer.Option(False, "--hints", help=N_("a Hint button on every phone: what the pimc bot would play for the "
                               "seat to act, each choice's chance of losing (off unless given)")),
) -> None:
    from referee.web import serve_command

    _run(lambda: serve_command(file, host, port, seats, rules, deal, recorder_qr, seat_phones, request_timeout,
                               hints))


@app.command(help=N_("Review a game: a verdict on every play where every hand is known and few cards are held (blunder, only move; the exact solver's line), and each mover's sampled chance of losing before that."))
def review(
    file: Path = typer.Argument(..., metavar="FILE", help=N_("a record (.gwy)")),
    game: int | None = typer.Option(None, "--game", "-g", callback=at_least(1), metavar="N", help=N_("which game of the file (default: every game)")),
    format: str = typer.Option("text", "--format", "-f", metavar="FORMAT", help=N_("text or json (schema/review.schema.json)")),
    rules: str | None = typer.Option(None, "--rules", metavar="SPEC", help=N_("rule set for a game without a [Rules] tag")),
    window: int = typer.Option(10, "--window", callback=at_least(0), metavar="CARDS", help=N_("the most cards held for an exact verdict")),
    samples: int = typer.Option(12, "--samples", callback=at_least(0), metavar="N", help=N_("sampled deals per play for the chances (0: none)")),
    seed: int = typer.Option(0, "--seed", metavar="SEED", help=N_("the seed of the samples")),
    jobs: str = typer.Option("1", "--jobs", "-j", metavar="N", help=N_("review the games in this many processes (auto: one a core); the reviews come in input order")),
    dask: str | None = typer.Option(None, "--dask", metavar="ADDRESS", help=N_("review the games on the Dask cluster whose scheduler is at this address (tcp://host:8786), as check --dask; its workers must read the file at the same path")),
    at: str | None = typer.Option(None, "--at", metavar="END", help=N_("instead: every seat's class (safe, open, lost) at the end of the record, a position with no plays too")),
    after: int | None = typer.Option(None, "--after", callback=at_least(1), metavar="TRICK", help=N_("instead: every seat's class after this trick")),
) -> None:
    from referee.review.command import review_command

    _run(lambda: review_command(file, game, format, rules, window, samples, seed, jobs, dask, at, after))


@app.command("puzzles", help=N_("Puzzles from the solver: positions of an archive's games where exactly one of at least three legal cards keeps the mover safe, each written as a .gwy position with its solution and every other card's refutation, and an index (JSON)."))
def puzzles(
    archive: Path = typer.Argument(..., metavar="ARCHIVE", help=N_("a record of many games (.gwy), as simulate writes")),
    output: Path = typer.Option(..., "--output", "-o", metavar="DIR", help=N_("the directory to write the deck to (new, empty, or a deck of ours to replace)")),
    seat: str | None = typer.Option(None, "--seat", "--mine", metavar="NAME", help=N_("instead: a \"my mistakes\" deck from this seat's blunders, as review finds them")),
    rules: str | None = typer.Option(None, "--rules", metavar="SPEC", help=N_("rule set for a game without a [Rules] tag")),
    window: int = typer.Option(10, "--window", callback=at_least(0), metavar="CARDS", help=N_("the most cards held in a puzzle (the solver's exact window)")),
    jobs: str = typer.Option("1", "--jobs", "-j", metavar="N", help=N_("search the games in this many processes (auto: one a core)")),
) -> None:
    from referee.table.deck import puzzles_command

    _run(lambda: puzzles_command(archive, output, seat, rules, jobs, window))


# ---- archives a club can ask questions of (issue 42): export --format parquet, query, explore ----


def _export_parquet(file: Path, output: Path | None, game: int | None, jobs: str, review: bool) -> NoReturn:
    """``export --format parquet``: the archive extra's tables (referee/archive/parquet.py)."""
    from referee.archive.extra import missing

    if game is not None:
        raise fail(_("--game goes with json or jsonl; --format parquet exports every game (query picks games)"))
    if str(file) == "-":
        raise fail(_("--format parquet reads record files or a directory of them, not standard input"))
    hint = missing("export --format parquet", duckdb=False)
    if hint is not None:
        raise fail(hint)
    from referee.archive.parquet import export_parquet_command

    reviewer = None
    if review:
        from referee.review.review import review_game  # the solver: only for --review

        reviewer = review_game
    _run(lambda: export_parquet_command([file], output, jobs, reviewer))


@app.command("query", help=N_("Ask an archive a question in SQL (DuckDB): the tables games, seats, tricks, plays, diagnostics and the named views (loss_by_spades, mistakes_by_code_and_seat, player_games and more: docs/archives.md)."))
def query(
    archive: Path = typer.Argument(..., metavar="ARCHIVE", help=N_("tables made by export --format parquet, or records (a .gwy file or a folder of them: exported first, once, into the cache)")),
    sql: str | None = typer.Argument(None, metavar="SQL", help=N_("the question, in DuckDB's SQL, over the tables and named views (none: list them)")),
    format: str = typer.Option("text", "--format", "-f", metavar="FORMAT", help=N_("text, csv or json")),
) -> None:
    from referee.archive.extra import missing

    hint = missing("query")
    if hint is not None:
        raise fail(hint)
    from referee.archive.query import query_command

    _run(lambda: query_command(archive, sql, format))


@app.command("explore", help=N_("A self-contained page of an archive: the loss rate by deal feature with 95 % intervals, the mistakes by code and seat, the tally over time; every row links to the game and trick in the replay page."))
def explore(
    archive: Path = typer.Argument(..., metavar="ARCHIVE", help=N_("tables made by export --format parquet, or records (a .gwy file or a folder of them)")),
    output: Path | None = typer.Option(None, "--output", "-o", metavar="FILE", help=N_("the page to write (default: ARCHIVE-explore.html beside it)")),
) -> None:
    from referee.archive.extra import missing

    hint = missing("explore")
    if hint is not None:
        raise fail(hint)
    from referee.table.explore import explore_command

    _run(lambda: explore_command(archive, output))


@app.command("import", help=N_("Turn a game kept by a Getaway app into a record the referee can check (docs/archives.md: the formats, and where each app departs from the rules texts)."))
def import_(
    file: Path = typer.Argument(..., metavar="FILE", help=N_("the app's game log")),
    from_: str = typer.Option(..., "--from", metavar="FORMAT", help=N_("the app that wrote it (the formats are listed in docs/archives.md, Importing games from apps)")),
    output: Path | None = typer.Option(None, "--output", "-o", metavar="FILE", help=N_("write the record here instead of standard output")),
    force: bool = typer.Option(False, "--force", help=N_("replace an existing --output file")),
) -> None:
    from referee.archive.imports import import_command

    _run(lambda: import_command(from_, file, output, force))


# ---- the referee offline in the browser (issue 39; referee/site/) -------------------------------


@app.command("site", help=N_("A static site that referees in the browser with no server and no network: the page, the Pyodide runtime, the package, a service worker."))
def site(
    output: Path = typer.Option(..., "--output", "-o", metavar="DIR", help=N_("the folder to write the site into")),
    pyodide: Path | None = typer.Option(None, "--pyodide", metavar="DIR", help=N_("the pyodide npm package's folder "
                                        "(default: $GETAWAY_PYODIDE, else ./node_modules/pyodide)")),
) -> None:
    from referee.site.build import site_command

    _run(lambda: site_command(output, pyodide))


@app.command("link", help=N_("A link to the site's page that carries the game in its fragment (never sent to a server): opened, it shows the referee's verdicts."))
def link(
    file: Path = typer.Argument(..., metavar="FILE", help=N_("a record (.gwy)")),
    game: int | None = typer.Option(None, "--game", "-g", callback=at_least(1), metavar="N", help=N_("which game of the file (default: the last)")),
    base: str = typer.Option("index.html", "--base", metavar="URL", help=N_("the site's page (getaway-ref site), e.g. https://club.example/ref/")),
) -> None:
    from referee.site.link import link_command

    _run(lambda: link_command(file, game, base))


def main() -> None:
    """Run the typer app (``referee/_start.py`` ends a closed pipe or Ctrl-C for it). A command
    line click cannot use is said as every error of ours is, in one line with where to look
    (``referee/commands/options.py``'s :func:`usage_line`), not in click's usage box."""
    try:
        from typer import _click as click  # typer 0.29 on carries its own click
    except ImportError:  # pragma: no cover - an older typer, on click itself
        import click  # type: ignore[no-redef,import-not-found,unused-ignore]

    from referee.commands.options import say_error, usage_line

    try:
        # the command's name in its help, however it was started
        speak_typer()
        code = app(prog_name="getaway-ref", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError as e:
        e.show()  # `getaway-ref` alone: the help, as before
        raise SystemExit(EXIT_USAGE) from None
    except click.exceptions.UsageError as e:
        where = e.ctx.command_path if e.ctx is not None else "getaway-ref"
        words = sys.argv[1:]
        if where == "getaway-ref" and words and not words[0].startswith("-") \
                and not e.format_message().startswith("No such command"):
            where = f"getaway-ref {words[0]}"  # a command's option that lacks its value
        say_error(usage_line(e.format_message(), where))
        raise SystemExit(EXIT_USAGE) from None
    except click.exceptions.ClickException as e:
        say_error(e.format_message())
        raise SystemExit(e.exit_code) from None
    except typer.Abort:
        raise KeyboardInterrupt from None  # as Ctrl-C anywhere else (referee/_start.py)
    raise SystemExit(code if isinstance(code, int) else EXIT_OK)


if __name__ == "__main__":
    main()
