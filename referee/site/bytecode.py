"""The compiled modules of the site's Python, kept by the browser between starts.

Pyodide compiles every module of the package's zip from its source when it is first
imported (the zip holds sources only: its .pyc would be for the Python that built the site,
not the browser's), and it writes each compiled module beside its source as Python always
does, into the in-memory file system, which is gone at the next start. The Web Worker
(``static/worker.mjs``) keeps them instead: after a start, and after each later import of
more modules, it asks :func:`bundle` for them as one zip and puts it in the browser's cache,
under the zip's digest and the runtime's version; the next start unpacks it before it
imports anything, so a start from the cache compiles nothing. The sources are given one
fixed time when they are unpacked, the time the compiled modules were checked against, so
Python's own check (the source's time and size) finds them current; a changed source (a new
build) has another digest, and so no kept modules.

Kept with them: the parser lark built (its cache file, ``GETAWAY_CACHE_DIR``).
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

LIB = Path("/home/pyodide/lib")
BUNDLE = Path("/tmp/getaway-ref-bytecode.zip")


def _cache() -> Path:
    return Path(os.environ.get("GETAWAY_CACHE_DIR", "/home/pyodide/.cache/getaway-ref"))


def _kept(lib: Path) -> list[Path]:
    """The compiled modules under ``lib`` and the parser's cache files."""
    found = sorted(lib.rglob("__pycache__/*.pyc"))
    cache = _cache()
    if cache.is_dir():
        found += sorted(p for p in cache.iterdir() if p.is_file())
    return found


def count(lib: str | None = None) -> int:
    """How many files :func:`bundle` would keep now (the worker keeps them again when it grows)."""
    return len(_kept(Path(lib) if lib else LIB))


def bundle(lib: str | None = None) -> str:
    """The compiled modules and the parser's cache as one zip (paths from the root, stored:
    they compress little), written to a file of the in-memory file system; its path."""
    with zipfile.ZipFile(BUNDLE, "w", zipfile.ZIP_STORED) as z:
        for p in _kept(Path(lib) if lib else LIB):
            z.write(p, p.as_posix().lstrip("/"))
    return str(BUNDLE)
