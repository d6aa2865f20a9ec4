"""The language a sentence is said in (issue 40): the one place words are translated.

Every sentence a player reads is written in English in the code (the catalogue's ``Words``
in ``codes.py``, the wording layer ``judging/wording.py``, the table's pages) and is
translated here, when it is said, with the standard library's :mod:`gettext`, from the
compiled catalogues shipped in ``referee/locale/<lang>/LC_MESSAGES/getaway.mo`` (their
``.po`` sources beside them; ``docs/howto/translate.md`` says how they are made). Babel
makes those files; nothing here needs it.

The English text is the message id, so a sentence with no translation reads in English.
A catalogue is read only when a sentence in its language is first needed: a check in
English opens no file. Codes, JSON, SARIF, JUnit and the notation never pass through here.

The language is chosen, first to last: :func:`use` for one request or task (``serve``'s
phones each have their own), :func:`choose` for the process (``--lang``), then the
environment (``GETAWAY_LANG``, which ``choose`` also sets for worker processes, then
``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` as gettext reads them), else English.
The engine imports this module only for its words; the rules never depend on a language.
"""

from __future__ import annotations

import gettext as _gettext
import os
from contextvars import ContextVar, Token
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Iterator

DOMAIN = "getaway"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
ENGLISH = "en"
# The environment variable through which a chosen language reaches worker processes.
ENV = "GETAWAY_LANG"


@dataclass(frozen=True, slots=True)
class Language:
    """A language we speak: its gettext code (the catalogue's folder), its BCP 47 tag for a
    page's ``lang`` and a voice, its name in its own script and its direction."""

    code: str
    tag: str
    name: str
    rtl: bool = False

    @property
    def dir(self) -> str:
        return "rtl" if self.rtl else "ltr"


# Every language the project translates into, English the source. Punjabi has two scripts:
# ``pa_PK`` is Shahmukhi (Pakistan's Punjabi, written right to left in the Perso-Arabic
# script), ``pa`` Gurmukhi (India's), the codes glibc and CLDR use for them.
LANGUAGES: dict[str, Language] = {lang.code: lang for lang in (
    Language("en", "en", "English"),
    Language("ur", "ur", "اردو", rtl=True),
    Language("pa_PK", "pa-Arab", "پنجابی", rtl=True),
    Language("pa", "pa-Guru", "ਪੰਜਾਬੀ"),
    Language("hi", "hi", "हिन्दी"),
    Language("ml", "ml", "മലയാളം"),
    Language("bn", "bn", "বাংলা"),
)}

# Other spellings of the same language: a BCP 47 tag (the browser's) or a locale name.
_ALIASES = {"pa_arab": "pa_PK", "pa_arab_pk": "pa_PK", "pnb": "pa_PK", "pa_guru": "pa", "pa_in": "pa",
            "pa_guru_in": "pa", "c": ENGLISH, "posix": ENGLISH}


class _Translations(Protocol):
    def gettext(self, message: str) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


_chosen: str | None = None
_local: ContextVar[str | None] = ContextVar("getaway_language", default=None)
_loaded: dict[str, _Translations | None] = {}


def shipped() -> list[str]:
    """The languages a player can choose: English and those with a compiled catalogue."""
    return [code for code in LANGUAGES
            if code == ENGLISH or (LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file()]


def known(name: str, among: list[str] | None = None) -> str | None:
    """The language ``name`` means (``ur``, ``ur_PK.UTF-8``, ``pa-Arab``, ``hi-IN``), among
    ``among`` (default: every language of :data:`LANGUAGES`); None for one we do not speak."""
    base = name.split(".")[0].split("@")[0].replace("-", "_").strip()
    if not base:
        return None
    have = list(LANGUAGES) if among is None else among
    for candidate in (base, _ALIASES.get(base.lower(), ""), base.split("_")[0].lower()):
        for code in have:
            if candidate and code.lower() == candidate.lower():
                return code
    return None


def from_environment(environ: dict[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it: ``GETAWAY_LANG``, then
    the first of ``LANGUAGE`` (a list, ``ur:en``), ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that
    is set; its first language we speak, else English."""
    env = os.environ if environ is None else environ
    if env.get(ENV):
        return known(env[ENV]) or ENGLISH
    have = shipped()
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if value:
            for name in value.split(":"):
                found = known(name, have)
                if found:
                    return found
            return ENGLISH
    return ENGLISH


def choose(name: str | None) -> str:
    """The process's language (``--lang``; None: the environment's). Also told to worker
    processes through ``GETAWAY_LANG``. A language of :data:`LANGUAGES` whose catalogue is
    not shipped yet is said in English. Raises ValueError for one we do not know."""
    global _chosen
    if name is None:
        _chosen = from_environment()
        return _chosen
    found = known(name)
    if found is None:
        raise ValueError(f"unknown language {name!r}: choose one of {', '.join(LANGUAGES)}")
    _chosen = found
    os.environ[ENV] = found
    return found


def current() -> str:
    """The language sentences are said in now."""
    global _chosen
    lang = _local.get()
    if lang is not None:
        return lang
    if _chosen is None:
        _chosen = from_environment()
    return _chosen


def use(lang: str) -> Token[str | None]:
    """Say the sentences of this request or task in ``lang`` (a code of :func:`shipped`);
    :func:`restore` with the token ends it."""
    return _local.set(known(lang) or ENGLISH)


def restore(token: Token[str | None]) -> None:
    _local.reset(token)


class speaking:
    """``with speaking("ur"): ...``: the sentences said inside are in that language."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self._token: Token[str | None] | None = None

    def __enter__(self) -> str:
        self._token = use(self.lang)
        return current()

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            restore(self._token)


def info(lang: str | None = None) -> Language:
    """The current (or named) language's tag, name and direction."""
    return LANGUAGES[lang or current()]


def translations(lang: str) -> _Translations | None:
    """The compiled catalogue of ``lang``, read on first use (None for English or a
    language with none shipped). The file is opened by its own path, not through
    gettext's search, so that ``pa_PK`` (Shahmukhi) never falls back to ``pa`` (Gurmukhi)."""
    if lang in _loaded:
        return _loaded[lang]
    found: _Translations | None = None
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if lang != ENGLISH and path.is_file():
        with path.open("rb") as fp:
            found = _gettext.GNUTranslations(fp)
    _loaded[lang] = found
    return found


def gettext(message: str) -> str:
    """``message`` (English, the message id) in the current language."""
    lang = current()
    if lang == ENGLISH or not message:
        return message
    t = translations(lang)
    return t.gettext(message) if t is not None else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` of a sentence with a count (each language's plural rule)."""
    lang = current()
    t = translations(lang) if lang != ENGLISH else None
    if t is None:
        return singular if n == 1 else plural
    return t.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a sentence for the catalogue where it is written (a table of sentences); it is
    translated where it is said, with :func:`gettext`."""
    return message


_ = gettext


def note(text: str) -> str:
    """A rule's note, ``Citation — words`` (``citations.note``): the words translated, the
    citation (a source's name and section) as it is."""
    cite, sep, words = text.partition(" — ")
    return cite + sep + gettext(words) if sep else gettext(text)


def strings(messages: Iterator[str] | list[str], lang: str | None = None) -> dict[str, str]:
    """The given English sentences in ``lang`` (default: the current one), as a dictionary
    for a page's script (its ``I18N`` object)."""
    token = use(lang) if lang is not None else None
    try:
        return {m: gettext(m) for m in messages}
    finally:
        if token is not None:
            restore(token)


def for_page(asked: str | None = None, cookie: str | None = None, accept: str | None = None) -> str:
    """A page's language: the one asked in its address (``?lang=``), else the phone's choice
    (the picker's ``lang`` cookie, kept with its localStorage), else the browser's languages
    (``Accept-Language``, best first), else the process's."""
    have = shipped()
    for name in (asked, cookie):
        found = known(name, have) if name else None
        if found:
            return found
    if accept:
        ranked = []
        for i, part in enumerate(accept.split(",")):
            tag, _sep, q = part.strip().partition(";q=")
            try:
                weight = float(q) if q else 1.0
            except ValueError:
                weight = 0.0
            ranked.append((-weight, i, tag.strip()))
        for _w, _i, tag in sorted(ranked):
            found = known(tag, have) if tag and tag != "*" else None
            if found:
                return found
    return current()
