"""The scripts in examples/ run as a user copies them, and say what the library says."""

from __future__ import annotations

import collections
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import RECORDS, ROOT, run_cli

import referee


def run_example(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "examples" / name), *args], cwd=str(ROOT),
                          capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize(("seed", "players"), [(1, 4), (2, 3), (3, 5), (4, 6), (5, 2)])
def test_the_bot_table_writes_a_record_the_referee_finds_clean_with_the_engines_loser(
        seed: int, players: int, tmp_path: Path) -> None:
    r = run_example("bot_table.py", str(seed), str(players))
    assert r.returncode == 0, r.stderr
    engine_says, referee_says, *record = r.stdout.splitlines()
    loser = re.fullmatch(r"the engine says: (\w+) is the loser, \d+ card\(s\) left", engine_says)
    assert loser, engine_says
    assert referee_says == f"the referee says: {loser[1]} is the loser; 0 diagnostic(s)"
    path = tmp_path / "bots.gwy"
    path.write_text("\n".join(record) + "\n", encoding="utf-8")
    assert run_cli("check", str(path)).returncode == 0


def test_the_replay_visitor_names_the_loser_and_the_mistakes_the_referee_finds() -> None:
    path = RECORDS / "simulated-mistakes-illegal.gwy"
    r = run_example("replay_visitor.py", str(path))
    assert r.returncode == 0, r.stderr
    losers = re.findall(r"^game over: (\w+) is left holding", r.stdout, re.M)
    codes = re.findall(r"^    (?:error|mistake|note)\[(\w+)\]", r.stdout, re.M)
    want_losers, want_codes = [], []
    for game in referee.read(path):
        result = referee.judge(game)
        if result.finished and result.loser is not None:
            want_losers.append(game.seats[result.loser])
        want_codes += [d.code for d in result.diagnostics]
    assert losers == want_losers and want_losers
    assert codes == want_codes and want_codes


def test_the_report_reader_counts_each_code_of_mistake_across_the_records() -> None:
    r = run_example("read_report.py", str(RECORDS))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    want: collections.Counter[str] = collections.Counter()
    games = 0
    for path in sorted(RECORDS.glob("*.gwy")):
        for game in referee.read(path):
            games += 1
            want.update(d.code for d in referee.judge(game).diagnostics if d.severity == "mistake")
    assert lines[0] == f"{games} games read"
    assert dict(line.split(": ") for line in lines[1:]) == {k: str(v) for k, v in want.items()}
    assert want
