"""The table that ``serve`` shares: one ``live`` session, the ASGI app around it.

Nothing here judges or reads an entry. An entry goes to the live session
(:class:`referee.table.live.Session`: the entry reader of :mod:`referee.table.entry`, the
referee's replay, the careful writer after every entry); the ruling is said in the
sentences of :mod:`referee.table.answers`; the table every phone sees is the replay page's
data (:func:`referee.table.page.game_data`), sent again to every phone after each change
(server-sent events).

Safe by default: on 127.0.0.1 unless ``--host`` is given; with ``--host`` every request
must carry the join token (``?t=``) or is refused (403). Changing the record needs the
recorder's token too (``&r=``), printed once, for the recorder's phone.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import segno
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from referee.engine import cards as C
from referee.engine import state as E
from referee.engine.events import TakeHand
from referee.engine.rules import RulesError, parse_spec
from referee.files import recover
from referee.notation.reader import ReadError
from referee.table import answers
from referee.table.entry import seat_matches
from referee.table.live import DEFAULT_SEATS, LiveError, Session, fresh_name
from referee.table.page import card_data, game_data, render

LOCAL = "127.0.0.1"
KEEPALIVE = 15.0  # seconds between comments on a quiet event stream, so proxies keep it open

# What live answers that the web has its own part for, or that would end a terminal session.
_NOT_HERE = {"quit": "the server stops with Ctrl-C where it was started", "exit": "", "q": "", "bye": "",
             "help": "", "h": "", "?": "", "show": "", "legal": "", "undo": "", "new": ""}


class Table:
    """The live session every phone shares, its version, and the last ruling."""

    def __init__(self, session: Session, join: str | None, recorder: str) -> None:
        self.session = session
        self.join = join
        self.recorder = recorder
        self.version = 0
        self.answered = 0
        self.answer: dict[str, Any] | None = None
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self._message = ""
        self._refresh()

    # ---- what every phone is shown --------------------------------------------------------

    def _live(self) -> dict[str, Any]:
        s = self.session
        e = s.engine
        seats = s.seats()
        lm = s.state()
        out: list[dict[str, Any]] = []
        v = e.view()
        idle = v.phase in (E.Phase.OVER, E.Phase.DRAW_DUE)
        hidden = set(v.hidden)
        for i in range(len(seats)):
            legal = e.legal(i)
            out_of_game = i in v.out_order
            legal_cards = C.sort_cards(legal.cards) if not idle and not out_of_game else []
            # The cards the seat may hold: its known cards, and the unseen ones if its hand has any.
            held = set(v.known[i]) | (hidden if v.sizes[i] > len(v.known[i]) else set())
            other = [] if idle or out_of_game else \
                [c for c in C.sort_cards(range(C.CARD_COUNT)) if c in held and c not in legal_cards]
            out.append({"seat": seats[i], "legal": [card_data(c) for c in legal_cards],
                        "other": [card_data(c) for c in other], "action": bool(legal_cards)})
        draws: list[str] = []
        if lm.draw is not None and lm.draw.source not in ("any",):
            src = "" if lm.draw.source == "waste" else f" from {lm.draw.source}"
            draws = [f"{lm.draw.seat} draws {c}{src}" for c in lm.draw.cards]
        turn = v.to_act
        takes = [a for a in e.legal_actions() if isinstance(a, TakeHand)]
        return {
            "version": self.version, "turn": s.turn_line(), "to_act": turn if turn >= 0 else None,
            "order": list(v.order), "seats": out, "takes": [f"{seats[a.taker]} takes {seats[a.target]}" for a in takes],
            "draws": draws, "undo": s.peek_undo() if s.units else "", "over": v.phase == E.Phase.OVER,
            "answer": self.answer, "game": s.number,
        }

    def _refresh(self) -> None:
        s = self.session
        self._game = game_data(answers.walk(s.game, s.default))
        self._message = json.dumps({"game": self._game, "live": self._live()}, ensure_ascii=False)
        old, self.changed = self.changed, asyncio.Event()
        old.set()

    def message(self) -> str:
        return self._message

    def page(self, role: str) -> str:
        return render({"file": self.session.path.name, "games": [self._game], "live": self._live(), "role": role},
                      serve=True)

    # ---- changing the record (the recorder only) ------------------------------------------

    def _ruling(self, lines: list[tuple[str, str]]) -> dict[str, Any]:
        """The entry's ruling: the one sentence of ``ask`` for what was recorded (or why it
        was not), and the referee's lines behind it for "why"."""
        said = [t for t, style in lines if t not in ("@show", "@legal") and style != "turn" and t.strip()]
        first = said[0] if said else ""
        kind = first.split(":", 1)[0].split(" ", 1)[0] if first else "note"
        text = first
        why = said[1:]
        if kind == "recorded":
            text = answers.live_answer("why", self.session.game, self.session.res)
            why = said
        self.answered += 1
        return {"n": self.answered, "kind": kind, "text": text, "why": "\n".join(w.strip() for w in why)}

    def enter(self, text: str) -> dict[str, Any]:
        word = " ".join(text.lower().split())
        if word in _NOT_HERE:
            ruling = {"n": self.answered + 1, "kind": "rejected", "text": f"'{text.strip()}' is not an entry here: "
                      + (_NOT_HERE[word] or "use the buttons for undo, a new game and the questions"), "why": ""}
            self.answered += 1
            self.answer = ruling
            return ruling
        before = self.session.file_text()
        lines, _ = self.session.handle(text)
        self.answer = self._ruling(lines)
        self._changed(before)
        return self.answer

    def undo(self, expect: str) -> tuple[int, dict[str, Any]]:
        s = self.session
        if not s.units:
            return 409, {"error": "nothing to undo"}
        if s.peek_undo() != expect:
            # The record changed since the phone asked: it confirms what it saw, nothing else.
            return 409, {"error": f"the last entry is now '{s.peek_undo()}', not '{expect}': look again"}
        before = s.file_text()
        self.answer = self._ruling(s.undo())
        self._changed(before)
        return 200, {"answer": self.answer}

    def new_game(self) -> dict[str, Any]:
        before = self.session.file_text()
        self.answer = self._ruling(self.session.new_game())
        self._changed(before)
        return self.answer

    def _changed(self, before: str) -> None:
        if self.session.file_text() != before:
            self.version += 1
        self._refresh()

    # ---- asking (anyone) --------------------------------------------------------------------

    def ask(self, question: str, seat: str | None) -> str:
        s = self.session
        if seat:
            hits = seat_matches(seat, s.seats())
            if len(hits) != 1:
                return f"No seat of this game is called {seat}."
            return self._seat_legal(hits[0])
        if question not in ("who", "why", "hands", "legal"):
            return "Ask who leads, why, the hands, or what may be played."
        return answers.live_answer(question, s.game, s.res)

    def _seat_legal(self, i: int) -> str:
        """What one seat may play now: the engine's legal answer for it, in words."""
        s = self.session
        e = s.engine
        name = s.seats()[i]
        v = e.view()
        if v.phase == E.Phase.OVER:
            return f"The game is over; {name} plays nothing."
        if i in v.out_order:
            return f"{name} got away and plays no more."
        whole = answers.live_answer("legal", s.game, s.res)
        if v.to_act == i:
            return whole  # the seat to act: the legal answer is about it already
        cards = " ".join(C.card_str(c) for c in C.sort_cards(e.legal(i).cards))
        if not cards:
            return f"{name} may not play now. {whole}"
        return f"{name} may play {cards}" + (" (of the cards known; unseen cards the rules allow too)"
                                             if v.sizes[i] > len(v.known[i]) else "") + f". {whole}"


# ---- the app -------------------------------------------------------------------------------------


def _refused(why: str) -> PlainTextResponse:
    return PlainTextResponse(f"refused: {why}\n", status_code=403)


def _token_ok(given: str | None, want: str | None) -> bool:
    return want is None or (given is not None and secrets.compare_digest(given.encode(), want.encode()))


def make_app(table: Table) -> Starlette:
    def joined(request: Request) -> bool:
        return _token_ok(request.query_params.get("t"), table.join)

    def recorder(request: Request) -> bool:
        return joined(request) and _token_ok(request.query_params.get("r"), table.recorder)

    async def body(request: Request) -> dict[str, Any]:
        try:
            got = await request.json()
        except ValueError:
            return {}
        return got if isinstance(got, dict) else {}

    async def page(request: Request) -> Response:
        if not joined(request):
            return _refused("this table's address carries a join token; ask whoever started serve for it")
        role = "recorder" if recorder(request) else "watcher"
        return HTMLResponse(table.page(role), headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})

    async def state(request: Request) -> Response:
        if not joined(request):
            return _refused("no join token")
        return Response(table.message(), media_type="application/json")

    async def events(request: Request) -> Response:
        if not joined(request):
            return _refused("no join token")

        async def stream() -> AsyncIterator[str]:
            while True:
                # The event and the message are replaced together, with no await between:
                # a change made while this phone is being sent one is never missed.
                changed = table.changed
                yield f"data: {table.message()}\n\n"
                while not changed.is_set():
                    try:
                        await asyncio.wait_for(changed.wait(), KEEPALIVE)
                    except TimeoutError:
                        yield ": still here\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def entry(request: Request) -> Response:
        if not recorder(request):
            return _refused("only the recorder's phone changes the record")
        text = str((await body(request)).get("text", ""))
        if not text.strip() or "\n" in text or "\r" in text:
            return JSONResponse({"error": "one entry, on one line"}, status_code=400)
        async with table.lock:
            return JSONResponse({"answer": table.enter(text)})

    async def undo(request: Request) -> Response:
        if not recorder(request):
            return _refused("only the recorder's phone changes the record")
        expect = str((await body(request)).get("expect", ""))
        async with table.lock:
            code, got = table.undo(expect)
        return JSONResponse(got, status_code=code)

    async def new(request: Request) -> Response:
        if not recorder(request):
            return _refused("only the recorder's phone changes the record")
        async with table.lock:
            return JSONResponse({"answer": table.new_game()})

    async def ask(request: Request) -> Response:
        if not joined(request):
            return _refused("no join token")
        got = await body(request)
        seat = got.get("seat")
        return JSONResponse({"answer": table.ask(str(got.get("q", "")), str(seat) if seat else None)})

    return Starlette(routes=[
        Route("/", page), Route("/state", state), Route("/events", events),
        Route("/entry", entry, methods=["POST"]), Route("/undo", undo, methods=["POST"]),
        Route("/new", new, methods=["POST"]), Route("/ask", ask, methods=["POST"]),
    ])


# ---- the command ---------------------------------------------------------------------------------


def open_session(file: Path | None, seats: str | None, rules: str | None, deal: str | None) -> Session:
    """The record's last game continued, or a new game, as ``live`` opens it."""
    path = file if file is not None else fresh_name(Path("."))
    default = None
    if rules:
        try:
            default = parse_spec(rules)
        except RulesError as ex:
            raise LiveError(f"--rules: {ex.message}") from None
    text: str | None = None
    mode: int | None = None
    recover([path])  # a rewrite of it cut short by a kill: put back before it is read, as live does
    if path.is_dir():
        raise LiveError(f"{path} is a directory")
    if path.exists() and path.stat().st_size:
        try:
            text = path.read_bytes().decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            raise LiveError(f"{path} is not UTF-8 text: not a .gwy record") from None
        except OSError as ex:
            raise LiveError(f"{path}: {ex.strerror or ex}") from None
        mode = path.stat().st_mode & 0o777
    elif not path.parent.exists():
        raise LiveError(f"{path.parent}: no such directory")
    session = Session.resume(path, text, default=default, mode=mode) if text and text.strip() else None
    if session is None:
        session = Session.start(path, text, seats.split() if seats else DEFAULT_SEATS.split(), rules or "pagat", deal,
                                default=None, mode=mode)
        session.save()  # the file exists from the start: the phones may be opened before the first entry
    session.options = {"seats": seats.split() if seats else None, "rules": rules, "deal": deal}
    return session


def _lan_address() -> str:
    """This machine's address on its network, for the phones (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 1))
            return str(s.getsockname()[0])
        except OSError:
            return LOCAL


def serve(file: Path | None, host: str | None, port: int, seats: str | None, rules: str | None,
          deal: str | None, recorder_qr: bool = False) -> int:
    out = sys.stdout
    bind = host or LOCAL
    # The port first: a server that cannot listen leaves no new file behind.
    try:
        sock = socket.create_server((bind, port), family=socket.AF_INET6 if ":" in bind else socket.AF_INET)
    except OSError as ex:
        sys.stderr.write(f"error: cannot listen on {bind} port {port}: {ex.strerror or ex}\n")
        return 2
    try:
        session = open_session(file, seats, rules, deal)
    except (LiveError, ReadError) as ex:
        sock.close()
        sys.stderr.write(f"error: {ex}\n")
        return 2
    except OSError as ex:
        sock.close()
        sys.stderr.write(f"error: {file}: {ex.strerror or ex}\n")
        return 2
    real_port = sock.getsockname()[1]
    join = secrets.token_urlsafe(12) if host is not None else None
    table = Table(session, join, secrets.token_urlsafe(12))
    shown = _lan_address() if bind in ("0.0.0.0", "::", "") else bind
    base = f"http://{'[' + shown + ']' if ':' in shown else shown}:{real_port}/"
    watch = base + (f"?t={join}" if join else "")
    record = watch + ("&" if join else "?") + f"r={table.recorder}"
    plays = sum(len(u.plays) for u in session.units)
    out.write(f"getaway-ref serve: {session.path}, " + (f"continuing game {session.number} ({plays} plays recorded)"
              if session.units else f"game {session.number}") + f", seats {' '.join(session.seats())}, "
              f"rules {session.rules.spec()}; saved after every entry\n")
    out.write(f"watch and ask:  {watch}\n")
    out.write(f"record (one phone): {record}\n")
    if host is None:
        out.write("listening on 127.0.0.1 only: give --host 0.0.0.0 for the phones on this network\n")
    if recorder_qr:
        # Asked for: whoever sees this screen can record, so it is not shown by default.
        segno.make(record, error="m").terminal(out=out, compact=True)
        out.write("scan to record (the recorder's phone only)\n")
    segno.make(watch, error="m").terminal(out=out, compact=True)
    out.write("scan to watch; Ctrl-C stops the server (the record is already saved)\n")
    out.flush()
    try:
        config = uvicorn.Config(make_app(table), log_level="warning", access_log=False, timeout_graceful_shutdown=1,
                                lifespan="off")
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    out.write(f"saved: {session.path}\n")
    return 0


__all__ = ["Table", "make_app", "open_session", "serve"]
