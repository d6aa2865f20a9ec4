"""The ``archive`` extra (pyarrow and DuckDB): whether it is installed, and the one-line hint
when it is not. Asked without importing either, so that a command can say so before it loads
the modules that need them (``export --format parquet``, ``query``, ``explore``)."""

from __future__ import annotations

from importlib.util import find_spec

from referee.engine import language as L

MISSING_HINT = L.N_("{what} needs the archive extra (pyarrow and DuckDB): pip install 'getaway-ref[archive]'")


def missing(what: str, *, duckdb: bool = True) -> str | None:
    """The hint for ``what`` if pyarrow (and, with ``duckdb``, DuckDB) is not installed; None
    when it is."""
    needed = ("pyarrow", "duckdb") if duckdb else ("pyarrow",)
    if all(find_spec(name) is not None for name in needed):
        return None
    return L.gettext(MISSING_HINT).format(what=what)
