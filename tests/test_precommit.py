"""The pre-commit hooks of .pre-commit-hooks.yaml, run by pre-commit itself on a scratch git
repository whose .pre-commit-config.yaml names this project, as a club's would. The project
is a local git repository (a snapshot of this checkout, so uncommitted work is tested too):
nothing is cloned from the network; the hook's environment is installed from PyPI, the one
registry CI reaches."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import RECORDS, ROOT, TIMEOUT, run_cli


@pytest.fixture(scope="module")
def hooks_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """This checkout as a git repository at one commit: (path, commit)."""
    snap = tmp_path_factory.mktemp("getaway-ref-snapshot")
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.splitlines()
    for name in listed:
        src = ROOT / name
        if src.is_file():
            (snap / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, snap / name)
    env = {**os.environ, **GIT_ID}
    subprocess.run(["git", "init", "-q"], cwd=snap, check=True)
    subprocess.run(["git", "add", "-A"], cwd=snap, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "snapshot"], cwd=snap, check=True, env=env)
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=snap, capture_output=True, text=True, check=True).stdout
    return snap, rev.strip()


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


GIT_ID = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
          "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}


def scratch_repo(tmp_path: Path, files: dict[str, str], hooks: tuple[Path, str]) -> Path:
    repo = tmp_path / "club"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    for name, text in files.items():
        (repo / name).write_text(text, encoding="utf-8")
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hooks[0]}\n    rev: {hooks[1]}\n    hooks:\n"
        "      - id: getaway-ref-check\n      - id: getaway-ref-fmt\n", encoding="utf-8")
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    return repo


def run_hook(repo: Path, home: Path, hook: str) -> subprocess.CompletedProcess[str]:
    # The hook's environment gets the Python modules' build (GETAWAY_PURE_PYTHON=1): what the
    # hooks do does not depend on it, and the compiled build is built once a run, elsewhere
    # (tests/test_packaging.py installs it, tests/test_compiled.py holds it to the sources).
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "GETAWAY_PURE_PYTHON": "1", **GIT_ID}
    exe = shutil.which("pre-commit", path=str(Path(sys.executable).parent)) or "pre-commit"
    return subprocess.run([exe, "run", hook, "--all-files"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT)


def test_the_check_hook_fails_a_commit_with_a_renege_and_passes_a_clean_one(
        tmp_path: Path, pre_commit_home: Path, hooks_repo: tuple[Path, str]) -> None:
    renege = (RECORDS / "dispute-renege-illegal.gwy").read_text(encoding="utf-8")
    clean = (RECORDS / "pagat-example.gwy").read_text(encoding="utf-8")
    repo = scratch_repo(tmp_path, {"renege.gwy": renege, "clean.gwy": clean, "notes.txt": "not a record\n"}, hooks_repo)
    r = run_hook(repo, pre_commit_home, "getaway-ref-check")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "getaway-ref check" in r.stdout and "Failed" in r.stdout
    assert "mistake[M201]" in r.stdout and "renege.gwy:17:28" in r.stdout
    assert "checked 2 files" in r.stdout  # the .gwy files only
    (repo / "renege.gwy").unlink()
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    r = run_hook(repo, pre_commit_home, "getaway-ref-check")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Passed" in r.stdout


def test_the_fmt_hook_rewrites_records_to_the_canonical_form(
        tmp_path: Path, pre_commit_home: Path, hooks_repo: tuple[Path, str]) -> None:
    canon = (RECORDS / "pagat-example.gwy").read_text(encoding="utf-8")
    messy = canon.replace("1. West A♠, North J♠", "1.   West AS ,North   js")
    assert messy != canon
    repo = scratch_repo(tmp_path, {"game.gwy": messy}, hooks_repo)
    r = run_hook(repo, pre_commit_home, "getaway-ref-fmt")
    assert r.returncode == 1 and "files were modified by this hook" in r.stdout, r.stdout + r.stderr
    assert (repo / "game.gwy").read_text(encoding="utf-8") == run_cli("fmt", str(RECORDS / "pagat-example.gwy")).stdout
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    r = run_hook(repo, pre_commit_home, "getaway-ref-fmt")
    assert r.returncode == 0 and "Passed" in r.stdout
