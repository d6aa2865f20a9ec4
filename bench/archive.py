"""The archive's benchmark (issue 42): the Parquet export against check, and the documented
queries of docs/archives.md over a large archive.

    python bench/archive.py                   # 100,000 simulated games, the tables repeated to 1,000,000
    python bench/archive.py --games 2000 --repeat 5   # a small run to see that it works

What it measures, as a user runs the commands (a fresh process each, wall time best of three,
peak memory of the child):
- `check --jobs 1`, and `export --format parquet` with `--jobs 1` and `--jobs 2`, on the
  simulated record (N games, 4 players, a table mistake in 1 % of plays);
- every SQL block of docs/archives.md ("Questions a club asks") through `getaway-ref query
  DIR SQL --format csv`, start-up included, over the export's tables repeated R times (game
  ids shifted: R x N games; simulating 10^6 games takes hours on two cores, its tables do not).
Figures go to stdout as a Markdown table and to bench/out/archive.json; docs/archives.md
quotes them with the date.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
TABLES = ("games", "seats", "tricks", "plays", "diagnostics")


def timed(args: list[str], runs: int = 3) -> tuple[float, float]:
    """Best wall time of ``runs`` runs of ``getaway-ref ARGS`` (output thrown away) and the
    largest peak RSS in MB."""
    best, peak = float("inf"), 0.0
    for _ in range(runs):
        start = time.perf_counter()
        p = subprocess.Popen([sys.executable, "-m", "referee", *args], cwd=ROOT, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - start
        p.returncode = os.waitstatus_to_exitcode(status)
        err = p.stderr.read().decode() if p.stderr else ""
        if p.returncode not in (0, 1):
            raise SystemExit(f"getaway-ref {' '.join(args)}: exit {p.returncode}: {err}")
        best = min(best, wall)
        peak = max(peak, usage.ru_maxrss / 1024)
    return best, peak


def simulate(path: Path, games: int) -> None:
    if path.exists():
        return
    tmp = path.with_suffix(".tmp")
    subprocess.run([sys.executable, "-m", "referee", "simulate", "--players", "4", "--games", str(games), "--seed", "42",
                    "--mistakes", "0.01", "-o", str(tmp), "--force"], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    tmp.rename(path)


def repeat_tables(src: Path, dst: Path, times: int, games: int) -> None:
    """The tables of ``src`` ``times`` over, each copy's game ids shifted past the last."""
    import duckdb

    if dst.exists():
        shutil.rmtree(dst)
    dst.mkdir(parents=True)
    con = duckdb.connect()
    for t in TABLES:
        con.execute(f"COPY (SELECT * REPLACE (game_id + k * {games} AS game_id) FROM read_parquet('{src / t}.parquet'), "
                    f"(SELECT range AS k FROM range({times})) ORDER BY k, game_id) TO '{dst / t}.parquet' "
                    "(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000)")
    manifest = json.loads((src / "archive.json").read_text(encoding="utf-8"))
    manifest["rows"] = {t: con.execute(f"SELECT count(*) FROM '{dst / t}.parquet'").fetchone()[0] for t in TABLES}
    (dst / "archive.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def documented_queries() -> list[str]:
    page = (ROOT / "docs" / "archives.md").read_text(encoding="utf-8")
    return [block.split("```", 1)[0].strip() for block in page.split("```sql\n")[1:]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000, help="games to simulate")
    ap.add_argument("--repeat", type=int, default=10, help="the tables repeated this many times for the queries")
    ap.add_argument("--queries", action="store_true", help="only the queries, over the tables of an earlier run")
    args = ap.parse_args()
    if args.queries:
        results = json.loads((OUT / "archive.json").read_text(encoding="utf-8"))
        results["load_before"] = [round(x, 1) for x in os.getloadavg()]
        queries(OUT / f"archive-{args.games}-tables", args, results)
        return
    OUT.mkdir(parents=True, exist_ok=True)
    record = OUT / f"archive-{args.games}.gwy"
    t0 = time.perf_counter()
    simulate(record, args.games)
    print(f"record: {record} ({record.stat().st_size / 1e6:.0f} MB; simulated in {time.perf_counter() - t0:.0f} s or earlier)")
    tables = OUT / f"archive-{args.games}-tables"
    results: dict[str, object] = {"date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
                                  "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
                                  "games": args.games, "repeat": args.repeat,
                                  # a shared machine's load, which the times include
                                  "load_before": [round(x, 1) for x in os.getloadavg()]}
    check = timed(["check", "--jobs", "1", str(record)], runs=1)
    export = timed(["export", "--format", "parquet", "--jobs", "1", str(record), "-o", str(tables)], runs=1)
    export2 = timed(["export", "--format", "parquet", "--jobs", "2", str(record), "-o", str(tables)], runs=1)
    results["check_s"], results["check_mb"] = round(check[0], 1), round(check[1])
    results["export_s"], results["export_mb"] = round(export[0], 1), round(export[1])
    results["export_jobs2_s"], results["export_jobs2_mb"] = round(export2[0], 1), round(export2[1])
    size = sum(p.stat().st_size for p in tables.iterdir()) / 1e6
    results["tables_mb"] = round(size, 1)
    print(f"check --jobs 1: {check[0]:.1f} s, {check[1]:.0f} MB; export --format parquet --jobs 1: {export[0]:.1f} s, "
          f"{export[1]:.0f} MB; --jobs 2: {export2[0]:.1f} s, {export2[1]:.0f} MB (the main process); "
          f"the tables {size:.1f} MB (the record {record.stat().st_size / 1e6:.1f} MB)")
    queries(tables, args, results)


def queries(tables: Path, args: argparse.Namespace, results: dict[str, object]) -> None:
    big = OUT / f"archive-{args.games * args.repeat}-tables"
    # in a process of its own: a child forked from a parent that DuckDB made large would
    # count the parent's memory in its own peak
    subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT / 'bench')!r}); import archive; "
                    f"archive.repeat_tables(archive.Path({str(tables)!r}), archive.Path({str(big)!r}), {args.repeat}, {args.games})"],
                   check=True, cwd=ROOT)
    print(f"\n{args.games * args.repeat:,} games ({args.repeat} x the export): getaway-ref query DIR SQL --format csv\n")
    print("| query | seconds | peak MB |\n| --- | --- | --- |")
    rows = []
    for sql in documented_queries():
        wall, peak = timed(["query", str(big), sql, "--format", "csv"])
        rows.append({"sql": sql, "s": round(wall, 2), "mb": round(peak)})
        print(f"| `{' '.join(sql.split())[:90]}` | {wall:.2f} | {peak:.0f} |")
    results["queries"] = rows
    results["date"] = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    results["load_after"] = [round(x, 1) for x in os.getloadavg()]
    print(f"\nload average before {results['load_before']}, after {results['load_after']}")
    (OUT / "archive.json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
