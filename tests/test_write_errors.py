"""A write that fails is one line and exit 2, whatever command writes (issue 36, item 5).

Under a file size limit of 0 (``ulimit -f 0``) nothing can be written to any file, not even
the trial file Python's ``tempfile`` writes to find a temporary directory: every writing
command used to end in a traceback ("No usable temporary directory found") with exit 1,
the code for mistakes found. Each command runs here as a user runs it, a subprocess with
the limit set in the child (SIGXFSZ ignored, as a shell that reports the error has it), and
must say ``error: FILE: ...the file size limit...`` in one line, exit 2, and leave every file
as it was. Commands that only read keep working under the limit: their output goes to a
pipe, and what they hold back while reading is held in memory instead.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import RECORDS, ROOT

PAGAT = (RECORDS / "pagat-example.gwy").read_bytes()
# The same record, not in canonical form (spaces at the ends of its lines): fmt --write
# has something to write.
MESSY = b"\n".join(line + b"  " if line else line for line in PAGAT.split(b"\n"))
# No version line and a seat's beginning: check --fix has two safe fixes to write.
FIXABLE = PAGAT.removeprefix(b"%gwy 1\n").replace("2. West 5♥, North 9♥".encode(), "2. W 5h, N 9♥".encode())
LIMIT_SAID = "file size limit"


def under_limit(*args: str, cwd: Path, sigxfsz: str = "ignored") -> subprocess.CompletedProcess[str]:
    """``getaway-ref ARGS`` with a file size limit of 0 bytes. ``sigxfsz``: "ignored" as a
    shell may leave it, or "default" (it would end the process: the command ignores it
    itself and reports the error)."""

    def child() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN if sigxfsz == "ignored" else signal.SIG_DFL)

    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=str(cwd), capture_output=True, text=True,
                          timeout=120, preexec_fn=child, env=dict(os.environ, PYTHONPATH=str(ROOT)))


def one_line(r: subprocess.CompletedProcess[str], path: str) -> str:
    """The command's one line: ``error: PATH: ...`` naming the limit, exit 2, no traceback."""
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    errors = [line for line in r.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, r.stderr
    assert errors[0].startswith(f"error: {path}: ") and LIMIT_SAID in errors[0], r.stderr
    return errors[0]


def files_of(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


@pytest.mark.parametrize("sigxfsz", ["ignored", "default"])
def test_fmt_write_says_the_limit_in_one_line_and_keeps_the_record(tmp_path: Path, sigxfsz: str) -> None:
    (tmp_path / "rec.gwy").write_bytes(MESSY)
    r = under_limit("fmt", "--write", "rec.gwy", cwd=tmp_path, sigxfsz=sigxfsz)
    assert "unchanged" in one_line(r, "rec.gwy")
    assert files_of(tmp_path) == {"rec.gwy": MESSY}


def test_fmt_write_in_place_a_hard_linked_record_keeps_it(tmp_path: Path) -> None:
    # Two names for one file: rewritten in place, through a journal, which cannot be written either.
    (tmp_path / "rec.gwy").write_bytes(MESSY)
    os.link(tmp_path / "rec.gwy", tmp_path / "other.gwy")
    r = under_limit("fmt", "--write", "rec.gwy", cwd=tmp_path)
    one_line(r, "rec.gwy")
    assert files_of(tmp_path) == {"other.gwy": MESSY, "rec.gwy": MESSY}
    assert os.stat(tmp_path / "rec.gwy").st_nlink == 2


def test_simulate_output_says_the_limit_and_leaves_nothing(tmp_path: Path) -> None:
    r = under_limit("simulate", "--seed", "3", "-o", "sim.gwy", cwd=tmp_path)
    assert "nothing was written" in one_line(r, "sim.gwy")
    assert files_of(tmp_path) == {}


def test_simulate_force_over_a_record_keeps_it(tmp_path: Path) -> None:
    (tmp_path / "rec.gwy").write_bytes(PAGAT)
    r = under_limit("simulate", "-o", "rec.gwy", "--force", cwd=tmp_path)
    assert "unchanged" in one_line(r, "rec.gwy")
    assert files_of(tmp_path) == {"rec.gwy": PAGAT}


@pytest.mark.parametrize("page", ["new", "existing"])
def test_html_output_says_the_limit_and_keeps_the_page(tmp_path: Path, page: str) -> None:
    (tmp_path / "rec.gwy").write_bytes(PAGAT)
    if page == "existing":
        (tmp_path / "page.html").write_bytes(b"<p>the user's own page</p>\n")
    before = files_of(tmp_path)
    r = under_limit("html", "rec.gwy", "-o", "page.html", cwd=tmp_path)
    one_line(r, "page.html")
    assert files_of(tmp_path) == before


def test_check_fix_says_the_limit_reports_the_record_and_exits_2(tmp_path: Path) -> None:
    (tmp_path / "rec.gwy").write_bytes(FIXABLE)
    r = under_limit("check", "--fix", "rec.gwy", cwd=tmp_path)
    one_line(r, "rec.gwy")
    assert "fixed" not in r.stderr
    assert "S005" in r.stdout  # the check still reports what it could not fix
    assert files_of(tmp_path) == {"rec.gwy": FIXABLE}


@pytest.mark.parametrize("command", [["fmt", "rec.gwy"], ["tally", "rec.gwy"]])
def test_reading_commands_still_answer_under_the_limit(tmp_path: Path, command: list[str]) -> None:
    """Their output goes to a pipe, which the limit does not touch: what they hold back
    until a record has read cleanly waits in memory, not in a temporary file."""
    (tmp_path / "rec.gwy").write_bytes(MESSY)
    r = under_limit(*command, cwd=tmp_path)
    assert r.returncode in (0, 1), (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and "error:" not in r.stderr
    assert r.stdout.strip()
    if command[:2] == ["fmt", "rec.gwy"]:
        assert r.stdout.encode() == PAGAT
    assert files_of(tmp_path) == {"rec.gwy": MESSY}


def test_an_unforeseen_io_error_is_one_line_through_the_common_path(tmp_path: Path) -> None:
    """A command that keeps a report in a temporary file (check's JUnit XML) meets the
    limit where no command looked for it: the commands' common error path says it in one
    line, exit 2."""
    (tmp_path / "rec.gwy").write_bytes(PAGAT)
    r = under_limit("check", "-f", "junit", "rec.gwy", cwd=tmp_path)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and LIMIT_SAID in lines[0], r.stderr


@pytest.mark.parametrize("command", [["fmt", "rec.gwy"], ["export", "rec.gwy"], ["check", "rec.gwy"], ["simulate"]])
def test_output_sent_to_a_file_under_the_limit_is_said_as_standard_output(tmp_path: Path, command: list[str]) -> None:
    """``getaway-ref ... > out`` under the limit: the output cannot be written, and the one
    line names standard output, not the record the command read."""
    (tmp_path / "rec.gwy").write_bytes(PAGAT)

    def child() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    with open(tmp_path / "out.txt", "wb") as out:
        r = subprocess.run([sys.executable, "-m", "referee", *command], cwd=str(tmp_path), stdout=out,
                           stderr=subprocess.PIPE, text=True, timeout=120, preexec_fn=child,
                           env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 2, (r.returncode, r.stderr)
    lines = [line for line in r.stderr.splitlines() if line.strip() and not line.startswith("simulated")]
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert lines[0].startswith("error: standard output: ") and LIMIT_SAID in lines[0], r.stderr
    assert (tmp_path / "rec.gwy").read_bytes() == PAGAT
