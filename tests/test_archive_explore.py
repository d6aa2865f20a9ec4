"""getaway-ref explore (issue 42, item 3): the archive's page in headless Chromium, its numbers
checked against the records and `check`, its links followed into the replay page."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")


def run(*args: str, cache: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, env={**os.environ, "GETAWAY_CACHE_DIR": str(cache)})


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """A simulated record, its replay page beside it (html's own name), and the explore page."""
    d = tmp_path_factory.mktemp("club")
    cache = d / "cache"
    record = d / "records" / "club.gwy"
    record.parent.mkdir()
    assert run("simulate", "-n", "4", "-g", "14", "--seed", "5", "--mistakes", "0.04", "-o", str(record),
               cache=cache).returncode == 0
    assert run("html", str(record), cache=cache).returncode == 0
    assert (d / "records" / "club.html").is_file()
    page = d / "pages" / "explore.html"
    page.parent.mkdir()
    r = run("explore", str(record), "-o", str(page), cache=cache)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"wrote {page}: 14 games (14 finished), 4 players")
    return record, page, cache


def _cells(browser, css: str) -> list[dict[str, str]]:
    return browser.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0])).map(function (tr) {"
        " var o = {}; for (var k in tr.dataset) o[k] = tr.dataset[k]; o.text = tr.textContent; return o; });", css)


def test_the_page_shows_the_archives_numbers(made, browser):
    record, page, cache = made
    browser.get(page.as_uri())
    assert browser.title.startswith("club.gwy")
    # nothing blocked or broken: the page has no script, its one style is allowed by its hash
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    # the loss rate of the A♠'s holder, from the deals as the record writes them
    ace: Counter[tuple[bool, bool]] = Counter()
    for chunk in record.read_text(encoding="utf-8").split("%game")[1:]:
        lines = chunk.splitlines()
        loser = next(ln.split('"')[1] for ln in lines if ln.startswith("[Result "))
        at = lines.index("deal")
        for ln in lines[at + 1:at + 5]:
            ace[("A♠" in ln.split()[1:], ln.split()[0] == loser)] += 1
    rows = _cells(browser, "#features table:nth-of-type(2) tbody tr")
    assert {r["value"]: (int(r["hands"]), int(r["lost"])) for r in rows} == \
        {"yes" if a else "no": (ace[(a, True)] + ace[(a, False)], ace[(a, True)]) for a in (True, False)}
    # the mistakes by code: check's count of each
    check = json.loads(run("check", "--format", "json", str(record), cache=cache).stdout)
    codes = Counter(d["code"] for f in check["files"] for g in f["games"] for d in g["diagnostics"])
    matrix = _cells(browser, "#mistakes table.matrix tbody tr")
    assert {r["code"]: int(r["text"].split()[-1]) for r in matrix} == dict(codes)
    # the tally over time: every player, a rate in each block of games
    assert {r["player"] for r in _cells(browser, "#over-time tbody tr")} == {"North", "East", "South", "West"}


def test_a_mistakes_link_opens_its_game_at_its_trick(made, browser):
    from selenium.webdriver.common.by import By

    record, page, cache = made
    browser.get(page.as_uri())
    link = browser.find_element(By.CSS_SELECTOR, "#mistakes table.recent tbody tr a")
    row = link.find_element(By.XPATH, "./../..").find_elements(By.TAG_NAME, "td")
    game = int(link.text.rsplit(" ", 1)[1])
    trick = int(row[1].text)
    assert link.get_attribute("href").endswith(f"/records/club.html#game-{game}/trick-{trick}")
    link.click()
    end = time.monotonic() + 10
    while time.monotonic() < end and "club.html" not in browser.current_url:
        time.sleep(0.05)
    label = ""
    while time.monotonic() < end:
        label = browser.find_element(By.ID, "label").text
        if f"trick {trick}" in label:
            break
        time.sleep(0.05)
    assert f"trick {trick}" in label
    picked = browser.execute_script("var s = document.getElementById('game'); return s.options[s.selectedIndex].text")
    assert picked.startswith(f"game {game}")


def test_a_users_file_is_kept_unless_named(made, tmp_path):
    record, page, cache = made
    mine = record.with_name("club-explore.html")  # the default name, already the user's
    mine.write_text("my notes", encoding="utf-8")
    try:
        r = run("explore", str(record), cache=cache)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "name it with -o" in r.stderr
        assert mine.read_text(encoding="utf-8") == "my notes"
    finally:
        mine.unlink()
    r = run("explore", str(record), cache=cache)
    assert r.returncode == 0 and mine.is_file()
    mine.unlink()


def test_the_tally_over_time_goes_by_the_date_tags_month(made, browser, tmp_path):
    record, _, cache = made
    chunks = record.read_text(encoding="utf-8").split("%game\n")
    months = [f"2025.{1 + (i % 3):02d}.1{i % 9}" for i in range(len(chunks) - 1)]
    dated = tmp_path / "dated.gwy"
    dated.write_text(chunks[0] + "".join(f'%game\n[Date "{d}"]\n{c}' for d, c in zip(months, chunks[1:])),
                     encoding="utf-8")
    page = tmp_path / "dated.html"
    assert run("explore", str(dated), "-o", str(page), cache=cache).returncode == 0
    browser.get(page.as_uri())
    heads = browser.execute_script("return Array.from(document.querySelectorAll('#over-time thead th')).map(function (t) { return t.textContent; })")
    assert heads == ["player", "2025-01", "2025-02", "2025-03"]
    # North's rate in each month, from the [Result] tags
    results = [next(ln.split('"')[1] for ln in c.splitlines() if ln.startswith("[Result ")) for c in chunks[1:]]
    want = []
    for m in ("01", "02", "03"):
        games = [r for d, r in zip(months, results) if d.startswith(f"2025.{m}")]
        want.append(f"{100 * sum(r == 'North' for r in games) / len(games):.0f} %")
    cells = browser.execute_script("return Array.from(document.querySelectorAll('#over-time tr[data-player=\"North\"] td')).map(function (t) { return t.textContent; })")
    assert cells[1:] == want
