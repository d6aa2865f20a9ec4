"""One huge line does not cost many times its size (issue 36, item 6).

A record with a 60 MB comment line took 493 MB in ``check`` and 512 MB in ``fmt --check``:
the line was copied whole again and again (the block reader's carry, the region, the
decoded text, the parser's token, the comment). A line now holds at most LINE_MOST bytes
(1 MiB, docs/notation.md, Files and games); a longer one is refused at its line, in one
line naming the file, the line and the column, exit 2, as a file that is not UTF-8 is. What
a command costs then does not grow with the line.

Memory is measured, not time: each command runs in a fresh process started by a fresh
Python process of its own, which reports its children's peak resident size
(``getrusage(RUSAGE_CHILDREN).ru_maxrss``), so no other test's child counts.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import RECORDS, ROOT

from referee.notation.reader import LINE_MOST

PAGAT = (RECORDS / "pagat-example.gwy").read_bytes()
HUGE = 20 << 20  # the comment line of the test: 20 times the limit

# A fresh process that runs the command and prints its peak resident size, in KB (Linux).
PEAK = """
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], capture_output=True)
sys.stdout.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) + "\\n")
sys.stdout.write(str(r.returncode) + "\\n")
sys.stdout.buffer.write(r.stderr)
"""

# One command for each way a record is read: the %game scanner and the slices (check), the
# block reader with the writer's hash of the file (fmt --write), the scan for one game
# (show), the export's own loop.
COMMANDS = {
    "check": ["check", "{}"],
    "fmt --write": ["fmt", "--write", "{}"],
    "show": ["show", "{}"],
    "export": ["export", "{}"],
}


def peak(args: list[str], cwd: Path) -> tuple[int, int, str]:
    """(peak resident KB, exit code, standard error) of ``getaway-ref ARGS``."""
    r = subprocess.run([sys.executable, "-c", PEAK, sys.executable, "-m", "referee", *args], cwd=str(cwd),
                       capture_output=True, timeout=300, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 0, r.stderr
    kb, code, err = r.stdout.split(b"\n", 2)
    return int(kb), int(code), err.decode("utf-8", "replace")


def with_comment(size: int, where: str) -> bytes:
    """The Pagat example with a comment line of ``size`` bytes (its '#' included), before
    the game (``where`` "prelude") or after its last play ("end")."""
    line = b"#" + b"x" * (size - 1) + b"\n"
    if where == "prelude":
        return PAGAT.replace(b"%game", line + b"%game", 1)
    return PAGAT + line


def line_of(data: bytes, size: int) -> int:
    return data[:data.index(b"x" * 16)].count(b"\n") + 1


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KB, as Linux gives it")
@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_huge_line_is_refused_in_one_line_and_costs_less_than_its_size(tmp_path: Path, name: str) -> None:
    small = tmp_path / "small.gwy"
    small.write_bytes(PAGAT)
    base, code, err = peak([a.format(small.name) for a in COMMANDS[name]], tmp_path)
    assert code in (0, 1) and "error" not in err, err
    for where in ("prelude", "end"):
        data = with_comment(HUGE, where)
        big = tmp_path / f"{where}.gwy"
        big.write_bytes(data)
        kb, code, err = peak([a.format(big.name) for a in COMMANDS[name]], tmp_path)
        # The command's peak beyond its peak on the small record: less than the line itself
        # (it was 8 times the line), whatever the line's size.
        assert (kb - base) * 1024 < HUGE, (where, kb, base)
        assert code == 2, (where, code, err)
        assert "Traceback" not in err
        lines = [line for line in err.splitlines() if line.strip()]
        n = line_of(data, HUGE)
        said = f"error: {big.name}: line {n}, column 1: the line is longer than {LINE_MOST:,} bytes"
        assert any(line.startswith(said) for line in lines), err
        assert big.read_bytes() == data  # fmt --write refused it untouched


def test_a_line_at_the_limit_is_read_as_any_other(tmp_path: Path) -> None:
    """The limit refuses only what no record holds: a comment of 1 MiB is a comment, kept
    by fmt and read by check."""
    data = with_comment(LINE_MOST, "end")
    rec = tmp_path / "rec.gwy"
    rec.write_bytes(data)
    r = subprocess.run([sys.executable, "-m", "referee", "check", "rec.gwy"], cwd=str(tmp_path), capture_output=True,
                       text=True, timeout=300, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 0 and "no errors" in r.stdout, r.stdout + r.stderr
    f = subprocess.run([sys.executable, "-m", "referee", "fmt", "rec.gwy"], cwd=str(tmp_path), capture_output=True,
                       timeout=300, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert f.returncode == 0 and f.stdout.endswith(data[-(LINE_MOST):]), f.stderr
    over = with_comment(LINE_MOST + 1, "end")
    rec.write_bytes(over)
    r = subprocess.run([sys.executable, "-m", "referee", "check", "rec.gwy"], cwd=str(tmp_path), capture_output=True,
                       text=True, timeout=300, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 2 and f"line {line_of(over, LINE_MOST + 1)}, column 1" in r.stderr, r.stderr


def test_the_editor_server_shows_the_refusal_at_the_line(tmp_path: Path) -> None:
    """In the editor, the same limit: a diagnostic on the line (S001, the line is not in the
    notation), the games before it judged, and no 'Error in server'."""
    pytest.importorskip("pygls")
    from test_torn_records import Editor

    data = with_comment(LINE_MOST + 1, "end").decode("utf-8")
    n = line_of(data.encode("utf-8"), LINE_MOST + 1)
    d = tmp_path / "d"
    d.mkdir()
    ed = Editor(d)
    try:
        ed.send("initialize", {"processId": None, "rootUri": None, "capabilities": {}}, request=True)
        ed.read()
        ed.send("initialized", {})
        uri = (d / "rec.gwy").as_uri()
        ed.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "gwy", "version": 1, "text": data}})
        seen = ed.until("textDocument/publishDiagnostics")
        assert not [m for m in seen if m.get("method") == "window/showMessage"], seen
        (diag,) = seen[-1]["params"]["diagnostics"]
        assert diag["code"] == "S001" and diag["range"]["start"]["line"] == n - 1
        assert f"line {n}, column 1: the line is longer than {LINE_MOST:,} bytes" in diag["message"]
        ed.send("shutdown", None, request=True)
        ed.send("exit", None)
        assert ed.proc.wait(60) == 0
    finally:
        if ed.proc.poll() is None:
            ed.proc.kill()
