"""The README's install line, run as it stands in a fresh virtual environment, in a clean
copy of the project; the wheel carries the licence, the typing marker and the metadata."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from conftest import RECORDS, ROOT

import referee


def _copy_project(dest: Path) -> Path:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.splitlines()
    for name in listed:
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def test_the_readme_install_line_works_in_a_fresh_virtual_environment(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (line,) = [x for x in readme.splitlines() if x.startswith("python -m venv .venv &&")]
    assert line == "python -m venv .venv && . .venv/bin/activate && pip install ."
    project = _copy_project(tmp_path / "getaway-ref")
    script = (f"{line} -q && getaway-ref --version && getaway-ref check {RECORDS / 'pagat-example.gwy'}"
              f" && getaway-ref html {RECORDS / 'pagat-example.gwy'} -o {tmp_path / 'page.html'}")
    # `python` as a user's shell finds it: the interpreter running the tests, first on PATH
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "python").symlink_to(sys.executable)
    r = subprocess.run(["bash", "-c", script], cwd=project, capture_output=True, text=True, timeout=600,
                       env={"PATH": f"{bindir}:/usr/local/bin:/usr/bin:/bin", "HOME": str(tmp_path)})
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"getaway-ref {referee.__version__}\n" in r.stdout
    assert "checked 1 file, 1 game, 21 plays: no errors" in r.stdout
    installed = project / ".venv" / "lib"
    (site,) = installed.glob("python3*/site-packages")
    assert (site / "referee" / "py.typed").exists() and (site / "referee" / "grammar" / "gwy.lark").exists()
    # The install is the compiled build (hatch_build.py): every module of the hook's list is
    # compiled beside its source, and the checkout it was built from is left as it was.
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    for module in listed["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]["include"]:
        source = site / module
        assert source.exists() and list(source.parent.glob(source.stem + ".*.so")), module
    assert not list((project / "referee").rglob("*.so"))
    # the page's template, styles and script ship in the wheel: the installed html wrote a page
    assert (site / "referee" / "table" / "templates" / "table.html.j2").exists()
    assert 'id="data"' in (tmp_path / "page.html").read_text(encoding="utf-8")
    (dist,) = site.glob("getaway_ref-*.dist-info")
    meta = (dist / "METADATA").read_text(encoding="utf-8")
    assert f"Version: {referee.__version__}" in meta
    assert "Classifier: License :: OSI Approved :: MIT License" in meta
    assert "Provides-Extra: lsp" in meta and "Provides-Extra: serve" in meta
    assert re.search(r"^Description-Content-Type: text/markdown", meta, re.M)
    assert "## Use in CI" in meta  # the README is the long description
    licences = list(dist.rglob("LICENSE"))
    assert licences and licences[0].read_text(encoding="utf-8") == (ROOT / "LICENSE").read_text(encoding="utf-8")


def test_without_a_c_compiler_the_wheel_is_the_python_modules_and_the_build_says_why(tmp_path: Path) -> None:
    # A machine that cannot compile the modules still installs: the build says so in one
    # line and makes a wheel of the Python modules, which do the same.
    project = _copy_project(tmp_path / "getaway-ref")
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-v", "-w", str(tmp_path / "wheels")],
                       cwd=project, capture_output=True, text=True, timeout=600,
                       env={**os.environ, "CC": "/bin/false", "HOME": str(tmp_path)})
    assert r.returncode == 0, r.stdout + r.stderr
    (wheel,) = (tmp_path / "wheels").glob("*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    # the translations ship (issue 40): each language's compiled catalogue, its source and the template
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"referee/locale/getaway.pot", "referee/locale/ur/LC_MESSAGES/getaway.po",
            "referee/locale/ur/LC_MESSAGES/getaway.mo"} <= names
    said = [line for line in (r.stdout + r.stderr).splitlines() if "getaway-ref: the compiled modules could not be built" in line]
    assert len(said) == 1 and "installing the Python modules" in said[0] and len(said[0]) < 400
    assert not list((project / "referee").rglob("*.so"))
