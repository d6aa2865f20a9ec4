"""How many processes ``check`` judges in: ``--jobs N``, or ``--jobs auto`` (the default).

Workers pay for themselves only on large inputs: starting a pool and sending each worker its
slices costs about a tenth of a second, about what one process needs for a megabyte of
records. So ``auto`` means one process below ``AUTO_MIN_BYTES`` of input (every single
record, and any small archive), and above it one worker per core available to this process
(``os.sched_getaffinity``: a container or ``taskset`` may allow fewer than the machine has),
but no more workers than the input has slices of ``SLICE_BYTES`` to share out.
"""

from __future__ import annotations

import os

from referee.engine import language as L

# Input bytes from which `--jobs auto` starts workers (measured by bench/speed.py: below it a
# pool of two workers is no faster than one process on the development machine).
AUTO_MIN_BYTES = 1 << 20
# The size of the slices check cuts a file into for its workers (reader.RANGE_BYTES).
SLICE_BYTES = 1 << 18


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


def bad_jobs(value: object) -> ValueError:
    """``--jobs``' refusal (its text the user reads, in the chosen language; the value as given)."""
    return ValueError(L.gettext("{option} takes a number of processes (1 or more) or 'auto', not '{value}'").format(
        option="--jobs", value=value))


def parse_jobs(text: str) -> int | None:
    """``--jobs``' value: a number of processes, or None for 'auto'. Raises ValueError."""
    word = text.strip().lower()
    if word == "auto":
        return None
    if word.isascii() and word.isdigit() and int(word) >= 1:
        return int(word)
    raise bad_jobs(text)


def choose_jobs(total_bytes: int, requested: str | int, cores: int | None = None) -> int:
    """The number of processes to judge ``total_bytes`` of records in.

    ``requested`` is ``--jobs``' value: a number is taken as it is; 'auto' gives one process
    for a small input and up to one per available core for a large one."""
    wanted = requested if isinstance(requested, int) else parse_jobs(requested)
    if wanted is not None:
        if wanted < 1:
            raise bad_jobs(wanted)
        return wanted
    if total_bytes < AUTO_MIN_BYTES:
        return 1
    cores = available_cores() if cores is None else cores
    slices = -(-total_bytes // SLICE_BYTES)
    return max(1, min(cores, slices))
