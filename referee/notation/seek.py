"""Finding games in a file by its ``%game`` lines, without parsing what comes before.

A game starts at a line whose first word is ``%game``. Scanning for those lines is done on
bytes, a block at a time (C-speed counting, flat memory), and says for each game where it
starts: the byte, the games, lines and characters before it. That is all the reader needs
to read one game as if it had read the whole file up to it, so ``show --game N`` reads one
game, and ``check --jobs`` cuts a file into slices that start at game lines.
"""

from __future__ import annotations

import codecs
import io
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from referee.notation.reader import (
    LINE_MOST,
    Reader,
    chunks,
    game_lines,
    line_too_long,
    undecodable,
    unopened,
)
from referee.notation.record import Game, Prelude

BOM = b"\xef\xbb\xbf"
BLOCK = 1 << 20
# The prelude of a file with no game is parsed for its diagnostics only up to this size:
# a large file without a single %game line is not a record, and saying so is enough.
PRELUDE_MOST = 1 << 20


@dataclass(frozen=True, slots=True)
class Place:
    """Where a game starts: its byte, and the games, lines and characters before it."""

    start: int
    games: int
    lines: int
    chars: int


def _chars(data: bytes) -> int:
    """Characters of UTF-8 bytes: every byte but the continuation bytes."""
    return len(data) - len(data.translate(None, _NOT_CONTINUATION))


_NOT_CONTINUATION = bytes(b for b in range(256) if not 0x80 <= b < 0xC0)


def game_starts(f: BinaryIO, path: str = "<text>", validate: bool = False, every: int = 0) -> Iterator[Place]:
    """The place of every %game line of a binary stream, in order. With ``validate`` the
    bytes must be UTF-8 (a ReadError names the first byte that is not). With ``every``,
    only the places at least that many bytes after the last one given (the first: after
    the stream's start): the games between are counted, their lines and characters are
    counted only where a place is given (check cuts its slices so, issue 16)."""
    games = lines = chars = 0
    pos = 0  # the byte where ``carry`` starts
    last = 0  # the byte of the last place given
    carry = b""
    first = True
    decoder = codecs.getincrementaldecoder("utf-8")() if validate else None
    while True:
        block = f.read(BLOCK)
        data = carry + block
        if block:
            cut = data.rfind(b"\n") + 1
            if cut == 0:
                if len(data) > LINE_MOST:  # one line held whole at most LINE_MOST bytes, as the reader
                    raise line_too_long(path, lines + 1)
                carry = data  # no whole line yet
                continue
        else:
            cut = len(data)
        region = data[:cut]
        first_end = region.find(b"\n")  # only the first line of a region can be that long
        if (first_end if first_end >= 0 else len(region)) > LINE_MOST:
            raise line_too_long(path, lines + 1)
        skip = 0
        if first:
            first = False
            if region.startswith(BOM):
                skip = len(BOM)  # the reader drops a byte-order mark: it is no character
        if decoder is not None:
            _validate(decoder, region, pos, lines, path)
        counted = skip  # lines and characters are counted up to here
        for s in game_lines(region, skip):
            if pos + s - last >= every:
                lines += region.count(b"\n", counted, s)
                chars += _chars(region[counted:s])
                counted = s
                last = pos + s
                yield Place(pos + s, games, lines, chars)
            games += 1
        lines += region.count(b"\n", counted)
        chars += _chars(region[counted:])
        pos += cut
        carry = data[cut:]
        if not block:
            return


def _validate(decoder: codecs.IncrementalDecoder, region: bytes, pos: int, lines: int, path: str) -> None:
    try:
        decoder.decode(region)
    except UnicodeDecodeError as e:
        line = lines + region.count(b"\n", 0, e.start) + 1
        raise undecodable(path, region[e.start], pos + e.start, line) from None


def ranges(path: str, size: int) -> Iterator[tuple[int, int, int, int, int]]:
    """Slices of a file of about ``size`` bytes, each starting at a %game line (the first at
    the file's start): (byte start, byte end, games, lines and characters before)."""
    end = os.path.getsize(path)
    cur = Place(0, 0, 0, 0)
    with open(path, "rb") as f:
        for p in game_starts(f, path, every=size):
            if p.start > cur.start:  # (a game at the file's start opens the first slice)
                yield cur.start, p.start, cur.games, cur.lines, cur.chars
                cur = p
    yield cur.start, max(end, cur.start), cur.games, cur.lines, cur.chars


@dataclass(slots=True)
class Found:
    """A game looked up in a file: the game (None if the file holds none), how many games
    the scan saw, and, for a file with no game, its prelude with its diagnostics."""

    game: Game | None
    count: int
    prelude: Prelude | None = None
    prelude_bytes: int = 0


def find_game(path: str, number: int | None = None, name: str | None = None) -> Found:
    """Game ``number`` (1-based) of a file, or its last game, read without parsing the games
    before it. Raises ReadError when the file cannot be read."""
    shown = name or path
    try:
        f = open(path, "rb")
    except OSError as e:
        raise unopened(shown, e) from None
    with f:
        chosen: Place | None = None
        after: Place | None = None
        count = 0
        for p in game_starts(f, shown, validate=True):
            count += 1
            if number is None or p.games + 1 == number:
                chosen = p
                if number is not None:
                    continue
            elif chosen is not None:
                after = p
                count -= 1
                break
        reader = Reader(shown)
        if chosen is None:
            if count:
                return Found(None, count)
            size = f.seek(0, io.SEEK_END)
            if size > PRELUDE_MOST:
                return Found(None, 0, None, size)
            f.seek(0)
            for n, text, _first, offset in chunks(io.BytesIO(f.read()), shown):
                if n == 0:
                    reader.read_prelude(text, offset)
            return Found(None, 0, reader.prelude, size)
        f.seek(chosen.start)
        data = f.read(after.start - chosen.start) if after is not None else f.read()
    for n, text, first_line, offset in chunks(io.BytesIO(data), shown, number=chosen.games, line=chosen.lines,
                                              offset=chosen.chars, byte_offset=chosen.start):
        if n:
            return Found(reader.parse_game(text, n, first_line, offset), count)
    return Found(None, count)  # not reached: the slice starts at its %game line
