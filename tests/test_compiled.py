"""The compiled build (README "Compiled engine"): the modules a standard wheel carries compiled
(pyproject.toml's hook list, hatch_build.py), compiled by the same code in a copy of the
package as bench/speed.py --compiled does, are the ones a run loads,
and `check` judges every record and a simulated archive with table mistakes through them
exactly as through the Python modules: the same report, byte for byte, and the same exit."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, TIMEOUT, compiled_build

sys.path.insert(0, str(ROOT / "bench"))
import speed


@pytest.fixture(scope="session")
def compiled() -> Path:
    # Built once for the run (and kept until a source changes), however many workers ask.
    return compiled_build()


def _check(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # `python -m` puts the working directory first on the path: the copy's package, or ours.
    return subprocess.run([sys.executable, "-m", "referee", "check", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=TIMEOUT)


def test_a_run_loads_the_compiled_modules(compiled: Path) -> None:
    modules = [m.removesuffix(".py").replace("/", ".") for m in speed.compiled_modules()]
    assert "referee.engine.state" in modules
    probe = "import importlib, sys\nfor m in sys.argv[1:]:\n    print(importlib.import_module(m).__file__)"
    loaded = subprocess.run([sys.executable, "-c", probe, *modules], cwd=compiled, capture_output=True, text=True,
                            check=True).stdout.split()
    for name, path in zip(modules, loaded):
        assert Path(path).parent == compiled / Path(*name.split(".")[:-1])
        assert not path.endswith(".py"), f"{name} was loaded from its source, not compiled: {path}"


def test_the_compiled_engine_judges_every_record_alike(compiled: Path, tmp_path: Path) -> None:
    sim = tmp_path / "mistakes.gwy"
    subprocess.run([sys.executable, "-m", "referee", "simulate", "--players", "4", "--games", "150", "--seed", "11",
                    "--mistakes", "0.05", "-o", str(sim)], cwd=ROOT, check=True, capture_output=True)
    files = [str(p) for p in sorted((ROOT / "records").glob("*.gwy"))] + [str(sim)]
    for form in ("text", "json"):
        ours = _check(ROOT, "--format", form, "--jobs", "1", *files)
        theirs = _check(compiled, "--format", form, "--jobs", "1", *files)
        assert ours.returncode == 1  # the records with mistakes and the simulated ones have findings
        assert (theirs.returncode, theirs.stdout, theirs.stderr) == (ours.returncode, ours.stdout, ours.stderr)


@pytest.mark.parametrize("lane", ["on", "off"])
def test_the_compiled_reader_reports_broken_records_alike(compiled: Path, lane: str) -> None:
    # The broken records exercise what a clean archive never reaches: Lark's errors read by the
    # compiled reader (an attribute Lark declares None but sets to an int broke it once), the
    # walk's diagnostics for every code, and the reader without its fast lane.
    files = [str(p) for p in sorted((ROOT / "tests" / "data").rglob("*.gwy"))]
    assert len(files) > 50
    env = {**os.environ, **({"GETAWAY_LARK_ONLY": "1"} if lane == "off" else {})}
    for form in ("text", "json"):
        args = [sys.executable, "-m", "referee", "check", "--format", form, "--jobs", "1", *files]
        ours = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT, env=env)
        theirs = subprocess.run(args, cwd=compiled, capture_output=True, text=True, timeout=TIMEOUT, env=env)
        assert ours.returncode == 1 and "S001" in ours.stdout
        assert (theirs.returncode, theirs.stdout, theirs.stderr) == (ours.returncode, ours.stdout, ours.stderr)


def test_the_compiled_solver_reviews_alike(compiled: Path) -> None:
    # The review's exact solver (engine/search.py) is compiled too: the same classes, verdicts,
    # lines and sampled chances, as text and JSON, on the record of the README's review.
    record = str(ROOT / "records" / "review-blunder.gwy")
    for form in ("text", "json"):
        args = [sys.executable, "-m", "referee", "review", record, "--format", form, "--samples", "4"]
        ours = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
        theirs = subprocess.run(args, cwd=compiled, capture_output=True, text=True, timeout=TIMEOUT)
        assert ours.returncode == 0 and "blunder" in ours.stdout
        assert (theirs.returncode, theirs.stdout, theirs.stderr) == (ours.returncode, ours.stdout, ours.stderr)


def test_the_compiled_export_writes_the_same_tables(compiled: Path, tmp_path: Path) -> None:
    # The Parquet export's per-game code (archive/parquet.py) is compiled too: the same tables,
    # schema and rows, from a simulated archive with table mistakes (games read item by item)
    # and the records, and the same summary line.
    pq = pytest.importorskip("pyarrow.parquet")
    club = tmp_path / "club"
    shutil.copytree(ROOT / "records", club)
    subprocess.run([sys.executable, "-m", "referee", "simulate", "--players", "4", "--games", "60", "--seed", "11",
                    "--mistakes", "0.05", "-o", str(club / "mistakes.gwy")], cwd=ROOT, check=True, capture_output=True)
    said = []
    for cwd, out in ((ROOT, tmp_path / "ours"), (compiled, tmp_path / "theirs")):
        r = subprocess.run([sys.executable, "-m", "referee", "export", "--format", "parquet", "--jobs", "1", str(club),
                            "-o", str(out)], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)
        assert r.returncode == 0, r.stderr
        said.append(r.stdout.replace(str(out), "DIR"))
    assert said[0] == said[1] and " 0 diagnostics" not in said[0]
    for table in ("games", "seats", "tricks", "plays", "diagnostics"):
        ours, theirs = (pq.read_table(tmp_path / side / f"{table}.parquet") for side in ("ours", "theirs"))
        assert ours.num_rows and theirs.equals(ours), table


def test_version_says_which_build_runs(compiled: Path) -> None:
    # `getaway-ref --version` tells the compiled build from the Python modules (issue 38): the
    # first line is the version alone, as before; the second, the build.
    ours = subprocess.run([sys.executable, "-m", "referee", "--version"], cwd=ROOT, capture_output=True, text=True,
                          timeout=TIMEOUT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    theirs = subprocess.run([sys.executable, "-m", "referee", "--version"], cwd=compiled, capture_output=True,
                            text=True, timeout=TIMEOUT)
    version, build = ours.stdout.splitlines()
    assert ours.returncode == 0 and version.startswith("getaway-ref ") and build.startswith("build: Python modules")
    version_c, build_c = theirs.stdout.splitlines()
    assert theirs.returncode == 0 and version_c == version
    assert build_c.startswith("build: compiled (") and "state" in build_c
