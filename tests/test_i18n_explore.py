"""Issue 40: the archive's page (``explore``) and the archive commands' lines follow ``--lang``.
The page is opened in headless Chromium (its ``<html lang dir>``, its headings and table
headers said as the catalogue says them, axe-core's verdict on it); ``import``, ``puzzles``
and the archive extra's hint are run as a user meets them. Every expected sentence comes
from the catalogues through the translator, never copied here."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.engine import language as L
from tests.test_access import AXE_TAGS, _axe_source

ROOT = Path(__file__).resolve().parent.parent
_LANG_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", L.ENV)


def _run(*args: str, cwd: Path = ROOT, cache: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in _LANG_VARS}
    env["PYTHONPATH"] = str(ROOT)
    if cache is not None:
        env["GETAWAY_CACHE_DIR"] = str(cache)
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=cwd, capture_output=True, text=True,
                          env=env, timeout=300)


def _said(lang: str, message: str) -> str:
    with L.speaking(lang):
        return L.gettext(message)


# ---- 1. explore --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A small simulated club record with mistakes, and the cache its tables are made in."""
    pytest.importorskip("duckdb")
    pytest.importorskip("pyarrow")
    d = tmp_path_factory.mktemp("club")
    record = d / "club.gwy"
    r = _run("simulate", "-n", "4", "-g", "6", "--seed", "5", "--mistakes", "0.05", "-o", str(record), cache=d / "cache")
    assert r.returncode == 0, r.stderr
    return record, d / "cache"


_HEADINGS = "return Array.from(document.querySelectorAll(arguments[0])).map(function (e) { return e.textContent; })"


def _page(archive: tuple[Path, Path], lang: str | None, tmp_path: Path) -> tuple[Path, subprocess.CompletedProcess[str]]:
    record, cache = archive
    page = tmp_path / f"explore-{lang or 'en'}.html"
    r = _run(*(("--lang", lang) if lang else ()), "explore", str(record), "-o", str(page), cache=cache)
    assert r.returncode == 0, r.stderr
    return page, r


def test_explore_in_urdu_is_right_to_left_and_in_the_catalogues_words(archive, browser, tmp_path):
    # Urdu first: the tables cached by an Urdu run must not make the English page say Urdu
    ur_page, ur = _page(archive, "ur", tmp_path)
    en_page, en = _page(archive, None, tmp_path)
    browser.get(en_page.as_uri())
    assert browser.execute_script("return [document.documentElement.lang, document.documentElement.dir]") == ["en", "ltr"]
    en_h2 = browser.execute_script(_HEADINGS, "h2")
    en_said = browser.execute_script(_HEADINGS, "table.recent tbody td:last-child")
    assert en_said and not any("\u0600" <= ch <= "\u06ff" for text in en_said for ch in text)
    browser.get(ur_page.as_uri())
    assert browser.execute_script("return [document.documentElement.lang, document.documentElement.dir]") == ["ur", "rtl"]
    # laid out right to left: the page's text starts at the right edge
    assert browser.execute_script("return getComputedStyle(document.body).direction") == "rtl"
    h2 = browser.execute_script(_HEADINGS, "h2")
    assert en_h2 == ["Loss rate by deal feature", "Mistakes by code and seat", "The tally over time"]
    assert h2 == [_said("ur", h) for h in en_h2] and h2 != en_h2
    # the deal features' titles and the tables' headers, as the Urdu catalogue says them
    h3 = browser.execute_script(_HEADINGS, "#features h3")
    assert h3[0] == _said("ur", "Spades dealt") and h3[1] == _said("ur", "Dealt the A♠")
    heads = browser.execute_script(_HEADINGS, "table.feature thead th")
    assert heads[:3] == [_said("ur", "players"), _said("ur", "dealt"), _said("ur", "hands")]
    assert _said("ur", "95 % interval") in heads
    assert browser.execute_script(_HEADINGS, "table.recent thead th")[-1] == _said("ur", "what happened")
    # what happened, as check says it in Urdu (the tables of an Urdu run)
    ur_said = browser.execute_script(_HEADINGS, "table.recent tbody td:last-child")
    assert len(ur_said) == len(en_said) and all(any("\u0600" <= ch <= "\u06ff" for ch in text) for text in ur_said)
    # the chart's label, said to a screen reader
    label = browser.execute_script("return document.querySelector('svg.chart').getAttribute('aria-label')")
    assert label == _said("ur", "loss rate over time") != "loss rate over time"
    # a yes/no value is said in Urdu; the row's data stays language-neutral
    values = browser.execute_script(
        "return Array.from(document.querySelectorAll('#features table:nth-of-type(2) tbody tr')).map("
        "function (tr) { return [tr.dataset.value, tr.children[1].textContent]; })")
    assert sorted(values) == sorted([["no", _said("ur", "no")], ["yes", _said("ur", "yes")]])
    # the command's own line: English as before, Urdu by the catalogue
    assert en.stdout.startswith(f"wrote {en_page}: 6 games (6 finished), 4 players, ")
    with L.speaking("ur"):
        start = L.gettext("wrote {file}: {games} ({finished} finished), {players}, {found}").split("{games}")[0]
    assert ur.stdout.startswith(start.format(file=ur_page)) and not ur.stdout.startswith("wrote")


def test_explore_in_urdu_has_no_accessibility_violations(archive, browser, tmp_path):
    source = _axe_source()
    page, _ = _page(archive, "ur", tmp_path)
    browser.get(page.as_uri())
    browser.execute_script(source)  # the page's policy allows no script: injected by the driver
    got = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}}).then((r) => done("
        "r.violations.map((v) => v.id + ': ' + v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(', '))),"
        " (e) => done(['error: ' + e]));", AXE_TAGS)
    assert got == []


# ---- 2. import, puzzles, the archive extra ------------------------------------------------------


def test_import_says_a_bad_log_in_hindi_with_exit_2(tmp_path):
    bad = tmp_path / "game.json"
    bad.write_text('{"players": [1, 2,\n  ]}\n', encoding="utf-8")
    en = _run("import", "--from", "thulla-ai", "game.json", cwd=tmp_path)
    hi = _run("--lang", "hi", "import", "--from", "thulla-ai", "game.json", cwd=tmp_path)
    assert en.returncode == hi.returncode == 2
    # English as it always was: the parser's own place and words
    assert en.stderr == "error: game.json:2:3: not JSON: Expecting value\n"
    with L.speaking("hi"):
        line = L.gettext("{file}:{line}:{column}: not JSON: {why}").format(
            file="game.json", line=2, column=3, why=L.gettext("Expecting value"))
    assert hi.stderr == f"error: {line}\n" and "Expecting" not in hi.stderr and "not JSON" not in hi.stderr
    # an unknown format, and a record that would be written over, in Hindi too
    fmt = _run("--lang", "hi", "import", "--from", "nope", "game.json", cwd=tmp_path)
    assert fmt.returncode == 2 and fmt.stderr.startswith(
        "error: " + _said("hi", "--from {format}: the formats are {formats}").split("{formats}")[0].format(format="nope"))
    (tmp_path / "kept.gwy").write_text("mine", encoding="utf-8")
    sample = ROOT / "tests" / "data" / "imports" / "thulla-ai.json"
    kept = _run("--lang", "hi", "import", "--from", "thulla-ai", str(sample), "-o", "kept.gwy", cwd=tmp_path)
    assert kept.returncode == 2
    assert kept.stderr == "error: " + _said("hi", "{file} exists; give --force to replace it").format(file="kept.gwy") + "\n"
    assert (tmp_path / "kept.gwy").read_text(encoding="utf-8") == "mine"
    done = _run("--lang", "hi", "import", "--from", "thulla-ai", str(sample), "-o", "new.gwy", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with L.speaking("hi"):
        wrote = L.ngettext("wrote {file}: 1 game, {n} play, rules {rules}", "wrote {file}: 1 game, {n} plays, rules {rules}", 2)
    assert done.stdout.startswith(wrote.split("{n}")[0].format(file="new.gwy"))


def test_puzzles_usage_error_in_bengali(tmp_path):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    record = ROOT / "records" / "dispute-renege-illegal.gwy"
    en = _run("puzzles", str(record), "-o", "notes.txt", cwd=tmp_path)
    bn = _run("--lang", "bn", "puzzles", str(record), "-o", "notes.txt", cwd=tmp_path)
    assert en.returncode == bn.returncode == 2
    assert en.stderr == "error: notes.txt is not a directory; give a new or empty directory with -o\n"
    assert bn.stderr == "error: " + _said("bn", "{folder} is not a directory; give a new or empty directory with -o").format(
        folder="notes.txt") + "\n"
    assert bn.stderr != en.stderr
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_the_archive_extras_hint_follows_the_language(monkeypatch):
    import referee.archive.extra as extra

    monkeypatch.setattr(extra, "find_spec", lambda name: None)  # as without pyarrow and DuckDB
    with L.speaking("en"):
        assert extra.missing("explore") == ("explore needs the archive extra (pyarrow and DuckDB): "
                                            "pip install 'getaway-ref[archive]'")
    with L.speaking("ml"):
        hint = extra.missing("explore")
    assert hint == _said("ml", extra.MISSING_HINT).format(what="explore")
    assert hint is not None and "needs the archive extra" not in hint and "pip install 'getaway-ref[archive]'" in hint
