"""export --format parquet (issue 42, item 1): an archive's tables, checked against what
`check --format json` and `tally --format json` say of the same records, as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

pq = pytest.importorskip("pyarrow.parquet")

TABLES = ("games", "seats", "tricks", "plays", "diagnostics")


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of two simulated records: four players with table mistakes, three at Donkey."""
    d = tmp_path_factory.mktemp("club")
    r = run_cli("simulate", "-n", "4", "-g", "24", "--seed", "7", "--mistakes", "0.04", "-o", str(d / "a.gwy"))
    assert r.returncode == 0, r.stderr
    r = run_cli("simulate", "-n", "3", "-g", "8", "--seed", "2", "--rules", "donkey", "--mistakes", "0.02",
                "-o", str(d / "b.gwy"))
    assert r.returncode == 0, r.stderr
    return d


@pytest.fixture(scope="module")
def exported(archive: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, object]]]:
    out = tmp_path_factory.mktemp("out") / "tables"
    r = run_cli("export", "--format", "parquet", str(archive), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"wrote {out}: 32 games")
    return {t: pq.read_table(out / f"{t}.parquet").to_pylist() for t in TABLES}


@pytest.fixture(scope="module")
def checked(archive: Path) -> dict[str, object]:
    r = run_cli("check", "--format", "json", str(archive))
    assert r.returncode == 1, r.stderr  # the mistakes made on purpose
    return json.loads(r.stdout)


def test_every_game_says_what_check_says(exported, checked):
    games = [g for f in checked["files"] for g in f["games"]]
    rows = exported["games"]
    assert len(rows) == len(games) == 32
    for row, g in zip(rows, games):
        assert (row["game"], row["loser"], row["out_order"], row["tricks"], row["finished"]) == \
            (g["game"], g["loser"], g["out_order"], g["tricks"], g["finished"])
        assert row["mistakes"] == sum(1 for d in g["diagnostics"] if d["severity"] == "mistake")
        if row["donkey"]:
            assert row["legs"] == g["legs"]
    assert sum(r["donkey"] for r in rows) == 8
    assert len(exported["plays"]) == checked["plays"]


def test_the_diagnostics_are_checks_and_the_plays_carry_their_codes(exported, checked):
    games = [(f["path"], g) for f in checked["files"] for g in f["games"]]
    ids = {(r["file"], r["game"]): r["game_id"] for r in exported["games"]}
    said = Counter((ids[(p, g["game"])], d["code"], d["trick"], d["location"]["line"], d["location"]["column"])
                   for p, g in games for d in g["diagnostics"])
    assert said  # the archive holds mistakes
    assert Counter((d["game_id"], d["code"], d["trick"], d["line"], d["column"]) for d in exported["diagnostics"]) == said
    # each illegal play carries the code of its finding, and only those plays
    illegal = Counter((p["game_id"], p["code"], p["trick"]) for p in exported["plays"] if not p["legal"])
    assert illegal == Counter((i, c, t) for i, c, t, _, _ in said.elements())
    by_step = {(d["game_id"], d["step"]): d for d in exported["diagnostics"]}
    for p in exported["plays"]:
        if not p["legal"]:
            d = by_step[(p["game_id"], p["step"])]
            assert (d["player"], d["code"]) == (p["player"], p["code"])


def test_the_loss_counts_are_tallys(exported, archive):
    r = run_cli("tally", "--format", "json", str(archive))
    assert r.returncode == 0, r.stderr
    tally = {p["player"]: (p["games"], p["lost"]) for p in json.loads(r.stdout)["players"]}
    seats = exported["seats"]
    mine: dict[str, list[int]] = {}
    for s in seats:
        if s["lost"] is not None:
            m = mine.setdefault(s["player"], [0, 0])
            m[0] += 1
            m[1] += s["lost"]
    assert {k: tuple(v) for k, v in mine.items()} == tally


def test_the_deal_features_are_the_records_hands(exported, archive):
    # the first game of a.gwy: its deal lines, read back as the user wrote them
    text = (archive / "a.gwy").read_text(encoding="utf-8").split("%game")[1]
    hands = {line.split()[0]: line.split()[1:] for line in text.split("deal\n")[1].splitlines()[:4]}
    seats = [s for s in exported["seats"] if s["game_id"] == 1]
    assert [s["player"] for s in seats] == list(hands)
    for s in seats:
        cards = hands[s["player"]]
        assert s["dealt"] == len(cards)
        assert [s["spades"], s["hearts"], s["diamonds"], s["clubs"]] == [sum(c.endswith(x) for c in cards) for x in "♠♥♦♣"]
        assert s["ace_of_spades"] == ("A♠" in cards)
    game = exported["games"][0]
    assert game["ace_of_spades"] == next(p for p, cs in hands.items() if "A♠" in cs)


def test_tricks_end_as_their_plays_say(exported):
    plays = Counter((p["game_id"], p["trick"]) for p in exported["plays"])
    tricks = exported["tricks"]
    assert {(t["game_id"], t["trick"]): t["cards"] for t in tricks} == dict(plays)
    first = {(p["game_id"], p["trick"]): p for p in exported["plays"] if p["place"] == 1}
    for t in tricks:
        assert (t["leader"], t["lead_card"]) == (first[(t["game_id"], t["trick"])]["player"],
                                                 first[(t["game_id"], t["trick"])]["card"])
        if t["ended"] in ("pickup", "penalty"):
            assert t["picked_up"] >= 1 and t["picked_up_by"] is not None
    # the penalties are the tricks with a penalised mistake
    assert any(t["ended"] == "penalty" for t in tricks)


def test_an_export_replaces_its_own_and_never_a_users_folder(archive, tmp_path):
    out = tmp_path / "t"
    assert run_cli("export", "-f", "parquet", str(archive / "b.gwy"), "-o", str(out)).returncode == 0
    r = run_cli("export", "-f", "parquet", str(archive / "a.gwy"), "-o", str(out))
    assert r.returncode == 0 and "24 games" in r.stdout
    assert pq.read_table(out / "games.parquet").num_rows == 24
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me", encoding="utf-8")
    r = run_cli("export", "-f", "parquet", str(archive), "-o", str(mine))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not an export of getaway-ref" in r.stderr
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no half-written folder left
    r = run_cli("export", "-f", "parquet", str(archive))
    assert r.returncode == 2 and "-o DIR" in r.stderr
    r = run_cli("export", str(archive / "a.gwy"), "-o", str(tmp_path / "x"))  # JSON goes to standard output
    assert r.returncode == 2 and "goes with --format parquet" in r.stderr and not (tmp_path / "x").exists()
    r = run_cli("export", "-f", "parquet", "--game", "2", str(archive / "a.gwy"), "-o", str(tmp_path / "x"))
    assert r.returncode == 2 and "--game goes with json or jsonl" in r.stderr


def test_syntax_errors_are_exported_as_far_as_they_read(tmp_path):
    rec = tmp_path / "bad.gwy"
    text = (ROOT / "records" / "pagat-example.gwy").read_text(encoding="utf-8")
    rec.write_text(text.replace("2. ", "2.. ", 1), encoding="utf-8")
    r = run_cli("export", "-f", "parquet", str(rec), "-o", str(tmp_path / "t"))
    assert r.returncode == 1 and "syntax error" in r.stderr
    games = pq.read_table(tmp_path / "t" / "games.parquet").to_pylist()
    assert games[0]["syntax_errors"] >= 1 and games[0]["stopped"]


def test_without_the_extra_a_one_line_hint(archive, tmp_path):
    code = ("import sys\nsys.modules['pyarrow'] = None\nsys.modules['duckdb'] = None\n"
            f"sys.argv = ['getaway-ref', 'export', '-f', 'parquet', {str(archive)!r}, '-o', {str(tmp_path / 't')!r}]\n"
            "from referee._start import main\nmain()\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                       env={**os.environ})
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "pip install 'getaway-ref[archive]'" in r.stderr
    assert not (tmp_path / "t").exists()


def test_the_page_documents_every_column():
    from referee.archive.parquet import SCHEMAS

    page = (ROOT / "docs" / "archives.md").read_text(encoding="utf-8")
    for table, schema in SCHEMAS.items():
        section = page.split(f"### `{table}`", 1)[1].split("\n### ", 1)[0]
        for f in schema:
            assert f"| `{f.name}` |" in section, (table, f.name)


def test_the_projects_records_export_as_check_judges_them(tmp_path):
    """records/: positions, Donkey, a double pack, draws, takes, record errors and mistakes."""
    out = tmp_path / "t"
    r = run_cli("export", "-f", "parquet", str(ROOT / "records"), "-o", str(out))
    assert r.returncode == 0, r.stderr
    check = json.loads(run_cli("check", "--format", "json", str(ROOT / "records")).stdout)
    games = [(f["path"], g) for f in check["files"] for g in f["games"]]
    rows = pq.read_table(out / "games.parquet").to_pylist()
    assert [(r["file"], r["game"]) for r in rows] == [(p, g["game"]) for p, g in games]
    for row, (_, g) in zip(rows, games):
        assert (row["loser"], row["out_order"], row["tricks"], row["judged"]) == \
            (g["loser"] if g["finished"] else None, g["out_order"], g["tricks"], g["judged"])
    ids = {(r["file"], r["game"]): r["game_id"] for r in rows}
    said = Counter((ids[(p, g["game"])], d["code"], d["severity"], d["trick"]) for p, g in games for d in g["diagnostics"])
    mine = Counter((d["game_id"], d["code"], d["severity"], d["trick"]) for d in pq.read_table(out / "diagnostics.parquet").to_pylist())
    assert mine == said and sum(said.values()) >= 10
    assert pq.read_table(out / "plays.parquet").num_rows == check["plays"]
    # a position's seats: no dealt hand to describe
    seats = pq.read_table(out / "seats.parquet").to_pylist()
    assert any(s["dealt"] is None for s in seats) and any(s["spades"] is not None for s in seats)


def test_workers_write_the_same_tables_as_one_process(archive, tmp_path):
    """--jobs 2: slices of each file (cut small here, so that each file is several slices)
    judged by two worker processes; the tables are the same, row for row, game ids included."""
    one, two = tmp_path / "one", tmp_path / "two"
    r = run_cli("export", "-f", "parquet", "--jobs", "1", str(archive), "-o", str(one))
    assert r.returncode == 0, r.stderr
    r = subprocess.run([sys.executable, "-m", "referee", "export", "-f", "parquet", "--jobs", "2", str(archive),
                        "-o", str(two)], cwd=ROOT, capture_output=True, text=True, timeout=120,
                       env={**os.environ, "GETAWAY_RANGE_BYTES": "4000"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.replace(str(two), "DIR") == run_cli("export", "-f", "parquet", str(archive), "-o",
                                                        str(tmp_path / "three")).stdout.replace(str(tmp_path / "three"), "DIR")
    for t in TABLES:
        assert pq.read_table(two / f"{t}.parquet").to_pylist() == pq.read_table(one / f"{t}.parquet").to_pylist(), t
    r = run_cli("export", "-f", "parquet", "--jobs", "none", str(archive), "-o", str(tmp_path / "x"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--jobs" in r.stderr
    r = run_cli("export", "--jobs", "2", str(archive / "a.gwy"))
    assert r.returncode == 2 and "--jobs goes with --format parquet" in r.stderr


def test_every_game_is_read_from_the_judges_log_as_the_walk_reads_it(archive):
    """The export judges each game once, as check judges it, and reads its plays from the
    engine's log: a game without findings a trick at a time, a game with findings item by
    item, the referee's marks saying at which item each finding was made. Every row is the
    one the replay's walk, step by step, gives, game for game, and no game needs the walk."""
    from referee.archive.parquet import Rows, games_of

    files = [archive / "a.gwy", archive / "b.gwy", *sorted((ROOT / "records").glob("*.gwy")),
             *sorted((ROOT / "tests" / "data").rglob("*.gwy"))]
    fast, walked = Rows(), Rows()
    for g in games_of(files):
        fast.game(g)
    for g in games_of(files):
        walked.game(g, walk=True)
    games = fast.next_id - 1
    assert walked.walked == games and fast.walked == 0
    assert 10 <= fast.itemised < games  # both ways were taken
    assert sum(1 for g in fast.rows["games"] if g[-4:-1] == (0, 0, 0)) >= 10  # games without findings
    assert sum(1 for g in fast.rows["games"] if g[-3]) >= 10  # games with table mistakes
    for t in TABLES:
        assert fast.take(t).to_pylist() == walked.take(t).to_pylist(), t


def test_review_verdicts_are_the_reviews_and_the_themes_count_them(tmp_path):
    """export --review: a verdicts table that says what `review --format json` says of every
    play and take, and the view blunders_by_theme counting those verdicts by phase."""
    pytest.importorskip("duckdb")
    record = ROOT / "records" / "review-blunder.gwy"
    out = tmp_path / "t"
    r = run_cli("export", "-f", "parquet", "--review", "--jobs", "1", str(record), "-o", str(out))
    assert r.returncode == 0, r.stderr
    review = json.loads(run_cli("review", "--format", "json", str(record)).stdout)
    plays = review["games"][0]["plays"]
    rows = pq.read_table(out / "verdicts.parquet").to_pylist()

    def four(x: float | None) -> float | None:  # the JSON's chances are rounded to 4 places, the table's are not
        return None if x is None else round(x, 4)

    assert r.stdout.rstrip().endswith(f", {len(plays)} verdicts")
    assert [(v["number"], v["trick"], v["player"], v["action"], v["held"], v["exact"], v["class_before"],
             v["class_after"], v["best"], v["verdict"] or "", v["mark"] or "", four(v["chance_before"]), four(v["chance_after"]),
             v["samples"], v["step"]) for v in rows] == \
        [(p["number"], p["trick"], p["seat"], p["action"], p["held"], p["exact"], p["before"], p["after"], p["best"],
          p["verdict"], p["mark"], p["chance_before"], p["chance_after"], p["samples"], p["step"] + 1) for p in plays]
    blunders = [p for p in plays if p["verdict"] == "blunder" or p["mark"] == "blunder"]
    assert blunders  # the record's blunders
    # each verdict's step is its play's step in the plays table
    by_step = {p["step"]: p for p in pq.read_table(out / "plays.parquet").to_pylist()}
    for v in rows:
        if not v["action"].startswith("takes "):
            assert (by_step[v["step"]]["player"], by_step[v["step"]]["card"]) == (v["player"], v["action"])
    r = run_cli("query", str(out), "SELECT players_left, sum(reviewed) AS n, sum(blunders) AS b, sum(only_moves) AS o "
                "FROM blunders_by_theme GROUP BY ALL ORDER BY players_left", "--format", "json")
    assert r.returncode == 0, r.stderr
    want: dict[object, list[int]] = {}
    for v in rows:
        left = by_step[v["step"]]["in_game"] if v["step"] in by_step else None
        w = want.setdefault(left, [0, 0, 0])
        w[0] += 1
        w[1] += v["verdict"] == "blunder" or v["mark"] == "blunder"
        w[2] += v["verdict"] == "only move"
    assert {d["players_left"]: [d["n"], d["b"], d["o"]] for d in json.loads(r.stdout)} == want
    # without --review there is no such table, and the view is not there either
    plain = tmp_path / "plain"
    assert run_cli("export", "-f", "parquet", str(record), "-o", str(plain)).returncode == 0
    assert not (plain / "verdicts.parquet").exists()
    r = run_cli("query", str(plain), "SELECT * FROM blunders_by_theme")
    assert r.returncode == 2 and "blunders_by_theme" in r.stderr


def test_workers_review_as_one_process_does(tmp_path):
    """export --review --jobs 2: the workers review their slices; the verdicts are the same."""
    folder = tmp_path / "club"
    folder.mkdir()
    for name in ("dispute-two-players.gwy", "dispute-draw.gwy", "dispute-take.gwy"):
        (folder / name).write_bytes((ROOT / "records" / name).read_bytes())
    for jobs in ("1", "2"):
        r = run_cli("export", "-f", "parquet", "--review", "--jobs", jobs, str(folder), "-o", str(tmp_path / jobs))
        assert r.returncode == 0, r.stderr
    one = pq.read_table(tmp_path / "1" / "verdicts.parquet").to_pylist()
    assert len(one) >= 3 and {v["game_id"] for v in one} == {1, 2, 3}
    assert pq.read_table(tmp_path / "2" / "verdicts.parquet").to_pylist() == one
