"""The benchmark: generate corpora with `getaway-ref simulate`, then measure.

    python bench/bench.py            # the full run (10,000 + mixed games, 100,000-game memory test)
    python bench/bench.py --quick    # a small run to see that it works

What it measures, on each corpus:
- the Lark lexer alone over the same text (the ceiling any Lark parser can reach);
- parse alone (the reader, records built, no judging);
- full `getaway-ref check` as a user runs it, with --jobs 1 and --jobs 2, in a fresh process:
  wall time, plays/s, games/s, MB/s and peak memory (the child's max RSS);
- the same check --jobs 1 with the reader's fast lane off (GETAWAY_LARK_ONLY=1: Lark lexes and
  parses every line), to show what the lane buys (referee/_lane.py);
- flat memory: peak RSS of every command (check, export, fmt, tally, show, legal) on a
  1,000-game file and on a 100,000-game file (generated once, reused);
- check --jobs 2 and check --dask on a local Dask cluster against --jobs 1.
Each time is the best of three runs (the machine may be shared).
Figures go to stdout as a table and to bench/out/results.json; the README quotes them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"


def simulate(path: Path, players: int, games: int, seed: int, rules: str = "pagat") -> None:
    if path.exists():
        return
    tmp = path.with_suffix(".tmp")
    if tmp.exists():
        tmp.unlink()
    subprocess.run([sys.executable, "-m", "referee", "simulate", "--players", str(players), "--games", str(games),
                    "--seed", str(seed), "--rules", rules, "-o", str(tmp)], check=True, cwd=ROOT,
                   stderr=subprocess.DEVNULL)
    tmp.rename(path)


def mixed(path: Path, games_per_count: int, seed: int) -> None:
    """A corpus of 3- to 8-player games, one file."""
    if path.exists():
        return
    parts = []
    for n in range(3, 9):
        p = OUT / f"mixed-{n}.gwy"
        simulate(p, n, games_per_count, seed + n)
        text = p.read_text(encoding="utf-8")
        if parts:
            text = text[text.index("%game"):]
        parts.append(text)
        p.unlink()
    path.write_text("\n".join(parts), encoding="utf-8")


def repeat_to(src: Path, dst: Path, games: int) -> None:
    """A file of exactly ``games`` games, taken from a corpus in order and over again
    (for the memory test)."""
    if dst.exists():
        return
    text = src.read_text(encoding="utf-8")
    body = text[text.index("%game"):]
    pieces = ["%game" + p for p in body.split("%game")[1:]]
    with open(dst, "w", encoding="utf-8") as f:
        f.write("%gwy 1\n\n")
        for n in range(games):
            piece = pieces[n % len(pieces)]
            f.write(piece if piece.endswith("\n") else piece + "\n")


# Runs `python -m referee ...` and, at exit, writes the process's own peak resident memory
# (VmHWM, which starts afresh at exec; rusage's maxrss would also count the bench process
# the child was forked from) to the file named by GETAWAY_HWM.
HWM = """
import atexit, os, runpy, sys
def _hwm():
    for line in open('/proc/self/status'):
        if line.startswith('VmHWM:'):
            open(os.environ['GETAWAY_HWM'], 'w').write(line.split()[1])
atexit.register(_hwm)
sys.argv = ['getaway-ref'] + sys.argv[1:]
runpy.run_module('referee', run_name='__main__')
"""


def run_child(args: list[str], extra_env: dict | None = None) -> tuple[float, int, int]:
    """Run `python -m referee ARGS`; return (seconds, exit code, peak RSS in KiB)."""
    import tempfile

    assert args[:3] == [sys.executable, "-m", "referee"]
    with tempfile.NamedTemporaryFile("r", suffix=".hwm") as hwm:
        env = dict(os.environ, GETAWAY_HWM=hwm.name, **(extra_env or {}))
        t = time.perf_counter()
        p = subprocess.run([sys.executable, "-c", HWM, *args[3:]], cwd=ROOT, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        dt = time.perf_counter() - t
        raw = open(hwm.name).read().strip()
    return dt, p.returncode, int(raw) if raw else 0


def in_child(code: str, path: Path) -> tuple[float, int]:
    """Time a snippet in a fresh interpreter; the snippet prints its own seconds."""
    out = subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT, capture_output=True, text=True, check=True)
    secs, count = out.stdout.split()
    return float(secs), int(count)


LEX = """
import sys, time
from referee.notation.reader import Reader
text = open(sys.argv[1], encoding='utf-8').read()
Reader('x')
lark = Reader._parser
t = time.perf_counter()
n = 0
for _ in lark.lex(text):
    n += 1
print(time.perf_counter() - t, n)
"""

PARSE = """
import sys, time
import referee
t = time.perf_counter()
plays = 0
for g in referee.read(sys.argv[1]):
    plays += g.plays
print(time.perf_counter() - t, plays)
"""


REPEAT = 3  # each figure is the best of this many runs: shared machines are noisy


def best(fn):
    runs = [fn() for _ in range(REPEAT)]
    return min(runs, key=lambda r: r[0])


def measure(name: str, path: Path, results: dict) -> None:
    size = path.stat().st_size
    games = path.read_text(encoding="utf-8").count("%game")
    lex_s, tokens = best(lambda: in_child(LEX, path))
    parse_s, plays = best(lambda: in_child(PARSE, path))
    row = {"file": str(path.relative_to(ROOT)), "games": games, "plays": plays, "MB": round(size / 1e6, 2),
           "tokens": tokens, "lex_s": round(lex_s, 3), "parse_s": round(parse_s, 3)}
    for jobs in (1, 2):
        dt, code, rss = best(lambda jobs=jobs: run_child([sys.executable, "-m", "referee", "check", "-q", "--jobs",
                                                          str(jobs), str(path)]))
        row[f"check_j{jobs}_s"] = round(dt, 3)
        row[f"check_j{jobs}_exit"] = code
        row[f"check_j{jobs}_rss_MiB"] = round(rss / 1024, 1)
        row[f"check_j{jobs}_plays_per_s"] = round(plays / dt)
        row[f"check_j{jobs}_games_per_s"] = round(games / dt, 1)
        row[f"check_j{jobs}_MB_per_s"] = round(size / 1e6 / dt, 2)
    dt, code, _ = best(lambda: run_child([sys.executable, "-m", "referee", "check", "-q", "--jobs", "1", str(path)],
                                         {"GETAWAY_LARK_ONLY": "1"}))
    row["check_j1_lark_only_s"] = round(dt, 3)
    row["check_j1_lark_only_exit"] = code
    row["check_j1_lark_only_vs_lexer"] = round(lex_s / dt, 3)
    row["parse_plays_per_s"] = round(plays / parse_s)
    row["parse_MB_per_s"] = round(size / 1e6 / parse_s, 2)
    row["lex_MB_per_s"] = round(size / 1e6 / lex_s, 2)
    row["check_j1_vs_lexer"] = round(lex_s / row["check_j1_s"], 3)
    row["parse_vs_lexer"] = round(lex_s / parse_s, 3)
    row["jobs2_speedup"] = round(row["check_j1_s"] / row["check_j2_s"], 2)
    results[name] = row
    print(f"\n{name}: {games} games, {plays} plays, {row['MB']} MB")
    print(f"  lexer alone     {lex_s:8.2f} s  {row['lex_MB_per_s']:6.2f} MB/s  ({tokens} tokens)")
    print(f"  parse alone     {parse_s:8.2f} s  {row['parse_MB_per_s']:6.2f} MB/s  {row['parse_plays_per_s']:>8} plays/s"
          f"  = {row['parse_vs_lexer']:.0%} of the lexer")
    for jobs in (1, 2):
        print(f"  check --jobs {jobs}  {row[f'check_j{jobs}_s']:8.2f} s  {row[f'check_j{jobs}_MB_per_s']:6.2f} MB/s"
              f"  {row[f'check_j{jobs}_plays_per_s']:>8} plays/s  {row[f'check_j{jobs}_games_per_s']:>8} games/s"
              f"  peak {row[f'check_j{jobs}_rss_MiB']} MiB  (exit {row[f'check_j{jobs}_exit']})")
    print(f"  check --jobs 1, Lark only {row['check_j1_lark_only_s']:8.2f} s"
          f"  = {row['check_j1_lark_only_vs_lexer']:.0%} of the lexer (the fast lane off)")
    print(f"  check --jobs 1 = {row['check_j1_vs_lexer']:.0%} of the lexer-alone throughput;"
          f" --jobs 2 is {row['jobs2_speedup']}x --jobs 1")


# Every command's peak memory on a small and a large archive: each streams game by game, so
# the large one should cost no more than 1.3 times the small one.
COMMANDS = {
    "check": ["check", "-q"],
    "export": ["export"],
    "export jsonl": ["export", "--format", "jsonl"],
    "fmt": ["fmt"],
    "tally": ["tally"],
    "show": ["show"],
    "legal": ["legal"],
}


def memory(small: Path, big: Path, parallel: int = 3) -> dict:
    """Peak memory of each command on both files. The large runs go ``parallel`` at a time:
    peak memory is each process's own, and a shared machine gets through them sooner."""
    from concurrent.futures import ThreadPoolExecutor

    out: dict = {"small_games": _games(small), "big_games": _games(big), "commands": {}}
    print(f"\npeak memory, {out['small_games']:,} games ({small.stat().st_size / 1e6:.1f} MB) and "
          f"{out['big_games']:,} games ({big.stat().st_size / 1e6:.1f} MB):", flush=True)
    smalls = {name: run_child([sys.executable, "-m", "referee", *argv, str(small)]) for name, argv in COMMANDS.items()}
    with ThreadPoolExecutor(parallel) as pool:
        bigs = dict(zip(COMMANDS, pool.map(lambda argv: run_child([sys.executable, "-m", "referee", *argv, str(big)]),
                                           COMMANDS.values())))
    for name in COMMANDS:
        _, code_s, kib_s = smalls[name]
        dt, code_b, kib_b = bigs[name]
        row = {"small_MiB": round(kib_s / 1024, 1), "big_MiB": round(kib_b / 1024, 1),
               "ratio": round(kib_b / kib_s, 3) if kib_s else None, "big_s": round(dt, 1),
               "exit": [code_s, code_b]}
        out["commands"][name] = row
        print(f"  {name:13} {row['small_MiB']:7.1f} MiB  {row['big_MiB']:7.1f} MiB  ratio {row['ratio']}"
              f"  ({row['big_s']} s on the large one, {parallel} at a time; exit {code_s}, {code_b})")
    return out


def _games(path: Path) -> int:
    from referee.notation.seek import game_starts

    with open(path, "rb") as f:
        return sum(1 for _ in game_starts(f))


def dask_vs_jobs(path: Path, rounds: int = REPEAT) -> dict:
    """check --dask on a local cluster (2 worker processes of one thread) against --jobs 1
    and --jobs 2; skipped with a note when the dask extra is missing."""
    once = lambda argv: run_child([sys.executable, "-m", "referee", "check", "-q", *argv, str(path)])  # noqa: E731
    pick = best if rounds > 1 else (lambda fn: fn())
    j1, _, _ = pick(lambda: once(["--jobs", "1"]))
    j2, _, _ = pick(lambda: once(["--jobs", "2"]))
    row: dict = {"jobs1_s": round(j1, 2), "jobs2_s": round(j2, 2), "jobs2_speedup": round(j1 / j2, 2)}
    print(f"\n{path.name}: check --jobs 1 {j1:.2f} s, --jobs 2 {j2:.2f} s ({j1 / j2:.2f}x)")
    try:
        from distributed import LocalCluster
    except ImportError:
        print("  --dask: skipped, the dask extra is not installed (pip install '.[dask]')")
        row["dask"] = "skipped: the dask extra is not installed"
        return row
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        dk, code, _ = pick(lambda: once(["--dask", cluster.scheduler_address]))
    row.update({"dask_s": round(dk, 2), "dask_exit": code, "dask_vs_jobs1": round(j1 / dk, 2)})
    print(f"  check --dask (local cluster, 2 workers) {dk:.2f} s = {j1 / dk:.2f}x --jobs 1 (exit {code})")
    return row


def record_memory(mem: dict, small: Path, big: Path, command: str) -> None:
    """The memory table of docs/performance.md (bench/figures.py)."""
    import figures  # bench/figures.py, beside this script

    figures.record(
        "memory", title="Memory", command=command,
        columns=["command", f"peak resident memory, {mem['small_games']:,} games ({small.stat().st_size / 1e6:.1f} MB)",
                 f"{mem['big_games']:,} games ({big.stat().st_size / 1e6:.0f} MB)", "ratio"],
        rows=[[f"`{name}`", f"{r['small_MiB']} MiB", f"{r['big_MiB']} MiB", f"{r['ratio']:.2f}"]
              for name, r in mem["commands"].items()],
        note="Every command streams: memory holds a game (or a slice), whatever the file's size.")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small corpora, no 100,000-game file")
    ap.add_argument("--memory", action="store_true", help="only the memory and --dask figures")
    ap.add_argument("--rounds", type=int, default=REPEAT, help="runs per --jobs/--dask figure (the best is kept)")
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    n4 = 1000 if args.quick else 10000
    per = 100 if args.quick else 500
    four = OUT / f"four-{n4}.gwy"
    mix = OUT / f"mixed-{per * 6}.gwy"
    simulate(four, 4, n4, seed=1)
    mixed(mix, per, seed=100)
    results: dict = {"machine": {"platform": platform.platform(), "python": platform.python_version(),
                                 "cpus": os.cpu_count()}}
    if not args.memory:
        measure("4 players", four, results)
        measure("3-8 players", mix, results)
    small = OUT / "memory-1000.gwy"
    big_n = 10000 if args.quick else 100000
    big = OUT / f"memory-{big_n}.gwy"
    repeat_to(four, small, 1000)
    repeat_to(four, big, big_n)  # generated once, reused by later runs
    results["memory"] = memory(small, big)
    results["dask"] = dask_vs_jobs(four, args.rounds)
    dt, _, _ = best(lambda: run_child([sys.executable, "-m", "referee", "check", "records/pagat-example.gwy"]))
    results["startup_small_record_s"] = round(dt, 3)
    print(f"check of one small record: {dt:.2f} s from process start to exit")
    results["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    (OUT / "results.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    if not args.quick:
        record_memory(results["memory"], small, big, "python bench/bench.py" + (" --memory" if args.memory else ""))
    # Issue 16's figures: the ratio to python-chess, start-up over bare Python, --jobs.
    import speed

    print()
    speed.main(["--quick"] if args.quick else [])


if __name__ == "__main__":
    main()
