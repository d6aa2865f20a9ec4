"""The compiled build: ``pip install .`` compiles the hot modules with mypyc, as black's wheels are.

A wheel built from this project (``pip install .``, ``pip wheel .``, an sdist) carries the
modules listed in ``[tool.hatch.build.targets.wheel.hooks.custom] include`` of pyproject.toml
compiled to C beside their sources; Python loads a compiled module in place of its source.
They are compiled in a copy of the package, so the checkout is left as it was. What is not
compiled runs as Python, and the compiled modules do exactly what their sources do
(tests/test_compiled.py holds them to it, record by record).

The Python modules alone, the fallback:
- an editable install (``pip install -e .``, the README's two commands, CI): the checkout's
  sources run as they are written, so an edit takes effect at once;
- ``GETAWAY_PURE_PYTHON=1 pip install .``;
- a machine where the modules cannot be compiled (no C compiler, no Python headers): the
  build says so in one line and goes on with the Python modules.

``compile_copy`` is also what ``bench/speed.py --compiled`` and the tests build with.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # bench/speed.py and the tests import compile_copy alone, without hatchling
    BuildHookInterface = object  # type: ignore[assignment,misc]

# What mypyc builds the modules with: setuptools drives the C compiler.
_SETUP = """from setuptools import setup
from mypyc.build import mypycify

setup(name="getaway-ref-compiled", packages=[], py_modules=[],
      ext_modules=mypycify(["--ignore-missing-imports", *{modules!r}], opt_level="3"))
"""

PURE_ENV = "GETAWAY_PURE_PYTHON"  # set (to anything) for a wheel of the Python modules alone


class CompileFailed(Exception):
    """mypyc or the C compiler stopped; the message is the end of what they printed."""


def compile_copy(root: Path, modules: list[str], where: Path) -> dict[str, str]:
    """Copy the package and the grammar of ``root`` into ``where`` (emptied first) and compile
    ``modules`` (paths such as ``referee/engine/state.py``) there. The compiled files: each
    absolute path to its path in a wheel (or in the copy, where the copy runs them)."""
    shutil.rmtree(where, ignore_errors=True)
    where.mkdir(parents=True)
    shutil.copytree(root / "referee", where / "referee", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    shutil.copytree(root / "grammar", where / "grammar")
    (where / "setup.py").write_text(_SETUP.format(modules=modules), encoding="utf-8")
    r = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=where, capture_output=True,
                       text=True)
    if r.returncode != 0:
        raise CompileFailed((r.stdout + r.stderr).strip()[-3000:])
    built = {str(p): p.relative_to(where).as_posix()
             for p in sorted(where.glob("*.so")) + sorted(where.glob("*.pyd"))
             + sorted((where / "referee").rglob("*.so")) + sorted((where / "referee").rglob("*.pyd"))}
    if not any(path.startswith("referee/") for path in built.values()):
        raise CompileFailed("the build ended without a compiled module")
    return built


class CompiledModules(BuildHookInterface):  # type: ignore[misc,valid-type]
    """Hatch's hook for the wheel target: the compiled modules into a standard wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version != "standard" or os.environ.get(PURE_ENV):
            return
        self._copy = Path(tempfile.mkdtemp(prefix="getaway-ref-compiled-"))
        try:
            built = compile_copy(Path(self.root), list(self.config.get("include", [])), self._copy / "tree")
        except (CompileFailed, OSError) as e:
            last = (str(e).strip().splitlines() or ["no message"])[-1]
            reason = last if len(last) <= 160 else last[:157] + "..."
            self.app.display_warning(f"getaway-ref: the compiled modules could not be built ({reason}); "
                                     "installing the Python modules, which do the same about half as fast")
            return
        build_data["force_include"].update(built)
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        copy = getattr(self, "_copy", None)
        if copy is not None:
            shutil.rmtree(copy, ignore_errors=True)
