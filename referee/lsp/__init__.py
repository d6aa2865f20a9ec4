"""``getaway-ref lsp``: the editor server (Language Server Protocol over stdio).

It needs the optional extra ``lsp`` (pygls): ``pip install 'getaway-ref[lsp]'``.
``analysis`` holds what the server says, free of the protocol; ``server`` speaks it.
"""

from __future__ import annotations

from referee.engine.language import N_

# The semantic tokens' legend: analysis gives each token an index into these, the server
# declares them (here, so that it can answer initialize before analysis is loaded).
TOKEN_TYPES = ["keyword", "comment", "string", "property", "number", "seat", "redCard", "blackCard"]
TOKEN_MODIFIERS = ["mistake"]

# said in the chosen language where it is printed (cli.py's lsp)
MISSING_HINT = N_("the editor server needs the lsp extra: pip install 'getaway-ref[lsp]'")


def available() -> bool:
    """Whether pygls is installed."""
    try:
        import pygls  # noqa: F401
    except ImportError:
        return False
    return True
