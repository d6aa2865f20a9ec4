"""check's text output when nobody reads colour (a pipe, a file): a game's line is written
straight to the stream, not through rich (issue 16). What is written must be exactly what
rich would have printed, whatever the game's path and seat names hold."""

from __future__ import annotations

import io
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from conftest import ROOT, run_cli
from referee.archive.slices import GameOutcome
from referee.reports.console import TextSink, render_game
from referee.reports.diagnostics import Diagnostic
from referee.notation.record import Span

# Names as a record or a file system may hold them: tabs, controls, bidi marks, wide letters.
NAMES = st.text(st.sampled_from("aZ é漢\t\x1b\u202e\u200b:[]/—"), min_size=1, max_size=12)


@st.composite
def outcomes(draw: st.DrawFn) -> GameOutcome:
    n = draw(st.integers(2, 6))
    seats = tuple(draw(st.lists(NAMES, min_size=n, max_size=n)))
    judged = draw(st.booleans())
    finished = judged and draw(st.booleans())
    out = draw(st.permutations(range(n)))[: draw(st.integers(0, n - 1))]
    return GameOutcome(
        number=draw(st.integers(1, 10_000)), line=draw(st.integers(1, 10**6)), seats=seats,
        rules=draw(st.sampled_from([None, "pagat", "donkey", "pagat last_card=draw_hand"])),
        judged=judged, stopped=draw(st.sampled_from([None, "the record has no deal or position"])),
        tricks=draw(st.integers(0, 60)), plays=draw(st.integers(0, 300)), out_order=list(out),
        loser=draw(st.integers(0, n - 1)) if finished else None, legs=draw(st.integers(0, 9)) if finished else None,
        finished=finished, sizes=draw(st.lists(st.integers(0, 52), min_size=n, max_size=n)),
    )


def rich_lines(path: str, games: list[GameOutcome]) -> str:
    buf = io.StringIO()
    console = Console(file=buf, highlight=False, soft_wrap=True)
    for g in games:
        render_game(console, path, g, False)
    return buf.getvalue()


def sink_lines(path: str, games: list[GameOutcome]) -> str:
    buf = io.StringIO()
    sink = TextSink(False, file=buf)
    sink.start_file(path)
    for g in games:
        sink.game(g)
    return buf.getvalue()


@settings(max_examples=300, deadline=None)
@given(path=NAMES, games=st.lists(outcomes(), min_size=1, max_size=4))
def test_a_game_line_written_directly_is_what_rich_prints(path, games):
    assert sink_lines(path, games) == rich_lines(path, games)


def test_a_game_with_a_diagnostic_is_printed_whole_and_in_order():
    seats = ("North", "East", "South", "West")
    clean = GameOutcome(1, 2, seats, "pagat", True, None, 10, 40, [0, 1, 2], 3, 2, True, [0, 0, 0, 2])
    d = Diagnostic("M201", "renege: East played K♣ on a heart lead", Span(9, 5, 100, 102), path="g.gwy",
                   severity="mistake", game=2, source_line="4. West 2♥, North 6♥, East K♣")
    broken = GameOutcome(2, 8, seats, "pagat", True, None, 12, 48, [1, 2, 0], 3, 1, True, [0, 0, 0, 1], [d])
    games = [clean, broken, clean]
    text = sink_lines("g.gwy", games)
    assert text == rich_lines("g.gwy", games)
    assert text.index("game 1 ") < text.index("[M201]") < text.index("game 2 ")


def test_a_closed_pipe_ends_check_quietly(tmp_path):
    # `check big.gwy | head -1`: the reader goes away after one line. No traceback.
    big = tmp_path / "big.gwy"
    made = run_cli("simulate", "-g", "400", "-s", "5", "-o", str(big))
    assert made.returncode == 0, made.stderr
    p = subprocess.Popen([sys.executable, "-m", "referee", "check", "--jobs", "1", str(big)], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    first = p.stdout.readline().decode()
    p.stdout.close()
    err = p.stderr.read().decode()
    p.wait(timeout=120)
    assert "game 1" in first
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert p.returncode != 0  # the report was not all delivered: not a clean run
