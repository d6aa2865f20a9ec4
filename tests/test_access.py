"""Issue 40, items 4 and 5: the replay page (``getaway-ref html``) and the table of ``serve``
right to left, and for everyone (keyboards, screen readers, contrast, target sizes).

axe-core, the accessibility engine, comes from npm at the version pinned here
(``npm install --no-save axe-core@VERSION``, as CI does; docs/contributing.md). It is read from
``./node_modules/axe-core`` (or ``$GETAWAY_AXE``, the package's folder) and injected into the
pages in headless Chromium, which must report no violation in either direction, in the light
and the dark scheme, at a desktop's size and a phone's. Without axe-core these tests skip, or
fail where CI asks for them (``GETAWAY_REQUIRE_BROWSER=1``).

Then the pages as they are used: the right-to-left page keeps the table's geometry and prints
a card as printed, the keys go the way the page reads, every control is reached by Tab with a
visible focus and a target of 24x24 CSS px, and a whole short game is recorded in ``serve``
(a real server on 127.0.0.1) by keys alone, its ruling read from the felt and said to a screen
reader.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from conftest import DEAL, DESKTOP, PHONE, RECORDS, ROOT, run_cli
from test_page import ARTIFACTS, _data

from referee.engine import language as L
from referee.table.page import render

AXE_VERSION = "4.14.1"  # the axe-core the pages are tested with; CI installs this one
AXE_INSTALL = f"npm install --no-save --no-audit --no-fund axe-core@{AXE_VERSION}"
# Every rule of WCAG 2.0-2.2 A and AA, and axe's best practices (target-size is WCAG 2.2's 24px)
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
RENEGE = RECORDS / "dispute-renege-illegal.gwy"  # one M201 in trick 5, penalised
BLUNDER = RECORDS / "review-blunder.gwy"  # html --review: marks on the plays and the chart

# ---- axe-core ------------------------------------------------------------------------------------


def _axe_source() -> str:
    given = os.environ.get("GETAWAY_AXE")
    folder = Path(given) if given else ROOT / "node_modules" / "axe-core"
    try:
        version = json.loads((folder / "package.json").read_text(encoding="utf-8"))["version"]
        source = (folder / "axe.min.js").read_text(encoding="utf-8")
    except (OSError, ValueError, KeyError):
        version, source = None, ""
    if version != AXE_VERSION:
        why = f"axe-core {AXE_VERSION} is not installed in {folder}" + (f" (found {version})" if version else "")
        if os.environ.get("GETAWAY_REQUIRE_BROWSER"):
            pytest.fail(f"{why}: {AXE_INSTALL}")
        pytest.skip(f"{why} ({AXE_INSTALL}; CI installs it)")
    return source


@pytest.fixture(scope="module")
def axe() -> str:
    return _axe_source()


_RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}}).then((r) => done({
  violations: r.violations.map((v) => ({id: v.id, nodes: v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary)})),
  contrast: (r.passes.find((p) => p.id === 'color-contrast') || {nodes: []}).nodes.map((n) => n.target.join(' ')),
}), (e) => done({error: String(e)}));
"""


def _until(drv, check, what: str):
    """Wait (a bound, not a measure) until ``check`` holds: the page redraws on its own time."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(drv, 20).until(lambda d: check(d), message=what)


def _scheme(drv, scheme: str) -> None:
    drv.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def _axe(drv, source: str) -> dict:
    """axe-core's verdict on the page as it is shown now (injected as the driver's script:
    the page's own policy allows only its own)."""
    drv.execute_script(source)
    got = drv.execute_async_script(_RUN_AXE, AXE_TAGS)
    assert "error" not in got, got
    return got


def _no_violations(got: dict, where: str) -> None:
    found = {v["id"]: v["nodes"][:3] for v in got["violations"]}
    assert found == {}, f"{where}: {json.dumps(found, ensure_ascii=False, indent=1)}"


# The four looks each page is judged in: direction, scheme, size.
LOOKS = [("ltr", "light", DESKTOP), ("ltr", "dark", PHONE), ("rtl", "light", DESKTOP), ("rtl", "dark", PHONE)]


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """The replay page of a record with a mistake and a reviewed one, as ``html`` writes them
    (left to right) and rendered from the same data right to left (written once a module)."""
    tmp_path = tmp_path_factory.mktemp("pages")
    out: dict[str, Path] = {}
    for name, record, args in (("renege", RENEGE, ()), ("review", BLUNDER, ("--review",))):
        page = tmp_path / f"{name}.html"
        r = run_cli("html", str(record), "-o", str(page), *args)
        assert r.returncode in (0, 1) and page.exists(), r.stderr
        out[f"{name}-ltr"] = page
        rtl = tmp_path / f"{name}-rtl.html"
        rtl.write_text(render(_data(page), lang="ur", direction="rtl"), encoding="utf-8")
        out[f"{name}-rtl"] = rtl
    return out


def test_the_replay_page_has_no_violations_in_either_direction(pages, browser, axe):
    try:
        for direction, scheme, size in LOOKS:
            for name, at in (("renege", "#mistake-1"), ("review", "#step-3")):
                browser.set_window_size(*size)
                _scheme(browser, scheme)
                browser.get("about:blank")
                browser.get(pages[f"{name}-{direction}"].as_uri() + at)
                assert browser.execute_script("return document.documentElement.dir") == direction
                got = _axe(browser, axe)
                where = f"{name} page, {direction}, {scheme}, {size[0]}px"
                _no_violations(got, where)
                # the text on the felt is measured, not skipped (a gradient would hide it from axe)
                assert any("h3" in t for t in got["contrast"]), (where, got["contrast"][:10])
                assert any("#what" in t or "#lead" in t for t in got["contrast"]), where
    finally:
        _scheme(browser, "light")
        browser.set_window_size(*DESKTOP)


def _lead_out_of_turn(browser, srv) -> None:
    """Record, as the recorder types it, two tricks and then South's lead out of turn (M203):
    a mistake on the felt, its badge, the ruling and the penalty."""
    from test_serve import _answer, _wait

    browser.get(srv.record)
    _wait(browser, lambda d: d.find_element("id", "recorder").is_displayed(), "the recorder's panel")
    for entry in ["west as", "n js", "e ah", "s 10s", "W 5h", "N 9h", "E qh", "S jh", "south 7h"]:
        before = _answer(browser)
        browser.find_element("id", "entry").send_keys(entry + "\n")
        _wait(browser, lambda d, b=before: _answer(d) != b, f"the ruling on {entry}")


def test_the_serve_table_has_no_violations_in_either_direction(tmp_path, browser, axe):
    from test_serve import Server, _answer, _wait

    rec = tmp_path / "table.gwy"
    rec.write_text(DEAL, encoding="utf-8")
    srv = Server(rec, "--host", "127.0.0.1")
    try:
        _lead_out_of_turn(browser, srv)
        _wait(browser, lambda d: "M203" in _answer(d), "the mistake's ruling")
        # a direction or a language tag the page does not know: English, left to right
        import urllib.request

        with urllib.request.urlopen(srv.record + "&dir=sideways&lang=%22%3E%3Cscript%3E", timeout=20) as r:
            assert '<html lang="en" dir="ltr">' in r.read().decode("utf-8")
        # said at once, as a mistake; the polite region keeps the plays
        _wait(browser, lambda d: "M203" in d.find_element("id", "alarm").get_attribute("textContent"), "the alarm")
        for direction, scheme, size in LOOKS:
            browser.set_window_size(*size)
            _scheme(browser, scheme)
            for url, role in ((srv.record, "recorder"), (srv.watch, "watcher")):
                browser.get(url + ("&" if "?" in url else "?") + f"dir={direction}&lang={'ur' if direction == 'rtl' else 'en'}")
                _wait(browser, lambda d: "M203" in _answer(d), "the table drawn")
                assert browser.execute_script("return [document.documentElement.dir, document.documentElement.lang]") == \
                    [direction, "ur" if direction == "rtl" else "en"]
                if (direction, scheme, size, role) == ("rtl", "light", DESKTOP, "recorder"):
                    ARTIFACTS.mkdir(parents=True, exist_ok=True)
                    assert browser.save_screenshot(str(ARTIFACTS / "serve-rtl.png"))
                got = _axe(browser, axe)
                _no_violations(got, f"serve, the {role}'s page, {direction}, {scheme}, {size[0]}px")
    finally:
        srv.stop()
        _scheme(browser, "light")
        browser.set_window_size(*DESKTOP)


def _shipped() -> list[str]:
    from referee.engine import language as L

    return ["en", *L.shipped()]


def test_both_pages_have_no_violations_in_every_language(pages, tmp_path, browser, axe):
    """Every shipped language (issue 40): the replay page in its words and direction, and
    serve's recorder page as a phone that chose it."""
    from test_serve import Server, _answer, _wait

    from referee.engine import language as L

    langs = _shipped()
    assert len(langs) >= 7, langs  # English and the six languages of the table
    rec = tmp_path / "table.gwy"
    rec.write_text(DEAL, encoding="utf-8")
    srv = Server(rec, "--host", "127.0.0.1")
    try:
        _lead_out_of_turn(browser, srv)
        for lang in langs:
            info = L.info(lang)
            page = tmp_path / f"renege-{lang}.html"
            page.write_text(render(_data(pages["renege-ltr"]), lang=lang), encoding="utf-8")
            browser.get("about:blank")
            browser.get(page.as_uri() + "#mistake-1")
            assert browser.execute_script("return [document.documentElement.lang, document.documentElement.dir]") == \
                [info.tag, info.dir]
            _no_violations(_axe(browser, axe), f"the replay page in {lang}")
            browser.get(srv.record + ("&" if "?" in srv.record else "?") + f"lang={lang}")
            _wait(browser, lambda d: "M203" in _answer(d), "the table drawn")
            assert browser.execute_script("return document.documentElement.lang") == info.tag
            _no_violations(_axe(browser, axe), f"serve, the recorder's page in {lang}")
    finally:
        srv.stop()


# ---- right to left ---------------------------------------------------------------------------------

_GEOMETRY = """
const box = (e) => e.getBoundingClientRect();
const hand = (s) => box(document.querySelector('#felt .hand[data-seat="' + s + '"]'));
// the x of each character of a text: a card printed as its rank then its suit
const xs = (node) => {
  const t = node.firstChild, out = [];
  for (let i = 0; i < t.length; i++) { const r = document.createRange(); r.setStart(t, i); r.setEnd(t, i + 1); out.push(r.getBoundingClientRect().left); }
  return out;
};
const cards = Array.from(document.querySelectorAll('#felt .mini, #moves .cardtext, #what .cardtext, #diags .cardtext'))
  .filter((e) => e.firstChild && e.firstChild.nodeType === 3 && e.getClientRects().length)
  .map((e) => [e.textContent, xs(e)]);
const slots = Array.from(document.querySelectorAll('#trick .slot')).map((s) => [s.dataset.seat, box(s).left]);
return {dir: getComputedStyle(document.documentElement).direction,
        north: hand('North').top, south: hand('South').top, east: hand('East').left, west: hand('West').left,
        title: box(document.getElementById('title')).right, page: document.documentElement.clientWidth,
        board: box(document.querySelector('.board')).left, aside: box(document.querySelector('.side-panel')).left,
        slots: slots, cards: cards, label: document.getElementById('label').textContent};
"""


def test_right_to_left_keeps_the_table_and_the_cards_as_the_table_sees_them(pages, tmp_path, browser):
    browser.set_window_size(*DESKTOP)
    browser.get(pages["renege-rtl"].as_uri() + "#mistake-1")
    g = browser.execute_script(_GEOMETRY)
    assert g["dir"] == "rtl"
    # the page reads from the right: the title at the right edge, the side panel on the left
    assert g["title"] > g["page"] * 0.8 and g["aside"] < g["board"], g
    # the seats sit where they sit at the table: North above South, East right of West
    assert g["north"] < g["south"] and g["east"] > g["west"], g
    # the trick in play order, read from the right: West led 4♥, North 6♥, East K♣
    assert [s for s, _ in g["slots"]] == ["West", "North", "East"], g["slots"]
    lefts = [x for _, x in g["slots"]]
    assert lefts == sorted(lefts, reverse=True), g["slots"]
    # every card in a hand, the trick list and the sentences: rank then suit, left to right
    assert len(g["cards"]) > 20
    for text, xs in g["cards"]:
        assert xs == sorted(xs), (text, xs)
    # the same page left to right: the same seats, the trick read from the left
    browser.get(pages["renege-ltr"].as_uri() + "#mistake-1")
    h = browser.execute_script(_GEOMETRY)
    assert h["dir"] == "ltr" and h["east"] > h["west"] and h["aside"] > h["board"]
    assert [s for s, _ in h["slots"]] == ["West", "North", "East"]
    assert [x for _, x in h["slots"]] == sorted(x for _, x in h["slots"])
    # ten seats round the table (three in a row at the top): every hand at the same place on
    # the felt in either direction
    ten = tmp_path / "ten.html"
    assert run_cli("html", str(RECORDS / "double-pack.gwy"), "-o", str(ten)).returncode in (0, 1)
    ten_rtl = tmp_path / "ten-rtl.html"
    ten_rtl.write_text(render(_data(ten), lang="ur", direction="rtl"), encoding="utf-8")
    places = []
    for page in (ten, ten_rtl):
        browser.get("about:blank")
        browser.get(page.as_uri())
        places.append(browser.execute_script(
            "const f = document.getElementById('felt').getBoundingClientRect();"
            "return Object.fromEntries(Array.from(document.querySelectorAll('#felt .hand')).map((h) => {"
            "  const r = h.getBoundingClientRect(); return [h.dataset.seat, [Math.round(r.left - f.left), Math.round(r.top - f.top)]]; }))"))
    assert len(places[0]) == 10 and places[0] == places[1], places
    # forward is the way the page reads: the left arrow in Urdu, the right one in English
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    step = lambda: int(browser.execute_script("return document.getElementById('label').textContent").split(" / ")[0])  # noqa: E731
    for page, forward, back in ((pages["renege-rtl"], Keys.ARROW_LEFT, Keys.ARROW_RIGHT),
                                (pages["renege-ltr"], Keys.ARROW_RIGHT, Keys.ARROW_LEFT)):
        browser.get("about:blank")
        browser.get(page.as_uri() + "#step-2")
        ActionChains(browser).send_keys(forward).perform()
        assert step() == 3
        ActionChains(browser).send_keys(back, back).perform()
        assert step() == 1
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.get("about:blank")
    browser.get(pages["renege-rtl"].as_uri() + "#mistake-1")
    assert browser.save_screenshot(str(ARTIFACTS / "replay-rtl.png"))


def test_the_styles_use_logical_sides_only():
    """A physical side (left, right) in the table's styles would not turn with the page: only
    the felt's geometry names them (its grid areas and the classes of its sides)."""
    css = (ROOT / "referee" / "table" / "templates" / "table.css").read_text(encoding="utf-8")
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    css = re.sub(r"grid-area:\s*(?:left|right)\b", "", css)  # the felt's sides, where its seats sit
    physical = re.findall(r"[\w-]*(?:left|right)[\w-]*\s*:[^;}]*|:\s*(?:left|right)\b", css)
    assert physical == [], physical


# ---- the keyboard, focus and the screen reader ----------------------------------------------------

_FOCUSED = """
const e = document.activeElement;
if (!e || e === document.body) return null;
const s = getComputedStyle(e), r = e.getBoundingClientRect();
return {key: e.id || e.getAttribute('data-card') || e.getAttribute('data-at') || e.getAttribute('data-q') || e.tagName + ':' + e.textContent,
        tag: e.tagName, outline: parseFloat(s.outlineWidth) * (s.outlineStyle === 'none' ? 0 : 1), halo: s.boxShadow,
        w: r.width, h: r.height, at: e.getAttribute('data-at'), text: e.textContent};
"""


def _tab_round(drv, most: int = 200) -> list[dict]:
    """Every control Tab reaches from the top of the page, in order, until it comes round."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    seen: list[dict] = []
    for _ in range(most):
        ActionChains(drv).send_keys(Keys.TAB).perform()
        f = drv.execute_script(_FOCUSED)
        if f is None or (seen and f["key"] == seen[0]["key"]):
            break
        seen.append(f)
    else:
        pytest.fail(f"Tab never came round after {most} presses: {[s['key'] for s in seen[-5:]]}")
    return seen


def test_the_replay_page_by_keyboard_alone(pages, browser):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    for direction in ("ltr", "rtl"):
        browser.set_window_size(*DESKTOP)
        browser.get("about:blank")
        browser.get(pages[f"renege-{direction}"].as_uri())
        reached = _tab_round(browser)
        keys = [f["key"] for f in reached]
        # every control, in the page's order: the view, the steps, the slider, the trick list, the findings
        for want in ("view", "first", "prev", "next", "last", "slider"):
            assert want in keys, (want, keys)
        assert keys.index("view") < keys.index("first") < keys.index("slider")
        moves = [f for f in reached if f["tag"] == "A" and f["at"] is not None]
        links = browser.execute_script("return [document.querySelectorAll('#moves a').length, "
                                       "document.querySelectorAll('#mistakes a').length]")
        assert len(moves) == links[0] >= 3 and keys.index("slider") < keys.index(moves[0]["key"])
        assert len([f for f in reached if f["tag"] == "A" and f["at"] is None]) == links[1] >= 1  # the findings
        # a visible focus on each (a 3px ring and its halo) and a target of 24x24 CSS px at least
        for f in reached:
            assert f["outline"] >= 2 and f["halo"] != "none", f
            assert f["w"] >= 24 and f["h"] >= 24, f
        # Enter on a play in the trick list opens it; the polite region says it
        browser.get("about:blank")
        browser.get(pages[f"renege-{direction}"].as_uri())
        _tab_to(browser, lambda f: f["tag"] == "A" and f["text"] == "East K♣", "East K♣ in the trick list")
        ActionChains(browser).send_keys(Keys.ENTER).perform()
        # the label in the page's words: "trick 5" in English, its catalogue's words right to left
        with L.speaking("en" if direction == "ltr" else "ur"):
            opened = L.gettext("trick {trick}").format(trick=5) + ": East K♣"
        _until(browser, lambda d, opened=opened: d.execute_script(
            "return document.getElementById('label').textContent").endswith(opened), "the play opened")
        said = browser.execute_script("return [document.getElementById('announce').textContent, "
                                      "document.getElementById('alarm').textContent, "
                                      "document.getElementById('announce').getAttribute('aria-live'), "
                                      "document.getElementById('alarm').getAttribute('aria-live')]")
        # a mistake is said at once (assertive), the play politely
        _until(browser, lambda d: "M201" in d.execute_script("return document.getElementById('alarm').textContent"),
              "the mistake said at once")
        _until(browser, lambda d: "East played K♣" in d.execute_script("return document.getElementById('announce').textContent"),
              "the play said politely")
        assert said[2:] == ["polite", "assertive"]


def _keys(drv, *keys: str) -> None:
    """Keys pressed in turn; ``BACK_TAB`` is Shift+Tab (Shift held down around the Tab)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    chain = ActionChains(drv)
    for k in keys:
        if k == BACK_TAB:
            chain = chain.key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT)
        else:
            chain = chain.send_keys(k)
    chain.perform()


BACK_TAB = "shift+tab"


def _focused(drv) -> dict | None:
    return drv.execute_script(_FOCUSED)


def _tab_to(drv, check, what: str, most: int = 120, back: bool = False) -> dict:
    """Tab (or Shift+Tab) until the focused control is the one wanted."""
    from selenium.webdriver.common.keys import Keys

    for _ in range(most):
        f = _focused(drv)
        if f is not None and check(f):
            return f
        _keys(drv, BACK_TAB if back else Keys.TAB)
    pytest.fail(f"Tab never reached {what}")


def test_a_whole_game_recorded_in_serve_by_keys_alone(tmp_path, browser):
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.keys import Keys
    from test_serve import POSITION, Server, _moves, _wait

    rec = tmp_path / "table.gwy"
    rec.write_text(POSITION, encoding="utf-8")
    srv = Server(rec, "--host", "127.0.0.1")
    browser.set_window_size(*DESKTOP)
    plays = [("North", "A♠"), ("East", "K♠"), ("South", "Q♠"), ("West", "J♠"),
             ("North", "5♥"), ("East", "4♥"), ("South", "3♥"), ("West", "2♥")]
    try:
        browser.get(srv.record)
        _wait(browser, lambda d: d.find_element("id", "recorder").is_displayed(), "the recorder's panel")
        # the seat to play is chosen already: Tab to its card, Enter (or Space) records it
        pressed_seat = ("var b = document.querySelector('#pick-seat button[aria-pressed=\"true\"]');"
                        "return b && b.getAttribute('data-seat');")
        for k, (seat, card) in enumerate(plays):
            # the page redraws the picker when the last entry's update arrives: a key pressed
            # before that lands on a button about to be replaced, so wait for the turn to move on
            try:
                _wait(browser, lambda d, s=seat: d.execute_script(pressed_seat) == s, f"{seat} chosen to play")
            except TimeoutException:
                pass  # a seat the page does not choose itself is chosen by keys below
            pressed = browser.execute_script(pressed_seat)
            if pressed != seat:  # choose the seat by keys too
                _tab_to(browser, lambda f, s=seat: f["key"] == f"BUTTON:{s}" or f["key"].startswith(f"BUTTON:{s} "), seat)
                _keys(browser, Keys.SPACE)
            _tab_to(browser, lambda f, c=card: f["key"] == c, f"{seat}'s {card}")
            _keys(browser, Keys.ENTER if k % 2 == 0 else Keys.SPACE)
            _wait(browser, lambda d, s=seat, c=card: f"{s} {c}" in _moves(d), f"{seat} {card} recorded")
            if k == 0:
                # the focus stays in the card picker (the buttons are made again): no Tab from the top
                _wait(browser, lambda d: d.execute_script(
                    "return document.getElementById('pick-card').contains(document.activeElement)"), "the focus kept")
                # Undo by keys: the question takes the focus; Escape keeps the play, Remove it removes it
                _tab_to(browser, lambda f: f["key"] == "undo", "Undo")
                _keys(browser, Keys.ENTER)
                assert _focused(browser)["key"] == "confirm-no"
                _keys(browser, Keys.ESCAPE)
                assert browser.find_element("id", "confirm").is_displayed() is False
                assert _focused(browser)["key"] == "undo" and "10. North A♠" in rec.read_text(encoding="utf-8")
                _keys(browser, Keys.ENTER, BACK_TAB)
                assert _focused(browser)["key"] == "confirm-yes"
                _keys(browser, Keys.ENTER)
                _wait(browser, lambda d: "North A♠" not in _moves(d), "the play undone")
                assert "10. North A♠" not in rec.read_text(encoding="utf-8")
                _tab_to(browser, lambda f: f["key"] == "A♠", "North's A♠ again", back=True)
                _keys(browser, Keys.ENTER)
                _wait(browser, lambda d: "North A♠" in _moves(d), "North A♠ recorded again")
        # the felt's ruling: North lost, holding the power with no card to draw for
        _wait(browser, lambda d: "Game over: North lost" in d.find_element("id", "end").text, "the end of the game")
        assert "loser" in browser.find_element("css selector", '#felt .hand[data-seat="North"]').get_attribute("class")
        answer = browser.find_element("id", "answer").text
        assert "North loses" in answer
        # the ruling said to a screen reader, politely (no mistake in this game)
        _wait(browser, lambda d: d.find_element("id", "announce").get_attribute("textContent") == answer, "the ruling said")
        assert browser.find_element("id", "alarm").get_attribute("textContent") == ""
    finally:
        srv.stop()
    text = rec.read_text(encoding="utf-8")
    assert "10. North A♠, East K♠, South Q♠, West J♠" in text and "11. North 5♥, East 4♥, South 3♥, West 2♥" in text
    r = run_cli("check", "--show-games", str(rec))
    assert r.returncode == 0 and "North lost" in r.stdout, r.stdout + r.stderr


def test_ci_and_the_docs_install_the_pinned_axe_core():
    """One version: what CI installs and the docs tell is what these tests check against."""
    assert f"axe-core@{AXE_VERSION}" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert AXE_INSTALL in (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
