"""Shared test helpers: paths, and running the command line in-process or as a user would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"
DATA = Path(__file__).resolve().parent / "data"


def run_cli(*args: str, input: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run `getaway-ref ARGS` in a subprocess, as a user would (python -m referee)."""
    return subprocess.run(
        [sys.executable, "-m", "referee", *args], input=input, capture_output=True, text=True,
        cwd=str(cwd or ROOT), timeout=300,
    )


@pytest.fixture
def cli():
    return run_cli
