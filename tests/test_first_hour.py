"""A new user's first hour (issue 38, item 5), met as a user meets it, through the command line:
the records the tool writes are already canonical, `fmt` writes a seat's beginning out, a
command line that cannot be used is one line in one style, and `--version` names the build."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, TIMEOUT, run_cli

PAGAT = (ROOT / "records" / "pagat-example.gwy").read_text(encoding="utf-8")
DEAL = "AKQJ.T98.76.5432; 13; 13; 13"  # North's hand suit by suit, as a scorer types it


def test_live_writes_a_deal_in_the_canonical_form(tmp_path: Path) -> None:
    # A club's pre-commit `fmt --check` must never rewrite what live wrote.
    rec = tmp_path / "friday.gwy"
    r = subprocess.run([sys.executable, "-m", "referee", "live", str(rec), "--deal", DEAL],
                       input="North A♠\neast 3s\nS 4♠, w 5♠\nquit\n", capture_output=True, text=True, cwd=ROOT,
                       timeout=TIMEOUT)
    assert r.returncode == 0, r.stdout + r.stderr
    text = rec.read_text(encoding="utf-8")
    assert "North A♠ K♠ Q♠ J♠ 10♥ 9♥ 8♥ 7♦ 6♦ 5♣ 4♣ 3♣ 2♣\n" in text
    assert "1. North A♠, East 3♠, South 4♠, West 5♠\n" in text
    check = run_cli("fmt", "--check", str(rec))
    assert check.returncode == 0, check.stderr
    assert run_cli("check", str(rec)).returncode == 0


def test_serve_writes_a_deal_in_the_canonical_form(tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="the serve extra")
    from test_serve import Server, _query, _status, _version

    rec = tmp_path / "table.gwy"
    srv = Server(rec, "--deal", DEAL)
    try:
        assert _status(srv.base + "entry?" + _query(srv.record), {"text": "North A♠", "version": _version(srv)}) == 200
    finally:
        srv.proc.send_signal(signal.SIGINT)
        srv.proc.wait(timeout=TIMEOUT)
    text = rec.read_text(encoding="utf-8")
    assert "North A♠ K♠ Q♠ J♠ 10♥ 9♥ 8♥ 7♦ 6♦ 5♣ 4♣ 3♣ 2♣\n" in text and "1. North A♠\n" in text
    check = run_cli("fmt", "--check", str(rec))
    assert check.returncode == 0, check.stderr


def test_fmt_writes_a_seat_by_its_full_name(tmp_path: Path) -> None:
    # `N 4♦`, as live teaches, is read by check --fix and by fmt alike: fmt writes the name out.
    short = PAGAT.replace("2. West 5♥, North 9♥", "2. W 5♥, n 9♥")
    f = tmp_path / "short.gwy"
    f.write_text(short, encoding="utf-8")
    shown = run_cli("fmt", str(f))
    assert shown.returncode == 0, shown.stderr
    assert "2. West 5♥, North 9♥, East Q♥, South J♥\n" in shown.stdout
    assert run_cli("fmt", "--check", str(f)).returncode == 1  # not canonical yet
    assert run_cli("fmt", "--write", str(f)).returncode == 0
    assert f.read_text(encoding="utf-8") == run_cli("fmt", str(ROOT / "records" / "pagat-example.gwy")).stdout
    # a beginning two seats share is no full name: the record stays as it is, and fmt says why
    two = '%gwy 1\n%game\n[Seats "Nadia Nick"]\ndeal\nNadia 26\nNick 26\n1. N A♠, Nick 2♠\n'
    f.write_text(two, encoding="utf-8")
    r = run_cli("fmt", "--write", str(f))
    assert r.returncode != 0 and "S003" in r.stdout + r.stderr and f.read_text(encoding="utf-8") == two


WRONG_LINES = [
    (["nosuch"], "getaway-ref", "no such command 'nosuch'"),
    (["shw", "x"], "getaway-ref", "did you mean 'show'?"),
    (["show"], "getaway-ref show", "missing FILE"),
    (["show", "records/pagat-example.gwy", "--format", "xml"], "getaway-ref show",
     "--format: 'xml' is not one of text, json"),
    (["check", "--format", "xml", "records/pagat-example.gwy"], "getaway-ref check",
     "--output-format: 'xml' is not one of text, json, jsonl, github, sarif, junit"),
    (["show", "--game", "0", "records/pagat-example.gwy"], "getaway-ref show", "--game: 0 is less than 1"),
    (["show", "records/pagat-example.gwy", "--bogus"], "getaway-ref show", "no such option: --bogus"),
    (["check", "--bogus", "records/pagat-example.gwy"], "getaway-ref check", "no such option: --bogus"),
    (["check", "--select"], "getaway-ref check", "--select needs a value"),
    (["ask", "records/pagat-example.gwy"], "getaway-ref ask", "missing --trick"),
    (["show", "--game"], "getaway-ref show", "--game needs a value"),
]


@pytest.mark.parametrize(("args", "command", "said"), WRONG_LINES, ids=[" ".join(a) for a, _, _ in WRONG_LINES])
def test_a_command_line_that_cannot_be_used_is_one_line_in_one_style(args: list[str], command: str, said: str) -> None:
    # ruff's style, whichever parser read the line (argparse for check, click for the rest):
    # `error: ...` in one line, with where to look; no usage box, exit 2.
    r = run_cli(*args)
    assert r.returncode == 2 and r.stdout == ""
    (line,) = r.stderr.splitlines()
    assert line.startswith("error: ") and said in line, line
    assert line.endswith(f"(see {command} --help)"), line


@pytest.mark.parametrize("command", ["check", "show", "fmt", "export", "legal", "tally", "html", "ask"])
def test_a_missing_file_is_said_the_same_way_by_every_command(command: str, tmp_path: Path) -> None:
    extra = ["--trick", "1"] if command == "ask" else []
    r = run_cli(command, "no-such-record.gwy", *extra, cwd=tmp_path)
    assert r.returncode == 2
    errors = [line for line in r.stderr.splitlines() if line.startswith("error")]
    assert errors == ["error: no-such-record.gwy: no such file"], r.stderr


def test_version_names_the_build() -> None:
    r = run_cli("--version")
    assert r.returncode == 0
    version, build = r.stdout.splitlines()
    assert re.fullmatch(r"getaway-ref \d+\.\d+\.\d+\S*", version)
    # this checkout runs its sources (the compiled build's line: tests/test_compiled.py)
    assert build.startswith("build: Python modules") and "pip install ." in build


def test_simulate_writes_records_in_the_canonical_form(tmp_path: Path) -> None:
    # The third command that writes records: its files pass a fmt --check hook as they are.
    out = tmp_path / "sim.gwy"
    r = run_cli("simulate", "--players", "4", "--games", "3", "--seed", "2", "--mistakes", "0.05", "--comments",
                "-o", str(out))
    assert r.returncode == 0, r.stderr
    check = run_cli("fmt", "--check", str(out))
    assert check.returncode == 0, check.stderr


def test_show_ends_every_line_at_its_last_character() -> None:
    # rich pads a table's last column to its width; a copied line, a diff or a documentation
    # example must not carry those spaces (tests/test_docs_examples.py compares them exactly).
    for record in ("pagat-example.gwy", "dispute-renege-illegal.gwy", "donkey.gwy"):
        r = run_cli("show", str(ROOT / "records" / record))
        assert r.returncode == 0 and "status" in r.stdout
        assert [line for line in r.stdout.splitlines() if line != line.rstrip()] == [], record
