"""The offline site's table (issue 39, item 2): serve's own page with the engine in the
browser's Web Worker, one phone as the table.

The site is built, served by a real HTTP server on 127.0.0.1 and opened in headless
Chromium. A short game (the end of a game, two cards a seat) is imported from a .gwy file and
recorded by taps; the server is stopped and the browser set offline, the page reloaded (from
the service worker's cache, the game from IndexedDB), the game finished by taps and exported.
The exported file is byte for byte what ``getaway-ref live`` writes for the same entries, and
``check --format json`` says the same of both. Skips without the Pyodide runtime, as
``tests/test_site.py`` does.

The first visit fetches what its language needs and no other language's files; a language
picked is kept (its pages and catalogues), so its pages open offline, and a new build of the
site keeps it.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path
from typing import ClassVar

import pytest
from conftest import run_cli, start_chrome
from test_serve import POSITION, _answer, _click, _moves, _wait
from test_site import Site, _Files, served_site

from referee.engine import language as L
from referee.site.build import INDEX_PAGE, MANIFEST, TABLE_PAGE, catalogue_files, page_name
from referee.site.link import decode_game

FIRST = [("North", "A♠"), ("East", "K♠"), ("South", "Q♠"), ("West", "J♠")]  # trick 10, before the network goes
LAST = [("North", "5♥"), ("East", "4♥"), ("South", "3♥"), ("West", "2♥")]  # trick 11, offline: the game ends
FIRST_VISIT = 8_000_000  # bytes at most on the first visit, from a server that does not compress (issue 39, item 6)
START = 240  # seconds at most for Pyodide to start in the worker on a busy machine; a bound, not a measure


class _Counted(_Files):
    """The site's files, each one sent counted: its path and its bytes."""

    sent: ClassVar[list[tuple[str, int]]] = []

    def copyfile(self, source, outputfile) -> None:
        data = source.read()
        type(self).sent.append((self.path, len(data)))
        outputfile.write(data)


class _CountedAfresh(_Counted):
    """The same, for a browser of its own (its own count)."""

    sent: ClassVar[list[tuple[str, int]]] = []


def _own_files(lang: str) -> set[str]:
    """A language's own files in the site: its pages, its manifest, its catalogues (and their gzip copies)."""
    own = {page_name(p, lang) for p in (INDEX_PAGE, TABLE_PAGE, MANIFEST)} | set(catalogue_files(lang))
    return own | {f"{name}.gz" for name in own}


def _others(*langs: str) -> set[str]:
    """The own files of every language but English and ``langs``."""
    return {f for code in L.shipped() if code not in ("en", *langs) for f in _own_files(code)}


_CACHED = """return caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== 'getaway-ref-bytecode')
  .map((k) => caches.open(k).then((c) => c.keys()).then((rs) => [k, rs.map((r) => new URL(r.url).pathname.slice(1))]))))"""


def _cached(drv) -> dict[str, set[str]]:
    """The site's caches (not the engine's own), each with the files it holds."""
    return {k: set(names) for k, names in drv.execute_script(_CACHED)}


@pytest.fixture(scope="module")
def table_site(tmp_path_factory):
    with served_site(tmp_path_factory, _Counted) as s:
        yield s


def _version(drv) -> str | None:
    return drv.execute_script("return document.body.getAttribute('data-version')")


def _tap(drv, seat: str, card: str) -> None:
    before = _answer(drv)
    _click(drv, f'#pick-seat button[data-seat="{seat}"]')
    _click(drv, f'#pick-card button[data-card="{card}"]')
    _wait(drv, lambda d: _answer(d) != before, f"the ruling on {seat} {card}")
    _wait(drv, lambda d: f"{seat} {card}" in _moves(d), f"{seat} {card} in the trick list")


def _started(drv) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(drv, START).until(lambda d: _version(d) is not None, message="the table from the Worker")


def test_a_game_recorded_by_taps_offline_exports_the_file_live_writes(table_site: Site, tmp_path: Path) -> None:
    drv = table_site.drv
    drv.get(table_site.url.replace("index.html", "table.html"))
    _started(drv)  # a new game is on the table at once (kept in IndexedDB)
    # the service worker holds the site before the network goes
    _wait(drv, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), "the service worker")
    # The first visit: every file once, the runtime's WebAssembly as its gzip copy (the service
    # worker unpacks it), within 8 MB from a server that compresses nothing.
    paths = [p for p, _ in _Counted.sent]
    assert "/pyodide/pyodide.asm.wasm.gz" in paths and "/pyodide/pyodide.asm.wasm" not in paths
    assert len(paths) == len(set(paths)), sorted(paths)
    # nor the page itself again as its gzip copy, nor any other language's pages or catalogues
    assert "/table.html" in paths and "/table.html.gz" not in paths
    assert not {p.lstrip("/") for p in paths} & _others(), sorted(paths)
    assert sum(n for _, n in _Counted.sent) <= FIRST_VISIT

    record = tmp_path / "end.gwy"
    record.write_text(POSITION, encoding="utf-8")
    drv.find_element("id", "import").send_keys(str(record))
    _wait(drv, lambda d: d.find_elements("css selector", '#pick-card button[data-card="A♠"]'), "the imported game")
    assert _moves(drv) == []
    for seat, card in FIRST:
        _tap(drv, seat, card)
    assert "has the power and leads trick 11" in _answer(drv)
    kept = drv.execute_script("return Array.from(document.querySelectorAll('#games button')).map(b => b.textContent)")
    assert "end.gwy (on the table)" in kept and len(kept) == 2  # the new game of the first visit, and this one

    # No network: the server stopped, the browser offline. The reload comes from the cache and
    # the game on the table from IndexedDB.
    table_site.offline()
    drv.refresh()
    _started(drv)
    _wait(drv, lambda d: "West J♠" in _moves(d), "the game recorded before the reload")
    for seat, card in LAST:
        _tap(drv, seat, card)
    assert "North loses" in _answer(drv)
    _wait(drv, lambda d: d.find_element("id", "new").is_displayed(), "the game over: Next game offered")

    # Exported: a download of the record as kept.
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    drv.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    drv.find_element("id", "export").click()
    exported = downloads / "end.gwy"
    deadline = time.monotonic() + 30
    while not exported.is_file() and time.monotonic() < deadline:
        time.sleep(0.1)  # a bounded wait for the browser's download, not a measure
    assert exported.is_file(), list(downloads.iterdir())

    # live, given the same entries on the same file, writes the same bytes
    by_live = tmp_path / "cli" / "end.gwy"
    by_live.parent.mkdir()
    by_live.write_text(POSITION, encoding="utf-8")
    r = run_cli("live", str(by_live), input="".join(f"{s} {c}\n" for s, c in FIRST + LAST))
    assert r.returncode == 0, r.stderr
    assert exported.read_bytes() == by_live.read_bytes()

    # and check says the same of it as of live's file: the game ends cleanly, North loses
    ours = run_cli("check", "--format", "json", "end.gwy", cwd=downloads)
    theirs = run_cli("check", "--format", "json", "end.gwy", cwd=by_live.parent)
    assert ours.returncode == theirs.returncode == 0, ours.stderr
    assert json.loads(ours.stdout) == json.loads(theirs.stdout)
    shutil.rmtree(downloads)


def test_a_file_that_is_not_a_record_is_refused_in_one_line(table_site: Site, tmp_path: Path) -> None:
    drv = table_site.drv
    drv.get(table_site.url.replace("index.html", "table.html"))
    _started(drv)
    before = _version(drv)
    bad = tmp_path / "notes.gwy"
    bad.write_text("%game\nthis is no record\n", encoding="utf-8")
    drv.find_element("id", "import").send_keys(str(bad))
    _wait(drv, lambda d: "notes.gwy cannot be opened" in d.find_element("id", "kept").text, "the refusal")
    said = drv.find_element("id", "kept").text
    assert "\n" not in said and "Traceback" not in said
    assert _version(drv) == before  # the game on the table stays


def test_a_retry_is_refused_and_undo_takes_the_entry_back_as_serve_does(table_site: Site) -> None:
    drv = table_site.drv
    drv.get(table_site.url.replace("index.html", "table.html"))
    _started(drv)
    before = _version(drv)
    drv.find_element("css selector", "#new-table button[type=submit]").click()  # a new game: four seats, 13 cards each
    _wait(drv, lambda d: _version(d) not in (None, before) and _moves(d) == [], "the new game")
    version = _version(drv)
    # the same entry sent twice on the same version (a double tap): recorded once, the retry refused
    said = table_site.call(
        "window.getawayTable.post('entry', {text: 'North A♠', version: args[0]})"
        ".then(() => window.getawayTable.post('entry', {text: 'North A♠', version: args[0]}))"
        ".then(() => 'recorded twice', (e) => (e.refused ? '409 ' : '') + e.message)", version)
    assert said.startswith("409 already recorded"), said
    _wait(drv, lambda d: _moves(d) == ["North A♠"], "the play, once")
    # undo, confirmed on the page, takes it back
    _click(drv, "#undo")
    assert "North A♠" in drv.find_element("id", "confirm-text").text
    _click(drv, "#confirm-yes")
    _wait(drv, lambda d: _moves(d) == [], "the play undone")


# The canvas's pixels as grey levels (the red channel of a black and white drawing), base64.
_PIXELS = """const c = document.getElementById(arguments[0]);
const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
const grey = new Uint8Array(c.width * c.height);
for (let i = 0; i < grey.length; i++) grey[i] = d[i * 4];
let s = '';
for (let i = 0; i < grey.length; i += 0x8000) s += String.fromCharCode(...grey.subarray(i, i + 0x8000));
return [c.width, c.height, btoa(s)];"""


def _qr_text(drv, canvas: str) -> str:
    """What a QR decoder (zxing-cpp) reads in the canvas the page drew."""
    import base64

    zxingcpp = pytest.importorskip("zxingcpp")
    width, height, grey = drv.execute_script(_PIXELS, canvas)
    found = zxingcpp.read_barcodes(memoryview(base64.b64decode(grey)).cast("B", (height, width)))
    assert len(found) == 1, f"{len(found)} codes read in #{canvas}"
    return str(found[0].text)


def test_share_this_game_gives_the_link_and_its_qr_code_which_open_the_verdicts(table_site: Site, tmp_path: Path) -> None:
    """The offline table's "Share this game": the game on the table as ``getaway-ref link``
    makes it of the same record, shown as a link and drawn as a QR code that a decoder reads
    back to the same link; the link opens the site's page with the verdicts ``check`` prints."""
    drv = table_site.drv
    drv.get(table_site.url.replace("index.html", "table.html"))
    _started(drv)
    record = tmp_path / "shared.gwy"
    record.write_text(POSITION, encoding="utf-8")
    drv.find_element("id", "import").send_keys(str(record))
    _wait(drv, lambda d: d.find_elements("css selector", '#pick-card button[data-card="A♠"]'), "the imported game")
    for seat, card in FIRST:
        _tap(drv, seat, card)
    before = drv.execute_script("return document.body.dataset.shared || '0'")
    _click(drv, "#share-game")
    _wait(drv, lambda d: d.execute_script("return document.body.dataset.shared || '0'") != before, "the shared link")
    link = drv.find_element("id", "share-link").get_attribute("value")

    # the same entries by live, then the same record's link by the command line
    by_live = tmp_path / "cli" / "shared.gwy"
    by_live.parent.mkdir()
    by_live.write_text(POSITION, encoding="utf-8")
    assert run_cli("live", str(by_live), input="".join(f"{s} {c}\n" for s, c in FIRST)).returncode == 0
    base = table_site.url  # the site's page, where the table's link points
    cli = run_cli("link", str(by_live), "--base", base)
    assert cli.returncode == 0, cli.stderr
    assert link == cli.stdout.strip()
    assert _qr_text(drv, "share-qr") == link

    # opened (offline or not: the fragment never reaches a server), the link shows check's verdicts
    game = decode_game(link.split("#", 1)[1])
    (tmp_path / "game.gwy").write_text(game, encoding="utf-8")
    want = run_cli("check", "game.gwy", cwd=tmp_path)
    drv.get(link)
    _wait(drv, lambda d: d.execute_script("return document.body.dataset.checked"), "the linked game checked")
    assert drv.execute_script("return document.getElementById('verdicts').textContent") == want.stdout + want.stderr
    assert drv.execute_script("return document.getElementById('verdicts').dataset.exit") == str(want.returncode)


def _said(lang: str, message: str) -> str:
    with L.speaking(lang):
        return L.gettext(message)


def test_a_visit_keeps_its_language_a_language_picked_or_opened_opens_offline_and_a_new_build_keeps_them(
        table_site: Site, tmp_path: Path) -> None:
    """In a browser of its own: the first visit (the English page) fetches and caches no other
    language's files; the picker's Bengali is cached (its pages, manifest, catalogues) and a
    Malayalam page opened online is too; a new build of the site (a new cache) keeps both, the
    old cache dropped; offline, their pages open in their language, and a page of a language
    never kept opens in English (at its address, the engine started: not sent round again)."""
    from selenium.webdriver.support.ui import Select, WebDriverWait

    root = tmp_path / "site"
    shutil.copytree(table_site.root, root)  # its own copy: this test writes a new build's sw.js into it
    drv = start_chrome()
    site = Site(root, drv, _CountedAfresh)
    try:
        # (each page's engine is let start before another page is opened: a Worker stopped while
        # its runtime is still being compiled can take the tab down with it)
        def ready(d) -> bool:
            return d.execute_script("return document.body.dataset.ready") == "1"

        drv.get(site.url)
        _wait(drv, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"), "the service worker")
        WebDriverWait(drv, START).until(ready, message="the engine")
        assert not {p.lstrip("/") for p, _ in _CountedAfresh.sent} & _others()
        ((first, held),) = _cached(drv).items()
        assert {"index.html", "table.html", "manifest.webmanifest", "getaway-ref.zip"} <= held
        assert not held & _others()

        # picked: the Bengali page opens, and Bengali's files are kept, no one else's
        Select(drv.find_element("id", "lang")).select_by_value("bn")
        WebDriverWait(drv, 30).until(lambda d: d.find_element("tag name", "html").get_attribute("lang") == "bn")
        assert drv.current_url.endswith("/index.bn.html")
        bn = {f for f in _own_files("bn") if not f.endswith(".gz")}
        WebDriverWait(drv, 60).until(lambda d: bn <= _cached(d)[first], message="Bengali's files kept")
        assert not _cached(drv)[first] & _others("bn")
        WebDriverWait(drv, START).until(ready, message="the engine")

        # a new build (its service worker names a new cache), found when a Malayalam page is
        # opened online with no choice kept: the new cache holds Bengali and Malayalam too
        drv.execute_script("localStorage.removeItem('getaway-lang')")
        sw = site.root / "sw.js"
        sw.write_text(sw.read_text(encoding="utf-8").replace(first, f"{first}-next"), encoding="utf-8")
        drv.get(site.url.replace("index.html", "table.ml.html"))
        assert drv.find_element("tag name", "html").get_attribute("lang") == "ml"
        ml = {f for f in _own_files("ml") if not f.endswith(".gz")}
        WebDriverWait(drv, 120).until(lambda d: set(_cached(d)) == {f"{first}-next"}, message="the new build's cache")
        WebDriverWait(drv, 60).until(lambda d: bn | ml <= _cached(d)[f"{first}-next"], message="both languages kept")
        assert not _cached(drv)[f"{first}-next"] & _others("bn", "ml")

        # offline: each kept language's pages open in it, from the cache
        site.offline()
        _started(drv)
        for lang in ("bn", "ml"):
            drv.get(site.url.replace("index.html", f"table.{lang}.html"))
            WebDriverWait(drv, 30).until(lambda d, lang=lang: d.find_element("tag name", "html").get_attribute("lang") == lang)
            assert drv.find_element("css selector", "#games-box h2").text == _said(lang, "Games on this phone")
            _started(drv)
            drv.get(site.url.replace("index.html", f"index.{lang}.html"))
            assert drv.find_element("tag name", "h1").text == _said(lang, "Getaway referee")
            WebDriverWait(drv, START).until(ready, message="the engine")
        # a language never kept, though chosen: its address gives the English page, which stays
        # (the engine starts in it) instead of being sent to that address again and again
        drv.execute_script("localStorage.setItem('getaway-lang', 'ur')")
        drv.get(site.url.replace("index.html", "index.ur.html"))
        WebDriverWait(drv, START).until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
        assert drv.current_url.endswith("/index.ur.html")
        assert drv.find_element("tag name", "html").get_attribute("lang") == "en"
        assert re.fullmatch(r"Ready: .*", drv.find_element("id", "status").text)
    finally:
        drv.quit()
        site.close()
