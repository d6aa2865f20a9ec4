"""``check --jobs N``: slices of a file judged by N worker processes, in input order.

``concurrent.futures`` notices a worker that dies (killed by the system, out of memory):
every pending slice then fails with BrokenProcessPool, and the run ends with exit 2 and the
file's name instead of waiting for ever. Workers ignore Ctrl-C; the main process hears it and
kills them all at once.
"""

from __future__ import annotations

import multiprocessing
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from referee.archive.slices import Judged, Slice, WorkerFailed, judge_range
from referee.notation.reader import ReadError

# Slices sent ahead of the one being reported, per worker: enough to keep the workers busy,
# few enough that results waiting for their turn stay small.
AHEAD = 3


def _start(init: Callable[..., None], args: tuple[Any, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    init(*args)


class PoolRunner:
    def __init__(self, jobs: int, init: Callable[..., None], initargs: tuple[Any, ...]) -> None:
        ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
        self.jobs = jobs
        self.pool = ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_start, initargs=(init, initargs))
        self.finished = False

    def __call__(self, work: Iterable[Slice]) -> Iterator[Judged]:
        pending: deque[Future[Judged]] = deque()
        items = iter(work)
        more = True
        while True:
            while more and len(pending) < self.jobs * AHEAD:
                nxt = next(items, None)
                if nxt is None:
                    more = False
                    break
                try:
                    pending.append(self.pool.submit(judge_range, nxt))
                except BrokenProcessPool:
                    raise WorkerFailed("a worker process died (killed by the system, or out of memory?)") from None
            if not pending:
                return
            fut = pending.popleft()
            try:
                result = fut.result()
            except BrokenProcessPool:
                raise WorkerFailed("a worker process died (killed by the system, or out of memory?)") from None
            except (ReadError, OSError):
                raise
            except Exception as e:  # a crash inside a worker: a bug, said plainly
                raise WorkerFailed(f"a worker failed: {type(e).__name__}: {e}") from None
            yield result

    def close(self, abort: bool = False) -> None:
        if not abort:
            self.pool.shutdown(wait=True)
            return
        # Interrupted, or a worker died: stop every worker now, not after its slice.
        # The pool's processes are this process's children: kill them through
        # multiprocessing, not the executor's private table.
        for p in multiprocessing.active_children():
            try:
                p.kill()
            except Exception:
                pass
        # With its workers dead the pool's manager thread ends at once: wait for it, so that
        # the interpreter's exit does not wake a thread whose pipe is already closed (a
        # traceback at exit otherwise, now and then).
        self.pool.shutdown(wait=True, cancel_futures=True)
