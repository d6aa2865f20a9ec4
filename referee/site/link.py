"""``getaway-ref link FILE``: a game in a link to the site's page. The game's text travels in
the address's fragment (after ``#``, which a browser never sends to a server), deflated in
zlib's format and base64url; the page reads it back with the browser's DecompressionStream.
"""

from __future__ import annotations

import base64
import io
import zlib
from pathlib import Path

from referee.archive.inputs import holds_no_game, not_text
from referee.commands.options import UsageError
from referee.engine.language import ngettext
from referee.files import reason_of
from referee.notation.seek import game_starts
from referee.site import FRAGMENT


def game_text(path: Path, number: int | None) -> str:
    """One game of a file as a record of its own: the lines before the first game (the
    version line) and the game's own lines; ``number`` None: the last game."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise UsageError(f"{path}: {reason_of(e)}") from None
    starts = [p.start for p in game_starts(io.BytesIO(data), str(path))]
    if not starts:
        raise UsageError(holds_no_game(path))
    if number is not None and number > len(starts):
        raise UsageError(ngettext("{option}: {file} has {n} game", "{option}: {file} has {n} games", len(starts)).format(
            option=f"--game {number}", file=path, n=len(starts)))
    i = (number or len(starts)) - 1
    end = starts[i + 1] if i + 1 < len(starts) else len(data)
    try:
        return (data[:starts[0]] + data[starts[i]:end]).decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(not_text(path)) from None


def encode_game(text: str) -> str:
    """The fragment that carries a game: deflated (zlib's format, which the browser's
    DecompressionStream("deflate") reads) and base64url without padding."""
    packed = zlib.compress(text.encode("utf-8"), 9)
    return FRAGMENT + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def decode_game(fragment: str) -> str:
    """The game a fragment carries (the page does the same in JavaScript)."""
    body = fragment.lstrip("#").removeprefix(FRAGMENT)
    return zlib.decompress(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))).decode("utf-8")


def link_command(file: Path, game: int | None = None, base: str = "index.html") -> int:
    """``getaway-ref link FILE``: print the address of the site's page with the game in its fragment."""
    print(base.split("#", 1)[0] + "#" + encode_game(game_text(file, game)))
    return 0
