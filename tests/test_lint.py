"""The code is `ruff check` clean under the project's rule set (pyproject.toml, [tool.ruff]):
a broad set of lints, each left-out rule with its reason written beside it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from conftest import ROOT


def test_ruff_finds_nothing() -> None:
    # ruff beside the interpreter running the tests (the test extra installs it there)
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff, "ruff is in the test extra: pip install -e '.[test]'"
    r = subprocess.run([ruff, "check", "--no-cache", "--output-format", "concise", "."], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
