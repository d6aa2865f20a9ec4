"""Finding grammar/gwy.lark and building the one Lark parser the reader uses.

The grammar lives at the top of the repository (``grammar/gwy.lark``). A wheel carries a
copy inside the package (``referee/grammar/gwy.lark``, see pyproject.toml); an editable
install or a plain checkout reads it from the repository. Both are tested.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent  # the referee package
CANDIDATES = (
    _PACKAGE / "grammar" / "gwy.lark",  # installed from a wheel
    _PACKAGE.parent / "grammar" / "gwy.lark",  # editable install or checkout
)


class GrammarNotFound(RuntimeError):
    pass


def grammar_path() -> Path:
    for p in CANDIDATES:
        if p.is_file():
            return p
    raise GrammarNotFound(
        "the notation's grammar gwy.lark is missing; looked in "
        + ", ".join(str(p) for p in CANDIDATES)
        + " (reinstall getaway-ref)"
    )


def grammar_text() -> str:
    return grammar_path().read_text(encoding="utf-8")


def build_parser(transformer):
    """An LALR parser with a contextual lexer that builds records as it reduces."""
    from lark import Lark

    return Lark(
        grammar_text(),
        parser="lalr",
        lexer="contextual",
        start=["game", "line", "prelude"],
        transformer=transformer,
        maybe_placeholders=False,
        propagate_positions=False,
    )
