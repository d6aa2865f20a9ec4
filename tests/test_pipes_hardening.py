"""``check ... | head -1`` ends every time, silently, with exit 2 (issue 36, item 3).

A check with worker processes whose reader goes away kills its workers and stops its pool.
A worker killed while sending its slice's result left half a message in the result pipe, and
the pool's thread waited for the rest for ever (once in 38 runs of ``check --format json`` on a
4,000-game archive piped to ``head -1``). The shutdown is bounded now. The hang detector below
is a generous timeout on a subprocess, not a measure of speed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import ROOT

HANG = 120  # seconds: a run that takes this long has hung (a run takes about one)


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """An archive of 1,200 games: 60 played by the bots, said 20 times over."""
    d = tmp_path_factory.mktemp("pipes")
    one = d / "sixty.gwy"
    subprocess.run([sys.executable, "-m", "referee", "simulate", "--players", "4", "--games", "60", "--seed", "3",
                    "-o", str(one)], cwd=ROOT, check=True, capture_output=True, timeout=HANG)
    text = one.read_text(encoding="utf-8")
    body = text[text.index("%game"):]
    path = d / "club.gwy"
    path.write_text(text + "\n" + "\n".join([body] * 19), encoding="utf-8")
    return path


@pytest.mark.skipif(sys.platform == "win32", reason="closes a pipe as head does (POSIX)")
def test_check_piped_to_head_ends_silently_with_exit_2_every_time(archive):
    """The reader of the report reads one line and goes away, as ``head -1`` does, while both
    workers judge: every run ends at once, exit 2, nothing on standard error."""
    env = dict(os.environ, GETAWAY_RANGE_BYTES="20000")  # many slices: the workers are busy
    outcomes = []
    for fmt in ["json"] * 10:  # json writes a line a game: the pipe fills while the workers judge
        p = subprocess.Popen([sys.executable, "-m", "referee", "check", "--format", fmt, "--jobs", "2", str(archive)],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True)
        assert p.stdout is not None
        p.stdout.readline()
        p.stdout.close()
        try:
            _, err = p.communicate(timeout=HANG)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            p.communicate()
            pytest.fail(f"check --format {fmt} | head -1 hung (runs before: {outcomes})")
        outcomes.append((fmt, p.returncode, err.decode(errors="replace")))
    assert all(code == 2 and err == "" for _, code, err in outcomes), outcomes


# The pool's own shutdown, in the state the rare run met, made likely: a worker's result (16 MB)
# is on its way through the result pipe when the workers are killed. The main thread keeps
# the interpreter busy meanwhile, so the pool's thread reads the pipe slowly.
POOL_SCRIPT = textwrap.dedent("""
    import multiprocessing, sys, threading, time
    from referee.archive.workers import PoolRunner

    sent = multiprocessing.get_context("fork").Event()

    def big(_):
        sent.set()
        return b"x" * (16 << 20)

    def nothing():
        pass

    def first():
        try:
            next(results, None)
        except Exception:  # the workers killed: the result never comes
            pass

    runner = PoolRunner(2, nothing, ())
    results = runner.map(big, range(4))
    threading.Thread(target=first, daemon=True).start()
    sent.wait(60)
    end = time.perf_counter() + 0.3
    while time.perf_counter() < end:  # busy: the pool's thread gets the interpreter now and then
        pass
    ended = runner.close(abort=True)
    print("closed", ended, flush=True)
""")


@pytest.mark.skipif(sys.platform == "win32", reason="forks its workers")
@pytest.mark.parametrize("run", range(2))
def test_a_pool_stopped_while_a_result_is_on_its_way_ends(run):
    try:
        r = subprocess.run([sys.executable, "-c", POOL_SCRIPT], cwd=ROOT, capture_output=True, text=True,
                           timeout=HANG, start_new_session=True)
    except subprocess.TimeoutExpired:
        pytest.fail("the pool's shutdown hung with a result half sent")
    assert r.returncode == 0 and r.stdout == "closed True\n", (r.stdout, r.stderr[-2000:])
