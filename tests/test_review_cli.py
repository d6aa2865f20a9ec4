"""``getaway-ref review`` as a user runs it (issue 28): every record of records/ is reviewed
with exit 0 and no traceback; the text and the JSON tell the same verdicts; the JSON is
what schema/review.schema.json says; the blunder record's blunder is found where it is."""

from __future__ import annotations

import json
import re

import pytest
from conftest import RECORDS, ROOT, run_cli

SCHEMA = ROOT / "schema" / "review.schema.json"
ALL = sorted(RECORDS.glob("*.gwy"))
# Records whose chances are reviewed too (the rest, exactly only, to keep the suite short):
# a plain game, the blunder, a take and a draw, Donkey, one with mistakes left unnoticed.
WITH_CHANCES = ("review-blunder.gwy", "take-and-draw.gwy", "donkey.gwy", "dispute-unnoticed-illegal.gwy")


def _review(path: str, *args: str) -> tuple[int, str, str]:
    r = run_cli("review", path, *args)
    assert "Traceback" not in r.stderr, r.stderr
    return r.returncode, r.stdout, r.stderr


@pytest.mark.parametrize("record", [p.name for p in ALL])
def test_every_record_is_reviewed(record: str) -> None:
    samples = "2" if record in WITH_CHANCES else "0"
    code, out, err = _review(f"records/{record}", "--format", "json", "--samples", samples)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["games"] and not doc["not_reviewed"]
    for g in doc["games"]:
        for p in g["plays"]:
            # An exact verdict comes with the classes that make it; a mark with its chances.
            if p["exact"]:
                assert p["before"] and p["after"] and p["best"] and p["verdict"]
                order = ["lost", "open", "safe"]
                assert (p["verdict"] == "blunder") == (order.index(p["after"]) < order.index(p["best"]))
            if p["mark"]:
                assert p["chance_after"] - p["chance_before"] >= 0.1 - 1e-9 and p["samples"] > 0


def _text_verdicts(text: str, seats: list[str]) -> set[tuple[int, str, str, str]]:
    """(line, seat, action, verdict or mark) of each play the text lists."""
    found = set()
    for m in re.finditer(r"^  line (\d+), (?:trick \d+|take): (\S+) (.+?): (blunder|only move|mistake|inaccuracy) \(",
                         text, re.M):
        assert m.group(2) in seats
        found.add((int(m.group(1)), m.group(2), m.group(3), m.group(4)))
    return found


@pytest.mark.parametrize("record", ["review-blunder.gwy", "full-game.gwy", "take-and-draw.gwy"])
def test_text_and_json_tell_the_same_verdicts(record: str) -> None:
    code, text, err = _review(f"records/{record}", "--samples", "4")
    assert code == 0, err
    code, out, err = _review(f"records/{record}", "--samples", "4", "--format", "json")
    assert code == 0, err
    games = json.loads(out)["games"]
    from_json = set()
    for g in games:
        for p in g["plays"]:
            if p["verdict"] in ("blunder", "only move"):
                from_json.add((p["line"], p["seat"], p["action"], p["verdict"]))
            elif p["mark"]:
                from_json.add((p["line"], p["seat"], p["action"], p["mark"]))
    assert _text_verdicts(text, games[0]["seats"]) == from_json


def test_the_blunder_record_shows_its_blunder_with_the_solver_line() -> None:
    """North J♣ at trick 21 (line 44) threw away a safe ending: A♥ or A♦ kept it safe."""
    code, text, _ = _review("records/review-blunder.gwy", "--samples", "0")
    assert code == 0
    assert "line 44, trick 21: North J♣: blunder (exact, 10 cards held): safe -> open; A♥ or A♦ kept it safe" in text
    line = next(ln for ln in text.splitlines() if ln.strip().startswith("solver:") and "North A" in ln)
    assert line.strip().startswith("solver: North A♥") or line.strip().startswith("solver: North A♦")


def test_the_review_is_the_same_run_after_run() -> None:
    a = _review("records/take-and-draw.gwy", "--samples", "3", "--seed", "7", "--format", "json")
    b = _review("records/take-and-draw.gwy", "--samples", "3", "--seed", "7", "--format", "json")
    assert a == b


def test_the_json_is_what_the_committed_schema_says() -> None:
    from referee.review.report import review_schema

    assert SCHEMA.read_text(encoding="utf-8") == review_schema(), (
        "regenerate with: python -m referee.review.report > schema/review.schema.json")
    jsonschema = pytest.importorskip("jsonschema")
    code, out, _ = _review("records/review-blunder.gwy", "--samples", "1", "--format", "json")
    assert code == 0
    jsonschema.validate(json.loads(out), json.loads(SCHEMA.read_text(encoding="utf-8")))


def test_one_game_of_a_series_and_usage_errors() -> None:
    code, out, _ = _review("records/series.gwy", "--game", "2", "--samples", "0", "--format", "json")
    assert code == 0 and [g["number"] for g in json.loads(out)["games"]] == [2]
    code, _, err = _review("records/series.gwy", "--game", "99")
    assert code == 2 and "no game 99" in err
    code, _, err = _review("no-such-file.gwy")
    assert code == 2 and "no such file" in err
    code, _, err = _review("records/series.gwy", "--format", "xml")
    assert code == 2 and "xml" in err


def test_a_game_with_syntax_errors_is_named_and_not_reviewed(tmp_path) -> None:
    bad = tmp_path / "bad.gwy"
    bad.write_text('%gwy 1\n%game\n[Seats "Ann Bob"]\ndeal\nAnn 26\nBob 26\n1. Ann QX\n', encoding="utf-8")
    code, out, err = _review(str(bad))
    assert code == 1
    assert "not reviewed: game 1: syntax errors" in out


def test_simulate_with_the_solver_bot_writes_a_clean_record(tmp_path) -> None:
    out = tmp_path / "solver.gwy"
    r = run_cli("simulate", "--players", "4", "--games", "2", "--seed", "4", "--bot", "North=solver", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert "bot North=solver" in out.read_text(encoding="utf-8")
    r = run_cli("check", str(out))
    assert r.returncode == 0, r.stdout


def test_the_readme_review_is_what_the_command_prints() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("$ getaway-ref review records/review-blunder.gwy\n")
    shown = readme[start:readme.index("```", start)].split("\n", 1)[1]
    code, out, _ = _review("records/review-blunder.gwy")
    assert code == 0 and out == shown


def test_an_archive_reviewed_in_worker_processes_is_the_same_in_input_order(tmp_path) -> None:
    """``review --jobs 2`` (check's worker pool): the same reviews as in one process, game by
    game in the file's order, a broken game named in its place."""
    archive = tmp_path / "archive.gwy"
    r = run_cli("simulate", "--players", "4", "--games", "5", "--seed", "11", "-o", str(archive))
    assert r.returncode == 0, r.stderr
    # A sixth game with a syntax error: named as not reviewed, the others still reviewed.
    archive.write_text(archive.read_text(encoding="utf-8") + "\n%game\n[Seats \"North East\"]\nthis is not a play\n",
                       encoding="utf-8")
    one = _review(str(archive), "--samples", "1", "--format", "json")
    two = _review(str(archive), "--samples", "1", "--format", "json", "--jobs", "2")
    assert one[0] == two[0] == 1
    assert one[1] == two[1]
    doc = json.loads(two[1])
    assert [g["number"] for g in doc["games"]] == [1, 2, 3, 4, 5]
    assert len(doc["not_reviewed"]) == 1 and doc["not_reviewed"][0].startswith("game 6:")
    code, _, err = _review(str(archive), "--jobs", "none")
    assert code == 2 and "--jobs" in err


def test_an_archive_reviewed_on_a_dask_cluster_is_the_local_review(tmp_path) -> None:
    """``review --dask`` (check's Dask path): the reviews a local cluster sends back are those
    of one process, in the file's order, the broken game named in its place; an address that
    cannot be reached is one line and exit 2."""
    distributed = pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    archive = tmp_path / "archive.gwy"
    r = run_cli("simulate", "--players", "3", "--games", "4", "--seed", "12", "-o", str(archive))
    assert r.returncode == 0, r.stderr
    archive.write_text(archive.read_text(encoding="utf-8") + "\n%game\n[Seats \"North East\"]\nthis is not a play\n",
                       encoding="utf-8")
    local = _review(str(archive), "--samples", "1", "--format", "json")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        remote = _review(str(archive), "--samples", "1", "--format", "json", "--dask", cluster.scheduler_address)
    assert local[0] == remote[0] == 1, remote[2]
    assert remote[1] == local[1]
    doc = json.loads(remote[1])
    assert [g["number"] for g in doc["games"]] == [1, 2, 3, 4]
    assert doc["not_reviewed"][0].startswith("game 5:")
    code, out, err = _review(str(archive), "--dask", "tcp://127.0.0.1:9")
    assert code == 2 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err
    assert len(err.strip().splitlines()) == 1 and out == ""
