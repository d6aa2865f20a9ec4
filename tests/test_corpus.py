"""The data-driven corpus (tomli style): records that must check clean, and records whose
diagnostics are listed beside them.

    tests/data/valid/NAME.gwy        must give no diagnostic at all
    tests/data/invalid/NAME.gwy      must give exactly the diagnostics of NAME.expected

A ``.expected`` file has one expected diagnostic a line, ``CODE LINE:COL``, optionally
followed by `` | TEXT``: a substring the diagnostic's message must contain. Lines starting
with ``#`` are comments, except a first line ``# xfail: BUG ...``, which marks the file as a
known bug of the referee (the test is then a strict xfail: it must fail until the bug is
fixed). A valid record may have a ``.expected`` holding only such a line.

The expected diagnostics were worked out from the rules texts (shared/rules/) and the
project's rulings, not copied from the referee's output.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import DATA, RECORDS, run_cli

from referee.judging.referee import Referee
from referee.notation.reader import Reader
from referee.reports.diagnostics import CODES

VALID = sorted((DATA / "valid").glob("*.gwy"))
INVALID = sorted((DATA / "invalid").glob("*.gwy"))

_LINE = re.compile(r"^(?P<code>[SRMW]\d{3})\s+(?P<line>\d+):(?P<col>\d+)\s*(?:\|\s?(?P<text>.*))?$")


@dataclass
class Expected:
    entries: list[tuple[str, int, int, str | None]] = field(default_factory=list)
    xfail: str | None = None

    @property
    def keys(self) -> Counter:
        return Counter((code, line, col) for code, line, col, _ in self.entries)


def read_expected(gwy: Path) -> Expected:
    path = gwy.with_suffix(".expected")
    exp = Expected()
    if not path.exists():
        return exp
    for i, raw in enumerate(path.read_text(encoding="utf-8").splitlines()):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            m = re.match(r"#\s*xfail:\s*(.*)", line)
            if m and i == 0:
                exp.xfail = m.group(1).strip()
            continue
        m = _LINE.match(line)
        assert m, f"{path.name}:{i + 1}: not 'CODE LINE:COL [| text]': {raw!r}"
        text = m.group("text")
        exp.entries.append((m.group("code"), int(m.group("line")), int(m.group("col")),
                            text.strip() if text and text.strip() else None))
    return exp


def judge_file(path: Path):
    """(file-level diagnostics, [(game, result)]) for one record, judged in-process."""
    reader = Reader(str(path))
    games = list(reader.read_text(path.read_text(encoding="utf-8")))
    referee = Referee()
    return list(reader.prelude.errors), [(g, referee.judge(g)) for g in games]


def all_diagnostics(path: Path):
    prelude, judged = judge_file(path)
    return prelude + [d for _, r in judged for d in r.diagnostics]


def _param(path: Path):
    exp = read_expected(path)
    marks = [pytest.mark.xfail(strict=True, reason=exp.xfail)] if exp.xfail else []
    return pytest.param(path, id=path.name, marks=marks)


def _show(diags) -> str:
    return "\n".join(
        f"  {d.code} {d.span.line if d.span else '?'}:{d.span.col if d.span else '?'} {d.message}" for d in diags
    ) or "  (none)"


# ---- the corpus itself -------------------------------------------------------------------


def test_corpus_is_there():
    assert len(VALID) >= 10
    assert len(INVALID) >= 30
    for p in INVALID:
        assert p.with_suffix(".expected").exists(), f"{p.name} has no .expected"
        assert read_expected(p).entries, f"{p.name}.expected lists no diagnostic"
    for p in VALID:
        assert not read_expected(p).entries, f"valid record {p.name} expects diagnostics"


def test_corpus_covers_every_code():
    """Every S, R and M code the reader or referee can produce has an invalid record."""
    covered = {code for p in INVALID for code, *_ in read_expected(p).entries}
    wanted = {c for c, known in CODES.items() if c[0] in "SRM" and not known.retired}
    assert wanted - covered == set()
    # A retired code is never reported again (docs/rulings.md, ruling 10 retired R116).
    retired = {c for c, known in CODES.items() if known.retired}
    assert "R116" in retired and not covered & retired


# ---- valid records ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", [_param(p) for p in VALID])
def test_valid_record_checks_clean(path):
    prelude, judged = judge_file(path)
    assert prelude == []
    assert judged, "no game in the record"
    for game, res in judged:
        assert game.errors == [], _show(game.errors)
        assert res.diagnostics == [], f"game {game.number}:\n" + _show(res.diagnostics)
        assert res.judged, f"game {game.number} was not judged: {res.stopped}"
        assert res.stopped is None, f"game {game.number}: replay stopped: {res.stopped}"
        result = game.tag("Result")
        if result and result.strip() != "*":
            # The tag matches the replay: independently of the referee's own R112 check.
            words = result.split()
            assert res.finished
            assert game.seats[res.loser] == words[0]
            if len(words) == 2:
                assert res.legs == int(words[1])


# ---- invalid records ----------------------------------------------------------------------


@pytest.mark.parametrize("path", [_param(p) for p in INVALID])
def test_invalid_record_diagnostics(path):
    exp = read_expected(path)
    diags = all_diagnostics(path)
    got = Counter((d.code, d.span.line, d.span.col) if d.span else (d.code, 0, 0) for d in diags)
    assert got == exp.keys, (
        f"{path.name}: expected\n" + "\n".join(f"  {c} {ln}:{k}" for c, ln, k, _ in exp.entries)
        + "\ngot\n" + _show(diags)
    )
    # Each expected text is in the message of its own diagnostic.
    pool = list(diags)
    for code, line, col, text in sorted(exp.entries, key=lambda e: e[3] is None):
        match = next((d for d in pool if d.span and (d.code, d.span.line, d.span.col) == (code, line, col)
                      and (text is None or text in d.message)), None)
        assert match is not None, f"{path.name}: no {code} at {line}:{col} whose message holds {text!r}:\n" + _show(diags)
        pool.remove(match)


@pytest.mark.parametrize("path", [p for p in VALID + INVALID if not read_expected(p).xfail], ids=lambda p: p.name)
def test_crlf_line_ends_change_nothing(path, tmp_path):
    """The same record written with CRLF line ends: the same diagnostics at the same
    lines and columns."""
    crlf = tmp_path / path.name
    crlf.write_bytes(path.read_text(encoding="utf-8").replace("\n", "\r\n").encode("utf-8"))
    got = Counter((d.code, d.span.line, d.span.col) for d in all_diagnostics(crlf))
    assert got == read_expected(path).keys


def test_invalid_records_through_the_json_report():
    """`check --format json` on the whole directory reports what the in-process referee
    does (the command streams games in batches: the same diagnostics, the same places)."""
    proc = run_cli("check", "--format", "json", str(DATA / "invalid"))
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    by_file = {Path(f["path"]).name: f for f in report["files"]}
    assert set(by_file) == {p.name for p in INVALID}
    for p in INVALID:
        exp = read_expected(p)
        if exp.xfail:
            continue
        f = by_file[p.name]
        diags = list(f["diagnostics"]) + [d for g in f["games"] for d in g["diagnostics"]]
        got = Counter((d["code"], d["location"]["line"], d["location"]["column"]) for d in diags)
        assert got == exp.keys, p.name


# ---- the command line ------------------------------------------------------------------------


def _caret_column(out: str, line_no: int, source: str) -> int:
    """The column (1-based) of the first caret drawn under the quoted source line."""
    lines = out.splitlines()
    for i, text in enumerate(lines):
        if text.startswith(f"{line_no} | ") and text[len(f"{line_no} | "):] == source:
            caret = lines[i + 1]
            gutter = " " * len(str(line_no)) + " | "
            assert caret.startswith(gutter), caret
            body = caret[len(gutter):]
            return body.index("^") + 1
    raise AssertionError(f"line {line_no} {source!r} is not quoted in:\n{out}")


def test_cli_valid_record_exit_0(cli):
    proc = cli("check", str(DATA / "valid" / "basic-tricks.gwy"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no errors" in proc.stdout
    assert "error[" not in proc.stdout and "mistake[" not in proc.stdout


def test_cli_valid_directory_exit_0(cli):
    proc = cli("check", "--quiet", str(DATA / "valid"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"checked {len(VALID)} files" in proc.stdout


def test_cli_renege_caret_under_the_card(cli):
    path = DATA / "invalid" / "M201-renege.gwy"
    proc = cli("check", str(path))
    assert proc.returncode == 1
    out = proc.stdout
    assert "mistake[M201]" in out
    assert f"{path}:13:28" in out
    source = path.read_text(encoding="utf-8").splitlines()[12]
    col = _caret_column(out, 13, source)
    assert source[col - 1:].startswith("10♣")
    assert "= help: penalty (ruling 1): East picks up the 3 cards of trick 2 and leads trick 3" in out


def test_cli_syntax_error_quotes_its_own_line(cli):
    """A syntax error found line by line quotes that line, with the caret where the card is
    missing (not the game's %game line)."""
    path = DATA / "invalid" / "S001-syntax.gwy"
    proc = cli("check", str(path))
    assert proc.returncode == 1
    col = _caret_column(proc.stdout, 9, "1. West A♠ North")
    assert col == 17


def test_cli_related_play_is_quoted(cli):
    path = DATA / "invalid" / "M201-renege-proved.gwy"
    proc = cli("check", str(path))
    assert proc.returncode == 1
    out = proc.stdout
    assert f"{path}:15:28" in out     # the tochoo
    assert f"{path}:20:38" in out     # the play that proves it
    source = path.read_text(encoding="utf-8").splitlines()[19]
    assert source[_caret_column(out, 20, source) - 1:].startswith("4♥")


@pytest.mark.skipif(shutil.which("getaway-ref") is None, reason="getaway-ref is not on PATH")
def test_installed_command_exit_codes():
    ok = subprocess.run(["getaway-ref", "check", str(DATA / "valid" / "pagat-example.gwy")],
                        capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = subprocess.run(["getaway-ref", "check", str(DATA / "invalid" / "R111-counts.gwy")],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 1
    assert "error[R111]" in bad.stdout


MEANT_TO_FAIL = ("illegal", "invalid", "bad")


@pytest.mark.parametrize("path", sorted(RECORDS.glob("*.gwy")), ids=lambda p: p.name)
def test_records_pass_unless_named_to_fail(path):
    """records/: a record passes `check`, unless its name says it shows a mistake."""
    failing = any(word in path.stem for word in MEANT_TO_FAIL)
    r = run_cli("check", "-q", str(path))
    assert r.returncode == (1 if failing else 0), r.stdout + r.stderr
