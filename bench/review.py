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
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.engine.rules import rule_set  # noqa: E402
from referee.engine.state import Engine  # noqa: E402
from referee.judging.replay import replay  # noqa: E402
from referee.review.review import review_game  # noqa: E402
from referee.review.solver import SearchLimit, Solver, cards_held, solvable  # noqa: E402
from referee.selfplay.simulate import simulate  # noqa: E402

OUT = ROOT / "bench" / "out"
BUDGET = 200_000


def endings(players: int, games: int, seed: int, spec: str) -> list[list[Engine]]:
    """Per game, the position before each play (every hand known)."""
    out = []
    for g in simulate(players, games, seed, rule_set(spec)):
        out.append([s.before for s in replay(g.game, snapshots=True)])
    return out


def first_with(positions: list[Engine], held: int) -> Engine | None:
    for e in positions:
        if solvable(e) and cards_held(e) <= held and e.phase != 4:
            return e
    return None


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def solve_times(args: argparse.Namespace) -> list[dict[str, Any]]:
    rows = []
    for players, spec in ((2, "pagat"), (3, "pagat"), (4, "pagat"), (4, "denexa"), (4, "donkey"), (6, "pagat")):
        games = endings(players, args.games, args.seed, spec)
        helds = (6, 8, 10, 12) + ((16, 20) if players == 2 else ())
        for held in helds:
            times, nodes, limited = [], 0, 0
            # Past 12 cards a two-player ending can run to the budget: four games suffice.
            for positions in (games if held <= 12 else games[:4]):
                e = first_with(positions, held)
                if e is None:
                    continue
                s = Solver(max_nodes=BUDGET)
                t = time.perf_counter()
                try:
                    for x in e.in_game():
                        s.classify(e, x)
                except SearchLimit:
                    limited += 1
                times.append(time.perf_counter() - t)
                nodes += s.nodes
            if not times:
                continue
            total = sum(times)
            row = {"players": players, "rules": spec, "held_at_most": held, "positions": len(times),
                   "median_s": round(statistics.median(times), 4), "p90_s": round(pct(times, 0.9), 4),
                   "max_s": round(max(times), 4), "over_budget": limited,
                   "nodes_per_s": round(nodes / total) if total else 0}
            rows.append(row)
            print(f"{players} players {spec:7} <= {held:2} cards: {len(times):3} positions, median "
                  f"{row['median_s']:.3f} s, p90 {row['p90_s']:.3f} s, max {row['max_s']:.3f} s, "
                  f"{limited} over {BUDGET} positions, {row['nodes_per_s']} nodes/s", flush=True)
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
