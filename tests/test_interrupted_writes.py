"""A rewrite in place cut short by a signal, at every step of it (issue 22, item 1).

A file with a second name (a hard link) is rewritten in place, which a kill can cut
half-way. The record must come out whole, its old text or its new, after any signal at any
point: the stopping signals that can be caught are held until the copy is whole, and a
SIGKILL leaves a journal that the next writing command restores.

The points are exact, not timed: a first run under strace lists every system call the
rewrite makes, from the journal's creation to the end; then each run has strace deliver a
real signal to the process as it enters one of those calls (``-e inject=...:signal=...``).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

STRACE = shutil.which("strace")
JOURNAL = ".getaway-ref-journal"
# The calls of the rewrite itself; reads, opens of modules and the like are left out.
CALLS = ("openat", "write", "fsync", "link", "unlink", "fallocate", "pwrite64", "ftruncate", "rename")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    return env


def _traced(args: list[str], cwd: Path, inject: str | None = None) -> tuple[subprocess.CompletedProcess[str], str]:
    """``getaway-ref ARGS`` under strace (the calls of CALLS traced); with ``inject``, the
    signal strace delivers. Returns the run and the trace."""
    trace = cwd.parent / f"{cwd.name}.trace"
    cmd = [STRACE or "strace", "-f", "-qq", "-o", str(trace), "-e", "trace=" + ",".join(CALLS)]
    if inject:
        cmd += ["-e", "inject=" + inject]
    r = subprocess.run(cmd + [sys.executable, "-m", "referee", *args], cwd=str(cwd), capture_output=True,
                       text=True, env=_env(), timeout=300)
    return r, trace.read_text(encoding="utf-8", errors="replace")


def _ptrace_works() -> bool:
    if STRACE is None:
        return False
    r = subprocess.run([STRACE, "-qq", "-o", os.devnull, "true"], capture_output=True)
    return r.returncode == 0


pytestmark = pytest.mark.skipif(not _ptrace_works(), reason="needs strace and the right to trace a child")


def _records(tmp: Path) -> tuple[bytes, bytes]:
    """A record of about 1.5 MB written with ASCII suits (old) and its canonical form (new):
    fmt --write turns one into the other, through two chunks of the copy."""
    r = subprocess.run([sys.executable, "-m", "referee", "simulate", "--players", "4", "--seed", "11", "--games",
                        "1100"], capture_output=True, env=_env(), timeout=300)
    assert r.returncode == 0, r.stderr
    new = r.stdout
    old = new.replace("♠".encode(), b"S").replace("♥".encode(), b"H")
    assert old != new and len(new) > (1 << 20)
    return old, new


def _setup(d: Path, old: bytes) -> tuple[Path, Path]:
    if d.exists():
        shutil.rmtree(d)
    d.mkdir()
    rec = d / "rec.gwy"
    rec.write_bytes(old)
    os.link(rec, d / "second-name.gwy")  # a second name: the rewrite must keep one file
    (d / "other.gwy").write_bytes(b"%gwy 1\n")  # another record, for the next command to write
    return rec, d / "second-name.gwy"


def _points(trace: str) -> list[tuple[str, int]]:
    """(call, its number among calls of that name) for every call from the record's opening
    for writing (or the journal's creation, if that comes first) to the end of the run: the
    points at which the rewrite can be cut."""
    seen: dict[str, int] = {}
    points = []
    started = False
    for line in trace.splitlines():
        m = re.match(r"\d+\s+(\w+)\((.*)", line)
        if not m:
            continue
        name, rest = m.group(1), m.group(2)
        seen[name] = seen.get(name, 0) + 1
        if not started and (JOURNAL in rest or ("rec.gwy" in rest and "O_RDWR" in rest)):
            started = True
        if started:
            points.append((name, seen[name]))
    return points


def _whole(rec: Path, second: Path, old: bytes, new: bytes) -> bytes:
    got = rec.read_bytes()
    assert got in (old, new), "the record is neither its old text nor its new"
    assert os.path.samefile(rec, second), "the record lost its second name"
    return got


@pytest.fixture(scope="module")
def texts(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    return _records(tmp_path_factory.mktemp("records"))


@pytest.fixture(scope="module")
def points(tmp_path_factory: pytest.TempPathFactory, texts: tuple[bytes, bytes]) -> list[tuple[str, int]]:
    old, new = texts
    d = tmp_path_factory.mktemp("plain") / "d"
    rec, second = _setup(d, old)
    r, trace = _traced(["fmt", "--write", "rec.gwy"], d)
    assert r.returncode == 0, r.stderr
    assert _whole(rec, second, old, new) == new
    pts = _points(trace)
    names = [p[0] for p in pts]
    # The rewrite's own steps are all there: the text copied in two chunks, cut to length,
    # synced.
    assert names.count("pwrite64") >= 2 and "ftruncate" in names and "fsync" in names
    assert not any(n.startswith(JOURNAL) for n in os.listdir(d))
    return pts


def test_a_kill_9_at_every_step_of_a_rewrite_in_place_is_undone_by_the_next_writing_command(
        tmp_path: Path, texts: tuple[bytes, bytes], points: list[tuple[str, int]]) -> None:
    old, new = texts
    half_written = restored = 0
    for call, n in points:
        d = tmp_path / f"{call}-{n}"
        rec, second = _setup(d, old)
        r, _ = _traced(["fmt", "--write", "rec.gwy"], d, inject=f"{call}:signal=SIGKILL:when={n}")
        assert r.returncode == -signal.SIGKILL or r.returncode == 137, (call, n, r.returncode, r.stderr)
        after_kill = rec.read_bytes()
        if after_kill not in (old, new):
            half_written += 1
            assert (d / f".rec.gwy{JOURNAL}").exists(), f"killed at {call} #{n}: half written and no journal"
        # The next writing command, on another file of the directory, puts the record right.
        nxt = subprocess.run([sys.executable, "-m", "referee", "fmt", "--write", "other.gwy"], cwd=str(d),
                             capture_output=True, text=True, env=_env(), timeout=120)
        assert nxt.returncode == 0, nxt.stderr
        assert "Traceback" not in nxt.stderr
        got = _whole(rec, second, old, new)
        if after_kill not in (old, new):
            assert got == old and "restored as it was before" in nxt.stderr
            restored += 1
        assert sorted(os.listdir(d)) == ["other.gwy", "rec.gwy", "second-name.gwy"], (call, n)
    # A kill inside the copy does leave the record half written before it is restored
    # (the copy's chunks are among the points): the journal is what put it right.
    assert half_written >= 1 and restored == half_written


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=["TERM", "INT", "HUP"])
def test_a_catchable_signal_during_the_copy_waits_until_the_record_is_whole(
        tmp_path: Path, texts: tuple[bytes, bytes], points: list[tuple[str, int]], sig: int) -> None:
    old, new = texts
    copy = [p for p in points if p[0] in ("pwrite64", "ftruncate")]
    for call, n in copy:
        d = tmp_path / f"{call}-{n}"
        rec, second = _setup(d, old)
        r, _ = _traced(["fmt", "--write", "rec.gwy"], d, inject=f"{call}:signal={signal.Signals(sig).name}:when={n}")
        assert r.returncode != 0
        assert "Traceback" not in r.stderr
        # Held until the copy was whole and synced, then obeyed: the record is the new text.
        assert _whole(rec, second, old, new) == new, (call, n)
        assert sorted(os.listdir(d)) == ["other.gwy", "rec.gwy", "second-name.gwy"]


def test_a_rewrite_cut_short_and_then_edited_is_not_restored_over_the_edit(
        tmp_path: Path, texts: tuple[bytes, bytes], points: list[tuple[str, int]]) -> None:
    """After a kill -9 mid-copy someone edits the half-written file: the next run does not
    put the old text over that edit; it keeps the old text in a file of its own and says so."""
    old, new = texts
    call, n = next(p for p in points if p[0] == "pwrite64")
    d = tmp_path / "edited"
    rec, second = _setup(d, old)
    _traced(["fmt", "--write", "rec.gwy"], d, inject=f"{call}:signal=SIGKILL:when={n + 1}")
    assert rec.read_bytes() not in (old, new)
    with open(rec, "r+b") as f:  # an editor that saves in place: the same file, other bytes
        f.write(b"%gwy 1\n# mended by hand\n")
        f.truncate()
    edited = rec.read_bytes()
    nxt = subprocess.run([sys.executable, "-m", "referee", "fmt", "--write", "other.gwy"], cwd=str(d),
                         capture_output=True, text=True, env=_env(), timeout=120)
    assert nxt.returncode == 0, nxt.stderr
    assert rec.read_bytes() == edited
    kept = d / "rec.gwy.before-interrupted-rewrite"
    assert kept.read_bytes() == old
    assert "left as it is" in nxt.stderr and str(kept.name) in nxt.stderr
    assert not (d / f".rec.gwy{JOURNAL}").exists()
