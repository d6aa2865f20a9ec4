"""``check --dask ADDRESS``: the slices that ``--jobs`` would judge, sent to a Dask cluster.

The main process cuts each file into the same byte ranges as ``--jobs`` (it reads the file
once, counting bytes, lines and games), the workers open the file themselves and judge
their slices, and the results come back in input order, so the report is byte for byte the
report of ``--jobs 1``. The files must be readable by the workers at the same path (shared
storage). Needs the ``dask`` extra: ``pip install 'getaway-ref[dask]'``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, cast

from referee.archive.slices import Judged, Slice, WorkerFailed, judge_range_with
from referee.engine.rules import RuleSet
from referee.notation.reader import ReadError

# Slices in flight on the cluster, ahead of the one being reported.
AHEAD = 64
MISSING_HINT = "--dask needs the dask extra: pip install 'getaway-ref[dask]'"


# What this module uses of distributed, in its own terms: the package type-checks the same
# whether the dask extra is installed or not (docs/architecture.md, "Types").
class _Future(Protocol):
    def result(self) -> Judged: ...


class _Client(Protocol):
    def submit(self, func: Callable[..., Judged], /, *args: object, pure: bool = ...) -> _Future: ...

    def close(self) -> object: ...


def _client_class() -> Callable[..., _Client]:
    """distributed's Client: the one import of the dask extra, with the one-line hint when
    it is not installed (an optional extra, so imported here and only here)."""
    try:
        from distributed import Client
    except ImportError:
        raise WorkerFailed(MISSING_HINT) from None
    return cast(Callable[..., _Client], Client)


class DaskRunner:
    def __init__(self, address: str, default: RuleSet | None, overrides: dict[str, object], force: bool) -> None:
        Client = _client_class()
        try:
            self.client: _Client = Client(address, timeout="10s", set_as_default=False)
        except Exception as e:  # OSError, TimeoutError, ValueError for a bad address
            raise WorkerFailed(f"cannot reach the Dask scheduler at {address}: {e}") from None
        self.settings = (default, overrides, force)

    def __call__(self, work: Iterable[Slice]) -> Iterator[Judged]:
        default, overrides, force = self.settings
        pending: deque[_Future] = deque()
        items = iter(work)
        more = True
        while True:
            while more and len(pending) < AHEAD:
                nxt = next(items, None)
                if nxt is None:
                    more = False
                    break
                # pure=False: two slices of two runs are never taken for one another.
                pending.append(self.client.submit(judge_range_with, list(nxt), default, dict(overrides), force, pure=False))
            if not pending:
                return
            fut = pending.popleft()
            try:
                result = fut.result()
            except (ReadError, OSError):
                raise
            except Exception as e:  # KilledWorker, a lost scheduler, a crash in a worker
                raise WorkerFailed(f"the Dask cluster failed on a slice: {type(e).__name__}: {e}") from None
            yield result

    def close(self, abort: bool = False) -> None:
        try:
            self.client.close()
        except Exception:
            pass
