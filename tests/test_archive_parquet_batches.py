"""export --format parquet in bounded batches (issue 42, item 1: memory flat): the long tables
are gathered as columns of small ints (a seat as its place among the seats' names of the
batch, a card as its number) and made into Arrow arrays a batch at a time. Whatever the batch
size, the tables are the same, each row group holds one batch, and every name and card read
back is the one the game's seats and the record say."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

pq = pytest.importorskip("pyarrow.parquet")

TABLES = ("games", "seats", "tricks", "plays", "diagnostics")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The project's records (positions, two and three players, Donkey, other seat names) and a
    simulated record with table mistakes: games that take the events' path and the walk."""
    d = tmp_path_factory.mktemp("club")
    r = run_cli("simulate", "-n", "4", "-g", "20", "--seed", "5", "--mistakes", "0.03", "-o", str(d / "sim.gwy"))
    assert r.returncode == 0, r.stderr
    return [*sorted((ROOT / "records").glob("*.gwy")), d / "sim.gwy"]


def _export(files: list[Path], out: Path, batch_rows: int, group_rows: int = 0) -> dict[str, list[dict[str, object]]]:
    from referee.archive.parquet import write_archive

    write_archive(files, out, batch_rows=batch_rows, group_rows=group_rows)
    return {t: pq.read_table(out / f"{t}.parquet").to_pylist() for t in TABLES}


def _groups(path: Path) -> list[int]:
    meta = pq.ParquetFile(path).metadata
    return [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]


def test_small_batches_write_the_same_tables_in_bounded_row_groups(files, tmp_path):
    whole = _export(files, tmp_path / "whole", batch_rows=1_000_000)
    small = _export(files, tmp_path / "small", batch_rows=40)
    grouped = _export(files, tmp_path / "grouped", batch_rows=40, group_rows=200)
    for t in TABLES:
        assert small[t] == whole[t] == grouped[t], t
    for t in ("plays", "tricks", "seats"):
        # A table is made a record batch once it has gathered 40 rows at the end of a game:
        # each batch holds at least 40 rows (but the last) and fewer than 40 plus one game's
        # rows; with row groups of 40 rows each batch is a row group.
        most = max(sum(1 for r in small[t] if r["game_id"] == g["game_id"]) for g in small["games"])
        sizes = _groups(tmp_path / "small" / f"{t}.parquet")
        assert sum(sizes) == len(small[t])
        assert len(sizes) > 2, t
        assert all(40 <= n < 40 + most for n in sizes[:-1]), (t, sizes)
        assert _groups(tmp_path / "whole" / f"{t}.parquet") == [len(whole[t])]
        # Batches gather into row groups of at least 200 rows (but the last), each less than
        # 200 rows and one batch: the file's metadata grows by the row group, not the batch.
        sizes = _groups(tmp_path / "grouped" / f"{t}.parquet")
        assert sum(sizes) == len(grouped[t]) and len(sizes) < len(_groups(tmp_path / "small" / f"{t}.parquet"))
        assert all(200 <= n < 200 + 40 + most for n in sizes[:-1]), (t, sizes)


def test_every_name_and_card_is_the_games_own(files, tmp_path):
    """The names are looked up from each batch's own list of seats' names: checked against the
    games table's seats, game by game, across batches cut small."""
    tables = _export(files, tmp_path / "t", batch_rows=25)
    seats = {g["game_id"]: g["seats"] for g in tables["games"]}
    assert len({tuple(s) for s in seats.values()}) >= 3  # games with other seat names
    firsts: dict[tuple[int, int], dict[str, object]] = {}
    for p in tables["plays"]:
        names = seats[p["game_id"]]
        assert p["player"] == (names[p["seat"]] if 0 <= p["seat"] < len(names) else "?")
        assert p["card"] in (p["rank"] + p["suit"], p["rank"] + p["suit"] + "*")  # A♠*: a double pack's marked ace
        firsts.setdefault((p["game_id"], p["trick"]), p)
    takers = 0
    for t in tables["tricks"]:
        names = seats[t["game_id"]]
        first = firsts[(t["game_id"], t["trick"])]
        assert (t["leader"], t["lead_card"]) == (first["player"], first["card"])
        if t["ended"] in ("pickup", "penalty"):
            takers += 1
            assert t["picked_up_by"] in names and t["picked_up"] >= 1
        elif t["ended"] == "waste":
            assert t["picked_up_by"] in names and t["picked_up"] is None
        else:
            assert t["ended"] is None and t["picked_up_by"] is None
    assert takers >= 10
