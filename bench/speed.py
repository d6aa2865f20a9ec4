"""Issue 16's figures: check against python-chess (and pgn-extract), start-up, --jobs.

    python bench/speed.py [--quick] [--games N] [--rounds R]

- **python-chess ratio**: our ``check --jobs 1`` (plays/s, in a fresh process as a user runs
  it) against python-chess's ``chess.pgn.read_game`` (moves/s: PGN parse plus full move
  validation, pure Python) over a PGN corpus this script makes itself from random legal
  games (python-chess's move generator, seeded). The two are timed in alternation, R rounds,
  and compared by their medians: only ratios taken in the same run mean anything on a shared
  machine. python-chess is the ``bench`` extra: ``pip install -e '.[bench]'``.
- **pgn-extract** (C; ``apt-get install pgn-extract``), when installed, over the same PGN.
- **start-up**: ``getaway-ref check records/pagat-example.gwy`` over ``python -c pass``, the
  median of R (at least 7) runs of each, alternated.
- **--jobs**: ``check --jobs 1``, ``--jobs 2`` and ``--jobs auto`` on the simulated corpus.
Figures go to stdout and to bench/out/speed.json.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
SMALL_RECORD = ROOT / "records" / "pagat-example.gwy"


# Children run as a user's install does: with compiled bytecode. A development shell may set
# PYTHONDONTWRITEBYTECODE, and then every start compiles the package from source again (tens
# of milliseconds that no installed getaway-ref pays).
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def wall(cmd: list[str], env: dict[str, str] | None = None) -> float:
    """Seconds from process start to exit; the command must succeed (exit 0)."""
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, env=env or CHILD_ENV)
    dt = time.perf_counter() - t
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {r.returncode}: {r.stderr.decode(errors='replace')[-500:]}")
    return dt


def alternate(rounds: int, **runs: Callable[[], float]) -> dict[str, float]:
    """The median time of each run, the runs taken in turn so that load falls on all alike."""
    times: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(rounds):
        for k, f in runs.items():
            times[k].append(f())
    return {k: statistics.median(v) for k, v in times.items()}


def chess_corpus(path: Path, games: int, seed: int) -> int:
    """Random legal games as PGN (python-chess's move generator, seeded); returns the moves."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    moves = 0
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(games):
            board = chess.Board()
            while not board.is_game_over() and board.ply() < 160:
                board.push(rng.choice(list(board.legal_moves)))
            moves += board.ply()
            f.write(str(chess.pgn.Game.from_board(board)) + "\n\n")
    return moves


def chess_read(path: Path) -> float:
    """Seconds python-chess's read_game takes over the whole file, in this process."""
    import chess.pgn

    text = path.read_text(encoding="utf-8")
    t = time.perf_counter()
    f = io.StringIO(text)
    while chess.pgn.read_game(f) is not None:
        pass
    return time.perf_counter() - t


def simulate(path: Path, players: int, games: int, seed: int) -> int:
    """A simulated archive (cached in bench/out); returns its plays."""
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        subprocess.run([sys.executable, "-m", "referee", "simulate", "--players", str(players), "--games", str(games),
                        "--seed", str(seed), "-o", str(tmp)], check=True, cwd=ROOT, stderr=subprocess.DEVNULL)
        tmp.rename(path)
    out = subprocess.run([sys.executable, "-m", "referee", "check", "-q", "--jobs", "1", str(path)],
                         capture_output=True, text=True, cwd=ROOT).stdout
    # "checked 1 file, N games, P plays: ..."
    return int(out.rsplit(",", 1)[1].split()[0])


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="a small run to see that it works")
    ap.add_argument("--games", type=int, default=None, help="simulated 4-player games (default 3000, quick 300)")
    ap.add_argument("--rounds", type=int, default=None, help="rounds of each timing (default 5, quick 3)")
    args = ap.parse_args(argv)
    games = args.games or (300 if args.quick else 3000)
    rounds = args.rounds or (3 if args.quick else 5)
    OUT.mkdir(parents=True, exist_ok=True)
    py = sys.executable
    results: dict[str, Any] = {"date": time.strftime("%Y-%m-%d"), "python": sys.version.split()[0], "rounds": rounds}

    # ---- check against python-chess, same run --------------------------------------------------
    sim = OUT / f"speed-4p-{games}.gwy"
    plays = simulate(sim, 4, games, seed=1)

    def check(jobs: str = "1") -> float:
        return wall([py, "-m", "referee", "check", "-q", "--jobs", jobs, str(sim)])

    try:
        import chess  # noqa: F401 - the bench extra
    except ImportError:
        print("python-chess is not installed: pip install -e '.[bench]' (skipping the ratio)")
        med = alternate(rounds, check=check)
    else:
        pgn = OUT / f"speed-chess-{games // 3}.pgn"
        moves = chess_corpus(pgn, max(1, games // 3), seed=1)
        runs: dict[str, Callable[[], float]] = {"check": check, "chess": lambda: chess_read(pgn)}
        extract = shutil.which("pgn-extract") or shutil.which("pgn-extract", path="/usr/games")  # Debian's place
        if extract:
            runs["pgn_extract"] = lambda: wall([extract, "-s", "--quiet", "-o", "/dev/null", str(pgn)])
        med = alternate(rounds, **runs)
        results["chess"] = {"games": max(1, games // 3), "moves": moves, "moves_per_s": round(moves / med["chess"])}
        if extract:
            results["pgn_extract"] = {"moves_per_s": round(moves / med["pgn_extract"])}
    results["check"] = {"games": games, "plays": plays, "bytes": sim.stat().st_size, "jobs1_s": round(med["check"], 3),
                        "plays_per_s": round(plays / med["check"])}
    print(f"check --jobs 1: {games} games, {plays} plays in {med['check']:.2f} s = {plays / med['check']:,.0f} plays/s"
          " (a fresh process, start-up included)")
    if "chess" in results:
        ratio = (plays / med["check"]) / results["chess"]["moves_per_s"]
        results["chess_ratio"] = round(ratio, 2)
        print(f"python-chess read_game: {results['chess']['moves']} moves in {med['chess']:.2f} s = "
              f"{results['chess']['moves_per_s']:,} moves/s -> check is {ratio:.2f} x python-chess")
    if "pgn_extract" in results:
        r = results["pgn_extract"]["moves_per_s"] / (plays / med["check"])
        results["pgn_extract_vs_check"] = round(r, 1)
        print(f"pgn-extract: {results['pgn_extract']['moves_per_s']:,} moves/s = {r:.1f} x check")
    elif "chess" in results:
        print("pgn-extract is not installed (apt-get install pgn-extract): skipped")

    # ---- start-up over bare Python ---------------------------------------------------------------------
    wall([py, "-m", "referee", "check", str(SMALL_RECORD)])  # writes the bytecode, as an install does
    st = alternate(max(7, rounds), bare=lambda: wall([py, "-c", "pass"]),
                   check=lambda: wall([py, "-m", "referee", "check", str(SMALL_RECORD)]))
    over = st["check"] - st["bare"]
    results["startup"] = {"bare_ms": round(st["bare"] * 1e3), "check_ms": round(st["check"] * 1e3),
                          "over_bare_ms": round(over * 1e3)}
    print(f"start-up: check of {SMALL_RECORD.name} {st['check'] * 1e3:.0f} ms, python -c pass {st['bare'] * 1e3:.0f} ms:"
          f" {over * 1e3:.0f} ms over bare Python (median of {max(7, rounds)})")

    # ---- --jobs ------------------------------------------------------------------------------------------
    jb = alternate(rounds, j1=lambda: check("1"), j2=lambda: check("2"), auto=lambda: check("auto"))
    results["jobs"] = {"jobs1_s": round(jb["j1"], 3), "jobs2_s": round(jb["j2"], 3), "auto_s": round(jb["auto"], 3),
                       "speedup_2": round(jb["j1"] / jb["j2"], 2), "speedup_auto": round(jb["j1"] / jb["auto"], 2)}
    print(f"--jobs on {sim.stat().st_size / 1e6:.1f} MB: 1 {jb['j1']:.2f} s, 2 {jb['j2']:.2f} s "
          f"({jb['j1'] / jb['j2']:.2f} x), auto {jb['auto']:.2f} s ({jb['j1'] / jb['auto']:.2f} x)")
    (OUT / "speed.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return results


if __name__ == "__main__":
    main()
