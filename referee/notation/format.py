"""The canonical form of a record: ``getaway-ref fmt``.

One spelling for everything: Unicode suits (``10♥``, ``A♠*``), hands in the order ♠ ♥ ♦ ♣
and high to low, plays separated by ", ", one blank line between games, every seat by its
full name (a seat written by its unique beginning, ``N 4♦`` as ``live`` teaches, is written
out, as ``check --fix`` does; a beginning two seats share stays an error). Every comment and
every fact is kept, so ``parse(fmt(x)) == parse(x)`` and ``fmt(fmt(x)) == fmt(x)``.

Every command that writes a record (``live``, ``serve``, ``simulate``) writes what
:func:`format_game` writes, so a club's ``fmt --check`` hook never rewrites the tool's own
output.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from typing import BinaryIO, TextIO

from referee.engine.cards import SUIT_SYMBOLS, card_str
from referee.engine.codes import Code
from referee.notation.reader import VERSION, Reader, chunks, quote_first_line
from referee.notation.record import (
    Comment,
    Counts,
    Deal,
    Draw,
    Game,
    Hand,
    Lead,
    NextTrick,
    Out,
    Prelude,
    Tag,
    Take,
    Trick,
    Trumps,
    Waste,
)
from referee.reports.diagnostics import Diagnostic


def _eol(comment: str | None) -> str:
    if comment is None:
        return ""
    return f"  # {comment}" if comment else "  #"


def _remark(c: Comment) -> str:
    return f"# {c.text}" if c.text else "#"


def _escape(v: str) -> str:
    return v.replace("\\", "\\\\").replace('"', '\\"')


def format_prelude(pre: Prelude) -> str:
    lines = [f"%gwy {pre.version or VERSION}{_eol(pre.version_comment)}"]
    for it in pre.items:
        if isinstance(it, Comment):
            lines.append(_remark(it))
    return "\n".join(lines) + "\n"


def format_game(g: Game) -> str:
    """The canonical text of one game, as ``fmt`` writes it (and every command that writes a
    record): every comment and fact kept, one spelling for each."""
    seats = g.seats

    def name(s: int) -> str:
        return seats[s] if 0 <= s < len(seats) else "?"

    out = [f"%game{_eol(g.open_comment)}"]
    for it in g.header:
        if isinstance(it, Tag):
            out.append(f'[{it.name} "{_escape(it.value)}"]{_eol(it.comment)}')
        else:
            out.append(_remark(it))
    if g.setup is not None:
        out.append("deal" if isinstance(g.setup, Deal) else "position")
        for part in g.setup.items:
            if isinstance(part, Comment):
                out.append(_remark(part))
            elif isinstance(part, Hand):
                if part.cards is None:
                    body = str(part.size)
                elif part.cards:
                    body = " ".join(card_str(c) for c in part.cards)
                else:
                    body = "..."  # a known empty hand, in the suit-by-suit form
                out.append(f"{name(part.seat)} {body}{_eol(part.comment)}")
            elif isinstance(part, Out):
                out.append(f"{name(part.seat)} out{_eol(part.comment)}")
            elif isinstance(part, Waste):
                body = ("rest" if part.rest else str(part.size) if part.size is not None
                        else " ".join(card_str(c) for c in part.cards or ()))
                out.append(f"waste {body}{_eol(part.comment)}")
            elif isinstance(part, Lead):
                out.append(f"lead {name(part.seat)}{_eol(part.comment)}")
            elif isinstance(part, NextTrick):
                out.append(f"trick {part.number}{_eol(part.comment)}")
            elif isinstance(part, Trumps):
                out.append(f"trumps {SUIT_SYMBOLS[part.suit]}{_eol(part.comment)}")
    # The lines in the order written (docs/rulings.md, ruling 10): the canonical form never
    # moves a trick line, even where the reader offers the order of the numbers.
    for a in (g.written_order[0] if g.written_order is not None else g.actions):
        if isinstance(a, Trick):
            plays = ", ".join(f"{name(p.seat)} {card_str(p.card)}" for p in a.plays)
            out.append(f"{a.number}. {plays}{_eol(a.comment)}")
        elif isinstance(a, Take):
            out.append(f"{name(a.taker)} takes {name(a.target)}{_eol(a.comment)}")
        elif isinstance(a, Draw):
            src = f" from {name(a.source)}" if a.source is not None else ""
            out.append(f"{name(a.seat)} draws {card_str(a.card)}{src}{_eol(a.comment)}")
        elif isinstance(a, Counts):
            sizes = ", ".join(f"{name(s)} {n}" for s, n in a.sizes)
            out.append(f"counts {sizes}{_eol(a.comment)}")
        elif isinstance(a, Comment):
            out.append(_remark(a))
    return "\n".join(out) + "\n"


def _seats_written_out(reader: Reader, g: Game, text: str, number: int, first_line: int, offset: int) -> Game:
    """The game read again with each seat written by its unique beginning written out (the
    safe fix its S003 diagnostic carries), when those are its only errors; else ``g``."""
    edits = []
    for d in g.errors:
        if d.fix is None or not d.fix.safe or d.code != Code.UNKNOWN_SEAT:
            return g
        for e in d.fix.edits:
            start, end = e.span.start - offset, e.span.end - offset
            # the text replaced must be the beginning of the name written in its place
            if not (0 <= start < end <= len(text) and e.text.lower().startswith(text[start:end].lower())):
                return g
            edits.append((start, end, e.text))
    out, at = [], 0
    for start, end, name in sorted(edits):
        if start < at:
            return g
        out += [text[at:start], name]
        at = end
    fixed = reader.parse_game("".join(out) + text[at:], number, first_line, offset)
    return g if fixed.errors else fixed


def format_file(prelude: Prelude, games: Iterable[Game]) -> str:
    """The canonical text of a whole file (games may be any iterable)."""
    parts = [format_prelude(prelude)]
    for g in games:
        parts.append("\n" + format_game(g))
    return "".join(parts)


# ---- fmt: a file at a time, a game at a time ----------------------------------------------------


class _Same:
    """Whether two texts fed piece by piece are equal, keeping only what one is ahead by."""

    def __init__(self) -> None:
        self.a = ""
        self.b = ""
        self.same = True

    def feed(self, a: str, b: str) -> None:
        if not self.same:
            return
        self.a += a
        self.b += b
        n = min(len(self.a), len(self.b))
        if self.a[:n] != self.b[:n]:
            self.same = False
            return
        self.a, self.b = self.a[n:], self.b[n:]

    def equal(self) -> bool:
        return self.same and not self.a and not self.b


def _hunks(a: list[str], b: list[str], a_line: int, b_line: int) -> Iterator[str]:
    """Unified-diff hunks of two pieces of a file, numbered from where the pieces start."""
    for group in difflib.SequenceMatcher(None, a, b, autojunk=True).get_grouped_opcodes(3):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        yield f"@@ -{a_line + i1},{i2 - i1} +{b_line + j1},{j2 - j1} @@\n"
        for tag, x1, x2, y1, y2 in group:
            if tag == "equal":
                for line in a[x1:x2]:
                    yield " " + line
                continue
            for line in a[x1:x2]:
                yield "-" + line
            for line in b[y1:y2]:
                yield "+" + line


def _lines(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n\\ No newline at end of file\n"
    return lines


class Formatted:
    """What formatting one file found: syntax errors, or whether its text is canonical."""

    def __init__(self) -> None:
        self.errors: list[Diagnostic] = []
        self.same = True


def format_stream(f: BinaryIO, name: str, out: TextIO | None = None, diff: TextIO | None = None) -> Formatted:
    """Read a record from binary stream ``f`` game by game; write its canonical form to
    ``out`` (a text stream, or None) and a unified diff to ``diff`` (or None), and say whether
    it was canonical. The file's line ending (LF or CRLF, from its first line) is kept.
    Memory holds one game, whatever the file's size."""
    head = f.read(1 << 16)
    f.seek(0)
    nl = head.find(b"\n")
    crlf = nl > 0 and head[nl - 1:nl] == b"\r"
    reader = Reader(name)
    result = Formatted()
    same = _Same()
    a_line = b_line = 1
    headed = False
    pending_prelude: str | None = None

    def emit(original: str, canon: str) -> None:
        nonlocal a_line, b_line, headed
        if crlf:
            canon = canon.replace("\n", "\r\n")
        same.feed(original, canon)
        if out is not None:
            out.write(canon)
        if diff is not None:
            a, b = _lines(original), _lines(canon)
            if a != b:
                for h in _hunks(a, b, a_line, b_line):
                    if not headed:
                        diff.write(f"--- {name}\n+++ {name} (canonical)\n")
                        headed = True
                    diff.write(h)
            a_line += len(a)
            b_line += len(b)

    # Pieces are cut at %game lines on both sides, so that a diff hunk never straddles a game
    # boundary: the canonical separator (a blank line) goes at the end of the piece before,
    # which is known only when the next game comes. One piece waits: memory holds two games.
    waiting: tuple[str, str] | None = None
    for number, text, first_line, offset in chunks(f, name):
        if number == 0:
            reader.read_prelude(text, offset)
            result.errors.extend(reader.prelude.errors)
            pending_prelude = text
            continue
        if first_line == 1:
            quote_first_line(reader.prelude.errors, text)
        g = reader.parse_game(text, number, first_line, offset)
        if g.errors:
            g = _seats_written_out(reader, g, text, number, first_line, offset)
        result.errors.extend(g.errors)
        if result.errors:
            continue
        if pending_prelude is not None:
            waiting = (pending_prelude, format_prelude(reader.prelude))
            pending_prelude = None
        if waiting is not None:
            emit(waiting[0], waiting[1] + "\n")
        waiting = (text, format_game(g))
    if not result.errors:
        if pending_prelude is not None:
            waiting = (pending_prelude, format_prelude(reader.prelude))
        if waiting is not None:
            emit(*waiting)
    result.same = same.equal()
    return result
