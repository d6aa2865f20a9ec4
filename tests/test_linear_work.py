"""Hostile inputs cost work in proportion to their size, in every output (issue 25).

Counted, not timed: for an input made twice as large, every command that reports on it
writes at most about twice the bytes (a tenth of slack: line and game numbers grow a digit)
and builds at most about twice the diagnostics. A cost
that grows as the square (a message that lists every seat, said once per play) doubles the
input and quadruples the output, which these counts catch on any machine, loaded or not.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import run_cli


def many_seats_unknown_plays(n: int) -> str:
    """Issue 25, defect 2: thousands of seats, and thousands of plays by seats not among
    them (every such play is an S003 that once listed every seat)."""
    seats = " ".join(f"S{i}" for i in range(10 * n))
    tricks = "".join(f"{t}. " + ", ".join(f"X{t}x{k} A♠" for k in range(4)) + "\n" for t in range(1, 2 * n + 1))
    return f'%gwy 1\n%game\n[Seats "{seats}"]\ndeal\n{tricks}'


def many_syntax_errors(n: int) -> str:
    """Issue 25, defect 5: a small file of thousands of syntax errors."""
    return '%gwy 1\n%game\n[Seats "North East"]\ndeal\nNorth 13\nEast 13\n' + "x y\n" * (20 * n)


def broken_game_lines(n: int) -> str:
    """Issue 25, defect 4: %game lines followed by two carriage returns, then hands that
    name the seats (the game's place is all that S006 can point at)."""
    return "%gwy 1\n" + "%game \r\r\nEast A♠\nNorth takes Queen\n1. Queen Zz\n" * n


MAKERS = [
    pytest.param(many_seats_unknown_plays, id="many seats, plays by unknown seats"),
    pytest.param(many_syntax_errors, id="many syntax errors"),
    pytest.param(broken_game_lines, id="broken %game lines"),
]


def _check_work(path: Path) -> tuple[dict[str, int], int]:
    """Bytes each output of check writes, and the diagnostics the JSON report holds."""
    sizes = {}
    for fmt in ("text", "json", "jsonl", "sarif"):
        r = run_cli("check", "--format", fmt, str(path))
        assert r.returncode == 1 and "Traceback" not in r.stderr, (fmt, r.stderr[-2000:])
        sizes[fmt] = len(r.stdout.encode("utf-8"))
        if fmt == "json":
            report = json.loads(r.stdout)
            diags = sum(len(g["diagnostics"]) for f in report["files"] for g in f["games"])
    return sizes, diags


def _table_work(path: Path) -> dict[str, int]:
    """Bytes fmt, show and legal write about a record with syntax errors."""
    sizes = {}
    for command in ("fmt", "show", "legal"):
        r = run_cli(command, str(path))
        assert r.returncode != 0 and "Traceback" not in r.stderr, (command, r.stderr[-2000:])
        sizes[command] = len((r.stdout + r.stderr).encode("utf-8"))
    return sizes


@pytest.mark.parametrize("make", MAKERS)
def test_doubling_a_hostile_input_at_most_doubles_every_output(tmp_path, make):
    small, large = tmp_path / "small.gwy", tmp_path / "large.gwy"
    small.write_text(make(100), encoding="utf-8", newline="")
    large.write_text(make(200), encoding="utf-8", newline="")
    (s_sizes, s_diags), (l_sizes, l_diags) = _check_work(small), _check_work(large)
    assert l_diags <= 2 * s_diags + 20, (s_diags, l_diags)
    for fmt in s_sizes:
        assert l_sizes[fmt] <= 2.2 * s_sizes[fmt] + 2000, (fmt, s_sizes, l_sizes)
    s_table, l_table = _table_work(small), _table_work(large)
    for command in s_table:
        assert l_table[command] <= 2.2 * s_table[command] + 2000, (command, s_table, l_table)


def test_an_unknown_seat_among_thousands_is_said_in_a_message_of_bounded_length(tmp_path):
    # The message names as many seats as a game may have, then how many more: each S003
    # is short however long the [Seats] tag, and no near name is searched for among them.
    p = tmp_path / "crowd.gwy"
    p.write_text(many_seats_unknown_plays(100), encoding="utf-8")
    report = json.loads(run_cli("check", "--format", "json", str(p)).stdout)
    unknown = [d for f in report["files"] for g in f["games"] for d in g["diagnostics"] if d["code"] == "S003"]
    assert len(unknown) == 4 * 200  # every play by an unknown seat, once
    first = unknown[0]["message"]
    assert first.startswith("unknown seat 'X1x0' (seats are S0, S1, ") and first.endswith(" and 984 more)")
    assert "S15, S16" not in first


def test_fmt_show_and_legal_print_syntax_errors_as_check_does(tmp_path):
    # One writer for all four (check's, without rich when the output is not a terminal):
    # the same diagnostics, floods of identical ones shown once with their count.
    p = tmp_path / "errors.gwy"
    p.write_text(many_syntax_errors(10), encoding="utf-8")
    check = run_cli("check", str(p)).stdout
    blocks = check[: check.rindex("\n\n") + 2]  # the diagnostics, without the game and totals lines
    assert blocks.count("error[S003]") == 1 and "199 more of the same error" in blocks
    for command in ("fmt", "show", "legal"):
        r = run_cli(command, str(p))
        assert r.stderr.startswith(blocks), (command, r.stderr[:500])
        assert re.search(r"syntax error", r.stderr.splitlines()[-1]), r.stderr.splitlines()[-1]
