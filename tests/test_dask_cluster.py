"""check --dask against a real cluster, started as a club runs one: `dask scheduler` and
`dask worker` as processes of their own on 127.0.0.1. A cluster that loses its worker or its
scheduler, or an address that cannot be one, ends the check with one line and exit 2, after a
bounded wait, and distributed's log stays out of the user's terminal (issue 22)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

pytest.importorskip("distributed", reason="the dask extra is part of the test extra")

DASK = [sys.executable, "-m", "dask", "scheduler"]  # `dask scheduler`, in this environment
WORKER = [sys.executable, "-m", "dask", "worker"]


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("sim") / "club.gwy"
    subprocess.run([sys.executable, "-m", "referee", "simulate", "--players", "4", "--games", "3000", "--seed", "4",
                    "-o", str(path)], cwd=ROOT, check=True, capture_output=True)
    return path


class Cluster:
    def __init__(self, tmp: Path) -> None:
        self.file = tmp / "scheduler.json"
        self.procs: dict[str, subprocess.Popen] = {}
        self.tmp = tmp

    def start_scheduler(self) -> str:
        self.procs["scheduler"] = subprocess.Popen(
            [*DASK, "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file", str(self.file)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=self.tmp)
        for _ in range(1200):
            if self.file.exists():
                try:
                    return str(json.loads(self.file.read_text())["address"])
                except (ValueError, KeyError):
                    pass
            time.sleep(0.05)
        pytest.fail("the Dask scheduler did not start")

    def start_worker(self) -> None:
        log = self.tmp / "worker.log"
        with open(log, "wb") as out:
            self.procs["worker"] = subprocess.Popen(
                [*WORKER, "--scheduler-file", str(self.file), "--nthreads", "1", "--no-nanny", "--no-dashboard",
                 "--host", "127.0.0.1"], stdout=out, stderr=out, cwd=self.tmp)
        for _ in range(1200):
            if b"Registered to" in log.read_bytes():
                return
            time.sleep(0.05)
        pytest.fail("the Dask worker did not join")

    def kill(self, name: str) -> None:
        p = self.procs.pop(name)
        p.send_signal(signal.SIGKILL)
        p.wait()

    def stop(self) -> None:
        for name in list(self.procs):
            self.kill(name)


@pytest.fixture
def cluster(tmp_path) -> Iterator[Cluster]:
    c = Cluster(tmp_path)
    try:
        yield c
    finally:
        c.stop()


def _check(address: str, path: Path, *extra: str) -> subprocess.Popen:
    env = dict(os.environ, GETAWAY_DASK_WAIT="3", GETAWAY_RANGE_BYTES="30000")
    return subprocess.Popen([sys.executable, "-m", "referee", "check", *extra, "--dask", address, str(path)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _finish(p: subprocess.Popen) -> tuple[str, str]:
    try:
        return p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        pytest.fail("check --dask waited for ever")


def _said_once(err: str, words: str) -> None:
    assert words in err, err
    assert len(err.strip().splitlines()) == 1, f"more than the one line: {err}"
    assert "Traceback" not in err and "distributed." not in err


def test_a_scheduler_without_a_worker_ends_the_check_after_a_bounded_wait(cluster, archive):
    address = cluster.start_scheduler()
    out, err = _finish(_check(address, archive, "-q"))
    _said_once(err, "has had no worker for 3 s")


def test_a_worker_that_dies_mid_run_ends_the_check_after_a_bounded_wait(cluster, archive):
    address = cluster.start_scheduler()
    cluster.start_worker()
    p = _check(address, archive, "--show-games")
    assert p.stdout is not None
    assert "game 1" in p.stdout.readline()  # the run is under way: games are reported
    cluster.kill("worker")
    out, err = _finish(p)
    assert p.returncode == 2
    _said_once(err, "has had no worker")


def test_a_scheduler_that_dies_mid_run_is_one_line_and_exit_2(cluster, archive):
    address = cluster.start_scheduler()
    cluster.start_worker()
    p = _check(address, archive, "--show-games")
    assert p.stdout is not None
    assert "game 1" in p.stdout.readline()
    cluster.kill("scheduler")
    out, err = _finish(p)
    assert p.returncode == 2
    _said_once(err, f"lost the Dask scheduler at {address}")


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:notaport", "garbage:://", "tcp://"])
def test_a_malformed_address_is_one_line_and_exit_2(address):
    r = run_cli("check", "--dask", address, str(ROOT / "records" / "series.gwy"))
    assert r.returncode == 2
    _said_once(r.stderr, f"--dask takes a scheduler's address, such as tcp://10.0.0.5:8786, not '{address}'")
    assert "Exception ignored" not in r.stderr
