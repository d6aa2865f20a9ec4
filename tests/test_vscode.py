"""The VS Code extension (editors/vscode/) as its files are read: the manifest declares the
language, the grammar and the server's own token types; the TextMate grammar colours a
record without the server (red and black cards, trick numbers, tags, comments), its rules
applied as a TextMate tokenizer applies them (earliest match, then the first rule); the
client is valid JavaScript."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from conftest import ROOT

VSCODE = ROOT / "editors" / "vscode"
MANIFEST = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
GRAMMAR = json.loads((VSCODE / "syntaxes" / "gwy.tmLanguage.json").read_text(encoding="utf-8"))


def rules(patterns: list[dict]) -> list[dict]:
    out = []
    for p in patterns:
        if "include" in p:
            out.extend(rules([GRAMMAR["repository"][p["include"][1:]]]))
        elif "patterns" in p:
            out.extend(rules(p["patterns"]))
        else:
            out.append(p)
    return out


def tokenize(line: str) -> list[tuple[str, str]]:
    """(text, scope) of each match on one line, as a TextMate tokenizer scans it."""
    compiled = [(re.compile(r["match"]), r) for r in rules(GRAMMAR["patterns"])]
    out, pos = [], 0
    while pos <= len(line):
        best = None
        for rx, r in compiled:
            m = rx.search(line, pos)
            if m and m.end() > m.start() and (best is None or m.start() < best[0].start()):
                best = (m, r)
        if best is None:
            break
        m, r = best
        caps = r.get("captures")
        if caps:
            out.extend((m.group(int(k)), v["name"]) for k, v in caps.items() if m.group(int(k)))
        else:
            out.append((m.group(), r["name"]))
        pos = m.end()
    return out


def test_the_manifest_declares_the_language_grammar_and_the_servers_tokens() -> None:
    from referee.lsp import TOKEN_MODIFIERS, TOKEN_TYPES

    (lang,) = MANIFEST["contributes"]["languages"]
    assert lang["id"] == "gwy" and lang["extensions"] == [".gwy"]
    (grammar,) = MANIFEST["contributes"]["grammars"]
    assert (VSCODE / grammar["path"]).is_file() and grammar["scopeName"] == GRAMMAR["scopeName"]
    # Every token type of the server's legend is a standard one or declared here.
    standard = {"keyword", "comment", "string", "property", "number", "variable", "enumMember"}
    declared = {t["id"] for t in MANIFEST["contributes"]["semanticTokenTypes"]}
    assert set(TOKEN_TYPES) <= standard | declared
    assert {m["id"] for m in MANIFEST["contributes"]["semanticTokenModifiers"]} == set(TOKEN_MODIFIERS)
    assert "vscode-languageclient" in MANIFEST["dependencies"]
    assert (VSCODE / MANIFEST["main"]).is_file()


def test_the_grammar_colours_a_record_without_the_server() -> None:
    assert tokenize("4. West 2♥, North 6♥, East K♣  # tochoo") == [
        ("4.", "constant.numeric.trick.gwy"), ("2♥", "constant.other.card.red.gwy"),
        ("6♥", "constant.other.card.red.gwy"), ("K♣", "constant.other.card.black.gwy"),
        ("# tochoo", "comment.line.number-sign.gwy")]
    assert tokenize('[Seats "North East South West"]')[1:3] == [
        ("Seats", "entity.name.tag.gwy"), ('"North East South West"', "string.quoted.double.gwy")]
    assert tokenize("North AS kh 10d 2c") == [
        ("AS", "constant.other.card.black.gwy"), ("kh", "constant.other.card.red.gwy"),
        ("10d", "constant.other.card.red.gwy"), ("2c", "constant.other.card.black.gwy")]
    # A word that only begins like a card is no card.
    assert tokenize("North 13 KHX") == [("13", "constant.numeric.gwy")]
    assert tokenize("%gwy 1")[0] == ("%gwy", "keyword.control.directive.gwy")


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_client_is_valid_javascript() -> None:
    r = subprocess.run(["node", "--check", str(VSCODE / "extension.js")], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
