"""Issue 28's speed targets for the exact solver, and nothing else:

* every seat of an ending with at most 12 cards held classed (safe, open, lost), 3 to 8
  players, the three presets: p90 at most 1 s a position;
* two players with 20 cards held: within 350 ms.

It also times two players with at most 12, 14, 16 and 18 cards (not targets: how far from 20
cards the 350 ms reaches), before the pooled figures; ``--no-sizes`` skips them.

    python bench/solver.py [--games N] [--seed S] [--budget B] [--json PATH] [--batch]

The endings are those of self-play games (sensible bots, seeded): per game, the first position
with every hand known and at most H cards held. Each position is classed for every seat still
in the game by a fresh ``Solver`` (no table carried over), a budget of B positions a question;
a position over it is counted at the time it took to stop, and named. The script reads the code
it is run with (PYTHONPATH), so the same file measures two trees in one session:

    PYTHONPATH=/work/main python bench/solver.py --json before.json
    PYTHONPATH=$PWD python bench/solver.py --json after.json
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import figures  # bench/figures.py: the documentation's tables

from referee.engine.rules import rule_set
from referee.engine.state import Engine, Phase
from referee.judging.replay import replay
from referee.players.solver import SearchLimit, Solver, cards_held, solvable
from referee.selfplay.simulate import simulate

CELLS = [(p, spec, 12) for p in (3, 4, 5, 6, 8) for spec in ("pagat", "denexa", "donkey")]
CELLS += [(2, "pagat", 20), (2, "denexa", 20)]
# The batch option (--batch): 3 to 8 players at 16 cards, p90 at most 30 s a position.
BATCH = [(p, spec, 16) for p in (3, 4, 5, 6, 8) for spec in ("pagat", "denexa", "donkey")]
# Two players with fewer cards (not a target): how far from 20 cards the 350 ms reaches.
SIZES = [(2, "pagat", h) for h in (12, 14, 16, 18)]


def ending(game_positions: list[Engine], held: int) -> Engine | None:
    for e in game_positions:
        if solvable(e) and cards_held(e) <= held and e.view().phase != Phase.OVER:
            return e
    return None


def pct(xs: list[float], q: float) -> float:
    """The nearest-rank percentile: the smallest value with at least ``q`` of them at or below it."""
    xs = sorted(xs)
    return xs[max(0, math.ceil(q * len(xs)) - 1)]


def cell(players: int, spec: str, held: int, games: int, seed: int, budget: int, each: bool = False) -> dict[str, Any]:
    times: list[float] = []
    counts: list[int] = []  # positions searched, each ending: machine-independent, unlike the times
    over = 0
    nodes = 0
    for g in simulate(players, games, seed, rule_set(spec)):
        e = ending([s.before for s in replay(g.game, snapshots=True)], held)
        if e is None:
            continue
        s = Solver(max_nodes=budget)
        t = time.perf_counter()
        try:
            for x in e.in_game():
                s.classify(e, x)
        except SearchLimit:
            over += 1
        times.append(time.perf_counter() - t)
        counts.append(s.nodes)
        nodes += s.nodes
    total = sum(times)
    row = {"players": players, "rules": spec, "held_at_most": held, "positions": len(times),
           "median_s": round(statistics.median(times), 4) if times else None,
           "p90_s": round(pct(times, 0.9), 4) if times else None,
           "max_s": round(max(times), 4) if times else None, "over_budget": over,
           "nodes_per_s": round(nodes / total) if total else 0, "times_s": [round(t, 4) for t in times],
           "nodes": counts}
    print(f"{players} players {spec:7} <= {held:2} cards: {len(times):3} positions, median {row['median_s']} s, "
          f"p90 {row['p90_s']} s, max {row['max_s']} s, {over} over budget, {row['nodes_per_s']} nodes/s",
          flush=True)
    if each:
        print("   each (s, positions): " + " ".join(f"{t:.3f}/{k}" for t, k in zip(times, counts)), flush=True)
    return row


def write_json(args: argparse.Namespace, **figures: Any) -> None:
    """The run's figures, with its date, Python and settings, to --json (if given)."""
    if args.json:
        args.json.write_text(json.dumps({
            "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="minutes"),
            "python": sys.version.split()[0], "games": args.games, "seed": args.seed, "budget": args.budget,
            **figures}, indent=2) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10, help="self-play games (endings) a cell")
    ap.add_argument("--seed", type=int, default=2828)
    ap.add_argument("--budget", type=int, default=100_000, help="positions a question")
    ap.add_argument("--json", type=Path, default=None, help="write the figures here")
    ap.add_argument("--only", default="", help="cells to run, e.g. '2,4' (players)")
    ap.add_argument("--no-sizes", action="store_true",
                    help="skip the two-player cells of 12 to 18 cards (not targets)")
    ap.add_argument("--each", action="store_true", help="print each ending's time and positions searched")
    ap.add_argument("--batch", action="store_true",
                    help="only the batch target: 3-8 players at 16 cards, p90 at most 30 s (use a larger --budget)")
    args = ap.parse_args()
    only = {int(p) for p in args.only.split(",") if p}
    start = time.perf_counter()
    if args.batch:
        rows = [cell(p, spec, h, args.games, args.seed, args.budget, args.each) for p, spec, h in BATCH if not only or p in only]
        times = [t for r in rows for t in r["times_s"]]
        pooled_batch = {"positions": len(times), "p90_s": round(pct(times, 0.9), 4) if times else None,
                        "within_30_s": sum(t <= 30 for t in times), "over_budget": sum(r["over_budget"] for r in rows)}
        print(f"3-8 players, <= 16 cards (batch): {pooled_batch}", flush=True)
        print(f"whole run {time.perf_counter() - start:.0f} s", flush=True)
        write_json(args, batch=pooled_batch, cells=rows)
        return
    rows = [cell(p, spec, h, args.games, args.seed, args.budget, args.each) for p, spec, h in CELLS if not only or p in only]
    many = [t for r in rows if r["players"] >= 3 for t in r["times_s"]]
    two = [t for r in rows if r["players"] == 2 for t in r["times_s"]]
    sizes = [] if args.no_sizes or (only and 2 not in only) else [
        cell(p, spec, h, args.games, args.seed, args.budget, args.each) for p, spec, h in SIZES]
    for r in sizes:
        print(f"  2 players <= {r['held_at_most']} cards: {sum(t <= 0.35 for t in r['times_s'])} of "
              f"{r['positions']} within 350 ms", flush=True)
    pooled = {"3-8 players, <= 12 cards": {"positions": len(many), "p90_s": round(pct(many, 0.9), 4) if many else None,
                                           "within_1_s": sum(t <= 1 for t in many)},
              "2 players, <= 20 cards": {"positions": len(two), "p90_s": round(pct(two, 0.9), 4) if two else None,
                                         "within_0.35_s": sum(t <= 0.35 for t in two)}}
    for name, p in pooled.items():
        print(f"{name}: {p}", flush=True)
    print(f"whole run {time.perf_counter() - start:.0f} s", flush=True)
    write_json(args, pooled=pooled, cells=rows, two_player_sizes=sizes)
    if not only and args.games >= 10:  # a whole run: the documentation's figures (bench/figures.py)
        many_p, two_p = pooled["3-8 players, <= 12 cards"], pooled["2 players, <= 20 cards"]
        figures.record_column(
            "solver", "compiled build" if figures.compiled_build() else "Python modules", {
                "2 players, at most 20 cards: within 350 ms":
                    f"{two_p['within_0.35_s']} of {two_p['positions']} (p90 {two_p['p90_s']} s)",
                "3-8 players, at most 12 cards: p90":
                    f"{many_p['p90_s']} s ({many_p['within_1_s']} of {many_p['positions']} within 1 s)"},
            title="The review's exact solver", command="python bench/solver.py",
            columns=["endings", "Python modules", "compiled build", "target"])


if __name__ == "__main__":
    main()
