"""The documents shipped with the package (the rulings, the notation), found from a wheel
install (``referee/docs/``, see pyproject.toml) or from a checkout (``docs/``)."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

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
