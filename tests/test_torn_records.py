"""A record left half written by a kill -9 is put back before any command reads it (issue 36,
item 13).

A record with a second name (a hard link) is rewritten in place, through a journal of its
old text and its new; a SIGKILL in the middle of the copy leaves the record torn (the new
text's beginning, then the old text) and the journal beside it. Only writing commands used
to restore it: ``check``, ``show``, ``export`` and the rest read the torn record as if the
user had written it. Now every command that reads a record restores it first and says so in
one line; the editor server says it in the editor.

The kill is real: ``fmt --write`` runs as a user runs it, except that its process sends
itself SIGKILL in the middle of its first write into the record (half the chunk written, as
a kill between two writes of a long copy leaves it). No strace needed, no timing.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import RECORDS, ROOT

PAGAT = (RECORDS / "pagat-example.gwy").read_bytes()
# The record as a user might have typed it (spaces at the ends of its lines): fmt --write
# rewrites every line of it.
OLD = b"\n".join(line + b"  " if line else line for line in PAGAT.split(b"\n"))
JOURNAL = ".rec.gwy.getaway-ref-journal"
RESTORED = "rec.gwy: a rewrite cut short had left it half written; restored as it was before"

# fmt --write, killed by SIGKILL in the middle of its first write into the record: the copy
# from the journal into the record is the only place that writes with pwrite.
KILLED_MID_COPY = """
import os, runpy, signal, sys
real = os.pwrite
def cut(fd, data, offset):
    real(fd, bytes(data[:len(data) // 2]), offset)
    os.fsync(fd)
    os.kill(os.getpid(), signal.SIGKILL)
os.pwrite = cut
sys.argv = ["getaway-ref", *sys.argv[1:]]
runpy.run_module("referee", run_name="__main__", alter_sys=True)
"""


def env(tmp: Path) -> dict[str, str]:
    # A state directory of the test's own: the user's journals elsewhere are not touched.
    return dict(os.environ, PYTHONPATH=str(ROOT), XDG_STATE_HOME=str(tmp / "state"))


def gwy(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=str(cwd), capture_output=True, text=True,
                          timeout=120, env=env(cwd.parent))


@pytest.fixture
def torn(tmp_path: Path) -> Path:
    """A directory holding rec.gwy (and its second name) torn by a kill -9 of fmt --write,
    with the journal the kill left."""
    d = tmp_path / "d"
    d.mkdir()
    (d / "rec.gwy").write_bytes(OLD)
    os.link(d / "rec.gwy", d / "second-name.gwy")
    r = subprocess.run([sys.executable, "-c", KILLED_MID_COPY, "fmt", "--write", "rec.gwy"], cwd=str(d),
                       capture_output=True, text=True, timeout=120, env=env(tmp_path))
    assert r.returncode == -signal.SIGKILL, (r.returncode, r.stderr)
    now = (d / "rec.gwy").read_bytes()
    assert now not in (OLD, PAGAT) and len(now) == len(OLD), "the kill did not leave the record torn"
    assert (d / JOURNAL).exists()
    return d


def restored(d: Path) -> None:
    assert (d / "rec.gwy").read_bytes() == OLD
    assert os.path.samefile(d / "rec.gwy", d / "second-name.gwy")
    assert sorted(os.listdir(d)) == ["rec.gwy", "second-name.gwy"]


# One command for each way a command opens a record: check's, fmt's and export's own, the
# table's loader (show; ask through it), tally's, review's.
READERS = {
    "check": ["check", "rec.gwy"],
    "fmt": ["fmt", "rec.gwy"],
    "export": ["export", "rec.gwy"],
    "show": ["show", "rec.gwy"],
    "ask": ["ask", "rec.gwy", "--trick", "1"],
    "tally": ["tally", "rec.gwy"],
    "review": ["review", "--samples", "0", "rec.gwy"],
}


@pytest.mark.parametrize("name", list(READERS))
def test_a_reading_command_restores_a_torn_record_before_reading_it(torn: Path, tmp_path: Path, name: str) -> None:
    args = READERS[name]
    # What the command says of the record as the user wrote it, in a copy never torn.
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / "rec.gwy").write_bytes(OLD)
    want = gwy(*args, cwd=clean)
    got = gwy(*args, cwd=torn)
    assert "Traceback" not in got.stderr
    assert got.stderr.count(RESTORED) == 1, got.stderr
    assert (got.returncode, got.stdout) == (want.returncode, want.stdout)
    restored(torn)


def test_html_restores_the_record_before_its_page_is_made(torn: Path, tmp_path: Path) -> None:
    got = gwy("html", "rec.gwy", "-o", "../page.html", cwd=torn)
    assert got.returncode == 0 and RESTORED in got.stderr, got.stderr
    restored(torn)
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / "rec.gwy").write_bytes(OLD)
    assert gwy("html", "rec.gwy", "-o", "page.html", cwd=clean).returncode == 0
    assert (tmp_path / "page.html").read_bytes() == (clean / "page.html").read_bytes()


def test_the_table_server_restores_the_record_it_continues(torn: Path) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    srv = subprocess.Popen([sys.executable, "-m", "referee", "serve", "rec.gwy", "--port", "0"], cwd=str(torn),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env(torn.parent))
    try:
        assert srv.stdout is not None
        printed = []
        for line in srv.stdout:  # until the server has opened its record and listens
            printed.append(line)
            if line.startswith("scan to watch"):
                break
        assert any(line.startswith("watch and ask:") for line in printed), printed
        restored(torn)
    finally:
        srv.send_signal(signal.SIGINT)
        try:
            srv.wait(timeout=60)
        except subprocess.TimeoutExpired:
            srv.kill()
            srv.wait()
    assert srv.stderr is not None
    said = srv.stderr.read()
    assert said.count(RESTORED) == 1 and "Traceback" not in said, said
    restored(torn)


class Editor:
    """The editor server over its pipes, spoken to as an editor speaks (JSON-RPC)."""

    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "referee", "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=env(cwd.parent))
        self.n = 0

    def send(self, method: str, params: Any, request: bool = False) -> None:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.n += 1
            msg["id"] = self.n
        body = json.dumps(msg).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self) -> dict[str, Any]:
        out = self.proc.stdout
        assert out is not None
        length = 0
        while (line := out.readline()) not in (b"\r\n", b"\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        assert length, "the server closed its output"
        parsed: dict[str, Any] = json.loads(out.read(length))
        return parsed

    def until(self, method: str) -> list[dict[str, Any]]:
        seen = []
        while True:
            msg = self.read()
            seen.append(msg)
            if msg.get("method") == method:
                return seen


@pytest.mark.skipif(sys.platform == "win32", reason="hard links and SIGKILL as on Unix")
def test_the_editor_server_restores_an_opened_record_and_says_so(torn: Path) -> None:
    pytest.importorskip("pygls")
    uri = (torn / "rec.gwy").as_uri()
    ed = Editor(torn)
    try:
        ed.send("initialize", {"processId": None, "rootUri": None, "capabilities": {}}, request=True)
        ed.read()
        ed.send("initialized", {})
        text = (torn / "rec.gwy").read_text(encoding="utf-8")  # what the editor read: the torn text
        ed.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "gwy", "version": 1, "text": text}})
        seen = ed.until("textDocument/publishDiagnostics")
        said = [m["params"]["message"] for m in seen if m.get("method") == "window/showMessage"]
        assert len(said) == 1 and RESTORED in said[0] and "reload" in said[0], said
        restored(torn)
        ed.send("shutdown", None, request=True)
        ed.send("exit", None)
        assert ed.proc.wait(60) == 0
    finally:
        if ed.proc.poll() is None:
            ed.proc.kill()
