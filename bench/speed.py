"""Issue 16's figures: check against python-chess (and pgn-extract), start-up, --jobs.

    python bench/speed.py [--quick] [--games N] [--dask-games N] [--rounds R] [--compiled]

- **python-chess ratio**: our ``check --jobs 1`` (plays/s, in a fresh process as a user runs
  it) against python-chess's ``chess.pgn.read_game`` (moves/s: PGN parse plus full move
  validation, pure Python) over a PGN corpus this script makes itself from random legal
  games (python-chess's move generator, seeded). The two are timed in alternation, R rounds,
  and compared by their medians: only ratios taken in the same run mean anything on a shared
  machine. python-chess is the ``bench`` extra: ``pip install -e '.[bench]'``.
- **pgn-extract** (C; ``apt-get install pgn-extract``), when installed, over the same PGN.
- **start-up**: ``getaway-ref check records/pagat-example.gwy`` over ``python -c pass``, the
  median of R (at least 7) runs of each, alternated.
- **--jobs curve**: ``check --jobs N`` for N = 1, 2, 4, ... up to the cores this process may
  use (and that number itself), alternated: the time, the speed-up over ``--jobs 1`` and the
  efficiency (speed-up / N). CPU seconds (user + system, the workers included) are given
  beside the wall time: on a busy machine they say what the work costs when wall time no
  longer can.
- **--dask against --jobs**: a local cluster started as a club would start one on several
  machines, ``dask scheduler`` and ``dask worker --nworkers N --nthreads 1`` as processes of
  their own on 127.0.0.1, N the cores available; ``check --dask`` on it against
  ``check --jobs N``, alternated, on a larger archive (``--dask-games``, 100,000 games, the
  size issue 25 measured: a cluster is for archives of that size and more, and its fixed
  cost, the client's import of distributed, about 0.4 s, would otherwise be much of the
  difference; needs the dask extra; skipped without it).
- **--compiled**: the modules a standard wheel carries compiled by mypyc (pyproject.toml's
  ``[tool.hatch.build.targets.wheel.hooks.custom]`` list, hatch_build.py) compiled in a copy of the package,
  bench/out/compiled/ (rebuilt when those sources change; needs mypy, of the ``test`` extra,
  and a C compiler), and its ``check --jobs 1`` timed in the same rounds as the rest.
Figures go to stdout and to bench/out/speed.json, with the date, the machine and its load.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
SMALL_RECORD = ROOT / "records" / "pagat-example.gwy"


# Children run as a user's install does: with compiled bytecode. A development shell may set
# PYTHONDONTWRITEBYTECODE, and then every start compiles the package from source again (tens
# of milliseconds that no installed getaway-ref pays).
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


CPU: dict[str, list[float]] = {}  # CPU seconds of each command timed by wall(), by its label


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def wall(cmd: list[str], env: dict[str, str] | None = None, label: str | None = None, cwd: Path = ROOT) -> float:
    """Seconds from process start to exit; the command must succeed (exit 0). Its CPU
    seconds (its own and its reaped workers') are kept under ``label``."""
    c = _children_cpu()
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd, env=env or CHILD_ENV)
    dt = time.perf_counter() - t
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {r.returncode}: {r.stderr.decode(errors='replace')[-500:]}")
    if label is not None:
        CPU.setdefault(label, []).append(_children_cpu() - c)
    return dt


def cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def job_counts(n: int) -> list[int]:
    """1, 2, 4, ... up to n, and n itself: the points of the --jobs curve."""
    out, j = [], 1
    while j < n:
        out.append(j)
        j *= 2
    return out + [n]


def machine() -> dict[str, Any]:
    """What the figures were taken on: cores, processor, load."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return {"cores": cores(), "cpu": model, "load_1min": round(load[0], 2), "load_15min": round(load[2], 2)}


class LocalCluster:
    """A Dask scheduler and its workers, each a process of its own on 127.0.0.1, started as
    ``dask scheduler`` and ``dask worker`` are on the machines of a club."""

    def __init__(self, workers: int, where: Path) -> None:
        self.file = where / "scheduler.json"
        self.file.unlink(missing_ok=True)
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        self.procs = [subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", "0",
                                        "--no-dashboard", "--scheduler-file", str(self.file)], **quiet)]
        for _ in range(1200):
            if self.file.exists() and self.file.stat().st_size:
                break
            time.sleep(0.05)
        self.address = json.loads(self.file.read_text())["address"]
        # --preload: each worker imports the referee as it starts, as the README's command has a
        # club start them, rather than on its first slice.
        self.procs.append(subprocess.Popen([sys.executable, "-m", "dask", "worker", "--scheduler-file", str(self.file),
                                            "--nworkers", str(workers), "--nthreads", "1", "--no-dashboard",
                                            "--preload", "referee.archive.slices", "--host", "127.0.0.1"], **quiet))
        from distributed import Client

        with Client(self.address, timeout="60s") as c:
            c.wait_for_workers(workers, timeout=120)

    def close(self) -> None:
        for p in reversed(self.procs):
            p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()


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
    c = time.process_time()
    t = time.perf_counter()
    f = io.StringIO(text)
    while chess.pgn.read_game(f) is not None:
        pass
    dt = time.perf_counter() - t
    CPU.setdefault("chess", []).append(time.process_time() - c)
    return dt


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


# What the optional compiled build compiles (pyproject.toml, written there once).
def compiled_modules() -> list[str]:
    hooks = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["hatch"]["build"]["targets"]
    return list(hooks["wheel"]["hooks"]["custom"]["include"])


def build_compiled(where: Path) -> Path:
    """A copy of the package in ``where`` with the compiled build's modules compiled by mypyc
    beside their sources (as the build hook leaves them); built again when any source of the
    package changed (a compiled module calls the others as they were when it was built)."""
    modules = compiled_modules()
    digest = hashlib.sha256(sys.version.encode())
    for f in sorted((ROOT / "referee").rglob("*.py")) + [ROOT / "grammar" / "gwy.lark", ROOT / "pyproject.toml",
                                                        ROOT / "hatch_build.py"]:
        digest.update(str(f.relative_to(ROOT)).encode() + b"\0" + f.read_bytes())
    stamp = digest.hexdigest()
    if (where / "stamp.json").exists() and (where / "stamp.json").read_text(encoding="utf-8") == stamp:
        return where
    print(f"building the compiled modules ({', '.join(modules)}) with mypyc in {where} ...", flush=True)
    sys.path.insert(0, str(ROOT))  # hatch_build.py, the wheel's own build of them
    try:
        from hatch_build import CompileFailed, compile_copy
    finally:
        sys.path.remove(str(ROOT))
    try:
        compile_copy(ROOT, modules, where)
    except CompileFailed as e:
        raise SystemExit(f"the mypyc build failed:\n{e}") from None
    (where / "stamp.json").write_text(stamp, encoding="utf-8")
    return where


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="a small run to see that it works")
    ap.add_argument("--games", type=int, default=None, help="simulated 4-player games (default 10000, quick 300)")
    ap.add_argument("--rounds", type=int, default=None, help="rounds of each timing (default 5, quick 3)")
    ap.add_argument("--dask-games", type=int, default=None,
                    help="simulated 4-player games of --dask against --jobs (default 100000, quick 300): a cluster "
                         "is for large archives, and its fixed cost, the client's import of distributed and its "
                         "connection, is about a third of a second")
    ap.add_argument("--compiled", action="store_true",
                    help="also time check with the optional build's modules compiled by mypyc (bench/out/compiled)")
    args = ap.parse_args(argv)
    games = args.games or (300 if args.quick else 10000)
    rounds = args.rounds or (3 if args.quick else 5)
    OUT.mkdir(parents=True, exist_ok=True)
    py = sys.executable
    results: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M %Z"), "python": sys.version.split()[0],
                               "rounds": rounds, "machine_at_start": machine()}

    # ---- check against python-chess, same run --------------------------------------------------
    sim = OUT / f"speed-4p-{games}.gwy"
    plays = simulate(sim, 4, games, seed=1)

    def check(jobs: str = "1") -> float:
        return wall([py, "-m", "referee", "check", "-q", "--jobs", jobs, str(sim)], label=f"jobs{jobs}")

    extra: dict[str, Callable[[], float]] = {}
    if args.compiled:
        built = build_compiled(OUT / "compiled")
        # Run from the copy: `python -m` puts the working directory first on the path.
        extra["compiled"] = lambda: wall([py, "-m", "referee", "check", "-q", "--jobs", "1", str(sim)],
                                         label="compiled", cwd=built)

    try:
        import chess  # noqa: F401 - the bench extra
    except ImportError:
        print("python-chess is not installed: pip install -e '.[bench]' (skipping the ratio)")
        med = alternate(rounds, check=check, **extra)
    else:
        pgn = OUT / f"speed-chess-{games // 3}.pgn"
        moves = chess_corpus(pgn, max(1, games // 3), seed=1)
        runs: dict[str, Callable[[], float]] = {"check": check, "chess": lambda: chess_read(pgn), **extra}
        extract = shutil.which("pgn-extract") or shutil.which("pgn-extract", path="/usr/games")  # Debian's place
        if extract:
            # -r: check the games, write nothing (what `check -q` does)
            runs["pgn_extract"] = lambda: wall([extract, "-r", "-s", "--quiet", str(pgn)], label="pgn_extract")
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
        # The same ratio in CPU seconds (check's whole process, start-up included, against
        # read_game's loop): what a busy machine's wall clock blurs.
        cpu_check, cpu_chess = statistics.median(CPU["jobs1"]), statistics.median(CPU["chess"])
        cpu_ratio = (plays / cpu_check) / (moves / cpu_chess)
        results["chess_ratio_cpu"] = round(cpu_ratio, 2)
        print(f"  by CPU time: check {cpu_check:.2f} s = {plays / cpu_check:,.0f} plays/s, python-chess {cpu_chess:.2f} s"
              f" = {moves / cpu_chess:,.0f} moves/s -> {cpu_ratio:.2f} x")
    if "pgn_extract" in results:
        r = results["pgn_extract"]["moves_per_s"] / (plays / med["check"])
        results["pgn_extract_vs_check"] = round(r, 1)
        print(f"pgn-extract: {results['pgn_extract']['moves_per_s']:,} moves/s = {r:.1f} x check")
        cpu_pe, cpu_check = statistics.median(CPU["pgn_extract"]), statistics.median(CPU["jobs1"])
        if cpu_pe > 0:
            r_cpu = (results["chess"]["moves"] / cpu_pe) / (plays / cpu_check)
            results["pgn_extract_vs_check_cpu"] = round(r_cpu, 1)
            print(f"  by CPU time: pgn-extract {cpu_pe:.2f} s, check {cpu_check:.2f} s -> {r_cpu:.1f} x check")
    elif "chess" in results:
        print("pgn-extract is not installed (apt-get install pgn-extract): skipped")
    if "compiled" in med:
        comp: dict[str, Any] = {"modules": compiled_modules(), "jobs1_s": round(med["compiled"], 3),
                                "plays_per_s": round(plays / med["compiled"]),
                                "over_python": round(med["check"] / med["compiled"], 2)}
        line = (f"check --jobs 1, compiled build ({', '.join(comp['modules'])}): {med['compiled']:.2f} s = "
                f"{plays / med['compiled']:,.0f} plays/s, {comp['over_python']:.2f} x the Python modules")
        if "chess" in results:
            comp["chess_ratio"] = round((plays / med["compiled"]) / results["chess"]["moves_per_s"], 2)
            line += f"; {comp['chess_ratio']:.2f} x python-chess"
        if "pgn_extract" in results:
            comp["pgn_extract_vs_check"] = round(results["pgn_extract"]["moves_per_s"] / (plays / med["compiled"]), 1)
            line += f"; pgn-extract {comp['pgn_extract_vs_check']:.1f} x faster"
        results["compiled"] = comp
        print(line)
        cpu_comp = statistics.median(CPU["compiled"])
        comp["over_python_cpu"] = round(statistics.median(CPU["jobs1"]) / cpu_comp, 2)
        line = f"  by CPU time: compiled {cpu_comp:.2f} s, {comp['over_python_cpu']:.2f} x the Python modules"
        if "chess" in results:
            comp["chess_ratio_cpu"] = round((plays / cpu_comp) / (moves / statistics.median(CPU["chess"])), 2)
            line += f"; {comp['chess_ratio_cpu']:.2f} x python-chess"
        if "pgn_extract" in results and statistics.median(CPU["pgn_extract"]) > 0:
            comp["pgn_extract_vs_check_cpu"] = round((moves / statistics.median(CPU["pgn_extract"])) / (plays / cpu_comp), 1)
            line += f"; pgn-extract {comp['pgn_extract_vs_check_cpu']:.1f} x faster"
        print(line)

    # ---- start-up over bare Python ---------------------------------------------------------------------
    wall([py, "-m", "referee", "check", str(SMALL_RECORD)])  # writes the bytecode, as an install does
    st = alternate(max(7, rounds), bare=lambda: wall([py, "-c", "pass"]),
                   check=lambda: wall([py, "-m", "referee", "check", str(SMALL_RECORD)]))
    over = st["check"] - st["bare"]
    results["startup"] = {"bare_ms": round(st["bare"] * 1e3), "check_ms": round(st["check"] * 1e3),
                          "over_bare_ms": round(over * 1e3)}
    print(f"start-up: check of {SMALL_RECORD.name} {st['check'] * 1e3:.0f} ms, python -c pass {st['bare'] * 1e3:.0f} ms:"
          f" {over * 1e3:.0f} ms over bare Python (median of {max(7, rounds)})")

    # ---- --jobs, 1 to the cores available ---------------------------------------------------------------
    n_cores = cores()
    counts = job_counts(n_cores)
    jb = alternate(rounds, **{f"j{j}": (lambda j=j: check(str(j))) for j in counts})
    curve = []
    for j in counts:
        t = jb[f"j{j}"]
        cpu = statistics.median(CPU[f"jobs{j}"])
        curve.append({"jobs": j, "s": round(t, 3), "cpu_s": round(cpu, 3), "speedup": round(jb["j1"] / t, 2),
                      "efficiency": round(jb["j1"] / t / j, 2)})
    results["jobs"] = curve
    print(f"--jobs on {sim.stat().st_size / 1e6:.1f} MB ({n_cores} cores available; wall s, CPU s, speed-up, efficiency):")
    for row in curve:
        print(f"  --jobs {row['jobs']:>2}: {row['s']:6.2f} s, CPU {row['cpu_s']:6.2f} s, {row['speedup']:.2f} x, "
              f"efficiency {row['efficiency']:.2f}")

    # ---- --dask on a local cluster against --jobs ------------------------------------------------------
    try:
        import distributed  # noqa: F401 - the dask extra
    except ImportError:
        print("--dask: the dask extra is not installed (pip install -e '.[dask]'): skipped")
    else:
        dask_games = args.dask_games or (300 if args.quick else 100000)
        big = OUT / f"speed-4p-{dask_games}.gwy"
        simulate(big, 4, dask_games, seed=1)
        cluster = LocalCluster(n_cores, OUT)
        try:
            dk = alternate(rounds, dask=lambda: wall([py, "-m", "referee", "check", "-q", "--dask", cluster.address,
                                                      str(big)], label="dask"),
                           jobs=lambda: wall([py, "-m", "referee", "check", "-q", "--jobs", str(n_cores), str(big)]))
        finally:
            cluster.close()
        results["dask"] = {"workers": n_cores, "games": dask_games, "bytes": big.stat().st_size,
                           "dask_s": round(dk["dask"], 3), "jobs_s": round(dk["jobs"], 3),
                           "dask_cpu_s": round(statistics.median(CPU["dask"]), 3),
                           "dask_over_jobs": round(dk["dask"] / dk["jobs"], 2)}
        print(f"--dask on {big.stat().st_size / 1e6:.1f} MB ({dask_games} games), a local cluster (dask scheduler + "
              f"{n_cores} one-thread dask workers, separate processes): "
              f"{dk['dask']:.2f} s against --jobs {n_cores} {dk['jobs']:.2f} s = {dk['dask'] / dk['jobs']:.2f} x its time"
              f" (wall; the check's own process used {results['dask']['dask_cpu_s']:.2f} s of CPU, the cluster's"
              " processes are not counted)")
    results["machine_at_end"] = m = machine()
    m0 = results["machine_at_start"]
    print(f"machine: {m['cores']} cores ({m['cpu']}); load average {m0['load_1min']} at the start, {m['load_1min']} at"
          f" the end (1 min), {m['load_15min']} (15 min); {results['date']}, Python {results['python']}")
    (OUT / "speed.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    if not args.quick:
        record_figures(results)
    return results


def record_figures(results: dict[str, Any]) -> None:
    """The run's tables for docs/performance.md and the README (bench/figures.py)."""
    import figures  # bench/figures.py, beside this script

    chk = results["check"]
    head = f"`check --jobs 1`, {chk['games']:,} simulated games ({chk['plays']:,} plays, {chk['bytes'] / 1e6:.1f} MB)"
    rows, readme = [], []
    builds = [("the compiled build (`pip install .`)", results.get("compiled")),
              ("the Python modules (an editable install)", {**chk, "chess_ratio": results.get("chess_ratio"),
                                                           "pgn_extract_vs_check": results.get("pgn_extract_vs_check")})]
    for name, b in builds:
        if not b:
            continue
        ratio = f"{b['chess_ratio']:.2f} x" if b.get("chess_ratio") else "-"
        pe = f"{b['pgn_extract_vs_check']:.1f} x" if b.get("pgn_extract_vs_check") else "-"
        rows.append([name, f"{b['jobs1_s']:.2f} s", f"{b['plays_per_s']:,}", ratio, pe])
        short = "the compiled build" if "compiled" in name else "the Python modules"
        readme.append([f"`check --jobs 1`, {chk['games']:,} games, {short}",
                       f"{b['plays_per_s']:,} plays/s" + (f", {ratio} python-chess" if ratio != "-" else "")])
    cmd = "python bench/speed.py" + (" --compiled" if results.get("compiled") else "")
    m0 = results["machine_at_start"]
    figures.record("check-speed", title="check against python-chess and pgn-extract", command=cmd,
                   columns=[head, "time", "plays/s", "against python-chess `read_game`", "pgn-extract `-r` faster by"],
                   rows=rows, readme=readme,
                   note=f"A fresh process each time, start-up included; medians of {results['rounds']} rounds, the "
                        f"programs timed in alternation. Load average {m0['load_1min']} at the start.")
    st = results["startup"]
    figures.record("startup", title="Start-up", command=cmd, columns=["measure", "figure"],
                   rows=[["`check records/pagat-example.gwy` over `python -c pass`", f"{st['over_bare_ms']} ms"]],
                   readme=[["`check` of one small record, over `python -c pass`", f"{st['over_bare_ms']} ms"]],
                   note="A plain `check` imports neither typer nor pydantic nor rich; Lark's built parser is cached.")
    figures.record("jobs", title="check --jobs", command=cmd,
                   columns=[f"`--jobs`, {chk['bytes'] / 1e6:.1f} MB", "speed-up over `--jobs 1`", "efficiency", "CPU"],
                   rows=[[str(r["jobs"]), f"{r['speedup']:.2f} x", f"{r['efficiency']:.2f}", f"{r['cpu_s']:.2f} s"]
                         for r in results["jobs"] if r["jobs"] > 1])
    if "dask" in results:
        d = results["dask"]
        figures.record("dask", title="check --dask", command=cmd,
                       columns=[f"{d['games']:,} games, {d['bytes'] / 1e6:.0f} MB", "time", f"against `--jobs {d['workers']}`"],
                       rows=[[f"`--dask`, a scheduler and {d['workers']} one-thread workers as separate processes",
                              f"{d['dask_s']:.2f} s", f"{d['dask_over_jobs']:.2f} x its time"],
                             [f"`--jobs {d['workers']}`", f"{d['jobs_s']:.2f} s", ""]])


if __name__ == "__main__":
    main()
