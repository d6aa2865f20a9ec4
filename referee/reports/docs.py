"""The documents shipped with the package (the rulings, the notation), found from a wheel
install (``referee/docs/``, see pyproject.toml) or from a checkout (``docs/``).

The rulings are said in the chosen language (issue 40): ``docs/rulings.md`` stays the English
source, and each of its blocks (a heading, a paragraph, a list item; :func:`blocks`, the one
reading of the page both the catalogue's extractor and the printing use) is an entry of the
``rulings`` catalogue (``referee/locale/<lang>/LC_MESSAGES/rulings.mo``). In English the page
is printed as it is written.
"""

from __future__ import annotations

import gettext
import re
import textwrap
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from referee.engine import language
from referee.engine.codes import CODES, ERROR, MISTAKE

if TYPE_CHECKING:
    from collections.abc import Callable

_CHECKOUT = Path(__file__).resolve().parent.parent.parent / "docs"


class DocNotFound(RuntimeError):
    pass


def doc_text(name: str) -> str:
    """The text of ``rulings.md`` or ``notation.md``."""
    packaged = resources.files("referee").joinpath("docs", name)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    local = _CHECKOUT / name
    if local.is_file():
        return local.read_text(encoding="utf-8")
    raise DocNotFound(language.gettext("{name} is missing from the installed package (reinstall getaway-ref)").format(name=name))


RULINGS = "rulings.md"
# The catalogue of the rulings' words, beside the code's own (``getaway``).
RULINGS_DOMAIN = "rulings"
# How wide a translated paragraph is wrapped, as the English is.
WIDTH = 90


class Block(NamedTuple):
    """One translatable block of a Markdown page: its marker (``## `` for a heading, ``- ``
    for a list item, empty for a paragraph), its words on one line (the Markdown inside them,
    code spans and bold, kept) and the line where it starts."""

    marker: str
    words: str
    line: int


def blocks(text: str) -> list[Block]:
    """The page's blocks in order: a heading is one line, a list item runs to the next item
    or blank line, a paragraph to the next blank line. Their lines are joined by one space,
    so that wrapping the English anew changes no entry of the catalogue."""
    out: list[Block] = []
    lines: list[str] = []
    marker, start = "", 0
    for number, raw in enumerate([*text.splitlines(), ""], 1):
        line = raw.strip()
        opens = re.match(r"(#+ |[-*] )(.*)", line)
        if lines and (not line or opens or marker.startswith("#")):
            out.append(Block(marker, " ".join(lines), start))
            marker, lines = "", []
        if opens:
            marker, lines, start = opens.group(1), [opens.group(2)], number
        elif line:
            if not lines:
                start = number
            lines.append(line)
    return out


def markdown(found: list[Block], say: Callable[[str], str]) -> str:
    """The blocks written back as Markdown, each block's words said by ``say`` (a paragraph
    wrapped as the English is, a list item's further lines indented under its words)."""
    out = []
    for i, b in enumerate(found):
        words = say(b.words)
        if i:  # the items of one list follow one another, as in the English
            out.append("\n" if _item(b) and _item(found[i - 1]) else "\n\n")
        if b.marker.startswith("#"):
            out.append(b.marker + words)
            continue
        # A code span is never broken across lines: its spaces are held while the words wrap.
        held = re.sub(r"`[^`]*`", lambda m: m.group(0).replace(" ", "\0"), words)
        out.append(textwrap.fill(held, WIDTH, initial_indent=b.marker, subsequent_indent=" " * len(b.marker),
                                 break_long_words=False, break_on_hyphens=False).replace("\0", " "))
    return "".join(out) + "\n"


def _item(b: Block) -> bool:
    return b.marker in ("- ", "* ")


def rulings_translator(lang: str | None = None) -> Callable[[str], str] | None:
    """How the rulings are said in ``lang`` (default: the chosen language): the ``gettext`` of
    its rulings catalogue; None in English or a language with none shipped."""
    lang = lang or language.current()
    path = language.LOCALE_DIR / lang / "LC_MESSAGES" / f"{RULINGS_DOMAIN}.mo"
    if lang == language.ENGLISH or not path.is_file():
        return None
    with path.open("rb") as fp:
        return gettext.GNUTranslations(fp).gettext


def rulings_text(lang: str | None = None) -> str:
    """``docs/rulings.md`` in ``lang`` (default: the chosen language); in English, as written."""
    text = doc_text(RULINGS)
    say = rulings_translator(lang)
    return text if say is None else markdown(blocks(text), say)


def ruling_text(n: int, lang: str | None = None) -> str | None:
    """One ruling of docs/rulings.md, its heading included, in ``lang`` (default: the chosen
    language); None if there is none."""
    text = doc_text(RULINGS)
    say = rulings_translator(lang)
    if say is None:
        m = re.search(rf"^## Ruling {n}:.*?(?=^## |\Z)", text, flags=re.M | re.S)
        return m.group(0).rstrip() + "\n" if m else None
    found = blocks(text)
    first = next((i for i, b in enumerate(found) if b.marker == "## " and b.words.startswith(f"Ruling {n}:")), None)
    if first is None:
        return None
    end = next((i for i in range(first + 1, len(found)) if found[i].marker == "## "), len(found))
    return markdown(found[first:end], say)


# An example's words (``explain``): a line's result after ``->``, a play's remark in
# brackets after three spaces, and a line of narration wholly in brackets (what happened
# that the example does not write as a record); the record's own lines stay as written.
_RESULT = re.compile(r"^(\s*->\s)(.+)$")
_REMARK = re.compile(r"^(.*\S   \()([^()]+)(\))$")
_TOLD = re.compile(r"^(\()([^()]+)(\))$")


def example_words(example: str) -> list[str]:
    """The sentences of a code's example to translate (the extractor's and ``explain``'s)."""
    out = []
    for line in example.splitlines():
        m = _RESULT.match(line) or _REMARK.match(line) or _TOLD.match(line)
        if m:
            out.append(m.group(2))
    return out


def said_example(example: str, say: Callable[[str], str]) -> str:
    """A code's example with its words said by ``say``, the record's lines untouched."""
    out = []
    for line in example.splitlines():
        m = _RESULT.match(line) or _REMARK.match(line) or _TOLD.match(line)
        out.append(m.group(1) + say(m.group(2)) + (m.group(3) if m.lastindex == 3 else "") if m else line)
    return "\n".join(out)


def codes_markdown() -> str:
    """Every diagnostic code of the catalogue (``referee/engine/codes.py``) as a Markdown page:
    the documentation site's reference of codes, written from the one catalogue that
    ``getaway-ref explain`` prints, so the two never differ."""
    groups = (("S", "S0xx: the text is not a record", ERROR), ("R", "R1xx: the record cannot be true", ERROR),
              ("M", "M2xx: a mistake at the table", MISTAKE))
    out = ["# Diagnostic codes", "",
           "Every code `check` reports, with its severity, the rule it cites, what it means and an "
           "example. `getaway-ref explain CODE` prints the same entry; a code never changes meaning, "
           "and a retired number is never given to another finding.", ""]
    for prefix, heading, _ in groups:
        out += [f"## {heading}", ""]
        for code, c in CODES.items():
            if not code.startswith(prefix):
                continue
            out += [f"### {code}: {c.title}", "", f"Severity: **{c.severity}**. Rule: {c.rule}.", ""]
            if c.retired:
                out += [f"Retired, no longer reported: {c.retired}", ""]
            out += [c.explanation, ""]
            if c.example:
                out += ["```text", c.example, "```", ""]
    return "\n".join(out)
