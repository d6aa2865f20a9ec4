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
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from referee.reports.sink import FORMATS as OUTPUT_FORMATS

CONFIG_NAME = "getaway-ref.toml"
PYPROJECT = "pyproject.toml"
TOOL_KEY = "getaway-ref"

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
                text = py.read_text(encoding="utf-8")
                data = tomllib.loads(text)
            except (OSError, UnicodeDecodeError):
                continue
            except tomllib.TOMLDecodeError:
                # A broken pyproject.toml is ours to report only if it means to configure us.
                if f"tool.{TOOL_KEY}" in text:
                    return py
                continue
            if TOOL_KEY in data.get("tool", {}):
                return py
    return None


def _codes(where: str, key: str, value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise ConfigError(f"{where}: '{key}' is a list of codes or prefixes, such as [\"R\", \"M201\"]")


def _bool(where: str, key: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise ConfigError(f"{where}: '{key}' is true or false")


def load_config(path: Path) -> Config:
    """Read one settings file; a ConfigError names an unknown key with the valid ones."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ConfigError(f"{path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    if path.name == PYPROJECT:
        table = data.get("tool", {}).get(TOOL_KEY, {})
        where = f"{path}: [tool.{TOOL_KEY}]"
    else:
        table = data.get("tool", {}).get(TOOL_KEY, data) if set(data) == {"tool"} else data
        where = str(path)
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: expected a table of settings")
    cfg = Config(path=path)
    for key, value in table.items():
        if key not in KEYS:
            raise ConfigError(f"{where}: unknown key '{key}'; valid keys are {', '.join(KEYS)}")
        if key in ("select", "ignore"):
            setattr(cfg, key, _codes(where, key, value))
        elif key in ("exit-zero", "statistics", "quiet"):
            setattr(cfg, key.replace("-", "_"), _bool(where, key, value))
        elif key == "output-format":
            if value not in OUTPUT_FORMATS:
                raise ConfigError(f"{where}: output-format '{value}' is not one of {', '.join(OUTPUT_FORMATS)}")
            cfg.output_format = str(value)
        elif key == "rules":
            if not isinstance(value, str):
                raise ConfigError(f"{where}: 'rules' is a rule set as a [Rules] tag writes it, such as \"pagat taking=no\"")
            cfg.rules = value
        elif key == "set":
            if not isinstance(value, dict):
                raise ConfigError(f"{where}: 'set' is a table of option = value")
            cfg.sets = {str(k): str(v).lower() if isinstance(v, bool) else str(v) for k, v in value.items()}
    return cfg


def config_for(paths: list[Path]) -> Config:
    """The settings of a run: the file found from the first checked path upwards (the
    settings shape the whole run, so one file governs it), or empty settings."""
    if not paths:
        return Config()
    found = find_config(paths[0])
    return load_config(found) if found is not None else Config()
