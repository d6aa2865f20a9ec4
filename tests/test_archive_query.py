"""getaway-ref query (issue 42, item 2): SQL over an archive's tables and the named views,
each answer checked against the same facts computed here from the records, `check` and `tally`."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")


def run(*args: str, cache: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, env={**os.environ, "GETAWAY_CACHE_DIR": str(cache)})


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory, cache: Path) -> Path:
    path = tmp_path_factory.mktemp("club") / "club.gwy"
    r = run("simulate", "-n", "4", "-g", "30", "--seed", "11", "--mistakes", "0.04", "-o", str(path), cache=cache)
    assert r.returncode == 0, r.stderr
    # The first query of a record exports its tables and says so on stderr; make them here, so
    # that each test (whichever runs first in its worker) sees a query's own output alone.
    r = run("query", str(path), "SELECT 1", cache=cache)
    assert r.returncode == 0 and "exporting" in r.stderr, r.stderr
    return path


def ask(record: Path, sql: str, cache: Path) -> list[dict[str, object]]:
    r = run("query", str(record), sql, "--format", "json", cache=cache)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def games_of(record: Path) -> list[tuple[dict[str, list[str]], str]]:
    """Each game's deal (player -> cards) and its [Result], read from the text here."""
    out = []
    for chunk in record.read_text(encoding="utf-8").split("%game")[1:]:
        lines = chunk.splitlines()
        result = next(ln.split('"')[1] for ln in lines if ln.startswith("[Result "))
        at = lines.index("deal")
        hands = {ln.split()[0]: ln.split()[1:] for ln in lines[at + 1:at + 5]}
        out.append((hands, result))
    return out


def test_the_loss_by_player_is_tallys(record, cache):
    rows = ask(record, "SELECT * FROM loss_by_player", cache)
    r = run("tally", "--format", "json", str(record), cache=cache)
    tally = {p["player"]: (p["games"], p["lost"]) for p in json.loads(r.stdout)["players"]}
    assert {row["player"]: (row["games"], row["lost"]) for row in rows} == tally
    for row in rows:
        assert row["low"] <= row["rate"] <= row["high"]


def test_the_loss_by_deal_features_is_what_the_deals_say(record, cache):
    games = games_of(record)
    spades: Counter[tuple[int, bool]] = Counter()
    ace: Counter[tuple[bool, bool]] = Counter()
    for hands, loser in games:
        for player, cards in hands.items():
            n = sum(c.endswith("♠") for c in cards)
            spades[(n, player == loser)] += 1
            ace[("A♠" in cards, player == loser)] += 1
    rows = ask(record, "SELECT * FROM loss_by_spades", cache)
    assert {r["spades"]: (r["hands"], r["lost"]) for r in rows} == \
        {n: (spades[(n, True)] + spades[(n, False)], spades[(n, True)]) for n, _ in spades}
    assert {r["players"] for r in rows} == {4}
    rows = ask(record, "SELECT * FROM loss_by_ace_of_spades", cache)
    assert {r["ace_of_spades"]: (r["hands"], r["lost"]) for r in rows} == \
        {a: (ace[(a, True)] + ace[(a, False)], ace[(a, True)]) for a, _ in ace}
    # every game where the holder of the A♠ lost
    rows = ask(record, "SELECT game FROM deals WHERE ace_of_spades AND lost ORDER BY game", cache)
    assert [r["game"] for r in rows] == [i + 1 for i, (hands, loser) in enumerate(games) if "A♠" in hands[loser]]


def test_the_mistakes_by_code_and_seat_are_checks(record, cache):
    r = run("check", "--format", "json", str(record), cache=cache)
    found = Counter((d["code"], d["penalty"]["seat"]) for f in json.loads(r.stdout)["files"] for g in f["games"]
                    for d in g["diagnostics"] if d["severity"] in ("error", "mistake"))
    assert found
    rows = ask(record, "SELECT * FROM mistakes_by_code_and_seat", cache)
    assert {(row["code"], row["player"]): row["mistakes"] for row in rows} == dict(found)
    plays = Counter(p for p in ask(record, "SELECT player FROM plays", cache) for p in [p["player"]])
    for row in rows:
        assert row["plays"] == plays[row["player"]]


def test_a_players_games(record, cache):
    rows = ask(record, "SELECT * FROM player_games WHERE player = 'South'", cache)
    games = games_of(record)
    assert [r["game"] for r in rows] == list(range(1, len(games) + 1))
    assert [r["lost"] for r in rows] == [loser == "South" for _, loser in games]


def test_records_are_exported_once_and_again_when_they_change(record, cache, tmp_path):
    copy = tmp_path / "c.gwy"
    text = record.read_text(encoding="utf-8")
    copy.write_text(text, encoding="utf-8")
    first = run("query", str(copy), "SELECT count(*) AS n FROM games", cache=cache)
    assert first.returncode == 0 and "exporting" in first.stderr
    again = run("query", str(copy), "SELECT count(*) AS n FROM games", cache=cache)
    assert again.returncode == 0 and again.stderr == "" and again.stdout == first.stdout
    cut = text[:text.rindex("%game")]  # the last game removed
    copy.write_text(cut, encoding="utf-8")
    changed = run("query", str(copy), "SELECT count(*) AS n FROM games", "-f", "csv", cache=cache)
    assert "exporting" in changed.stderr and changed.stdout == f"n\n{cut.count('%game')}\n"


def test_an_export_is_queried_as_it_is(record, cache, tmp_path):
    out = tmp_path / "t"
    assert run("export", "-f", "parquet", str(record), "-o", str(out), cache=cache).returncode == 0
    r = run("query", str(out), "SELECT code, count(*) AS n FROM plays WHERE NOT legal GROUP BY code ORDER BY code",
            "-f", "csv", cache=cache)
    assert r.returncode == 0 and r.stderr == ""
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    check = json.loads(run("check", "--format", "json", str(record), cache=cache).stdout)
    codes = Counter(d["code"] for f in check["files"] for g in f["games"] for d in g["diagnostics"])
    assert {row["code"]: int(row["n"]) for row in rows} == dict(codes)


def test_text_lists_the_tables_and_views(record, cache):
    from referee.archive.query import VIEWS

    r = run("query", str(record), cache=cache)
    assert r.returncode == 0
    for v in VIEWS:
        assert v.name in r.stdout
    r = run("query", str(record), "SELECT player, lost FROM loss_by_player ORDER BY player", cache=cache)
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["player", "lost"] and lines[-1] == "(4 rows)"


@pytest.mark.parametrize("sql", ["SELEC 1", "SELECT nope FROM games", "SELECT * FROM no_such_table"])
def test_bad_sql_is_one_line_exit_2(record, cache, sql):
    r = run("query", str(record), sql, cache=cache)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("error: query: ") and r.stderr.count("\n") == 1


def test_a_missing_archive_and_a_missing_extra(record, cache, tmp_path):
    r = run("query", str(tmp_path / "none.gwy"), "SELECT 1", cache=cache)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "no such file" in r.stderr
    code = ("import sys\nsys.modules['duckdb'] = None\n"
            f"sys.argv = ['getaway-ref', 'query', {str(record)!r}, 'SELECT 1']\n"
            "from referee._start import main\nmain()\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "getaway-ref[archive]" in r.stderr


def test_the_page_documents_every_view():
    from referee.archive.query import VIEWS

    page = (ROOT / "docs" / "archives.md").read_text(encoding="utf-8")
    for v in VIEWS:
        assert f"| `{v.name}` |" in page, v.name


def documented_queries() -> list[str]:
    page = (ROOT / "docs" / "archives.md").read_text(encoding="utf-8")
    return [block.split("```", 1)[0].strip() for block in page.split("```sql\n")[1:]]


def test_every_documented_query_runs(record, cache):
    queries = documented_queries()
    assert len(queries) >= 8
    for sql in queries:
        r = run("query", str(record), sql, "-f", "csv", cache=cache)
        assert r.returncode == 0, (sql, r.stderr)
        assert r.stdout.count("\n") >= 1  # the header at least


@pytest.mark.parametrize("command", ["query", "explore", "export"])
def test_the_help_reads_as_prose_at_80_columns(command):
    import re

    from tests.test_shell import help_text

    text = help_text(command)
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "…" not in text and "..." not in text
    for shape in (r"<[a-z\[\] |]+>", r"\{\w+\}", r"\bTEXT\b", r"\bPATH\b", r"list\["):
        assert not re.search(shape, text), (shape, text)
    assert re.search(rf"^  {command}\s", help_text(), re.M)
