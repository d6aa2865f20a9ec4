"""What the commands do, without the command-line parser.

``referee/cli.py`` (typer) and ``referee/_start.py`` (the light entry point that starts a
plain ``check`` without typer) both call these functions, so a ``check`` behaves the same
whichever way it was started. A usage problem is a :class:`UsageError` with the message the
user sees; the callers print it (exit 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from referee.archive.check import run_check
from referee.archive.inputs import STDIN, STDIN_NAME, spool_stdin
from referee.archive.inputs import expand as files_of
from referee.archive.jobs import choose_jobs
from referee.config import ConfigError, config_for
from referee.engine.rules import OPTIONS, RuleSet, RulesError, coerce, load_file, parse_spec
from referee.reports.select import Policy, SelectError, parse_codes


class UsageError(Exception):
    """A command line or a setting that cannot be used: the message says why."""


def expand(paths: Sequence[Path]) -> list[Path]:
    """Files as given (``-`` for standard input); directories give their .gwy files,
    recursively, in name order."""
    return files_of(list(paths))


def _bytes(path: Path) -> int:
    """The size of a regular file; 0 for anything the system will not say (it is refused,
    with its own message, when it is read)."""
    try:
        return path.stat().st_size if path.is_file() else 0
    except OSError:
        return 0


def rules_options(rules: str | None, rules_file: Path | None,
                  sets: Sequence[str]) -> tuple[RuleSet | None, dict[str, object]]:
    """--rules / --rules-file / --set, read into (default rule set, overrides)."""
    default = None
    try:
        if rules_file is not None:
            default = load_file(rules_file)
    except (FileNotFoundError, IsADirectoryError):
        raise UsageError(f"--rules-file {rules_file}: no such rules file") from None
    except RulesError as e:
        raise UsageError(f"--rules-file: {e.message}") from None
    try:
        if rules is not None:
            default = parse_spec(rules, base=default)
    except RulesError as e:
        raise UsageError(f"--rules: {e.message}") from None
    overrides: dict[str, object] = {}
    for s in sets:
        key, eq, value = s.partition("=")
        key = key.strip().lower().replace("-", "_")
        if not eq or key not in OPTIONS:
            raise UsageError(f"--set {s}: expected option=value, with option one of {', '.join(OPTIONS)}")
        try:
            overrides[key] = coerce(key, value)
        except ValueError as e:
            raise UsageError(f"--set {s}: {e}") from None
    return default, overrides


def check_command(paths: Sequence[Path], *, output_format: str | None = None, select: Sequence[str] = (),
                  ignore: Sequence[str] = (), exit_zero: bool = False, statistics: bool = False,
                  rules: str | None = None, rules_file: Path | None = None, sets: Sequence[str] = (),
                  force_rules: bool = False, quiet: bool = False, jobs: str = "auto", dask: str | None = None) -> int:
    """``getaway-ref check``: settings from ``[tool.getaway-ref]`` or ``getaway-ref.toml``
    (the command line wins), then every game judged and reported; the exit code."""
    try:
        cfg = config_for(list(paths))
        policy = Policy(
            select=parse_codes(list(select) or cfg.select or ["ALL"], "--select" if select else f"{cfg.path}: select"),
            ignore=parse_codes(list(ignore) or cfg.ignore or [], "--ignore" if ignore else f"{cfg.path}: ignore"),
            exit_zero=exit_zero or bool(cfg.exit_zero),
        )
    except (ConfigError, SelectError) as e:
        raise UsageError(str(e)) from None
    if rules is None and rules_file is None and cfg.rules is not None:
        rules = cfg.rules
    all_sets = [f"{k}={v}" for k, v in cfg.sets.items()] + list(sets)
    out_format = output_format or cfg.output_format or "text"
    default, overrides = rules_options(rules, rules_file, all_sets)
    files = expand(paths)
    if not files:
        raise UsageError("no .gwy records found in " + ", ".join(map(str, paths)))
    try:
        processes = choose_jobs(sum(_bytes(p) for p in files), jobs)
    except ValueError as e:
        raise UsageError(str(e)) from None
    # Standard input is spooled to a temporary file, so that workers can read their slices.
    names: dict[Path, str] = {}
    spooled: list[Path] = []
    try:
        for i, p in enumerate(files):
            if str(p) == STDIN:
                if dask is not None:
                    raise UsageError("--dask reads files its workers can open, not standard input")
                files[i] = spool = spool_stdin()
                spooled.append(spool)
                names[spool] = STDIN_NAME
        return run_check(files, out_format, default, overrides, force_rules, quiet or bool(cfg.quiet), processes,
                         dask, names, policy=policy, statistics=statistics or bool(cfg.statistics))
    finally:
        for p in spooled:
            p.unlink(missing_ok=True)
