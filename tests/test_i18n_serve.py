"""Issue 40 at the shared table: on ``serve``, every sentence a phone reads is in that
phone's language, the ruling and the game's lines included, while what the machine reads
(``/state``, the record written) is the same bytes whatever anyone's language.

A real ``serve`` on 127.0.0.1 (test_serve.py's ``Server``) and a renege recorded: East plays
K♣ on West's heart lead while holding 9♥ (records/dispute-renege-illegal.gwy's trick 5,
every hand known). An Urdu phone and a Hindi phone each read the ruling; what each should
read is asked of the wording layer in its language, from the record the server wrote, not
written here. Two headless Chromium windows for the pages, plain HTTP for the rest.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest
from conftest import RECORDS
from test_serve import WAIT, Server, _answer, _query, _wait, phones  # noqa: F401 (phones: the two windows)

from referee.engine import language as L
from referee.table import answers
from referee.table.live import Session, said
from referee.table.page import game_data

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

ENTRIES = ["West 4h", "North 6h", "East Kc"]  # the last a renege: East holds 9♥
URDU, HINDI = "ur", "hi"
SCRIPTS = {URDU: re.compile("[\u0600-\u06ff]"), HINDI: re.compile("[\u0900-\u097f]")}


def _position(tmp_path: Path, name: str = "table.gwy") -> Path:
    """The dispute record up to its trick 5, not played yet."""
    text = (RECORDS / "dispute-renege-illegal.gwy").read_text(encoding="utf-8")
    rec = tmp_path / name
    rec.write_text(text[:text.index("5. West")], encoding="utf-8")
    return rec


def _url(srv: Server, path: str, phone: str) -> str:
    """``path`` on the server with the token of ``phone``'s address (the watchers' or the recorder's)."""
    q = _query(srv.record if phone == "recorder" else srv.watch)
    return srv.base + path + ("?" + q if q else "")


def _get(url: str, headers: dict[str, str] | None = None) -> bytes:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=WAIT) as r:
        return r.read()


def _post(url: str, body: dict, headers: dict[str, str] | None = None) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(req, timeout=WAIT) as r:
        return json.loads(r.read())


def _event(url: str, headers: dict[str, str] | None = None) -> dict:
    """The table as the event stream sends it first to a phone."""
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=WAIT) as r:
        for raw in r:
            line = raw.decode("utf-8")
            if line.startswith("data: "):
                return json.loads(line[len("data: "):])
    pytest.fail("the event stream ended without the table")


def _record(srv: Server, lang: str) -> list[dict]:
    """The recorder's phone, in ``lang`` (its picker's cookie), enters the renege; the answers."""
    got = []
    for text in ENTRIES:
        version = json.loads(_get(_url(srv, "state", "watcher")))["live"]["version"]
        got.append(_post(_url(srv, "entry", "recorder"), {"text": text, "version": version},
                         {"Cookie": f"lang={lang}"}))
    return got


def _said(rec: Path, lang: str) -> tuple[str, dict]:
    """What the wording layer says in ``lang`` of the record as written: the ruling on its last
    entry (``why``, as ``ask`` answers it) and the game's page data (its lines, its verdicts)."""
    s = Session.resume(rec, rec.read_text(encoding="utf-8"))
    assert s is not None
    with L.speaking(lang):
        return answers.live_answer("why", s.game, s.res), game_data(answers.walk(s.game, s.default))


def test_two_phones_read_the_one_ruling_each_in_its_own_language(tmp_path):
    rec = _position(tmp_path)
    srv = Server(rec, "--host", "127.0.0.1")
    try:
        posted = _record(srv, URDU)
        # the recorder's own answer is in its language, the renege in it
        ruling_ur, game_ur = _said(rec, URDU)
        assert posted[-1]["answer"]["text"] == ruling_ur and "M201" in ruling_ur
        assert SCRIPTS[URDU].search(ruling_ur)
        urdu = _event(_url(srv, "events", "watcher"), {"Cookie": f"lang={URDU}"})
        hindi = _event(_url(srv, "events", "watcher"), {"Accept-Language": "hi-IN,hi;q=0.9,en;q=0.5"})
        ruling_hi, game_hi = _said(rec, HINDI)
        assert ruling_hi != ruling_ur and SCRIPTS[HINDI].search(ruling_hi) and "M201" in ruling_hi
        for msg, ruling, game, lang in ((urdu, ruling_ur, game_ur, URDU), (hindi, ruling_hi, game_hi, HINDI)):
            a = msg["live"]["answer"]
            assert a["text"] == ruling, lang
            assert a["kind"] == "recorded" and a["alert"] is True and a["n"] == posted[-1]["answer"]["n"]
            # the referee's lines behind it ("Why?") and whose turn it is, in that language too
            other = SCRIPTS[HINDI if lang == URDU else URDU]
            assert SCRIPTS[lang].search(a["why"]) and not other.search(a["why"] + msg["live"]["turn"])
            assert SCRIPTS[lang].search(msg["live"]["turn"])
            # the game's lines (each position's words, the verdict on trick 5) as the page words them
            assert msg["game"] == game, lang
        # the same table otherwise: data, seats, cards, version
        for key in ("version", "seats", "order", "to_act", "takes", "draws", "undo", "over", "game"):
            assert urdu["live"][key] == hindi["live"][key], key
        # a question asked from each phone is answered in its language
        for lang in (URDU, HINDI):
            reply = _post(_url(srv, "ask", "watcher"), {"q": "why"}, {"Cookie": f"lang={lang}"})["answer"]
            assert reply == _said(rec, lang)[0]
    finally:
        srv.stop()


def test_the_machine_side_is_the_same_bytes_whatever_the_language(tmp_path):
    """/state is the same bytes for an Urdu phone, a Hindi phone and a client that asks no
    language, in English, the source (as every JSON output of getaway-ref); the record an
    Urdu recorder makes under ``serve --lang ur`` is byte for byte the one a Hindi recorder
    makes under ``serve --lang hi``."""
    written = []
    for lang in (URDU, HINDI):
        rec = _position(tmp_path, f"table-{lang}.gwy")
        srv = Server(rec, "--lang", lang)
        try:
            _record(srv, lang)
            url = _url(srv, "state", "watcher")
            states = [_get(url), _get(url, {"Cookie": f"lang={URDU}"}),
                      _get(url, {"Accept-Language": "hi"}), _get(url + "?lang=hi" if "?" not in url else url + "&lang=hi")]
            assert len(set(states)) == 1
            state = json.loads(states[0])
            assert state["live"]["answer"]["text"] == _said(rec, L.ENGLISH)[0]
            assert not any(p.search(states[0].decode("utf-8")) for p in SCRIPTS.values())
            # serve --lang is the language of a phone that chose none
            plain = _event(_url(srv, "events", "watcher"))
            assert plain["live"]["answer"]["text"] == _said(rec, lang)[0]
        finally:
            srv.stop()
        written.append(rec.read_bytes())
    assert written[0] == written[1] and b"5. West 4\xe2\x99\xa5, North 6\xe2\x99\xa5, East K\xe2\x99\xa3" in written[0]


def test_an_entry_refused_is_said_in_each_phones_language(tmp_path):
    """A ruling that records nothing (an entry the table refuses: a card North does not
    hold: 3♠ is East's) is said to every phone in its own language; a stale entry is refused to its
    sender in the sender's; an undo is said to each phone in its own."""
    rec = _position(tmp_path)
    srv = Server(rec)
    try:
        version = json.loads(_get(_url(srv, "state", "watcher")))["live"]["version"]
        first = _post(_url(srv, "entry", "recorder"), {"text": "North 3s", "version": version},
                      {"Cookie": f"lang={HINDI}"})["answer"]
        assert first["kind"] == "rejected" and SCRIPTS[HINDI].search(first["text"])
        urdu = _event(_url(srv, "events", "watcher"), {"Cookie": f"lang={URDU}"})["live"]["answer"]
        english = json.loads(_get(_url(srv, "state", "watcher")))["live"]["answer"]
        assert urdu["n"] == english["n"] == first["n"] and urdu["kind"] == english["kind"] == "rejected"
        assert SCRIPTS[URDU].search(urdu["text"]) and not SCRIPTS[URDU].search(english["text"])
        # the same words as the Hindi phone's once the codes and the cards are taken out
        assert re.findall(r"\[[A-Z]\d+\]|[0-9TJQKA]+[♠♥♦♣]", urdu["text"]) == \
            re.findall(r"\[[A-Z]\d+\]|[0-9TJQKA]+[♠♥♦♣]", first["text"])
        req = urllib.request.Request(_url(srv, "entry", "recorder"), data=json.dumps(
            {"text": "West 4h", "version": "old-0"}).encode(), headers={"Content-Type": "application/json",
                                                                       "Cookie": f"lang={URDU}"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(req, timeout=WAIT)
        assert refused.value.code == 409
        with L.speaking(URDU):
            want = L.gettext("the record changed since this screen was drawn: look at the table again, then enter it")
        assert json.loads(refused.value.read())["error"] == want
        # an undo from the Hindi recorder: the Urdu phone reads what was removed in Urdu
        version = json.loads(_get(_url(srv, "state", "watcher")))["live"]["version"]
        _post(_url(srv, "entry", "recorder"), {"text": "West 4h", "version": version})
        state = json.loads(_get(_url(srv, "state", "watcher")))["live"]
        undone = _post(_url(srv, "undo", "recorder"), {"expect": state["undo"]}, {"Cookie": f"lang={HINDI}"})
        urdu = _event(_url(srv, "events", "watcher"), {"Cookie": f"lang={URDU}"})["live"]["answer"]
        for lang, answer in ((HINDI, undone["answer"]), (URDU, urdu)):
            with L.speaking(lang):
                assert answer["text"] == said("removed", what=state["undo"]), lang
            assert answer["kind"] == "removed" and answer["n"] == undone["answer"]["n"]
        assert "4♥" not in rec.read_text(encoding="utf-8").split("trick 5")[-1]
    finally:
        srv.stop()


def test_two_chromium_windows_each_show_the_ruling_in_their_language(tmp_path, phones):  # noqa: F811
    """The recorder's phone in Urdu (its picker's choice, ?lang=ur) types the renege; the
    watcher's window in Hindi shows the same ruling in Hindi, each as the wording layer says
    it, and each page's words (its <html lang>) in its own language."""
    recorder, watcher = phones
    rec = _position(tmp_path)
    srv = Server(rec, "--host", "127.0.0.1")
    try:
        recorder.get(srv.record + "&lang=ur")
        watcher.get(srv.watch + "&lang=hi")
        _wait(recorder, lambda d: d.find_element("id", "recorder").is_displayed(), "the recorder's panel")
        for text in ENTRIES:
            before = _answer(recorder)
            box = recorder.find_element("id", "entry")
            box.send_keys(text + "\n")
            _wait(recorder, lambda d, was=before: _answer(d) != was, f"the ruling on {text}")
        ruling_ur, _game = _said(rec, URDU)
        ruling_hi, _game = _said(rec, HINDI)
        _wait(recorder, lambda d: _answer(d) == ruling_ur, "the Urdu ruling on the recorder's phone")
        _wait(watcher, lambda d: _answer(d) == ruling_hi, "the Hindi ruling on the watcher's screen")
        assert recorder.execute_script("return document.documentElement.lang") == "ur"
        assert watcher.execute_script("return document.documentElement.lang") == "hi"
        # whose turn it is, on the recorder's phone, in Urdu
        assert SCRIPTS[URDU].search(recorder.find_element("id", "turn").text)
    finally:
        srv.stop()
