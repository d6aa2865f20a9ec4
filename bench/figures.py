"""The figures the documentation quotes, written from data, never by hand.

``bench/figures.json`` holds one current table per measure: what was run (the command), on
which code (the commit), where (the machine) and when (the date), and the table itself. A
bench script that measures calls :func:`record` with its new table; this module then writes
``docs/performance.md`` (every table) and the README's figures (the rows each measure marks
for it, between its ``<!-- figures: ... -->`` lines). The history of earlier figures is in
CHANGELOG.md.

    python bench/figures.py           # write the page and the README's table from the JSON
    python bench/figures.py --check   # exit 1 if either differs from what the JSON gives
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "figures.json"
PAGE = ROOT / "docs" / "performance.md"
README = ROOT / "README.md"
README_START = "<!-- figures: written by bench/figures.py from bench/figures.json; docs/performance.md has every table -->"
README_END = "<!-- figures: end -->"

INTRO = """# Performance

Every table on this page is written by `bench/figures.py` from `bench/figures.json`, which the
bench scripts (`bench/*.py`) update when they run: one current table per measure, with the
command that measured it, the commit it measured, the machine and the date. Figures of earlier
code are in [the changelog](changelog.md). Only ratios taken in the same run mean much on a
shared machine; where a table compares two things, they were timed in alternation in one run.

Tests never time anything: they count work instead (positions searched, games judged, bytes
read), and the figures belong here.
"""


def load() -> dict[str, Any]:
    return json.loads(DATA.read_text(encoding="utf-8"))


def commit() -> str:
    """The commit measured (with ``+`` if the work tree has changes)."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                               text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+" if dirty else "")


def machine() -> str:
    """This machine in a few words: cores, processor, Python."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores ({cpu}), Python {platform.python_version()}"


def record(key: str, *, title: str, command: str, columns: list[str], rows: list[list[str]], note: str = "",
           readme: list[list[str]] | None = None, date: str | None = None) -> None:
    """Put one measure's new table in bench/figures.json (replacing the one before) and write
    the page and the README's table again. ``readme``: rows (measure, figure) for the README."""
    data = load() if DATA.exists() else {"measures": {}}
    data["measures"][key] = {
        "title": title, "command": command, "commit": commit(), "machine": machine(),
        "date": date or time.strftime("%Y-%m-%d", time.gmtime()), "columns": columns, "rows": rows, "note": note,
        "readme": readme or [],
    }
    DATA.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    write(data)
    print(f"figures: {title} written to {os.path.relpath(PAGE, ROOT)} (and the README's table)")


def record_column(key: str, column: str, values: dict[str, str], **meta: Any) -> None:
    """Put one column of a measure's table (the rows named by their first cell), keeping the
    other columns as the last run of each left them: a table that compares two builds is
    filled by a run of each."""
    data = load() if DATA.exists() else {"measures": {}}
    old = data["measures"].get(key, {})
    columns = old.get("columns") or meta.pop("columns")
    meta.pop("columns", None)
    rows = [list(r) for r in old.get("rows", [])]
    at = columns.index(column)
    for label, value in values.items():
        row = next((r for r in rows if r[0] == label), None)
        if row is None:
            row = [label] + [""] * (len(columns) - 1)
            rows.append(row)
        row[at] = value
    record(key, columns=columns, rows=rows, readme=meta.pop("readme", old.get("readme")), **meta)


def compiled_build() -> bool:
    """Whether this run's referee is the compiled build (its engine loaded from a compiled module)."""
    import referee.engine.state

    return not referee.engine.state.__file__.endswith(".py")


def _table(columns: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(columns) + " |", "| " + " | ".join("---" for _ in columns) + " |"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def page(data: dict[str, Any]) -> str:
    out = [INTRO]
    for m in data["measures"].values():
        out += [f"## {m['title']}", "",
                f"`{m['command']}` · commit {m['commit']} · {m['machine']} · {m['date']}", ""]
        out += _table(m["columns"], m["rows"]) + [""]
        if m.get("note"):
            out += [m["note"], ""]
    return "\n".join(out).rstrip("\n") + "\n"


def readme_table(data: dict[str, Any]) -> str:
    rows = [[label, figure, m["date"]] for m in data["measures"].values() for label, figure in m.get("readme", [])]
    return "\n".join([README_START, *_table(["measure", "figure", "taken"], rows), README_END])


def readme_text(data: dict[str, Any], readme: str) -> str:
    start, end = readme.index(README_START), readme.index(README_END) + len(README_END)
    return readme[:start] + readme_table(data) + readme[end:]


def write(data: dict[str, Any]) -> None:
    PAGE.write_text(page(data), encoding="utf-8")
    README.write_text(readme_text(data, README.read_text(encoding="utf-8")), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="exit 1 if the page or the README differs from the JSON")
    args = ap.parse_args(argv)
    data = load()
    if args.check:
        readme = README.read_text(encoding="utf-8")
        stale = [str(p.relative_to(ROOT)) for p, ok in ((PAGE, PAGE.read_text(encoding="utf-8") == page(data)),
                                                       (README, readme_text(data, readme) == readme)) if not ok]
        if stale:
            print(f"not written from bench/figures.json: {', '.join(stale)} (run python bench/figures.py)")
            return 1
        return 0
    write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
