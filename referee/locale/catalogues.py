"""Making the catalogues (issue 40; ``docs/howto/translate.md``): the template of every
sentence extracted from the code, each language's ``.po`` brought up to it, and compiled.

    python -m referee.locale.catalogues extract   # getaway.pot from the code, rulings.pot from docs/rulings.md
    python -m referee.locale.catalogues update    # every .po: new sentences added, changed ones fuzzy
    python -m referee.locale.catalogues check     # what is missing, untranslated, fuzzy or broken
    python -m referee.locale.catalogues compile   # every .po -> .mo (a fuzzy entry is left out)
    python -m referee.locale.catalogues init hi   # a new language's .po files, from the templates

Two catalogues (gettext domains), each with its template and a ``.po`` per language:
``getaway``, the code's sentences, and ``rulings``, the blocks of ``docs/rulings.md`` (each
heading, paragraph and list item an entry, its Markdown, code spans and citations kept;
``referee/reports/docs.py`` reads the page into blocks for both the extractor and the
printing), so that a changed English paragraph is fuzzy in every language.

A development tool: it needs Babel (the ``i18n`` extra), which the referee itself never
imports. Sentences are found where they are written:

* the catalogue's words, ``engine/codes.py``: every template of a ``Words(...)``, every
  rule's note (``R.note(WORDS, ...)``) and each code's title and explanation (``_c(...)``), by
  :func:`extract_words`, so a new ``Words`` entry needs no marker;
* Python: ``gettext(...)``/``_(...)``, ``ngettext(...)`` and ``N_(...)`` (Babel's extractor);
* the pages: the jinja2 templates' ``{% trans %}`` and ``_(...)`` (jinja2's extractor) and
  the scripts' ``_("...")`` (Babel's JavaScript extractor): the table's and the offline site's.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent.parent
LOCALE = Path(__file__).resolve().parent
TEMPLATE = LOCALE / "getaway.pot"
DOMAIN = "getaway"
RULINGS_DOMAIN = "rulings"
RULINGS_TEMPLATE = LOCALE / "rulings.pot"
RULINGS_SOURCE = ROOT / "docs" / "rulings.md"
DOMAINS = (DOMAIN, RULINGS_DOMAIN)

# Where sentences are, and how each is read (Babel's method map; the first match wins).
METHODS = [
    ("referee/engine/codes.py", "referee.locale.catalogues:extract_words"),
    ("referee/locale/**.py", "ignore"),
    ("referee/**.py", "python"),
    ("referee/**/templates/**.j2", "jinja2.ext:babel_extract"),
    ("referee/**/templates/**.js", "javascript"),
    ("referee/site/static/**.js", "javascript"),  # the offline site's own scripts (lang.js gives them _())
]
OPTIONS = {"referee/**/templates/**.j2": {"extensions": "jinja2.ext.i18n", "trimmed": "true"}}
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}
# A translator's comment: "# i18n: ..." above a marked sentence reaches the catalogue.
COMMENT_TAGS = ("i18n:",)

# Each language's plural rule (CLDR's, as gettext writes them) for a new catalogue.
PLURALS = {
    "ur": "nplurals=2; plural=(n != 1);",
    "pa_PK": "nplurals=2; plural=(n != 1);",
    "pa": "nplurals=2; plural=(n > 1);",
    "hi": "nplurals=2; plural=(n > 1);",
    "ml": "nplurals=2; plural=(n != 1);",
    "bn": "nplurals=2; plural=(n > 1);",
}


class _Text(NamedTuple):
    lineno: int
    value: str


def extract_words(fileobj: IO[bytes], keywords: object, comment_tags: object,
                  options: dict[str, Any]) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extraction method for the catalogue of codes: every sentence of a ``Words``
    declaration (its templates, and the words of the notes it holds), the words of every
    rule's note (``R.note``), and each code's title and explanation (``_c``)."""
    tree = ast.parse(fileobj.read().decode("utf-8"))

    def texts(node: ast.AST) -> Iterator[_Text]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value:
            yield _Text(node.lineno, node.value)
        elif isinstance(node, ast.Dict):
            for v in node.values:
                yield from texts(v)
        elif isinstance(node, (ast.Tuple, ast.List)):
            for v in node.elts:
                yield from texts(v)

    def name(f: ast.expr) -> str:
        return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""

    found: list[tuple[int, None, str, list[str]]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        called = name(node.func)
        if called == "note" and node.args:
            found += [(c.lineno, None, c.value, []) for c in texts(node.args[0])]
        elif called == "Words":
            for kw in node.keywords:
                if kw.arg in ("messages", "labels", "more", "related"):
                    found += [(c.lineno, None, c.value, [f"i18n: {kw.arg}; {{names}} are filled in"])
                              for c in texts(kw.value)]
        elif called == "_c" and len(node.args) >= 4:
            found += [(c.lineno, None, c.value, [f"i18n: a code's {what}"])
                      for what, arg in (("title", node.args[1]), ("explanation", node.args[3]))
                      for c in texts(arg)]
            found += [(c.lineno, None, c.value, ["i18n: why a code is retired"])
                      for kw in node.keywords if kw.arg == "retired" for c in texts(kw.value)]
            if len(node.args) >= 5:  # the example's words, its record's lines kept (explain)
                from referee.reports.docs import example_words

                found += [(c.lineno, None, words, ["i18n: the words of a code's example; keep its cards, seats and codes"])
                          for c in texts(node.args[4]) for words in example_words(c.value)]
    yield from sorted(found, key=lambda f: f[0])


def _catalog() -> Any:
    from babel.messages.catalog import Catalog

    return Catalog(project="getaway-ref", msgid_bugs_address="https://github.com/getaway-ref/getaway-ref/issues",
                   copyright_holder="The getaway-ref authors", charset="utf-8")


def extract(domain: str = DOMAIN, source: Path = RULINGS_SOURCE) -> Any:
    """The template of a catalogue as Babel's ``Catalog``: every sentence of the code
    (``getaway``), or every block of the rulings' page ``source`` (``rulings``)."""
    if domain == RULINGS_DOMAIN:
        return extract_rulings(source)
    from babel.messages.extract import extract_from_dir

    catalog = _catalog()
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT, METHODS, OPTIONS, KEYWORDS, COMMENT_TAGS, strip_comment_tags=True,
            directory_filter=lambda d: "__pycache__" not in d and "node_modules" not in d):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def extract_rulings(source: Path = RULINGS_SOURCE) -> Any:
    """The rulings' template: each block of the page (``referee.reports.docs.blocks``) an
    entry, its words on one line, placed by the page's line."""
    from referee.reports.docs import blocks

    catalog = _catalog()
    kinds = {"": "a paragraph", "- ": "a list item", "* ": "a list item"}
    for b in blocks(source.read_text(encoding="utf-8")):
        kind = "a heading" if b.marker.startswith("#") else kinds[b.marker]
        catalog.add(b.words, None, [(f"docs/{source.name}", b.line)], auto_comments=[
            f"{kind} of docs/rulings.md; keep the Markdown (**bold**, `code`), the cards, the codes "
            "and the sources' names and sections (Pagat, Denexa) as they are"])
    return catalog


def template_path(domain: str = DOMAIN) -> Path:
    return RULINGS_TEMPLATE if domain == RULINGS_DOMAIN else TEMPLATE


def write_template(path: Path | None = None, domain: str = DOMAIN) -> Any:
    from babel.messages.pofile import write_po

    catalog = extract(domain)
    with (path or template_path(domain)).open("wb") as f:
        write_po(f, catalog, width=100, omit_header=False, sort_output=False, no_location=False,
                 include_lineno=domain == RULINGS_DOMAIN)
    return catalog


def languages(domain: str = DOMAIN) -> list[str]:
    """The languages with a catalogue of ``domain``, by their folder."""
    return sorted(p.parent.parent.name for p in LOCALE.glob(f"*/LC_MESSAGES/{domain}.po"))


def po_path(lang: str, domain: str = DOMAIN) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"


def read(lang: str, domain: str = DOMAIN) -> Any:
    from babel.messages.pofile import read_po

    with po_path(lang, domain).open("rb") as f:
        return read_po(f, locale=_babel_locale(lang), domain=domain)


def update() -> None:
    """Every language's ``.po`` of each catalogue brought up to a fresh template: new
    sentences added untranslated, changed ones marked fuzzy (with their old translation),
    gone ones kept as obsolete (``#~``) for the translator."""
    from babel.messages.pofile import write_po

    for domain in DOMAINS:
        template = write_template(domain=domain)
        for lang in languages(domain):
            catalog = read(lang, domain)
            catalog.update(template, no_fuzzy_matching=False)
            with po_path(lang, domain).open("wb") as f:
                write_po(f, catalog, width=100, include_lineno=domain == RULINGS_DOMAIN)


# What a translation of a rulings block keeps as the English has it: its code spans, its bold
# (by count), the diagnostic codes, the cards and the numbers (of rulings, of versions), and
# the sources' names, which the diagnostics cite.
_KEPT = (re.compile(r"`[^`]+`"), re.compile(r"\b[RSM]\d{3}\b"), re.compile(r"(?:10|[2-9AKQJ])[♠♥♦♣]"),
         re.compile(r"(?<![\w`])\d+(?![\w`])"), re.compile(r"\b(?:Pagat|Denexa)\b"))


def kept(english: str, translated: str) -> list[str]:
    """What a translation of a block of the rulings lost or added of its English's Markdown
    and citations (empty when it keeps them all)."""
    out = []
    for pattern in _KEPT:
        want, have = sorted(pattern.findall(english)), sorted(pattern.findall(translated))
        if want != have:
            out.append(f"keeps {want} as written, has {have}")
    if english.count("**") != translated.count("**"):
        out.append("keeps the English's bold (**)")
    return out


def problems(catalog: Any, template: Any, domain: str = DOMAIN) -> list[str]:
    """What keeps a catalogue from being complete: a sentence of the template missing or
    untranslated, or fuzzy (a translation of an older sentence, to be checked); for the
    rulings, a block whose translation does not keep its Markdown and citations."""
    out = []
    for m in template:
        if not m.id:
            continue
        have = catalog.get(m.id)
        if have is None:
            out.append(f"missing: {m.id!r}")
        elif have.fuzzy:
            out.append(f"fuzzy: {m.id!r}")
        elif not (all(have.string) if isinstance(have.string, (tuple, list)) else have.string):
            out.append(f"untranslated: {m.id!r}")
        elif domain == RULINGS_DOMAIN:
            out += [f"{why}: {m.id!r}" for why in kept(m.id, have.string)]
    return out


def check(rulings_source: Path = RULINGS_SOURCE) -> list[str]:
    """Every problem of every catalogue against fresh templates (the code's, and the
    rulings' page ``rulings_source``): a language of one catalogue must have the other too."""
    bad = []
    every = sorted(set(languages(DOMAIN)) | set(languages(RULINGS_DOMAIN)))
    for domain in DOMAINS:
        template = extract(domain, rulings_source)
        for lang in every:
            if not po_path(lang, domain).is_file():
                bad.append(f"{lang}: no {domain} catalogue ({po_path(lang, domain).relative_to(ROOT)})")
                continue
            bad += [f"{lang} ({domain}): {p}" for p in problems(read(lang, domain), template, domain)]
    return bad


def compiled(lang: str, domain: str = DOMAIN) -> bytes:
    """The ``.mo`` file of a language's ``.po``, as Babel compiles it."""
    import io

    from babel.messages.mofile import write_mo

    out = io.BytesIO()
    write_mo(out, read(lang, domain), use_fuzzy=False)
    return out.getvalue()


def compile_all() -> None:
    for domain in DOMAINS:
        for lang in languages(domain):
            (po_path(lang, domain).with_suffix(".mo")).write_bytes(compiled(lang, domain))


def init(lang: str) -> None:
    """A new language's catalogues, from the templates (its plural rule set)."""
    for domain in DOMAINS:
        _init(lang, domain)


def _init(lang: str, domain: str) -> None:
    from babel.messages.pofile import read_po, write_po

    path = po_path(lang, domain)
    if path.exists():
        raise SystemExit(f"{path} exists: run update instead")
    with template_path(domain).open("rb") as f:
        catalog = read_po(f, locale=_babel_locale(lang), domain=domain)
    catalog.header_comment = (
        f"# {lang} translation of getaway-ref (docs/howto/translate.md; the game's words: docs/glossary/{lang}.md).\n"
        "# Review: NOT YET REVIEWED. Say here how this catalogue was made and checked (a machine draft, or\n"
        "# by whom, a native speaker of which region), and update it with each review.\n"
        "# This file is distributed under the same license as the getaway-ref project.")
    catalog.fuzzy = False
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, include_lineno=domain == RULINGS_DOMAIN)
    text = path.read_text(encoding="utf-8")
    if lang in PLURALS:

        text = re.sub(r'"Plural-Forms: [^"]*\\n"', f'"Plural-Forms: {PLURALS[lang]}\\\\n"', text, count=1)
        path.write_text(text, encoding="utf-8")


def _babel_locale(lang: str) -> str:
    """The locale Babel knows a catalogue's language by (Shahmukhi Punjabi is ``pa_Arab_PK``
    to CLDR; its folder keeps glibc's ``pa_PK``)."""
    return {"pa_PK": "pa_Arab_PK", "pa": "pa_Guru_IN"}.get(lang, lang)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("extract", "update", "compile", "init", "check"):
        print(__doc__)
        return 2
    if argv[0] == "extract":
        for domain in DOMAINS:
            write_template(domain=domain)
    elif argv[0] == "update":
        update()
    elif argv[0] == "compile":
        compile_all()
    elif argv[0] == "init":
        if len(argv) != 2:
            print("usage: python -m referee.locale.catalogues init LANG")
            return 2
        init(argv[1])
    elif argv[0] == "check":
        bad = check()
        print("\n".join(bad) or "every catalogue is complete")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
