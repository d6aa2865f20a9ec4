"""The core (engine, notation, judging) runs where only lark is installed: a browser build,
a research environment, a small container (issue 37, item 8). A fresh Python imports every
module of the core, and of ``players/`` (the solver and the bots, which a research program
drives without the commands), and judges a record, with rich, typer, pydantic and
prompt-toolkit made unimportable (a meta path finder that raises ImportError for them, so a
module-level import of any of them fails); none of them is loaded afterwards."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The parts of the package that must run with lark alone beside them.
LIGHT = ("engine", "notation", "judging", "players")


def light_modules() -> list[str]:
    """Every module of the light parts, found on disk: a new module is held to it at once."""
    out = []
    for part in LIGHT:
        for path in sorted((ROOT / "referee" / part).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("").parts
            out.append(".".join(rel[:-1] if rel[-1] == "__init__" else rel))
    return out

SCRIPT = r"""
import json, sys
BLOCKED = {"rich", "typer", "click", "pydantic", "pydantic_core", "prompt_toolkit"}

class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"not installed here: {name}")
        return None

sys.meta_path.insert(0, Block())
import importlib
for name in sys.argv[2:]:
    importlib.import_module(name)
from referee.notation.reader import parse
from referee.judging.referee import Referee
games = parse(open(sys.argv[1], encoding="utf-8").read(), sys.argv[1])
codes = [d.code for g in games for d in Referee().judge(g).diagnostics]
print(json.dumps({"codes": codes, "loaded": sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)}))
"""


def test_the_core_judges_a_record_with_only_lark() -> None:
    record = ROOT / "tests" / "data" / "invalid" / "M205-first-not-ace.gwy"
    modules = light_modules()
    assert {"referee.engine.judge", "referee.engine.state", "referee.players.bots"} <= set(modules)
    r = subprocess.run([sys.executable, "-c", SCRIPT, str(record), *modules], capture_output=True, text=True,
                       cwd=ROOT, timeout=60)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert "M205" in out["codes"]  # it judged: the mistake in the record is found
    assert out["loaded"] == []
