"""Diagnostics: stable codes, what each means, and the diagnostic a check produces.

Codes are grouped by who is at fault:

- ``S0xx`` the text cannot be read as a record (syntax, unknown seat, bad tag);
- ``R1xx`` the record cannot be true (docs/rulings.md, ruling 5): an error in the record,
  not a player's mistake, so no penalty;
- ``M2xx`` a mistake at the table, penalised as ruling 1 says.

Every diagnostic is data: its code, severity, message, spans, notes (each rule cited once,
from :mod:`referee.engine.citations`), help and, for a mistake, the penalty and whether the
table applied it. The text renderer, the JSON report and any later output read the same
data. Severities: ``error`` (the record is broken or cannot be true: S and R codes),
``mistake`` (a player's mistake at the table: M codes), ``note`` (a hint that never changes
the outcome of a check). The codes themselves, with their titles and explanations, are the
catalogue of :mod:`referee.engine.codes`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The catalogue of codes lives in the engine (referee/engine/codes.py); these names are
# re-exported for the reports and commands that import them from here.
from referee.engine.codes import CODES as CODES
from referee.engine.codes import ERROR as ERROR
from referee.engine.codes import MISTAKE as MISTAKE
from referee.engine.codes import NOTE as NOTE
from referee.engine.codes import SEVERITIES as SEVERITIES
from referee.engine.codes import Code as Code
from referee.engine.codes import CodeInfo as CodeInfo
from referee.engine.codes import explain as explain
from referee.engine.codes import title as title
from referee.engine.language import gettext as _
from referee.notation.record import Span

FAILING = frozenset({ERROR, MISTAKE})  # the severities that make a check fail; notes never do


class JudgedTo(str):
    """Why the replay of a game with a line that cannot be read stops (its ``stopped``): the
    sentence, said in the current language, that also carries the broken line as data, so a
    report knows it for what it is in any language (``isinstance``), never by its words."""

    line: int  # the line that cannot be read; the game is judged up to the one before it

    def __new__(cls, text: str, line: int) -> JudgedTo:
        said = super().__new__(cls, text)
        said.line = line
        return said

    def __getnewargs__(self) -> tuple[str, int]:  # type: ignore[override]
        # Sent between processes as its text and line (a worker's outcomes, archive/slices.py).
        return str(self), self.line


def judged_to(line: int) -> JudgedTo:
    """Why the replay of a game with a broken line stops (its ``stopped``)."""
    return JudgedTo(_("judged to line {last}: line {line} cannot be read, and nothing from it on is judged").format(
        last=line - 1, line=line), line)


@dataclass(slots=True)
class PenaltyFacts:
    """Ruling 1's penalty for a mistake: who picks up how many cards of which trick, who
    leads next (None when the game ended), and whether the table applied it."""

    seat: str
    cards: int
    trick: int
    leads: int | None
    applied: bool
    leader: str | None = None  # who leads next when not the offender (the engine's Penalty.leads)


@dataclass(slots=True)
class Related:
    """Another place a diagnostic points at (the play that proves a renege, say)."""

    span: Span
    label: str
    source_line: str = ""


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text at ``span`` (its offsets in the file; an empty span inserts) with
    ``text``."""

    span: Span
    text: str


@dataclass(frozen=True, slots=True)
class Fix:
    """A diagnostic's one obvious repair, as text edits. ``safe``: it repairs only what the
    diagnostic says (a seat's unique beginning written out, the missing version line), so
    ``check --fix`` applies it; an unsafe one (a near spelling) is a guess the editor offers
    as a quick fix and a person accepts."""

    title: str
    edits: tuple[Edit, ...]
    safe: bool = True


@dataclass(slots=True)
class Diagnostic:
    code: str
    message: str
    span: Span | None
    label: str = ""
    notes: list[str] = field(default_factory=list)
    help: str | None = None
    severity: str = ERROR
    game: int | None = None
    trick: int | None = None
    source_line: str = ""
    path: str = ""
    related: list[Related] = field(default_factory=list)
    penalty: PenaltyFacts | None = None
    fix: Fix | None = None

    def __post_init__(self) -> None:
        # Callers name a code by its catalogue member; the diagnostic keeps the code itself,
        # as the report, a repr and a comparison show it.
        self.code = str(self.code)

    @property
    def is_error(self) -> bool:
        """An error or a mistake: something that makes ``check`` fail. Notes never do."""
        return self.severity in FAILING

    @property
    def message_with_help(self) -> str:
        """The message and, in brackets, the help: what an output that gives a diagnostic
        one line of text shows (GitHub, SARIF, the editor)."""
        return self.message + (f" ({self.help})" if self.help else "")


