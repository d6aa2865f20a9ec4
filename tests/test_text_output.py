"""check's text output when nobody reads colour (a pipe, a file): written without rich by
reports/plain.py (issue 16). What is written must be exactly what rich prints without
colour, whatever the games, their diagnostics, paths and seat names hold."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import RECORDS, ROOT, run_cli
from referee.archive.slices import GameOutcome
from referee.reports.console import TextSink
from referee.reports.diagnostics import CODES, Diagnostic, Related
from referee.reports.plain import PlainSink
from referee.notation.record import Span

# Names and text as a record or a file system may hold them: tabs, controls, bidi marks,
# wide letters, what looks like rich markup.
WORDS = st.text(st.sampled_from("aZ é漢\t\x1b\u202e\u200b:[]/—#"), min_size=1, max_size=12)


@st.composite
def diagnostics(draw: st.DrawFn) -> Diagnostic:
    code = draw(st.sampled_from(sorted(CODES)))
    line = draw(st.integers(0, 99))
    source = draw(WORDS)
    span = Span(line, draw(st.integers(1, 14)), 10, 10 + draw(st.integers(0, 5))) if line else None
    related = [Related(Span(line + 1, 2, 20, 22), draw(WORDS), draw(WORDS))] if line and draw(st.booleans()) else []
    return Diagnostic(code, draw(WORDS), span, label=draw(st.sampled_from(["", "not a card"])),
                      notes=draw(st.lists(WORDS, max_size=2)), help=draw(st.none() | WORDS),
                      severity=CODES[code].severity, game=draw(st.integers(0, 3)), trick=draw(st.none() | st.integers(1, 9)),
                      source_line=source, path=draw(WORDS), related=related)


@st.composite
def outcomes(draw: st.DrawFn) -> GameOutcome:
    n = draw(st.integers(2, 6))
    seats = tuple(draw(st.lists(WORDS, min_size=n, max_size=n)))
    judged = draw(st.booleans())
    finished = judged and draw(st.booleans())
    out = draw(st.permutations(range(n)))[: draw(st.integers(0, n - 1))]
    diags = draw(st.lists(diagnostics(), max_size=3))
    if diags and draw(st.booleans()):
        diags = diags + [diags[0]] * 6  # a flood: shown once, with a count
    return GameOutcome(
        number=draw(st.integers(1, 10_000)), line=draw(st.integers(1, 10**6)), seats=seats,
        rules=draw(st.sampled_from([None, "pagat", "donkey", "pagat last_card=draw_hand"])),
        judged=judged, stopped=draw(st.sampled_from([None, "the record has no deal or position"])),
        tricks=draw(st.integers(0, 60)), plays=draw(st.integers(0, 300)), out_order=list(out),
        loser=draw(st.integers(0, n - 1)) if finished else None, legs=draw(st.integers(0, 9)) if finished else None,
        finished=finished, sizes=draw(st.lists(st.integers(0, 52), min_size=n, max_size=n)), diagnostics=diags,
    )


totals = st.fixed_dictionaries({
    "files": st.integers(0, 3), "games": st.integers(0, 9), "plays": st.integers(0, 99), "errors": st.integers(0, 3),
    "warnings": st.integers(0, 2), "unreadable": st.integers(0, 2),
    "severities": st.dictionaries(st.sampled_from(["error", "mistake", "warning", "note"]), st.integers(1, 3)),
})


def feed(sink, path, prelude, games, total) -> None:
    sink.start_file(path)
    sink.prelude(prelude)
    for g in games:
        sink.game(g)
    sink.end_file(None)
    sink.finish(total)


def by_rich(quiet, *run) -> str:
    buf = io.StringIO()  # not a terminal: rich prints no colour
    feed(TextSink(quiet, file=buf), *run)
    return buf.getvalue()


def by_plain(quiet, *run) -> str:
    buf = io.StringIO()
    feed(PlainSink(quiet, lambda: TextSink(quiet, file=buf), file=buf), *run)
    return buf.getvalue()


@settings(max_examples=300, deadline=None)
@given(quiet=st.booleans(), path=WORDS, prelude=st.lists(diagnostics(), max_size=2),
       games=st.lists(outcomes(), min_size=1, max_size=4), total=totals)
def test_the_plain_text_is_what_rich_prints_without_colour(quiet, path, prelude, games, total):
    assert by_plain(quiet, path, prelude, games, total) == by_rich(quiet, path, prelude, games, total)


def test_a_record_with_tabs_reads_the_same_as_rich_lays_it_out(tmp_path):
    # Rich expands a tab by the width of what stands before it: the plain sink hands over.
    tabbed = tmp_path / "tab.gwy"
    tabbed.write_text('%gwy 1\n%game\n[Seats "Ann Bob Cy"]\ndeal\nAnn 2\nBob 2\nCy 2\n1.\tAnn QX, Bob 2S\n', encoding="utf-8")
    files = [str(RECORDS / "dispute-renege-illegal.gwy"), str(tabbed), str(tmp_path / "missing.gwy"),
             str(RECORDS / "pagat-example.gwy")]
    plain = run_cli("check", *files)
    colour_off = subprocess.run([sys.executable, "-c", (
        "import sys\n"
        "from referee.reports import plain\n"
        "plain.writes_plain = lambda: False\n"  # rich for everything, into the same pipe
        "from referee._start import main\n"
        f"sys.argv = ['getaway-ref', 'check', *{files!r}]\n"
        "main()\n")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert plain.stdout == colour_off.stdout and plain.stderr == colour_off.stderr
    assert plain.returncode == colour_off.returncode == 2  # a file could not be read
    assert "Ann QX" in plain.stdout and "\t" not in plain.stdout  # the tab, expanded as rich does


@pytest.mark.parametrize("args", [["--show-games"], ["--format", "json"], ["--show-games", "--jobs", "2"]],
                         ids=["text", "json", "jobs-2"])
def test_a_closed_pipe_ends_check_quietly_with_exit_2(tmp_path, args):
    # `check big.gwy | head -1`: the reader goes away after one line. The report was not
    # all delivered (an I/O error: exit 2), and nobody is left to tell: no traceback.
    big = tmp_path / "big.gwy"
    made = run_cli("simulate", "-g", "400", "-s", "5", "-o", str(big))
    assert made.returncode == 0, made.stderr
    p = subprocess.Popen([sys.executable, "-m", "referee", "check", *args, str(big), str(big), str(big)], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    first = p.stdout.readline().decode()
    p.stdout.close()
    err = p.stderr.read().decode()
    p.wait(timeout=120)
    assert first.strip()
    assert err == ""
    assert p.returncode == 2
