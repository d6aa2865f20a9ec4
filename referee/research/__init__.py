"""Getaway for researchers (issue 41, item 5): a PettingZoo AEC environment
(:mod:`referee.research.pettingzoo_env`) and an OpenSpiel game
(:mod:`referee.research.openspiel_game`), both playing through the engine's typed API
(:mod:`referee.research.table`); every episode writes itself as a ``.gwy`` record.

They need the optional extra ``research`` (PettingZoo, Gymnasium, NumPy, OpenSpiel); without
it, importing them raises :class:`MissingExtra`, whose message is one line saying what to
install. docs/research.md is the user's page.
"""

from __future__ import annotations

from importlib.util import find_spec

MISSING_HINT = "Getaway for researchers needs the research extra: pip install 'getaway-ref[research]'"

PACKAGES = ("numpy", "gymnasium", "pettingzoo", "pyspiel")


class MissingExtra(ImportError):
    """The research extra is not installed: the message is the one-line hint."""

    def __init__(self, missing: str) -> None:
        super().__init__(f"{MISSING_HINT} ({missing} is missing)", name=missing)


def available() -> bool:
    """Whether every package of the extra is installed."""
    return all(find_spec(p) is not None for p in PACKAGES)
