"""The Neovim setup (editors/nvim/) as a user meets it: Debian's Neovim (0.7) started
headless with the plugin on its runtime path opens a record, detects the filetype, starts
the editor server and receives its diagnostics, where `check` puts them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA, ROOT, run_cli

NVIM = shutil.which("nvim")
pytestmark = pytest.mark.skipif(NVIM is None, reason="nvim is not installed (apt-get install neovim)")

SCRIPT = """
require('getaway_ref').setup({ cmd = { vim.env.GWY_PYTHON, '-m', 'referee', 'lsp' } })
vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.GWY_FILE))
local ok = vim.wait(90000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local out = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out, { code = d.code, lnum = d.lnum, col = d.col, severity = d.severity })
end
local f = io.open(vim.env.GWY_OUT, 'w')
f:write(vim.fn.json_encode({ ok = ok, filetype = vim.bo.filetype, commentstring = vim.bo.commentstring,
                             syntax = vim.bo.syntax, diagnostics = out }))
f:close()
vim.cmd('qa!')
"""


def test_neovim_shows_the_servers_diagnostics_for_a_record(tmp_path: Path) -> None:
    record = DATA / "invalid" / "M201-renege-proved.gwy"
    script = tmp_path / "open.lua"
    script.write_text(SCRIPT, encoding="utf-8")
    out = tmp_path / "seen.json"
    env = dict(os.environ, GWY_PYTHON=sys.executable, GWY_FILE=str(record), GWY_OUT=str(out),
               PYTHONPATH=str(ROOT), HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path),
               XDG_STATE_HOME=str(tmp_path))
    assert NVIM is not None
    r = subprocess.run([NVIM, "--headless", "-u", "NONE", "-i", "NONE", "--cmd", f"set rtp^={ROOT / 'editors' / 'nvim'}",
                        "--cmd", "filetype plugin on", "--cmd", "syntax on", "-c", f"luafile {script}"],
                       env=env, capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    seen = json.loads(out.read_text(encoding="utf-8"))
    assert seen["ok"] and seen["filetype"] == "gwy" and seen["syntax"] == "gwy" and seen["commentstring"] == "# %s"
    # The same problems check reports, at the same lines (Neovim counts lines from 0).
    report = json.loads(run_cli("check", "--output-format", "json", str(record)).stdout)
    expected = sorted((d["code"], d["location"]["line"] - 1) for g in report["files"][0]["games"] for d in g["diagnostics"])
    assert sorted((d["code"], d["lnum"]) for d in seen["diagnostics"]) == expected == [("M201", 14), ("M201", 30)]
    assert {d["severity"] for d in seen["diagnostics"]} == {2}  # a mistake is a warning
