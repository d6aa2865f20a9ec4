"""The site's speed (docs/offline.md, "Speed"): `getaway-ref site` built, served on 127.0.0.1,
opened in headless Chromium with a fresh profile.

    python bench/site.py [--pyodide PATH] [--throttle 4] [--repeat 3]

What it measures:
- the first visit: from navigation to `getawayRef.ready` (the engine started), and the bytes
  the server sent (a server that compresses nothing: everything the page and the service
  worker fetched, the files that have a gzip copy fetched as that copy); the site's size on
  disk, as it is and gzipped, and its gzip copies;
- a cold start from the cache (once the first visit's start has kept its memory snapshot,
  and after one start unmeasured: from the second start on, the browser keeps the compiled
  WebAssembly, as it does on a phone): the page reloaded (the service worker serves every
  file; the server is asked for nothing), from navigation to `ready`, the median of --repeat,
  and how many of them restored the snapshot;
- `check` per record of records/: the time from asking `getawayRef.check(text)` to its
  report, the second of two asks (the first pays for imports a record's rules may need), as
  the median and the largest, and per play;
- the same cold start and checks with the CPU slowed by Chrome's throttling
  (`Emulation.setCPUThrottlingRate`, --throttle, 4 by default: DevTools' "mid-tier mobile"),
  the stand-in for a mid-range phone;
- the table (table.html) on a new game: each entry from the page's call to the Worker's
  ruling and the new table, the median and the largest of 40, unthrottled and throttled.
Figures go to stdout as a table, to bench/out/site.json, and to docs/performance.md (through
bench/figures.py).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"


class Files(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
        ".mjs": "text/javascript", ".js": "text/javascript", ".webmanifest": "application/manifest+json",
        ".svg": "image/svg+xml"}
    sent: ClassVar[list[int]] = [0]

    def copyfile(self, source: Any, outputfile: Any) -> None:
        data = source.read()
        Files.sent[0] += len(data)
        outputfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass


def chrome(profile: Path) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or shutil.which("google-chrome") or "chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              f"--user-data-dir={profile}"):
        opts.add_argument(a)
    drv = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "chromedriver"), options=opts)
    drv.set_script_timeout(600)
    return drv


def call(drv: Any, script: str, *args: Any) -> Any:
    got = drv.execute_async_script(
        "const done = arguments[arguments.length - 1]; const args = arguments;"
        f"Promise.resolve().then(() => {script}).then((v) => done({{v}}), (e) => done({{e: String(e.message || e)}}));",
        *args)
    if "e" in got:
        raise RuntimeError(got["e"])
    return got["v"]


STAGES: list[dict[str, float]] = []  # the worker's start-up by stage, per start
RESTORED: list[bool] = []  # whether each start restored the kept snapshot


def cold_start(drv: Any, url: str) -> float:
    if drv.current_url.split("#")[0] == url:
        drv.refresh()  # the same tab and process: the CPU throttling stays on
    else:
        drv.get(url)
    got = call(drv, "window.getawayRef.ready")
    STAGES.append(got["stages"])
    RESTORED.append(bool(got.get("restored")))
    return float(got["at"])


SNAPSHOT_KEPT = ("caches.open('getaway-ref-bytecode').then((c) => c.keys())"
                 ".then((k) => k.some((r) => r.url.endsWith('.snapshot')))")


def snapshot_kept(drv: Any, within: float = 240.0) -> float:
    """Wait for the first start's snapshot to be kept (a worker of its own makes it); the seconds waited."""
    start = time.monotonic()
    while not call(drv, SNAPSHOT_KEPT) and time.monotonic() - start < within:
        time.sleep(0.5)
    return time.monotonic() - start


def checks(drv: Any, texts: dict[str, str]) -> dict[str, float]:
    per_record, per_play = [], []
    for name, text in texts.items():
        ms = 0.0
        plays = 0
        for _ in range(2):
            got = call(drv, "(async () => { const t = performance.now(); const r = await window.getawayRef.check(args[0], args[1]);"
                            " return [performance.now() - t, r.plays]; })()", text, name)
            ms, plays = float(got[0]), int(got[1])
        per_record.append(ms)
        if plays:
            per_play.append(ms / plays)
    return {"median_ms": statistics.median(per_record), "max_ms": max(per_record),
            "median_ms_per_play": statistics.median(per_play), "records": len(per_record)}


ENTRIES = """(async () => {
  await window.getawayTable.started;
  const times = [];
  let st = await window.getawayTable.post("state", {});
  for (let k = 0; k < args[0]; k++) {
    const L = st.state.live;
    if (L.over) break;
    let i = L.to_act;
    if (i === null) i = L.order.find((j) => L.seats[j].action);
    if (i === undefined || i === null) break;
    const s = L.seats[i];
    const text = s.legal.length ? `${s.seat} ${s.legal[0]}` : L.takes[0] || L.draws[0];
    if (!text) break;
    const t = performance.now();
    st = await window.getawayTable.post("entry", { text, version: L.version });
    times.push(performance.now() - t);
  }
  return times;
})()"""


def entries(drv: Any, url: str, count: int = 40) -> dict[str, float]:
    """The table (table.html) on a new game: ``count`` entries (the seat to act's first legal
    card, a take or a draw when that is what is due), each from the page's call to the
    Worker's ruling and the table it sends back."""
    drv.get(url)
    drv.execute_script("localStorage.clear()")  # a new game on the table, not the last one kept
    drv.refresh()
    times = [float(t) for t in call(drv, ENTRIES, count)]
    return {"median_ms": statistics.median(times), "max_ms": max(times), "entries": len(times)}


def record(out: dict[str, Any], throttle: float, repeat: int, records: int) -> None:
    """The figures as docs/performance.md's table (bench/figures.py)."""
    sys.path.insert(0, str(ROOT / "bench"))
    import figures

    mb = 1e6
    x = f"CPU {throttle:g} x slower"
    rows = [
        ["the site on disk", f"{out['site_bytes'] / mb:.1f} MB ({out['site_gzip_bytes'] / mb:.1f} MB gzipped), "
                             f"and {out['gzip_copies_bytes'] / mb:.1f} MB of gzip copies"],
        ["first visit: bytes sent by a server that compresses nothing", f"{out['first_visit_bytes'] / mb:.2f} MB"],
        ["first visit: navigation to ready", f"{out['first_visit_ready_ms'] / 1000:.1f} s"],
        ["cold start from the cache: navigation to ready",
         f"{out['cached_ready_ms'] / 1000:.1f} s ({out['cached_restored']} of {repeat} from the snapshot; "
         f"{out['cached_bytes_from_server']} bytes from the server)"],
        [f"the same, {x}", f"{out['throttled_cached_ready_ms'] / 1000:.1f} s "
                           f"({out['throttled_restored']} of {repeat} from the snapshot)"],
        [f"`check` of a record, median / largest ({records} records)",
         f"{out['check']['median_ms']:.0f} / {out['check']['max_ms']:.0f} ms"],
        [f"the same, {x}", f"{out['throttled_check']['median_ms']:.0f} / {out['throttled_check']['max_ms']:.0f} ms"],
        [f"the table: an entry judged and the table back, median / largest of {out['entry']['entries']}",
         f"{out['entry']['median_ms']:.0f} / {out['entry']['max_ms']:.0f} ms"],
        [f"the same, {x}", f"{out['throttled_entry']['median_ms']:.0f} / {out['throttled_entry']['max_ms']:.0f} ms"],
    ]
    figures.record("site", title="The site in the browser (getaway-ref site)",
                   command=f"python bench/site.py --throttle {throttle:g} --repeat {repeat}",
                   columns=["measure", "figure"], rows=rows, date=out["date"],
                   note=f"Headless Chromium, a fresh profile, the site served on 127.0.0.1; the phone stand-in is "
                        f"Chrome's CPU throttling (`Emulation.setCPUThrottlingRate`). Load average "
                        f"{out['load_average']:.1f} at the start: on this shared machine a start varies by a second "
                        f"or more from run to run ([docs/offline.md](offline.md#speed)).")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pyodide", help="the pyodide npm package's folder (default: as getaway-ref site finds it)")
    ap.add_argument("--throttle", type=float, default=4.0, help="the CPU throttling factor (default 4)")
    ap.add_argument("--repeat", type=int, default=3, help="cold starts from the cache to take the median of")
    a = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="getaway-site-bench-"))
    try:
        site = work / "site"
        cmd = [sys.executable, "-m", "referee", "site", "-o", str(site)] + (["--pyodide", a.pyodide] if a.pyodide else [])
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if r.returncode:
            sys.stderr.write(r.stderr)
            return 2
        files = [p for p in site.rglob("*") if p.is_file() and p.name != ".getaway-ref-site"]
        copies = [p for p in files if p.suffix == ".gz"]  # the gzip copies the service worker fetches
        own = [p for p in files if p.suffix != ".gz"]
        raw = sum(p.stat().st_size for p in own)
        gz = sum(len(gzip.compress(p.read_bytes(), 6)) for p in own)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Files, directory=str(site)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
        texts = {p.name: p.read_text(encoding="utf-8") for p in sorted(RECORDS.glob("*.gwy"))}
        drv = chrome(work / "profile")
        out: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "throttle": a.throttle,
                               "load_average": os.getloadavg()[0], "cores": os.cpu_count(),
                               "site_bytes": raw, "site_gzip_bytes": gz,
                               "gzip_copies_bytes": sum(p.stat().st_size for p in copies)}
        try:
            out["first_visit_ready_ms"] = cold_start(drv, url)
            # The service worker's install has fetched every file once the cache holds them all.
            call(drv, "navigator.serviceWorker.ready.then(() => caches.keys()).then((k) => k.length)")
            time.sleep(1.0)
            out["first_visit_bytes"] = Files.sent[0]
            out["snapshot_wait_s"] = snapshot_kept(drv)
            before = Files.sent[0]
            cold_start(drv, url)  # once unmeasured: the browser keeps compiled WebAssembly from the second start on
            out["cached_ready_ms"] = statistics.median(cold_start(drv, url) for _ in range(a.repeat))
            out["cached_restored"] = sum(RESTORED[-a.repeat:])
            out["cached_stages_ms"] = {k: statistics.median(s[k] for s in STAGES[-a.repeat:]) for k in STAGES[-1]}
            out["cached_bytes_from_server"] = Files.sent[0] - before
            out["check"] = checks(drv, texts)
            table = url.replace("index.html", "table.html")
            out["entry"] = entries(drv, table)
            drv.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": a.throttle})
            out["throttled_cached_ready_ms"] = statistics.median(cold_start(drv, url) for _ in range(a.repeat))
            out["throttled_restored"] = sum(RESTORED[-a.repeat:])
            out["throttled_stages_ms"] = {k: statistics.median(s[k] for s in STAGES[-a.repeat:]) for k in STAGES[-1]}
            out["throttled_check"] = checks(drv, texts)
            out["throttled_entry"] = entries(drv, table)
        finally:
            drv.quit()
            server.shutdown()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    (ROOT / "bench" / "out").mkdir(parents=True, exist_ok=True)
    (ROOT / "bench" / "out" / "site.json").write_text(json.dumps(out, indent=2) + "\n")
    mb = 1e6
    rows = [
        ("site on disk", f"{out['site_bytes'] / mb:.1f} MB ({out['site_gzip_bytes'] / mb:.1f} MB gzipped), "
                         f"and {out['gzip_copies_bytes'] / mb:.1f} MB of gzip copies"),
        ("first visit: navigation to ready", f"{out['first_visit_ready_ms'] / 1000:.1f} s"),
        ("first visit: bytes sent (a server that compresses nothing)", f"{out['first_visit_bytes'] / mb:.2f} MB"),
        ("cold start from the cache: navigation to ready", f"{out['cached_ready_ms'] / 1000:.1f} s "
                                                           f"({out['cached_bytes_from_server']} bytes from the server)"),
        ("  of which (median)", ", ".join(f"{k} {v / 1000:.1f} s" for k, v in out["cached_stages_ms"].items())),
        ("check per record: median / max", f"{out['check']['median_ms']:.0f} / {out['check']['max_ms']:.0f} ms "
                                            f"({out['check']['median_ms_per_play']:.1f} ms a play)"),
        (f"CPU x{a.throttle:g}: cold start from the cache", f"{out['throttled_cached_ready_ms'] / 1000:.1f} s"),
        ("  of which (median)", ", ".join(f"{k} {v / 1000:.1f} s" for k, v in out["throttled_stages_ms"].items())),
        (f"CPU x{a.throttle:g}: check per record: median / max",
         f"{out['throttled_check']['median_ms']:.0f} / {out['throttled_check']['max_ms']:.0f} ms "
         f"({out['throttled_check']['median_ms_per_play']:.1f} ms a play)"),
        ("table: an entry judged and the table back, median / max",
         f"{out['entry']['median_ms']:.0f} / {out['entry']['max_ms']:.0f} ms ({out['entry']['entries']} entries)"),
        (f"CPU x{a.throttle:g}: the same",
         f"{out['throttled_entry']['median_ms']:.0f} / {out['throttled_entry']['max_ms']:.0f} ms "
         f"({out['throttled_entry']['entries']} entries)"),
    ]
    record(out, a.throttle, a.repeat, len(texts))
    width = max(len(k) for k, _ in rows)
    print(f"getaway-ref site, {out['date']}, {len(texts)} records; "
          f"{out['cores']} cores, load average {out['load_average']:.1f} at the start")
    for k, v in rows:
        print(f"  {k:<{width}}  {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
