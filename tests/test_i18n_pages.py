"""The pages in the players' languages (issue 40): the table's script says every word a player
reads through its catalogue (the felt's seat labels with their counts' plural forms, the
chart, the review box, the address's notices), and the offline site's own pages are in the
phone's language, right to left in Urdu and Shahmukhi, offline too.

Every expected sentence is the catalogue's own (``referee.engine.language`` in the language),
never Urdu copied into the test: the test checks that the page says what the catalogue says.
The browser tests run a real headless Chromium (the replay page written by ``html --lang
ur``; the site built by ``getaway-ref site`` and served on 127.0.0.1)."""

from __future__ import annotations

import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest
from conftest import RECORDS, ROOT, run_cli
from test_page import _open, _page, desktop  # noqa: F401 (the fixture)

from referee.engine import language as L
from referee.table.page import page_strings, plural_table, render, script_counts, script_words

TABLE_JS = ROOT / "referee" / "table" / "templates" / "table.js"
TABLE_HTML = ROOT / "referee" / "table" / "templates" / "table.html.j2"
SITE_STATIC = ROOT / "referee" / "site" / "static"
BLUNDER = RECORDS / "review-blunder.gwy"
RENEGE = RECORDS / "dispute-renege-illegal.gwy"


def ur(message: str, **names: object) -> str:
    """The catalogue's Urdu for a sentence, its names filled in as the page fills them."""
    with L.speaking("ur"):
        return L.gettext(message).format(**names)


def ur_n(one: str, many: str, n: int, **names: object) -> str:
    with L.speaking("ur"):
        return L.ngettext(one, many, n).format(n=n, **names)


# ---- the scripts, read as text ------------------------------------------------------------------

def _literals(script: str) -> list[str]:
    """The script's double-quoted strings that are not a sentence handed to ``_()`` or
    ``ngettext()`` (comments and single-quoted selectors left out)."""
    text = re.sub(r"(^|\s)//[^\n]*", r"\1", script)
    text = re.sub(r'\b_\("(?:[^"\\\n]|\\.)*"\)', "", text)
    text = re.sub(r'\bngettext\("(?:[^"\\\n]|\\.)*",\s*"(?:[^"\\\n]|\\.)*"', "", text)
    text = re.sub(r"'(?:[^'\\\n]|\\.)*'", "", text)
    return [json.loads(f'"{m}"') for m in re.findall(r'"((?:[^"\\\n]|\\.)*)"', text)]


def test_no_english_sentence_is_left_in_the_table_script() -> None:
    """Each literal of table.js that holds words is a name the page uses as code: a class or
    id of its styles and template, a review mark's code, or a directive; a sentence or a
    label ("Trumps: ", "cards 11", "shown void") goes through _() or ngettext()."""
    script = TABLE_JS.read_text(encoding="utf-8")
    # an element's classes (el(tag, "a b"), svg(tag, {...}, "a b")) are code, not words
    code = re.sub(r'\bel\("\w+", "[^"]*"', "", script)
    code = re.sub(r'\}, "[\w -]*"\)', "})", code)
    ids = set(re.findall(r'id="([^"{]+)"', TABLE_HTML.read_text(encoding="utf-8")))
    marks = set(json.loads(re.search(r"var MARK_SIGNS = (\{[^}]*\})", script).group(1)))
    prose = []
    for lit in _literals(code):
        two = re.search(r"[A-Za-z]{2,}[ :]+[A-Za-z]{2,}", lit) or re.search(r"[A-Za-z]{2,}: *$", lit)
        selector = lit.startswith("#") and lit[1:].split(" ")[0] in ids
        if two and lit not in marks and lit != "use strict" and not selector:
            prose.append(lit)
    assert prose == []
    # and the words it says are said through the catalogue: each with a count has its forms
    counts = dict(script_counts())
    assert counts["{n} card"] == "{n} cards" and "{n} unseen" in counts and "{n} not seen by {seat}" in counts
    for needed in ("trick {trick}", "shown void: {suits}", "power", "leads", "to play", "chance of losing", "trick",
                   "Class before", "Kept it {class}", "Waste pile: {cards}"):
        assert needed in script_words(), needed


def test_the_page_gets_each_count_in_its_languages_forms() -> None:
    """ngettext on the page: the forms of each count sentence in the order of the language's
    plural rule, and the rule's form for each n (Hindi says one card for 0 and 1, Urdu only for 1)."""
    ur_table, hi_table, en_table = plural_table("ur"), plural_table("hi"), plural_table("en")
    assert ur_table[:3] == [1, 0, 1] and hi_table[:3] == [0, 0, 1] and en_table[:3] == [1, 0, 1]
    got = page_strings(script_words(), script_counts(), "ur")
    forms = got["{n} card"]
    assert forms == [ur_n("{n} card", "{n} cards", 1).replace("1", "{n}"), ur_n("{n} card", "{n} cards", 2).replace("2", "{n}")]
    assert got["trick {trick}"] == ur("trick {trick}", trick="{trick}") != "trick {trick}"
    page = render({"file": "x.gwy", "games": []}, lang="hi")
    blocks = dict(re.findall(r'<script type="application/json" id="(i18n(?:-plural)?)">(.*?)</script>', page, re.S))
    assert json.loads(blocks["i18n-plural"]) == hi_table
    assert isinstance(json.loads(blocks["i18n"])["{n} card"], list)


def test_the_site_scripts_say_their_words_through_the_catalogue() -> None:
    """app.js, table-site.js and lang.js (what both pages say): no template literal or string
    holding a sentence outside _()."""
    for name in ("app.js", "table-site.js", "lang.js"):
        script = (SITE_STATIC / name).read_text(encoding="utf-8")
        code = re.sub(r"(^|\s)//[^\n]*", r"\1", script)
        # a sentence in a template literal (`kept on this phone: ${...}`) is not translatable
        for lit in re.findall(r"`([^`]*)`", code):
            assert not re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}", re.sub(r"\$\{[^}]*\}", "", lit)), (name, lit)
        for lit in _literals(code):
            assert not re.search(r"[a-z]{2,} [a-z]{2,} [a-z]{2,}", lit), (name, lit)
        assert script_words(name, script), name


# ---- the replay page in Urdu, in Chromium -------------------------------------------------------

_READ = """
const t = (sel) => Array.from(document.querySelectorAll(sel)).map((e) => e.textContent.trim());
return {lang: document.documentElement.lang, dir: document.documentElement.dir,
        sizes: t('#felt .hand .size'), names: t('#felt .hand .name'), unseen: t('#felt .hand .unseen'),
        label: document.getElementById('label').textContent, ytitle: t('#chart .ytitle'), xtitle: t('#chart .xtitle'),
        chart: document.getElementById('chart').getAttribute('aria-label') || t('#chart svg').join(''),
        svgLabel: (document.querySelector('#chart svg') || {getAttribute: () => null}).getAttribute('aria-label'),
        sub: t('#chart .sub'), waste: document.getElementById('waste').textContent,
        head: document.getElementById('review-head').textContent,
        facts: t('#review-facts dt'), notice: document.getElementById('notice').textContent};
"""


def test_the_replay_page_in_urdu_says_the_felt_the_chart_and_the_review_in_urdu(tmp_path, desktop) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    page = _page(tmp_path, BLUNDER, "--review", "--lang", "ur")
    data = json.loads(re.search(r'id="data">(.*?)</script>', page.read_text(encoding="utf-8"), re.S).group(1))
    game = data["games"][0]
    # the first blunder the review marked, as the page has it (its seat, action and classes)
    blunder = min((m for m in game["review"]["marks"] if m["mark"] == "blunder"), key=lambda m: m["at"])
    at = blunder["at"]
    _open(desktop, page, f"#step-{at}")
    shown = desktop.execute_script(_READ)
    assert (shown["lang"], shown["dir"]) == ("ur", "rtl")
    pos = game["positions"][at]
    # the felt: each hand's count in Urdu, plural form by the catalogue's rule
    want = []
    for h in sorted(pos["hands"], key=lambda x: x["seat"]):
        if h["out"] or h["loser"]:
            continue
        want.append(ur_n("{n} card", "{n} cards", h["size"]))
    got = sorted(s for s in shown["sizes"] if s in want)
    assert sorted(want) == got and len(got) == len(want)
    leader = [n for n in shown["names"] if "·" in n]
    assert all(ur("to play") in n or ur("leads") in n for n in leader)
    assert ur("trick {trick}", trick=pos["trick"]) in shown["label"]
    # the chart's axes and its words
    assert shown["ytitle"] == [ur("chance of losing")] and shown["xtitle"] == [ur("trick")]
    assert shown["svgLabel"] == ur("each seat's chance of losing after each play, by trick; click to go to the play")
    samples = game["review"]["samples"]
    with L.speaking("ur"):
        sub = L.ngettext("{n} sampled deal a seat a play (seed {seed}); each seat judged from what it could know",
                         "{n} sampled deals a seat a play (seed {seed}); each seat judged from what it could know",
                         samples).format(n=samples, seed=game["review"]["seed"])
    assert shown["sub"] == [sub]
    # the review box of the blunder: its head and its facts' names in Urdu, the classes too
    assert shown["head"] == ur("Review: {sign} {mark} ({seat} {action})", sign="??", mark=ur("blunder"),
                               seat=blunder["seat"], action=blunder["action"])
    assert ur("Class before") in shown["facts"] and ur("Class after") in shown["facts"]
    assert ur("Kept it {class}", **{"class": ur(blunder["best"])}) in shown["facts"]
    facts = desktop.execute_script(
        "const o = {}; document.querySelectorAll('#review-facts dt').forEach((dt) => { o[dt.textContent] = "
        "dt.nextElementSibling.textContent; }); return o;")
    assert facts[ur("Class before")] == ur(blunder["before"])
    assert facts[ur("Kept it {class}", **{"class": ur(blunder["best"])})] == f" {ur('or')} ".join(blunder["better"])
    # the play's tooltip in the trick list: its mark and the review's figures in Urdu
    title = desktop.find_element(By.CSS_SELECTOR, f'#moves a[data-at="{at}"]').get_attribute("title")
    assert f"{ur('blunder')} ({blunder['detail']})" in title and re.findall(r"[A-Za-z]{3,}", blunder["detail"]) == []
    # what one seat knew: the others' cards it has not seen, counted in Urdu
    Select(desktop.find_element(By.ID, "view")).select_by_value("0")
    unseen = desktop.execute_script(_READ)["unseen"]
    others = [h for h in pos["hands"] if h["index"] != 0 and h["size"] - len(h["seen"]) > 0]
    assert others and len(unseen) == len(others)
    for h in others:
        n = h["size"] - len(h["seen"])
        assert any(u.endswith(ur_n("{n} not seen by {seat}", "{n} not seen by {seat}", n, seat=game["seats"][0]))
                   for u in unseen), (h, unseen)
    # no English word left on the felt but the record's own (seat names, cards)
    felt = desktop.find_element(By.ID, "felt").text
    for seat in game["seats"]:
        felt = felt.replace(seat, "")
    assert re.findall(r"[A-Za-z]{3,}", felt) == []
    # an address the page does not have: the notice in Urdu
    _open(desktop, page, "#trick-99")
    have = sorted(int(k) for k in game["tricks"])
    assert desktop.execute_script(_READ)["notice"] == ur(
        "#{place}: game {number} has tricks {first} to {last}; showing the start",
        place="trick-99", number=game["game"], first=have[0], last=have[-1])


def test_serves_recorder_in_urdu_says_the_cards_a_seat_may_hold_and_the_counts_in_urdu(tmp_path, browser) -> None:
    """serve's table (the same script) on a phone that chose Urdu: the recorder's card list and
    the felt's counts in the catalogue's words."""
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    from test_serve import POSITION, Server, _answer, _click, _wait

    rec = tmp_path / "table.gwy"
    rec.write_text(POSITION, encoding="utf-8")
    srv = Server(rec, "--host", "127.0.0.1")
    try:
        browser.get(srv.record + ("&" if "?" in srv.record else "?") + "lang=ur")
        _wait(browser, lambda d: d.find_elements("css selector", '#pick-card button[data-card="A♠"]'), "the recorder")
        sizes = browser.execute_script("return Array.from(document.querySelectorAll('#felt .hand .size')).map(e => e.textContent)")
        assert sorted(sizes) == [ur_n("{n} card", "{n} cards", 2)] * 4
        before = _answer(browser)
        _click(browser, '#pick-seat button[data-seat="North"]')
        _click(browser, '#pick-card button[data-card="A♠"]')
        _wait(browser, lambda d: _answer(d) != before, "the ruling on North A♠")
        # East must follow spades: its heart is a card it may hold, a mistake if played now
        _wait(browser, lambda d: d.find_elements("css selector", '#pick-seat button[data-seat="East"][aria-pressed="true"]'),
              "East to play")
        sep = browser.execute_script("return document.querySelector('#pick-card .sep').textContent")
        assert sep == ur("other cards {seat} may hold (a mistake if played now):", seat="East")
        sizes = browser.execute_script("return Array.from(document.querySelectorAll('#felt .hand .size')).map(e => e.textContent)")
        assert ur_n("{n} card", "{n} cards", 1) in sizes
    finally:
        srv.stop()


# ---- the offline site in Urdu -------------------------------------------------------------------

@pytest.fixture(scope="module")
def urdu_site(tmp_path_factory):
    from test_site import served_site

    with served_site(tmp_path_factory) as s:
        yield s


def test_the_built_site_has_every_page_in_every_language_and_the_catalogues(urdu_site) -> None:
    out = urdu_site.root
    files = [p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()]
    for code in L.shipped():
        for page in ("index", "table"):
            name = f"{page}.html" if code == "en" else f"{page}.{code}.html"
            assert name in files, name
            text = (out / name).read_text(encoding="utf-8")
            assert f'<html lang="{L.info(code).tag}" dir="{L.info(code).dir}"' in text
    # the compiled catalogues the Worker speaks with are files of the site, each the package's
    # own, not in the zip (a visit fetches its language's only)
    with zipfile.ZipFile(out / "getaway-ref.zip") as z:
        assert not [n for n in z.namelist() if n.endswith(".mo")]
    for code in L.shipped():
        if code != "en":
            mo = f"referee/locale/{code}/LC_MESSAGES/getaway.mo"
            assert (out / mo).read_bytes() == (ROOT / mo).read_bytes(), mo
    # the service worker keeps every language's files and the English pages, and each other
    # language's own files (its pages, manifest, catalogues) when a page needs them
    sw = (out / "sw.js").read_text(encoding="utf-8")
    every = json.loads(re.search(r"const FILES = (\[.*?\]);", sw).group(1))
    own = json.loads(re.search(r"const LANGUAGES = (\{.*?\});", sw).group(1))
    assert {"lang.js", "index.html", "table.html", "manifest.webmanifest", "getaway-ref.zip"} <= set(every)
    assert sorted(own) == sorted(c for c in L.shipped() if c != "en")
    assert {"index.ur.html", "table.ur.html", "manifest.ur.webmanifest",
            "referee/locale/ur/LC_MESSAGES/getaway.mo"} <= set(own["ur"])
    assert not set(every) & {f for files in own.values() for f in files}
    index = (out / "index.ur.html").read_text(encoding="utf-8")
    assert ur("Getaway referee") in index and ur("Check") in index
    words = json.loads(re.search(r'id="i18n">(.*?)</script>', index, re.S).group(1))
    assert words["Reviewed."] == ur("Reviewed.")
    # the home screen's name in the phone's language, opening the page in it
    assert '<link rel="manifest" href="manifest.ur.webmanifest">' in index
    manifest = json.loads((out / "manifest.ur.webmanifest").read_text(encoding="utf-8"))
    assert (manifest["name"], manifest["lang"], manifest["dir"], manifest["start_url"]) == \
        (ur("Getaway referee"), "ur", "rtl", "./index.ur.html")
    assert manifest["shortcuts"][0]["url"] == "./table.ur.html"
    assert json.loads((out / "manifest.webmanifest").read_text(encoding="utf-8"))["start_url"] == "./index.html"


def _says_faults_in_urdu(drv) -> None:
    """The page says a worker's fault as its scripts do (lang.js's told): the engine's sentence in
    the page's language with the network's words in it, an error with no fault as it came."""
    said = drv.execute_script(
        "const t = window.getawayLang.told;"
        "return [t({error: 'zip: HTTP 404', fault: {key: 'zip', why: 'HTTP 404'}}), t({error: 'out of memory'})];")
    assert said == [ur("the referee's files could not be fetched ({why})", why="HTTP 404"), "out of memory"]


def test_the_offline_site_in_urdu_kept_by_its_picker_and_offline(urdu_site, tmp_path: Path) -> None:
    from selenium.webdriver.support.ui import Select, WebDriverWait
    from test_access import _axe, _axe_source, _no_violations
    from test_site_table import START, _started

    drv = urdu_site.drv
    drv.get(urdu_site.url)
    html = drv.find_element("tag name", "html")
    assert (html.get_attribute("lang"), html.get_attribute("dir")) == ("en", "ltr")
    Select(drv.find_element("id", "lang")).select_by_value("ur")
    WebDriverWait(drv, 30).until(lambda d: d.find_element("tag name", "html").get_attribute("lang") == "ur")
    assert drv.current_url.endswith("/index.ur.html")
    assert drv.find_element("tag name", "html").get_attribute("dir") == "rtl"
    assert drv.find_element("tag name", "h1").text == ur("Getaway referee")
    assert drv.find_element("id", "check").text == ur("Check")
    # the referee's own words in Urdu: check's text is the command line's `check --lang ur`
    WebDriverWait(drv, START).until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
    info = urdu_site.ready()
    ready = ur("Ready: getaway-ref {version} (Pyodide {pyodide}), {offline}.", version=info["version"],
               pyodide=info["pyodide"], offline="{offline}")
    status = drv.find_element("id", "status").text
    assert status in {ready.format(offline=ur(k)) for k in ("kept for offline use", "no service worker here")}, status
    shutil.copy(RENEGE, tmp_path / "renege.gwy")
    cli = run_cli("check", "--lang", "ur", "renege.gwy", cwd=tmp_path)
    got = urdu_site.call("window.getawayRef.checkText(args[0], args[1])", RENEGE.read_text(encoding="utf-8"), "renege.gwy")
    assert got["exit"] == cli.returncode == 1 and got["text"] == cli.stdout + cli.stderr
    assert "M201" in got["text"]
    _says_faults_in_urdu(drv)
    # the same phone's English address opens its choice: the table in Urdu, right to left
    drv.get(urdu_site.url.replace("index.html", "table.html"))
    WebDriverWait(drv, 30).until(lambda d: d.current_url.endswith("/table.ur.html"))
    _started(drv)
    assert drv.find_element("tag name", "html").get_attribute("dir") == "rtl"
    assert drv.find_element("css selector", "#games-box h2").text == ur("Games on this phone")
    _says_faults_in_urdu(drv)
    sizes = drv.execute_script("return Array.from(document.querySelectorAll('#felt .hand .size')).map(e => e.textContent)")
    assert sizes and all(re.fullmatch(r"\d+ .+", s) for s in sizes)
    assert all(s in {ur_n("{n} card", "{n} cards", int(s.split()[0]))} for s in sizes), sizes
    WebDriverWait(drv, 30).until(lambda d: d.find_element("id", "kept").text)
    axe = _axe_source()  # the Urdu table and first page pass axe-core as serve's and html's pages do
    _no_violations(_axe(drv, axe), "table.ur.html")
    drv.get(urdu_site.url.replace("index.html", "index.ur.html"))
    WebDriverWait(drv, START).until(lambda d: d.execute_script("return document.body.dataset.ready") == "1")
    _no_violations(_axe(drv, axe), "index.ur.html")
    # offline: the Urdu page again from the service worker's cache, its words with it
    WebDriverWait(drv, 60).until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
    urdu_site.offline()
    drv.get(urdu_site.url.replace("index.html", "index.ur.html"))
    WebDriverWait(drv, 30).until(lambda d: d.find_element("tag name", "h1").text == ur("Getaway referee"))
    assert drv.find_element("tag name", "html").get_attribute("dir") == "rtl"
