"""The documentation: the site builds in strict mode (a broken link, a missing page or a
docstring the API reference cannot read fails it), its reference pages are written from the
tool itself, and the README stays a front door (short, undated but for its figures, whose
numbers come from bench/figures.json like docs/performance.md's)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, TIMEOUT

README = (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
           "NO_MKDOCS_2_WARNING": "1"}
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)], cwd=ROOT,
                       capture_output=True, text=True, timeout=TIMEOUT, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    return out


def _page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


def test_the_site_builds_in_strict_mode_with_every_page(site: Path) -> None:
    for page in ["tutorial", "howto/install", "howto/ci", "howto/editors", "howto/table", "howto/archives",
                 "howto/review", "notation", "rulings", "review", "library", "architecture", "performance",
                 "explanation/judging", "reference/rules", "reference/files", "contributing", "changelog"]:
        assert (site / page / "index.html").is_file(), page


def test_every_command_is_on_the_commands_page_as_its_help_says(site: Path) -> None:
    import typer.main

    from referee.cli import app

    group = typer.main.get_command(app)
    names = group.list_commands(group.make_context("getaway-ref", [], resilient_parsing=True))  # type: ignore[attr-defined]
    page = _page(site, "reference/commands")
    assert len(names) >= 15
    for name in names:
        assert f'id="{name}"' in page, name
        assert f"Usage: getaway-ref {name}" in page, name
    # check's options come from its one table (referee/commands/options.py)
    from referee.commands.options import CHECK_OPTIONS

    for o in CHECK_OPTIONS:
        assert o.names[-1] in page, o.names


def test_every_diagnostic_code_is_on_the_codes_page(site: Path) -> None:
    from referee.engine.codes import CODES

    page = _page(site, "reference/codes")
    for code, c in CODES.items():
        assert f"{code}: {c.title}" in page.replace("&#39;", "'"), code


def test_the_api_reference_is_read_from_the_docstrings(site: Path) -> None:
    import referee

    page = _page(site, "reference/api")
    for name in ("judge", "parse", "read", "replay", "Engine", "solve"):
        doc = getattr(referee, name).__doc__
        assert doc, name
        first = doc.strip().split("\n")[0].split("``")[0].strip()[:30]
        assert first.split()[0] in page, (name, first)


def test_the_readme_is_a_front_door() -> None:
    assert len(README.encode("utf-8")) <= 15_000
    # Nothing dated but the figures table's dates: a README is not a diary of runs.
    start, end = README.index("<!-- figures: written"), README.index("<!-- figures: end -->")
    undated = README[:start] + README[end:]
    dated = re.findall(r"\b20\d\d-\d\d-\d\d\b|\b\d\d:\d\d UTC\b|\b\d{1,2} (?:January|February|March|April|May|June|July|"
                       r"August|September|October|November|December) 20\d\d\b", undated)
    assert not dated, dated
    assert re.findall(r"\| 20\d\d-\d\d-\d\d \|", README[start:end])


def test_the_figures_are_written_from_the_bench_data() -> None:
    # docs/performance.md and the README's table are what bench/figures.py writes from
    # bench/figures.json: nobody edits a figure by hand.
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "figures.py"), "--check"], capture_output=True, text=True,
                       timeout=TIMEOUT)
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_readme_test_command_is_what_ci_runs() -> None:
    # The README's second command and .ci/run install the same extra and run the same suite.
    (line,) = [x for x in README.splitlines() if "python -m pytest" in x and x.startswith(". .venv")]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install -e '.[test]'" in line and "python -m pip install -q -e '.[test]'" in ci
    assert ci.rstrip().endswith("python -m pytest")
    first = next(x for x in README.splitlines() if x.startswith("python3 -m venv .venv"))
    record = first.rsplit(" ", 1)[-1]
    assert (ROOT / record).is_file() and f"getaway-ref check {record}" in ci


def test_a_bench_run_writes_its_table_and_the_readme_figures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # What a bench script does at the end of a run (bench/figures.py's record), on copies.
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import figures
    finally:
        sys.path.remove(str(ROOT / "bench"))
    for name, src in (("DATA", figures.DATA), ("PAGE", figures.PAGE), ("README", figures.README)):
        copy = tmp_path / src.name
        copy.write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
        monkeypatch.setattr(figures, name, copy)
    figures.record("startup", title="Start-up", command="python bench/speed.py", columns=["measure", "figure"],
                   rows=[["`check` of one record over `python -c pass`", "77 ms"]],
                   readme=[["`check` of one small record", "77 ms"]], date="2030-01-02")
    page = figures.PAGE.read_text(encoding="utf-8")
    assert "| `check` of one record over `python -c pass` | 77 ms |" in page
    assert "`python bench/speed.py` · commit " in page and " · 2030-01-02" in page
    readme = figures.README.read_text(encoding="utf-8")
    assert "| `check` of one small record | 77 ms | 2030-01-02 |" in readme
    assert "79 ms" not in readme[readme.index("<!-- figures: written"):]  # the old figure is gone
    # a run of one build fills its column and keeps the other build's
    figures.record_column("solver", "compiled build", {"2 players, at most 20 cards: within 350 ms": "19 of 20"},
                          title="The review's exact solver", command="python bench/solver.py", columns=[])
    solver = json.loads(figures.DATA.read_text(encoding="utf-8"))["measures"]["solver"]
    row = next(r for r in solver["rows"] if r[0].startswith("2 players"))
    assert row[2] == "19 of 20" and row[1] == "20 of 20 (p90 0.33 s)"
    assert figures.main(["--check"]) == 0
