"""Issue 28's figures: the exact solver's speed, the exact window's share of a game, a
whole game's review.

    python bench/review.py [--quick] [--games N] [--seed S]

- **solve times**: endings of self-play games (sensible bots, seeded): for each game, the
  first position with every hand known and at most H cards held, H in 6, 8, 10, 12 (and 16,
  20 for two players); every seat in it classified by a fresh solver with a budget of
  positions. The distribution (median, p90, max) by cards held and players, the share that
  met the budget, and nodes per second.
- **exact window**: the share of a game's plays made with at most 8, 10, 12 cards held.
- **a whole review**: ``review`` of four-player games (12 samples a play, window 10).
Figures go to stdout and to bench/out/review.json.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from solver import cell  # noqa: E402  (bench/solver.py)

from referee.engine.rules import rule_set  # noqa: E402
from referee.engine.state import Engine  # noqa: E402
from referee.judging.replay import replay  # noqa: E402
from referee.players.solver import cards_held, solvable  # noqa: E402
from referee.review.review import review_game  # noqa: E402
from referee.selfplay.simulate import simulate  # noqa: E402

OUT = ROOT / "bench" / "out"
BUDGET = 200_000


def endings(players: int, games: int, seed: int, spec: str) -> list[list[Engine]]:
    """Per game, the position before each play (every hand known)."""
    out = []
    for g in simulate(players, games, seed, rule_set(spec)):
        out.append([s.before for s in replay(g.game, snapshots=True)])
    return out


def solve_times(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The solver's times by players, rules and cards held: bench/solver.py's cell, the one
    timing of a position (past 12 cards a two-player ending can run to the budget: four games
    suffice)."""
    rows = []
    for players, spec in ((2, "pagat"), (3, "pagat"), (4, "pagat"), (4, "denexa"), (4, "donkey"), (6, "pagat")):
        for held in (6, 8, 10, 12) + ((16, 20) if players == 2 else ()):
            row = cell(players, spec, held, args.games if held <= 12 else 4, args.seed, BUDGET)
            if row["positions"]:
                rows.append({k: v for k, v in row.items() if k != "times_s"})
    return rows


def window_share(args: argparse.Namespace) -> dict[str, float]:
    plays = 0
    inside = {8: 0, 10: 0, 12: 0}
    for positions in endings(4, args.games, args.seed + 1, "pagat"):
        for e in positions:
            plays += 1
            for h in inside:
                if solvable(e) and cards_held(e) <= h:
                    inside[h] += 1
    share = {f"<= {h} cards": round(v / plays, 4) for h, v in inside.items()}
    print("share of a four-player game's plays in the exact window:", share, flush=True)
    return share


def whole_reviews(args: argparse.Namespace) -> list[float]:
    times = []
    for g in simulate(4, max(2, args.games // 10), args.seed + 2, rule_set("pagat")):
        t = time.perf_counter()
        review_game(g.game, samples=12)
        times.append(round(time.perf_counter() - t, 2))
    print("a whole four-player game reviewed (12 samples a play, window 10):", times, "s", flush=True)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="a few games, for a smoke run")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=28)
    args = ap.parse_args()
    if args.quick:
        args.games = 3
    random.seed(args.seed)
    result = {"date": datetime.datetime.now(datetime.UTC).isoformat(timespec="minutes"),
              "games": args.games, "seed": args.seed, "budget": BUDGET}
    result["solve"] = solve_times(args)
    result["window"] = window_share(args)
    result["review_s"] = whole_reviews(args)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "review.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {OUT / 'review.json'}")


if __name__ == "__main__":
    main()
