"""``getaway-ref check``: its command line read (``commands/options.py``'s one parser), its settings
found, and the run handed to ``archive/check.py``.

``referee/_start.py`` (the light entry point) and ``referee/cli.py`` (typer's ``check``, for
``getaway-ref --help``'s list) both call :func:`check_main`. A usage problem is a
:class:`UsageError` with the message the user sees, printed as ``error: ...`` (exit 2).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from referee.archive.check import FileSettings, run_check
from referee.archive.inputs import STDIN, STDIN_NAME, no_records, spool_stdin
from referee.archive.jobs import choose_jobs
from referee.commands.options import (
    EXIT_USAGE,
    UsageError,
    choose_language,
    expand,
    read_check_line,
    rules_options,
    say_error,
)
from referee.config import Config, ConfigError, Settings, where
from referee.engine.language import gettext as _
from referee.files import WriteError, io_error, recover
from referee.fixes import fix_paths
from referee.reports.select import Policy, SelectError, parse_codes


def check_command(paths: Sequence[Path], *, output_format: str | None = None, select: Sequence[str] = (),
                  ignore: Sequence[str] = (), exit_zero: bool = False, statistics: bool = False,
                  rules: str | None = None, rules_file: Path | None = None, sets: Sequence[str] = (),
                  force_rules: bool = False, quiet: bool = False, jobs: str = "auto", dask: str | None = None,
                  show_games: bool = False, verbose: bool = False, config: Path | None = None,
                  isolated: bool = False, fix: bool = False, lang: str | None = None) -> int:
    """``getaway-ref check``: every game judged under the settings nearest its file
    (``[tool.getaway-ref]`` or ``getaway-ref.toml``; the command line wins), and reported;
    the exit code."""
    # The language first, so that a refusal of the line is said in it (--format on the line
    # settles it here; a settings file's output_format, read below, may still make it English).
    choose_language(lang, machine=(output_format or "text") != "text")
    if config is not None and isolated:
        raise UsageError(_("{config} and {isolated} do not go together: one names the settings, the other refuses "
                           "them").format(config="--config", isolated="--isolated"))
    files = expand(paths)
    if not files:
        raise UsageError(no_records(paths))
    recover(files)  # a rewrite of a record cut short by a kill: put back before anything reads it
    not_written: list[WriteError] = []
    if fix:  # the safe fixes first, each said on standard error (ruff's --fix); then the check
        fix_paths(paths, select, ignore, not_written=not_written)
    try:
        found = Settings(config, isolated)
        run = found.for_run()
        by_file = {p: _file_settings(found.for_file(p), select, ignore, rules, rules_file, sets) for p in files}
    except (ConfigError, SelectError) as e:
        raise UsageError(str(e)) from None
    out_format = output_format or run.output_format or "text"
    choose_language(lang, machine=out_format != "text")
    # The line per game only when asked on the command line (which wins over quiet = true in
    # the settings, now the default anyway); -q keeps a script's output as it was.
    show = (show_games or verbose) and not quiet
    try:
        processes = choose_jobs(sum(_bytes(p) for p in files), jobs)
    except ValueError as e:
        raise UsageError(str(e)) from None
    said: set[Path | None] = set()

    def settings_of(path: Path) -> FileSettings:
        got = by_file[path]
        if verbose and got.source not in said:  # each settings file named once, as it is first used
            said.add(got.source)
            sys.stdout.flush()
            # i18n: check --verbose names the settings file each record is judged under
            sys.stderr.write((_("settings: {file}").format(file=got.source) if got.source
                              else _("settings: none (defaults)")) + "\n")
        return got

    # Standard input is spooled to a temporary file, so that workers can read their slices.
    names: dict[Path, str] = {}
    spooled: list[Path] = []
    try:
        for i, p in enumerate(files):
            if str(p) == STDIN:
                if dask is not None:
                    raise UsageError(_("{option} reads files its workers can open, not standard input").format(
                        option="--dask"))
                files[i] = spool = spool_stdin()
                spooled.append(spool)
                names[spool] = STDIN_NAME
                by_file[spool] = by_file[p]
        first = by_file[files[0]]
        code = run_check(files, out_format, first.default, first.overrides, force_rules, not show, processes,
                         dask, names, policy=first.policy, statistics=statistics or bool(run.statistics),
                         exit_zero=exit_zero or bool(run.exit_zero), settings=settings_of)
        # A fix that could not be written (said in one line above): an I/O error, exit 2.
        return EXIT_USAGE if not_written else code
    finally:
        for p in spooled:
            p.unlink(missing_ok=True)


def _bytes(path: Path) -> int:
    """The size of a regular file; 0 for anything the system will not say (it is refused,
    with its own message, when it is read)."""
    try:
        return path.stat().st_size if path.is_file() else 0
    except OSError:
        return 0


def _file_settings(cfg: Config, select: Sequence[str], ignore: Sequence[str], rules: str | None,
                   rules_file: Path | None, sets: Sequence[str]) -> FileSettings:
    """What a record is judged under: its settings file's, with the command line winning."""
    at = where(cfg)
    policy = Policy(select=parse_codes(list(select) or cfg.select or ["ALL"], "--select" if select else f"{at}: select"),
                    ignore=parse_codes(list(ignore) or cfg.ignore or [], "--ignore" if ignore else f"{at}: ignore"))
    from_file = rules is None and rules_file is None and cfg.rules is not None
    default, overrides = rules_options(cfg.rules if from_file else rules, rules_file,
                                       [f"{k}={v}" for k, v in cfg.sets.items()] + list(sets),
                                       rules_from=f"{at}: rules" if from_file else "--rules",
                                       sets_from=f"{at}: set" if cfg.sets and not sets else "--set")
    return FileSettings(policy, default, overrides, cfg.path)


def check_main(args: Sequence[str]) -> int:
    """``getaway-ref check ARGS``: the exit code (argparse exits 2 itself on a wrong line)."""
    try:
        return check_command(**read_check_line(args))
    except UsageError as e:
        say_error(str(e))
        return EXIT_USAGE
    except BrokenPipeError:
        raise  # the reader of the report went away: referee/commands/pipes.py ends the run
    except OSError as e:  # an I/O error nothing else said (a file size limit, a full disk): one line
        say_error(io_error(e))
        return EXIT_USAGE
