"""MkDocs hook: the reference pages written from the tool itself at every build, never by
hand, so that they cannot fall behind it:

- ``reference/commands.md``: every command's ``--help``, as the command line prints it;
- ``reference/codes.md``: every diagnostic code, from the catalogue ``explain`` prints
  (``referee/engine/codes.py``, rendered by ``referee/reports/docs.py``);
- ``reference/grammar.md``: ``grammar/gwy.lark``, the notation's grammar;
- ``changelog.md``: ``CHANGELOG.md`` from the top of the repository.

The checkout's own package is imported (first on the path), so the pages describe the code
the site is built from.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
WIDTH = "88"  # the help's width on the page, whatever the terminal that builds it


def command_help() -> dict[str, str]:
    """Each command's help as ``getaway-ref COMMAND --help`` prints it, in the order of
    ``getaway-ref --help``; the key "" is the top-level help."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    os.environ["COLUMNS"] = WIDTH  # argparse's and click's wrapping
    import typer.main
    from typer.testing import CliRunner

    from referee.cli import app
    from referee.commands.options import check_parser

    group = typer.main.get_command(app)
    runner = CliRunner()
    helps = {"": runner.invoke(app, ["--help"], prog_name="getaway-ref", terminal_width=int(WIDTH)).output}
    ctx = group.make_context("getaway-ref", [], resilient_parsing=True)
    for name in group.list_commands(ctx):  # type: ignore[attr-defined]
        if name == "check":  # read by its own parser (referee/commands/options.py)
            helps[name] = check_parser().format_help()
        else:
            helps[name] = runner.invoke(app, [name, "--help"], prog_name="getaway-ref",
                                        terminal_width=int(WIDTH)).output
    return helps


def commands_markdown() -> str:
    helps = command_help()
    out = ["# Commands", "",
           "Every command of `getaway-ref` with its options, as `getaway-ref COMMAND --help` prints "
           "them (this page is written from the command line itself each time the site is built). "
           "Exit codes, for every command: 0 clean, 1 problems found, 2 a usage or I/O error.", "",
           "```text", helps.pop("").rstrip(), "```", ""]
    for name, text in helps.items():
        out += [f"## {name}", "", "```text", text.rstrip(), "```", ""]
    return "\n".join(out)


def codes_markdown() -> str:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from referee.reports.docs import codes_markdown as render

    return render()


def grammar_markdown() -> str:
    grammar = (ROOT / "grammar" / "gwy.lark").read_text(encoding="utf-8")
    return ("# The grammar\n\n`grammar/gwy.lark`, the Lark grammar of the notation (LALR, contextual "
            "lexer). Where [the notation's page](../notation.md) and the grammar differ, the grammar "
            "is right.\n\n```text\n" + grammar.rstrip() + "\n```\n")


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    pages = {
        "reference/commands.md": commands_markdown(),
        "reference/codes.md": codes_markdown(),
        "reference/grammar.md": grammar_markdown(),
        # its links are the repository's (docs/x.md); on the site the page sits beside x.md
        "changelog.md": (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").replace("](docs/", "]("),
    }
    for path, text in pages.items():
        files.append(File.generated(config, path, content=text))
    return files
