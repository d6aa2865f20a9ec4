"""``check --dask ADDRESS``: a file's slices, cut as for ``--jobs``, judged on a Dask cluster.

The main process cuts each file at ``%game`` lines as ``--jobs`` does (it reads the file
once, counting bytes, lines and games), in slices sized for the cluster (slice_bytes); the
workers open the file themselves and judge their slices, and the results come back in input
order, so the report is byte for byte the report of ``--jobs 1``. The files must be readable
by the workers at the same path (shared storage). Needs the ``dask`` extra:
``pip install 'getaway-ref[dask]'``.

A cluster can fail in ways a pool of local processes cannot, and none of them may leave the
user waiting for ever or reading distributed's log (issue 22): an address that cannot be one
is refused before any connection is tried; a scheduler without a worker is waited on for
``GETAWAY_DASK_WAIT`` seconds (30 by default), then the run ends; a scheduler lost mid-run
ends it too (after the client's own ten seconds of trying to reconnect). Each ends with one
line and exit 2. distributed's log goes to the terminal only when ``GETAWAY_DASK_LOG`` is set.
"""

from __future__ import annotations

import logging
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, TypeVar, cast

from referee.archive.slices import Judged, Slice, WorkerFailed, judge_range_with
from referee.engine import language as L
from referee.engine.rules import RuleSet
from referee.notation.reader import RANGE_BYTES, ReadError

# Slices in flight on the cluster, ahead of the one being reported: at least AHEAD, and
# PER_THREAD for each thread of the cluster's workers, so that a large cluster is kept busy
# while the slice at the head of the line is awaited (the report keeps the input order).
AHEAD = 64
PER_THREAD = 4
# A task on a cluster costs more than a slice sent to a local worker (the scheduler's round
# trips, the result fetched from the worker): a file is cut into about TASKS_PER_THREAD slices
# for each thread of the cluster, no smaller than a local slice and no larger than
# MOST_BYTES, so that the last slices still share out evenly (a thread idles for at most
# one slice at the end, an eighth of its share). Measured on 39.9 MB with two one-thread
# workers (2026-11-25): slices of 512 KB, 1.25 MB and 2.5 MB took 6.81, 6.67 and 6.56 s.
TASKS_PER_THREAD = 8
MOST_BYTES = 4 << 20
EXAMPLE = "tcp://10.0.0.5:8786"  # a scheduler's address as a user types it, in the refusals
MISSING_HINT = L.N_("{what} needs the dask extra: pip install 'getaway-ref[dask]'")
# How long a slice may wait while the cluster has no worker to run it, in seconds.
NO_WORKER_WAIT = 30.0
WAIT_VARIABLE = "GETAWAY_DASK_WAIT"  # the environment's setting of it
# How often the wait for a slice looks at the cluster, in seconds.
POLL = 1.0
# The loggers of distributed and of what it runs on: their lines are not the user's report.
_LOGGERS = ("distributed", "tornado", "asyncio", "bokeh")

T = TypeVar("T")


# What this module uses of distributed, in its own terms: the package type-checks the same
# whether the dask extra is installed or not (docs/architecture.md, "Types").
class _Future(Protocol):
    def result(self, timeout: float | None = ...) -> Any: ...


class _Client(Protocol):
    status: str

    def submit(self, func: Callable[..., Any], /, *args: object, pure: bool = ...) -> _Future: ...

    def nthreads(self) -> dict[str, int]: ...

    def close(self, timeout: float = ...) -> object: ...


def _client_class() -> tuple[Callable[..., _Client], Callable[[str], object]]:
    """distributed's Client and its address parser: the one import of the dask extra, with
    the one-line hint when it is not installed (an optional extra, so imported here and
    only here)."""
    try:
        from distributed import Client
        from distributed.comm.addressing import get_address_host_port
    except ImportError:
        raise WorkerFailed(L.gettext(MISSING_HINT).format(what="--dask")) from None
    if not os.environ.get("GETAWAY_DASK_LOG"):
        _quiet_logs()
    return cast(Callable[..., _Client], Client), cast(Callable[[str], object], get_address_host_port)


def _quiet_logs() -> None:
    """distributed's log (its reconnections, a lost scheduler's fifty lines) kept out of the
    terminal: each logger gets a handler that drops its lines, and hands none up to the root
    logger, whose last-resort handler would print them."""
    # distributed gives several of its loggers a handler of their own (distributed.client
    # as well as distributed): each one that exists is quieted, and those made later hand
    # their lines up to a quiet one.
    names = [n for n in list(logging.root.manager.loggerDict) if n.split(".")[0] in _LOGGERS]
    for name in {*_LOGGERS, *names}:
        logger = logging.getLogger(name)
        logger.handlers = [logging.NullHandler()]
        logger.propagate = False


def _wait_limit() -> float:
    try:
        return max(0.0, float(os.environ.get(WAIT_VARIABLE, NO_WORKER_WAIT)))
    except ValueError:
        return NO_WORKER_WAIT


class DaskRunner:
    def __init__(self, address: str, default: RuleSet | None = None, overrides: dict[str, object] | None = None,
                 force: bool = False) -> None:
        Client, host_port = _client_class()
        # An address no client here can reach is said at once: handed to Client it fails
        # only after its connection attempt, and the half-made client then spends twenty
        # seconds closing and prints a traceback (issue 36). A malformed address is one; an
        # inproc:// address is another: it names a scheduler inside the process that made
        # it, and this process makes none.
        scheme = address.partition("://")[0].lower() if "://" in address else ""
        if scheme == "inproc":
            raise WorkerFailed(L.gettext("{option} cannot reach '{address}': an {scheme} scheduler is inside the "
                                         "process that started it; give a scheduler's network address, such as "
                                         "{example}").format(option="--dask", address=address, scheme=f"{scheme}://",
                                                             example=EXAMPLE))
        try:
            host_port(address)
        except (ValueError, TypeError) as e:
            raise WorkerFailed(L.gettext("{option} takes a scheduler's address, such as {example}, not '{address}': "
                                         "{why}").format(option="--dask", example=EXAMPLE, address=address,
                                                         why=e)) from None
        try:
            self.client: _Client = Client(address, timeout="10s", set_as_default=False)
        except Exception as e:  # OSError, TimeoutError
            raise WorkerFailed(L.gettext("cannot reach the Dask scheduler at {address}: {why}").format(
                address=address, why=e)) from None
        self.address = address
        self.settings = (default, overrides or {}, force)
        self.wait = _wait_limit()
        try:
            threads = sum(self.client.nthreads().values())
        except Exception:  # the scheduler went away already: the first slice says so
            threads = 0
        self.ahead = max(AHEAD, PER_THREAD * threads)
        self.threads = threads

    def slice_bytes(self, file_bytes: int) -> int:
        share = file_bytes // (TASKS_PER_THREAD * max(1, self.threads))
        return max(RANGE_BYTES, min(MOST_BYTES, share))

    def _result(self, fut: _Future) -> Any:
        """A slice's result, waited for as long as the cluster can run it: not for ever when
        it has no worker, nor when the scheduler is lost."""
        idle_since: float | None = None
        while True:
            try:
                return fut.result(timeout=POLL)
            except TimeoutError:
                pass
            except ReadError:
                raise
            except Exception as e:  # KilledWorker, a cancelled future, a crash in a worker
                if isinstance(e, OSError) and not type(e).__module__.startswith("distributed"):
                    raise  # the worker could not read the file: said of the file, as locally
                if self.client.status != "running" or isinstance(e, OSError):
                    raise WorkerFailed(L.gettext("lost the Dask scheduler at {address}").format(
                        address=self.address)) from None
                raise WorkerFailed(L.gettext("the Dask cluster failed on a slice: {why}").format(
                    why=f"{type(e).__name__}: {e}")) from None
            if self.client.status != "running":
                continue  # reconnecting: the future is cancelled if that fails
            try:
                workers = len(self.client.nthreads())
            except Exception:
                continue  # the scheduler went away between two looks: the future says so
            now = time.monotonic()
            if workers:
                idle_since = None
            elif idle_since is None:
                idle_since = now
            elif now - idle_since >= self.wait:
                raise WorkerFailed(L.gettext("the Dask scheduler at {address} has had no worker for {seconds} s "
                                             "({variable})").format(address=self.address, seconds=f"{self.wait:g}",
                                                                    variable=WAIT_VARIABLE))

    def __call__(self, work: Iterable[Slice]) -> Iterator[Judged]:
        default, overrides, force = self.settings
        # The run's language goes with each slice: a worker says the diagnostics in it.
        return self.map(judge_range_with, work, default, dict(overrides), force, L.current())

    def map(self, task: Callable[..., T], work: Iterable[Slice], *settings: object) -> Iterator[T]:
        """``task(list(slice), *settings)`` of each slice, on the cluster, the results in input
        order (``review --dask`` runs its own task on the same path; a Dask worker has no
        initializer, so the settings go with each slice)."""
        pending: deque[_Future] = deque()
        items = iter(work)
        more = True
        while True:
            while more and len(pending) < self.ahead:
                nxt = next(items, None)
                if nxt is None:
                    more = False
                    break
                # pure=False: two slices of two runs are never taken for one another.
                pending.append(self.client.submit(task, list(nxt), *settings, pure=False))
            if not pending:
                return
            yield cast(T, self._result(pending.popleft()))

    def close(self, abort: bool = False) -> bool:
        try:
            self.client.close(timeout=5 if abort else 20)
        except Exception:
            pass
        return True  # the client's close is bounded by its timeout
