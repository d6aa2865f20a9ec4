"""``getaway-ref serve``: the live referee on the phones at the table, tested as it is used.

The server runs as a real subprocess on 127.0.0.1 (a free port, read from what it prints);
two real headless Chromium windows open it at once, one with the recorder's address (a phone,
390x844) and one with the watchers' (a laptop, 1280x900). A short game is recorded from the
recorder's window, by taps and by a typed entry; the watcher's window is polled (a bounded
wait, never a duration asserted) until it shows each play. The server is killed with SIGKILL
half-way: every answered entry is in the file, and a restarted server goes on from it.
"""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import DESKTOP, PHONE, ROOT, run_cli, start_chrome
from test_page import ARTIFACTS

from referee.engine import language as L

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("segno")

WAIT = 20  # seconds at most for something to appear; a bound, not a measure

# The end of a game, four seats with two cards each: trick 10 goes to the waste pile with
# North's A♠ highest; in trick 11 everyone follows hearts, East, South and West get away
# with their last cards and North, left holding the power and no card to draw for, loses.
POSITION = """%gwy 1

%game
[Event "At the table"]
[Seats "North East South West"]
[Rules "pagat"]
position
North A♠ 5♥
East K♠ 4♥
South Q♠ 3♥
West J♠ 2♥
waste rest
lead North
trick 10
"""


class Server:
    """``getaway-ref serve`` as a subprocess, and the addresses it printed. ``lang``: the
    language it speaks when ``env`` chooses it (``--lang`` among ``args`` says so itself); what
    it prints is read by the catalogue's sentences in that language, not by English words."""

    def __init__(self, record: Path, *args: str, lang: str | None = None, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "referee", "serve", str(record), "--port", "0", *args],
            cwd=str(ROOT), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
            env=None if env is None else {**os.environ, **env})
        self.lines: queue.Queue[str] = queue.Queue()
        self.pump = threading.Thread(target=self._pump, daemon=True)
        self.pump.start()
        self.printed: list[str] = []
        self.watch = self.record = ""
        if lang is None and "--lang" in args[:-1]:
            lang = args[args.index("--lang") + 1]
        with L.speaking(lang or L.ENGLISH):
            watch_head = L.gettext("watch and ask: {address}").split("{address}")[0]
            record_head = L.gettext("record (one phone): {address}").split("{address}")[0]
            last = L.gettext("scan to watch; {key} stops the server (the record is already saved)").format(key="Ctrl-C")
        while not self.printed or self.printed[-1].rstrip("\n") != last:
            try:
                line = self.lines.get(timeout=WAIT)
            except queue.Empty:
                self.kill()
                pytest.fail("serve printed no address: " + "".join(self.printed) + self.proc.stderr.read())
            self.printed.append(line)
            address = re.search(r"http://\S+", line)
            if line.startswith(watch_head) and address:
                self.watch = address.group()
            elif line.startswith(record_head) and address:
                self.record = address.group()
        self.base = self.watch.split("?")[0]

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=WAIT)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=WAIT)
            except subprocess.TimeoutExpired:
                self.kill()

    def said_at_the_end(self) -> list[str]:
        """What the stopped server printed after its addresses (its last lines)."""
        self.pump.join(timeout=WAIT)
        got = []
        while not self.lines.empty():
            got.append(self.lines.get_nowait())
        return got


def _status(url: str, data: dict | None = None) -> int:
    req = urllib.request.Request(url, data=json.dumps(data).encode() if data is not None else None,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=WAIT) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def _state(srv: Server) -> dict:
    """The table as the server sends it to every phone (the join token only)."""
    with urllib.request.urlopen(srv.watch.replace("/?", "/state?") if "?" in srv.watch else srv.watch + "state",
                                timeout=WAIT) as r:
        return json.loads(r.read())


def _version(srv: Server) -> str:
    return _state(srv)["live"]["version"]


def _query(url: str) -> str:
    return url.split("?", 1)[1] if "?" in url else ""


@pytest.fixture
def phones():
    recorder, watcher = start_chrome(), start_chrome()
    recorder.set_window_size(*PHONE)
    watcher.set_window_size(*DESKTOP)
    try:
        yield recorder, watcher
    finally:
        recorder.quit()
        watcher.quit()


def _wait(drv, check, what: str):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # the server redraws the table whenever a play arrives: an element read mid-redraw is
    # stale, and the wait looks again rather than failing
    return WebDriverWait(drv, WAIT, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: check(d), message=what)


def _moves(drv) -> list[str]:
    # read in one script: the list is rebuilt whenever the server sends the table
    return drv.execute_script("return Array.from(document.querySelectorAll('#moves a')).map(function (a) { return a.textContent; })")


def _answer(drv) -> str:
    return drv.execute_script("return document.getElementById('answer').textContent")


def _click(drv, selector: str) -> None:
    """Tap a button, again if the table was redrawn under the finger (a stale element)."""
    from selenium.common.exceptions import StaleElementReferenceException

    def tap(d) -> bool:
        try:
            d.find_element("css selector", selector).click()
        except StaleElementReferenceException:
            return False
        return True

    _wait(drv, tap, f"a tap on {selector}")


def _tap(recorder, watcher, seat: str, card: str) -> None:
    """The recorder taps the seat, then the card; both windows show the play."""
    before = _answer(recorder)
    _click(recorder, f'#pick-seat button[data-seat="{seat}"]')
    _click(recorder, f'#pick-card button[data-card="{card}"]')
    _wait(recorder, lambda d: _answer(d) != before, f"the ruling on {seat} {card}")
    _wait(recorder, lambda d: f"{seat} {card}" in _moves(d), f"{seat} {card} in the recorder's trick list")
    _wait(watcher, lambda d: f"{seat} {card}" in _moves(d), f"{seat} {card} in the watcher's trick list")


def test_a_request_without_the_token_is_refused(tmp_path):
    rec = tmp_path / "table.gwy"
    rec.write_text(POSITION, encoding="utf-8")
    srv = Server(rec, "--host", "127.0.0.1")
    try:
        q = _query(srv.watch)
        assert q.startswith("t=") and "r=" in srv.record
        assert _status(srv.base) == 403
        assert _status(srv.base + "?t=not-the-token") == 403
        assert _status(srv.base + "events") == 403
        assert _status(srv.base + "state") == 403
        assert _status(srv.watch) == 200
        # a watcher may ask, but not change the record
        assert _status(srv.base + "ask?" + q, {"q": "who"}) == 200
        assert _status(srv.base + "entry?" + q, {"text": "North A♠"}) == 403
        assert _status(srv.base + "entry?" + q + "&r=guess", {"text": "North A♠"}) == 403
        assert _status(srv.base + "undo?" + q, {"expect": ""}) == 403
        assert _status(srv.base + "entry", {"text": "North A♠"}) == 403
        assert "10." not in rec.read_text(encoding="utf-8")  # nothing refused was recorded
        assert _status(srv.base + "entry?" + _query(srv.record), {"text": "North A♠", "version": _version(srv)}) == 200
        assert "10. North A♠" in rec.read_text(encoding="utf-8")
    finally:
        srv.stop()


def test_local_by_default_and_a_qr_code(tmp_path):
    rec = tmp_path / "table.gwy"
    rec.write_text(POSITION, encoding="utf-8")
    srv = Server(rec)
    try:
        assert srv.watch.startswith("http://127.0.0.1:") and "?" not in srv.watch  # no token on the machine itself
        assert any("listening on 127.0.0.1 only" in line for line in srv.printed)
        assert _status(srv.watch) == 200
        # the recorder's token is still needed to change the record
        assert _status(srv.base + "entry", {"text": "North A♠"}) == 403
        # a second server on the same port: a one-line error, exit 2, the record untouched
        port = srv.base.rsplit(":", 1)[1].strip("/")
        before = rec.read_bytes()
        r = run_cli("serve", str(rec), "--port", port)
        assert r.returncode == 2 and r.stderr.startswith(f"error: cannot listen on 127.0.0.1 port {port}")
        assert "Traceback" not in r.stderr and rec.read_bytes() == before
        # the QR code: lines of block characters, printed after the addresses
        qr = [line for line in srv.printed if line.count("█") > 10]
        assert len(qr) > 10 and srv.printed.index(qr[0]) > 2
        assert not any("scan to record" in line for line in srv.printed)  # only when asked for
    finally:
        srv.stop()
    srv = Server(rec, "--recorder-qr")
    try:
        said = "".join(srv.printed)
        assert said.index("scan to record") < said.index("scan to watch")
        assert sum(1 for line in srv.printed if line.count("█") > 10) > 2 * len(qr) - 4  # two codes
    finally:
        srv.stop()


def test_without_the_extra_a_one_line_hint(tmp_path):
    code = ("import sys; sys.modules['uvicorn'] = None; sys.argv = ['getaway-ref', 'serve', sys.argv[1]]; "
            "from referee.cli import main; main()")
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path / "t.gwy")], capture_output=True, text=True,
                       cwd=str(ROOT), timeout=WAIT * 3)
    assert r.returncode == 2 and r.stderr.strip() == "error: serve needs the serve extra: pip install 'getaway-ref[serve]'"
    assert not (tmp_path / "t.gwy").exists()


def test_a_game_recorded_from_one_phone_and_watched_on_another(tmp_path, phones):
    recorder, watcher = phones
    rec = tmp_path / "table.gwy"
    rec.write_text(POSITION, encoding="utf-8")
    srv = Server(rec, "--host", "127.0.0.1")
    try:
        recorder.get(srv.record)
        watcher.get(srv.watch)
        _wait(recorder, lambda d: d.find_element("id", "recorder").is_displayed(), "the recorder's panel")
        assert not watcher.find_element("id", "recorder").is_displayed()  # watchers watch and ask
        # the seat to play is chosen already; its legal cards come first
        pressed = recorder.find_element("css selector", '#pick-seat button[aria-pressed="true"]')
        assert pressed.get_attribute("data-seat") == "North"
        _tap(recorder, watcher, "North", "A♠")
        # ask's one sentence for the trick so far (its words are answers.py's)
        assert _answer(recorder).startswith("Trick 10: North") and "A♠" in _answer(recorder)
        # "why" is one tap away: the referee's lines behind the sentence
        recorder.find_element("id", "why").click()
        assert "recorded: 10. North A♠" in recorder.find_element("id", "why-text").text
        east = recorder.find_elements("css selector", '#pick-card button')
        assert [b.text for b in east if "legal" in b.get_attribute("class")] == ["K♠"]
        assert "4♥" in [b.text for b in east if "legal" not in b.get_attribute("class")]
        # typed, as in live
        box = recorder.find_element("id", "entry")
        box.send_keys("east ks\n")
        _wait(watcher, lambda d: "East K♠" in _moves(d), "East K♠ typed, on the watcher's screen")
        _wait(recorder, lambda d: "East K♠" in _moves(d), "East K♠ typed, on the recorder's screen")
        # undo asks first; "keep" keeps
        recorder.find_element("id", "undo").click()
        assert "Undo removes '10. East K♠'" in recorder.find_element("id", "confirm-text").text
        recorder.find_element("id", "confirm-no").click()
        assert "East K♠" in _moves(recorder) and "10. North A♠, East K♠" in rec.read_text(encoding="utf-8")
        recorder.find_element("id", "undo").click()
        recorder.find_element("id", "confirm-yes").click()
        _wait(watcher, lambda d: "East K♠" not in _moves(d), "the undone play gone from the watcher's screen")
        assert rec.read_text(encoding="utf-8").endswith("\n10. North A♠\n")
        _tap(recorder, watcher, "East", "K♠")
        _tap(recorder, watcher, "South", "Q♠")
        _tap(recorder, watcher, "West", "J♠")
        # asking is a tap, for anyone
        watcher.find_element("css selector", '#questions button[data-q="who"]').click()
        _wait(watcher, lambda d: "North" in d.find_element("id", "reply").text, "who leads, answered")
        assert "trick 11" in watcher.find_element("id", "reply").text
        # a kill -9 loses no answered entry ...
        srv.kill()
        assert "10. North A♠, East K♠, South Q♠, West J♠" in rec.read_text(encoding="utf-8")
        # ... and a restarted server goes on from the file
        srv = Server(rec, "--host", "127.0.0.1")
        assert "continuing game 1 (4 plays recorded)" in srv.printed[0]
        recorder.get(srv.record)
        watcher.get(srv.watch)
        _wait(watcher, lambda d: "West J♠" in _moves(d), "the resumed game on the watcher's screen")
        _tap(recorder, watcher, "North", "5♥")
        watcher.find_element("xpath", '//button[text()="What may East play?"]').click()
        _wait(watcher, lambda d: "East" in d.find_element("id", "reply").text and "4♥" in d.find_element("id", "reply").text,
              "what East may play")
        _tap(recorder, watcher, "East", "4♥")
        _tap(recorder, watcher, "South", "3♥")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        recorder.save_screenshot(str(ARTIFACTS / "serve-recorder-phone.png"))
        _tap(recorder, watcher, "West", "2♥")
        _wait(watcher, lambda d: "Game over: North lost" in d.find_element("id", "end").text, "the end of the game")
        _wait(recorder, lambda d: d.find_element("id", "new").is_displayed(), "the next game's button")
        watcher.save_screenshot(str(ARTIFACTS / "serve-watcher-desktop.png"))
        # the last ruling reaches every phone, the watcher's too
        assert "North loses" in watcher.find_element("id", "answer").text
        # the next game, from the recorder's phone; every phone follows it
        _click(recorder, "#new")
        _wait(watcher, lambda d: "game 2" in d.find_element("id", "sub").text, "game 2 on the watcher's screen")
        assert _moves(watcher) == [] and rec.read_text(encoding="utf-8").count("%game") == 2
    finally:
        srv.stop()
    r = run_cli("check", "--show-games", str(rec))
    assert r.returncode == 0 and "North lost" in r.stdout, r.stdout + r.stderr


def test_a_file_that_is_not_a_record_is_refused_in_one_line(tmp_path):
    bad = tmp_path / "notes.gwy"
    bad.write_text("my shopping list\n", encoding="utf-8")
    r = run_cli("serve", str(bad), "--port", "0")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not a .gwy record" in r.stderr
    assert bad.read_text(encoding="utf-8") == "my shopping list\n"  # nothing the user wrote is lost
    r = run_cli("serve", str(tmp_path / "no-such-dir" / "t.gwy"), "--port", "0")
    assert r.returncode == 2 and "no such directory" in r.stderr and "Traceback" not in r.stderr


def _pressed(drv) -> str | None:
    return drv.execute_script("var b = document.querySelector('#pick-seat button[aria-pressed=\"true\"]');"
                              "return b && b.getAttribute('data-seat')")


def _in_sight(drv, element_id: str) -> bool:
    """Whether the element is wholly inside the window (not scrolled away, not cut)."""
    return drv.execute_script(
        "var r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth",
        element_id)


def _view_cut(drv) -> list:
    """The "View" select's width and the width it needs for its longest choice (measured
    with no limit), and whether it ends inside the window."""
    return drv.execute_script(
        "var s = document.getElementById('view'), w = s.getBoundingClientRect().width;"
        "var keep = s.style.maxWidth; s.style.maxWidth = 'none';"
        "var need = s.getBoundingClientRect().width; s.style.maxWidth = keep;"
        "return [w, need, s.getBoundingClientRect().right <= document.documentElement.clientWidth]")


def test_on_a_phone_the_table_stays_in_sight_and_the_picker_follows_the_play(tmp_path, phones):
    recorder, watcher = phones  # the recorder's phone: 390 x 844
    rec = tmp_path / "fresh.gwy"
    srv = Server(rec, "--host", "127.0.0.1", "--seats", "Asha Bina Chetan Dev")
    try:
        recorder.get(srv.record)
        watcher.get(srv.watch)
        _wait(recorder, lambda d: d.find_element("id", "recorder").is_displayed(), "the recorder's panel")
        assert not watcher.find_element("id", "typed").is_displayed()  # watchers do not type entries
        # "View" shows its whole choice, on the phone and on the laptop
        for drv in (recorder, watcher):
            width, need, inside = _view_cut(drv)
            assert width >= need - 0.5 and inside, (width, need, inside)
        # trick 1 is played in any order: the picker goes on round the table to a seat still
        # to play, never staying on the seat that has just played
        _tap(recorder, watcher, "Chetan", "A♠")
        _wait(recorder, lambda d: _pressed(d) == "Dev", "Dev chosen after Chetan's play")
        _tap(recorder, watcher, "Dev", "2♠")
        _wait(recorder, lambda d: _pressed(d) == "Asha", "Asha chosen after Dev's play")
        # the recorder scrolled down to the cards, then types: the table and the box in sight
        recorder.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
        assert not _in_sight(recorder, "trick")
        box = recorder.find_element("id", "entry")
        box.click()
        box.send_keys("asha 3s")
        _wait(recorder, lambda d: _in_sight(d, "trick") and _in_sight(d, "entry"), "the trick and the box in sight")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        recorder.save_screenshot(str(ARTIFACTS / "serve-recorder-typing-phone.png"))
        box.send_keys("\n")
        _wait(watcher, lambda d: "Asha 3♠" in _moves(d), "Asha 3♠ typed, on the watcher's screen")
        _wait(recorder, lambda d: _pressed(d) == "Bina", "Bina chosen after Asha's play")
        assert _in_sight(recorder, "trick")
    finally:
        srv.stop()
    assert "1. Chetan A♠, Dev 2♠, Asha 3♠" in rec.read_text(encoding="utf-8")


def test_a_seat_phone_shows_its_own_seat_only(tmp_path, phones):
    phone, _ = phones
    rec = tmp_path / "table.gwy"
    rec.write_text(POSITION, encoding="utf-8")
    srv = Server(rec, "--host", "127.0.0.1", "--seat-phones")
    try:
        north = next(line.split()[-1] for line in srv.printed if line.startswith("North records North's own plays: "))
        phone.get(north)
        _wait(phone, lambda d: d.find_element("id", "recorder").is_displayed(), "North's panel")
        seats = phone.execute_script("return Array.from(document.querySelectorAll('#pick-seat button'))"
                                     ".map(function (b) { return b.getAttribute('data-seat'); })")
        assert seats == ["North"] and not phone.find_element("id", "undo").is_displayed()
        assert phone.find_element("id", "typed").is_displayed()
        before = _answer(phone)
        _click(phone, '#pick-card button[data-card="A♠"]')
        _wait(phone, lambda d: _answer(d) != before, "the ruling on North's A♠")
        _wait(phone, lambda d: "North A♠" in _moves(d), "North A♠ in the trick list")
        assert rec.read_text(encoding="utf-8").endswith("\n10. North A♠\n")
        # the next play is East's: this phone still shows North (with the cards it may hold)
        assert _pressed(phone) == "North"
    finally:
        srv.stop()
