"""Issue 41's ladder: how often does a bot lose against three (or two, or five) sensible bots?

    python bench/ladder.py [--players 3,4,6] [--games N] [--bots pimc,sensible,solver]
                           [--seed S] [--rules SPEC] [--jobs J] [--out FILE] [--doc FILE] [--report]

Each bot in turn sits in one seat of the same deals (game k of a series: ``simulate``'s seed
for k, the seat k mod players), the other seats sensible bots; the share of those games it
loses, with its 95 % Wilson interval (parity: 1 in the number of players). ``sensible`` and
``solver`` in that seat are the controls; the deals are the same for every bot, so the
differences are the bots'. For ``pimc`` the seconds each choice took (a choice: a play or a
take it weighed, more than one candidate) are measured too, on this machine, whatever else it
runs.

Resumable: every game's result is a line of ``--out`` (JSON Lines, default
bench/out/ladder.jsonl), and a run plays only the games not there yet, so ``--games 10000``
after a run of 500 plays the other 9,500. The table of everything in ``--out`` is written to
``--doc`` (default docs/ladder.md) and printed.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import figures as F  # noqa: E402  (bench/figures.py, beside this script)

from referee.engine.rules import rule_set  # noqa: E402
from referee.players.bots import play_game, seat_names  # noqa: E402
from referee.players.pimc import PimcBot  # noqa: E402
from referee.selfplay.simulate import game_seed  # noqa: E402

OUT = ROOT / "bench" / "out" / "ladder.jsonl"
DOC = ROOT / "docs" / "ladder.md"
Z = 1.959964  # the normal quantile of a 95 % two-sided interval


def wilson(lost: int, games: int, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval of a share ``lost`` / ``games``."""
    if games == 0:
        return 0.0, 1.0
    p = lost / games
    d = 1 + z * z / games
    mid = (p + z * z / (2 * games)) / d
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / d
    return max(0.0, mid - half), min(1.0, mid + half)


def play(job: tuple[str, int, str, int, int]) -> dict[str, object]:
    """One game: ``bot`` in seat number mod players, sensible bots in the others."""
    spec, players, bot, seed, number = job
    seat = number % players
    bots = ["sensible"] * players
    bots[seat] = bot
    s = game_seed(seed, number)
    PimcBot.tally.reset()
    start = time.perf_counter()
    g = play_game(rule_set(spec), players, random.Random(s), bots=bots, number=number, seed=s)
    took = time.perf_counter() - start
    t = PimcBot.tally
    return {"rules": spec, "players": players, "bot": bot, "seed": seed, "game": number, "seat": seat,
            "lost": int(g.loser == seat), "seconds": round(took, 4), "choices": t.choices,
            "choice_seconds": round(t.seconds, 4), "slowest": round(t.slowest, 4),
            "choice_cpu": round(t.cpu, 4), "slowest_cpu": round(t.slowest_cpu, 4)}


def done(path: Path) -> list[dict[str, object]]:
    """Every game already in ``path`` (a line cut short by a kill is skipped)."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def key(r: dict[str, object]) -> tuple[object, ...]:
    return r["rules"], r["players"], r["bot"], r["seed"], r["game"]


def run(jobs: Sequence[tuple[str, int, str, int, int]], path: Path, workers: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as f:
        results: Iterable[dict[str, object]]
        if workers > 1:
            pool = multiprocessing.Pool(workers)
            results = pool.imap_unordered(play, jobs)
        else:
            pool = None
            results = map(play, jobs)
        try:
            for k, r in enumerate(results, 1):
                f.write(json.dumps(r) + "\n")
                f.flush()
                if k % 50 == 0:
                    print(f"  {k}/{len(jobs)} games", file=sys.stderr, flush=True)
        finally:
            if pool is not None:
                pool.terminate()


def same_deals(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """The rows of the games every bot has played at its player count (a run cut short leaves
    some bots a game or two ahead): each bot's figures on the same deals."""
    games: dict[tuple[object, object], set[object]] = {}
    for r in rows:
        games.setdefault((r["players"], r["bot"]), set()).add(r["game"])
    common: dict[object, set[object]] = {}
    for (players, _), gs in games.items():
        common[players] = common[players] & gs if players in common else set(gs)
    return [r for r in rows if r["game"] in common[r["players"]]]


def table(rows: list[dict[str, object]], command: str) -> str:
    groups: dict[tuple[object, ...], list[dict[str, object]]] = {}
    for r in rows:
        groups.setdefault((r["rules"], r["players"], r["bot"]), []).append(r)
    order = {"sensible": 0, "solver": 1}
    lines = [
        "# The bots' ladder",
        "",
        "How often a bot loses when it sits in one seat and sensible bots in the others, on the same "
        "deals for every bot (game k of `simulate`'s series, the bot in seat k mod players): "
        "`sensible` and `solver` are the controls, `pimc` the bot that plays the whole game by "
        "perfect-information Monte Carlo (issue 41; `simulate --bot SEAT=pimc`). Parity is one "
        "game in the number of players. The interval is the 95 % Wilson interval of the share lost; "
        "the seconds are the mean (and slowest) time of a choice pimc weighed (a play or take with "
        "more than one candidate), on the machine that ran it: wall-clock (shared with whatever else "
        "ran) and the process's CPU time (one core's work; from the games that measured it).",
        "",
        "| rules | players | bot | games | lost | loss % | 95 % interval | s a choice, wall (mean / slowest) "
        "| CPU s a choice (mean / slowest) |",
        "| --- | ---: | --- | ---: | ---: | ---: | --- | --- | --- |",
    ]
    for (spec, players, bot), rs in sorted(groups.items(), key=lambda kv: (
            str(kv[0][0]), int(str(kv[0][1])), order.get(str(kv[0][2]), 2), str(kv[0][2]))):
        n = len(rs)
        lost = sum(int(str(r["lost"])) for r in rs)
        lo, hi = wilson(lost, n)
        choices = sum(int(str(r["choices"])) for r in rs)
        secs = sum(float(str(r["choice_seconds"])) for r in rs)
        slow = max(float(str(r["slowest"])) for r in rs)
        timing = f"{secs / choices:.2f} / {slow:.2f}" if choices else ""
        # CPU seconds (one core's work, whatever else runs), from the rows that measured them
        timed = [r for r in rs if "choice_cpu" in r]
        cpu_choices = sum(int(str(r["choices"])) for r in timed)
        cpu = (f"{sum(float(str(r['choice_cpu'])) for r in timed) / cpu_choices:.2f} / "
               f"{max(float(str(r['slowest_cpu'])) for r in timed):.2f}") if cpu_choices else ""
        lines.append(f"| {spec} | {players} | {bot} | {n:,} | {lost:,} | {100 * lost / n:.1f} | "
                     f"{100 * lo:.1f}-{100 * hi:.1f} | {timing} | {cpu} |")
    lines += ["", "Made by", "", "```", command, "```", "",
              "The run is resumable: each game is a line of `bench/out/ladder.jsonl`, and the same "
              "command with a larger `--games` plays only the games not there yet.", ""]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", default="3,4,6", help="player counts, comma-separated")
    ap.add_argument("--games", type=int, default=500, help="games per player count and bot")
    ap.add_argument("--bots", default="pimc,sensible,solver", help="the bots, comma-separated")
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--rules", default="pagat")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--doc", type=Path, default=DOC)
    ap.add_argument("--report", action="store_true", help="play nothing: the table of the games in --out")
    a = ap.parse_args(argv)
    spec = rule_set(a.rules).spec()
    counts = [int(x) for x in a.players.split(",") if x.strip()]
    bots = [b.strip() for b in a.bots.split(",") if b.strip()]
    have = {key(r) for r in done(a.out)}
    for p in counts:
        seat_names(p)  # a count the simulator seats
    # Game by game across the counts and bots: a run cut short leaves every group about as far.
    jobs = [(spec, p, b, a.seed, k) for k in range(1, a.games + 1) for p in counts for b in bots
            if (spec, p, b, a.seed, k) not in have]
    if a.report:
        jobs = []
    print(f"{len(jobs)} games to play ({len(have)} in {a.out})", file=sys.stderr)
    if jobs:
        run(jobs, a.out, a.jobs)
    command = ("python bench/ladder.py --players " + a.players + f" --games {a.games} --bots {a.bots} "
               f"--seed {a.seed} --rules {a.rules}")
    rows = same_deals([r for r in done(a.out) if r["seed"] == a.seed and r["rules"] == spec
                       and r["players"] in counts and r["bot"] in bots])
    text = table(rows, command)
    a.doc.write_text(text, encoding="utf-8")
    print(text)
    if a.doc == DOC and a.out == OUT:
        figures(rows, command)
    return 0


def figures(rows: list[dict[str, object]], command: str) -> None:
    """The performance page's table (bench/figures.py): per player count, each bot's share lost."""
    bots = sorted({str(r["bot"]) for r in rows}, key=lambda b: ({"pimc": 0, "sensible": 1, "solver": 2}.get(b, 3), b))
    out = []
    for p in sorted({int(str(r["players"])) for r in rows}):
        mine = [r for r in rows if r["players"] == p]
        cells = [str(p), f"{len(mine) // max(len(bots), 1):,}"]
        for b in bots:
            rs = [r for r in mine if r["bot"] == b]
            lost = sum(int(str(r["lost"])) for r in rs)
            lo, hi = wilson(lost, len(rs))
            cells.append(f"{100 * lost / len(rs):.1f} % ({100 * lo:.1f}-{100 * hi:.1f})" if rs else "")
        out.append(cells)
    timed = [r for r in rows if "choice_cpu" in r and int(str(r["choices"]))]
    cpu = ""
    if timed:
        n = sum(int(str(r["choices"])) for r in timed)
        cpu = (f" A pimc choice took {sum(float(str(r['choice_cpu'])) for r in timed) / n:.2f} s of CPU on average, "
               f"{max(float(str(r['slowest_cpu'])) for r in timed):.2f} s at the slowest ({len(timed)} games timed).")
    F.record("ladder", title="The bots' ladder", command=command, columns=["players", "games a bot"]
             + [f"{b} lost" for b in bots], rows=out,
             note="One bot against sensible bots in the other seats, on the same deals; 95 % Wilson intervals."
             + cpu + " [The ladder](ladder.md) has the whole table.")


if __name__ == "__main__":
    sys.exit(main())
