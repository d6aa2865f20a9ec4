"""The translated catalogues (issue 40): ``<lang>/LC_MESSAGES/getaway.po`` and its compiled
``getaway.mo`` per language, and ``getaway.pot``, the template of every sentence, made from
the code by :mod:`referee.locale.catalogues` (``docs/howto/translate.md``). The referee reads
the ``.mo`` files with the standard library (``referee/engine/language.py``)."""
