"""The ``serve`` table in the site's Web Worker: the same session (:class:`referee.table.session.Table`:
the entry reader, the referee's replay, the ruling, what the table shows) behind the page's
Worker messages instead of HTTP. One table at a time, the recorder's: one phone is the table.

Each call answers as ``serve``'s route of the same name answers (the same JSON, the same
refusals with the same status), plus the table as it is now (``state``: what ``serve``'s event
stream sends) and the record's text (``text``: what the page keeps in IndexedDB and exports
as the ``.gwy`` file, byte for byte the file ``serve`` would have written).
"""

from __future__ import annotations

import json
from typing import Any

from referee.commands.options import UsageError
from referee.files import WriteError
from referee.notation.reader import ReadError
from referee.site.browser import WORK, file_name, settle
from referee.site.link import encode_game, game_text
from referee.table.live import LiveError
from referee.table.session import SeatError, Table, open_session

TABLE = WORK / "table"  # the record being kept, in Pyodide's in-memory file system
RECORDER = "this-phone"  # the one phone is the recorder: no token to check, nothing reaches it from outside

_table: Table | None = None
_settled = False


def _now(extra: dict[str, Any], status: int = 200) -> str:
    """The answer, the table as it is now and the record's text, as JSON."""
    out: dict[str, Any] = {"status": status, **extra}
    if _table is None:
        return json.dumps(out, ensure_ascii=False)
    path = _table.session.path
    out["text"] = path.read_bytes().decode("utf-8") if path.exists() else _table.session.file_text()
    out["name"] = _table.session.path.name
    # The table as serve's event stream sends it, put in as the Table wrote it: it holds every
    # position of the game, and reading it only to write it again cost as much as a quarter
    # of an entry late in a game.
    return json.dumps(out, ensure_ascii=False)[:-1] + ', "state": ' + _table.message() + "}"


def open_game(text: str, name: str, seats: str | None = None, rules: str | None = None,
              deal: str | None = None) -> str:
    """Open a record (its last game continued, as ``serve FILE`` does), or with no text a new
    game (``seats``, ``rules`` and ``deal`` as ``serve``'s options)."""
    global _table, _settled
    TABLE.mkdir(parents=True, exist_ok=True)
    path = TABLE / file_name(name)
    for old in TABLE.iterdir():
        old.unlink()  # the one table: the record before it is kept by the page, not here
    if text:
        path.write_text(text, encoding="utf-8", newline="")
    try:
        session, _ = open_session(path, seats or None, rules or None, deal or None)
    except (LiveError, ReadError, WriteError) as ex:
        return json.dumps({"status": 400, "error": str(ex)}, ensure_ascii=False)
    if not text and not session.written:
        session.save()  # a new game is a record at once: the page keeps it from the start
    _table = Table(session, None, RECORDER)
    if not _settled:  # the table's modules, imported for the first game, out of the collector's way too
        settle()
        _settled = True
    return _now({})


def call(path: str, body: str) -> str:
    """One of ``serve``'s routes, answered as it answers: ``state``, ``entry``, ``undo``,
    ``new`` and ``ask``."""
    if _table is None:
        return json.dumps({"status": 409, "error": "no game is open"})
    t = _table
    try:
        got = json.loads(body or "{}")
    except ValueError:
        got = {}
    if not isinstance(got, dict):
        got = {}
    if path == "state":
        return _now({})
    if path == "entry":
        text, version = got.get("text", ""), got.get("version")
        bad = t.refuse_body(text, version)
        if bad is not None:
            return _now({"error": bad}, 400)
        assert isinstance(text, str) and isinstance(version, str)
        why = t.stale(version, text)
        if why is not None:
            return _now({"error": why, "already": t.already(version, text), "version": t.version}, 409)
        try:
            answer = t.enter(text)
        except SeatError as ex:  # not on the recorder's phone; kept for the same answers as serve
            return _now({"error": str(ex)}, 403)
        return _now({"answer": answer, "version": t.version})
    if path == "undo":
        code, undone = t.undo(str(got.get("expect", "")))
        return _now(undone, code)
    if path == "new":
        return _now({"answer": t.new_game(), "version": t.version})
    if path == "ask":
        seat = got.get("seat")
        return _now({"answer": t.ask(str(got.get("q", "")), str(seat) if seat else None)})
    return _now({"error": f"no such request: {path}"}, 404)


def share() -> str:
    """The game on the table as a link's fragment, as ``getaway-ref link`` makes it from the
    record kept (the lines before its first game, and its last game)."""
    if _table is None:
        return json.dumps({"status": 409, "error": "no game is open"})
    try:
        fragment = encode_game(game_text(_table.session.path, None))
    except UsageError as ex:
        return json.dumps({"status": 400, "error": str(ex)}, ensure_ascii=False)
    return json.dumps({"status": 200, "fragment": fragment})
