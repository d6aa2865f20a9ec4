"""``getaway-ref site`` and ``getaway-ref link``: the referee in the browser, offline (issue 39).

The site is built from the ``pyodide`` npm package (``npm install pyodide@VERSION``; found as
the builder finds it: ``$GETAWAY_PYODIDE`` or ``./node_modules/pyodide``), served by a real
HTTP server on 127.0.0.1 and opened in headless Chromium once per module (Pyodide loads
once). The page's ``window.getawayRef`` answers are compared with the command line's, run
as a subprocess on the same files; then the server is stopped, the browser set offline, and
the page reloaded from its service worker's cache, and asked again; a game's link is opened
offline and shows the verdicts ``check`` prints. Without the runtime the browser tests skip,
or fail where CI asks for them (``GETAWAY_REQUIRE_BROWSER=1``).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from conftest import DATA, RECORDS, ROOT, run_cli, start_chrome

from referee.site import INSTALL_HINT, PYODIDE_ENV, PYODIDE_VERSION
from referee.site.link import decode_game

RENEGE = RECORDS / "dispute-renege-illegal.gwy"  # one M201, penalised, in trick 5


def _runtime() -> Path:
    """The pyodide npm package's folder, as the builder looks for it, or a skip (a failure in CI)."""
    given = os.environ.get(PYODIDE_ENV)
    folder = Path(given) if given else ROOT / "node_modules" / "pyodide"
    if not (folder / "pyodide.asm.wasm").is_file():
        if os.environ.get("GETAWAY_REQUIRE_BROWSER"):
            pytest.fail(f"the Pyodide runtime is needed for the site: {INSTALL_HINT}")
        pytest.skip(f"no Pyodide runtime here ({INSTALL_HINT}; CI installs it)")
    return folder


# ---- building the site, no browser ------------------------------------------------------------


def test_without_the_runtime_one_line_says_how_to_install_it(tmp_path: Path) -> None:
    r = run_cli("site", "-o", str(tmp_path / "site"), "--pyodide", str(tmp_path / "nowhere"))
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and f"npm install pyodide@{PYODIDE_VERSION}" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and not (tmp_path / "site").exists()


def test_another_version_of_the_runtime_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "node_modules" / "pyodide"
    fake.mkdir(parents=True)
    (fake / "package.json").write_text(json.dumps({"name": "pyodide", "version": "0.1.0"}))
    r = run_cli("site", "-o", str(tmp_path / "site"), "--pyodide", str(tmp_path))
    assert r.returncode == 2 and "0.1.0" in r.stderr and INSTALL_HINT in r.stderr, r.stderr


def test_a_folder_that_is_not_a_site_is_left_alone(tmp_path: Path) -> None:
    runtime = _runtime()
    mine = tmp_path / "notes"
    mine.mkdir()
    (mine / "index.html").write_text("my own page")
    r = run_cli("site", "-o", str(mine), "--pyodide", str(runtime))
    assert r.returncode == 2 and "not a site this command wrote" in r.stderr
    assert (mine / "index.html").read_text() == "my own page" and len(list(mine.iterdir())) == 1


def test_the_zip_runs_check_with_only_the_standard_library_beside_it(tmp_path: Path) -> None:
    """The package's zip, unpacked as the page's worker unpacks it, alone on the path of an
    isolated CPython (no site-packages): the page's check runs and gives the command line's report, importing no rich, typer or real
    pydantic on the way (the browser's Python has none of them)."""
    from referee.site.build import write_zip

    zipped = tmp_path / "getaway-ref.zip"
    write_zip(zipped)
    names = zipfile.ZipFile(zipped).namelist()
    assert "referee/grammar/gwy.lark" in names and "referee/docs/rulings.md" in names and "lark/__init__.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyc")) or n.startswith(("typer/", "pydantic_core/"))]
    work = tmp_path / "games"
    lib = tmp_path / "lib"
    zipfile.ZipFile(zipped).extractall(lib)
    probe = (
        "import sys, json\n"
        f"sys.path.insert(0, {str(lib)!r})\n"
        "import referee.site.browser as b\n"
        "b.warm()\n"
        f"r = json.loads(b.check(open({str(RENEGE)!r}, encoding='utf-8').read(), 'renege.gwy'))\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'rich', 'typer', 'pydantic_core', 'jinja2'})\n"
        "print(json.dumps({'exit': r['exit'], 'report': json.loads(r['out']), 'heavy': heavy,\n"
        "                  'pydantic': sys.modules['pydantic'].__file__}))\n"
    )
    run = subprocess.run([sys.executable, "-I", "-S", "-c", probe], capture_output=True, text=True, timeout=120,
                         env={"GETAWAY_SITE_DIR": str(work), "GETAWAY_CACHE_DIR": str(tmp_path / "cache"),
                              "PATH": os.environ.get("PATH", "")})
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got["heavy"] == [] and got["pydantic"] == str(lib / "pydantic" / "__init__.py")
    shutil.copy(RENEGE, tmp_path / "renege.gwy")
    cli = run_cli("check", "--format", "json", "renege.gwy", cwd=tmp_path)
    assert got["exit"] == cli.returncode == 1
    assert got["report"] == json.loads(cli.stdout)  # field for field: the same models wrote both


# ---- the site in a browser ----------------------------------------------------------------------


class _Files(http.server.SimpleHTTPRequestHandler):
    # The types a browser insists on: WebAssembly for streaming compilation, JavaScript modules.
    extensions_map: ClassVar[dict[str, str]] = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".mjs": "text/javascript", ".js": "text/javascript",
                      ".webmanifest": "application/manifest+json", ".svg": "image/svg+xml"}

    def log_message(self, format: str, *args: object) -> None:
        pass


class Site:
    """The built site, its server and the browser that opened it."""

    def __init__(self, root: Path, drv, handler: type[_Files] = _Files) -> None:
        self.root = root
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/index.html"
        self.drv = drv
        self.offline_now = False
        drv.set_script_timeout(240)

    def call(self, script: str, *args):
        """Await a promise in the page: ``script`` is an expression over ``args``."""
        got = self.drv.execute_async_script(
            "const done = arguments[arguments.length - 1]; const args = arguments;"
            f"Promise.resolve().then(() => {script}).then((v) => done({{v}}), (e) => done({{e: String(e.message || e)}}));",
            *args)
        assert "e" not in got, got["e"]
        return got["v"]

    def ready(self) -> dict:
        return self.call("window.getawayRef.ready")

    def offline(self) -> None:
        """No network: the server stopped and the browser told it is offline."""
        if self.offline_now:
            return
        self.server.shutdown()
        self.server.server_close()
        self.drv.execute_cdp_cmd("Network.enable", {})
        self.drv.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": True, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0})
        self.offline_now = True

    def close(self) -> None:
        if not self.offline_now:
            self.server.shutdown()
            self.server.server_close()


@contextlib.contextmanager
def served_site(tmp_path_factory, handler: type[_Files] = _Files) -> Iterator[Site]:
    """The site as ``getaway-ref site`` writes it, served on 127.0.0.1 to a headless Chromium
    (the browser and the server stopped at the end); the tests' fixtures open it."""
    runtime = _runtime()
    root = tmp_path_factory.mktemp("site") / "site"
    r = run_cli("site", "-o", str(root), "--pyodide", str(runtime))
    assert r.returncode == 0, r.stderr
    drv = start_chrome()
    s = Site(root, drv, handler)
    try:
        yield s
    finally:
        drv.quit()
        s.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with served_site(tmp_path_factory) as s:
        s.drv.get(s.url)
        s.ready()
        yield s


def _texts() -> dict[str, str]:
    """Every record of records/ and of tests/data/invalid/ (each kind of error the reader and
    the referee report) that is UTF-8 text (the page is given text), by file name."""
    out: dict[str, str] = {}
    for p in sorted(RECORDS.glob("*.gwy")) + sorted((DATA / "invalid").glob("*.gwy")):
        try:
            text = p.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            continue
        assert p.name not in out
        out[p.name] = text
    return out


def test_check_legal_and_ask_in_the_page_are_the_command_lines_then_offline(site: Site, tmp_path: Path) -> None:
    texts = _texts()
    assert len(texts) >= 60
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8", newline="")
    cli = run_cli("check", "--format", "json", *texts, cwd=tmp_path)
    assert cli.returncode == 1, cli.stderr  # some records hold mistakes
    by_file = {f["path"]: f for f in json.loads(cli.stdout)["files"]}

    def check_all() -> None:
        for name, text in texts.items():
            report = site.call("window.getawayRef.check(args[0], args[1])", text, name)
            (page,) = report["files"]
            want = by_file[name]
            assert [(d["code"], d["location"] and (d["location"]["line"], d["location"]["column"]))
                    for g in page["games"] for d in g["diagnostics"]] == \
                   [(d["code"], d["location"] and (d["location"]["line"], d["location"]["column"]))
                    for g in want["games"] for d in g["diagnostics"]], name
            assert page == want, name  # and everything else, word for word
            assert report["games"] == len(want["games"])

    check_all()

    legal = run_cli("legal", "--format", "json", RENEGE.name, cwd=tmp_path)
    assert site.call("window.getawayRef.legal(args[0], args[1])", texts[RENEGE.name], RENEGE.name) == json.loads(legal.stdout)
    ask = run_cli("ask", RENEGE.name, "--trick", "5", cwd=tmp_path)
    assert ask.returncode == 0 and "East" in ask.stdout
    assert site.call("window.getawayRef.ask(args[0], 5, null, args[1])", texts[RENEGE.name], RENEGE.name) == ask.stdout.strip()
    wrong = run_cli("ask", RENEGE.name, "--trick", "9", cwd=tmp_path)
    refused = site.drv.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "window.getawayRef.ask(arguments[0], 9, null, arguments[1]).then(() => done('answered'), (e) => done(e.message));",
        texts[RENEGE.name], RENEGE.name)
    assert wrong.returncode == 2 and refused == wrong.stderr.strip()

    # Every file the English page needs is in the service worker's cache after the first
    # visit (the service worker's own script the browser keeps), a file with a gzip copy under
    # its own name (the copy fetched and unpacked instead); another language's files are not
    # (they are cached when a page in it is opened or picked: tests/test_site_table.py).
    site.call("navigator.serviceWorker.ready.then(() => true)")  # installed: its files fetched into its cache
    cached = site.call("caches.keys().then((k) => Promise.all(k.map((n) => caches.open(n).then((c) => c.keys()))))"
                       ".then((all) => all.flat().map((r) => new URL(r.url).pathname))")
    written = {p.relative_to(site.root).as_posix() for p in site.root.rglob("*") if p.is_file()} - {".getaway-ref-site", "sw.js"}
    packed = {w for w in written if w.endswith(".gz")}
    assert "pyodide/pyodide.asm.wasm.gz" in packed
    languages = {w for w in written if re.search(r"\.[a-zA-Z_]+\.(html|webmanifest)$|\.mo$", w)}
    assert languages and "index.ur.html" in languages
    assert written - packed - languages <= {c.lstrip("/") for c in cached}
    assert not languages & {c.lstrip("/") for c in cached}

    # No network: the page comes from the cache, starts the engine and judges as before.
    site.offline()
    site.drv.refresh()
    info = site.ready()
    assert info["pyodide"] == PYODIDE_VERSION
    assert site.drv.execute_script("return navigator.onLine") is False
    check_all()


def test_a_game_in_a_link_opens_offline_with_its_verdicts(site: Site, tmp_path: Path) -> None:
    r = run_cli("link", str(RENEGE), "--base", site.url)
    assert r.returncode == 0, r.stderr
    url = r.stdout.strip()
    assert url.startswith(site.url + "#g=") and len(url) - len(site.url) < 1200
    game = decode_game(url.split("#", 1)[1])
    assert game == RENEGE.read_text(encoding="utf-8")  # a one-game file travels whole
    (tmp_path / "game.gwy").write_text(game, encoding="utf-8")
    want = run_cli("check", "game.gwy", cwd=tmp_path)
    assert want.returncode == 1 and "M201" in want.stdout

    site.offline()
    site.drv.get(url)
    site.ready()
    site.call("new Promise((ok) => { const t = setInterval(() => { if (document.body.dataset.checked) "
              "{ clearInterval(t); ok(); } }, 50); })")
    shown = site.drv.execute_script("return document.getElementById('verdicts').textContent")
    assert shown == want.stdout + want.stderr
    assert site.drv.execute_script("return document.getElementById('verdicts').dataset.exit") == "1"
    assert site.drv.execute_script("return document.getElementById('record').value") == game


def test_link_picks_one_game_of_a_file_and_refuses_what_is_not_there(tmp_path: Path) -> None:
    from referee.notation.reader import Reader

    many = next(p for p in sorted(RECORDS.glob("*.gwy")) if p.read_text(encoding="utf-8").count("%game") >= 2)
    r = run_cli("link", str(many), "--game", "2")
    assert r.returncode == 0, r.stderr
    (one,) = Reader("link").read_text(decode_game(r.stdout.strip().split("#", 1)[1]))
    (second,) = [g for g in Reader("file").read_text(many.read_text(encoding="utf-8")) if g.number == 2]
    assert one.seats == second.seats and one.text == second.text and one.actions
    bad = run_cli("link", str(many), "--game", "99")
    assert bad.returncode == 2 and bad.stderr.startswith("error: --game 99") and bad.stderr.count("\n") == 1


def test_a_pasted_record_is_checked_in_the_page_in_the_command_lines_words(site: Site, tmp_path: Path) -> None:
    """The page's own use: a record pasted and checked shows what ``check`` prints, syntax
    errors included, in the same words and layout."""
    bad = DATA / "invalid" / "S001-syntax.gwy"
    text = bad.read_text(encoding="utf-8")
    (tmp_path / "game.gwy").write_text(text, encoding="utf-8")
    want = run_cli("check", "game.gwy", cwd=tmp_path)
    assert want.returncode == 1 and "S001" in want.stdout
    site.drv.get(site.url)
    site.ready()
    site.drv.execute_script("document.getElementById('record').value = arguments[0];"
                            "delete document.body.dataset.checked; document.getElementById('check').click();", text)
    site.call("new Promise((ok) => { const t = setInterval(() => { if (document.body.dataset.checked) "
              "{ clearInterval(t); ok(); } }, 50); })")
    assert site.drv.execute_script("return document.getElementById('verdicts').textContent") == want.stdout + want.stderr


REVIEWED = RECORDS / "dispute-draw.gwy"  # a few plays, a second or two of review on the command line


def test_a_review_runs_in_a_worker_of_its_own_while_the_page_answers(site: Site, tmp_path: Path) -> None:
    """``review`` in the page: its own Web Worker, so a question asked while it runs is
    answered before it ends; its progress reaches every play; its report is the command
    line's ``review --format json``, field for field. The page's Review button shows what
    ``review`` prints, its bar full at the end."""
    text = REVIEWED.read_text(encoding="utf-8")
    (tmp_path / REVIEWED.name).write_text(text, encoding="utf-8")
    want = run_cli("review", "--format", "json", REVIEWED.name, cwd=tmp_path)
    assert want.returncode == 0, want.stderr
    site.drv.get(site.url)
    site.ready()
    # The review is held in its worker after its first play (review's test-only `hold`: a blob
    # URL, worker.mjs's held()) until the check has been answered, so the order below is the
    # workers' and not the machine's load. Were the check asked of the review's worker, it
    # could not be answered while the review is held: the script would hang, and fail.
    got = site.call("""(async () => {
      const order = [], told = [];
      const hold = URL.createObjectURL(new Blob([]));
      let reached;
      const first = new Promise((ok) => { reached = ok; });
      try {
        const running = window.getawayRef.review(args[0], {name: args[1], hold, onProgress: (p) => { told.push(p); reached(); }})
          .then((r) => { order.push('review'); return r; });
        await Promise.race([first, running]);
        const checked = await window.getawayRef.check(args[0], args[1]);
        order.push('check');
        const toldByThen = told.length;
        URL.revokeObjectURL(hold);
        return {order, told, toldByThen, report: await running, checked: checked.files[0].games.length};
      } finally {
        URL.revokeObjectURL(hold);
      }
    })()""", text, REVIEWED.name)
    assert got["order"] == ["check", "review"]  # answered while the review was still running:
    assert got["toldByThen"] == 1  # held at its first play
    assert got["checked"] == 1
    assert got["report"] == json.loads(want.stdout)
    told = got["told"]
    plays = [(t["done"], t["total"]) for t in told]
    assert plays == sorted(plays) and plays[-1][0] == plays[-1][1] > 1  # every play, to 100 %

    # the page's button: review's own text, the bar full
    shown = run_cli("review", REVIEWED.name, cwd=tmp_path)
    site.drv.execute_script("document.getElementById('record').value = arguments[0];"
                            "document.getElementById('record').dataset.name = arguments[1];"
                            "document.getElementById('review-game').click();", text, REVIEWED.name)
    site.call("new Promise((ok) => { const t = setInterval(() => { if (document.body.dataset.reviewed) "
              "{ clearInterval(t); ok(); } }, 50); })")
    assert site.drv.execute_script("return document.getElementById('review').textContent") == shown.stdout + shown.stderr
    bar = site.drv.execute_script("const b = document.getElementById('review-progress'); return [b.value, b.max];")
    assert bar[0] == bar[1] == plays[-1][1]


def test_a_start_from_the_cache_restores_the_engine_from_its_snapshot(site: Site, tmp_path: Path) -> None:
    """After a start, a snapshot of the started interpreter is kept (by a worker of its own);
    the next start restores it instead of starting Python and importing, and the page's
    answers are the command line's as before."""
    from selenium.webdriver.support.ui import WebDriverWait

    site.drv.get(site.url)
    site.ready()
    kept = ("return caches.open('getaway-ref-bytecode').then((c) => c.keys())"
            ".then((k) => k.some((r) => r.url.endsWith('.snapshot')))")
    WebDriverWait(site.drv, 240).until(lambda d: d.execute_script(kept), message="the snapshot kept")
    site.drv.refresh()
    info = site.ready()
    assert info["restored"] is True
    text = RENEGE.read_text(encoding="utf-8")
    (tmp_path / RENEGE.name).write_text(text, encoding="utf-8")
    for command, call in (("check", "check"), ("legal", "legal")):
        cli = run_cli(command, "--format", "json", RENEGE.name, cwd=tmp_path)
        assert site.call(f"window.getawayRef.{call}(args[0], args[1])", text, RENEGE.name) == json.loads(cli.stdout)


def test_the_pages_qr_codes_read_back_as_their_text_at_every_size(site: Site) -> None:
    """The page's own QR encoder (qr.js), drawn on a canvas and read by a decoder (zxing-cpp):
    links from a few characters to the longest a QR code holds (version 40, level L), each
    read back as it was; one longer is refused (shown as a link only)."""
    import base64
    import random
    import string

    zxingcpp = pytest.importorskip("zxingcpp")
    site.drv.get(site.url)
    rng = random.Random(39)
    alphabet = string.ascii_letters + string.digits + "-_"
    sizes = [5, 40, 150, 600, 1200, 2000, 2330, 2600, 2900]
    versions = []
    for n in sizes:
        text = "https://club.example/ref/index.html#g=" + "".join(rng.choice(alphabet) for _ in range(n))
        got = site.drv.execute_script(
            "const c = document.createElement('canvas'); const code = window.getawayQR.draw(c, arguments[0], 3);"
            "const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
            "const g = new Uint8Array(c.width * c.height); for (let i = 0; i < g.length; i++) g[i] = d[i * 4];"
            "let s = ''; for (let i = 0; i < g.length; i += 0x8000) s += String.fromCharCode(...g.subarray(i, i + 0x8000));"
            "return [code.version, code.level, c.width, btoa(s)];", text)
        version, level, side, grey = got
        found = zxingcpp.read_barcodes(memoryview(base64.b64decode(grey)).cast("B", (side, side)))
        assert [f.text for f in found] == [text], (n, version, level)
        versions.append((version, level))
    assert versions[0][1] == "M" and versions[-1] == (40, "L")
    assert sorted(versions, key=lambda v: (v[1] != "M", v[0])) == versions  # the smallest that holds it, M first
    too_long = "x" * 3000
    assert site.drv.execute_script("return window.getawayQR.encode(arguments[0])", too_long) is None
