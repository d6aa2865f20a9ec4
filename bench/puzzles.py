"""Issue 41 item 4's figures: the yield of ``getaway-ref puzzles`` on self-play archives.

    python bench/puzzles.py [--games N] [--players 4] [--seed S] [--rules pagat]

Simulates N games (sensible bots, seeded), runs ``getaway-ref puzzles`` on them in one
process (``--jobs 1``) and reports the puzzles per 1,000 games, the CPU time per game (the
search alone: user and system time of the ``puzzles`` process, the machine being shared),
the positions found again and the puzzles that failed their check, and the count projected
for 100,000 games (the yield times 100; the projection assumes duplicates stay as rare as
measured). Figures go to stdout and to bench/out/puzzles-PLAYERS.json.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=ROOT, capture_output=True, text=True,
                          check=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rules", default="pagat")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "games.gwy"
        _run("simulate", "-n", str(a.players), "-g", str(a.games), "-s", str(a.seed), "--rules", a.rules,
             "-o", str(archive))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.perf_counter()
        _run("puzzles", str(archive), "-o", str(Path(tmp) / "deck"))
        wall = time.perf_counter() - wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        doc = json.loads((Path(tmp) / "deck" / "index.json").read_text(encoding="utf-8"))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    kept = len(doc["puzzles"])
    themes: dict[str, int] = {}
    for p in doc["puzzles"]:
        for t in p["themes"]:
            themes[t] = themes.get(t, 0) + 1
    fig = {
        "games": a.games, "players": a.players, "rules": a.rules, "seed": a.seed, "puzzles": kept,
        "per_1000_games": round(1000 * kept / a.games, 1), "cpu_ms_per_game": round(1000 * cpu / a.games, 1),
        "wall_s": round(wall, 1), "found_again": doc["same_position"], "failed_check": doc["not_verified"],
        "themes": themes, "projected_100000": round(100_000 * kept / a.games),
    }
    print(json.dumps(fig, indent=1, ensure_ascii=False))
    OUT.mkdir(exist_ok=True)
    (OUT / f"puzzles-{a.players}.json").write_text(json.dumps(fig, indent=1, ensure_ascii=False) + "\n",
                                                    encoding="utf-8")


if __name__ == "__main__":
    main()
