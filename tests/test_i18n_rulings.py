"""Issue 40: our rulings (docs/rulings.md) and explain's example in the players' languages.

The English page is the one source: each of its blocks is an entry of the ``rulings``
catalogue (referee/locale/<lang>/LC_MESSAGES/rulings.po), and ``rules --rulings`` and
``explain ruling N`` print the translation, the Markdown kept; English is printed as written.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.engine import codes
from referee.engine import language as L
from referee.reports import docs

ROOT = Path(__file__).resolve().parent.parent
RULINGS = ROOT / "docs" / "rulings.md"
catalogues = pytest.importorskip("referee.locale.catalogues")
pytest.importorskip("babel")

# Each language's letters: a block said in it has some.
SCRIPT = {"ur": "\u0600-\u06ff", "pa_PK": "\u0600-\u06ff", "pa": "\u0a00-\u0a7f", "hi": "\u0900-\u097f",
          "ml": "\u0d00-\u0d7f", "bn": "\u0980-\u09ff"}


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", L.ENV)}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=ROOT, capture_output=True, text=True,
                          env=env, timeout=120)


def _translations(lang: str) -> dict[str, str]:
    return {m.id: m.string for m in catalogues.read(lang, catalogues.RULINGS_DOMAIN) if m.id}


def test_the_rulings_template_is_a_fresh_extraction_of_the_page() -> None:
    from babel.messages.pofile import read_po

    fresh = [m.id for m in catalogues.extract(catalogues.RULINGS_DOMAIN) if m.id]
    with catalogues.RULINGS_TEMPLATE.open("rb") as f:
        shipped = [m.id for m in read_po(f) if m.id]
    assert fresh == shipped, "run python -m referee.locale.catalogues extract"
    # every heading, paragraph and list item of the page is an entry, nothing else
    assert fresh == [b.words for b in docs.blocks(RULINGS.read_text(encoding="utf-8"))]
    assert sum(w.startswith("Ruling ") for w in fresh) == 11


def test_every_language_has_a_complete_compiled_rulings_catalogue() -> None:
    langs = catalogues.languages(catalogues.RULINGS_DOMAIN)
    assert langs == catalogues.languages() == sorted(SCRIPT)
    template = catalogues.extract(catalogues.RULINGS_DOMAIN)
    for lang in langs:
        assert catalogues.problems(catalogues.read(lang, catalogues.RULINGS_DOMAIN), template,
                                   catalogues.RULINGS_DOMAIN) == [], lang
        po = catalogues.po_path(lang, catalogues.RULINGS_DOMAIN)
        assert po.with_suffix(".mo").read_bytes() == catalogues.compiled(lang, catalogues.RULINGS_DOMAIN), \
            f"{lang}: run python -m referee.locale.catalogues compile"
        head = po.read_text(encoding="utf-8").split('msgid ""')[0]
        assert "Review: MACHINE-DRAFTED" in head and f"docs/glossary/{lang}.md" in head, lang


def test_the_check_refuses_a_translation_that_breaks_the_markdown_or_a_citation() -> None:
    english = "Under `first_trick=in_turn` (**Pagat**, ruling 1; R111) North plays Q♦."
    assert catalogues.kept(english, "`first_trick=in_turn` کے ساتھ (**Pagat**، فیصلہ 1؛ R111) North Q♦ ڈالتا ہے۔") == []
    for broken in ("first_trick=in_turn کے ساتھ (**Pagat**، فیصلہ 1؛ R111) North Q♦ ڈالتا ہے۔",  # code span lost
                   "`first_trick=in_turn` کے ساتھ (Pagat، فیصلہ 1؛ R111) North Q♦ ڈالتا ہے۔",  # bold lost
                   "`first_trick=in_turn` کے ساتھ (**Pagat**، فیصلہ 2؛ R111) North Q♦ ڈالتا ہے۔",  # ruling's number
                   "`first_trick=in_turn` کے ساتھ (**پگٹ**، فیصلہ 1؛ R111) North Q♦ ڈالتا ہے۔",  # source's name
                   "`first_trick=in_turn` کے ساتھ (**Pagat**، فیصلہ 1؛ R111) North بیگم ڈالتا ہے۔"):  # the card
        assert catalogues.kept(english, broken), broken


def test_a_changed_english_paragraph_fails_the_check_and_goes_fuzzy(tmp_path: Path) -> None:
    """One paragraph of a copy of the page reworded: ``check`` reports it in every language,
    and ``update``'s merge keeps the old translation marked fuzzy (left out when compiled)."""
    text = RULINGS.read_text(encoding="utf-8")
    old = "A hand is taken between tricks only (before the first trick too)."
    assert old in text
    changed = tmp_path / "rulings.md"
    changed.write_text(text.replace(old, "A hand is taken between two tricks only (before the first trick too)."),
                       encoding="utf-8")
    assert catalogues.check() == []
    bad = catalogues.check(rulings_source=changed)
    langs = catalogues.languages(catalogues.RULINGS_DOMAIN)
    assert {p.split(" ")[0] for p in bad} == set(langs)
    assert all("(rulings): missing: 'A hand is taken between two tricks only" in p for p in bad)
    assert catalogues.main(["check"]) == 0

    template = catalogues.extract(catalogues.RULINGS_DOMAIN, changed)
    for lang in langs:
        catalog = catalogues.read(lang, catalogues.RULINGS_DOMAIN)
        before = catalog.get(next(b.words for b in docs.blocks(text) if b.words.startswith(old)))
        catalog.update(template, no_fuzzy_matching=False)
        problems = catalogues.problems(catalog, template, catalogues.RULINGS_DOMAIN)
        assert len(problems) == 1 and problems[0].startswith("fuzzy: 'A hand is taken between two tricks"), lang
        reworded = next(m for m in catalog if m.id and m.id.startswith("A hand is taken between two"))
        assert reworded.string == before.string  # the translator starts from the old translation


def test_rules_rulings_prints_every_block_translated_with_the_pages_structure() -> None:
    english = RULINGS.read_text(encoding="utf-8")
    assert _run("rules", "--rulings").stdout == english  # English: the page as written
    source = docs.blocks(english)
    for lang in ("ur", "pa"):
        done = _run("rules", "--rulings", "--lang", lang)
        assert done.returncode == 0, done.stderr
        said = docs.blocks(done.stdout)
        assert [b.marker for b in said] == [b.marker for b in source]  # the same headings and list items
        assert sum(b.marker == "## " for b in said) == 11 and sum(b.marker == "- " for b in said) == 5
        translated = _translations(lang)
        for theirs, ours in zip(source, said, strict=True):
            assert ours.words == translated[theirs.words] != theirs.words
            assert re.search(f"[{SCRIPT[lang]}]", ours.words), ours.words
            # every code span of the English is printed whole, on one line
            assert re.findall(r"`[^`]+`", ours.words) == re.findall(r"`[^`]+`", theirs.words)
        for span in re.findall(r"`[^`]+`", done.stdout):
            assert "\n" not in span


def test_explain_ruling_in_hindi_is_that_ruling_translated() -> None:
    done = _run("explain", "ruling", "5", "--lang", "hi")
    assert done.returncode == 0, done.stderr
    said = docs.blocks(done.stdout)
    english = docs.blocks(docs.ruling_text(5, "en") or "")
    assert [b.marker for b in said] == [b.marker for b in english] == ["## ", ""]
    translated = _translations("hi")
    assert [b.words for b in said] == [translated[b.words] for b in english]
    assert said[0].words.endswith(translated[english[0].words].split(":", 1)[1])
    assert re.search(r"[\u0900-\u097f]+ 5:", said[0].words)
    assert _run("explain", "ruling", "5").stdout == docs.ruling_text(5, "en")
    assert "## Ruling 5:" in (docs.ruling_text(5, "en") or "")


def test_explain_code_in_bengali_says_its_words_and_keeps_the_record() -> None:
    done = _run("explain", "M201", "--lang", "bn")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    with L.speaking("bn"):
        heads = {w: L.gettext(w) for w in ("example:", "rule: {rule}", "mistake")}
        words = {w: L.gettext(w) for w in docs.example_words(codes.CODES["M201"].example)}
    assert all(heads[w] != w for w in heads) and all(words[w] != w for w in words)
    info = codes.CODES["M201"]
    assert lines[0].startswith("M201: ") and lines[0].endswith(f"({heads['mistake']})")
    assert lines[1] == heads["rule: {rule}"].format(rule=info.rule)  # the citation as written
    assert heads["example:"] in lines
    example = lines[lines.index(heads["example:"]) + 1:]
    record, result = example
    # the record's line as written, its remark and the result said in Bengali
    assert record.startswith("    4. West 2♥, North 6♥, East K♣   (") and words["East holds 9♥"] in record
    assert result == "       -> " + words["renege; East picks up 3 cards and leads trick 5"]
    assert re.search(r"[\u0980-\u09ff]", result)


@pytest.mark.parametrize("lang", sorted(SCRIPT))
def test_every_codes_example_keeps_its_record_lines_in_every_language(lang: str) -> None:
    for code, info in codes.CODES.items():
        if info.retired:  # why a code is retired is said too
            with L.speaking(lang):
                assert re.search(f"[{SCRIPT[lang]}]", L.gettext(info.retired)), code
        if not info.example:
            continue
        with L.speaking(lang):
            said = docs.said_example(info.example, L.gettext)
        for theirs, ours in zip(info.example.splitlines(), said.splitlines(), strict=True):
            if not docs.example_words(theirs):
                assert ours == theirs, code  # a line of the record stays as written
            else:
                assert ours != theirs and re.search(f"[{SCRIPT[lang]}]", ours), (code, ours)


def test_the_page_read_into_blocks_and_written_back_reads_the_same() -> None:
    text = RULINGS.read_text(encoding="utf-8")
    found = docs.blocks(text)
    again = docs.blocks(docs.markdown(found, lambda s: s))
    assert [(b.marker, b.words) for b in again] == [(b.marker, b.words) for b in found]
