"""The research environments' benchmark (issue 41, item 5; docs/research.md).

    python bench/research.py                       # the speed, then 10,000 episodes exported and checked
    python bench/research.py --episodes 200 --seconds 2   # a small run to see that it works

1. Steps per second on one core (per second of the process's CPU time, pinned to one core): the PettingZoo environment as ``env()`` gives it (PettingZoo's
   wrappers included), a loop of ``last()`` (the observation and its mask made) and ``step()``
   with a random legal action, per preset at 4 players; then the environment unwrapped, and
   OpenSpiel's ``apply_action`` (chance nodes included) with a random legal action.
2. Export: ``--episodes`` random episodes through the environment (every preset, every option
   value in turn, 3 to 8 players), each written with ``record()`` into one ``.gwy`` file, which
   ``getaway-ref check`` judges as a user runs it; the count of games and errors it reports.

The random policy takes a hand one time in twenty when it may (half the time, games end in
a few takes). Figures go to stdout as Markdown and to bench/out/research.json.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
sys.path.insert(0, str(ROOT))

from referee.research import MissingExtra  # noqa: E402

try:
    from referee.research.pettingzoo_env import env, raw_env
    from referee.research.table import PASS, TAKE
except MissingExtra as ex:  # one line, exit 2, as every command says a missing extra
    print(f"error: {ex}", file=sys.stderr)
    sys.exit(2)

from referee.engine.rules import OPTIONS, coerce, option_values  # noqa: E402
from referee.notation.format import format_prelude  # noqa: E402
from referee.notation.record import Comment, Prelude  # noqa: E402

PRESETS = ("pagat", "denexa", "donkey")


def policy(legal: list[int], rng: random.Random) -> int:
    """A random legal action, a take one time in twenty when there is another choice."""
    if TAKE in legal and len(legal) > 1:
        if rng.random() < 0.05:
            return TAKE
        legal = [a for a in legal if a != TAKE]
    if PASS in legal:
        return PASS
    return rng.choice(legal)


def pettingzoo_speed(make: object, preset: str, players: int, seconds: float) -> tuple[float, float, int]:
    """Environment steps a CPU second over ``seconds`` of CPU time (whole episodes), and the
    episodes played. CPU time, not wall time: the process runs on one core, which it may
    share with other work; the CPU time is what the steps cost that core."""
    rng = random.Random(1)
    e = make(preset=preset, players=players)  # type: ignore[operator]
    steps = episodes = 0
    start, wall = time.process_time(), time.perf_counter()
    while time.process_time() - start < seconds:
        e.reset(seed=episodes)
        episodes += 1
        for _ in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            mask = obs["action_mask"]
            e.step(policy([a for a in range(len(mask)) if mask[a]], rng))
            steps += 1
    return steps / (time.process_time() - start), steps / (time.perf_counter() - wall), episodes


def openspiel_speed(preset: str, players: int, seconds: float) -> tuple[float, float]:
    import pyspiel

    import referee.research.openspiel_game  # noqa: F401  (registers python_getaway)

    rng = random.Random(1)
    game = pyspiel.load_game("python_getaway", {"preset": preset, "players": players})
    steps = 0
    start, wall = time.process_time(), time.perf_counter()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply_action(policy(state.legal_actions(), rng))
            steps += 1
    return steps / (time.process_time() - start), steps / (time.perf_counter() - wall)


def settings() -> list[dict[str, object]]:
    """No option changed, then every value of every option, one at a time."""
    out: list[dict[str, object]] = [{}]
    for o in OPTIONS:
        out += [{o: coerce(o, w)} for w in option_values(o)]
    return out


def export(episodes: int, path: Path) -> dict[str, object]:
    rng = random.Random(41)
    kinds = settings()
    start = time.perf_counter()
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(format_prelude(Prelude(1, [Comment("random episodes of referee.research.pettingzoo_env (bench/research.py)")])))
        for k in range(episodes):
            options = kinds[k % len(kinds)]
            players = 3 + k % 6
            e = raw_env(preset=PRESETS[k % 3], players=players, **options)
            e.reset(seed=k)
            for _ in e.agent_iter():
                obs, _, terminated, truncated, _ = e.last()
                if terminated or truncated:
                    e.step(None)
                    continue
                mask = obs["action_mask"]
                e.step(policy([a for a in range(len(mask)) if mask[a]], rng))
            f.write("\n" + e.record())
    played = time.perf_counter() - start
    start = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "referee", "check", str(path), "--format", "json", "--jobs", "1"],
                       capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    checked = time.perf_counter() - start
    report = json.loads(p.stdout)
    summary = {k: report[k] for k in ("games", "plays", "errors", "warnings", "counts")}
    finished = sum(g["finished"] for f in report["files"] for g in f["games"])
    return {"episodes": episodes, "exit_code": p.returncode, "summary": summary, "finished": finished,
            "play_and_write_s": round(played, 1), "check_s": round(checked, 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--episodes", type=int, default=10_000)
    ap.add_argument("--seconds", type=float, default=5.0, help="per speed figure")
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core (numpy's threads too)
    OUT.mkdir(parents=True, exist_ok=True)
    figures: dict[str, object] = {"date": datetime.date.today().isoformat(), "python": platform.python_version(),
                                  "machine": platform.machine(), "players": args.players}
    print(f"Steps a second, {args.players} players, one core: per second of CPU time (in brackets, of wall time,"
          f" load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)\n")
    print("| preset | env() steps/s | raw env steps/s | OpenSpiel apply_action/s | episodes |")
    print("| --- | --- | --- | --- | --- |")
    for preset in PRESETS:
        wrapped, wrapped_wall, games = pettingzoo_speed(env, preset, args.players, args.seconds)
        raw, raw_wall, _ = pettingzoo_speed(raw_env, preset, args.players, args.seconds)
        spiel, spiel_wall = openspiel_speed(preset, args.players, args.seconds)
        figures[preset] = {"env": round(wrapped), "raw_env": round(raw), "openspiel": round(spiel),
                           "wall": {"env": round(wrapped_wall), "raw_env": round(raw_wall), "openspiel": round(spiel_wall)}}
        print(f"| {preset} | {wrapped:,.0f} ({wrapped_wall:,.0f}) | {raw:,.0f} ({raw_wall:,.0f}) | "
              f"{spiel:,.0f} ({spiel_wall:,.0f}) | {games} |", flush=True)
    if args.episodes <= 0:
        (OUT / "research.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        return 0
    result = export(args.episodes, OUT / "research-episodes.gwy")
    figures["export"] = result
    print(f"\n{result['episodes']:,} episodes written in {result['play_and_write_s']} s; "
          f"`getaway-ref check` (exit {result['exit_code']}, {result['check_s']} s): {json.dumps(result['summary'])}, "
          f"{result['finished']:,} finished")
    (OUT / "research.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
