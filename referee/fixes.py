"""``check --fix``: the safe fix-its of the reading diagnostics applied to the files, as
ruff's ``--fix`` does, before the files are checked.

A fix-it is data on its diagnostic (``reports.diagnostics.Fix``): text edits with the
spans they replace. Only the safe ones are applied here (a seat's unique beginning written
out, the missing version line); a guess (a near spelling) is left for a person, in the
editor's quick fixes. Each file is rewritten through ``files.replacing`` (mode, links and
the original kept whole if the write fails), and only when something changed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TextIO

from referee.commands import UsageError, expand
from referee.engine.language import gettext as _
from referee.engine.language import ngettext
from referee.files import WriteError, write_text
from referee.notation.reader import Reader
from referee.reports.diagnostics import Diagnostic, Edit
from referee.reports.select import Policy, SelectError, parse_codes

BOM = "\ufeff"


def fixes_of(text: str, path: str = "<text>") -> list[Diagnostic]:
    """The reading diagnostics of ``text`` that carry a fix, in the order of the text."""
    reader = Reader(path)
    games = list(reader.read_text(text))
    found = [d for d in reader.prelude.errors if d.fix is not None]
    found += [d for g in games for d in g.errors if d.fix is not None]
    return found


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """The text with the edits made (offsets of ``text``); an edit that overlaps one before
    it is left out, to be made by the next run."""
    out: list[str] = []
    at = 0
    for e in sorted(edits, key=lambda e: (e.span.start, e.span.end)):
        if e.span.start < at:
            continue
        out.append(text[at:e.span.start])
        out.append(e.text)
        at = e.span.end
    out.append(text[at:])
    return "".join(out)


def fix_text(text: str, policy: Policy | None = None, path: str = "<text>") -> tuple[str, list[Diagnostic]]:
    """The text with its safe fixes applied, and the diagnostics they fixed."""
    bom = BOM if text.startswith(BOM) else ""
    body = text[len(bom):]
    done = [d for d in fixes_of(body, path)
            if d.fix is not None and d.fix.safe and (policy is None or policy.wants(d.code))]
    if not done:
        return text, []
    edits = [e for d in done if d.fix is not None for e in d.fix.edits]
    first = body.find("\n")
    if first > 0 and body[first - 1] == "\r":  # a line added to a file of CRLF lines ends as they do
        edits = [Edit(e.span, e.text.replace("\n", "\r\n")) for e in edits]
    return bom + apply_edits(body, edits), done


def fix_paths(paths: Sequence[Path], select: Sequence[str] = (), ignore: Sequence[str] = (),
              then: Callable[[], int] | None = None, err: TextIO | None = None,
              not_written: list[WriteError] | None = None) -> int:
    """Apply the safe fixes to the files of ``paths``, telling ``err`` what was fixed; then
    run ``then`` (the check of the files as they are now) and return its exit code, or the
    number of problems fixed without it. A file that cannot be read is left to the check,
    which reports it; one that cannot be written is said in one line and added to
    ``not_written`` (the command exits 2, an I/O error)."""
    err = err or sys.stderr
    try:
        policy = Policy(select=parse_codes(list(select) or ["ALL"], "--select"),
                        ignore=parse_codes(list(ignore), "--ignore"))
    except SelectError as e:
        raise UsageError(str(e)) from None
    files = expand(paths)
    if any(str(p) == "-" for p in files):
        raise UsageError(_("{option} rewrites files, not standard input").format(option="--fix"))
    total = 0
    for p in files:
        try:
            text = p.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        new, done = fix_text(text, policy, str(p))
        if not done:
            continue
        try:
            write_text(p, new)
        except WriteError as e:
            err.write(f"error: {e.message}\n")
            if not_written is not None:
                not_written.append(e)
            continue
        total += len(done)
        for d in done:
            line = d.span.line if d.span is not None else 0
            title = d.fix.title if d.fix is not None else ""
            # i18n: check --fix, one fix made: the file and line, the code, the fix's own title
            err.write(_("{file}:{line}: fixed {code}: {title}").format(file=p, line=line, code=d.code, title=title) + "\n")
    if total:
        err.write(ngettext("fixed {n} problem", "fixed {n} problems", total).format(n=total) + "\n")
    return then() if then is not None else total
