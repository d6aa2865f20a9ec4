"""The documents shipped with the package (the rulings, the notation), found from a wheel
install (``referee/docs/``, see pyproject.toml) or from a checkout (``docs/``)."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from referee.engine.codes import CODES, ERROR, MISTAKE

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
    raise DocNotFound(f"{name} is missing from the installed package (reinstall getaway-ref)")


def ruling_text(n: int) -> str | None:
    """One ruling of docs/rulings.md, its heading included; None if there is none."""
    text = doc_text("rulings.md")
    m = re.search(rf"^## Ruling {n}:.*?(?=^## |\Z)", text, flags=re.M | re.S)
    return m.group(0).rstrip() + "\n" if m else None


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
