"""``html --review`` explains its marks (issue 35 item 9), in a real headless Chromium: a click
on a ``??`` play shows, under the table, what ``review`` prints of that play (the mark, the
class before and after, the cards that kept the better class, the solver's line), no hover
needed; the chart's axes are labelled (per cent, trick numbers)."""

from __future__ import annotations

import json

from conftest import RECORDS, run_cli
from test_page import _errors, _open, _page, desktop  # noqa: F401 (the fixture)


def _note(drv, hidden: bool | None = None) -> dict:
    """The review panel as the browser shows it; with ``hidden``, once it is (or is not)
    hidden (a click redraws in the browser's next frame), or after ten seconds."""
    import time

    end = time.monotonic() + 10
    while True:
        note = drv.execute_script(_READ_NOTE)
        if hidden is None or note["hidden"] is hidden or time.monotonic() > end:
            return note
        time.sleep(0.05)


_READ_NOTE = ("""
const box = document.getElementById('review-note');
const facts = {};
const dts = box.querySelectorAll('dt');
dts.forEach((dt) => { facts[dt.innerText.trim()] = dt.nextElementSibling.innerText.trim(); });
return {hidden: box.hidden || box.offsetParent === null, head: document.getElementById('review-head').innerText.trim(),
        facts: facts, lines: Array.from(box.querySelectorAll('#review-lines .line')).map((d) => d.innerText.trim())};
""")


def test_a_click_on_a_blunder_shows_what_review_prints_of_it_under_the_table(tmp_path, desktop) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    record = RECORDS / "review-blunder.gwy"
    page = _page(tmp_path, record, "--review")
    r = run_cli("review", str(record), "--format", "json")
    assert r.returncode == 0, r.stderr
    plays = json.loads(r.stdout)["games"][0]["plays"]
    text = run_cli("review", str(record)).stdout.splitlines()
    blunder = min((p for p in plays if p["verdict"] == "blunder"), key=lambda p: p["step"])
    _open(desktop, page)
    assert _note(desktop)["hidden"]
    link = desktop.find_element(By.CSS_SELECTOR, f'#moves a[data-at="{blunder["step"] + 1}"]')
    assert link.text.endswith("??")
    link.click()
    note = _note(desktop, hidden=False)
    assert not note["hidden"]
    assert note["head"] == f"Review: ?? blunder ({blunder['seat']} {blunder['action']})"
    assert note["facts"]["Class before"] == blunder["before"]
    assert note["facts"]["Class after"] == blunder["after"]
    assert note["facts"][f"Kept it {blunder['best']}"] == " or ".join(blunder["better"])
    assert note["facts"]["Solver's line"] == ", ".join(blunder["solver_line"])
    # The lines are review's own, word for word.
    i = next(k for k, ln in enumerate(text) if ln.startswith(f"  line {blunder['line']}, ")
             and f": {blunder['seat']} {blunder['action']}: blunder" in ln)
    assert note["lines"] == [text[i].strip(), text[i + 1].strip()]
    assert note["lines"][1].startswith("solver: ")
    # A play with no mark: the panel goes.
    plain = next(p for p in plays if p["verdict"] not in ("blunder", "only move") and not p["mark"])
    desktop.find_element(By.CSS_SELECTOR, f'#moves a[data-at="{plain["step"] + 1}"]').click()
    assert _note(desktop, hidden=True)["hidden"]
    assert _errors(desktop) == []


def test_the_chart_has_its_axes_labelled(tmp_path, desktop) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By

    page = _page(tmp_path, RECORDS / "review-blunder.gwy", "--review")
    _open(desktop, page)
    texts = lambda sel: [t.text for t in desktop.find_elements(By.CSS_SELECTOR, sel)]  # noqa: E731
    assert texts("#chart text.ytick") == ["0%", "50%", "100%"]
    assert texts("#chart text.ytitle") == ["chance of losing"]
    assert texts("#chart text.xtitle") == ["trick"]
    ticks = [int(t) for t in texts("#chart text.xtick")]
    assert ticks[0] == 1 and ticks == sorted(ticks) and 3 <= len(ticks) <= 9
    assert _errors(desktop) == []
