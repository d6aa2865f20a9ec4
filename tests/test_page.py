"""``getaway-ref html``: the replay page, opened in a real headless Chromium.

The page is written by the command, opened from disk (no server, no network), stepped with
its buttons, its trick list and its keys, and read back from what the browser shows, at a
desktop's size (1280x900) and a phone's (390x844). Screenshots are kept in
build/test-artifacts/ for people to look at (docs/ holds copies for the README).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from pathlib import Path

import pytest
from conftest import DATA, DESKTOP, PHONE, RECORDS, ROOT, run_cli

from referee.notation.record import Play

ARTIFACTS = ROOT / "build" / "test-artifacts"
RENEGE = DATA / "invalid" / "M201-renege.gwy"  # game 1: East throws 10♣ on a diamond lead holding ♦QJT9


@pytest.fixture
def desktop(browser):
    browser.set_window_size(*DESKTOP)
    return browser


@pytest.fixture
def phone(browser):
    browser.set_window_size(*PHONE)
    try:
        yield browser
    finally:
        browser.set_window_size(*DESKTOP)


def _page(tmp_path: Path, record: Path, *args: str, name: str = "page.html") -> Path:
    out = tmp_path / name
    r = run_cli("html", str(record), "-o", str(out), *args)
    assert r.returncode == 0, r.stderr
    # the page is written and the line says so, naming the file, in whatever language was asked
    assert out.exists() and out.stat().st_size > 0 and str(out) in r.stdout
    return out


def _open(drv, page: Path, fragment: str = "") -> None:
    # A new document each time: a fragment alone would not reload the page.
    drv.get("about:blank")
    drv.get(page.as_uri() + fragment)


def _settled(drv, ready, wait: float = 10.0) -> dict:
    """What the page shows once ``ready(shown)`` holds (a click redraws the table in the
    browser's next frame), or as it is after ``wait`` seconds."""
    import time

    end = time.monotonic() + wait
    while True:
        shown = _shown(drv)
        if ready(shown) or time.monotonic() > end:
            return shown
        time.sleep(0.05)


def _shown(drv) -> dict:
    """What the page shows now, read from the browser in one script: the page redraws in its
    next frame after a click, and reading element by element could straddle that redraw."""
    shown = drv.execute_script(_READ_PAGE)
    shown["table"] = [tuple(t) for t in shown["table"]]
    return shown


# One read of everything the tests look at, run inside the page so no redraw falls in between.
_READ_PAGE = """
const text = (id) => document.getElementById(id).innerText.trim();
const all = (root, sel) => Array.from(root.querySelectorAll(sel));
const table = all(document, '#trick .slot').map((s) => {
  const card = s.querySelector('.card');
  return [s.dataset.seat, card.dataset.card, card.classList.contains('bad')];
});
const boxes = all(document, '#felt .hand');
const per = (f) => Object.fromEntries(boxes.map((h) => [h.dataset.seat, f(h)]));
const words = (h, sel) => all(h, sel).map((m) => m.innerText.trim()).join(' ');
return {label: text('label'), what: text('what'), table, fate: text('fate'), lead: text('lead'),
        diags: text('diags'), waste: text('waste'), out: text('out'), notice: text('notice'),
        hands: per((h) => h.querySelector('.size').innerText.trim()),
        heads: per((h) => h.querySelector('h3').innerText.trim()),
        cards: per((h) => words(h, '.cards .mini') + ' | ' + words(h, '.cards .unseen')),
        notes: per((h) => words(h, '.note'))};
"""


def _errors(drv) -> list[str]:
    """The browser's console errors since the last call (a refused script or style shows here)."""
    return [e["message"] for e in drv.get_log("browser") if e["level"] == "SEVERE"]


def _data(page: Path) -> dict:
    text = page.read_text(encoding="utf-8")
    return json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', text, re.S).group(1))


def _sha(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def test_page_is_self_contained_and_its_policy_names_its_one_script(tmp_path):
    page = _page(tmp_path, RENEGE, "--game", "1")
    text = page.read_text(encoding="utf-8")
    # no network: nothing is fetched from anywhere
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text)
    assert "@import" not in text and "url(" not in text
    policy = html.unescape(re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', text).group(1))
    assert "default-src 'none'" in policy and "connect-src" not in policy
    scripts = re.findall(r"<script>(.*?)</script>", text, re.S)
    styles = re.findall(r"<style>(.*?)</style>", text, re.S)
    assert len(scripts) == 1 and len(styles) == 1
    assert f"script-src '{_sha(scripts[0])}'" in policy and f"style-src '{_sha(styles[0])}'" in policy
    data = _data(page)
    assert data["file"] == "M201-renege.gwy" and len(data["games"]) == 1
    g = data["games"][0]
    assert g["seats"] == ["North", "East", "South", "West"] and g["tricks"] == {"1": 4, "2": 7, "3": 12}


def test_renege_stepped_to_in_a_real_browser(tmp_path, desktop):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser = desktop
    page = _page(tmp_path, RENEGE, "--game", "1")
    _open(browser, page)
    assert _errors(browser) == []  # the policy let the page's own script and style run
    s = _shown(browser)
    assert s["label"].startswith("0 / ") and "start" in s["label"]
    assert s["hands"] == {"North": "13 cards", "East": "13 cards", "South": "13 cards", "West": "13 cards"}
    assert "West leads trick 1 with A♠" in s["lead"]
    # the button steps forward; the arrow keys step both ways
    browser.find_element(By.ID, "next").click()
    assert _shown(browser)["table"] == [("West", "A♠", False)]
    body = browser.find_element(By.TAG_NAME, "body")
    for _ in range(6):
        body.send_keys(Keys.ARROW_RIGHT)
    body.send_keys(Keys.ARROW_LEFT)
    s = _shown(browser)
    assert s["label"].startswith("6 / ") and "trick 2: North A♦" in s["label"]
    body.send_keys(Keys.ARROW_RIGHT)
    s = _shown(browser)
    # the renege: on the table with its mark, the diagnostic with rule, penalty and verdict
    assert s["table"] == [("West", "5♦", False), ("North", "A♦", False), ("East", "10♣", True)]
    assert "East played 10♣" in s["what"]
    assert "M201" in s["diags"] and "renege: East played 10♣ on a diamond lead while holding Q♦" in s["diags"]
    assert "Rule: " in s["diags"] and "must follow" in s["diags"]
    assert "East picks up the 3 cards of trick 2 and leads trick 3" in s["diags"]
    assert "The table applied the penalty." in s["diags"]
    assert s["hands"]["East"] == "14 cards" and "East leads trick 3: they picked up a trick as the penalty" in s["lead"]
    # the waste pile's cards, not only their number: trick 1 went there
    assert s["waste"].startswith("Waste pile: 4 cards") and all(c in s["waste"] for c in ("A♠", "K♠", "10♥", "10♠"))
    # East leads by the penalty, which is not "the power" (the highest card of the last trick)
    assert "leads" in s["heads"]["East"] and "power" not in s["heads"]["East"]
    # the screen reader hears the step (the page fills its live region a moment after the
    # step is drawn, so a screen reader notices the change: wait for it, do not race it)
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 5).until(
        lambda b: "East played 10♣" in b.find_element(By.ID, "announce").get_attribute("textContent"))
    # one kind of fragment, always: the step
    assert browser.execute_script("return location.hash") == "#step-7"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert browser.save_screenshot(str(ARTIFACTS / "page-renege-desktop.png"))
    # #trick-2 opens there directly, at the trick's last play
    _open(browser, page, "#trick-2")
    assert _shown(browser)["table"] == s["table"]
    # ] and [ jump a trick at a time
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys("]")
    assert "trick 3: East Q♦" in _shown(browser)["label"]
    body.send_keys("[")
    assert "trick 2: West 5♦" in _shown(browser)["label"]


def test_the_trick_list_and_the_mistakes_open_their_play(tmp_path, desktop):
    from selenium.webdriver.common.by import By

    browser = desktop
    page = _page(tmp_path, RENEGE, "--game", "1")
    _open(browser, page)
    rows = browser.find_elements(By.CSS_SELECTOR, "#moves li")
    assert rows[0].text.split() == ["1.", "West", "A♠", "North", "K♠", "East", "10♥", "South", "10♠"]
    bad = browser.find_elements(By.CSS_SELECTOR, "#moves a.bad")
    assert [a.text for a in bad] == ["East 10♣"] and bad[0].get_attribute("title") == "M201"
    browser.find_element(By.LINK_TEXT, "North A♦").click()
    s = _settled(browser, lambda s: "trick 2: North A♦" in s["label"] and len(s["table"]) == 2)
    assert "trick 2: North A♦" in s["label"] and s["table"] == [("West", "5♦", False), ("North", "A♦", False)]
    # the mistake's link opens at it, with its ruling
    link = browser.find_element(By.CSS_SELECTOR, "#mistakes a")
    assert "M201" in link.text and link.get_attribute("href").endswith("#mistake-1")
    _open(browser, page, "#mistake-1")
    s = _shown(browser)
    assert ("East", "10♣", True) in s["table"] and "The table applied the penalty." in s["diags"]
    # the ruling read aloud: what the page hands the browser's speech synthesis
    browser.execute_script("window.said = []; speechSynthesis.speak = function (u) { window.said.push(u.text); };")
    browser.find_element(By.ID, "speak").click()
    said = browser.execute_script("return window.said")
    assert len(said) == 1 and "M201" in said[0] and "East played 10♣" in said[0]


def test_a_bad_fragment_says_so(tmp_path, desktop):
    page = _page(tmp_path, RENEGE, "--game", "1")
    for fragment, said in (("#trick-99", "#trick-99: game 1 has tricks 1 to 3; showing the start"),
                           ("#step-500", "#step-500: game 1 has steps 0 to 13"),
                           ("#mistake-4", "#mistake-4: game 1 has findings 1 to 1"),
                           ("#nonsense", "#nonsense is not a place in this page")):
        _open(desktop, page, fragment)
        s = _shown(desktop)
        assert said in s["notice"], fragment
        assert "start" in s["label"]
    _open(desktop, page, "#trick-2")
    assert _shown(desktop)["notice"] == ""


def test_every_game_of_a_file_with_a_picker(tmp_path, desktop):
    from selenium.webdriver.support.ui import Select

    page = _page(tmp_path, RENEGE)
    games = _data(page)["games"]
    assert [g["game"] for g in games] == [1, 2, 3, 4]
    _open(desktop, page)
    picker = Select(desktop.find_element("id", "game"))
    assert len(picker.options) == 4 and picker.first_selected_option.text.startswith("game 4")
    picker.select_by_index(0)
    assert desktop.find_element("id", "title").text == games[0]["title"]
    assert desktop.execute_script("return location.hash") == "#game-1/step-0"
    _open(desktop, page, "#game-2/trick-1")
    assert Select(desktop.find_element("id", "game")).first_selected_option.text.startswith("game 2")
    assert desktop.find_element("id", "title").text == games[1]["title"]
    _open(desktop, page, "#game-7/trick-1")
    assert "this page has no game 7" in _shown(desktop)["notice"]


def test_what_a_seat_knew(tmp_path, desktop):
    from selenium.webdriver.support.ui import Select

    page = _page(tmp_path, RENEGE, "--game", "1")
    _open(desktop, page, "#trick-2")
    s = _shown(desktop)
    assert "Q♦" in s["cards"]["East"]  # the record shows every hand
    Select(desktop.find_element("id", "view")).select_by_visible_text("what North knew")
    s = _shown(desktop)
    # North's own hand is all there; East's 14 cards are hidden from North, except what the
    # table saw East pick up (the three cards of trick 2, the penalty)
    assert "unseen" not in s["cards"]["North"] and "A♥" in s["cards"]["North"]
    assert s["cards"]["East"] == "A♦ 5♦ 10♣ | + 11 not seen by North"
    assert s["cards"]["South"] == " | 12 not seen by North"  # 13 dealt, 10♠ played to trick 1
    # East held Q♦ when it threw 10♣ (the renege): the engine shows no void, and neither does the page
    assert "shown void" not in desktop.find_element("css selector", '#felt .hand[data-seat="East"]').text


def test_two_player_ending_explained_on_a_phone(tmp_path, phone):
    page = _page(tmp_path, RECORDS / "dispute-two-players.gwy")
    _open(phone, page, "#trick-21")
    s = _shown(phone)
    assert [c for _, c, _ in s["table"]] == ["7♣", "8♥"]
    assert "legal tochoo" in s["what"]
    assert "the game is over: West is left holding cards and loses" in s["fate"]
    assert "Got away: " in s["out"] and "East" in s["out"]
    # East is out yet its box holds 2♠: the page says which rule makes it so
    assert s["hands"]["East"].startswith("got away") and "2♠" in s["cards"]["East"]
    assert "with two players left" in s["notes"]["East"] and "(Pagat, Getaway: Two players)" in s["notes"]["East"]
    # nothing wider than the phone's screen, and every hand above the fold
    assert phone.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
    bottoms = phone.execute_script(
        "return [window.innerHeight].concat(Array.from(document.querySelectorAll('#felt .hand')).map("
        "function (h) { return h.getBoundingClientRect().bottom; }))")
    assert len(bottoms) == 5 and max(bottoms[1:]) <= bottoms[0]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    phone.save_screenshot(str(ARTIFACTS / "page-two-players-phone.png"))


def test_a_full_deal_fits_a_phone(tmp_path, phone):
    page = _page(tmp_path, RENEGE, "--game", "1")
    _open(phone, page, "#trick-2")
    assert phone.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
    bottoms = phone.execute_script(
        "return [window.innerHeight].concat(Array.from(document.querySelectorAll('#felt .hand')).map("
        "function (h) { return h.getBoundingClientRect().bottom; }))")
    assert len(bottoms) == 5 and max(bottoms[1:]) <= bottoms[0]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    phone.save_screenshot(str(ARTIFACTS / "page-renege-phone.png"))


def test_dark_mode_and_print(tmp_path, desktop):
    page = _page(tmp_path, RENEGE, "--game", "1")
    _open(desktop, page)
    light = desktop.execute_script("return getComputedStyle(document.body).backgroundColor")
    desktop.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        dark = desktop.execute_script("return getComputedStyle(document.body).backgroundColor")
        assert light != dark
        rgb = [int(x) for x in re.findall(r"\d+", dark)[:3]]
        assert sum(rgb) < 3 * 64  # a dark background
    finally:
        desktop.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    desktop.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert not desktop.find_element("css selector", ".controls").is_displayed()
        assert desktop.find_element("id", "felt").is_displayed()
    finally:
        desktop.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


HOSTILE_EVENT = '</script><script>window.pwned=1</script><!-- "><img src=x onerror=window.pwned=2> @@DATA@@ \u2028x\u2029'


def test_hostile_record_text_is_shown_as_text(tmp_path, desktop):
    name = 'odd <!-- "name\' <script>x.gwy'
    rec = tmp_path / name
    text = RENEGE.read_text(encoding="utf-8")
    first = text.index("%game")
    head, rest = text[:first], text[first:]
    escaped = HOSTILE_EVENT.replace("\\", "\\\\").replace('"', '\\"')
    rest = re.sub(r'\[Event "[^"\n]*"\]', lambda m: f'[Event "{escaped}"]', rest, count=1)
    rec.write_text(head + rest, encoding="utf-8")
    assert run_cli("check", str(rec)).returncode in (0, 1)
    page = _page(tmp_path, rec, "--game", "1")
    raw = page.read_text(encoding="utf-8")
    # the data block holds neither the end of a script, nor a comment's start, nor a raw U+2028
    block = re.search(r'<script type="application/json" id="data">(.*?)</script>', raw, re.S).group(1)
    assert "<" not in block and "\u2028" not in block and "\u2029" not in block
    assert _data(page)["games"][0]["title"] == HOSTILE_EVENT
    _open(desktop, page)
    assert desktop.execute_script("return window.pwned === undefined")
    assert desktop.execute_script("return document.getElementById('title').textContent") == HOSTILE_EVENT
    assert desktop.execute_script("return document.getElementById('file').textContent") == name
    assert desktop.execute_script("return document.title") == f"{HOSTILE_EVENT} — {name}"
    assert desktop.find_elements("css selector", "img") == []
    # the game itself is shown: the page did not break
    assert "West leads trick 1 with A♠" in _shown(desktop)["lead"]


def test_html_errors(tmp_path):
    r = run_cli("html", str(tmp_path / "missing.gwy"))
    assert r.returncode == 2 and "error" in r.stderr and "Traceback" not in r.stderr
    r = run_cli("html", str(RENEGE), "--game", "9", "-o", str(tmp_path / "x.html"))
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr


def test_html_default_name_keeps_a_file_that_is_not_ours(tmp_path):
    rec = tmp_path / "game.gwy"
    rec.write_text(RENEGE.read_text(encoding="utf-8"), encoding="utf-8")
    mine = tmp_path / "game.html"
    mine.write_text("<p>my notes</p>\n", encoding="utf-8")
    r = run_cli("html", str(rec))
    assert r.returncode == 2 and "name it with -o" in r.stderr
    assert mine.read_text(encoding="utf-8") == "<p>my notes</p>\n"
    mine.unlink()
    assert run_cli("html", str(rec)).returncode == 0 and mine.exists()
    first = mine.read_text(encoding="utf-8")
    assert run_cli("html", str(rec), "--game", "2").returncode == 0  # a page of ours is replaced
    assert mine.read_text(encoding="utf-8") != first


def test_a_game_with_syntax_errors_keeps_its_place_in_the_picker(tmp_path, desktop):
    from selenium.webdriver.support.ui import Select

    text = RENEGE.read_text(encoding="utf-8")
    rec = tmp_path / "two.gwy"
    games = text.split("%game")
    rec.write_text(games[0] + "%game" + games[1] + "%game\n[Seats \"North East South West\"]\ndeal\nNorth 13\n1. Nowhere Z♠\n",
                   encoding="utf-8")
    out = tmp_path / "two.html"
    r = run_cli("html", str(rec), "-o", str(out))
    assert r.returncode == 1 and out.exists() and "syntax error" in r.stdout, r.stdout + r.stderr
    _open(desktop, out, "#game-2/step-0")
    assert Select(desktop.find_element("id", "game")).first_selected_option.text.startswith("game 2")
    assert "syntax error" in desktop.find_element("id", "end").text and "getaway-ref check" in desktop.find_element("id", "end").text
    assert _shown(desktop)["notice"] == ""
    Select(desktop.find_element("id", "game")).select_by_index(0)
    assert "West leads trick 1 with A♠" in _shown(desktop)["lead"]


def test_the_review_marks_the_plays_and_its_chart_opens_them(tmp_path, desktop):
    """``html --review``: each play the review marks (``review --format json``, the same
    defaults) carries its mark in the trick list; the chart draws every seat's chance of
    losing, and a click on it goes to that play. The script and style stay those the
    policy names (no console error)."""
    from selenium.webdriver.common.by import By

    browser = desktop
    record = RECORDS / "review-blunder.gwy"
    page = _page(tmp_path, record, "--review")
    r = run_cli("review", str(record), "--format", "json")
    assert r.returncode == 0, r.stderr
    plays = json.loads(r.stdout)["games"][0]["plays"]
    # The page's position of a play: its step, after the start position.
    want = {p["step"] + 1: (p["verdict"] if p["verdict"] in ("blunder", "only move") else p["mark"])
            for p in plays if p["verdict"] in ("blunder", "only move") or p["mark"]}
    assert "blunder" in want.values()
    _open(browser, page)
    marked = {int(a.get_attribute("data-at")): a.get_attribute("data-mark")
              for a in browser.find_elements(By.CSS_SELECTOR, "#moves a[data-mark]")}
    assert marked == want
    blunder = min(at for at, m in want.items() if m == "blunder")
    link = browser.find_element(By.CSS_SELECTOR, f'#moves a[data-at="{blunder}"]')
    assert link.text.endswith("??") and "blunder" in link.get_attribute("title")
    # The chart: one line per seat, and a dot on each marked play that has chances.
    assert browser.find_element(By.ID, "chart-box").is_displayed()
    assert len(browser.find_elements(By.CSS_SELECTOR, "#chart path.series")) == 4
    legend = browser.find_element(By.ID, "chart-legend").text.split()
    assert legend == ["North", "East", "South", "West"]
    bands = browser.find_elements(By.CSS_SELECTOR, "#chart rect.hit")
    assert len(bands) == len([p for p in plays if p["chances"]])
    target = next(b for b in bands if b.get_attribute("data-at") == str(blunder))
    target.click()
    assert browser.find_element(By.ID, "label").text.startswith(f"{blunder} / ")
    assert browser.execute_script("return location.hash").endswith(f"step-{blunder}")
    # the first band goes to the first play
    bands[0].click()
    assert browser.find_element(By.ID, "label").text.startswith(f"{bands[0].get_attribute('data-at')} / ")
    assert _errors(browser) == []
    # Without --review, neither marks nor chart.
    plain = _page(tmp_path, record, name="plain.html")
    _open(browser, plain)
    assert not browser.find_elements(By.CSS_SELECTOR, "#moves a[data-mark]")
    assert not browser.find_element(By.ID, "chart-box").is_displayed()
    assert _errors(browser) == []


def _leaders_named(text: str, seats: list[str]) -> list[tuple[str, int]]:
    """Each ``... X ... leads trick N`` clause of a page text: (the seat it names first, N)."""
    out = []
    for clause in re.split(r"[;:]", text):
        m = re.search(r"leads trick (\d+)", clause)
        if not m:
            continue
        at = {s: clause.find(s) for s in seats if s in clause[:m.start()]}
        if at:
            out.append((min(at, key=lambda s: at[s]), int(m.group(1))))
    return out


@pytest.mark.parametrize("record", sorted(RECORDS.glob("*.gwy")), ids=lambda p: p.name)
def test_the_page_names_one_leader_a_trick_the_one_the_replay_keeps(record):
    # Issue 21 (items 6-8): after a penalised play after a tochoo, the page told both the
    # normal pickup and the penalty pickup. Every step of a trick must name at most one
    # leader for the next trick, and that leader is the seat the engine has leading then.
    from referee.notation.reader import read
    from referee.table.answers import walk
    from referee.table.page import game_data

    named_somewhere = 0
    for g in read(record):
        if g.errors:
            continue
        w = walk(g)
        data = game_data(w)
        positions = data["positions"]
        offset = 1 if w.start is not None else 0
        per_trick: dict[int, set[str]] = {}
        for k, st in enumerate(w.steps):
            p = positions[k + offset]
            v = st.after.view()
            for field in ("what", "fate", "lead"):
                for seat, nxt in _leaders_named(p[field], list(g.seats)):
                    named_somewhere += 1
                    assert nxt == v.trick_no, (record.name, k, field, p[field])
                    assert g.seats.index(seat) == v.leader, (record.name, k, field, p[field])
                    if st.trick is not None and isinstance(st.item, Play):
                        per_trick.setdefault(st.trick, set()).add(seat)
        for trick, leaders in per_trick.items():
            assert len(leaders) == 1, (record.name, g.number, trick, leaders)
    if record.name == "dispute-after-tochoo-illegal.gwy":
        # South's 4♥ after East's tochoo: the penalty stands, South picks up and leads trick 5
        assert named_somewhere
        w = walk(next(iter(read(record))))
        texts = [p["fate"] + " " + p["lead"] for p in game_data(w)["positions"]]
        said = [t for t in texts if "trick 5" in t]
        assert said and all("South" in t and "North" not in t for t in said), said


def test_a_play_after_a_tochoo_shows_one_pickup_and_one_leader_in_a_real_browser(tmp_path, desktop):
    # records/dispute-after-tochoo-illegal.gwy, trick 4: West 2♥, North 6♥, East K♣ (a
    # tochoo: North's 6♥ would pick up), then South 4♥ after it (M202, penalised): the
    # replay keeps South's penalty pickup of the 4 cards and South's lead of trick 5.
    from selenium.webdriver.common.keys import Keys

    browser = desktop
    page = _page(tmp_path, RECORDS / "dispute-after-tochoo-illegal.gwy")
    _open(browser, page, "#trick-4")
    s = _settled(browser, lambda s: "South 4♥" in s["label"])
    assert "South picks up 4 cards as the penalty and leads trick 5" in s["fate"]
    assert "South leads trick 5" in s["lead"]
    assert "North" not in s["fate"] + s["lead"]
    assert "leads" in s["heads"]["South"] and "leads" not in s["heads"]["North"]
    # one step back, at East's tochoo: the record plays on to the trick, so the page names
    # neither North's pickup nor a leader it would take back at the next step
    browser.find_element("tag name", "body").send_keys(Keys.ARROW_LEFT)
    s = _settled(browser, lambda s: "East K♣" in s["label"])
    assert "The record plays on to trick 4" in s["fate"]
    assert "leads trick 5" not in s["fate"] + s["lead"] + s["what"]
    assert not any("leads" in h for h in s["heads"].values())
