"""Which diagnostics a check reports and which of them fail it (``--select``, ``--ignore``,
``--exit-zero``, ``--statistics``).

The rule for the exit code, in one place: a check fails (exit 1) when a reported diagnostic
is an ``error`` (S and R codes: the record is broken or cannot be true) or a ``mistake``
(M codes: a player's mistake at the table, penalised or not); ``note`` diagnostics are
reported but never change the exit code. ``--exit-zero`` reports everything and exits 0;
an unreadable file still exits 2.

Codes are chosen as ruff chooses them: a code or a prefix of codes (``M``, ``R1``, ``M201``);
when both ``--select`` and ``--ignore`` match a code, the longer (more specific) entry wins,
and on a tie ``--ignore`` wins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.engine.language import gettext as _
from referee.reports.diagnostics import CODES

ERROR, MISTAKE, NOTE = "error", "mistake", "note"
SEVERITIES = (ERROR, MISTAKE, NOTE)
FAILING = frozenset({ERROR, MISTAKE})
ALL = "ALL"


class SelectError(ValueError):
    """A code or prefix that names no code: the message lists the valid ones."""


def severity_of(d: Any) -> str:
    """The severity of a diagnostic: ``error``, ``mistake`` or ``note`` (its data)."""
    return str(d.severity)


def code_severity(code: str) -> str:
    """The severity a code's diagnostics have (for ``explain`` and SARIF's rule levels)."""
    return CODES[code].severity


def prefixes() -> list[str]:
    """Every valid entry of --select/--ignore: the codes and all their prefixes."""
    out: set[str] = set()
    for code in CODES:
        for k in range(1, len(code) + 1):
            out.add(code[:k])
    return sorted(out, key=lambda p: (p[0], len(p), p))


def parse_codes(entries: Iterable[str], option: str) -> list[str]:
    """``["R1,M201", "S"]`` -> ``["R1", "M201", "S"]``, checked against the known codes."""
    valid = set(prefixes())
    out: list[str] = []
    for entry in entries:
        for part in str(entry).split(","):
            p = part.strip().upper()
            if not p:
                continue
            if p != ALL and p not in valid:
                groups = sorted({c[0] for c in CODES})
                raise SelectError(
                    _("{option}: unknown code or prefix '{part}'; valid are {all}, the groups {groups} (S syntax, "
                      "R record cannot be true, M mistake at the table), any prefix of a code, and the codes "
                      "{codes}").format(option=option, part=part.strip(), all=ALL, groups=", ".join(groups),
                                        codes=", ".join(CODES)))
            out.append(p)
    return out


def _best(code: str, entries: Sequence[str]) -> int:
    """The length of the longest entry that matches the code (0 for ALL, -1 for none)."""
    best = -1
    for e in entries:
        if e == ALL:
            best = max(best, 0)
        elif code.startswith(e):
            best = max(best, len(e))
    return best


@dataclass
class Policy:
    """What is reported and what fails: built once per run, asked once per diagnostic."""

    select: list[str] = field(default_factory=lambda: [ALL])
    ignore: list[str] = field(default_factory=list)
    exit_zero: bool = False
    counts: Counter[str] = field(default_factory=Counter)
    by_severity: Counter[str] = field(default_factory=Counter)
    _cache: dict[str, bool] = field(default_factory=dict, repr=False)

    def wants(self, code: str) -> bool:
        hit = self._cache.get(code)
        if hit is None:
            s, i = _best(code, self.select), _best(code, self.ignore)
            hit = s >= 0 and s > i
            self._cache[code] = hit
        return hit

    def keep(self, diagnostics: Iterable[Any]) -> list[Any]:
        """The diagnostics to report, counted per code and per severity as they pass."""
        kept = [d for d in diagnostics if self.wants(d.code)]
        for d in kept:
            self.counts[d.code] += 1
            self.by_severity[severity_of(d)] += 1
        return kept

    @property
    def failing(self) -> int:
        """How many reported diagnostics fail the check (errors and mistakes)."""
        return self.by_severity[ERROR] + self.by_severity[MISTAKE]

    def exit_code(self, unreadable: int = 0) -> int:
        if unreadable:
            return 2
        if self.exit_zero:
            return 0
        return 1 if self.failing else 0

    def statistics(self) -> list[tuple[int, str, str, str]]:
        """(count, code, severity, title), most frequent first, then by code."""
        rows = []
        for code, n in self.counts.items():
            c = CODES.get(code)
            rows.append((n, code, code_severity(code), c.title if c else ""))
        rows.sort(key=lambda r: (-r[0], r[1]))
        return rows

    def statistics_text(self) -> str:
        rows = self.statistics()
        if not rows:
            return _("no diagnostics") + "\n"
        width = max(len(str(r[0])) for r in rows)
        # The severity and title in the chosen language (statistics() keeps them as data).
        said = [(n, code, _(sev), _(title)) for n, code, sev, title in rows]
        most = max(8, *(len(sev) for _n, _c, sev, _t in said))
        return "".join(f"{n:>{width}}  {code:<5} {sev:<{most}} {title}\n" for n, code, sev, title in said)
