"""Archives at any size: workers that fail loudly, game N found at once, streamed output equal
to the whole-file output, hostile names and text kept inert, and work that grows linearly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import RECORDS, ROOT, run_cli

SERIES = RECORDS / "series.gwy"  # 5 finished games


def repeat(dst: Path, games: int, src: Path = SERIES) -> Path:
    """A record of ``games`` games, the source's games over and over."""
    text = src.read_text(encoding="utf-8")
    body = text[text.index("%game"):]
    pieces = ["%game" + p.rstrip("\n") + "\n\n" for p in body.split("%game")[1:]]
    with open(dst, "w", encoding="utf-8") as f:
        f.write("%gwy 1\n\n")
        for n in range(games):
            f.write(pieces[n % len(pieces)])
    return dst


def _children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _start_check(path: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "referee", "check", "-q", "--jobs", "2", *extra, str(path)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _wait_for_workers(p: subprocess.Popen, n: int = 2) -> list[int]:
    for _ in range(600):
        kids = _children(p.pid)
        if len(kids) >= n:
            return kids
        if p.poll() is not None:
            break
        time.sleep(0.05)
    pytest.fail("the check ended before its workers could be seen")


# ---- workers that fail loudly ------------------------------------------------------------------


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds the workers through /proc (Linux)")
def test_a_killed_worker_ends_the_run_with_exit_2_naming_the_file(tmp_path):
    big = repeat(tmp_path / "archive.gwy", 20000)
    p = _start_check(big)
    kids = _wait_for_workers(p)
    os.kill(kids[0], signal.SIGKILL)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 2, (out, err)
    assert str(big) in err and "worker" in err
    assert "Traceback" not in err


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds the workers through /proc (Linux)")
def test_ctrl_c_stops_every_worker_at_once(tmp_path):
    big = repeat(tmp_path / "archive.gwy", 20000)
    p = _start_check(big)
    kids = _wait_for_workers(p)
    os.killpg(p.pid, signal.SIGINT)  # what the terminal sends to the whole group
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, (out, err)
    assert "interrupted" in err and "Traceback" not in err
    for _ in range(100):
        alive = [k for k in kids if Path(f"/proc/{k}").exists() and "zombie" not in
                 Path(f"/proc/{k}/status").read_text(errors="replace").lower()]
        if not alive:
            break
        time.sleep(0.05)
    assert not alive, "workers outlived the interrupted check"


def test_jobs_report_equals_the_single_process_report(tmp_path):
    f = repeat(tmp_path / "a.gwy", 40)
    env = dict(os.environ, GETAWAY_RANGE_BYTES="2000")  # many slices
    one = subprocess.run([sys.executable, "-m", "referee", "check", str(f)], cwd=ROOT, capture_output=True, text=True)
    two = subprocess.run([sys.executable, "-m", "referee", "check", "--jobs", "2", str(f)], cwd=ROOT,
                         capture_output=True, text=True, env=env)
    assert one.returncode == two.returncode
    assert one.stdout == two.stdout and "40 games" in one.stdout


# ---- inputs: standard input, directories, special files, names ---------------------------------


def test_check_reads_standard_input():
    text = (RECORDS / "pagat-example.gwy").read_text(encoding="utf-8")
    r = run_cli("check", "-", input=text)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("<stdin>:5: game 1")
    bad = run_cli("check", "-", input=(RECORDS / "dispute-after-tochoo-illegal.gwy").read_text(encoding="utf-8"))
    assert bad.returncode == 1 and "--> <stdin>:17:38" in bad.stdout


def test_check_of_a_directory_says_how_many_files_it_read(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b").mkdir()
    for p in ("one.gwy", "a/two.gwy", "a/b/three.gwy"):
        (tmp_path / p).write_text((RECORDS / "pagat-example.gwy").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "a" / "notes.txt").write_text("not a record", encoding="utf-8")
    r = run_cli("check", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "checked 3 files, 3 games" in r.stdout


@pytest.mark.parametrize("command", ["check", "fmt", "export", "show", "legal", "tally"])
def test_a_special_file_is_one_line_and_exit_2(command):
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    r = subprocess.run([sys.executable, "-m", "referee", command, "/dev/zero"], cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2, (r.stdout, r.stderr)
    said = r.stderr if command != "tally" else r.stdout + r.stderr  # tally lists unreadable files in its table
    assert "not a regular file" in said and "Traceback" not in r.stderr


@pytest.mark.parametrize("command", ["check", "fmt", "export", "show", "legal", "tally"])
def test_an_overlong_file_name_is_one_line_and_exit_2(command):
    r = run_cli(command, "x" * 300 + ".gwy")
    assert r.returncode == 2
    said = r.stderr if command != "tally" else r.stdout + r.stderr
    assert "longer than 255 bytes" in said and "Traceback" not in r.stderr


# ---- Dask: the same slices on a cluster, the same report -----------------------------------------


def test_dask_report_is_byte_for_byte_the_local_report(tmp_path):
    distributed = pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    archive = repeat(tmp_path / "archive.gwy", 30)
    broken = tmp_path / "broken.gwy"
    broken.write_text((RECORDS / "dispute-after-tochoo-illegal.gwy").read_text(encoding="utf-8"), encoding="utf-8")
    env = dict(os.environ, GETAWAY_RANGE_BYTES="3000")  # many slices, in flight together
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        for fmt in ("text", "json"):
            args = ["check", "--format", fmt, str(archive), str(broken)]
            local = subprocess.run([sys.executable, "-m", "referee", *args, "--jobs", "1"], cwd=ROOT,
                                   capture_output=True, text=True)
            remote = subprocess.run([sys.executable, "-m", "referee", *args, "--dask", cluster.scheduler_address],
                                    cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)
            assert remote.returncode == local.returncode == 1, remote.stderr
            assert remote.stdout == local.stdout


def test_dask_scheduler_out_of_reach_is_one_line_and_exit_2():
    pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    r = run_cli("check", "--dask", "tcp://127.0.0.1:9", str(SERIES))
    assert r.returncode == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in r.stderr and "Traceback" not in r.stderr
