"""The import rule of docs/architecture.md: a lower stage never imports a higher one.

Every module of the package is parsed with ``ast`` (nothing is imported), and every import
statement in it counts, at module level or inside a function: a deferred import is still a
dependency. A known exception is an explicit entry of ``ALLOWED`` with the reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "referee"

# The commands layer: what turns the library into programs.
COMMANDS = ("referee.cli", "referee.commands", "referee.check", "referee.tally", "referee._start", "referee.archive", "referee.table",
            "referee.selfplay", "referee.lsp", "referee.config", "referee.files", "referee.tools",
            "referee.review", "referee.web", "referee.fixes", "referee.site", "referee.players",
            "referee.research")

# For each stage, the parts of the package it must never import.
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "referee.engine": ("referee.notation", "referee.judging", "referee.reports", *COMMANDS),
    "referee.notation": ("referee.judging", "referee.reports", *COMMANDS),
    "referee.judging": ("referee.reports", *COMMANDS),
    "referee.reports": ("referee.judging", *COMMANDS),
}

# Known exceptions (docs/architecture.md, "Known exceptions"): (importing module, imported
# module) and why it is tolerated.
ALLOWED: dict[tuple[str, str], str] = {
    # The reader reports syntax errors as Diagnostic values, and the diagnostics module
    # (data only) lives in reports/; it imports only engine.citations and notation.record.
    ("referee.notation.reader", "referee.reports.diagnostics"): "diagnostic data",
    # fmt's streaming formatter keeps the reader's errors of each game (a typed list).
    ("referee.notation.format", "referee.reports.diagnostics"): "diagnostic data",
    # The referee builds its findings as Diagnostic values (the same data module).
    ("referee.judging.referee", "referee.reports.diagnostics"): "diagnostic data",
    ("referee.judging.setup", "referee.reports.diagnostics"): "diagnostic data",
    ("referee.judging.result", "referee.reports.diagnostics"): "diagnostic data",
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports_of(path: Path) -> set[str]:
    """Every module of ours an import statement anywhere in the file names."""
    name = module_name(path)
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            # ``from referee.engine import citations``: the submodule is the dependency.
            found.update(f"{module}.{a.name}" for a in node.names if is_module(f"{module}.{a.name}"))
    return {m for m in found if m == "referee" or m.startswith("referee.")}


def within(module: str, part: str) -> bool:
    return module == part or module.startswith(part + ".")


def offences() -> list[str]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        for stage, forbidden in FORBIDDEN.items():
            if not within(name, stage):
                continue
            for imported in sorted(imports_of(path)):
                allowed = any(name == importer and within(imported, target) for importer, target in ALLOWED)
                if any(within(imported, f) for f in forbidden) and not allowed:
                    out.append(f"{name} imports {imported}")
    return out


def test_the_package_is_where_the_test_looks() -> None:
    names = {module_name(p) for p in PACKAGE.rglob("*.py")}
    for stage in FORBIDDEN:
        assert stage in names
    # The walk sees deferred imports too: cli.py imports the table commands inside functions.
    assert any(within(m, "referee.table") for m in imports_of(PACKAGE / "cli.py"))


def test_lower_stages_never_import_higher_ones() -> None:
    assert offences() == []


def test_every_allowed_exception_is_still_needed() -> None:
    """An allow-list entry that the code no longer needs is removed, so the list stays true."""
    for importer, imported in ALLOWED:
        path = PACKAGE.joinpath(*importer.split(".")[1:]).with_suffix(".py")
        assert any(within(m, imported) for m in imports_of(path)), (importer, imported)


def test_the_engine_imports_nothing_of_ours_but_itself() -> None:
    """The engine knows nothing of records, text, reports or commands."""
    for path in (PACKAGE / "engine").rglob("*.py"):
        outside = {m for m in imports_of(path) if not within(m, "referee.engine")}
        assert outside == set(), path


# ---- the command layer's order (issue 23, item 5) -----------------------------------------------

# The command layer, lowest first. A module may import its own level and those below, never
# one above; the most specific entry names a module's level (``referee.archive.inputs`` is
# level 0 although ``referee.archive``, the archives' judging, is level 2).
COMMAND_LEVELS: tuple[tuple[str, ...], ...] = (
    # 0: what every command reads or writes: files safely, settings, the inputs, one game of a
    # file (show, legal, ask, html and review read it alike), --jobs
    ("referee.files", "referee.config", "referee.archive.inputs", "referee.archive.games", "referee.archive.jobs"),
    # 1: the options every command shares (the usage error, the rules options, check's
    # options declared once) and the one ending of a closed pipe: the whole of commands/
    ("referee.commands",),
    # 2: judging archives: slices, workers, Dask, the check's run; the safe fixes of --fix
    ("referee.archive", "referee.fixes"),
    # 3: who plays: the exact solver and the bots, below both the review and self-play
    ("referee.players",),
    # 4: self-play and game review (neither imports the other, nor the table)
    ("referee.selfplay", "referee.review"),
    # 5: at the table (which asks the review for hints and verdicts), the editor server; the
    # research environments (PettingZoo, OpenSpiel), which play through the engine, sample as
    # the review does and write records as self-play does
    ("referee.table", "referee.lsp", "referee.research"),
    # 6: the commands' bodies, and the table served to the phones
    ("referee.check", "referee.tally", "referee.tools", "referee.web", "referee.site"),
    # 7: the command line
    ("referee.cli", "referee._start"),
)


def command_level(module: str) -> int | None:
    best: tuple[int, int] | None = None  # (length of the entry, level)
    for level, entries in enumerate(COMMAND_LEVELS):
        for entry in entries:
            if within(module, entry) and (best is None or len(entry) > best[0]):
                best = (len(entry), level)
    return best[1] if best is not None else None


def test_the_command_layer_imports_only_downwards() -> None:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        mine = command_level(name)
        if mine is None:
            continue
        for imported in sorted(imports_of(path)):
            theirs = command_level(imported)
            if theirs is not None and theirs > mine:
                out.append(f"{name} (level {mine}) imports {imported} (level {theirs})")
    assert out == []


def test_a_folder_of_the_command_layer_is_one_level_but_archive() -> None:
    """Folders match the levels (issue 37, item 7): each folder of the command layer is at one
    level, except ``archive/``, whose readers of what a command is given sit at level 0 and
    whose judging of archives at level 2."""
    levels: dict[str, set[int]] = {}
    for path in PACKAGE.rglob("*.py"):
        name = module_name(path)
        parts = name.split(".")
        level = command_level(name)
        if len(parts) > 2 or path.name == "__init__.py":
            if level is not None:
                levels.setdefault(".".join(parts[:2]), set()).add(level)
    assert {f: ls for f, ls in levels.items() if len(ls) > 1} == {"referee.archive": {0, 2}}


def test_the_reports_and_the_core_never_import_the_package_root() -> None:
    """The package root (the public library, ``__version__``) is above everything: a report
    that needs the version is given it (``SarifSink(version)``), never imports it upward."""
    for stage in ("engine", "notation", "judging", "reports"):
        for path in (PACKAGE / stage).rglob("*.py"):
            assert "referee" not in imports_of(path), path


def test_every_module_of_the_command_layer_has_a_level() -> None:
    for path in PACKAGE.rglob("*.py"):
        name = module_name(path)
        if any(within(name, c) for c in COMMANDS):
            assert command_level(name) is not None, name


def test_nothing_imports_the_command_line() -> None:
    """cli.py and _start.py are the top: no module of the package imports them (the
    entry point itself excepted)."""
    for path in PACKAGE.rglob("*.py"):
        name = module_name(path)
        if name in ("referee._start", "referee.__main__"):
            continue
        assert "referee.cli" not in imports_of(path) or name == "referee._start", name


def test_the_wording_takes_plain_values_and_is_written_once() -> None:
    """judging/wording.py (issue 23, item 3): the game's sentences take plain values, so it
    imports the engine alone; and no other module keeps its own table of why a seat leads
    (a dict keyed by the engine's LeadReason)."""
    wording = PACKAGE / "judging" / "wording.py"
    assert {m for m in imports_of(wording) if not within(m, "referee.engine")} == set()
    tables = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == wording:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Dict) and any(
                    isinstance(k, ast.Attribute) and (
                        (isinstance(k.value, ast.Attribute) and k.value.attr == "LeadReason")
                        or (isinstance(k.value, ast.Name) and k.value.id == "LeadReason"))
                    for k in node.keys if k is not None):
                tables.append(f"{module_name(path)}:{node.lineno}")
    assert tables == []


# ---- where imports are deferred ------------------------------------------------------------------

# docs/architecture.md, "Imports at the top": an import inside a function only where start-up
# time or an optional extra needs it. Each place, and why.
DEFERRING: dict[str, str] = {
    "referee.cli": "each typer command loads only the modules it runs",
    "referee._start": "check's own parser, without typer; typer only for the other commands",
    "referee.commands.options": "rich only to colour an error on a terminal",
    "referee.archive.check": "each output format loads only its own writer (rich, pydantic, xml)",
    "referee.archive.dask": "the dask extra, with a one-line hint when it is missing",
    "referee.lsp": "the lsp extra, with a one-line hint when it is missing",
    "referee.web": "the serve extra, with a one-line hint when it is missing",
    "referee.lsp.server": "initialize is answered before the referee is loaded (under 1 s)",
    "referee.engine.rules": "pydantic and TOML only for a --rules-file",
    "referee.table.live": "prompt_toolkit only where the terminal's prompt is made (the site's Worker has none)",
    "referee.table.page": "jinja2 only where a page is rendered (the site's Worker computes the table's data)",
    "referee.locale.catalogues": "Babel (the i18n extra), for making the catalogues only; the referee never needs it",
    "referee.players.bots": "the pimc bot, built on these bots, when a seat is first given it (no import cycle)",
}


def deferred_imports() -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = [n.lineno for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom))]
                if lines:
                    out.setdefault(module_name(path), []).extend(lines)
    return out


def test_imports_inside_functions_only_in_the_documented_places() -> None:
    found = deferred_imports()
    assert {m: lines for m, lines in found.items() if m not in DEFERRING} == {}
    # ... and every documented place still defers something, so the list stays true.
    assert set(DEFERRING) <= set(found)


def test_every_module_imports_on_its_own() -> None:
    """No import cycle: each module of the package imports first, in a fresh set of modules."""
    import importlib
    import sys

    names = sorted(module_name(p) for p in PACKAGE.rglob("*.py") if (not {"lsp", "web", "research"} & set(p.parts) or p.name == "__init__.py") and p.name != "__main__.py")
    saved = {k: v for k, v in sys.modules.items() if k == "referee" or k.startswith("referee.")}
    try:
        for name in names:
            for k in [k for k in sys.modules if k == "referee" or k.startswith("referee.")]:
                del sys.modules[k]
            importlib.import_module(name)
    finally:
        for k in [k for k in sys.modules if k == "referee" or k.startswith("referee.")]:
            del sys.modules[k]
        sys.modules.update(saved)


def test_no_module_writes_a_diagnostic_code_as_a_string() -> None:
    """A code is named once, in the catalogue (referee/engine/codes.py); every other module
    names it by its member (Code.RENEGE), so a code cannot drift between places."""
    import io
    import re
    import tokenize

    code = re.compile(r"[SRM]\d{3}")
    catalogue = PACKAGE / "engine" / "codes.py"
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == catalogue:
            continue
        text = path.read_text(encoding="utf-8")
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.STRING and not tok.string[0].isalpha():
                value = ast.literal_eval(tok.string)
                if isinstance(value, str) and code.fullmatch(value):
                    found.append(f"{path.relative_to(PACKAGE.parent)}:{tok.start[0]}: {tok.string}")
    assert not found, "codes written as strings outside the catalogue:\n" + "\n".join(found)
    # and the catalogue names every code it gives a title
    from referee.engine.codes import CODES, Code

    assert set(CODES) == {m.value for m in Code}
