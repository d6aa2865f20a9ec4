"""``getaway-ref live``: a referee that follows a game typed one action at a time.

What people type is read by :mod:`referee.table.entry` into the notation's own lines (seat
prefixes, any card spelling, several plays a line, the card alone when the engine says only
one seat can have played it); each of those lines is then what live records. The lines
are: a play (``West A♠``, the trick number is supplied), a trick line (``3. East 3♥, South 7♥``), a take (``North takes
East``), a draw (``West draws 7♦``, ``West draws 7♦ from North``), a count line, or a
comment; and the commands ``show``, ``legal``, ``undo``, ``help``, ``new``, ``quit``.

Nothing here judges. Live keeps the replay of the game (the referee's result and its
engine) and feeds it each new entry: a play that the referee takes as it stands (legal, and
nothing in it that the rest of the record decides) is read alone and applied to the kept
state by the engine's ``apply``, one step (:meth:`Session._one_step` says which plays). Any
other entry is appended to the record's text and the whole game read and judged again by
the referee (:class:`referee.judging.referee.Referee`), as ``undo`` does: a table mistake is
reported with its rule and penalty (the action is recorded: it happened), and whether the
table applied the penalty is read from the entries after it, so every entry after one
rebuilds; an action that cannot be true (a card the player cannot hold, a draw that is not
due, a wrong take, a count the replay contradicts) is a wrong entry and is not recorded.
Either way what live says is what ``check`` says of the file.

The record is the file. After every accepted action the whole file is written through
:mod:`referee.files` (a temporary file beside it, flushed, fsync'd and renamed over it; a
journal where it must be rewritten in place), so a kill -9 loses nothing that was answered,
and the file is always a record that ``check`` reads. Before each entry the file is compared
with what live last read or wrote: a change made by another program is taken in (live goes
on from the file as it is) and never written over. ``live FILE`` on an existing file continues its last game. Without a
FILE a new name is made, and an existing file is never written unless it was named.
"""

from __future__ import annotations

import io
import os
import re
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypedDict

from rich.console import Console
from rich.text import Text

if TYPE_CHECKING:  # the prompt is the terminal's only: imported where it is made (the site's Worker has none)
    from prompt_toolkit import PromptSession

from referee.archive.games import not_a_record
from referee.engine import cards as C
from referee.engine import events as EV
from referee.engine import state as E
from referee.engine.codes import Code
from referee.engine.events import Event
from referee.engine.language import N_, ngettext
from referee.engine.language import gettext as _
from referee.engine.rules import RulesError, RuleSet, parse_spec
from referee.files import (
    ABSENT,
    Changed,
    Snapshot,
    WriteError,
    changed,
    read_snapshot,
    reason_of,
    recover,
    write_text,
)
from referee.judging import wording as W
from referee.judging.referee import GameResult, Referee
from referee.notation.format import format_game
from referee.notation.reader import Reader, ReadError, chunks, parse
from referee.notation.record import Action, Comment, Counts, Deal, Draw, Game, Take, Trick
from referee.reports.diagnostics import Diagnostic
from referee.reports.render import diagnostic_lines
from referee.reports.text import safe, safe_path
from referee.review.ask import hint as review_hint
from referee.review.hint import hint_at
from referee.table import answers
from referee.table.entry import (
    ACCEPTED,
    DRAW_WORDS,
    MAX_ENTRY_CHARS,
    PLAY_WORDS,
    TAKE_WORDS,
    Pending,
    Question,
    Rejection,
    read_entry,
    seat_matches,
    settle,
    words_of,
)
from referee.table.views import LegalModel, legal_model, render_legal, render_state, state_model

# What live says of an entry, by its kind: the first words of its line (serve shows the kind of
# each ruling, and live counts the entries not recorded, by them), in the current language.
HEADS: dict[str, str] = {
    "recorded": N_("recorded: {what}"),
    "rejected": N_("rejected (not recorded): {why}"),
    "question": N_("question (not recorded): {text}"),
    "removed": N_("removed: {what}"),
    "withdrawn": N_("withdrawn: {code} {message}"),
    "noted": N_("noted"),
}


def said(kind: str, **facts: object) -> str:
    """An entry's line of this kind, in the current language."""
    return _(HEADS[kind]).format(**facts)


def kind_of(line: str) -> str:
    """The kind of one of live's lines (``recorded``, ``rejected``, ...), read back from its
    words in the current language; else its first word."""
    for kind, template in HEADS.items():
        head = _(template).split("{", 1)[0]
        if head and line.startswith(head):
            return kind
    return line.split(":", 1)[0].split(" ", 1)[0]


# A line for the user: (text, style), the style a key of STYLES.
Line = tuple[str, str]

VERSION_LINE = "%gwy 1"
DEFAULT_SEATS = "North East South West"

# i18n: live's help; keep each example entry as it is (the notation and the English words a player may
# type); the second column may be reworded, keeping its lines short
HELP = N_("""\
type what happened, one entry a line (of at most {max_chars} characters):
  West A♠   west as   W AS   West plays 10♥   th   T♥
                             a play (a seat's name or its unique beginning; any spelling
                             of a card; the trick number is added)
  K♠                         the card alone, when only one seat can have played it
  East K♠, South 5♠; West 2♠ several plays on one line (commas, spaces or ;)
  3. East 3♥, South 7♥       a trick line, as in the notation
  North takes East           a take, between tricks
  West draws 7♦              a draw from the waste pile ('from North': from a hand)
  counts North 12, East 9    hand sizes, for the referee to verify
  # text   or   comment text a comment in the record
an entry that could mean two things is asked about, never guessed: answer with the seat.
questions: why (the last trick, in one sentence), more (the detail behind it), who leads,
hands, legal; hint (what the pimc bot would play for the seat to act, and each of its choices'
chance of losing from what that seat knows); review (the game review's verdict on the last
play and each seat's chance of losing); both take seconds, and only when asked
commands: show (the state), undo (remove the last entry: a wrong entry, not a table
mistake), new (the next game, once this one is over), help, quit (or Ctrl-D); Ctrl-C
cancels the line being typed; Tab completes seats, commands and the cards legal now""")


def help_text() -> str:
    """live's help, in the language of the session."""
    return _(HELP).format(max_chars=f"{MAX_ENTRY_CHARS:,}")


class LiveOptions(TypedDict, total=False):
    """The options live was started with, for the next game ('new'); None: not given."""

    seats: list[str] | None
    rules: str | None
    deal: str | None


class LiveError(Exception):
    """A usage problem: exit 2."""


# ---- the record, as lines --------------------------------------------------------------------


@dataclass
class Unit:
    """One line of the game after its deal: a trick line (whose plays can be extended and
    undone one by one) or any other line, kept as written."""

    kind: str  # "trick" or "line"
    text: str | None = None  # the line as written; None: rendered from the fields
    number: int = 0
    plays: list[tuple[int, int]] = field(default_factory=list)  # (seat, card)
    comment: str | None = None
    history: list[tuple[str | None, int, str | None]] = field(default_factory=list)  # texts before plays were appended to a written line
    # The line as last rendered, for those seats: the whole record is written after every
    # entry, and a unit does not change once made (an entry makes new units).
    shown: tuple[Sequence[str], str] | None = field(default=None, compare=False, repr=False)

    def render(self, seats: Sequence[str]) -> str:
        if self.text is not None:
            return self.text
        if self.shown is not None and self.shown[0] == seats:
            return self.shown[1]
        plays = ", ".join(f"{seats[s]} {C.card_str(c)}" for s, c in self.plays)
        text = f"{self.number}. {plays}" + (f"  # {self.comment}" if self.comment else "")
        self.shown = (seats, text)
        return text


def _split_comment(line: str) -> tuple[str, str | None]:
    i = line.find("#")
    if i < 0:
        return line.strip(), None
    return line[:i].strip(), line[i + 1:].strip() or None


_NUMBERED = re.compile(r"^\s*\d+\.(?=\s)")
_RESULT = re.compile(r'^\s*\[\s*Result\s+"')
_SETUP = re.compile(r"^\s*(deal|position)\s*(#.*)?$")
_WORDS = {"takes", "draws", "from", "out", "rest"}
# Lines that are the notation's own words and go to its reader as typed.
_NOTATION_WORDS = {"counts", "deal", "position", "waste", "lead", "trick", "trumps", "out"}


def _is_bare_play(body: str) -> bool:
    """``West A♠`` or ``West A♠, North J♠``: seats and cards without a trick number."""
    if not body or _NUMBERED.match(body) or body.split()[0].lower() in ("counts", "deal", "position", "waste",
                                                                         "lead", "trick"):
        return False
    for part in body.split(","):
        words = part.split()
        if len(words) != 2 or words[1].lower() in _WORDS or words[1].isdigit() or words[0][0].isdigit():
            return False
    return True


# ---- files -------------------------------------------------------------------------------------


def atomic_write(path: Path, text: str, mode: int | None = None, expect: Snapshot | None = None) -> Snapshot:
    """Replace the record through referee.files, the one careful writer: a symlink or a hard
    link is kept, and so are the file's mode, owner and group (``mode`` is the file's own);
    a failure is a one-line OSError and the file as it was; a file that is no longer what
    ``expect`` saw is not written (``Changed``). Returns what the file is now."""
    return write_text(path, text, expect=expect)


def fresh_name(directory: Path) -> Path:
    """A new file name that nothing else uses: created empty (O_EXCL) to hold it."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for k in range(1, 1000):
        name = directory / (f"live-{stamp}.gwy" if k == 1 else f"live-{stamp}-{k}.gwy")
        try:
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        except OSError as ex:
            raise LiveError(_("cannot make a new record in {dir}: {why} (name a FILE elsewhere)").format(
                dir=safe_path(directory.resolve()), why=(ex.strerror or str(ex)).lower())) from None
        os.close(fd)
        return name
    raise LiveError(_("cannot find a free file name in {dir}").format(dir=directory))


# ---- a new game's text -----------------------------------------------------------------------------


def deal_lines(spec: str | None, seats: list[str], rules: RuleSet) -> list[str]:
    """The deal of a new game: ``even`` (the default), sizes ``"13 13 13 13"``, or hands
    ``"AKQ.T92..J43; 13; ..."`` (one part a seat, in seat order: cards, a hand written suit
    by suit, or a size)."""
    n = len(seats)
    pack = rules.pack_size
    if spec is None or spec.strip().lower() in ("", "even"):
        base, extra = divmod(pack, n)
        return [f"{s} {base + (1 if i < extra else 0)}" for i, s in enumerate(seats)]
    if ";" in spec or "|" in spec:
        parts = [p.strip() for p in re.split(r"[;|]", spec)]
    else:
        parts = spec.replace(",", " ").split()
        if not all(p.isdigit() for p in parts):
            parts = [spec.strip()]
    if len(parts) != n:
        raise LiveError(ngettext("--deal: {n} hand for {seats} seats (give sizes '13 13 13 13', or hands separated "
                                 "by ';')", "--deal: {n} hands for {seats} seats (give sizes '13 13 13 13', or hands "
                                 "separated by ';')", len(parts)).format(n=len(parts), seats=n))
    return [f"{s} {p}" for s, p in zip(seats, parts)]


def new_game_text(seats: list[str], rules_spec: str, deal: list[str], event: str | None = None) -> list[str]:
    lines = ["%game"]
    if event:
        lines.append(f'[Event "{event}"]')
    lines.append(f'[Date "{time.strftime("%Y.%m.%d")}"]')
    lines.append(f'[Seats "{" ".join(seats)}"]')
    lines.append(f'[Rules "{rules_spec}"]')
    lines.append("deal")
    lines.extend(deal)
    return lines


# ---- the session ---------------------------------------------------------------------------------


def _diag_key(d: Diagnostic) -> tuple[str, str, int | None]:
    return (d.code, d.message, d.trick)


def _text(head: list[str], units: list[Unit], seats: Sequence[str]) -> str:
    """The text of the game: its head (the header and the deal), then its lines."""
    return "\n".join(head + [u.render(seats) for u in units]) + "\n"


def _read(path: Path, prefix: str, number: int, text: str) -> Game:
    """Read game ``number``, whose text follows ``prefix`` in the file (so that every line
    and offset is the file's)."""
    return Reader(str(path)).parse_game(text, number, prefix.count("\n") + 1, len(prefix))


def _judge(game: Game, default: RuleSet | None) -> GameResult:
    res = Referee(default, keep_engine=True).judge(game)
    res.diagnostics = [d for d in res.diagnostics if d.code != Code.RESULT_CONTRADICTS]  # live keeps the result tag
    return res


class Session:
    """One game followed live, and the file it is written to."""

    def __init__(self, path: Path, prefix: str, head: list[str], units: list[Unit], number: int,
                 game: Game, res: GameResult, engine: E.Engine, rules: RuleSet, *,
                 default: RuleSet | None = None, mode: int | None = None) -> None:
        """A session on a game already read and replayed (see :meth:`start`, :meth:`resume`):
        ``engine`` is the state at the end of ``game`` and ``rules`` the rule set it was judged
        by (``res.engine`` and ``res.rules``)."""
        self.path = path
        self.prefix = prefix
        self.head = head
        self.units = units
        self.number = number
        self.default = default
        self.mode = mode
        self.game = game
        self.res = res
        self.engine = engine
        self.rules = rules
        self.options: LiveOptions = {}
        self.pending: Pending | None = None  # a question asked about the last entry
        self.rejected = 0  # entries not recorded (rejected, or asked about and not answered)
        self._answered = False
        self.written = False  # the file has been written by this session
        self.snap: Snapshot | None = None  # the file as last read or written (None: not checked)
        self.unwritten = 0  # entries answered but not written (the file could not be written)
        self.told_accepted = False  # the entries accepted have been listed (once a session, issue 38)

    # ---- text --------------------------------------------------------------------------

    def game_text(self, units: list[Unit] | None = None, head: list[str] | None = None) -> str:
        return _text(self.head if head is None else head, self.units if units is None else units, self.seats())

    def file_text(self) -> str:
        return self.prefix + self.game_text()

    def seats(self) -> tuple[str, ...]:
        return self.game.seats

    def read(self, units: list[Unit] | None = None, head: list[str] | None = None) -> Game:
        return _read(self.path, self.prefix, self.number, self.game_text(units, head))

    def judge(self, game: Game) -> GameResult:
        return _judge(game, self.default)

    def save(self) -> None:
        self.snap = atomic_write(self.path, self.file_text(), self.mode, expect=self.snap)
        self.written = True

    def follow_file(self) -> tuple[list[Line], bool]:
        """If the file changed on disk since live last read or wrote it (an editor's save,
        an appended line), live takes the file as it is now and continues its last game:
        (lines to say, whether to go on). A file that can no longer be continued stops live
        with the file left as it is."""
        if self.snap is None or not changed(self.path, self.snap):
            return [], True
        shown = safe_path(self.path)
        try:
            raw, snap = read_snapshot(self.path)
            text = raw.decode("utf-8")
            if text.startswith("\ufeff"):
                text = text[1:]
            nxt = Session.resume(self.path, text, default=self.default, mode=self.mode)
            if nxt is None:
                raise LiveError(_("it has no game any more"))
        except FileNotFoundError:
            why = _("it was removed")
        except UnicodeDecodeError:
            why = _("it is not UTF-8 text any more")
        except (LiveError, ReadError) as ex:
            why = str(ex)
        except OSError as ex:
            why = (ex.strerror or str(ex)).lower()
        else:
            self.prefix, self.head, self.units, self.number = nxt.prefix, nxt.head, nxt.units, nxt.number
            self.game, self.res, self.engine, self.rules = nxt.game, nxt.res, nxt.engine, nxt.rules
            self.snap, self.pending = snap, None
            plays = sum(len(u.plays) for u in self.units)
            return [(ngettext("note: {file} changed on disk (another program wrote it): live continues from the file "
                              "as it is now, game {game}, {n} play recorded",
                              "note: {file} changed on disk (another program wrote it): live continues from the file "
                              "as it is now, game {game}, {n} plays recorded", plays).format(
                                  file=shown, game=self.number, n=plays), "warning")], True
        self.unwritten += 1
        return [(_("stopped: {file} changed on disk and cannot be continued ({why}); live writes nothing more and "
                   "leaves the file as it is").format(file=shown, why=why), "error")], False

    # ---- starting ------------------------------------------------------------------------

    @classmethod
    def start(cls, path: Path, text: str | None, seats: list[str], rules_spec: str, deal: str | None,
              default: RuleSet | None = None, mode: int | None = None) -> Session:
        """A new game at the end of ``text`` (None: a new file)."""
        try:
            rules = parse_spec(rules_spec)
        except RulesError as e:
            raise LiveError(f"--rules: {e.message}") from None
        if text is None or not text.strip():
            prefix, number = VERSION_LINE + "\n\n", 1
        else:
            prefix = text if text.endswith("\n") else text + "\n"
            prefix += "\n"
            number = len(parse(text)) + 1
        head = new_game_text(seats, rules.spec(), deal_lines(deal, seats, rules), event=None)
        game = _read(path, prefix, number, _text(head, [], ()))
        if game.errors:
            raise LiveError(_("the new game cannot be written: {why}").format(why="; ".join(d.message for d in game.errors)))
        # Written as fmt writes it (a hand given suit by suit as its cards), so that a club's
        # `fmt --check` hook never rewrites what live and serve wrote.
        head = format_game(game).rstrip("\n").split("\n")
        game = _read(path, prefix, number, _text(head, [], ()))
        res = _judge(game, default)
        errors = [d for d in res.diagnostics if d.is_error]
        engine, judged_by = res.engine, res.rules
        if errors or engine is None or judged_by is None:
            raise LiveError(_("the deal cannot be true: {why}").format(why="; ".join(d.message for d in errors)
                                                                      + (f" ({res.stopped})" if res.stopped else "")))
        return cls(path, prefix, head, [], number, game, res, engine, judged_by, default=default, mode=mode)

    @classmethod
    def resume(cls, path: Path, text: str, default: RuleSet | None = None,
               mode: int | None = None) -> Session | None:
        """Continue the last game of a record."""
        last = None
        reader = Reader(str(path))
        for number, chunk, first_line, offset in chunks(io.BytesIO(text.encode("utf-8")), str(path)):
            if number == 0:
                reader.read_prelude(chunk, offset)
            else:
                last = (number, chunk, first_line, offset)
        if reader.prelude.errors:
            raise LiveError(not_a_record(path, reader.prelude.errors[0].message))
        if last is None:
            return None  # a record with no game yet: start one
        number, chunk, first_line, offset = last
        game = reader.parse_game(chunk, number, first_line, offset)
        if game.errors:
            d = game.errors[0]
            raise LiveError(ngettext(
                "{file}: game {number} has {n} syntax error, at line {line}: {why} (see getaway-ref check {file})",
                "{file}: game {number} has {n} syntax errors, the first at line {line}: {why} (see getaway-ref "
                "check {file})", len(game.errors)).format(file=path, number=number, n=len(game.errors),
                                                          line=d.span.line if d.span else "?", why=d.message))
        if game.setup is None:
            raise LiveError(_("{file}: game {number} has no deal or position").format(file=path, number=number))
        lines = chunk.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        while lines and not lines[-1].strip():
            lines.pop()
        # The head is the header and the deal (or position) up to its last hand; what
        # follows (comments included) can be undone line by line.
        setup_lines = [it.span.line for it in game.setup.items if not isinstance(it, Comment) and it.span.line]
        opening = next((i for i, line in enumerate(lines) if _SETUP.match(line)), None)
        if setup_lines:
            cut = max(setup_lines) - first_line + 1
        elif opening is not None:
            cut = opening + 1
        else:
            cut = len(lines)
        head, rest = lines[:cut], lines[cut:]
        tricks = {a.span.line: a for a in game.actions if isinstance(a, Trick)}
        units = []
        for i, line in enumerate(rest):
            t = tricks.get(first_line + cut + i)
            if t is not None:
                units.append(Unit("trick", text=line, number=t.number, plays=[(p.seat, p.card) for p in t.plays],
                                  comment=t.comment))
            else:
                units.append(Unit("line", text=line))
        prefix = text[:offset]
        g2 = _read(path, prefix, number, _text(head, units, game.seats))
        if g2.errors:
            raise LiveError(_("{file}: game {game} cannot be continued: {why}").format(
                file=path, game=number, why=g2.errors[0].message))
        res = _judge(g2, default)
        engine, judged_by = res.engine, res.rules
        if engine is None or judged_by is None or res.stopped:
            raise LiveError(_("{file}: game {game} cannot be replayed to its end ({why}); see getaway-ref check {file}")
                            .format(file=path, game=number, why=res.stopped))
        return cls(path, prefix, head, units, number, g2, res, engine, judged_by, default=default, mode=mode)

    # ---- answering ------------------------------------------------------------------------------

    def state(self) -> LegalModel:
        return legal_model(self.game, self.res)

    def turn_line(self) -> str:
        return _("turn: {summary}").format(summary=self.state().summary)

    def handle(self, line: str) -> tuple[list[tuple[str, str]], bool]:
        """Answer one line: (lines to print with a style, whether to go on). An entry that
        is not recorded (rejected, or asked about) counts in ``self.rejected``."""
        self._answered = False
        if not line.strip():
            return [], True
        news, go_on = self.follow_file()  # someone else's change is taken in, never written over
        if not go_on:
            return news, False
        out, go_on = self._handle(line)
        if any(kind_of(text) in ("rejected", "question") for text, _style in out):
            self.rejected += 1
        if self._answered and any(kind_of(text) == "recorded" for text, _style in out):
            self.rejected -= 1  # the question before was answered: that entry is recorded after all
        return news + out, go_on

    def _handle(self, line: str) -> tuple[list[tuple[str, str]], bool]:
        raw = line.rstrip("\r\n")
        text = raw.strip()
        if not text:
            return [], True
        pending, self.pending = self.pending, None
        words = text.split()
        word = words[0].lower()
        phrase = " ".join(w.lower() for w in words)
        if phrase in ("quit", "exit", "q", "bye"):
            return [], False
        if phrase in ("help", "?", "h"):
            self.told_accepted = True
            return [(help_text(), "")], True
        if phrase == "show":
            return [("@show", "")], True
        if phrase == "legal":  # the answer in one sentence, then the details
            return [(answers.live_answer("legal", self.game, self.res), "answer"), ("@legal", "")], True
        if phrase in ("turn", "whose", "whose turn"):
            return [(self.turn_line(), "turn")], True
        if phrase in ("hint", "hint?"):
            # Off unless asked: the seat's choices are weighed on sampled deals (issue 41).
            return [(hint_at(self.game, self.res.rules).sentence, "answer")], True
        if phrase in ("review", "review?"):
            # Off unless asked: the game so far is reviewed, which takes seconds (issue 28).
            return [(review_hint(self.game, self.res.rules), "answer")], True
        if phrase in ("who leads", "who leads?", "who leads now", "why", "why?", "more", "hands", "who"):
            return [(answers.live_answer(phrase.rstrip("?"), self.game, self.res), "answer")], True
        if phrase == "undo":
            return self.undo(), True
        if phrase == "new":
            return self.new_game(), True
        if word == "comment":
            return self.add_comment(text[len("comment"):].strip()), True
        if text.startswith("#"):
            return self.add_comment(text[1:].strip()), True
        body, comment = _split_comment(text)
        if pending is not None:
            lines = pending.answer(body, self.seats())
            if lines is not None:
                self._answered = True
                return self.record_lines(lines, comment), True
        if _NUMBERED.match(body) or word in _NOTATION_WORDS or body[:1] in ("[", "%"):
            return self.act(text), True  # the notation's own line, read as written
        reading = read_entry(body, self.seats(), self.engine)
        if isinstance(reading, Rejection):
            return self.rejection(reading), True
        if isinstance(reading, Question):
            self.pending = Pending(reading)
            return [(said("question", text=reading.text), "warning")], True
        return self.record_lines(list(reading.lines), comment), True

    def rejection(self, reading: Rejection, left: str = "") -> list[Line]:
        """An entry refused: why, in one line; then what would be accepted. The list of every
        kind of entry is said once a session (help says it again); a hint for this entry alone
        every time."""
        out = [(said("rejected", why=f"{reading.why}{left}"), "error")]
        if reading.accepted != ACCEPTED:
            out.append(("  " + _("accepted: {entries}").format(entries=reading.accepted), "help"))
        elif not self.told_accepted:
            self.told_accepted = True
            out.append(("  " + _("accepted: {entries}; 'help' lists them again").format(entries=reading.accepted),
                        "help"))
        return out

    def record_lines(self, lines: list[str], comment: str | None) -> list[Line]:
        """Record the lines of one entry in turn; a card typed alone gets its seat from the
        state after the plays before it. The first line that is not recorded stops the rest."""
        out: list[Line] = []
        for i, line in enumerate(lines):
            reading = settle(line, self.seats(), self.engine)
            rest = lines[i + 1:]
            left = _(" (nor the rest of the entry: {entries})").format(
                entries=", ".join(x.replace("? ", "") for x in rest)) if rest else ""
            if isinstance(reading, Rejection):
                return out + self.rejection(reading, left) + [(self.turn_line(), "turn")]
            if isinstance(reading, Question):
                self.pending = Pending(reading, rest)
                out += [(said("question", text=reading.text), "warning")]
                return out
            typed = reading.lines[0] + (f"  # {comment}" if comment and not rest else "")
            got = self.act(typed)
            if got and kind_of(got[0][0]) == "rejected" and rest:
                note = ("  " + _("not recorded either: the rest of the entry ({entries})").format(
                    entries=", ".join(x.replace("? ", "") for x in rest)), "note")
                turn = [x for x in got if x[1] == "turn"]
                return out + [x for x in got if x[1] != "turn"] + [note] + turn
            out += got
        return out

    def add_comment(self, body: str) -> list[Line]:
        units = self.units + [Unit("line", text=f"# {body}" if body else "#")]
        game = self.read(units)
        if game.errors:
            return [(said("rejected", why=game.errors[0].message), "error")]
        failed = self._commit(units, game, self.res)
        return [failed] if failed else [(said("noted"), "ok")]

    def trick_for(self, seat: int) -> int:
        """The record's number for a play typed without one."""
        v = self.engine.view()
        nums = [a.number for a in self.game.actions if isinstance(a, Trick)]
        last = nums[-1] if nums else None
        if last is None:
            return v.trick_no
        if v.phase is E.Phase.IN_TRICK:
            return last
        if seat >= 0 and self._just_ended_by_tochoo() and seat != v.leader and \
                all(t != seat for t, _ in v.last_trick) and seat not in v.out_order:
            # A play right after a tochoo by a seat that had not played: a play to that
            # trick (M202), not a lead of the next. Type the next number to lead instead.
            return last
        return last + 1

    def _just_ended_by_tochoo(self) -> bool:
        e = self.engine
        for ev in reversed(e.events):
            if isinstance(ev, (EV.Leads, EV.GotAway, EV.GameOver)):
                continue
            return isinstance(ev, EV.PickedUp)
        return False

    def _seat_index(self, name: str) -> int:
        low = name.lower()
        for i, s in enumerate(self.seats()):
            if s.lower() == low:
                return i
        return -1

    def act(self, text: str) -> list[Line]:
        body, comment = _split_comment(text)
        note = None
        if _is_bare_play(body):
            first_seat = self._seat_index(body.split(",")[0].split()[0])
            number = self.trick_for(first_seat)
            if self.engine.turn().phase is not E.Phase.IN_TRICK and self.game.actions and number == self._last_trick():
                note = _("read as a play to trick {trick} after its tochoo; type '{entry}' for a lead of trick {next}").format(
                    trick=number, entry=f"{number + 1}. {body}", next=number + 1)
            body = f"{number}. {body}"
        typed = body + (f"  # {comment}" if comment else "")
        stepped = self._one_step(typed, note)
        if stepped is not None:
            return stepped
        # Read the line in its place: the reader finds every syntax error.
        game = self.read(self.units + [Unit("line", text=typed)])
        if game.errors:  # the game had none before: the line is not written in the notation
            d = game.errors[0]
            return [(said("rejected", why=d.message + (f" — {d.help}" if d.help else "")), "error")]
        actions = [a for a in game.actions if not isinstance(a, Comment)]
        action = actions[-1] if actions else None
        units = self._units_with(action, typed)
        game = self.read(units)
        if game.errors:
            return [(said("rejected", why=game.errors[0].message), "error")]
        res = self.judge(game)
        before = {_diag_key(d): d for d in self.res.diagnostics}
        after = {_diag_key(d): d for d in res.diagnostics}
        new = [d for k, d in after.items() if k not in before]
        bad = [d for d in new if d.is_error and d.code[0] in "SR"]
        if bad or (res.stopped and not self.res.stopped):
            d = bad[0] if bad else None
            msg = d.message if d else res.stopped
            out = [(said("rejected", why=f"{msg}" + (f" [{d.code}]" if d else "")), "error")]
            if d and d.help and d.code != Code.COUNT_CONTRADICTS:
                out.append(("  " + _("help: {help}").format(help=d.help), "help"))
            if d and d.code == Code.COUNT_CONTRADICTS:
                out.extend((f"  {n}", "note") for n in d.notes[1:])
            out.append((self.turn_line(), "turn"))
            return out
        old_events = self.engine.events
        failed = self._commit(units, game, res)
        if failed:
            return [failed, (self.turn_line(), "turn")]
        what = _describe_action(action, game.seats)
        events = _new_events(old_events, self.engine.events)
        mistakes = [d for d in new if d.code.startswith("M")]
        follow = _describe_events(events, self.engine, game.seats, skip_penalty=bool(mistakes))
        out = [(said("recorded", what=what) + (f" — {follow}" if follow else ""), "ok")]
        if note:
            out.append(("  " + _("note: {note}").format(note=note), "note"))
        for d in new:
            if d in bad:
                continue
            out.extend(diagnostic_lines(d, compact=True))
        for k, d in after.items():
            if k in before:
                extra = [n for n in d.notes if n not in before[k].notes]
                for n in extra:
                    out.append((f"  {d.code} (trick {d.trick}): {n}", "note"))
        for k, d in before.items():
            if k not in after and not d.code.startswith(Code.RESULT_CONTRADICTS):
                out.append((said("withdrawn", code=d.code, message=d.message), "note"))
        out.append((self.turn_line(), "turn"))
        return out

    def _units_with(self, action: Action | None, typed: str) -> list[Unit]:
        """The record's lines with an entry's action: the plays of a trick line join the last
        line when it is the same trick's (and has no comment), else the action is a new line."""
        units = list(self.units)
        seats = self.seats()
        if isinstance(action, Trick):
            last = units[-1] if units else None
            if last is not None and last.kind == "trick" and last.number == action.number and not last.comment:
                merged = Unit("trick", text=None, number=last.number, plays=last.plays + [(p.seat, p.card) for p in action.plays],
                              comment=action.comment, history=last.history + [(last.text, len(last.plays), last.comment)])
                if last.text is not None:
                    merged.text = last.text.rstrip() + ", " + ", ".join(
                        f"{seats[p.seat]} {C.card_str(p.card)}" for p in action.plays) + (
                        f"  # {action.comment}" if action.comment else "")
                units[-1] = merged
            else:
                units.append(Unit("trick", number=action.number, plays=[(p.seat, p.card) for p in action.plays],
                                  comment=action.comment))
        else:
            units.append(Unit("line", text=_canonical(action, seats, typed)))
        return units

    def _read_last(self, units: list[Unit]) -> Game:
        """The game's head and the last of ``units`` alone, read where that line stands in
        the file (its line number and offset), so that its items have the spans a read of
        the whole game gives them: one line read, not the game again."""
        seats = self.seats()
        line = units[-1].render(seats)
        before = _text(self.head, units[:-1], seats)  # the game's text up to that line
        at_line = self.prefix.count("\n") + 1 + len(self.head) + len(units) - 1
        at = len(self.prefix) + len(before)
        head = "\n".join(self.head) + "\n"
        return Reader(str(self.path)).parse_game(head + line + "\n", self.number, at_line - len(self.head),
                                                 at - len(head))

    def _one_step(self, typed: str, note: str | None) -> list[Line] | None:
        """Record a play by one step of the replay: the line read alone and the play applied
        to the replay's state (the engine's ``apply``), when that is all the referee would do
        with it. None: the entry is not such a play, and the game is read and judged again.

        The referee judges a play with nothing more than the engine when the play is legal,
        to the trick on the table (or a lead of the next), by a seat whose card is known or
        that follows suit (or leads) from unseen cards it was not shown to lack: it reports
        nothing and decides nothing about what came before. Everything else is judged
        with the whole game: a table mistake and everything after one (ruling 1: whether
        the table applied the penalty is read from the rest of the record, so a later entry
        can change it), an off-suit card from unseen cards (it shows a void, or a renege the
        next lead may prove), a higher card by choice in the two-player ending (ruling 8's
        note), a take, a draw, a count, the end."""
        res, e = self.res, self.engine
        if res.stopped is not None or any(d.is_error or d.code.startswith("M") for d in res.diagnostics):
            return None
        v = e.view()
        last_no = self._last_trick()
        if last_no is None or v.as_played:
            return None
        if v.phase is E.Phase.IN_TRICK:
            number = last_no
        elif v.phase is E.Phase.BETWEEN:
            number = last_no + 1
        else:
            return None
        alone = self._read_last(self.units + [Unit("line", text=typed)])
        action = alone.actions[-1] if alone.actions else None
        # Read alone, the line is the game's first trick line, and the reader expects trick
        # 1 there: its number is checked here instead, by the reader's rule (the trick on
        # the table, or the next).
        problems = [d for d in alone.errors + alone.findings if d.code != Code.TRICK_NUMBER_OUT_OF_ORDER]
        if problems or not isinstance(action, Trick) or action.number != number or len(action.plays) != 1:
            return None
        s, c = action.plays[0].seat, action.plays[0].card
        if e.lower_card_instead(s, c) >= 0:
            return None  # ruling 8: the referee notes the lower card that would have kept the game going
        if v.sizes[s] > len(v.known[s]):  # the seat holds unseen cards
            proves = c not in v.known[s] and C.SUIT[c] in v.voids[s]  # a renege, of a void shown before
            shows = bool(e.shows_void(s, c))  # a void (or a renege the next lead shows): the engine's duty
            if proves or shows:
                return None
        after = e.copy()
        try:
            events = after.apply(EV.PlayCard(s, c))
        except E.IllegalAction:
            return None  # judged with the whole game: the referee says what is wrong
        now = after.view()
        if now.phase is E.Phase.OVER:
            return None
        units = self._units_with(action, typed)
        line = self._read_last(units).actions[-1]
        g = self.game
        merged = units[-1].kind == "trick" and len(units[-1].plays) > 1
        if merged and not (g.actions and isinstance(g.actions[-1], Trick) and g.actions[-1].number == number):
            return None
        game = replace(g, actions=(g.actions[:-1] if merged else g.actions) + [line], text=self.game_text(units))
        # The referee's findings stand as they were; its facts are those of the new state.
        judged = replace(res, game=game, diagnostics=list(res.diagnostics), engine=after,
                         tricks=now.trick_no - (0 if now.phase is E.Phase.IN_TRICK else 1),
                         out_order=list(now.out_order), sizes=list(now.sizes))
        failed = self._commit(units, game, judged)
        if failed:
            return [failed, (self.turn_line(), "turn")]
        follow = _describe_events(events, after, game.seats)
        out = [(said("recorded", what=_describe_action(action, game.seats)) + (f" — {follow}" if follow else ""), "ok")]
        if note:
            out.append(("  " + _("note: {note}").format(note=note), "note"))
        return out + [(self.turn_line(), "turn")]

    def _commit(self, units: list[Unit], game: Game, res: GameResult) -> Line | None:
        """Make the new record the session's and write it; if it cannot be written, keep
        the old one (in memory and on disk) and say so."""
        engine, rules = res.engine, res.rules
        if engine is None or rules is None:  # the deal replayed before; nothing recorded since stops it
            return (_("not recorded: the game cannot be replayed: {why}").format(why=res.stopped), "error")
        saved = (self.units, list(self.head), self.game, self.res, self.engine, self.rules)
        self.units, self.game, self.res, self.engine, self.rules = units, game, res, engine, rules
        self._sync_result()
        try:
            self.save()
        except OSError as ex:
            self.units, self.head, self.game, self.res, self.engine, self.rules = saved
            self.unwritten += 1
            return (_not_written(self.path, ex), "error")
        return None

    def _last_trick(self) -> int | None:
        nums = [a.number for a in self.game.actions if isinstance(a, Trick)]
        return nums[-1] if nums else None

    def peek_undo(self) -> str:
        """What undo would remove now."""
        last = self.units[-1]
        if last.kind == "trick" and len(last.plays) > 1:
            s, c = last.plays[-1]
            return f"{last.number}. {self.seats()[s]} {C.card_str(c)}"
        return last.render(self.seats()).strip() or _("a blank line")

    def undo(self) -> list[Line]:
        if not self.units:
            return [(_("nothing to undo"), "note"), (self.turn_line(), "turn")]
        units = list(self.units)
        last = units[-1]
        seats = self.seats()
        if last.kind == "trick" and len(last.plays) > 1:
            s, c = last.plays[-1]
            removed = f"{last.number}. {seats[s]} {C.card_str(c)}"
            if last.history and last.history[-1][1] == len(last.plays) - 1:
                text, _at, comment = last.history[-1]
                units[-1] = Unit("trick", text=text, number=last.number, plays=last.plays[:-1],
                                 comment=comment, history=last.history[:-1])
            else:
                units[-1] = Unit("trick", text=None, number=last.number, plays=last.plays[:-1],
                                 comment=last.comment, history=[h for h in last.history if h[1] < len(last.plays) - 1])
        else:
            units.pop()
            removed = last.render(seats).strip() or _("a blank line")
        game = self.read(units)
        if game.errors:
            return [(_("cannot undo: {why}").format(why=game.errors[0].message), "error")]
        res = self.judge(game)
        before = {_diag_key(d): d for d in self.res.diagnostics}
        after = {_diag_key(d): d for d in res.diagnostics}
        failed = self._commit(units, game, res)
        if failed:
            return [failed, (self.turn_line(), "turn")]
        out = [(said("removed", what=removed), "ok")]
        for k, d in before.items():
            if k not in after:
                out.append((said("withdrawn", code=d.code, message=d.message), "note"))
        out.append((self.turn_line(), "turn"))
        return out

    def new_game(self) -> list[Line]:
        if self.engine.turn().phase is not E.Phase.OVER:
            return [(_("game {n} is not over: finish it (or quit) before a new one").format(n=self.number), "error"),
                    (self.turn_line(), "turn")]
        seats = list(self.game.seats)
        rules = self.rules.spec()
        deal = self.options.get("deal")
        if deal is not None and not (deal.strip().lower() == "even" or (deal.replace(",", " ").split()
                                     and all(w.isdigit() for w in deal.replace(",", " ").split()))):
            deal = None  # the hands dealt for one game are not the next game's
        if deal is None and isinstance(self.game.setup, Deal) and all(h.cards is None for h in self.game.setup.hands):
            sizes = {h.seat: h.size for h in self.game.setup.hands}
            deal = " ".join(str(sizes.get(i, 0)) for i in range(len(seats)))
        chosen_seats = self.options.get("seats")
        if chosen_seats:
            seats = chosen_seats
        chosen_rules = self.options.get("rules")
        if chosen_rules:
            rules = chosen_rules
        try:
            nxt = Session.start(self.path, self.file_text(), seats, rules, deal, self.default, self.mode)
        except LiveError as ex:
            return [(_("cannot start a new game: {why}").format(why=ex), "error")]
        nxt.snap = self.snap
        try:
            nxt.save()
        except OSError as ex:
            self.unwritten += 1
            return [(_not_written(self.path, ex, new_game=True), "error")]
        self.snap = nxt.snap
        self.prefix, self.head, self.units, self.number = nxt.prefix, nxt.head, nxt.units, nxt.number
        self.game, self.res, self.engine, self.rules = nxt.game, nxt.res, nxt.engine, nxt.rules
        return [(_("game {game}: {seats}, rules {rules}").format(game=self.number, seats=" ".join(seats), rules=rules),
                 "ok"), (self.turn_line(), "turn")]

    # ---- the result tag ---------------------------------------------------------------------------

    def _sync_result(self) -> None:
        """Keep the [Result] tag true to the game: the loser once it is over (and Donkey's
        legs), none while it goes on."""
        v = self.engine.view()
        want = None
        if v.loser is not None:
            want = self.game.seats[v.loser] + (f" {v.legs}" if self.rules.donkey else "")
        setup = next((i for i, line in enumerate(self.head) if _SETUP.match(line)), len(self.head))
        idx = next((i for i, line in enumerate(self.head[:setup]) if _RESULT.match(line)), None)
        head = list(self.head)
        if want is not None:
            line = f'[Result "{want}"]'
            if idx is None:
                self.head.insert(setup, line)
            elif self.head[idx].strip() != line:
                self.head[idx] = line
        elif idx is not None:
            tag = self.game.tag("Result")
            if tag is not None and tag.strip() != "*":
                del self.head[idx]
        if self.head != head:  # the game as the file now has it (else it is read already)
            self.game = self.read()


def _not_written(path: Path, ex: OSError, *, new_game: bool = False) -> str:
    """Why an entry (or a new game) was not written, in one line that says 'cannot write' once."""
    shown = safe_path(path)
    if isinstance(ex, Changed):
        said = (_("cannot start a new game: {file} changed on disk since live wrote it (another program wrote it); "
                  "that change is kept: type the entry again") if new_game else
                _("not recorded: {file} changed on disk since live wrote it (another program wrote it); that change "
                  "is kept: type the entry again"))
        return said.format(file=shown)
    reason = ex.why if isinstance(ex, WriteError) else (ex.strerror or str(ex))
    said = _("cannot start a new game: cannot write {file}: {why}") if new_game else \
        _("not recorded: cannot write {file}: {why}")
    return said.format(file=shown, why=reason)


def _canonical(action: Action | None, seats: Sequence[str], typed: str) -> str:
    if isinstance(action, Take):
        s = f"{seats[action.taker]} takes {seats[action.target]}"
    elif isinstance(action, Draw):
        s = f"{seats[action.seat]} draws {C.card_str(action.card)}" + (
            f" from {seats[action.source]}" if action.source is not None else "")
    elif isinstance(action, Counts):
        s = "counts " + ", ".join(f"{seats[t]} {n}" for t, n in action.sizes)
    else:
        return typed
    return s + (f"  # {action.comment}" if action.comment else "")


def _describe_action(action: Action | None, seats: Sequence[str]) -> str:
    if isinstance(action, Trick):
        return f"{action.number}. " + ", ".join(f"{seats[p.seat]} {C.card_str(p.card)}" for p in action.plays)
    return _canonical(action, seats, "").split("  #")[0]


def _new_events(old: list[Event], new: list[Event]) -> list[Event]:
    k = 0
    while k < len(old) and k < len(new) and old[k] == new[k]:
        k += 1
    return new[k:]


def _describe_events(events: list[Event], e: E.Engine, seats: Sequence[str], skip_penalty: bool = False) -> str:
    """What followed an action, in words: 'the trick ends; North, with the highest heart
    (6♥), picks up 3 cards and leads trick 5', told by the one narrator of events
    (judging/wording.py's narrate); with ``skip_penalty`` the penalty is left to the
    mistake's own diagnostic."""
    v = e.view()
    # A take sends its target out before the take is logged: say the take first.
    takes: list[Event] = [ev for ev in events if isinstance(ev, EV.Took)]
    events = takes + [ev for ev in events if not isinstance(ev, (EV.Took, EV.Played))]
    if skip_penalty:  # the mistake's own diagnostic tells the penalty
        events = [ev for ev in events if not isinstance(ev, EV.Penalty)
                  and not (isinstance(ev, EV.Leads) and ev.why is EV.LeadReason.PENALTY)]
    return W.narrate(events, seats, trick_no=v.trick_no, out_order=v.out_order, donkey=e.rules.donkey,
                     high=lambda w: answers.highest_clause(v.last_trick, w, v.trumps))


# ---- the loop --------------------------------------------------------------------------------------


STYLES = {"answer": "bold cyan", "ok": "green", "error": "bold red", "mistake": "bold red", "warning": "bold yellow",
          "note": "cyan", "help": "green", "turn": "bold"}


class Printer:
    """Colour when the output is a terminal; plain lines, flushed one by one, otherwise."""

    def __init__(self) -> None:
        self.tty = sys.stdout.isatty()
        self.console = Console(highlight=False, soft_wrap=True)

    def lines(self, lines: Iterable[Line]) -> None:
        for text, style in lines:
            # What was typed comes back in these lines: escape sequences, NUL and bidi
            # controls are shown escaped, never acted on by the terminal.
            text = "\n".join(safe(part) for part in text.split("\n"))
            if self.tty:
                self.console.print(Text(text, style=STYLES.get(style, "")))
            else:
                sys.stdout.write(text + "\n")
        if not self.tty:
            sys.stdout.flush()


COMMANDS = ("show", "legal", "undo", "new", "help", "quit", "why", "more", "who leads", "hands", "hint", "review")


def history_path() -> Path:
    """Where the prompt's history lives across sessions: the user's data directory
    ($XDG_DATA_HOME, else ~/.local/share; the platform's own on macOS and Windows)."""
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        base = Path(xdg)
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    elif sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    else:
        base = Path.home() / ".local" / "share"
    return base / "getaway-ref" / "live-history"


def completions(session: Session, before: list[str]) -> list[str]:
    """What may be typed next after the words ``before``: seats and commands first; after a
    seat, the cards the engine says it may play now, and the words of a take or a draw;
    after 'takes', the hands it may take now."""
    seats = list(session.seats())
    e = session.engine

    def cards(s: int) -> list[str]:
        # The engine's verdict on every card the seat may hold (known, or unseen and not
        # ruled out), each played on a copy of the game: for a hand nobody has seen, every
        # card it may play that the referee would accept (no renege can be proved of it).
        ok = []
        for c in range(C.CARD_COUNT if e.rules.marked_ace else 52):
            if e.may_hold(s, c):
                try:
                    e.fork().apply(EV.PlayCard(s, c), events=False)
                except E.IllegalAction:
                    continue
                ok.append(c)
        return [C.card_str(c) for c in C.sort_cards(ok)]

    if not before:
        due = e.to_act()
        return seats + list(COMMANDS) + (cards(due) if due >= 0 else [])
    last = before[-1].lower()
    if last in TAKE_WORDS and len(before) >= 2:
        hit = seat_matches(before[-2], seats)
        return [seats[t] for a, t in e.takes() if len(hit) == 1 and a == hit[0]]
    if last in DRAW_WORDS:
        return []
    if last in PLAY_WORDS and len(before) >= 2:
        hit = seat_matches(before[-2], seats)
        return cards(hit[0]) if len(hit) == 1 else []
    hit = seat_matches(before[-1], seats)
    if len(hit) == 1 and C.parse_card(before[-1]) is None:
        s = hit[0]
        turn = e.turn()
        extra = ["plays"] + (["takes"] if any(a == s for a, _ in e.takes()) else []) + \
            (["draws"] if turn.phase is E.Phase.DRAW_DUE and turn.to_act == s else [])
        return cards(s) + extra
    return seats


def _prompt_session(session: Session) -> PromptSession[str]:
    """A prompt-toolkit prompt: completion of seats, commands and the cards legal now;
    history kept across sessions."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document
    from prompt_toolkit.history import FileHistory, History, InMemoryHistory

    class EntryCompleter(Completer):
        def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
            text = document.text_before_cursor
            word = document.get_word_before_cursor(WORD=True)
            for option in completions(session, words_of(text[: len(text) - len(word)])):
                if option.lower().startswith(word.lower()):
                    yield Completion(option, start_position=-len(word))

    path = history_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        history: History = FileHistory(str(path))
    except OSError:
        history = InMemoryHistory()  # no writable data directory: history for this session only
    return PromptSession(history=history, completer=EntryCompleter(), complete_while_typing=False)


def run(session: Session, stdin: TextIO, tty: bool) -> int:
    """The loop: a prompt on a terminal, one entry a line otherwise. Without a terminal the
    exit code is 1 if any entry was not recorded (rejected, or asked about)."""
    pr = Printer()

    def view(kind: str) -> None:
        if kind == "@show":
            render_state(pr.console, state_model(session.game, session.res))
        else:
            render_legal(pr.console, legal_model(session.game, session.res))
        sys.stdout.flush()

    prompt = None
    if tty and sys.stdout.isatty():
        # (a terminal for input with the output piped elsewhere reads plain lines)
        prompt = _prompt_session(session)
        pr.lines([(_("type 'help' for the words and commands, 'quit' to stop; the record is saved after every "
                     "entry; Tab completes"), "note")])
    pr.lines([(session.turn_line(), "turn")])
    while True:
        try:
            if prompt is not None:
                line = prompt.prompt("gwy> ")
            else:
                line = stdin.readline()
                if line == "":
                    break
        except EOFError:
            break
        except KeyboardInterrupt:
            # Ctrl-C cancels the line being typed; the game goes on (Ctrl-D or quit ends it).
            pr.lines([(_("(line cancelled; Ctrl-D or 'quit' ends, the record is saved)"), "note")])
            continue
        if prompt is not None and line.strip().lower() == "undo" and session.units:
            # On a terminal, undo shows the entry before it goes.
            what = session.peek_undo()
            from prompt_toolkit import prompt as ask

            try:
                sure = ask(  # its own history: the answer is not an entry
                    _("undo removes '{entry}': remove it? [y/N] ").format(entry=what))
            except (EOFError, KeyboardInterrupt):
                sure = "n"
            if sure.strip().lower() not in ("y", "yes"):
                pr.lines([(_("kept: {entry}").format(entry=what), "note")])
                continue
        lines, go_on = session.handle(line)
        for text, style in lines:
            if text in ("@show", "@legal"):
                view(text)
            else:
                pr.lines([(text, style)])
        if not go_on:
            break
    if tty and session.written:
        pr.lines([(_("saved: {path}").format(path=session.path), "note")])
    # An entry that could not be written is never a success, on a terminal too.
    return 1 if (session.rejected and not tty) or session.unwritten else 0


# ---- the command ---------------------------------------------------------------------------------


def live_command(file: Path | None, seats: str | None = None, rules: str | None = None,
                 deal: str | None = None) -> int:
    """``getaway-ref live``: open or start the record, then follow the game typed on
    standard input; the exit code of :func:`run` (2 for a record or option that cannot be
    used)."""
    err = sys.stderr
    tty = sys.stdin.isatty()
    seat_list = seats.split() if seats else None
    default = None
    text: str | None = None
    path: Path | None = None
    snap: Snapshot = ABSENT
    try:
        mode: int | None = None
        if file is None:
            path = fresh_name(Path("."))
            snap = read_snapshot(path)[1]
        else:
            path = file
            recover([path])  # a rewrite of it cut short by a kill: put back before it is read
            if path.is_dir():
                raise LiveError(_("{file} is a directory").format(file=path))
            if path.exists():
                try:
                    raw, snap = read_snapshot(path)
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise LiveError(_("{file} is not UTF-8 text: not a .gwy record").format(file=path)) from None
                except OSError as ex:
                    raise LiveError(f"{path}: {reason_of(ex)}") from None
                if text.startswith("\ufeff"):
                    text = text[1:]
                mode = path.stat().st_mode & 0o777
            elif not path.parent.exists():
                raise LiveError(_("{dir}: no such directory").format(dir=path.parent))
        if rules:
            try:
                default = parse_spec(rules)
            except RulesError as ex:
                raise LiveError(f"--rules: {ex.message}") from None
        session = None
        if text is not None and text.strip():
            session = Session.resume(path, text, default=default, mode=mode)
            if session is not None:
                session.snap = snap
                ignored = [o for o, v in (("--seats", seats), ("--rules", rules), ("--deal", deal)) if v]
                over = session.engine.turn().phase is E.Phase.OVER
                if ignored and not over:
                    err.write("live: " + _("{options} ignored: continuing game {game} of {file}").format(
                        options=", ".join(ignored), game=session.number, file=safe_path(path)) + "\n")
                plays = sum(len(u.plays) for u in session.units)
                err.write("live: " + ngettext("{file}: continuing game {game} ({n} plays recorded)",
                                              "{file}: continuing game {game} ({n} plays recorded)", plays).format(
                    file=safe_path(path), game=session.number, n=plays) + "\n")
                if over:
                    err.write("live: " + _("game {game} is over; type 'new' for the next game").format(
                        game=session.number) + "\n")
        if session is None:
            session = Session.start(path, text, seat_list or DEFAULT_SEATS.split(), rules or "pagat", deal,
                                    default=None, mode=mode)
            session.snap = snap
            if text is not None:
                session.save()  # a record with no game yet gets its game now
            # else: a new file is first written with the first entry recorded, so
            # starting and quitting leaves nothing behind
            err.write("live: " + _("{file}: game {game}, seats {seats}, rules {rules}").format(
                file=safe_path(path), game=session.number, seats=" ".join(session.game.seats),
                rules=session.rules.spec()) + "\n")
        session.options = {"seats": seat_list, "rules": rules, "deal": deal}
    except LiveError as ex:
        sys.stderr.write(f"error: {safe(str(ex))}\n")
        if file is None and path is not None and path.exists() and path.stat().st_size == 0:
            path.unlink()
        return 2
    except ReadError as ex:
        sys.stderr.write(f"error: {safe(str(ex))}\n")
        return 2
    except WriteError as ex:  # the first save: one line, naming the file
        sys.stderr.write(f"error: {safe(str(ex))}\n")
        return 2
    except OSError as ex:
        sys.stderr.write(f"error: {safe_path(path or file or '.')}: {reason_of(ex)}\n")
        return 2
    err.flush()
    try:
        return run(session, sys.stdin, tty)
    finally:
        if text is None and not session.written and path.exists() and path.stat().st_size == 0:
            path.unlink()  # nothing was recorded: no file (the name was held empty)
