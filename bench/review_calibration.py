"""Issue 28's calibration of the review's chances: does a seat given a 30 % chance of losing
lose about 30 % of the time?

    python bench/review_calibration.py [--games N] [--points P] [--samples S] [--players P]
                                       [--seed S] [--jobs J] [--out NAME]

Self-play games (sensible bots, seeded) are played; in each, ``--points`` plays chosen at
random (seeded; 0: every play, as ``review`` does) get every seat's chance of losing after
them, each from what that seat could know, by the review's own function
(``referee.review.review.every_seat_chances``: the same samples, bots, solver and prior).
Each (play, seat still in the game) pair gives a prediction and an outcome (the seat lost
the game or not). A few points a game rather than every play: ten thousand games then fit
in an hour on two cores, and the pairs are less alike than a whole game's (the pairs of one
game are not independent: the deciles' spread is wider than their counts suggest).

Printed: per decile of the prediction, the pairs, the mean prediction, the observed loss
frequency and their difference; the Brier score (mean squared error of the predictions; 0
is perfect; always saying the overall loss rate scores about (1/P)(1-1/P)). Figures go to
stdout and bench/out/review_calibration.json.
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.engine.rules import rule_set  # noqa: E402
from referee.engine.state import Phase  # noqa: E402
from referee.judging.replay import replay  # noqa: E402
from referee.notation.record import Play, Take  # noqa: E402
from referee.players.solver import Solver  # noqa: E402
from referee.review.review import BUDGET, every_seat_chances  # noqa: E402
from referee.selfplay.simulate import simulate  # noqa: E402

OUT = ROOT / "bench" / "out"


def pairs(first: int, games: int, points: int, samples: int, players: int, seed: int, spec: str
          ) -> list[tuple[float, int]]:
    """The (prediction, outcome) pairs of self-play games ``first`` .. ``first + games - 1``."""
    out: list[tuple[float, int]] = []
    for g in simulate(players, games, seed, rule_set(spec), first=first):
        steps = list(replay(g.game, snapshots=True))
        loser = steps[-1].after.view().loser if steps else None
        if loser is None:
            continue
        # The plays and takes (the review numbers them from 1), with the position after each.
        acts = [k for k, st in enumerate(steps) if isinstance(st.item, (Play, Take))]
        chosen = list(enumerate(acts, 1))
        if points:
            rng = random.Random(f"calibration/{seed}/{g.number}")
            chosen = sorted(rng.sample(chosen, min(points, len(chosen))))
        solver = Solver(max_nodes=BUDGET)
        views: dict[int, list] = {}  # type: ignore[type-arg]
        for number, k in chosen:
            if k + 1 >= len(steps):
                continue  # the game's end: the chances are its result, not a prediction
            after = steps[k + 1].before
            now = after.view()
            if now.phase == Phase.OVER:
                continue
            chances = every_seat_chances(g.game, None, after, k, number, samples, seed, solver, views, len(steps))
            for s, c in enumerate(chances):
                if c is not None and s not in now.out_order:
                    out.append((c, int(s == loser)))
    return out


def _work(args: tuple[int, int, int, int, int, int, str]) -> list[tuple[float, int]]:
    return pairs(*args)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--points", type=int, default=2, help="plays a game with predictions (0: every play)")
    ap.add_argument("--samples", type=int, default=12, help="sampled deals a seat a play (review's default)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rules", default="pagat")
    ap.add_argument("--seed", type=int, default=2828)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes, each a share of the games")
    ap.add_argument("--out", default="review_calibration", help="the name of the figures' files in bench/out")
    args = ap.parse_args()
    t = time.perf_counter()
    chunk = 25
    work = [(first, min(chunk, args.games - first + 1), args.points, args.samples, args.players, args.seed, args.rules)
            for first in range(1, args.games + 1, chunk)]
    got: list[tuple[float, int]] = []
    OUT.mkdir(parents=True, exist_ok=True)
    # Each share's pairs as it comes (a long run stopped early still leaves its figures).
    with (multiprocessing.get_context("fork").Pool(args.jobs) as pool,
          open(OUT / f"{args.out}_pairs.jsonl", "w", encoding="utf-8") as log):
        for part in pool.imap(_work, work):
            got.extend(part)
            log.write(json.dumps(part) + "\n")
            log.flush()
    took = time.perf_counter() - t
    brier = sum((c - o) ** 2 for c, o in got) / len(got)
    base = sum(o for _, o in got) / len(got)
    climatology = sum((base - o) ** 2 for _, o in got) / len(got)
    print(f"{args.games} self-play games, {args.players} players, {args.rules}, {args.points or 'every'} plays a game, "
          f"{args.samples} samples a seat a play, seed {args.seed}: {len(got)} predictions in {took:.0f} s")
    print(f"{'decile':>9} {'pairs':>7} {'predicted':>10} {'observed':>9} {'off':>6}")
    rows = []
    for d in range(10):
        lo, hi = d / 10, (d + 1) / 10
        xs = [(c, o) for c, o in got if lo <= c < hi or (d == 9 and c == 1.0)]
        if not xs:
            continue
        pred = sum(c for c, _ in xs) / len(xs)
        obs = sum(o for _, o in xs) / len(xs)
        rows.append({"decile": f"{lo:.1f}-{hi:.1f}", "pairs": len(xs), "predicted": round(pred, 4),
                     "observed": round(obs, 4)})
        print(f"  {lo:.1f}-{hi:.1f} {len(xs):7} {100 * pred:9.1f}% {100 * obs:8.1f}% {100 * (obs - pred):+5.1f}")
    print(f"Brier score {brier:.4f} (always the overall loss rate {base:.3f}: {climatology:.4f})")
    result = {"date": datetime.datetime.now(datetime.UTC).isoformat(timespec="minutes"), **vars(args),
              "predictions": len(got), "seconds": round(took), "brier": round(brier, 4),
              "brier_base_rate": round(climatology, 4), "deciles": rows}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{args.out}.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if args.games >= 1000:  # a run the documentation quotes (bench/figures.py), not a trial
        import figures  # bench/figures.py, beside this script

        worst = max(abs(r["observed"] - r["predicted"]) for r in rows)
        figures.record(
            "calibration", title="The review's chances, calibrated against self-play",
            command=f"python bench/review_calibration.py --games {args.games} --jobs {args.jobs} --seed {args.seed}",
            columns=["predictions", "Brier score", "always the overall loss rate", "worst decile"],
            rows=[[f"{len(got):,}", f"{brier:.4f}", f"{climatology:.4f}",
                   f"{100 * worst:.1f} points from the observed frequency"]],
            note="Each seat's predicted chance of losing against how often it lost "
                 "([how review judges](review.md#calibration)).")


if __name__ == "__main__":
    main()
