"""``getaway-ref serve`` at its door: what a request must be to be answered, tested against a
real server on 127.0.0.1 with raw sockets (a browser would never send most of these).

A body past a few KB is refused (413) from its Content-Length, or, chunked, as soon as the
count passes the limit, without waiting for the rest; a foreign Origin, a Host that is not
the server's address (DNS rebinding) and a body that is not JSON are refused; a request sent
half is cut off while the others are answered; an entry sent twice is recorded once; a
seat's own phone records that seat only; a temporary file of ours left by a kill is removed
at the next start; a server that recorded nothing leaves no file. Every wait is bounded
(WAIT, a hang detector), never a duration asserted.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from conftest import ROOT, run_cli
from test_serve import POSITION, WAIT, Server, _query

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

LIMIT = 4096  # the documented bound on a request body (referee.web.app.MAX_BODY)


def _addr(srv: Server) -> tuple[str, int]:
    u = urlsplit(srv.base)
    assert u.hostname is not None and u.port is not None
    return u.hostname, u.port


def _connect(srv: Server) -> socket.socket:
    s = socket.create_connection(_addr(srv), timeout=WAIT)
    s.settimeout(WAIT)
    return s


def _read_all(s: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (WAIT at most)."""
    got = b""
    while True:
        try:
            part = s.recv(65536)
        except ConnectionResetError:
            return got
        if not part:
            return got
        got += part


def _read_response(s: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One response: its status, headers and body (by Content-Length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        part = s.recv(65536)
        if not part:
            raise AssertionError(f"the server closed the connection without an answer: {data!r}")
        data += part
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        part = s.recv(65536)
        if not part:
            break
        rest += part
    return status, headers, rest[:length]


def request(srv: Server, method: str, target: str, body: bytes | None = None, *,
            headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """One request on its own connection, the headers exactly as given (Host added unless given)."""
    host, port = _addr(srv)
    h = {"Host": f"{host}:{port}", "Connection": "close"}
    if body is not None:
        h["Content-Length"] = str(len(body))
    h.update(headers or {})
    raw = f"{method} {target} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in h.items() if v is not None) + "\r\n"
    with _connect(srv) as s:
        s.sendall(raw.encode("latin-1") + (body or b""))
        status, _, got = _read_response(s)
    return status, got


def post_json(srv: Server, target: str, data: object, **headers: str) -> tuple[int, dict]:
    status, got = request(srv, "POST", target, json.dumps(data).encode("utf-8"),
                          headers={"Content-Type": "application/json", **headers})
    try:
        return status, json.loads(got)
    except ValueError:
        return status, {"text": got.decode("utf-8", "replace")}


def version(srv: Server) -> str:
    status, got = request(srv, "GET", "/state?" + _query(srv.watch))
    assert status == 200
    return json.loads(got)["live"]["version"]


@pytest.fixture
def table(tmp_path):
    rec = tmp_path / "table.gwy"
    rec.write_text(POSITION, encoding="utf-8")
    srv = Server(rec, "--host", "127.0.0.1", "--request-timeout", "1")
    try:
        yield srv, rec
    finally:
        srv.stop()


# ---- item 7: the size of a body -------------------------------------------------------------------


def test_a_body_past_the_limit_is_refused_without_being_read(table):
    srv, rec = table
    q = _query(srv.record)
    before = rec.read_bytes()
    # Content-Length says 400 MB: answered 413 at once, with none of the body sent
    with _connect(srv) as s:
        s.sendall((f"POST /ask?{q} HTTP/1.1\r\nHost: {':'.join(map(str, _addr(srv)))}\r\n"
                   "Content-Type: application/json\r\nContent-Length: 400000000\r\n\r\n").encode())
        status, headers, _ = _read_response(s)
        assert status == 413 and headers.get("connection") == "close"
        assert _read_all(s) == b""  # and the connection is closed: the 400 MB are never read
    # a chunked body is counted as it arrives: refused once past the limit, the rest never awaited
    with _connect(srv) as s:
        s.sendall((f"POST /entry?{q} HTTP/1.1\r\nHost: {':'.join(map(str, _addr(srv)))}\r\n"
                   "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n").encode())
        chunk = b'{"text": "' + b"x" * 1000
        sent = 0
        while sent <= LIMIT + 1024:
            s.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            sent += len(chunk)
        # the body is not finished (no last chunk): only a server counting it can answer now
        status, _, said = _read_response(s)
        assert status == 413 and str(LIMIT) in said.decode()
    # just past the limit with an honest Content-Length: 413; just under: answered
    assert post_json(srv, f"/ask?{q}", {"q": "who", "pad": "x" * LIMIT})[0] == 413
    status, got = post_json(srv, f"/ask?{q}", {"q": "who", "pad": "x" * (LIMIT - 100)})
    assert status == 200 and "North" in got["answer"]
    assert rec.read_bytes() == before


# ---- item 8: who may post -------------------------------------------------------------------------


def test_a_foreign_origin_a_foreign_host_and_a_body_not_json_are_refused(table):
    srv, rec = table
    host, port = _addr(srv)
    q, rq = _query(srv.watch), _query(srv.record)
    before = rec.read_bytes()
    v = version(srv)
    entry = {"text": "North A♠", "version": v}
    # a page of another site posting to the table (a simple request: no preflight)
    assert post_json(srv, f"/entry?{rq}", entry, Origin="http://evil.example")[0] == 403
    assert post_json(srv, f"/entry?{rq}", entry, Origin="null")[0] == 403
    assert post_json(srv, f"/entry?{rq}", entry, Origin=f"http://{host}:{port + 1}")[0] == 403
    assert post_json(srv, f"/ask?{q}", {"q": "who"}, Origin="https://evil.example")[0] == 403
    # DNS rebinding: a name that points at this machine now, and the page that came with it
    for name in ("evil.example", f"evil.example:{port}", f"{host}.nip.io:{port}", f"{host}:{port + 1}", ""):
        assert request(srv, "GET", f"/?{q}", headers={"Host": name})[0] == 403, name
        assert post_json(srv, f"/entry?{rq}", entry, Host=name)[0] == 403, name
    assert request(srv, "GET", f"/state?{q}", headers={"Host": f"evil.example:{port}"})[0] == 403
    # a body that is not JSON by its type, whatever it holds
    body = json.dumps(entry).encode()
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        assert request(srv, "POST", f"/entry?{rq}", body, headers={"Content-Type": kind})[0] == 415, kind
    assert rec.read_bytes() == before  # nothing refused was recorded
    # the table's own page: its address, its origin, JSON
    assert request(srv, "GET", f"/?{q}")[0] == 200
    assert request(srv, "GET", f"/?{q}", headers={"Host": f"localhost:{port}"})[0] == 200
    status, got = post_json(srv, f"/entry?{rq}", entry, Origin=f"http://{host}:{port}")
    assert status == 200 and "10. North A♠" in rec.read_text(encoding="utf-8"), got


# ---- item 9: slow requests ------------------------------------------------------------------------


def test_a_request_sent_half_is_cut_off_and_the_others_are_answered(table):
    srv, rec = table
    host, port = _addr(srv)
    q = _query(srv.watch)
    held = []
    for k in range(12):
        s = _connect(srv)
        if k % 3 == 0:
            s.sendall(f"GET /?{q} HTTP/1.1\r\nHost: {host}:{port}\r\nUser-Ag".encode())  # headers half sent
        elif k % 3 == 1:  # the headers whole, the body half
            s.sendall((f"POST /ask?{q} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
                       'Content-Length: 100\r\n\r\n{"q": "wh').encode())
        held.append(s)  # k % 3 == 2: connected, nothing sent
    # an event stream open all along: its request is whole, so it is not cut off
    events = _connect(srv)
    events.sendall(f"GET /events?{q} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
    assert events.recv(65536).startswith(b"HTTP/1.1 200")
    # meanwhile the server answers everyone else
    assert request(srv, "GET", f"/state?{q}")[0] == 200
    for k, s in enumerate(held):
        got = _read_all(s)  # closed by the server within WAIT, or this raises a timeout
        if k % 3 != 2:
            assert got.startswith(b"HTTP/1.1 408"), got
        s.close()
    # the event stream is still open, and hears the next entry
    status, got = post_json(srv, "/entry?" + _query(srv.record), {"text": "North A♠", "version": version(srv)})
    assert status == 200
    seen = b""
    while got["version"].encode() not in seen:
        part = events.recv(65536)
        assert part, "the event stream was closed"
        seen += part
    events.close()


# ---- item 10: an entry sent twice -----------------------------------------------------------------


def test_an_entry_sent_twice_is_recorded_once(table):
    srv, rec = table
    rq = _query(srv.record)
    v = version(srv)
    assert post_json(srv, f"/entry?{rq}", {"text": "North A♠"})[0] == 400  # no version: not taken
    status, first = post_json(srv, f"/entry?{rq}", {"text": "North A♠", "version": v})
    assert status == 200 and first["version"] != v
    # the same entry again (a retry on a bad network, or a second tap): refused, recorded once
    status, again = post_json(srv, f"/entry?{rq}", {"text": "north  a♠", "version": v})
    assert status == 409 and again["already"] and again["error"].startswith("already recorded")
    # another entry made on the old screen: refused too, the table has changed under it
    status, stale = post_json(srv, f"/entry?{rq}", {"text": "East K♠", "version": v})
    assert status == 409 and not stale["already"] and "changed" in stale["error"]
    text = rec.read_text(encoding="utf-8")
    assert text.count("A♠") == POSITION.count("A♠") + 1 and "K♠\n" not in text.split("trick 10", 1)[1]
    # made on the current version: recorded
    status, _ = post_json(srv, f"/entry?{rq}", {"text": "East K♠", "version": first["version"]})
    assert status == 200 and "10. North A♠, East K♠" in rec.read_text(encoding="utf-8")


# ---- item 11: each seat records its own plays -----------------------------------------------------


def test_each_seat_records_its_own_plays_from_its_own_phone(tmp_path):
    rec = tmp_path / "table.gwy"
    rec.write_text(POSITION, encoding="utf-8")
    srv = Server(rec, "--host", "127.0.0.1", "--seat-phones")
    try:
        own = {}
        for line in srv.printed:
            if " records " in line and "'s own plays: " in line:
                own[line.split()[0]] = _query(line.split()[-1])
        assert sorted(own) == ["East", "North", "South", "West"]
        assert len(set(own.values())) == 4 and all(q.startswith(_query(srv.watch) + "&s=") for q in own.values())
        # a QR code each: the watchers', and one per seat
        drawn = [bool(line.strip()) and set(line.strip()) <= set("█▀▄ ") for line in srv.printed]
        assert sum(1 for a, b in zip([False] + drawn, drawn) if b and not a) == 5
        said = "".join(srv.printed)
        assert all(said.index(f"scan to record {n}'s plays") < said.index("scan to watch") for n in own)

        def enter(q: str, text: str) -> int:
            return post_json(srv, f"/entry?{q}", {"text": text, "version": version(srv)})[0]

        before = rec.read_bytes()
        assert enter(own["East"], "North A♠") == 403  # another seat's play
        assert enter(own["East"], "10. North A♠") == 403  # in the notation, too
        # a card alone is the phone's own seat's: East's A♠, which the referee refuses (North holds it)
        status, got = post_json(srv, f"/entry?{own['East']}", {"text": "A♠", "version": version(srv)})
        assert status == 200 and got["answer"]["kind"] == "rejected" and "East" in got["answer"]["text"], got
        assert enter(own["North"], "North A♠ East K♠") == 403  # its own and another's
        assert enter(own["North"], "# a comment") == 403
        assert post_json(srv, f"/undo?{own['North']}", {"expect": ""})[0] == 403
        assert post_json(srv, f"/new?{own['North']}", {})[0] == 403
        assert enter(own["North"] + "x", "North A♠") == 403  # a token that is none of them
        assert rec.read_bytes() == before
        assert enter(own["North"], "north as") == 200
        assert enter(own["East"], "ks") == 200  # a card alone: the phone's own seat's play
        assert enter(_query(srv.record), "South Q♠") == 200  # the recorder still records any seat
        assert "10. North A♠, East K♠, South Q♠" in rec.read_text(encoding="utf-8")
        status, page = request(srv, "GET", f"/?{own['West']}")
        assert status == 200 and '"role": "seat"' in page.decode() and '"seat": "West"' in page.decode()
    finally:
        srv.stop()
    r = run_cli("serve", "--help")
    assert "--seat-phones" in r.stdout and "only that seat's" in " ".join(r.stdout.split())


# ---- item 12 and issue 38: what a start and a stop leave on disk ----------------------------------


def test_a_temporary_file_left_by_a_kill_is_removed_at_the_next_start(tmp_path):
    rec = tmp_path / "table.gwy"
    rec.write_text(POSITION, encoding="utf-8")
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(gone.stdout)  # a process that has ended: whatever it left is nobody's now
    ours = [tmp_path / f".table.gwy.{dead}.tmp", tmp_path / ".table.gwy.k3j_9zq2.tmp"]
    others = [tmp_path / f".table.gwy.{os.getpid()}.tmp",  # a running process's write in progress
              tmp_path / ".table.gwy.a1b2c3d4.tmp",  # a copy being made just now (too recent)
              tmp_path / f".other.gwy.{dead}.tmp", tmp_path / f"table.gwy.{dead}.tmp",
              tmp_path / ".table.gwy.notes.tmp", tmp_path / ".table.gwy.tmp"]
    for p in ours + others:
        p.write_text("%gwy 1\n\n%game\n[Seats \"A B\"]\n", encoding="utf-8")
    old = time.time() - 3600
    os.utime(ours[1], (old, old))
    srv = Server(rec, "--host", "127.0.0.1")
    try:
        assert [p for p in ours if p.exists()] == []
        assert [p for p in others if not p.exists()] == []
        assert rec.read_text(encoding="utf-8") == POSITION
    finally:
        srv.stop()


def test_a_server_that_recorded_nothing_leaves_no_file(tmp_path):
    rec = tmp_path / "new.gwy"
    srv = Server(rec, "--seats", "Asha Bina Chetan Dev")
    status, _ = request(srv, "GET", "/")
    assert status == 200
    srv.stop()
    assert srv.proc.returncode == 0 and not rec.exists()
    # one entry recorded: the file is written, and kept
    srv = Server(rec, "--seats", "Asha Bina Chetan Dev", "--recorder-qr")
    try:
        assert not rec.exists()
        v = version(srv)
        status, got = post_json(srv, "/entry?" + _query(srv.record), {"text": "# the first hand", "version": v})
        assert status == 200 and rec.exists(), got
    finally:
        srv.stop()
    assert "[Seats \"Asha Bina Chetan Dev\"]" in rec.read_text(encoding="utf-8")
    r = run_cli("check", str(rec))
    assert r.returncode == 0, r.stdout + r.stderr
    # with no FILE: the new name it held is given back
    work = tmp_path / "work"
    work.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "referee", "serve", "--port", "0"], cwd=str(work),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("scan to watch"):
            break
    assert [p.name for p in work.iterdir()] and all(p.stat().st_size == 0 for p in work.iterdir())
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 0 and list(work.iterdir()) == [], out + err


# ---- judging off the event loop -------------------------------------------------------------------

# A dealt game, one trick played: 'hint' reviews it (a CPU-bound step of about a second).
DEALT = """%gwy 1

%game
[Seats "North East South West"]
[Rules "pagat"]
deal
North A♠ 10♠ 8♠ 6♥ K♦ Q♦ 9♦ 8♦ 6♦ 5♦ 8♣ 7♣ 5♣
East K♠ 7♠ 4♠ 3♠ K♥ Q♥ 10♥ 9♥ 5♥ 7♦ Q♣ J♣ 6♣
South Q♠ 6♠ 2♠ A♥ 8♥ 4♥ 2♥ 10♦ 2♦ A♣ K♣ 10♣ 9♣
West J♠ 9♠ 5♠ J♥ 7♥ 3♥ A♦ J♦ 4♦ 3♦ 4♣ 3♣ 2♣
1. North A♠, West J♠, South Q♠, East K♠
"""


def _cpu(pid: int) -> float:
    """The seconds of CPU the process has used (Linux: /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="counts the server's CPU in /proc")
def test_the_other_phones_are_answered_while_an_entry_is_judged(tmp_path):
    rec = tmp_path / "dealt.gwy"
    rec.write_text(DEALT, encoding="utf-8")
    srv = Server(rec, "--host", "127.0.0.1")
    try:
        done: list[tuple[int, dict]] = []
        slow = threading.Thread(target=lambda: done.append(
            post_json(srv, "/entry?" + _query(srv.record), {"text": "hint", "version": version(srv)})))
        slow.start()
        try:
            # wait (bounded) until the server is at work on it: a tenth of a second of its CPU spent
            start = _cpu(srv.proc.pid)
            deadline = time.monotonic() + WAIT
            while not done and _cpu(srv.proc.pid) - start < 0.1 and time.monotonic() < deadline:
                time.sleep(0.005)
            # the review runs in a worker thread: the table is answered meanwhile, again and again
            # (on a blocked event loop not one answer would come back before the hint's)
            answered_while_judging = 0
            while not done and time.monotonic() < deadline:
                status = request(srv, "GET", "/state?" + _query(srv.watch))[0]
                assert status == 200
                answered_while_judging += not done
        finally:
            slow.join(WAIT * 3)
        assert done and done[0][0] == 200 and "chance of losing" in done[0][1]["answer"]["text"]
        assert answered_while_judging >= 1
        assert request(srv, "GET", "/?" + _query(srv.watch))[0] == 200
    finally:
        srv.stop()


# ---- issue 38, item 5: "Why?" is the referee's, not the typist's help -------------------------------


def test_why_of_a_rejected_entry_holds_no_list_of_entries(table):
    srv, rec = table
    status, got = post_json(srv, "/entry?" + _query(srv.record), {"text": "zz", "version": version(srv)})
    assert status == 200, got
    ruling = got["answer"]
    assert ruling["kind"] == "rejected" and "zz" in ruling["text"]
    assert "accepted:" not in ruling["why"]
