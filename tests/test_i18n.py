"""Issue 40: every sentence in the players' languages, from the one translator
(referee/engine/language.py) and the catalogues of referee/locale/."""

from __future__ import annotations

import json
import os
import string
import subprocess
import sys
from pathlib import Path

import pytest

from referee.engine import codes
from referee.engine import language as L

ROOT = Path(__file__).resolve().parent.parent
RECORD = "records/dispute-renege-illegal.gwy"
catalogues = pytest.importorskip("referee.locale.catalogues")
pytest.importorskip("babel")


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    e = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", L.ENV)}
    e.update(env or {})
    e["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=ROOT, capture_output=True, text=True,
                          env=e, timeout=120)


def test_the_template_is_current_and_every_catalogue_complete() -> None:
    """A fresh template from the code: the shipped one holds the same sentences, and every
    catalogue present translates each of them, none fuzzy (a language is added complete)."""
    fresh = catalogues.extract()
    from babel.messages.pofile import read_po

    with catalogues.TEMPLATE.open("rb") as f:
        shipped = read_po(f)
    assert {m.id if isinstance(m.id, str) else tuple(m.id) for m in fresh if m.id} == \
        {m.id if isinstance(m.id, str) else tuple(m.id) for m in shipped if m.id}
    assert len([m for m in fresh if m.id]) > 250
    assert catalogues.languages(), "no catalogue shipped"
    for lang in catalogues.languages():
        assert lang in L.LANGUAGES, lang
        assert catalogues.problems(catalogues.read(lang), fresh) == [], lang


def test_the_shipped_mo_files_are_compiled_from_their_po() -> None:
    for lang in catalogues.languages():
        mo = catalogues.po_path(lang).with_suffix(".mo")
        assert mo.read_bytes() == catalogues.compiled(lang), f"{lang}: run python -m referee.locale.catalogues compile"


def test_each_catalogue_says_how_it_was_reviewed_and_its_plural_rule() -> None:
    for lang in catalogues.languages():
        text = catalogues.po_path(lang).read_text(encoding="utf-8")
        head = text.split('msgid ""')[0]
        assert "Review:" in head, lang
        assert "Plural-Forms: nplurals=" in text, lang


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


@pytest.mark.parametrize("lang", L.shipped())
def test_every_code_renders_in_every_language_without_a_missing_placeholder(lang: str) -> None:
    """Every Words template of the catalogue, each way and form, filled with its facts."""
    said = 0
    for code, info in codes.CODES.items():
        w = info.words
        if w is None:
            continue
        templates = [*w.messages.values(), *w.labels.values(), *w.notes.values(), *w.related.values(),
                     *(t for ts in w.more.values() for t in ts)]
        facts = {name: f"<{name}>" for t in templates for name in _fields(t)}
        with L.speaking(lang):
            for how in w.messages:
                for rule in ("", *w.notes):
                    s = codes.say(code, how, rule, **facts)
                    assert s.message and "{" not in s.message, (code, how, s.message)
                    assert all("{" not in n for n in s.notes)
                    said += 1
            for t in templates:  # a translation names only the facts its English names
                assert _fields(L.note(t)) <= _fields(t), (lang, t)
    assert said > 30


def test_plural_forms_follow_the_count() -> None:
    from referee.judging import wording as W

    with L.speaking("ur"):
        assert W.cards(1) == "1 پتا" and W.cards(3) == "3 پتے"
    assert W.cards(1) == "1 card" and W.cards(3) == "3 cards"


def test_check_in_urdu_keeps_the_code_location_and_exit_code() -> None:
    en, ur = _run("check", RECORD), _run("check", "--lang", "ur", RECORD)
    assert en.returncode == ur.returncode == 1
    head_en, head_ur = en.stdout.splitlines()[0], ur.stdout.splitlines()[0]
    assert head_en.startswith("mistake[M201]: renege") and head_ur.startswith("mistake[M201]: ")
    assert "رنگ چھپایا" in head_ur and "renege" not in head_ur
    # The place (file:line:column) is the same; the game and trick after it are said in Urdu.
    where = [line.split(" (")[0] for line in en.stdout.splitlines() if "-->" in line]
    assert where and where == [line.split(" (")[0] for line in ur.stdout.splitlines() if "-->" in line]
    assert "(game 1, trick" in en.stdout and "(کھیل 1، ہاتھ" in ur.stdout
    assert "سزا (فیصلہ 1)" in ur.stdout


def test_the_environment_chooses_the_language_and_machine_formats_stay_english() -> None:
    assert "رنگ چھپایا" in _run("check", RECORD, env={"LANG": "ur_PK.UTF-8"}).stdout
    assert "renege" in _run("check", RECORD, env={"LANGUAGE": "xx:en", "LANG": "ur_PK.UTF-8"}).stdout
    en = _run("check", "--format", "json", RECORD)
    ur = _run("check", "--format", "json", "--lang", "ur", RECORD, env={"LANG": "ur_PK.UTF-8"})
    assert en.returncode == ur.returncode == 1
    assert json.loads(ur.stdout) == json.loads(en.stdout)


def test_an_unknown_language_is_a_usage_error() -> None:
    r = _run("check", "--lang", "xx", RECORD)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "unknown language 'xx'" in r.stderr
    r = _run("explain", "M201", "--lang", "xx")
    assert r.returncode == 2 and "unknown language 'xx'" in r.stderr


def test_explain_and_other_commands_take_lang_anywhere() -> None:
    r = _run("explain", "M201", "--lang", "ur")
    assert r.returncode == 0 and "M201" in r.stdout and "رنگ چھپانا" in r.stdout


def test_a_page_in_urdu_is_right_to_left_with_its_words() -> None:
    from referee.table.page import render

    page = render({"file": "x.gwy", "games": []}, serve=True, lang="ur")
    assert '<html lang="ur" dir="rtl">' in page
    assert "پہل کس کی؟" in page and 'id="lang"' in page
    i18n = json.loads(page.split('id="i18n">', 1)[1].split("</script>", 1)[0])
    assert i18n["sending…"] == "بھیج رہے ہیں…"
    english = render({"file": "x.gwy", "games": []}, serve=True)
    assert '<html lang="en" dir="ltr">' in english and "Who leads?" in english


def test_a_phone_asks_for_its_language() -> None:
    assert L.for_page("ur") == "ur"
    assert L.for_page(None, "ur") == "ur"
    assert L.for_page(None, None, "fr-FR,ur-PK;q=0.8,en;q=0.5") == "ur"
    assert L.for_page(None, None, "en-GB,ur;q=0.9") == "en"


def test_english_opens_no_catalogue() -> None:
    """Start-up stays light: a catalogue is read only when a sentence in its language is said."""
    code = ("import sys; from referee.engine import language as L; from referee.judging import wording as W; "
            "W.cards(3); assert L._loaded == {}, L._loaded; "
            "L.choose('ur'); W.cards(3); assert list(L._loaded) == ['ur']")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT), "LANG": "C"}, timeout=60)
    assert r.returncode == 0, r.stderr


def test_serve_gives_each_phone_its_language_and_remembers_the_picker(tmp_path: Path) -> None:
    """A real server: the browser's Accept-Language chooses the page's language; the picker's
    choice is kept on the phone (localStorage) and wins when the address names none."""
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    import urllib.request

    from conftest import start_chrome
    from selenium.webdriver.support.ui import Select, WebDriverWait
    from test_serve import POSITION, WAIT, Server

    rec = tmp_path / "table.gwy"
    rec.write_text(POSITION, encoding="utf-8")
    srv = Server(rec, "--host", "127.0.0.1")
    drv = None
    try:
        req = urllib.request.Request(srv.watch, headers={"Accept-Language": "fr-FR, ur-PK;q=0.9, en;q=0.5"})
        with urllib.request.urlopen(req, timeout=WAIT) as r:
            page = r.read().decode("utf-8")
        assert '<html lang="ur" dir="rtl">' in page and "پہل کس کی؟" in page
        drv = start_chrome()
        drv.get(srv.watch)
        html = drv.find_element("tag name", "html")
        assert (html.get_attribute("lang"), html.get_attribute("dir")) == ("en", "ltr")
        Select(drv.find_element("id", "lang")).select_by_value("ur")
        WebDriverWait(drv, WAIT).until(lambda d: d.find_element("tag name", "html").get_attribute("lang") == "ur")
        assert drv.find_element("tag name", "html").get_attribute("dir") == "rtl"
        assert drv.execute_script("return window.localStorage.getItem('getaway-lang')") == "ur"
        drv.get(srv.watch)  # the same phone, the address without ?lang=: its choice is kept
        WebDriverWait(drv, WAIT).until(lambda d: d.find_element("tag name", "html").get_attribute("lang") == "ur")
        assert drv.find_element("css selector", "button[data-q=who]").text == "پہل کس کی؟"
    finally:
        if drv is not None:
            drv.quit()
        srv.stop()


def test_html_writes_its_page_in_the_language_asked(tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    r = _run("html", "--lang", "ur", RECORD, "-o", str(out))
    assert r.returncode == 0, r.stderr
    page = out.read_text(encoding="utf-8")
    assert '<html lang="ur" dir="rtl">' in page
    data = json.loads(page.split('id="data">', 1)[1].split("</script>", 1)[0])
    said = json.dumps(data, ensure_ascii=False)
    assert "رنگ چھپایا" in said and "سے پہل کی" in said  # the ruling and the narration, in Urdu
    assert '"M201"' in said  # the codes stay as they are


@pytest.mark.parametrize("fmt", ["jsonl", "sarif", "junit", "github"])
def test_every_machine_format_stays_english(fmt: str) -> None:
    import re

    def plain(text: str) -> str:  # JUnit's timings are the run's own
        return re.sub(r' time="[0-9.]+"', "", text)

    en = _run("check", "-f", fmt, RECORD)
    ur = _run("check", "-f", fmt, "--lang", "ur", RECORD, env={"LANG": "ur_PK.UTF-8"})
    assert en.returncode == ur.returncode == 1
    assert plain(ur.stdout) == plain(en.stdout) and "renege" in en.stdout


def test_live_answers_in_urdu(tmp_path: Path) -> None:
    """live with --lang ur, its lines piped in as a script would: the mistake's words and the
    answers in Urdu, the record written in the notation as ever."""
    from test_live import PAGAT_LINES

    f = tmp_path / "m.gwy"
    lines = [*PAGAT_LINES[:15], "South 4♥", "who leads", "hands", "quit"]
    r = subprocess.run([sys.executable, "-m", "referee", "live", "--lang", "ur", str(f)],
                       input="\n".join(lines) + "\n", capture_output=True, text=True, cwd=ROOT, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr
    assert "mistake[M202]: East کے ٹوچو K♣ سے ہاتھ 4 ختم ہو چکا تھا، پھر بھی South نے 4♥ کھیلا" in r.stdout
    assert "  = مدد: سزا (فیصلہ 1): South ہاتھ 4 کے 4 پتے اٹھاتا ہے اور ہاتھ 5 کی پہل کرتا ہے" in r.stdout
    assert "درج ہوا: 4. South 4♥" in r.stdout
    assert "باری: " in r.stdout and "ہاتھ 5 کی پہل South کرتا ہے" in r.stdout
    assert "ڈھیر میں" in r.stdout  # hands: the waste pile
    assert "South 4♥" in f.read_text(encoding="utf-8")  # the notation stays as it is
