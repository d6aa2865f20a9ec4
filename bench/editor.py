"""The editor server's benchmark: `getaway-ref lsp` driven over stdio by a raw JSON-RPC
client, as an editor (or an adversarial one) drives it.

    python bench/editor.py            # the full run
    python bench/editor.py --quick    # smaller files and fewer edits, to see that it works

What it measures (wall time on this machine; the best of three where it says so):
- initialize: from starting the process to the answer to `initialize` (best of three);
- a 200-trick file: from an edit of its last trick line to the diagnostics of that version;
- 20 quick edits on a 0.75 MB file, sent one after another without waiting: to the
  diagnostics of the last version, and how many versions were judged (published);
- a 1,000-game file: an edit in one game, to its diagnostics (only that game is judged again);
- a 10 MB archive (those games eight times over): an edit, and the outline;
- memory: the server's resident size after 200 edits and after 20,000 (a flat line is the aim);
- a hover on the unopened file:///dev/zero: the time to its answer (nothing is read).
Figures go to stdout and to bench/out/editor.json; the README quotes them with their date.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
sys.path.insert(0, str(ROOT / "bench"))


class Client:
    """A JSON-RPC client over the server's stdin and stdout; a thread reads every message."""

    def __init__(self, code: Path = ROOT) -> None:
        env = dict(os.environ, PYTHONPATH=str(code))
        self.started = time.perf_counter()
        self.proc = subprocess.Popen([sys.executable, "-m", "referee", "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=code, env=env)
        self.next_id = 0
        self.lock = threading.Condition()
        self.responses: dict[int, dict[str, Any]] = {}
        self.published: list[tuple[float, str, int | None, int]] = []  # (time, uri, version, count)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            msg = json.loads(out.read(length))
            now = time.perf_counter()
            with self.lock:
                if "id" in msg and "method" not in msg:
                    self.responses[msg["id"]] = msg
                elif msg.get("method") == "textDocument/publishDiagnostics":
                    p = msg["params"]
                    self.published.append((now, p["uri"], p.get("version"), len(p["diagnostics"])))
                self.lock.notify_all()

    def send(self, msg: dict[str, Any]) -> None:
        body = json.dumps(msg).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def request(self, method: str, params: Any) -> int:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait(self, msg_id: int, timeout: float = 120) -> dict[str, Any]:
        with self.lock:
            self.lock.wait_for(lambda: msg_id in self.responses, timeout)
            return self.responses.pop(msg_id)

    def wait_version(self, uri: str, version: int, timeout: float = 300) -> float:
        with self.lock:
            self.lock.wait_for(lambda: any(u == uri and v == version for _, u, v, _ in self.published), timeout)
            return next(t for t, u, v, _ in self.published if u == uri and v == version)

    def initialize(self) -> float:
        i = self.request("initialize", {"processId": os.getpid(), "rootUri": ROOT.as_uri(), "capabilities": {}})
        self.wait(i)
        took = time.perf_counter() - self.started
        self.notify("initialized", {})
        return took

    def open(self, uri: str, text: str) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "gwy", "version": 1,
                                                              "text": text}})
        self.wait_version(uri, 1)

    def change(self, uri: str, version: int, line: int, col: int, end: int, text: str) -> None:
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": col},
                                          "end": {"line": line, "character": end}}, "text": text}]})

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def close(self) -> None:
        try:
            self.wait(self.request("shutdown", None), 30)
            self.notify("exit", None)
            self.proc.wait(30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def corpus(games: int, seed: int, players: int = 4) -> Path:
    from bench import simulate  # the main benchmark's corpus maker

    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"editor-{players}p-{games}g-{seed}.gwy"
    simulate(path, players, games, seed)
    return path


def last_trick_line(lines: list[str]) -> int:
    return max(i for i, line in enumerate(lines) if line[:1].isdigit() and ". " in line)


def edit_latency(c: Client, uri: str, lines: list[str], version: int, line: int) -> tuple[float, int]:
    """Toggle a comment at the end of ``line`` and time the diagnostics of that version."""
    end = len(lines[line])
    t0 = time.perf_counter()
    c.change(uri, version, line, end, end, "  # x")
    t1 = c.wait_version(uri, version)
    c.change(uri, version + 1, line, end, end + 5, "")
    c.wait_version(uri, version + 1)
    return t1 - t0, version + 2


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--initialize-only", type=Path, metavar="CHECKOUT",
                    help="time initialize alone, of the server in another checkout (the code before, say)")
    args = ap.parse_args()
    if args.initialize_only:
        times = []
        for _ in range(3):
            c = Client(args.initialize_only.resolve())
            times.append(c.initialize())
            c.close()
        print(f"initialize ({args.initialize_only}): {min(times):.3f} s (best of 3)")
        return
    quick = args.quick
    res: dict[str, Any] = {"date": time.strftime("%Y-%m-%d"), "cpus": os.cpu_count()}

    inits = []
    for _ in range(3):
        c = Client()
        inits.append(c.initialize())
        c.close()
    res["initialize_s"] = round(min(inits), 3)
    print(f"initialize: {res['initialize_s']:.3f} s (best of 3)")

    c = Client()
    c.initialize()

    # A file of about 200 tricks.
    path = corpus(8, 11)
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    tricks = sum(1 for x in lines if x[:1].isdigit())
    uri = (OUT / "two-hundred.gwy").as_uri()
    c.open(uri, text)
    best, v = 1e9, 2
    for _ in range(3):
        took, v = edit_latency(c, uri, lines, v, last_trick_line(lines))
        best = min(best, took)
    res["edit_200_tricks_ms"] = round(best * 1000, 1)
    res["tricks_in_file"] = tricks
    print(f"a {tricks}-trick file: diagnostics {best * 1000:.1f} ms after an edit (best of 3)")

    # 20 quick edits on about 0.75 MB.
    path = corpus(60 if quick else 560, 12)
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    uri = (OUT / "quick-edits.gwy").as_uri()
    c.open(uri, text)
    row = last_trick_line(lines)
    end = len(lines[row])
    before = len(c.published)
    t0 = time.perf_counter()
    for k in range(20):
        c.change(uri, 2 + k, row, end + k, end + k, "x" if k else " ")
    t1 = c.wait_version(uri, 21)
    judged = sum(1 for _, u, _, _ in c.published[before:] if u == uri)
    res["quick_edits"] = {"bytes": len(text.encode()), "edits": 20, "to_last_ms": round((t1 - t0) * 1000, 1),
                          "versions_published": judged}
    print(f"20 quick edits on {len(text.encode()) / 1e6:.2f} MB: last diagnostics after {(t1 - t0) * 1000:.0f} ms, "
          f"{judged} version(s) judged")

    # 1,000 games: an edit in one of them.
    path = corpus(100 if quick else 1000, 13)
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    uri = (OUT / "thousand.gwy").as_uri()
    t0 = time.perf_counter()
    c.open(uri, text)
    res["open_1000_games_s"] = round(time.perf_counter() - t0, 2)
    best, v = 1e9, 2
    mid = [i for i, x in enumerate(lines) if x.startswith("%game")][len(lines) and 50]
    row = next(i for i in range(mid, len(lines)) if lines[i][:1].isdigit())
    for _ in range(3):
        took, v = edit_latency(c, uri, lines, v, row)
        best = min(best, took)
    res["edit_1000_games_ms"] = round(best * 1000, 1)
    print(f"{'100' if quick else '1,000'} games ({len(text.encode()) / 1e6:.1f} MB): open {res['open_1000_games_s']} s,"
          f" an edit in one game: diagnostics after {best * 1000:.1f} ms (best of 3)")

    # A 10 MB archive: the 1,000 games eight times over; an edit, and its outline.
    if not quick:
        body = text[text.index("%game"):]
        big = "%gwy 1\n" + body * 8
        lines = big.split("\n")
        uri = (OUT / "ten-megabytes.gwy").as_uri()
        t0 = time.perf_counter()
        c.open(uri, big)
        opened = time.perf_counter() - t0
        row = [i for i, x in enumerate(lines) if x[:1].isdigit()][len(lines) // 3]
        best, v = 1e9, 2
        for _ in range(3):
            took, v = edit_latency(c, uri, lines, v, row)
            best = min(best, took)
        t0 = time.perf_counter()
        c.wait(c.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}))
        outline = time.perf_counter() - t0
        res["archive_10mb"] = {"bytes": len(big.encode()), "open_s": round(opened, 2), "edit_ms": round(best * 1000, 1),
                               "outline_s": round(outline, 2)}
        print(f"{len(big.encode()) / 1e6:.1f} MB: open {opened:.1f} s, an edit: diagnostics after {best * 1000:.0f} ms, "
              f"the outline {outline:.2f} s")
        c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    # Memory over many edits, on a small document.
    path = corpus(1, 14)
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    uri = (OUT / "memory.gwy").as_uri()
    c.open(uri, text)
    row = last_trick_line(lines)
    end = len(lines[row])
    total = 2000 if quick else 20000
    marks = {}
    for k in range(total):
        if k % 2 == 0:
            c.change(uri, 2 + k, row, end, end, "  # x")
        else:
            c.change(uri, 2 + k, row, end, end + 5, "")
        if k % 100 == 99:
            c.wait_version(uri, 2 + k)  # let the server keep up, as a typist would
        if k + 1 in (200, total):
            marks[k + 1] = c.rss_kib()
    res["memory_kib"] = marks
    print(f"memory: {marks[200] / 1024:.1f} MiB after 200 edits, {marks[total] / 1024:.1f} MiB after {total}")

    # A hover on an unopened /dev/zero.
    t0 = time.perf_counter()
    i = c.request("textDocument/hover", {"textDocument": {"uri": "file:///dev/zero"},
                                         "position": {"line": 0, "character": 0}})
    answer = c.wait(i, 30)
    res["hover_dev_zero_ms"] = round((time.perf_counter() - t0) * 1000, 1)
    print(f"hover on file:///dev/zero: answered in {res['hover_dev_zero_ms']} ms: {answer.get('result')}")
    c.close()

    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "editor.json").write_text(json.dumps(res, indent=2) + "\n", encoding="utf-8")
    if not quick:
        record_figures(res, total)


def record_figures(res: dict, total: int) -> None:
    """The editor server's table of docs/performance.md (bench/figures.py)."""
    import figures  # bench/figures.py, beside this script

    q, mem = res["quick_edits"], res["memory_kib"]
    rows = [["initialize, from starting the process to the answer", f"{res['initialize_s']} s"],
            [f"diagnostics after an edit of a {res['tricks_in_file']}-trick file", f"{res['edit_200_tricks_ms']} ms"],
            [f"20 quick edits on {q['bytes'] / 1e6:.2f} MB, to the last version's diagnostics",
             f"{q['to_last_ms']} ms, {q['versions_published']} version(s) judged"],
            ["an edit in one game of 1,000", f"{res['edit_1000_games_ms']} ms (opening the file: {res['open_1000_games_s']} s)"]]
    if "archive_10mb" in res:
        a = res["archive_10mb"]
        rows.append([f"an edit in a {a['bytes'] / 1e6:.1f} MB archive", f"{a['edit_ms']} ms; its outline {a['outline_s']} s"])
    rows += [[f"resident memory after 200 edits / after {total:,}",
              f"{mem[200] / 1024:.1f} MiB / {mem[total] / 1024:.1f} MiB"],
             ["a hover on the unopened `file:///dev/zero`", f"{res['hover_dev_zero_ms']} ms, nothing read"]]
    figures.record("editor", title="The editor server", command="python bench/editor.py", columns=["measure", "figure"],
                   rows=rows, note="A raw JSON-RPC client driving the server; the best of three where timed.")


if __name__ == "__main__":
    main()
