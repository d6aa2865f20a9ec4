"""Three edges of issue 36, item 14, each as its user meets it: ``check --dask`` with an
address no client can reach, the editor server told to exit without a shutdown, and a
comment on the ``%gwy`` line through the JSON export.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import RECORDS, ROOT, run_cli

# ---- check --dask: an address no client can reach ----------------------------------------------


@pytest.mark.parametrize("address", ["inproc://x", "inproc://127.0.0.1/1/2"])
def test_dask_with_an_inproc_address_is_one_line_and_exit_2(address):
    """An inproc:// scheduler lives inside the process that made it: check cannot reach one.
    It took 20 s and printed a traceback; now one line, before any connection is tried."""
    pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    r = subprocess.run([sys.executable, "-m", "referee", "check", "--dask", address, str(RECORDS / "pagat-example.gwy")],
                       cwd=ROOT, capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, GETAWAY_DASK_WAIT="0"))
    assert r.returncode == 2
    assert r.stdout == ""
    assert r.stderr == (f"error: --dask cannot reach '{address}': an inproc:// scheduler is inside the process that "
                        "started it; give a scheduler's network address, such as tcp://10.0.0.5:8786\n")


# ---- lsp: exit without shutdown -------------------------------------------------------------------

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"processId": None, "rootUri": None, "capabilities": {}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "initialized", "params": {}}
SHUTDOWN = {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None}
EXIT = {"jsonrpc": "2.0", "method": "exit", "params": None}


def _lsp(*messages: dict[str, Any]) -> subprocess.CompletedProcess[bytes]:
    """The editor server, sent these messages on its standard input, then its end."""
    body = b""
    for m in messages:
        raw = json.dumps(m).encode()
        body += b"Content-Length: %d\r\n\r\n" % len(raw) + raw
    return subprocess.run([sys.executable, "-m", "referee", "lsp"], input=body, capture_output=True, cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)


@pytest.mark.parametrize("messages,code", [
    pytest.param((INITIALIZE, INITIALIZED, EXIT), 1, id="exit without shutdown"),
    pytest.param((EXIT,), 1, id="exit before initialize"),
    pytest.param((INITIALIZE, INITIALIZED, SHUTDOWN, EXIT), 0, id="shutdown then exit"),
])
def test_the_editor_server_exits_with_the_code_the_protocol_says(messages, code):
    """The Language Server Protocol: after 'exit' the server ends with 0 if 'shutdown' came
    first, else 1 (it said 0 every time)."""
    pytest.importorskip("pygls", reason="the lsp extra is part of the test extra")
    r = _lsp(*messages)
    assert r.returncode == code, r.stderr
    assert b"Traceback" not in r.stderr


# ---- export: every comment fmt keeps ---------------------------------------------------------------

# A comment everywhere the notation allows one, the %gwy line first.
COMMENTED = """\
%gwy 1  # the club's book, 2026
# before the first game
%game  # the first evening
[Seats "North East South West"]  # clockwise
# a header comment
[Rules "pagat"]  #
deal  # dealt by West
North 13  # unseen
East 13
South 13
West 13
# before the play
1. North A♠, East 3♠, South 10♠, West 9♠  # the opening
North takes East  # East's hand
counts North 25, South 13, West 13  # counted
# at the end
%game
[Seats "Anu Babu Chitra"]
position  # late in a game
Anu K♥  # one card
Babu 5♥ 3♣
Chitra 7♥ 4♦ 6♠
waste rest  # the rest
lead Anu  # Anu won the last trick
trick 12  # twelve
12. Anu K♥, Babu 5♥, Chitra 7♥
Anu draws 7♦  # from the waste pile
"""


def _eol(comment: str | None) -> str:
    return "" if comment is None else f"  # {comment}" if comment else "  #"


def _remark(text: str) -> str:
    return f"# {text}" if text else "#"


def record_from_export(data: dict[str, Any]) -> str:
    """The other side of the round trip, as a program that reads the export would write the
    record again: the canonical form, from the JSON alone."""
    out = [f"%gwy {data['version']}{_eol(data.get('version_comment'))}"]
    out += [_remark(c["text"]) for c in data["comments"]]
    for g in data["games"]:
        out += ["", f"%game{_eol(g['open_comment'])}"]
        for it in g["header"]:
            value = it.get("value", "").replace("\\", "\\\\").replace('"', '\\"')
            out.append(_remark(it["text"]) if it["kind"] == "comment" else f'[{it["name"]} "{value}"]{_eol(it["comment"])}')
        if g["setup"] is not None:
            out.append(g["setup"]["kind"])
            for it in g["setup"]["items"]:
                kind = it["kind"]
                if kind == "comment":
                    out.append(_remark(it["text"]))
                    continue
                if kind == "hand":
                    body = str(it["size"]) if it["cards"] is None else " ".join(it["cards"]) or "..."
                    line = f"{it['seat']} {body}"
                elif kind == "out":
                    line = f"{it['seat']} out"
                elif kind == "waste":
                    line = "waste " + ("rest" if it["rest"] else str(it["size"]) if it["size"] is not None
                                       else " ".join(it["cards"]))
                elif kind == "lead":
                    line = f"lead {it['seat']}"
                elif kind == "next_trick":
                    line = f"trick {it['number']}"
                else:
                    line = f"trumps {it['suit']}"
                out.append(line + _eol(it["comment"]))
        for it in g["actions"]:
            kind = it["kind"]
            if kind == "comment":
                out.append(_remark(it["text"]))
                continue
            if kind == "trick":
                line = f"{it['number']}. " + ", ".join(f"{p['seat']} {p['card']}" for p in it["plays"])
            elif kind == "take":
                line = f"{it['taker']} takes {it['target']}"
            elif kind == "draw":
                line = f"{it['seat']} draws {it['card']}" + (f" from {it['source']}" if it["source"] else "")
            else:
                line = "counts " + ", ".join(f"{s['seat']} {s['size']}" for s in it["sizes"])
            out.append(line + _eol(it["comment"]))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("fmt_", ["json", "jsonl"])
def test_the_export_keeps_every_comment_fmt_keeps(tmp_path: Path, fmt_: str):
    """The record written again from its export is what fmt writes, every comment in it:
    the comment on the %gwy line was dropped."""
    f = tmp_path / "commented.gwy"
    f.write_text(COMMENTED, encoding="utf-8")
    canonical = run_cli("fmt", str(f))
    assert canonical.returncode == 0, canonical.stderr
    assert "%gwy 1  # the club's book, 2026\n" in canonical.stdout
    r = run_cli("export", "--format", fmt_, str(f))
    assert r.returncode == 0, r.stderr
    if fmt_ == "json":
        data = json.loads(r.stdout)
    else:
        head, *games = (json.loads(line) for line in r.stdout.splitlines())
        data = {**head, "games": games}
    assert data["version_comment"] == "the club's book, 2026"
    assert record_from_export(data) == canonical.stdout


def test_every_shipped_record_comes_back_from_its_export():
    """The same round trip over every record the project ships (in this process: the
    commands' own functions, as the test above runs them)."""
    from referee.notation.format import format_file
    from referee.notation.reader import parse_file_text
    from referee.reports.export import record_file

    kept = 0
    for path in sorted(RECORDS.glob("*.gwy")):
        prelude, games = parse_file_text(path.read_text(encoding="utf-8").removeprefix("\ufeff"), str(path))
        if prelude.errors or any(g.errors for g in games):
            continue  # a record fmt cannot read whole is not a round trip's to keep
        data = json.loads(record_file(str(path), prelude, games).model_dump_json())
        assert record_from_export(data) == format_file(prelude, games), path.name
        kept += 1
    assert kept >= 20
