"""The table that ``serve`` shares: one ``live`` session, the ASGI app around it.

Nothing here judges or reads an entry. An entry goes to the live session
(:class:`referee.table.live.Session`: the entry reader of :mod:`referee.table.entry`, the
referee's replay, the careful writer after every entry); the ruling is said in the
sentences of :mod:`referee.table.answers`; the table every phone sees is the replay page's
data (:func:`referee.table.page.game_data`), sent again to every phone after each change
(server-sent events).

Safe by default: on 127.0.0.1 unless ``--host`` is given; with ``--host`` every request
must carry the join token (``?t=``) or is refused (403). Changing the record needs the
recorder's token too (``&r=``), printed once, for the recorder's phone; with
``--seat-phones`` each seat has a token of its own (``&s=``) that records that seat's plays,
takes and draws only.

At the door (:class:`Guard`, :func:`guarded_protocol`), before any of that: the ``Host``
must be the address the connection came in on (a DNS rebinding page is refused), an
``Origin`` must be the table's own, a POST must be ``application/json`` (a form or a
``text/plain`` body needs no preflight, so another site's page could send one), a body is at
most :data:`MAX_BODY` bytes (413, counted as it arrives), and a request must arrive whole
within ``--request-timeout`` seconds (408, the connection closed). An entry carries the
version of the record it was made on: a retry is refused (409, "already recorded"), so no
play is recorded twice.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import secrets
import socket
import sys
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

import h11
import segno
import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route
from uvicorn.protocols.http.h11_impl import H11Protocol

from referee.engine import language as L
from referee.engine.language import N_
from referee.files import WriteError, reason_of
from referee.notation.reader import ReadError
from referee.table.live import LiveError, Session
from referee.table.page import DIRECTIONS, render
from referee.table.session import SeatError, open_session
from referee.table.session import Table as SharedTable

LOCAL = "127.0.0.1"
KEEPALIVE = 15.0  # seconds between comments on a quiet event stream, so proxies keep it open

class Table(SharedTable):
    """The table behind ``serve``: every step that reads or changes the session (an entry,
    undo, a new game, a question) runs in a worker thread, one at a time (the app holds
    ``lock`` around it), so that the server answers the other phones meanwhile; a change is
    announced on the event loop (:meth:`publish`)."""

    def __init__(self, session: Session, join: str | None, recorder: str,
                 seat_tokens: dict[str, str] | None = None, hints: bool = False) -> None:
        super().__init__(session, join, recorder, seat_tokens, hints)
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()

    def publish(self) -> None:
        """Wake every phone's event stream (on the event loop: an asyncio.Event is not
        thread-safe)."""
        old, self.changed = self.changed, asyncio.Event()
        old.set()

    def page(self, role: str, seat: str | None = None, lang: str | None = None, direction: str | None = None) -> str:
        """The table's page in the phone's language (``lang``): its words, buttons and
        headings, and the referee's sentences (the ruling, the game's lines, whose turn it
        is), the same for every phone, each in its own. ``direction`` (``?dir=``) overrides
        the language's own."""
        game, live = self.shown(lang)
        return render({"file": self.session.path.name, "games": [game], "live": live, "role": role, "seat": seat},
                      serve=True, lang=lang, direction=direction)


# ---- guarding the door ----------------------------------------------------------------------------

MAX_BODY = 4096  # bytes: an entry is one line; a question or an undo is shorter
REQUEST_TIMEOUT = 10.0  # seconds a phone may take to send one request, headers and body


def _plain(status: int, text: str, close: bool = False) -> list[dict[str, Any]]:
    """An ASGI response of one line of text."""
    body = text.encode("utf-8") + b"\n"
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    return [{"type": "http.response.start", "status": status, "headers": headers},
            {"type": "http.response.body", "body": body}]


def _language(scope: Mapping[str, Any]) -> str:
    """The language a phone asks for its page (engine/language.py's ``for_page``): the
    address's ?lang=, the picker's cookie, the browser's Accept-Language, else serve's."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [None])[0]
    cookie = accept = None
    for k, v in scope.get("headers", []):
        key = k.decode("latin-1").lower()
        if key == "accept-language":
            accept = v.decode("latin-1")
        elif key == "cookie":
            for part in v.decode("latin-1").split(";"):
                name, _sep, value = part.strip().partition("=")
                if name == "lang":
                    cookie = value
    return L.for_page(query, cookie, accept)


def _host_port(value: str) -> tuple[str, int] | None:
    """A Host header (or an Origin's authority) as (address, port), or None."""
    try:
        parts = urlsplit("http://" + value)
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not host or parts.path or parts.query or parts.username is not None:
        return None
    return host.lower(), port if port is not None else 80


def _same_address(name: str, local: str) -> bool:
    """Whether ``name`` (from a Host header) is the address the connection came in on, or
    ``localhost`` on a loopback connection. A name a DNS server could point anywhere is not
    (DNS rebinding): the phones use the address ``serve`` prints."""
    mine = _address(local)
    if mine is None:
        return False
    if name == "localhost":
        return mine.is_loopback
    return _address(name) == mine


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An IP address written out (a zone after ``%`` dropped; an IPv4 address mapped into
    IPv6 as the IPv4 address it is), or None for a name."""
    try:
        ip = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


# The door's refusals, said in the server's language (serve's --lang, else the environment: a
# refused request is not a phone's page, so no phone language applies); the status and the
# header names stay as HTTP has them.
TWICE = N_("the {header} header is given twice")
FOREIGN_HOST = N_("this server answers at the address it printed, not at the name this request used")
FOREIGN_ORIGIN = N_("a page of another site may not use this table")
TOO_BIG = N_("a request body is at most {bytes} bytes")
NOT_JSON = N_("the table takes JSON (Content-Type: application/json)")
TOO_SLOW = N_("the request came too slowly")


def door_refusal(why: str, **fields: object) -> str:
    """A refusal at the door, in the server's language: ``why`` (one of the sentences above)
    with its places filled."""
    return L.gettext("refused: {why}").format(why=L.gettext(why).format(**fields))


class Guard:
    """In front of the app: a request is answered only if its ``Host`` is an address the
    server is reached at (else 403: DNS rebinding), it carries no foreign ``Origin`` (403: a
    page elsewhere posting here), a POST says ``application/json`` (else 415: a form or a
    ``text/plain`` body needs no preflight), and its body is at most :data:`MAX_BODY` bytes
    (413, from ``Content-Length`` before reading, or counted as a chunked body arrives). The
    body is read here, bounded, and handed to the app whole."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        why = self._refusal(scope)
        if why is not None:
            status, text = why
            for m in _plain(status, text, close=True):
                await send(m)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            m = await receive()
            if m["type"] == "http.disconnect":
                return
            part = m.get("body", b"")
            size += len(part)
            if size > MAX_BODY:
                # Refused as soon as it is too big: the rest is never read (the connection closes).
                for r in _plain(413, door_refusal(TOO_BIG, bytes=MAX_BODY), close=True):
                    await send(r)
                return
            chunks.append(part)
            if not m.get("more_body", False):
                break
        whole: dict[str, Any] | None = {"type": "http.request", "body": b"".join(chunks), "more_body": False}

        async def replay() -> Any:
            nonlocal whole
            if whole is not None:
                m, whole = whole, None
                return m
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    def _refusal(scope: dict[str, Any]) -> tuple[int, str] | None:
        headers: dict[str, str] = {}
        for k, v in scope.get("headers", []):
            key = k.decode("latin-1").lower()
            if key in headers and key in ("host", "origin", "content-type", "content-length"):
                return 400, door_refusal(TWICE, header=key)
            headers[key] = v.decode("latin-1")
        server = scope.get("server") or ("", None)
        host = _host_port(headers.get("host", ""))
        if host is None or host[1] != server[1] or not _same_address(host[0], str(server[0])):
            return 403, door_refusal(FOREIGN_HOST)
        origin = headers.get("origin")
        if origin is not None:
            scheme, _, rest = origin.partition("://")
            if scheme.lower() != "http" or _host_port(rest) != host:
                return 403, door_refusal(FOREIGN_ORIGIN)
        length = headers.get("content-length")
        if length is not None and (not length.strip().isdigit() or int(length) > MAX_BODY):
            return 413, door_refusal(TOO_BIG, bytes=MAX_BODY)
        if scope.get("method") == "POST":
            kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if kind != "application/json":
                return 415, door_refusal(NOT_JSON)
        return None


def _too_slow_answer() -> bytes:
    """The 408 written straight to the socket (no app is asked), its line in the server's language."""
    text = (door_refusal(TOO_SLOW) + "\n").encode("utf-8")
    return (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
            b"content-length: " + str(len(text)).encode() + b"\r\n\r\n" + text)


def guarded_protocol(timeout: float) -> type[H11Protocol]:
    """uvicorn's HTTP/1.1 protocol, with a deadline: each request must arrive whole (its
    headers and its body) within ``timeout`` seconds of the connection opening or of the
    answer before it, else the connection is closed (with a 408 where nothing was answered
    yet). uvicorn's own keep-alive timer stops at the first byte, so a request sent half
    would hold its connection for ever."""

    class Guarded(H11Protocol):  # type: ignore[misc,unused-ignore]  # Any where the serve extra is missing
        _deadline: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override,unused-ignore]
            super().connection_made(transport)
            self._arm()

        def handle_events(self) -> None:
            super().handle_events()
            if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE):
                self._disarm()  # the request is in: the answer may take as long as it takes (events)

        def on_response_complete(self) -> None:
            self._arm()  # armed first: a pipelined request already whole disarms it below
            super().on_response_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _too_slow(self) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            begun = self.conn.their_state is not h11.IDLE or bool(self.conn.trailing_data[0])
            if self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE) and begun:
                self.transport.write(_too_slow_answer())
            self.transport.close()

    return Guarded


# ---- the app -------------------------------------------------------------------------------------


def _refused(why: str) -> PlainTextResponse:
    """403, with why in the current language (the phone's)."""
    return PlainTextResponse(L.gettext("refused: {why}").format(why=L.gettext(why)) + "\n", status_code=403)


def _error(why: str, status: int, **more: object) -> JSONResponse:
    """An entry or undo not taken: why, in the current language (the phone's)."""
    return JSONResponse({"error": why, **more}, status_code=status)


NO_JOIN = N_("no join token")
T = TypeVar("T")


def _speaking(lang: str, work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` with its sentences in ``lang`` (a phone's), in the worker thread it runs in."""
    with L.speaking(lang):
        return work(*args)


def _token_ok(given: str | None, want: str | None) -> bool:
    return want is None or (given is not None and secrets.compare_digest(given.encode(), want.encode()))


def make_app(table: Table) -> Guard:
    def joined(request: Request) -> bool:
        return _token_ok(request.query_params.get("t"), table.join)

    def recorder(request: Request) -> bool:
        return joined(request) and _token_ok(request.query_params.get("r"), table.recorder)

    def seat_of(request: Request) -> str | None:
        """The seat whose own phone this is (--seat-phones), or None."""
        given = request.query_params.get("s")
        if not given or not joined(request):
            return None
        for token, name in table.seat_tokens.items():
            if secrets.compare_digest(given.encode(), token.encode()):
                return name
        return None

    async def body(request: Request) -> dict[str, Any]:
        try:
            got = json.loads(await request.body())
        except (ValueError, UnicodeDecodeError, RecursionError):
            return {}
        return got if isinstance(got, dict) else {}

    async def page(request: Request) -> Response:
        if not joined(request):
            with L.speaking(_language(request.scope)):
                return _refused(N_("this table's address carries a join token; ask whoever started serve for it"))
        seat = None if recorder(request) else seat_of(request)
        role = "recorder" if recorder(request) else "seat" if seat is not None else "watcher"
        # the phone's language (?lang=, its picker's cookie, Accept-Language) and ?dir= (ltr,
        # rtl) over the language's own direction; anything else is not written into the page
        direction = request.query_params.get("dir")
        lang = _language(request.scope)
        args = (role, seat, lang, direction if direction in DIRECTIONS else None)
        if table.ready(lang) is not None:
            html = await run_in_threadpool(table.page, *args)
        else:  # the table in a language not worded yet: worded while no change is being made
            async with table.lock:
                html = await run_in_threadpool(table.page, *args)
        return HTMLResponse(html, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    async def worded(lang: str) -> str:
        """The table's message in ``lang``: as it is worded already, else worded in a worker
        thread while no change is being made (it replays the game in that language)."""
        got = table.ready(lang)
        if got is None:
            async with table.lock:
                got = await run_in_threadpool(table.message, lang)
        return got

    async def state(request: Request) -> Response:
        if not joined(request):
            with L.speaking(_language(request.scope)):
                return _refused(NO_JOIN)
        # The machine's view: the same bytes whatever the language of whoever asks (its
        # sentences in English, the source, as every JSON output of getaway-ref).
        return Response(await worded(L.ENGLISH), media_type="application/json")

    async def events(request: Request) -> Response:
        lang = _language(request.scope)
        if not joined(request):
            with L.speaking(lang):
                return _refused(NO_JOIN)

        async def stream() -> AsyncIterator[str]:
            while True:
                # The event is taken before the message is: a change made while this phone
                # is being sent one sets it, and the table is sent again.
                changed = table.changed
                yield f"data: {await worded(lang)}\n\n"
                while not changed.is_set():
                    try:
                        await asyncio.wait_for(changed.wait(), KEEPALIVE)
                    except TimeoutError:
                        yield ": still here\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def entry(request: Request) -> Response:
        lang = _language(request.scope)
        with L.speaking(lang):
            return await entry_in(request, lang)

    async def entry_in(request: Request, lang: str) -> Response:
        seat = None if recorder(request) else seat_of(request)
        if not recorder(request) and seat is None:
            return _refused(N_("only the recorder's phone (or a seat's own, with --seat-phones) changes the record"))
        got = await body(request)
        text, version = got.get("text", ""), got.get("version")
        bad = table.refuse_body(text, version)
        if bad is not None:
            return _error(bad, 400)
        assert isinstance(text, str) and isinstance(version, str)

        def stale() -> Response | None:
            why = table.stale(version, text)
            return None if why is None else _error(why, 409, already=table.already(version, text),
                                                   version=table.version)

        refused = stale()  # a retry is refused at once, without waiting for an entry being judged
        if refused is not None:
            return refused
        async with table.lock:
            refused = stale()  # and an entry that waited while another changed the record
            if refused is not None:
                return refused
            try:
                answer = await run_in_threadpool(_speaking, lang, table.enter, text, seat)
            except SeatError as ex:
                return JSONResponse({"error": str(ex)}, status_code=403)
            table.publish()
            return JSONResponse({"answer": answer, "version": table.version})

    async def undo(request: Request) -> Response:
        lang = _language(request.scope)
        if not recorder(request):
            with L.speaking(lang):
                return _refused(N_("only the recorder's phone undoes"))
        expect = str((await body(request)).get("expect", ""))
        async with table.lock:
            code, got = await run_in_threadpool(_speaking, lang, table.undo, expect)
            table.publish()
        return JSONResponse(got, status_code=code)

    async def new(request: Request) -> Response:
        lang = _language(request.scope)
        if not recorder(request):
            with L.speaking(lang):
                return _refused(N_("only the recorder's phone starts the next game"))
        async with table.lock:
            answer = await run_in_threadpool(_speaking, lang, table.new_game)
            table.publish()
            return JSONResponse({"answer": answer, "version": table.version})

    async def ask(request: Request) -> Response:
        lang = _language(request.scope)
        if not joined(request):
            with L.speaking(lang):
                return _refused(NO_JOIN)
        got = await body(request)
        seat = got.get("seat")
        if got.get("q") == "hint":  # the Hint button: the words and the choices' chances (issue 41)
            async with table.lock:
                hinted = await run_in_threadpool(_speaking, lang, table.hint, str(seat) if seat else None)
            return JSONResponse(hinted)
        async with table.lock:
            said = await run_in_threadpool(_speaking, lang, table.ask, str(got.get("q", "")),
                                           str(seat) if seat else None)
        return JSONResponse({"answer": said})

    return Guard(Starlette(routes=[
        Route("/", page), Route("/state", state), Route("/events", events),
        Route("/entry", entry, methods=["POST"]), Route("/undo", undo, methods=["POST"]),
        Route("/new", new, methods=["POST"]), Route("/ask", ask, methods=["POST"]),
    ]))


# ---- the command ---------------------------------------------------------------------------------


def _lan_address() -> str:
    """This machine's address on its network, for the phones (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 1))
            return str(s.getsockname()[0])
        except OSError:
            return LOCAL


def _qr(text: str, out: Any) -> None:
    segno.make(text, error="m").terminal(out=out, compact=True)


def serve(file: Path | None, host: str | None, port: int, seats: str | None, rules: str | None,
          deal: str | None, recorder_qr: bool = False, seat_phones: bool = False,
          request_timeout: float = REQUEST_TIMEOUT, hints: bool = False) -> int:
    # Said to the host at the table in the server's language (--lang, else the environment's),
    # as the refusals at the door are; addresses, paths, seats and options stay as written.
    out = sys.stdout
    bind = host or LOCAL
    # The port first: a server that cannot listen leaves no new file behind.
    try:
        sock = socket.create_server((bind, port), family=socket.AF_INET6 if ":" in bind else socket.AF_INET)
    except OSError as ex:
        sys.stderr.write("error: " + L.gettext("cannot listen on {address} port {port}: {why}").format(
            address=bind, port=port, why=ex.strerror or ex) + "\n")
        return 2
    try:
        session, new = open_session(file, seats, rules, deal)
    except (LiveError, ReadError, WriteError) as ex:
        sock.close()
        sys.stderr.write(f"error: {ex}\n")  # said where it was made, in the same language
        return 2
    except OSError as ex:
        sock.close()
        sys.stderr.write(f"error: {file}: {reason_of(ex)}\n")  # our words for the usual reasons, translated
        return 2
    real_port = sock.getsockname()[1]
    join = secrets.token_urlsafe(12) if host is not None else None
    seat_tokens = {secrets.token_urlsafe(12): name for name in session.seats()} if seat_phones else {}
    table = Table(session, join, secrets.token_urlsafe(12), seat_tokens, hints)
    shown = _lan_address() if bind in ("0.0.0.0", "::", "") else bind
    base = f"http://{'[' + shown + ']' if ':' in shown else shown}:{real_port}/"
    watch = base + (f"?t={join}" if join else "")
    more = "&" if join else "?"
    record = watch + more + f"r={table.recorder}"
    try:
        plays = sum(len(u.plays) for u in session.units)
        fields = {"file": session.path, "game": session.number, "seats": " ".join(session.seats()),
                  "rules": session.rules.spec()}
        if session.units:
            head = L.ngettext("{file}: continuing game {game} ({n} play recorded), seats {seats}, rules {rules}; "
                              "saved after every entry",
                              "{file}: continuing game {game} ({n} plays recorded), seats {seats}, rules {rules}; "
                              "saved after every entry", plays).format(n=plays, **fields)
        else:
            head = L.gettext("{file}: game {game}, seats {seats}, rules {rules}; saved after every entry").format(**fields)
        out.write(f"getaway-ref serve: {head}\n")
        out.write(L.gettext("watch and ask: {address}").format(address=watch) + "\n")
        out.write(L.gettext("record (one phone): {address}").format(address=record) + "\n")
        if host is None:
            out.write(L.gettext("listening on {address} only: give {option} for the phones on this network").format(
                address=LOCAL, option="--host 0.0.0.0") + "\n")
        if recorder_qr:
            # Asked for: whoever sees this screen can record, so it is not shown by default.
            _qr(record, out)
            out.write(L.gettext("scan to record (the recorder's phone only)") + "\n")
        for token, name in seat_tokens.items():
            # Each player scans their own: that phone records that seat's plays, takes and draws only.
            address = watch + more + f"s={token}"
            out.write(L.gettext("{seat} records {seat}'s own plays: {address}").format(seat=name, address=address)
                      + "\n")
            _qr(address, out)
            out.write(L.gettext("scan to record {seat}'s plays ({seat}'s phone only)").format(seat=name) + "\n")
        _qr(watch, out)
        out.write(L.gettext("scan to watch; {key} stops the server (the record is already saved)").format(
            key="Ctrl-C") + "\n")
        out.flush()
        config = uvicorn.Config(make_app(table), log_level="warning", access_log=False, timeout_graceful_shutdown=1,
                                lifespan="off", http=guarded_protocol(request_timeout))
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # Ctrl-C as soon as the addresses are printed: a stop like any other
        pass
    finally:
        sock.close()
    if new and not session.written:
        # Nothing was recorded: no file (a new name was held empty), as live leaves none.
        if session.path.exists() and session.path.stat().st_size == 0:
            session.path.unlink()
        out.write(L.gettext("nothing recorded: {file} not written").format(file=session.path) + "\n")
        return 0
    out.write(L.gettext("saved: {path}").format(path=session.path) + "\n")
    return 0


__all__ = ["Guard", "Table", "guarded_protocol", "make_app", "open_session", "serve"]
