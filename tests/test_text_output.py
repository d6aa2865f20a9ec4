"""check's text output, written by one renderer (reports/console.py, issue 24): the layout's
lines as they are into a pipe or a file, the same lines in colour on a terminal, as the
user's NO_COLOR, FORCE_COLOR and TERM say; a closed pipe ends it quietly."""

from __future__ import annotations

import io
import os
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import RECORDS, ROOT, run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.archive.slices import GameOutcome
from referee.notation.record import Span
from referee.reports.console import TextSink
from referee.reports.diagnostics import CODES, Diagnostic, Related

# Names and text as a record or a file system may hold them: tabs, controls, bidi marks,
# wide letters, what looks like rich markup or an escape sequence.
WORDS = st.text(st.sampled_from("aZ é漢\t\x1b\u202e\u200b:[]/—#"), min_size=1, max_size=12)
SGR = re.compile("\x1b\\[[0-9;]*m")  # what the renderer writes for colour, and only that
RENEGE = RECORDS / "dispute-renege-illegal.gwy"  # one mistake, and a line per game


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
    "severities": st.dictionaries(st.sampled_from(["error", "mistake", "note"]), st.integers(1, 3)),
})


def rendered(quiet, path, prelude, games, total) -> str:
    buf = io.StringIO()
    sink = TextSink(quiet, file=buf)
    sink.start_file(path)
    sink.prelude(prelude)
    for g in games:
        sink.game(g)
    sink.end_file(None)
    sink.finish(total)
    return buf.getvalue()


@settings(max_examples=200, deadline=None)
@given(quiet=st.booleans(), path=WORDS, prelude=st.lists(diagnostics(), max_size=2),
       games=st.lists(outcomes(), min_size=1, max_size=4), total=totals)
def test_colour_only_adds_style_to_the_plain_text_and_the_record_cannot_act_on_the_terminal(
        quiet, path, prelude, games, total):
    run = (quiet, path, prelude, games, total)
    with pytest.MonkeyPatch.context() as env:
        for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR"):
            env.delenv(name, raising=False)
        plain = rendered(*run)  # into a buffer: not a terminal
        env.setenv("FORCE_COLOR", "1")
        env.setenv("TERM", "xterm-256color")
        coloured = rendered(*run)
    assert SGR.search(coloured)  # the totals line at least is in colour
    assert SGR.sub("", coloured) == plain
    # Escapes, bidi controls and tabs of the record are shown, not obeyed: nothing but a
    # newline below U+0020 in the plain text, nothing but our colours in the coloured.
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f\u202e]", plain)
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f\u202e]", SGR.sub("", coloured))
    # One line per game unless quiet, the totals last.
    ends = [line for line in plain.splitlines() if re.search(" — (ok|\\d+ (error|mistake|note)s?.*)$", line)]
    assert len(ends) == (0 if quiet else len(games))
    assert plain.splitlines()[-1].startswith(f"checked {total['files']} file")


def test_a_caret_under_a_line_with_tabs_stands_under_its_card(tmp_path: Path) -> None:
    tabbed = tmp_path / "tab.gwy"
    tabbed.write_text('%gwy 1\n%game\n[Seats "Ann Bob Cy"]\ndeal\nAnn 2\nBob 2\nCy 2\n1.\tAnn QX,\tBob 2S\n',
                      encoding="utf-8")
    r = run_cli("check", str(tabbed))
    assert r.returncode == 1 and "\t" not in r.stdout
    lines = r.stdout.splitlines()
    quoted = next(i for i, line in enumerate(lines) if line.startswith("8 | "))
    assert lines[quoted + 1].index("^^") == lines[quoted].index("QX")  # tabs expanded alike in both


# ---- on a terminal, in a pipe: a real pseudo-terminal ----------------------------------------------------


def on_terminal(args: list[str], **env: str) -> tuple[str, str, int]:
    """Run `getaway-ref ARGS` with standard output and error on pseudo-terminals, as in a
    user's terminal; what each showed (newlines as written) and the exit code."""
    out_master, out_slave = os.openpty()
    err_master, err_slave = os.openpty()
    environ = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE")}
    environ.setdefault("TERM", "xterm-256color")
    p = subprocess.Popen([sys.executable, "-m", "referee", *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                         stdout=out_slave, stderr=err_slave, env={**environ, **env})
    os.close(out_slave)
    os.close(err_slave)
    seen = {out_master: b"", err_master: b""}
    open_ = set(seen)
    while open_:
        ready, _, _ = select.select(list(open_), [], [], 60)
        assert ready, "the command wrote nothing for a minute"
        for fd in ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the other side closed
                chunk = b""
            if chunk:
                seen[fd] += chunk
            else:
                open_.discard(fd)
                os.close(fd)
    code = p.wait(timeout=60)
    return (seen[out_master].decode().replace("\r\n", "\n"), seen[err_master].decode().replace("\r\n", "\n"), code)


def test_a_terminal_shows_colour_a_pipe_none_and_the_words_are_the_same(tmp_path: Path) -> None:
    missing = tmp_path / "missing.gwy"
    out, err, code = on_terminal(["check", str(RENEGE), str(missing)])
    piped = run_cli("check", str(RENEGE), str(missing))
    assert code == piped.returncode == 2  # a file could not be read
    assert "\x1b[1;31mmistake[M201]" in out  # the mistake's header in bold red
    assert "\x1b[" not in piped.stdout + piped.stderr
    assert SGR.sub("", out) == piped.stdout
    assert err.startswith("\x1b[1;31merror\x1b[0m: ") and SGR.sub("", err) == piped.stderr


@pytest.mark.parametrize("env, left", [
    ({"NO_COLOR": "1"}, {"1"}),  # no colours; bold stays, as rich keeps it
    ({"TERM": "dumb"}, set()),
    ({"TTY_COMPATIBLE": "0"}, set()),
    ({"FORCE_COLOR": ""}, set()),  # set and empty: no colour, as rich reads it in the other commands
    ({}, {"1", "31", "34", "36", "32"}),
], ids=["NO_COLOR", "TERM=dumb", "TTY_COMPATIBLE=0", "FORCE_COLOR empty", "nothing set"])
def test_the_users_colour_settings_are_honoured_on_a_terminal(env: dict[str, str], left: set[str]) -> None:
    out, _, code = on_terminal(["check", str(RENEGE)], **env)
    assert code == 1
    codes = {c for seq in SGR.findall(out) for c in seq[2:-1].split(";") if c != "0"}
    assert codes == left
    assert SGR.sub("", out) == run_cli("check", str(RENEGE)).stdout


def test_force_color_colours_a_pipe_too() -> None:
    r = subprocess.run([sys.executable, "-m", "referee", "check", str(RENEGE)], cwd=ROOT, capture_output=True,
                       text=True, timeout=120, env={**os.environ, "FORCE_COLOR": "1", "TERM": "xterm"})
    assert r.returncode == 1 and "\x1b[1;31mmistake[M201]" in r.stdout


# ---- a closed pipe ------------------------------------------------------------------------------------------


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
