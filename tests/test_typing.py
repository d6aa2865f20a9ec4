"""The package is typed (py.typed ships in the wheel) and ``mypy --strict`` clean: a program
that embeds the referee gets real types at every public name (issue 12, docs/library.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_package_is_mypy_strict_clean(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), "referee"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert "Success: no issues found" in r.stdout


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
        "    while engine.phase != Phase.OVER:\n"
        "        actions = engine.legal_actions()\n"
        "        events: list[referee.Event] = engine.apply(random.Random(seed).choice(actions))\n"
        "        assert events\n"
        "    return engine.loser\n",
        encoding="utf-8",
    )
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), str(program)],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
