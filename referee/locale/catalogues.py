"""Making the catalogues (issue 40; ``docs/howto/translate.md``): the template of every
sentence extracted from the code, each language's ``.po`` brought up to it, and compiled.

    python -m referee.locale.catalogues extract   # getaway.pot, from the code
    python -m referee.locale.catalogues update    # every .po: new sentences added, old ones marked
    python -m referee.locale.catalogues compile   # every .po -> .mo (refuses a fuzzy or missing entry)
    python -m referee.locale.catalogues init hi   # a new language's .po, from the template

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
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent.parent
LOCALE = Path(__file__).resolve().parent
TEMPLATE = LOCALE / "getaway.pot"
DOMAIN = "getaway"

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
    yield from sorted(found, key=lambda f: f[0])


def extract() -> Any:
    """The template of every sentence, from the code, as Babel's ``Catalog``."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    catalog = Catalog(project="getaway-ref", msgid_bugs_address="https://github.com/getaway-ref/getaway-ref/issues",
                      copyright_holder="The getaway-ref authors", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
            ROOT, METHODS, OPTIONS, KEYWORDS, COMMENT_TAGS, strip_comment_tags=True,
            directory_filter=lambda d: "__pycache__" not in d and "node_modules" not in d):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def write_template(path: Path = TEMPLATE) -> Any:
    from babel.messages.pofile import write_po

    catalog = extract()
    with path.open("wb") as f:
        write_po(f, catalog, width=100, omit_header=False, sort_output=False, no_location=False,
                 include_lineno=False)
    return catalog


def languages() -> list[str]:
    """The languages with a catalogue, by their folder."""
    return sorted(p.parent.parent.name for p in LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(lang: str) -> Any:
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as f:
        return read_po(f, locale=_babel_locale(lang), domain=DOMAIN)


def update() -> None:
    """Every language's ``.po`` brought up to a fresh template: new sentences added
    untranslated, changed ones marked fuzzy (with their old translation), gone ones kept as
    obsolete (``#~``) for the translator."""
    from babel.messages.pofile import write_po

    template = write_template()
    for lang in languages():
        catalog = read(lang)
        catalog.update(template, no_fuzzy_matching=False)
        with po_path(lang).open("wb") as f:
            write_po(f, catalog, width=100, include_lineno=False)


def problems(catalog: Any, template: Any) -> list[str]:
    """What keeps a catalogue from being complete: a sentence of the template missing or
    untranslated, or fuzzy (a translation of an older sentence, to be checked)."""
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
    return out


def compiled(lang: str) -> bytes:
    """The ``.mo`` file of a language's ``.po``, as Babel compiles it."""
    import io

    from babel.messages.mofile import write_mo

    out = io.BytesIO()
    write_mo(out, read(lang), use_fuzzy=False)
    return out.getvalue()


def compile_all() -> None:
    for lang in languages():
        (po_path(lang).with_suffix(".mo")).write_bytes(compiled(lang))


def init(lang: str) -> None:
    """A new language's catalogue, from the template (its plural rule set)."""
    from babel.messages.pofile import read_po, write_po

    path = po_path(lang)
    if path.exists():
        raise SystemExit(f"{path} exists: run update instead")
    with TEMPLATE.open("rb") as f:
        catalog = read_po(f, locale=_babel_locale(lang), domain=DOMAIN)
    catalog.header_comment = (
        f"# {lang} translation of getaway-ref (docs/howto/translate.md; the game's words: docs/glossary/{lang}.md).\n"
        "# Review: NOT YET REVIEWED. Say here how this catalogue was made and checked (a machine draft, or\n"
        "# by whom, a native speaker of which region), and update it with each review.\n"
        "# This file is distributed under the same license as the getaway-ref project.")
    catalog.fuzzy = False
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, include_lineno=False)
    text = path.read_text(encoding="utf-8")
    if lang in PLURALS:
        import re

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
        write_template()
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
        template = extract()
        bad = [f"{lang}: {p}" for lang in languages() for p in problems(read(lang), template)]
        print("\n".join(bad) or "every catalogue is complete")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
