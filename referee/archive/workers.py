"""``check --jobs N``: slices of a file judged by N worker processes, in input order.

``concurrent.futures`` notices a worker that dies (killed by the system, out of memory):
every pending slice then fails with BrokenProcessPool, and the run ends with exit 2 and the
file's name instead of waiting for ever. Workers ignore Ctrl-C; the main process hears it and
kills them all at once.

Ctrl-C reaches the whole process group, so it must not find a worker just forked, before
its initializer ignores it: that worker would die of it (and the main process could lose its
own KeyboardInterrupt in an at-fork handler), and the run would end as if a worker had
crashed. So SIGINT is held back in the main process while it submits (the pool forks its
workers in the first submit): a worker is born with it held, ignores it, then lets it
through; the main process gets it as soon as the submit returns.

Workers end with their parent, however it ends (issue 22): otherwise a SIGTERM, SIGHUP or
SIGKILL to the main process leaves them judging for ever, holding the check's standard
output open, and whatever reads that pipe waits for ever. On Linux each worker asks the
kernel for SIGKILL when its parent dies (prctl PR_SET_PDEATHSIG), and then looks once whether
the parent is already gone (it may have died between the fork and the request). Where there
is no prctl, a thread of the worker looks at its parent's pid every half second: a worker
whose parent died has been handed to another process. And the main process, told to end by
SIGTERM or SIGHUP, kills its workers before it ends by the same signal.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from referee.archive.slices import Judged, Slice, judge_range, worker_crashed, worker_died
from referee.engine import language as L
from referee.notation.reader import RANGE_BYTES, ReadError

# Slices sent ahead of the one being reported, per worker: enough to keep the workers busy,
# few enough that results waiting for their turn stay small.
AHEAD = 3

# How long an interrupted pool's thread is waited for once its workers are killed (it ends in
# milliseconds; the bound is for a state of the pool no one foresaw).
SHUTDOWN_SECONDS = 10.0

T = TypeVar("T")


_CAN_HOLD = hasattr(signal, "pthread_sigmask")  # POSIX; Windows workers are spawned, not forked


_PR_SET_PDEATHSIG = 1  # linux/prctl.h
_ENDING_SIGNALS = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))


def _die_with(parent: int) -> None:
    """End this worker when the process ``parent`` ends, by whatever signal."""
    asked = False
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            asked = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            asked = False
    if os.getppid() != parent:  # the parent died before the request could be heard
        os.kill(os.getpid(), signal.SIGKILL)
    if not asked:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="parent-watch").start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGKILL)


def _start(parent: int, lang: str, init: Callable[..., None], args: tuple[Any, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a SIGINT held since the fork is dropped here
    for sig in _ENDING_SIGNALS:  # the main process's handlers are not the worker's
        signal.signal(sig, signal.SIG_DFL)
    _die_with(parent)
    if _CAN_HOLD:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    # The sentences in the language of the process that started the pool (--lang, or the one
    # a library caller chose for its task), whether the worker was forked or spawned.
    L.choose(lang)
    init(*args)


def _kill_workers() -> None:
    """Kill this process's worker processes now (they are its only multiprocessing children)."""
    for p in multiprocessing.active_children():
        try:
            p.kill()
        except Exception:
            pass


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """SIGINT held back (not lost) while the pool may fork a worker."""
    if not _CAN_HOLD or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class PoolRunner:
    def __init__(self, jobs: int, init: Callable[..., None], initargs: tuple[Any, ...]) -> None:
        ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
        self.jobs = jobs
        self.pool = ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_start,
                                        initargs=(os.getpid(), L.current(), init, initargs))
        self.finished = False
        self.handlers: dict[int, Any] = {}
        if threading.current_thread() is threading.main_thread():
            for sig in _ENDING_SIGNALS:
                self.handlers[sig] = signal.signal(sig, self._ended)

    def _ended(self, signum: int, frame: object) -> None:
        """SIGTERM or SIGHUP: the workers are killed, then this process ends by the same
        signal, as it would have without the handler (its exit status says which)."""
        _kill_workers()
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    def _restore(self) -> None:
        for sig, old in self.handlers.items():
            signal.signal(sig, old)
        self.handlers = {}

    def __call__(self, work: Iterable[Slice]) -> Iterator[Judged]:
        return self.map(judge_range, work)

    def map(self, task: Callable[[Slice], T], work: Iterable[Slice]) -> Iterator[T]:
        """``task`` of each slice, in the workers, the results in input order (``review``
        runs its own task on the same pool)."""
        pending: deque[Future[T]] = deque()
        items = iter(work)
        more = True
        while True:
            while more and len(pending) < self.jobs * AHEAD:
                nxt = next(items, None)
                if nxt is None:
                    more = False
                    break
                try:
                    with _sigint_held():
                        pending.append(self.pool.submit(task, nxt))
                except BrokenProcessPool:
                    raise worker_died() from None
            if not pending:
                return
            fut = pending.popleft()
            try:
                result = fut.result()
            except BrokenProcessPool:
                raise worker_died() from None
            except (ReadError, OSError):
                raise
            except Exception as e:  # a crash inside a worker: a bug, said plainly
                raise worker_crashed(e) from None
            yield result

    def slice_bytes(self, file_bytes: int) -> int:
        return RANGE_BYTES  # a local worker's slice costs a pickle each way: small slices balance best

    def close(self, abort: bool = False) -> bool:
        """Stop the pool: after its slices (``abort`` False), or now. True when the pool's
        threads have ended; False when one could not be ended within the bound (the process
        must then end without waiting for it: :func:`referee.commands.pipes.end_now`)."""
        if not abort:
            self.pool.shutdown(wait=True)
            self._restore()
            return True
        # Interrupted, a worker died, or the report's reader went away: stop every worker
        # now, not after its slice. The pool's processes are this process's children: kill
        # them through multiprocessing, not the executor's private table.
        _kill_workers()
        # A worker killed while sending its slice's result leaves half a message in the
        # result pipe, and the pool's manager thread waiting for the rest for ever: this
        # process holds the pipe's other end too (issue 36: 'check | head -1' hung once in 38
        # runs). Closed here, the pipe has no writer left once the workers are dead, and the
        # read ends at once; the pool then sees its workers gone and its thread ends.
        writer = getattr(getattr(self.pool, "_result_queue", None), "_writer", None)
        if writer is not None:
            with contextlib.suppress(OSError):
                writer.close()
        self.pool.shutdown(wait=False, cancel_futures=True)
        # Wait for the manager thread, so that the interpreter's exit does not wake a thread
        # whose pipe is already closed (a traceback at exit otherwise, now and then); but
        # within a bound, whatever state the pool's internals are left in.
        manager = getattr(self.pool, "_executor_manager_thread", None)
        if manager is not None:
            manager.join(SHUTDOWN_SECONDS)
        self._restore()
        return manager is None or not manager.is_alive()
