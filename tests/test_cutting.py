"""Cutting a file into games (reader.chunks) and into slices for --jobs (seek.ranges): a
block at a time, by a search on bytes (issue 16). Whatever the blocks, the games and where
they are must be what the text says, and a byte that is not UTF-8 is named exactly."""

from __future__ import annotations

import io
import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.notation.reader import ReadError, chunks
from referee.notation.seek import game_starts, ranges

BOM = b"\xef\xbb\xbf"
# Lines and pieces of lines as files have them: game lines (indented too), CRLF, letters of
# several bytes, words that only look like a game line.
PIECES = [b"%game\n", b"  %game x\n", b"\t%game", b"%gam\n", b"1. N A\xe2\x99\xa0\n", b"\n", b"\r\n",
          b"text ", b"%gwy 1\n", b"\xc3\xa9", b" %game\r\n", b"West 10\xe2\x99\xa5, North 2\xe2\x99\xa5\n"]
BAD = [b"\xff", b"\xe2\x82\n", b"\xc3"]
GAME_LINE = re.compile(rb"^[ \t]*%game", re.M)


class Trickle(io.BytesIO):
    """A stream that gives a few bytes at a time, as a pipe may."""

    def __init__(self, data: bytes, step: int) -> None:
        super().__init__(data)
        self.step = step

    def read1(self, n: int = -1) -> bytes:
        return super().read1(min(self.step, n if n >= 0 else self.step))


def cut(data: bytes, step: int, **where: int) -> list[tuple[int, str, int, int]]:
    return list(chunks(Trickle(data, step) if step else io.BytesIO(data), "f.gwy", **where))


files = st.tuples(st.booleans(), st.lists(st.sampled_from(PIECES), max_size=30)).map(
    lambda t: (BOM if t[0] else b"") + b"".join(t[1]))


@settings(max_examples=400, deadline=None)
@given(data=files, step=st.sampled_from([0, 1, 3, 17]))
def test_games_are_cut_at_their_game_lines_and_placed_exactly(data, step):
    text = data.removeprefix(BOM).decode("utf-8")
    got = cut(data, step)
    assert "".join(t for _, t, _, _ in got) == text
    assert got[0][0] == 0 and [n for n, _, _, _ in got] == list(range(len(got)))
    for _n, t, line, offset in got[1:]:
        assert re.match(r"[ \t]*%game", t)  # each game opens with its own game line
        assert offset == text.index(t, offset) and line == text.count("\n", 0, offset) + 1
    body = "".join(t for _, t, _, _ in got[1:])
    assert len(got) - 1 == len(GAME_LINE.findall(body.encode()))


@settings(max_examples=400, deadline=None)
@given(before=files, bad=st.sampled_from(BAD), after=st.lists(st.sampled_from(PIECES), max_size=10),
       step=st.sampled_from([0, 1, 5]))
def test_a_byte_that_is_not_utf8_is_named_by_its_offset_and_line(before, bad, after, step):
    data = before + bad + b"".join(after)
    at = len(before)
    read: list[tuple[int, str, int, int]] = []
    with pytest.raises(ReadError) as e:
        for piece in chunks(Trickle(data, step) if step else io.BytesIO(data), "f.gwy"):
            read.append(piece)
    line = data.count(b"\n", 0, at) + 1
    assert e.value.message == f"not UTF-8 text: byte 0x{bad[0]:02x} at byte offset {at} (line {line}) cannot be decoded"
    # The games read before the error are text that stands before the bad byte, whole.
    assert "".join(t for _, t, _, _ in read).encode() == data[:at].removeprefix(BOM)[:len("".join(
        t for _, t, _, _ in read).encode())]


@settings(max_examples=300, deadline=None)
@given(data=files, size=st.sampled_from([0, 1, 7, 40, 1 << 18]))
def test_slices_start_at_game_lines_and_read_as_the_whole_file_does(tmp_path_factory, data, size):
    path = tmp_path_factory.mktemp("cut") / "f.gwy"
    path.write_bytes(data)
    whole = cut(data, 0)
    pieces = list(ranges(str(path), size))
    assert pieces[0][0] == 0 and pieces[-1][1] == len(data)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(pieces))  # contiguous, in order
    from_slices = []
    for start, end, games, lines, chars in pieces:
        head = data[:start]
        assert lines == head.count(b"\n") and chars == len(head.removeprefix(BOM).decode("utf-8"))
        assert games == len(GAME_LINE.findall(head.removeprefix(BOM)))
        if start:  # a slice opens with a game line: a line's start, or the text's after its mark
            assert re.compile(rb"[ \t]*%game").match(data, start)
            assert data[start - 1:start] == b"\n" or data[:start] == BOM
        from_slices += [g for g in cut(data[start:end], 0, number=games, line=lines, offset=chars,
                                       byte_offset=start) if g[0] or not start]
    assert from_slices == whole


def test_every_game_line_is_placed_with_what_stands_before_it(tmp_path):
    data = BOM + "%gwy 1\n%game\n1. Ann A♠\n  %game\n\n%game x\n".encode()
    with open(tmp_path / "f.gwy", "wb") as f:
        f.write(data)
    with open(tmp_path / "f.gwy", "rb") as f:
        places = [(p.start, p.games, p.lines, p.chars) for p in game_starts(f)]
    text = data.removeprefix(BOM).decode()
    starts = [m.start() for m in re.finditer(r"^[ \t]*%game", text, re.M)]
    assert places == [(len(text[:s].encode()) + len(BOM), i, text.count("\n", 0, s), s) for i, s in enumerate(starts)]
