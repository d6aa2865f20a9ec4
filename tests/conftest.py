"""Shared test helpers: paths, running the command line as a user would, the compiled build
built once, and the ``slow`` marker.

``python -m pytest`` runs everything (CI does). While working, ``python -m pytest -m "not
slow"`` leaves out the tests marked slow here: those that build a wheel or the compiled
modules, drive a browser, an editor or a Dask cluster, interrupt writes under strace, or run
mypy over the package (docs/contributing.md).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "records"

# A four-seat game dealt and not yet played: the table's tests record into it.
DEAL = """%gwy 1

%game
[Seats "North East South West"]
[Rules "pagat"]
deal
North 13
East 13
South 13
West 13
"""
DATA = Path(__file__).resolve().parent / "data"

# No fixed limit that a slow or busy machine fails: a subprocess may take as long as it takes
# (GETAWAY_TEST_TIMEOUT, in seconds, bounds each subprocess when a run might hang).
TIMEOUT: float | None = float(os.environ["GETAWAY_TEST_TIMEOUT"]) if os.environ.get("GETAWAY_TEST_TIMEOUT") else None

# Whole modules that are slow by nature (seconds to minutes each, most of a run's time): a
# package installed into a fresh environment among them (test_packaging, test_precommit).
SLOW_MODULES = {"test_compiled", "test_packaging", "test_precommit", "test_page", "test_serve", "test_dask_cluster",
                "test_interrupted_writes", "test_nvim", "test_typing", "test_docs_site"}
# Fixtures that build a wheel or the compiled modules, or open a browser.
SLOW_FIXTURES = {"wheel", "compiled", "phones", "browser", "driver"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the slow tests ``slow`` (the marker is declared in pyproject.toml)."""
    for item in items:
        module = item.module.__name__.rsplit(".", 1)[-1] if getattr(item, "module", None) else ""
        if module in SLOW_MODULES or SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


def run_cli(*args: str, input: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run `getaway-ref ARGS` in a subprocess, as a user would (python -m referee)."""
    return subprocess.run(
        [sys.executable, "-m", "referee", *args], input=input, capture_output=True, text=True,
        cwd=str(cwd or ROOT), timeout=TIMEOUT,
    )


@pytest.fixture
def cli():
    return run_cli


def compiled_build() -> Path:
    """The package with the compiled build's modules compiled by mypyc (the hook's own code,
    bench/speed.py's build_compiled), built once for every test and every run until a source
    changes: kept in build/compiled, stamped with the hash of the sources, and built by one
    process at a time (pytest-xdist's workers wait for the first one's build)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import speed
    finally:
        sys.path.remove(str(ROOT / "bench"))
    where = ROOT / "build" / "compiled"
    where.parent.mkdir(parents=True, exist_ok=True)
    with open(where.parent / "compiled.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            return speed.build_compiled(where)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


# ---- the importers' tests -----------------------------------------------------------------------------


def judged(record: Path) -> list[dict]:
    """Every game of a record as ``check --format json`` reports it."""
    r = run_cli("check", "--format", "json", str(record))
    return [g for f in json.loads(r.stdout)["files"] for g in f["games"]]


def import_changed(tmp_path: Path, fmt: str, sample: Path, change) -> subprocess.CompletedProcess:
    """``import --from FMT`` of an app's JSON ``sample`` with ``change`` made to its data,
    written as bad.json: a log spoiled one way, as the importer meets it."""
    data = json.loads(sample.read_text(encoding="utf-8"))
    change(data)
    log = tmp_path / "bad.json"
    log.write_text(json.dumps(data), encoding="utf-8")
    return run_cli("import", "--from", fmt, str(log))

# ---- a browser for the pages' tests ----------------------------------------------------------------

DESKTOP = (1280, 900)  # a laptop's window
PHONE = (390, 844)  # a phone's


def _browser_paths() -> tuple[str, str] | None:
    chrome = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver")
    return (chrome, driver) if chrome and driver else None


def start_chrome():
    """A headless Chromium driven by selenium, or a skip (a failure where CI asks for one)."""
    webdriver = pytest.importorskip("selenium.webdriver")
    paths = _browser_paths()
    if paths is None:
        if os.environ.get("GETAWAY_REQUIRE_BROWSER"):
            pytest.fail("chromium and chromedriver are needed (apt-get install chromium chromium-driver)")
        pytest.skip("no chromium/chromedriver on this machine (CI installs them)")
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = paths[0]
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              f"--window-size={DESKTOP[0]},{DESKTOP[1]}", "--force-device-scale-factor=1"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(paths[1]), options=opts)


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for a module's tests."""
    drv = start_chrome()
    drv.set_script_timeout(120)  # a bound on a page's asynchronous script (axe's run), not a measure
    yield drv
    drv.quit()
