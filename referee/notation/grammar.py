"""Finding grammar/gwy.lark and building the one Lark parser the reader uses.

The grammar lives at the top of the repository (``grammar/gwy.lark``). A wheel carries a
copy inside the package (``referee/grammar/gwy.lark``, see pyproject.toml); an editable
install or a plain checkout reads it from the repository. Both are tested.

Building the LALR tables takes about 50 ms, a quarter of a small check's start-up, so the
built parser is kept in the user's cache directory (``$XDG_CACHE_HOME/getaway-ref`` or
``~/.cache/getaway-ref``; ``GETAWAY_CACHE_DIR`` overrides it), in a file named by the hash
of the grammar's text, lark's version, Python's version and the parser's options: a changed
grammar or a new lark gets a new file and never loads a stale one. A cache that is missing,
read-only or damaged costs only the build; it never stops a check.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any

import lark
from lark import Lark

from referee.engine.language import gettext as _

_PACKAGE = Path(__file__).resolve().parent.parent  # the referee package
NAME = "gwy.lark"
CANDIDATES = (
    _PACKAGE / "grammar" / NAME,  # installed from a wheel
    _PACKAGE.parent / "grammar" / NAME,  # editable install or checkout
)

OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "lexer": "contextual",
    "start": ["game", "line", "prelude"],
    "maybe_placeholders": False,
    "propagate_positions": False,
}


class GrammarNotFound(RuntimeError):
    pass


def grammar_path() -> Path:
    for p in CANDIDATES:
        if p.is_file():
            return p
    raise GrammarNotFound(_("the notation's grammar {name} is missing (looked in {places}); reinstall getaway-ref").format(
        name=NAME, places=", ".join(str(p) for p in CANDIDATES)))


def grammar_text() -> str:
    return grammar_path().read_text(encoding="utf-8")


def cache_dir() -> Path:
    """Where the built parser is kept (the directory may not exist yet)."""
    own = os.environ.get("GETAWAY_CACHE_DIR")
    if own:
        return Path(own)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "getaway-ref"


def cache_file(text: str) -> Path:
    """The cache file of the parser built from grammar ``text`` by this lark and Python."""
    key = "\n".join([text, lark.__version__, "{}.{}".format(*sys.version_info[:2]), repr(sorted(OPTIONS.items()))])
    return cache_dir() / f"gwy-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:24]}.lark"


def build_parser(transformer: Any) -> Lark:
    """An LALR parser with a contextual lexer that builds records as it reduces."""
    text = grammar_text()
    path = cache_file(text)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass  # a read-only home: lark reads the cache if it is there, and builds if not
    # lark checks the file's own hash of the grammar and options before it trusts it, and
    # carries on without it when it cannot read or write it (a damaged or read-only cache).
    return Lark(text, transformer=transformer, cache=str(path), **OPTIONS)
