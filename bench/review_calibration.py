"""Issue 28's calibration of the review's chances: does a seat given a 30 % chance of losing
lose about 30 % of the time?

    python bench/review_calibration.py [--games N] [--samples S] [--players P] [--seed S]

Self-play games (sensible bots, seeded) are reviewed with their chances (every seat, every
play, each from what that seat could know); each (play, seat still in the game) pair gives a
prediction and an outcome (the seat lost the game or not). Printed: per decile of the
prediction, the pairs, the mean prediction and the observed loss frequency; and the Brier
score (mean squared error of the predictions; 0 is perfect, always saying 1/players scores
about (1/P)(1-1/P)). Pairs of one game are not independent: the deciles' spread is wider
than their counts suggest. Figures go to stdout and bench/out/review_calibration.json.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.engine.rules import rule_set  # noqa: E402
from referee.engine.state import OVER  # noqa: E402
from referee.judging.replay import replay  # noqa: E402
from referee.review.review import review_game  # noqa: E402
from referee.selfplay.simulate import simulate  # noqa: E402

OUT = ROOT / "bench" / "out"


def pairs(games: int, samples: int, players: int, seed: int, spec: str) -> list[tuple[float, int]]:
    out: list[tuple[float, int]] = []
    for g in simulate(players, games, seed, rule_set(spec)):
        steps = list(replay(g.game, snapshots=True))
        r = review_game(g.game, samples=samples, seed=seed)
        if r.loser is None:
            continue
        loser = r.seats.index(r.loser)
        for p in r.plays:
            # The position after the play: the next step's copy (a step's after is the walk's own engine).
            after = steps[p.step + 1].before if p.step + 1 < len(steps) else None
            if after is None or after.phase == OVER:
                continue  # the game's end: the chances are its result, not a prediction
            for s, c in enumerate(p.chances):
                if c is not None and not after.out[s]:
                    out.append((c, int(s == loser)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--samples", type=int, default=6)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rules", default="pagat")
    ap.add_argument("--seed", type=int, default=2828)
    args = ap.parse_args()
    t = time.perf_counter()
    got = pairs(args.games, args.samples, args.players, args.seed, args.rules)
    took = time.perf_counter() - t
    brier = sum((c - o) ** 2 for c, o in got) / len(got)
    base = sum(o for _, o in got) / len(got)
    climatology = sum((base - o) ** 2 for _, o in got) / len(got)
    print(f"{args.games} self-play games, {args.players} players, {args.rules}, {args.samples} samples a seat a play, "
          f"seed {args.seed}: {len(got)} predictions in {took:.0f} s")
    print(f"{'decile':>9} {'pairs':>7} {'predicted':>10} {'observed':>9}")
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
        print(f"  {lo:.1f}-{hi:.1f} {len(xs):7} {100 * pred:9.1f}% {100 * obs:8.1f}%")
    print(f"Brier score {brier:.4f} (always the overall loss rate {base:.3f}: {climatology:.4f})")
    result = {"date": datetime.datetime.now(datetime.UTC).isoformat(timespec="minutes"), **vars(args),
              "predictions": len(got), "seconds": round(took), "brier": round(brier, 4),
              "brier_base_rate": round(climatology, 4), "deciles": rows}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "review_calibration.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
