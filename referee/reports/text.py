"""Text from records, file names and arguments, made safe to print on a terminal.

A record is the user's text and may hold anything: escape sequences that would recolour or
move the cursor, bidi controls that reorder what is shown (so a line reads other than it
is), NUL. Printed, they are shown escaped (``\\x1b``, ``\\u202e``), so what is on the screen
is what is in the file. Nothing here is ever read as rich markup: callers print ``Text``
objects or ``markup=False``.
"""

from __future__ import annotations

import re

# C0 controls but the tab, DEL, C1 controls; the bidi embeddings, overrides and isolates and
# the marks; the line and paragraph separators (they break a line where the file has none).
# Lone surrogates too: a file name that is not UTF-8 reaches Python as surrogate escapes, and
# printed raw they would put its undecodable bytes on the terminal.
_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(m: re.Match[str]) -> str:
    c = ord(m.group(0))
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def safe(s: str) -> str:
    """``s`` with every control character shown escaped; tabs stay tabs."""
    return _UNSAFE.sub(_escape, s) if _UNSAFE.search(s) else s


def safe_width(s: str) -> int:
    """How many characters ``safe(s)`` has (for putting a caret under the right place)."""
    return len(safe(s))


def safe_path(p: object) -> str:
    """A file name for a message: escaped, and a name that is not UTF-8 (surrogate escapes
    from the file system) shown with its bytes."""
    s = str(p)
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        s = s.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return safe(s)


# In JSON, control characters are escaped already (below U+0020); these others are valid raw
# and would still act on a terminal, so they are written as \uXXXX escapes: the same JSON.
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def json_safe(s: str) -> str:
    """JSON text with the characters that act on a terminal written as escapes."""
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", s) if _JSON_UNSAFE.search(s) else s
