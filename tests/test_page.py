"""``getaway-ref html``: the replay page, opened in a real headless Chromium.

The page is written by the command, opened from disk (no server, no network), stepped with
its buttons and the arrow keys, and read back from what the browser shows. A screenshot of
the renege position is kept in build/test-artifacts/ for people to look at.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from conftest import DATA, RECORDS, ROOT, run_cli

ARTIFACTS = ROOT / "build" / "test-artifacts"
RENEGE = DATA / "invalid" / "M201-renege.gwy"  # game 1: East throws 10♣ on a diamond lead holding ♦QJT9


def _browser_paths() -> tuple[str, str] | None:
    chrome = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver")
    return (chrome, driver) if chrome and driver else None


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver")
    paths = _browser_paths()
    if paths is None:
        if os.environ.get("GETAWAY_REQUIRE_BROWSER"):
            pytest.fail("chromium and chromedriver are needed (apt-get install chromium chromium-driver)")
        pytest.skip("no chromium/chromedriver on this machine (CI installs them)")
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = paths[0]
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1000,1200",
              "--force-device-scale-factor=1"):
        opts.add_argument(a)
    drv = webdriver.Chrome(service=Service(paths[1]), options=opts)
    yield drv
    drv.quit()


def _page(tmp_path: Path, record: Path, *args: str) -> Path:
    out = tmp_path / "page.html"
    r = run_cli("html", str(record), "-o", str(out), *args)
    assert r.returncode == 0, r.stderr
    assert out.exists() and f"wrote {out}" in r.stdout
    return out


def _shown(drv) -> dict:
    """What the page shows now, read from the browser."""
    from selenium.webdriver.common.by import By

    def text(id_: str) -> str:
        return drv.find_element(By.ID, id_).text

    table = [(s.get_attribute("data-seat"), s.find_element(By.CLASS_NAME, "card").get_attribute("data-card"),
              "bad" in s.find_element(By.CLASS_NAME, "card").get_attribute("class"))
             for s in drv.find_elements(By.CSS_SELECTOR, "#trick .slot")]
    hands = {h.get_attribute("data-seat"): h.find_element(By.CLASS_NAME, "size").text
             for h in drv.find_elements(By.CSS_SELECTOR, "#hands .hand")}
    heads = {h.get_attribute("data-seat"): h.find_element(By.TAG_NAME, "h3").text
             for h in drv.find_elements(By.CSS_SELECTOR, "#hands .hand")}
    return {"heads": heads, "label": text("label"), "what": text("what"), "table": table, "fate": text("fate"), "lead": text("lead"),
            "diags": text("diags"), "waste": text("waste"), "hands": hands, "out": text("out")}


def test_page_is_self_contained(tmp_path):
    page = _page(tmp_path, RENEGE, "--game", "1").read_text(encoding="utf-8")
    # no network: nothing is fetched from anywhere
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "@import" not in page and "url(" not in page
    data = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S).group(1))
    assert data["seats"] == ["North", "East", "South", "West"] and data["tricks"] == {"1": 4, "2": 7, "3": 12}  # the counts line is a step too


def test_renege_stepped_to_in_a_real_browser(tmp_path, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page = _page(tmp_path, RENEGE, "--game", "1")
    browser.get(page.as_uri())
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
    assert s["waste"] == "Waste pile: 4 cards"
    # East leads by the penalty, which is not "the power" (the highest card of the last trick)
    assert "leads" in s["heads"]["East"] and "power" not in s["heads"]["East"]
    assert browser.execute_script("return location.hash") == "#trick-2"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert browser.save_screenshot(str(ARTIFACTS / "page-renege.png"))
    # #trick-2 opens there directly
    browser.get(page.as_uri() + "#trick-3")
    browser.get(page.as_uri() + "#trick-2")
    browser.refresh()
    assert _shown(browser)["table"] == s["table"]


def test_page_of_a_finished_game_on_a_phone(tmp_path, browser):
    page = _page(tmp_path, RECORDS / "dispute-two-players.gwy")
    browser.set_window_size(390, 844)
    try:
        browser.get(page.as_uri() + "#trick-21")
        s = _shown(browser)
        assert [c for _, c, _ in s["table"]] == ["7♣", "8♥"]
        assert "legal tochoo" in s["what"]
        assert "the game is over: West is left holding cards and loses" in s["fate"]
        assert "Got away: " in s["out"] and "East" in s["out"]
        # nothing wider than the phone's screen
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "page-phone.png"))
    finally:
        browser.set_window_size(1000, 1200)


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
