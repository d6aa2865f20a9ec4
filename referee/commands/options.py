"""The options the commands share, and ``check``'s options, declared once.

``check`` is read by one parser, argparse, built from :data:`CHECK_OPTIONS`: the light entry
point (``referee/_start.py``) and the typer app's ``check`` (``referee/cli.py``, which hands
its words over) both call :func:`check_main`, so there is no second reading of the command
line to keep in step (issue 24, item 6). argparse imports in a few milliseconds where typer
takes tens, so a plain ``check`` still starts within 0.1 s of bare Python (``bench/``).

Light on purpose: the table and the self-play commands import this module for
:class:`UsageError` and :func:`rules_options`, and a plain ``check`` imports it first; it
imports neither typer nor rich nor pydantic.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from referee.archive.inputs import expand as files_of
from referee.engine import language as L
from referee.engine.language import N_
from referee.engine.language import gettext as _
from referee.engine.rules import OPTIONS, RulesError, RuleSet, coerce, load_file, parse_spec
from referee.files import reason_of
from referee.reports.sink import FORMATS

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A command line or a setting that cannot be used: the message says why, a sentence of
    the catalogue in the chosen language (``tests/test_i18n_refusals.py`` reads every one)."""


def exists_already(path: Path | str) -> str:
    """A file a command would replace only when told to (import, simulate)."""
    return _("{file} exists; give --force to replace it").format(file=path)


def cannot_write(path: Path | str, e: OSError) -> str:
    """A file or folder a command could not write, and why (:func:`referee.files.reason_of`:
    our words for the usual reasons): said alike by every command that writes (import,
    puzzles, export, html, explore, site)."""
    return _("cannot write {file}: {why}").format(file=path, why=reason_of(e))


def expand(paths: Sequence[Path]) -> list[Path]:
    """Files as given (``-`` for standard input); directories give their .gwy files,
    recursively, in name order."""
    return files_of(list(paths))


def rules_options(rules: str | None, rules_file: Path | None, sets: Sequence[str], *,
                  rules_from: str = "--rules", sets_from: str = "--set") -> tuple[RuleSet | None, dict[str, object]]:
    """--rules / --rules-file / --set, read into (default rule set, overrides). ``rules_from``
    and ``sets_from`` name where the values came from in a message (a settings file's key
    when the user wrote them there, not a flag they never typed)."""
    default = None
    try:
        if rules_file is not None:
            default = load_file(rules_file)
    except (FileNotFoundError, IsADirectoryError):
        raise UsageError(_("--rules-file {file}: no such rules file").format(file=rules_file)) from None
    except RulesError as e:
        raise UsageError(f"--rules-file: {e.message}") from None
    try:
        if rules is not None:
            default = parse_spec(rules, base=default)
    except RulesError as e:
        raise UsageError(f"{rules_from}: {e.message}") from None
    overrides: dict[str, object] = {}
    for s in sets:
        key, eq, value = s.partition("=")
        key = key.strip().lower().replace("-", "_")
        if not eq or key not in OPTIONS:
            raise UsageError(_("{where} {value}: expected option=value, with option one of {options}").format(
                where=sets_from, value=s, options=", ".join(OPTIONS)))
        try:
            overrides[key] = coerce(key, value)
        except ValueError as e:
            raise UsageError(f"{sets_from} {s}: {e}") from None
    return default, overrides


# ---- check's options: the one declaration -----------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """One option of ``check``: its names, the keyword of ``check_command`` it fills, its help
    (a phrase), what it takes (``metavar``; None for a flag), whether it may be given again
    (each value kept), the values it allows, its default, and whether its value is a file."""

    names: tuple[str, ...]
    key: str
    help: str
    metavar: str | None = None
    repeat: bool = False
    choices: tuple[str, ...] | None = None
    default: str | None = None
    path: bool = False  # the value names a file


# --lang, for every command (issue 40): check reads it as its own option, the others through
# take_language before typer sees the line.
LANG_HELP = N_("the language of the sentences: en, ur, pa_PK (Shahmukhi), pa (Gurmukhi), hi, ml, bn (default: "
             "the environment's LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else English); codes, the notation and "
             "machine formats stay in English")
# Commands whose output is for programs whatever the line says, so never translated.
MACHINE_COMMANDS = ("export", "schema")


def choose_language(lang: str | None, *, machine: bool = False) -> str:
    """The language of this run's sentences (engine/language.py): ``--lang``, else the
    environment's; English for a machine format (JSON, SARIF, JUnit, ...), whose words
    programs read. A language we do not know is a usage error."""
    try:
        chosen = L.choose(lang)
    except ValueError:
        raise UsageError(_("--lang: unknown language {name}: choose one of {languages}").format(
            name=repr(lang), languages=", ".join(L.LANGUAGES))) from None
    return L.choose(L.ENGLISH) if machine else chosen


def take_language(argv: list[str]) -> tuple[str | None, list[str]]:
    """``--lang LANG`` (or ``--lang=LANG``) taken from a command line, wherever it stands
    before a lone ``--``: the value (None when not given) and the rest of the line."""
    rest: list[str] = []
    lang: str | None = None
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--":
            rest += argv[i:]
            break
        if word == "--lang":
            if i + 1 >= len(argv):
                raise UsageError(_("{option} needs a value").format(option="--lang"))
            lang = argv[i + 1]
            i += 2
            continue
        if word.startswith("--lang="):
            lang = word.partition("=")[2]
        else:
            rest.append(word)
        i += 1
    return lang, rest


def machine_line(argv: list[str]) -> bool:
    """Does this command line ask for output for programs (``--format`` other than text,
    ``--json``, or a command that only writes for programs)?"""
    if argv[:1] and argv[0] in MACHINE_COMMANDS:
        # export's tables (--format parquet) go to a directory, and what it prints is for
        # people: the language chosen, as query's export of records into its cache has it
        return not (argv[0] == "export" and _format_of(argv) == "parquet")
    # A format no command knows is a usage error, said in the language chosen like any other.
    machine = {*FORMATS, "json", "jsonl", "csv", "parquet"} - {"text"}
    for i, word in enumerate(argv):
        if word in ("-f", "--format", "--output-format") and i + 1 < len(argv):
            if argv[i + 1] in machine:
                return True
        elif word == "--json" or (word.startswith(("--format=", "--output-format="))
                                   and word.partition("=")[2] in machine):
            return True
    return False


def _format_of(argv: list[str]) -> str | None:
    """The ``--format``/``-f`` value a command line gives, or None."""
    for i, word in enumerate(argv):
        if word in ("-f", "--format") and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--format="):
            return word.partition("=")[2]
    return None


CHECK_OPTIONS: tuple[Option, ...] = (
    Option(("-f", "--output-format", "--format"), "output_format",
           N_("text for people, json or jsonl for programs, github for workflow annotations, sarif for code "
              "scanning, junit for test reports"), "FORMAT", choices=FORMATS),
    Option(("--select",), "select", N_("report only these codes or prefixes: --select R1,M201"), "CODES", repeat=True),
    Option(("--ignore",), "ignore", N_("do not report these codes or prefixes: --ignore M"), "CODES", repeat=True),
    Option(("--exit-zero",), "exit_zero", N_("exit 0 even when errors or mistakes are found")),
    Option(("--statistics",), "statistics", N_("a count per code at the end, most frequent first")),
    Option(("--rules",), "rules", N_("the rule set for games without a [Rules] tag, such as denexa or "
           "'pagat taking=no'"), "SPEC"),
    Option(("--rules-file",), "rules_file", N_("house rules from a TOML or JSON file"), "FILE", path=True),
    Option(("--set",), "sets", N_("override one option in every game: --set taking=no"), "OPTION=VALUE", repeat=True),
    Option(("--force-rules",), "force_rules", N_("the rule set given wins over the games' [Rules] tags")),
    Option(("--show-games",), "show_games", N_("a line for every game judged, with its rule set and result")),
    Option(("-q", "--quiet"), "quiet", N_("the problems and the summary line only (the default; wins over "
           "--show-games and --verbose)")),
    Option(("-v", "--verbose"), "verbose", N_("the line for every game, and which settings file was used")),
    Option(("--config",), "config", N_("take the settings from this file (a pyproject.toml or a getaway-ref.toml) "
           "for every record, instead of the file nearest each"), "FILE", path=True),
    Option(("--isolated",), "isolated", N_("ignore every settings file")),
    Option(("-j", "--jobs"), "jobs", N_("judge the games in this many processes, or auto: one for a small input, "
           "one per core for a large one (the report keeps the input order)"), "N", default="auto"),
    Option(("--dask",), "dask", N_("judge the games on the Dask cluster whose scheduler is at this address "
           "(tcp://host:8786); its workers must read the files at the same paths"), "ADDRESS"),
    Option(("--lang",), "lang", LANG_HELP, "LANG"),
    Option(("--fix",), "fix", N_("first apply the safe fixes (a seat's unique beginning written out, the missing "
           "version line) to the files, saying what was fixed; then check them")),
)

CHECK_HELP = N_("Replay every game through the rules engine and report every illegal play and impossible fact.")
CHECK_USAGE = "getaway-ref check [OPTIONS] FILES..."


class _Prose(argparse.HelpFormatter):
    """Help as ruff's and black's read: ``-f, --output-format FORMAT`` (the value named once),
    a flag without one, nothing of Python's types."""

    def add_usage(self, usage: str | None, actions: Iterable[argparse.Action],
                  groups: Iterable[Any], prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, _("Usage:") + " ")

    def _format_action_invocation(self, action: argparse.Action) -> str:
        if not action.option_strings or action.nargs == 0:
            return super()._format_action_invocation(action)
        return ", ".join(action.option_strings) + " " + self._format_args(action, self._get_default_metavar_for_optional(action))


class _Parser(argparse.ArgumentParser):
    def print_help(self, file: Any = None) -> None:
        # argparse passes over an error in writing its help; a closed pipe here is every
        # command's closed pipe (referee/commands/pipes.py), so it is raised.
        (file or sys.stdout).write(self.format_help())

    def error(self, message: str) -> NoReturn:
        # As every other message of ours, in one line: "error: ..." and where to look (argparse
        # would print its usage, then "getaway-ref check: error: ..."), exit 2.
        say_error(usage_line(message, "getaway-ref check"))
        sys.exit(EXIT_USAGE)


def check_parser() -> argparse.ArgumentParser:
    """check's parser, made from :data:`CHECK_OPTIONS`."""
    # Built when it is used, after the language is chosen: its words are said in it.
    p = _Parser(prog="getaway-ref check", usage=CHECK_USAGE, description=_(CHECK_HELP), formatter_class=_Prose,
                allow_abbrev=False, add_help=False)
    p.add_argument_group(_("Arguments")).add_argument(
        "paths", nargs="+", type=Path, metavar="FILES...",
        help=_("records (.gwy files), directories of them, or - for standard input"))
    opts = p.add_argument_group(_("Options"))
    for o in CHECK_OPTIONS:
        said = _(o.help)
        if o.metavar is None:
            opts.add_argument(*o.names, dest=o.key, action="store_true", help=said)
        elif o.repeat:
            opts.add_argument(*o.names, dest=o.key, action="append", default=[], metavar=o.metavar, help=said)
        else:
            opts.add_argument(*o.names, dest=o.key, metavar=o.metavar, choices=o.choices, default=o.default,
                              type=Path if o.path else str,
                              help=said + (_(" (one of {choices})").format(choices=", ".join(o.choices))
                                           if o.choices else ""))
    opts.add_argument("-h", "--help", action="help", help=_("show this message and exit"))
    return p


def read_check_line(args: Sequence[str]) -> dict[str, Any]:
    """check's words as ``check_command``'s keywords; a wrong line is said by argparse
    (usage and ``error: ...`` on standard error, exit 2)."""
    try:  # the language first, wherever --lang stands, so that --help and a wrong line are said in it
        choose_language(take_language(list(args))[0])
    except UsageError:
        pass  # check_command says it
    return vars(check_parser().parse_args(list(args)))


# argparse's and click's words for a command line that cannot be used, in ours: the option by
# its long name, the values allowed without quotes, no "Error:" or capital, no full stop. One
# table, so that `check` (argparse) and every other command (click, under typer) say the same
# thing the same way.
_PARSER_WORDS: tuple[tuple[str, str], ...] = (
    # argparse
    (r"^argument (?:-\w/)?(?P<option>--[\w-]+)(?:/[\w/-]+)?: invalid choice: '(?P<value>[^']*)' \(choose from (?P<choices>.*)\)$",
     N_("{option}: '{value}' is not one of {choices}")),
    (r"^argument (?:-\w/)?(?P<option>--[\w-]+)(?:/[\w/-]+)?: expected one argument$", N_("{option} needs a value")),
    (r"^argument (?:-\w/)?(?P<option>--[\w-]+)(?:/[\w/-]+)?: (?P<why>.*)$", "{option}: {why}"),
    (r"^the following arguments are required: (?P<what>.*)$", N_("missing {what}")),
    (r"^unrecognized arguments: (?P<option>-.*)$", N_("no such option: {option}")),
    (r"^unrecognized arguments: (?P<what>.*)$", N_("unexpected argument: {what}")),
    # click
    (r"^Invalid value for '(?P<option>--[\w-]+)'(?: / '-\w')?: (?:Value error, )?'(?P<value>[^']*)' is not one of (?P<choices>.*?)\.?$",
     N_("{option}: '{value}' is not one of {choices}")),
    (r"^Invalid value for '(?P<option>--[\w-]+)'(?: / '-\w')?: (?:Value error, )?(?P<why>.*?)\.?$", "{option}: {why}"),
    (r"^Invalid value for '(?P<option>[^']*)': (?P<why>.*?)\.?$", "{option}: {why}"),
    (r"^Option '(?P<option>--?[\w-]+)' requires an argument\.$", N_("{option} needs a value")),
    (r"^No such option: (?P<option>\S+?)\.?( Did you mean (\S+?)\?)?$", N_("no such option: {option}")),
    (r"^No such command '(?P<command>[^']*)'\. Did you mean '(?P<near>[^']*)'\?$",
     N_("no such command '{command}'; did you mean '{near}'?")),
    (r"^No such command '(?P<command>[^']*)'\.$", N_("no such command '{command}'")),
    (r"^Missing argument '(?P<what>[^']*)'\.?$", N_("missing {what}")),
    (r"^Missing option '(?P<what>[^']*)'.*$", N_("missing {what}")),
    (r"^Got unexpected extra argument(?:s|\(s\))? \((?P<what>.*)\)$", N_("unexpected argument: {what}")),
)


def usage_line(message: str, command: str) -> str:
    """A parser's complaint about a command line as one line of ours, in the language chosen,
    with where to look: ``--format: 'xml' is not one of text, json (see getaway-ref show --help)``."""
    said = " ".join(message.split())
    for pattern, words in _PARSER_WORDS:
        found = re.match(pattern, said)
        if found:
            values = found.groupdict()
            if "choices" in values:  # the values allowed, without quotes
                values["choices"] = re.sub(r"'([\w-]+)'(?=,|$| or)", r"\1", values["choices"])
            said = _(words).format(**values)
            break
    if " is not one of " in said:  # as above, for a check of ours said in these words
        said = re.sub(r"'([\w-]+)'(?=,|$| or)", r"\1", said)
    return _("{message} (see {command} --help)").format(message=said, command=command)


def say_error(message: str) -> None:
    """``error: MESSAGE`` on standard error: rich's colours on a terminal, plain text elsewhere
    (without rich's import)."""
    if sys.stderr.isatty():
        from referee.reports.render import print_error  # rich, for a terminal only

        print_error(message)
        return
    from referee.reports.text import safe

    sys.stderr.write(f"error: {safe(message)}\n")
