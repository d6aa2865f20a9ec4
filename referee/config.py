"""Project settings for ``check``: ``[tool.getaway-ref]`` in a ``pyproject.toml``, or the top
level of a ``getaway-ref.toml``, found from the checked path upwards.

In each directory from the checked file's up to the root, a ``getaway-ref.toml`` is taken
first, then a ``pyproject.toml`` that has a ``[tool.getaway-ref]`` table (one without it is
passed over, as ruff and black do). The first found is the only one read. The command line
wins over every setting in it.

    [tool.getaway-ref]
    select = ["R", "S"]          # or "R,S"
    ignore = ["M"]
    exit-zero = false
    statistics = false
    quiet = false
    output-format = "github"
    rules = "pagat taking=no"    # the rule set for games without a [Rules] tag
    set = { direction = "anticlockwise" }

Each record is judged under the settings file nearest to it, as ruff does, so the order of
the files on the command line changes nothing; the settings of the run as a whole (the
output format, quiet, statistics, exit-zero) come from the file nearest the current
directory. ``--config FILE`` puts one file in charge of everything, ``--isolated`` reads
none. A settings file that cannot be used (not TOML, nested past reason, a value of the
wrong type) is a :class:`ConfigError` naming the file, never a traceback.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from referee.archive.inputs import not_text
from referee.engine.language import gettext as _
from referee.files import reason_of
from referee.reports.sink import FORMATS as OUTPUT_FORMATS

CONFIG_NAME = "getaway-ref.toml"
PYPROJECT = "pyproject.toml"
TOOL_KEY = "getaway-ref"

# What a value of the settings looks like, as a refusal shows it (TOML, as written).
CODES_EXAMPLE = '["R", "M201"]'
RULES_EXAMPLE = '"pagat taking=no"'
SET_EXAMPLE = "{ taking = false }"

KEYS = ("select", "ignore", "exit-zero", "statistics", "quiet", "output-format", "rules", "set")


class ConfigError(ValueError):
    """A settings file that cannot be used: the message names the file and what is wrong."""


@dataclass
class Config:
    """Settings read from a file; None where the file says nothing."""

    path: Path | None = None
    select: list[str] | None = None
    ignore: list[str] | None = None
    exit_zero: bool | None = None
    statistics: bool | None = None
    quiet: bool | None = None
    output_format: str | None = None
    rules: str | None = None
    sets: dict[str, str] = field(default_factory=dict)


def find_config(start: Path) -> Path | None:
    """The settings file that governs ``start`` (a file or a directory), or None."""
    try:
        here = start.resolve() if start.exists() else start.absolute()
        if not here.is_dir():
            here = here.parent
    except OSError:
        # A name the system will not look up (too long, say): the file is refused later,
        # with its own message; settings are looked for from its folder.
        here = start.absolute().parent
    for d in (here, *here.parents):
        own = d / CONFIG_NAME
        if own.is_file():
            return own
        py = d / PYPROJECT
        if py.is_file():
            try:
                text = py.read_text(encoding="utf-8-sig")
                data = tomllib.loads(text)
            except (OSError, UnicodeDecodeError):
                continue
            except (tomllib.TOMLDecodeError, RecursionError):
                # A pyproject.toml that cannot be read (bad TOML, tables nested a thousand
                # deep) is ours to report only if it means to configure us; another tool's
                # is passed over, as ruff and black pass over a file without their table.
                if TOOL_KEY in text:
                    return py
                continue
            tool = data.get("tool")
            if isinstance(tool, dict) and TOOL_KEY in tool:
                return py
    return None


def _codes(where: str, key: str, value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise ConfigError(_("{where}: '{key}' is a list of codes or prefixes, such as {example}").format(
        where=where, key=key, example=CODES_EXAMPLE))


def _bool(where: str, key: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise ConfigError(_("{where}: '{key}' is true or false").format(where=where, key=key))


def load_config(path: Path) -> Config:
    """Read one settings file; a ConfigError names an unknown key with the valid ones."""
    try:
        # utf-8-sig: a file saved with a byte-order mark (Windows editors) reads as without.
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except OSError as e:
        raise ConfigError(f"{path}: {reason_of(e)}") from None
    except UnicodeDecodeError:
        raise ConfigError(not_text(path)) from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(_("{file}: not valid TOML: {why}").format(file=path, why=e)) from None
    except RecursionError:
        raise ConfigError(_("{file}: not read: tables or lists nested too deep").format(file=path)) from None
    tool = data.get("tool")
    if path.name == PYPROJECT:
        table = tool.get(TOOL_KEY, {}) if isinstance(tool, dict) else {}
        where = f"{path}: [tool.{TOOL_KEY}]"
    else:
        table = tool.get(TOOL_KEY, data) if set(data) == {"tool"} and isinstance(tool, dict) else data
        where = str(path)
    if not isinstance(table, dict):
        raise ConfigError(_("{where}: expected a table of settings").format(where=where))
    cfg = Config(path=path)
    for key, value in table.items():
        if key not in KEYS:
            raise ConfigError(_("{where}: unknown key '{key}'; valid keys are {keys}").format(
                where=where, key=key, keys=", ".join(KEYS)))
        if key in ("select", "ignore"):
            setattr(cfg, key, _codes(where, key, value))
        elif key in ("exit-zero", "statistics", "quiet"):
            setattr(cfg, key.replace("-", "_"), _bool(where, key, value))
        elif key == "output-format":
            if value not in OUTPUT_FORMATS:
                raise ConfigError(_("{where}: {key} '{value}' is not one of {formats}").format(
                    where=where, key=key, value=value, formats=", ".join(OUTPUT_FORMATS)))
            cfg.output_format = str(value)
        elif key == "rules":
            if not isinstance(value, str):
                raise ConfigError(_("{where}: '{key}' is a rule set as a [Rules] tag writes it, such as {example}").format(
                    where=where, key=key, example=RULES_EXAMPLE))
            cfg.rules = value
        elif key == "set":
            if not isinstance(value, dict) or not all(isinstance(v, (str, bool, int, float)) for v in value.values()):
                raise ConfigError(_("{where}: '{key}' is a table of option = value, such as {example}").format(
                    where=where, key=key, example=SET_EXAMPLE))
            cfg.sets = {str(k): str(v).lower() if isinstance(v, bool) else str(v) for k, v in value.items()}
    return cfg


def where(cfg: Config) -> str:
    """How a message names the settings file: its path and, in a pyproject.toml, the table."""
    if cfg.path is None:
        return _("the settings")
    return f"{cfg.path}: [tool.{TOOL_KEY}]" if cfg.path.name == PYPROJECT else str(cfg.path)


class Settings:
    """The settings files of one run: each record's nearest (``for_file``), read once each;
    ``fixed`` (``--config``) for every record, or none at all (``isolated``)."""

    def __init__(self, fixed: Path | None = None, isolated: bool = False) -> None:
        self.fixed = load_config(fixed) if fixed is not None else None
        self.isolated = isolated
        self._by_file: dict[Path, Config] = {}
        self._by_dir: dict[Path, Path | None] = {}

    def _load(self, found: Path | None) -> Config:
        if found is None:
            return Config()
        cfg = self._by_file.get(found)
        if cfg is None:
            cfg = self._by_file[found] = load_config(found)
        return cfg

    def for_file(self, path: Path) -> Config:
        """The settings a record is judged under (the nearest file's, or --config's)."""
        if self.fixed is not None:
            return self.fixed
        if self.isolated:
            return Config()
        key = path.parent
        if key not in self._by_dir:
            self._by_dir[key] = find_config(path)
        return self._load(self._by_dir[key])

    def for_run(self) -> Config:
        """The settings of the whole run: --config's, or the file nearest the current directory."""
        if self.fixed is not None:
            return self.fixed
        if self.isolated:
            return Config()
        return self._load(find_config(Path.cwd()))


def config_for(paths: list[Path]) -> Config:
    """The settings of a run: the file found from the first checked path upwards (the
    settings shape the whole run, so one file governs it), or empty settings."""
    if not paths:
        return Config()
    found = find_config(paths[0])
    return load_config(found) if found is not None else Config()
