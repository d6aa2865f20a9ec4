"""Every example in the README and the documentation runs, and says what the tool says.

The convention (docs/contributing.md, "Examples in the documentation"):

- A fenced block whose first line starts with ``$ `` is an example: each ``$ getaway-ref ...``
  line is run (without a shell, the words split as a shell would), and the lines under it, up
  to the next ``$`` line or the fence, are what it prints: standard output, then standard
  error, compared exactly, trailing spaces included. The commands of a page run in a scratch
  folder holding ``records/`` (the project's) and the page's named records (below).
- A ``gwy`` block is a whole record, checked with ``check``: it must be clean, unless an
  HTML comment ``<!-- codes: M201 R111 -->`` just above it lists the codes it shows on
  purpose (then exactly those are reported). ``<!-- file: NAME.gwy -->`` above it saves it
  under that name for the page's examples.
- Anything else (``text``, ``sh``, ``toml``, ...) is shown, not run.

``GETAWAY_UPDATE_EXAMPLES=1 python -m pytest tests/test_docs_examples.py`` rewrites the
expected output of every example from what the tool prints now (review the diff before
committing it).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import ROOT

UPDATE = bool(os.environ.get("GETAWAY_UPDATE_EXAMPLES"))
PAGES = [ROOT / "README.md"] + sorted(p for p in (ROOT / "docs").rglob("*.md") if "hooks" not in p.parts)
META = re.compile(r"^<!--\s*(file|codes):\s*(.*?)\s*-->$")
FENCE = re.compile(r"^(```+)(.*)$")


@dataclass
class Block:
    info: str  # the fence's language word
    start: int  # index of the block's first line (after the fence) in the page's lines
    lines: list[str]
    meta: dict[str, str] = field(default_factory=dict)


def blocks(text: str) -> list[Block]:
    """The fenced blocks of a Markdown page, each with the HTML comments just above it."""
    lines = text.split("\n")
    found: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        meta: dict[str, str] = {}
        j = i - 1
        while j >= 0 and (c := META.match(lines[j])):
            meta.setdefault(c.group(1), c.group(2))
            j -= 1
        end = next(k for k in range(i + 1, len(lines)) if lines[k].startswith(m.group(1))
                   and not lines[k][len(m.group(1)):].strip())
        found.append(Block(m.group(2).strip().split(" ")[0], i + 1, lines[i + 1:end], meta))
        i = end + 1
    return found


def examples(block: Block) -> list[tuple[str, list[str], int]]:
    """An example block's commands: (command line, expected lines, index of the first of them)."""
    out: list[tuple[str, list[str], int]] = []
    for k, line in enumerate(block.lines):
        if line.startswith("$ "):
            out.append((line[2:], [], block.start + k + 1))
        else:
            out[-1][1].append(line)
    return out


def env() -> dict[str, str]:
    # The checkout's package first, whatever the virtual environment has installed; no colour;
    # a fixed width for help text.
    path = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    return {**os.environ, "PYTHONPATH": path, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "100"}


def run(command: str, cwd: Path) -> str:
    words = shlex.split(command)
    assert words[0] == "getaway-ref", f"an example runs getaway-ref, not {words[0]!r}: {command}"
    r = subprocess.run([sys.executable, "-m", "referee", *words[1:]], cwd=cwd, capture_output=True, text=True,
                       env=env())
    return r.stdout + r.stderr


def scratch(page_blocks: list[Block], where: Path) -> Path:
    where.mkdir()
    (where / "records").symlink_to(ROOT / "records")
    (where / "tests").symlink_to(ROOT / "tests")  # a page may show a record of the test data
    for b in page_blocks:
        if b.info == "gwy" and "file" in b.meta:
            (where / b.meta["file"]).write_text("\n".join(b.lines) + "\n", encoding="utf-8")
    return where


def page_id(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


def test_every_page_is_collected() -> None:
    # The README and the site's pages, the tutorial and the how-to guides among them.
    names = {page_id(p) for p in PAGES}
    assert {"README.md", "docs/tutorial.md", "docs/notation.md", "docs/howto/table.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_the_examples_print_what_the_page_shows(page: Path, tmp_path: Path) -> None:
    text = page.read_text(encoding="utf-8")
    found = blocks(text)
    for b in found:
        # A command shown with the prompt is an example: it must open its block, to be run.
        if any(line.startswith("$ getaway-ref") for line in b.lines):
            assert b.lines[0].startswith("$ "), f"{page_id(page)}:{b.start}: an example's block starts with its $ line"
    runs = [(cmd, want, at) for b in found if b.lines and b.lines[0].startswith("$ ") for cmd, want, at in examples(b)]
    if not runs:
        return
    cwd = scratch(found, tmp_path / "work")
    wrong: list[str] = []
    lines = text.split("\n")
    # from the last to the first, so that rewriting one example leaves the others' places as they were
    for cmd, want, at in reversed(runs):
        got = run(cmd, cwd)
        got_lines = got.split("\n")[:-1] if got.endswith("\n") else got.split("\n")
        if got_lines != want:
            if UPDATE:
                lines[at:at + len(want)] = got_lines
            else:
                wrong.append(f"{page_id(page)}:{at}: $ {cmd}\n--- the page shows\n" + "\n".join(want)
                             + "\n--- the tool prints\n" + "\n".join(got_lines))
    if UPDATE:
        page.write_text("\n".join(lines), encoding="utf-8")
    assert not wrong, ("\n\n".join(reversed(wrong))
                       + "\n\n(GETAWAY_UPDATE_EXAMPLES=1 rewrites the pages' outputs from the tool's)")


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_record_on_the_page_checks_as_it_says(page: Path, tmp_path: Path) -> None:
    records = [b for b in blocks(page.read_text(encoding="utf-8")) if b.info == "gwy"]
    if not records:
        return
    for n, b in enumerate(records):
        f = tmp_path / b.meta.get("file", f"block{n}.gwy")
        f.write_text("\n".join(b.lines) + "\n", encoding="utf-8")
        r = subprocess.run([sys.executable, "-m", "referee", "check", "--isolated", "--output-format", "jsonl", str(f)],
                           capture_output=True, text=True, env=env(), cwd=tmp_path)
        codes = sorted({json.loads(line)["code"] for line in r.stdout.splitlines() if line.startswith("{")})
        wanted = sorted(b.meta.get("codes", "").split())
        where = f"{page_id(page)}:{b.start}"
        assert codes == wanted, f"{where}: check reports {codes or 'nothing'}, the page says {wanted or 'clean'}\n{r.stdout}{r.stderr}"
        # a record shown clean exits 0; one shown with findings exits 1 (0 if they are only notes)
        assert r.returncode in ((0, 1) if wanted else (0,)), f"{where}: exit {r.returncode}\n{r.stderr}"


def test_the_readme_first_record_is_written_by_hand_and_checked() -> None:
    # The README's first record is a whole record that check passes, and the README shows
    # check saying so: the reader's first hour starts with something that works.
    found = blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    first = next(b for b in found if b.info == "gwy")
    assert "file" in first.meta and "codes" not in first.meta
    checked = [cmd for b in found if b.lines and b.lines[0].startswith("$ ") for cmd, _, _ in examples(b)]
    assert f"getaway-ref check {first.meta['file']}" in checked
