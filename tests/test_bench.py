"""The benchmark's own helpers: the corpora it builds are what its figures claim."""

from __future__ import annotations

import sys

from conftest import RECORDS, ROOT

sys.path.insert(0, str(ROOT / "bench"))
import bench
import referee


def test_repeat_to_writes_exactly_the_games_asked_for(tmp_path):
    src = RECORDS / "series.gwy"  # 5 games
    for n in (3, 5, 12):
        dst = tmp_path / f"r{n}.gwy"
        bench.repeat_to(src, dst, n)
        games = list(referee.read(dst))
        assert len(games) == n
        assert all(not g.errors for g in games)
        assert [g.number for g in games] == list(range(1, n + 1))


def test_run_child_reports_the_childs_own_peak_memory():
    secs, code, kib = bench.run_child([sys.executable, "-m", "referee", "check", "-q", str(RECORDS / "pagat-example.gwy")])
    assert code == 0
    # A Python process with lark, pydantic and rich loaded: tens of MiB, not the parent's size.
    assert 10_000 < kib < 200_000


def test_memory_figures_cover_every_command_and_count_the_games(tmp_path):
    dst = tmp_path / "r7.gwy"
    bench.repeat_to(RECORDS / "series.gwy", dst, 7)
    assert bench._games(dst) == 7
    assert {argv[0] for argv in bench.COMMANDS.values()} == {"check", "export", "fmt", "tally", "show", "legal"}
