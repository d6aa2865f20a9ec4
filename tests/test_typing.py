"""The package is typed (py.typed ships in the wheel) and ``mypy --strict`` clean: a program
that embeds the referee gets real types at every public name (issue 12, docs/library.md)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_package_and_its_examples_are_mypy_strict_clean(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), "referee",
                        "examples"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert "Success: no issues found" in r.stdout


def test_the_package_type_checks_without_its_optional_extras(tmp_path: Path) -> None:
    """A user who installed getaway-ref without the lsp or dask extras runs mypy too: the
    package must check clean against its required dependencies alone."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=120)
    python = venv / "bin" / "python"
    required = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    r = subprocess.run([str(python), "-m", "pip", "install", "-q", *required], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    absent = subprocess.run([str(python), "-c", "import importlib.util as u; "
                             "print([m for m in ('pygls', 'lsprotocol', 'dask', 'distributed', 'starlette', 'uvicorn', 'segno') if u.find_spec(m)])"],
                            capture_output=True, text=True, check=True)
    assert absent.stdout.strip() == "[]"  # the extras really are missing there
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--python-executable", str(python),
                        "--cache-dir", str(tmp_path / "cache"), "referee"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]


def test_a_program_using_the_public_api_type_checks(tmp_path: Path) -> None:
    # What docs/library.md promises an embedding program: these names and their types.
    program = tmp_path / "bot.py"
    program.write_text(
        "import random\n"
        "import referee\n"
        "from referee import Engine, PlayCard, Phase\n\n"
        "def play(seed: int) -> int:\n"
        "    rules: referee.RuleSet = referee.rule_set('pagat')\n"
        "    engine = Engine.from_deal(rules, referee.deal(random.Random(seed), rules, 4))\n"
        "    while engine.turn().phase != Phase.OVER:\n"
        "        actions = engine.legal_actions()\n"
        "        events: list[referee.Event] = engine.apply(random.Random(seed).choice(actions))\n"
        "        assert events\n"
        "    over = engine.view()\n"
        "    assert over.loser is not None\n"
        "    return over.loser\n",
        encoding="utf-8",
    )
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), str(program)],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
