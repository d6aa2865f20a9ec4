"""``getaway-ref serve``: the live referee as a web page for the phones at the table.

It needs the optional extra ``serve`` (Starlette, uvicorn with h11, segno):
``pip install 'getaway-ref[serve]'``. ``app`` holds the table (a ``live`` session shared by
every phone) and the ASGI app; this module only checks the extra is there, so that a missing
one is a one-line hint and exit 2, not a traceback.
"""

from __future__ import annotations

import sys
from importlib.util import find_spec
from pathlib import Path

from referee.engine import language as L

# Said in the language chosen; the command's name and the install line stay as written.
MISSING_HINT = L.N_("{what} needs the serve extra: pip install 'getaway-ref[serve]'")
EXTRA = ("starlette", "uvicorn", "h11", "segno")


def available() -> bool:
    """Whether every package of the extra is installed."""
    return all(find_spec(name) is not None for name in EXTRA)


def serve_command(file: Path | None, host: str | None = None, port: int = 8765, seats: str | None = None,
                  rules: str | None = None, deal: str | None = None, recorder_qr: bool = False,
                  seat_phones: bool = False, request_timeout: float | None = None, hints: bool = False) -> int:
    if not available():
        sys.stderr.write("error: " + L.gettext(MISSING_HINT).format(what="serve") + "\n")
        return 2
    from referee.web.app import REQUEST_TIMEOUT, serve

    return serve(file, host, port, seats, rules, deal, recorder_qr, seat_phones,
                 REQUEST_TIMEOUT if request_timeout is None else request_timeout, hints)
