"""The archive's benchmark (issue 42): the Parquet export against check, and the documented
queries of docs/archives.md, on 10^6 games.

    python bench/archive.py                   # 100,000 simulated games, repeated to 1,000,000
    python bench/archive.py --games 2000 --repeat 5   # a small run to see that it works
    python bench/archive.py --queries         # only the queries, over the tables of an earlier run

What it measures, as a user runs the commands (a fresh process each, timed once: wall time,
CPU time (user + system, the workers' included) and the peak memory of the largest process):
- `simulate` makes N games (4 players, a table mistake in 1 % of plays); the record is then
  written R times over into one file (the games repeated, not re-simulated: simulating 10^6
  games takes hours on two cores), R x N games in one archive;
- `check --jobs 1`, and `export --format parquet` with `--jobs 1` and `--jobs 2`, on that file;
- every SQL block of docs/archives.md ("Questions a club asks") through `getaway-ref query
  DIR SQL --format csv`, start-up included, best of three, over the tables that export wrote.
Figures go to stdout as Markdown and to bench/out/archive.json; docs/archives.md quotes them
with the date and the machine's load.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"


# Each command is started by a small Python process of its own, which waits for it and says
# what it cost on its last line of stderr: a process's peak memory (ru_maxrss) counts the
# memory of the process it was forked from, and this benchmark's own process may hold the
# record it has just written (it gave every command a floor of 275 MB once).
_MEASURE = """import os, subprocess, sys, time
start = time.perf_counter()
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, use = os.wait4(p.pid, 0)
print(time.perf_counter() - start, use.ru_utime + use.ru_stime, use.ru_maxrss, os.waitstatus_to_exitcode(status),
      file=sys.stderr)
"""


def timed(args: list[str], runs: int = 3) -> tuple[float, float, float]:
    """``getaway-ref ARGS`` run ``runs`` times (output thrown away): the best wall time, the
    CPU time of that run (user + system, its waited-for workers included) and the largest
    peak RSS in MB (of the largest single process)."""
    best, cpu, peak = float("inf"), 0.0, 0.0
    for _ in range(runs):
        p = subprocess.run([sys.executable, "-c", _MEASURE, sys.executable, "-m", "referee", *args], cwd=ROOT,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        *said, last = p.stderr.rstrip("\n").split("\n")
        wall_s, cpu_s, rss_kb, code = last.split()
        if int(code) not in (0, 1):
            raise SystemExit(f"getaway-ref {' '.join(args)}: exit {code}: {chr(10).join(said)}")
        wall = float(wall_s)
        if wall < best:
            best, cpu = wall, float(cpu_s)
        peak = max(peak, int(rss_kb) / 1024)
    return best, cpu, peak


def simulate(path: Path, games: int) -> None:
    if path.exists():
        return
    tmp = path.with_suffix(".tmp")
    subprocess.run([sys.executable, "-m", "referee", "simulate", "--players", "4", "--games", str(games), "--seed", "42",
                    "--mistakes", "0.01", "-o", str(tmp), "--force"], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    tmp.rename(path)


def repeat_record(src: Path, dst: Path, times: int) -> None:
    """``src``'s games ``times`` over in one record: its prelude (the %gwy line and the
    comment) once, then the games from the first %game line, again and again."""
    if dst.exists():
        return
    text = src.read_bytes()
    at = text.index(b"%game")
    tmp = dst.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        f.write(text[:at])
        body = text[at:] if text.endswith(b"\n") else text[at:] + b"\n"
        for _ in range(times):
            f.write(body)
    tmp.rename(dst)


def documented_queries() -> list[str]:
    page = (ROOT / "docs" / "archives.md").read_text(encoding="utf-8")
    return [block.split("```", 1)[0].strip() for block in page.split("```sql\n")[1:]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000, help="games to simulate")
    ap.add_argument("--repeat", type=int, default=10, help="the simulated record written this many times into one file")
    ap.add_argument("--queries", action="store_true", help="only the queries, over the tables of an earlier run")
    ap.add_argument("--timed", default="check,export,export2",
                    help="which commands to time on the large record (a shared machine may not have the hours for all)")
    args = ap.parse_args()
    total = args.games * args.repeat
    tables = OUT / f"archive-{total}-tables"
    if args.queries:
        results = json.loads((OUT / "archive.json").read_text(encoding="utf-8"))
        results["load_before"] = [round(x, 1) for x in os.getloadavg()]
        queries(tables, total, results)
        return
    OUT.mkdir(parents=True, exist_ok=True)
    record = OUT / f"archive-{args.games}.gwy"
    t0 = time.perf_counter()
    simulate(record, args.games)
    big = OUT / f"archive-{args.games}x{args.repeat}.gwy"
    repeat_record(record, big, args.repeat)
    print(f"record: {big} ({big.stat().st_size / 1e6:.0f} MB, {total:,} games: {record.name}'s {args.games:,} "
          f"{args.repeat} times; made in {time.perf_counter() - t0:.0f} s or earlier)")
    results: dict[str, object] = {"date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
                                  "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
                                  "games": args.games, "repeat": args.repeat, "record_mb": round(big.stat().st_size / 1e6),
                                  # a shared machine's load, which the times include
                                  "load_before": [round(x, 1) for x in os.getloadavg()]}
    print(f"\n{total:,} games | wall s | CPU s | peak MB\n--- | --- | --- | ---")
    chosen = args.timed.split(",")
    for key, cmd in (("check", ["check", "-q", "--jobs", "1", str(big)]),
                     ("export", ["export", "--format", "parquet", "--jobs", "1", str(big), "-o", str(tables)]),
                     ("export2", ["export", "--format", "parquet", "--jobs", "2", str(big), "-o", str(tables)])):
        if key not in chosen:
            continue
        wall, cpu, peak = timed(cmd, runs=1)
        results[key] = {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "peak_mb": round(peak),
                        "load_after": [round(x, 1) for x in os.getloadavg()]}
        print(f"`getaway-ref {' '.join(cmd[:-3] if key != 'check' else cmd[:-1])}` | {wall:.1f} | {cpu:.1f} | {peak:.0f}")
    size = sum(p.stat().st_size for p in tables.iterdir()) / 1e6
    results["tables_mb"] = round(size, 1)
    results["rows"] = json.loads((tables / "archive.json").read_text(encoding="utf-8"))["rows"]
    print(f"the tables {size:.1f} MB (the record {big.stat().st_size / 1e6:.0f} MB); rows {results['rows']}")
    (OUT / "archive.json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    queries(tables, total, results)


def queries(tables: Path, total: int, results: dict[str, object]) -> None:
    print(f"\n{total:,} games: getaway-ref query DIR SQL --format csv\n")
    print("| query | seconds | peak MB |\n| --- | --- | --- |")
    rows = []
    for sql in documented_queries():
        wall, _, peak = timed(["query", str(tables), sql, "--format", "csv"])
        rows.append({"sql": sql, "s": round(wall, 2), "mb": round(peak)})
        print(f"| `{' '.join(sql.split())[:90]}` | {wall:.2f} | {peak:.0f} |")
    results["queries"] = rows
    results["date"] = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    results["load_after"] = [round(x, 1) for x in os.getloadavg()]
    print(f"\nload average before {results['load_before']}, after {results['load_after']}")
    (OUT / "archive.json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
