"""The grammar is found however getaway-ref is installed: from the repository (editable
install or checkout) and from a wheel, which carries it as referee/grammar/gwy.lark."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT, TIMEOUT

import referee
from referee.notation import grammar as _grammar

RECORD = '%gwy 1\n%game\n[Seats "A B"]\ndeal\nA 26\nB 26\n1. A AS, B 2S\n'


def test_editable_install_reads_the_repositorys_grammar():
    assert Path(referee.__file__).resolve().parent == ROOT / "referee"
    assert _grammar.grammar_path() == ROOT / "grammar" / "gwy.lark"
    assert _grammar.grammar_text() == (ROOT / "grammar" / "gwy.lark").read_text(encoding="utf-8")


def test_missing_grammar_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(_grammar, "CANDIDATES", (tmp_path / "a.lark", tmp_path / "b.lark"))
    with pytest.raises(_grammar.GrammarNotFound) as e:
        _grammar.grammar_path()
    assert "gwy.lark" in str(e.value) and str(tmp_path / "a.lark") in str(e.value)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    # The Python modules' wheel (GETAWAY_PURE_PYTHON=1): what is asked of it here, the grammar
    # and the documents carried and found, does not depend on the compiled modules, which
    # tests/test_packaging.py installs and tests/test_compiled.py holds to the sources; so no
    # test builds them twice in a run.
    out = tmp_path_factory.mktemp("wheel")
    r = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(out), str(ROOT)],
        capture_output=True, text=True, timeout=TIMEOUT, env={**os.environ, "GETAWAY_PURE_PYTHON": "1"},
    )
    assert r.returncode == 0, r.stdout + r.stderr
    (whl,) = out.glob("getaway_ref-*.whl")
    return whl


def test_wheel_carries_the_grammar(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        assert "referee/grammar/gwy.lark" in names
        # The rulings and the notation that diagnostics cite ship with the package.
        assert "referee/docs/rulings.md" in names and "referee/docs/notation.md" in names
        assert "referee/__init__.py" in names
        inside = z.read("referee/grammar/gwy.lark").decode("utf-8")
    assert inside == (ROOT / "grammar" / "gwy.lark").read_text(encoding="utf-8")


def test_installed_wheel_finds_its_grammar(wheel, tmp_path):
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    script = (
        "import sys, pathlib\n"
        "import referee, referee.notation.grammar as g\n"
        f"site = pathlib.Path({str(site)!r}).resolve()\n"
        "assert pathlib.Path(referee.__file__).resolve().is_relative_to(site), referee.__file__\n"
        "assert g.grammar_path().resolve() == site / 'referee' / 'grammar' / 'gwy.lark', g.grammar_path()\n"
        f"(game,) = referee.parse({RECORD!r})\n"
        "assert game.errors == [], game.errors\n"
        "print([referee.card_str(p.card) for p in game.actions[0].plays])\n"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=str(elsewhere),
                       env=env, timeout=TIMEOUT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip() == "['A♠', '2♠']"
    # the command line runs from the wheel too
    r = subprocess.run([sys.executable, "-m", "referee", "rules", "donkey"], capture_output=True, text=True,
                       cwd=str(elsewhere), env=env, timeout=TIMEOUT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "trumps = yes" in r.stdout
    # and prints our rulings from the wheel
    r = subprocess.run([sys.executable, "-m", "referee", "explain", "ruling", "8"], capture_output=True, text=True,
                       cwd=str(elsewhere), env=env, timeout=TIMEOUT)
    assert r.returncode == 0 and r.stdout.startswith("## Ruling 8:"), r.stdout + r.stderr
