"""Issue 40 at the host's terminal: what ``serve`` prints when it starts (the record, the
addresses, the QR codes' captions) and when it stops (saved, or nothing recorded), and its
refusal of a port it cannot listen on, in the server's language (``--lang``, else the
environment's), and in English when none is chosen.

A real ``serve`` on 127.0.0.1 (test_serve.py's ``Server``), stopped by SIGINT as Ctrl-C stops
it. Every sentence expected is the catalogue's, asked of the language layer in Hindi
(test_i18n_refusals.py's ``hi``), never a translation written here; the addresses, the path,
the seats and the options inside them stay as written.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import run_cli
from test_i18n_refusals import DEVANAGARI, HINDI, hi, hi_n

from referee.engine import language as L
from referee.engine.rules import parse_spec

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("segno")

from test_serve import POSITION, Server, _status, _version  # only with the extra

ADDRESS = "\x00address\x00"


def with_address(sentence: str) -> re.Pattern[str]:
    """``sentence`` (filled with :data:`ADDRESS` for its address) as a pattern whose address
    is any local http address: the token in it is the server's secret."""
    return re.compile(re.escape(sentence).replace(re.escape(ADDRESS), r"http://127\.0\.0\.1:\d+/\S*"))


def _shown(printed: list[str]) -> list[str]:
    """The lines printed without the QR codes' blocks."""
    return [line.rstrip("\n") for line in printed if not set(line.strip()) <= set("█▀▄ ")]


def test_serve_says_its_start_and_its_stop_in_hindi(tmp_path: Path) -> None:
    rec = tmp_path / "table.gwy"  # a new record: nothing recorded, nothing written
    srv = Server(rec, "--lang", HINDI, "--seats", "Anil Bina Chetan", "--seat-phones", "--recorder-qr")
    try:
        lines = _shown(srv.printed)
        rules = parse_spec("pagat").spec()
        assert lines[0] == "getaway-ref serve: " + hi(
            "{file}: game {game}, seats {seats}, rules {rules}; saved after every entry",
            file=rec, game=1, seats="Anil Bina Chetan", rules=rules)
        assert lines[1] == hi("watch and ask: {address}", address=srv.watch)
        assert lines[2] == hi("record (one phone): {address}", address=srv.record)
        assert srv.record.startswith(srv.base) and "r=" in srv.record
        assert lines[3] == hi("listening on {address} only: give {option} for the phones on this network",
                              address="127.0.0.1", option="--host 0.0.0.0")
        assert lines[4] == hi("scan to record (the recorder's phone only)")
        for seat in ("Anil", "Bina", "Chetan"):
            own = with_address(hi("{seat} records {seat}'s own plays: {address}", seat=seat, address=ADDRESS))
            assert sum(1 for line in lines if own.fullmatch(line)) == 1, (seat, lines)
            assert hi("scan to record {seat}'s plays ({seat}'s phone only)", seat=seat) in lines
        assert lines[-1] == hi("scan to watch; {key} stops the server (the record is already saved)", key="Ctrl-C")
        assert _status(srv.watch) == 200  # the addresses it printed are the server's
        said = "\n".join(lines)
        for english in ("watch and ask", "record (one phone)", "listening on", "scan to", "records", "saved after"):
            assert english not in said, english
    finally:
        srv.stop()
    assert srv.proc.returncode == 0
    assert _shown(srv.said_at_the_end()) == [hi("nothing recorded: {file} not written", file=rec)]
    assert not rec.exists()


def test_serve_follows_the_environment_and_says_saved_in_hindi(tmp_path: Path) -> None:
    rec = tmp_path / "table.gwy"
    rec.write_text(POSITION, encoding="utf-8")
    srv = Server(rec, lang=HINDI, env={"LANGUAGE": HINDI, "GETAWAY_LANG": ""})
    try:
        assert _status(srv.base + "entry?" + srv.record.split("?")[1],
                       {"text": "North A♠", "version": _version(srv)}) == 200
    finally:
        srv.stop()
    assert "10. North A♠" in rec.read_text(encoding="utf-8")
    assert _shown(srv.said_at_the_end()) == [hi("saved: {path}", path=rec)]
    # the record it continues: the plays it holds counted in Hindi
    srv = Server(rec, lang=HINDI, env={"LANGUAGE": HINDI, "GETAWAY_LANG": ""})
    srv.stop()
    rules = parse_spec("pagat").spec()
    assert _shown(srv.printed)[0] == "getaway-ref serve: " + hi_n(
        "{file}: continuing game {game} ({n} play recorded), seats {seats}, rules {rules}; saved after every entry",
        "{file}: continuing game {game} ({n} plays recorded), seats {seats}, rules {rules}; saved after every entry",
        1, file=rec, game=1, seats="North East South West", rules=rules)


def test_serve_refuses_a_busy_port_in_hindi_and_english_by_default(tmp_path: Path) -> None:
    rec = tmp_path / "table.gwy"
    rec.write_text(POSITION, encoding="utf-8")
    srv = Server(rec)  # English: no language chosen
    try:
        assert _shown(srv.printed)[1] == f"watch and ask: {srv.watch}"
        assert not DEVANAGARI.search("".join(srv.printed))
        port = srv.base.rsplit(":", 1)[1].strip("/")
        before = rec.read_bytes()
        r = run_cli("serve", str(rec), "--port", port, "--lang", HINDI)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and r.stdout == ""
        with L.speaking(HINDI):
            template = L.gettext("cannot listen on {address} port {port}: {why}")
        head = "error: " + template.format(address="127.0.0.1", port=port, why="\x00")
        assert head != "error: " + template and DEVANAGARI.search(head)
        assert r.stderr.startswith(head.split("\x00")[0]), r.stderr  # the system's reason after it
        assert rec.read_bytes() == before
    finally:
        srv.stop()
    assert _shown(srv.said_at_the_end()) == [f"saved: {rec}"]


def test_serve_refuses_a_record_it_cannot_open_in_hindi(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    r = run_cli("serve", str(folder), "--port", "0", "--lang", HINDI)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == "error: " + hi("{file} is a directory", file=folder) + "\n"
    missing = tmp_path / "nowhere" / "table.gwy"
    r = run_cli("serve", str(missing), "--port", "0", "--lang", HINDI)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == "error: " + hi("{dir}: no such directory", dir=missing.parent) + "\n"
    assert not missing.parent.exists()
