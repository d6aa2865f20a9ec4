"""The editor server as an editor meets it, through the protocol with the server as a
subprocess (pytest-lsp): a game judged up to the line being typed, quick fixes from the
diagnostics' fix-its, colours, the outline, folding, hand sizes after each trick line, a
verdict on each game line; and, with a raw JSON-RPC client, the answers the protocol
requires of a client that misbehaves."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from conftest import DATA, RECORDS, ROOT
from lsprotocol import types as T
from pytest_lsp import ClientServerConfig, LanguageClient
from test_lsp import line_of, open_doc

PROVED = DATA / "invalid" / "M201-renege-proved.gwy"
PAGAT = RECORDS / "pagat-example.gwy"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "referee", "lsp"]))
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    result = await lsp_client.initialize_session(T.InitializeParams(
        capabilities=T.ClientCapabilities(), root_uri=ROOT.as_uri()))
    lsp_client.init_result = result  # type: ignore[attr-defined]  # the server's capabilities, for the tests
    yield
    await lsp_client.shutdown_session()


def doc_id(uri: str) -> T.TextDocumentIdentifier:
    return T.TextDocumentIdentifier(uri=uri)


# ---- judged up to the break -------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_while_a_line_is_typed_the_verdicts_above_it_stay(client: LanguageClient, tmp_path: Path) -> None:
    full = PROVED.read_text(encoding="utf-8")
    text = "\n".join(full.split("\n")[:21] + ["8. North "]) + "\n"  # game 1, trick 8 being typed
    uri = await open_doc(client, tmp_path / "typing.gwy", text)
    codes = [(d.code, d.range.start.line) for d in client.diagnostics[uri]]
    # The renege of trick 4 (line 15, proved by trick 7) and the line being typed.
    assert codes == [("M201", 14), ("S001", 21)]
    # A hover on an earlier play shows the position, not "syntax errors".
    n, line = line_of(text, "4. West 2♥, North 6♥, East K♣")
    h = await client.text_document_hover_async(T.HoverParams(
        text_document=doc_id(uri), position=T.Position(line=n, character=line.index("K♣"))))
    assert h is not None and "hands: North 9, East 10, South 10, West 9" in h.contents.value  # type: ignore[union-attr]
    # The game's lens says how far it was judged, in the document's lines.
    lenses = await client.text_document_code_lens_async(T.CodeLensParams(text_document=doc_id(uri)))
    (lens,) = lenses or []
    assert lens.range.start.line == 3 and lens.command is not None
    assert "judged to line 21: line 22 cannot be read" in lens.command.title
    assert "1 error, 1 mistake" in lens.command.title


# ---- quick fixes --------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_seats_beginning_has_a_quick_fix_to_its_full_name(client: LanguageClient, tmp_path: Path) -> None:
    # 'W 5h' as live takes it: in a file it is an unknown seat, with the full name as its fix.
    text = PAGAT.read_text(encoding="utf-8").replace("2. West 5♥", "2. W 5h")
    uri = await open_doc(client, tmp_path / "short.gwy", text)
    (d,) = [d for d in client.diagnostics[uri] if d.code == "S003"]
    assert "did you mean 'West'?" in d.message
    actions = await client.text_document_code_action_async(T.CodeActionParams(
        text_document=doc_id(uri), range=d.range, context=T.CodeActionContext(diagnostics=[d])))
    fixes = [a for a in actions or [] if isinstance(a, T.CodeAction) and a.diagnostics]
    (fix,) = fixes
    assert fix.title == "Write 'West'" and fix.is_preferred and fix.kind == T.CodeActionKind.QuickFix
    (edit,) = fix.edit.changes[uri]  # type: ignore[union-attr]
    n, line = line_of(text, "2. W 5h")
    assert edit.new_text == "West"
    assert edit.range == T.Range(start=T.Position(line=n, character=3), end=T.Position(line=n, character=4))


@pytest.mark.asyncio
async def test_an_unsorted_hand_and_a_missing_rules_tag_have_fixes(client: LanguageClient, tmp_path: Path) -> None:
    # The project's default rule set comes from its settings; a game without [Rules] is
    # offered the tag, and a hand written out of order its sorted form.
    (tmp_path / "getaway-ref.toml").write_text('rules = "denexa"\n', encoding="utf-8")
    text = (RECORDS / "full-game.gwy").read_text(encoding="utf-8")
    text = "".join(x for x in text.splitlines(True) if not x.startswith("[Rules"))
    n, line = line_of(text, "North ")
    head, cards = line.split(" ", 1)
    shuffled = " ".join(reversed(cards.split("#")[0].split()))
    text = text.replace(line, f"{head} {shuffled}")
    uri = await open_doc(client, tmp_path / "hand.gwy", text)
    actions = await client.text_document_code_action_async(T.CodeActionParams(
        text_document=doc_id(uri), range=T.Range(start=T.Position(line=0, character=0), end=T.Position(line=n, character=0)),
        context=T.CodeActionContext(diagnostics=[])))
    titles = {a.title: a for a in actions or [] if isinstance(a, T.CodeAction)}
    assert "Sort North's hand" in titles
    (edit,) = titles["Sort North's hand"].edit.changes[uri]  # type: ignore[union-attr]
    assert edit.new_text == " ".join(cards.split("#")[0].split())  # the record's own order is the sorted one
    (rules,) = [a for t, a in titles.items() if t.startswith('Add [Rules "denexa"]')]
    (edit,) = rules.edit.changes[uri]  # type: ignore[union-attr]
    g, _ = line_of(text, "%game")
    assert edit.new_text == '[Rules "denexa"]\n' and edit.range.start == T.Position(line=g + 1, character=0)


# ---- colours, outline, folding, hand sizes ---------------------------------------------------------------


def decode(data: list[int], legend: list[str], text: str) -> list[tuple[int, str, str, int]]:
    out, line, col = [], 0, 0
    lines = text.split("\n")
    for i in range(0, len(data), 5):
        dl, dc, n, kind, mods = data[i:i + 5]
        line += dl
        col = col + dc if dl == 0 else dc
        out.append((line, lines[line][col:col + n], legend[kind], mods))
    return out


@pytest.mark.asyncio
async def test_semantic_tokens_colour_seats_suits_trick_numbers_and_the_mistake(client: LanguageClient,
                                                                               tmp_path: Path) -> None:
    text = PROVED.read_text(encoding="utf-8")
    uri = await open_doc(client, tmp_path / "colours.gwy", text)
    caps = client.init_result.capabilities  # type: ignore[attr-defined]
    assert caps is not None and caps.semantic_tokens_provider is not None
    legend = list(caps.semantic_tokens_provider.legend.token_types)  # type: ignore[union-attr]
    toks = await client.text_document_semantic_tokens_full_async(T.SemanticTokensParams(text_document=doc_id(uri)))
    assert toks is not None
    found = decode(toks.data, legend, text)
    n, _ = line_of(text, "4. West 2♥, North 6♥, East K♣")
    on_line = [(w, kind, mods) for line, w, kind, mods in found if line == n]
    assert on_line == [("4.", "number", 0), ("West", "seat", 0), ("2♥", "redCard", 0), ("North", "seat", 0),
                       ("6♥", "redCard", 0), ("East", "seat", 0), ("K♣", "blackCard", 1)]  # East's renege
    assert ("%game", "keyword") in {(w, k) for _, w, k, _ in found}
    # The lines an editor shows, asked for alone: the same tokens.
    part = await client.text_document_semantic_tokens_range_async(T.SemanticTokensRangeParams(
        text_document=doc_id(uri), range=T.Range(start=T.Position(line=n - 1, character=0),
                                                 end=T.Position(line=n, character=0))))
    assert part is not None
    assert decode(part.data, legend, text) == [t for t in found if n - 1 <= t[0] <= n]


@pytest.mark.asyncio
async def test_outline_folding_and_hand_sizes(client: LanguageClient, tmp_path: Path) -> None:
    text = PAGAT.read_text(encoding="utf-8") + "\n" + PAGAT.read_text(encoding="utf-8").split("\n", 3)[3]
    uri = await open_doc(client, tmp_path / "two.gwy", text)
    symbols = await client.text_document_document_symbol_async(T.DocumentSymbolParams(text_document=doc_id(uri)))
    games = [s for s in symbols or [] if isinstance(s, T.DocumentSymbol)]
    assert [s.name for s in games] == ["game 1: Pagat's worked example", "game 2: Pagat's worked example"]
    assert [c.name for c in games[0].children or []] == [f"trick {k}" for k in range(1, 7)]
    assert (games[0].children or [])[0].detail == "West A♠, North J♠, East A♥, South 10♠"
    g1, _ = line_of(text, "%game")
    g2 = text.split("\n").index("%game", g1 + 1)
    folds = await client.text_document_folding_range_async(T.FoldingRangeParams(text_document=doc_id(uri)))
    rows = text.split("\n")
    last1 = max(i for i in range(g2) if rows[i].strip())  # game 1's last line that is not blank
    assert [(f.start_line, f.end_line) for f in folds or []] == [(g1, last1), (g2, len(text.rstrip().split("\n")) - 1)]
    hints = await client.text_document_inlay_hint_async(T.InlayHintParams(
        text_document=doc_id(uri), range=T.Range(start=T.Position(line=0, character=0),
                                                 end=T.Position(line=g2 - 1, character=0))))
    by_line = {h.position.line: str(h.label).strip() for h in hints or []}
    # After trick 4 the record's own counts line says North 12, East 9, South 10, West 9.
    n, line = line_of(text, "4. West 2♥")
    assert by_line[n] == "North 12 · East 9 · South 10 · West 9"
    assert hints and all(h.position.character == len(text.split("\n")[h.position.line].rstrip()) for h in hints)
    n, _ = line_of(text, "6. South 5♦")
    assert by_line[n] == "North 11 · East 8 · South 10 · West 7"  # the counts line after trick 6
    assert len(by_line) == 6  # game 1's trick lines only: the range asked for


# ---- steady: coalesced edits, the changed game alone ----------------------------------------------------


@pytest.mark.asyncio
async def test_a_line_added_to_one_game_moves_the_diagnostics_of_the_next(client: LanguageClient,
                                                                             tmp_path: Path) -> None:
    text = PROVED.read_text(encoding="utf-8")
    uri = await open_doc(client, tmp_path / "moved.gwy", text)
    before = sorted(d.range.start.line for d in client.diagnostics[uri])
    assert before == [14, 30]
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[T.TextDocumentContentChangePartial(
            range=T.Range(start=T.Position(line=1, character=0), end=T.Position(line=1, character=0)),
            text="# a new comment line\n# and another\n")]))
    await client.wait_for_notification(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert sorted(d.range.start.line for d in client.diagnostics[uri]) == [16, 32]


def test_an_edit_in_one_game_judges_that_game_alone() -> None:
    from referee.lsp import analysis as A

    text = PROVED.read_text(encoding="utf-8")
    settings = A.Settings()
    first = A.read(text, "<editor>", settings)
    edited = A.read(text.replace("5. North Q♦", "5. North Q♦ ", 1), "<editor>", settings, first)
    assert edited.views[1].result is first.views[1].result and edited.views[0].result is not first.views[0].result
    moved = A.read("# one more line\n" + edited.text, "<editor>", settings, edited)
    assert [v.base for v in edited.views] == [3, 22]  # the %game lines, 0-based
    assert [v.base for v in moved.views] == [4, 23]
    assert all(a.result is b.result for a, b in zip(moved.views, edited.views))


# ---- the protocol, with a client that misbehaves ----------------------------------------------------------


class Raw:
    """A JSON-RPC client over the server's pipes, one message at a time."""

    def __init__(self, env: dict[str, str] | None = None, *args: str) -> None:
        """The server started as ``getaway-ref ARGS lsp`` with ``env`` (default: ours)."""
        self.proc = subprocess.Popen([sys.executable, "-m", "referee", *args, "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                                     env=env if env is not None else dict(os.environ, PYTHONPATH=str(ROOT)))
        self.n = 0

    def send(self, msg: dict[str, Any]) -> None:
        body = json.dumps(msg).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def request(self, method: str, params: Any) -> dict[str, Any]:
        self.n += 1
        self.send({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params})
        while True:
            msg = self.read()
            if msg.get("id") == self.n and "method" not in msg:
                return msg

    def read(self) -> dict[str, Any]:
        out = self.proc.stdout
        assert out is not None
        length = 0
        while (line := out.readline()) not in (b"\r\n", b"\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        assert length, "the server closed its output"
        parsed: dict[str, Any] = json.loads(out.read(length))
        return parsed


HOVER = {"textDocument": {"uri": "file:///nowhere.gwy"}, "position": {"line": 0, "character": 0}}


def test_every_request_gets_the_answer_the_protocol_says() -> None:
    c = Raw()
    try:
        early = c.request("textDocument/hover", HOVER)
        assert early["error"]["code"] == -32002  # ServerNotInitialized
        assert c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})["result"]
        c.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        bad = c.request("textDocument/hover", {"textDocument": {"uri": 7}, "position": "here"})
        assert bad["error"]["code"] == -32602  # InvalidParams
        assert "Traceback" not in json.dumps(bad)
        # A hover on an unopened device: answered without reading it (it never ends).
        assert c.request("textDocument/hover", {**HOVER, "textDocument": {"uri": "file:///dev/zero"}})["result"] is None
        # An unopened regular file is read: a record on disk.
        on_disk = c.request("textDocument/hover", {"textDocument": {"uri": PROVED.as_uri()},
                                                  "position": {"line": 11, "character": 4}})
        assert "Before West A♠" in on_disk["result"]["contents"]["value"]
        assert c.request("shutdown", None)["result"] is None
        late = c.request("textDocument/hover", HOVER)
        assert late["error"]["code"] == -32600  # InvalidRequest
        c.send({"jsonrpc": "2.0", "method": "exit", "params": None})
        assert c.proc.wait(60) == 0
        assert c.proc.stderr is not None and b"Traceback" not in c.proc.stderr.read()
    finally:
        if c.proc.poll() is None:
            c.proc.kill()


def test_quick_edits_are_judged_once_at_their_latest_version() -> None:
    # 20 keystrokes sent at once, as a fast typist's editor sends them: the server judges
    # the latest version, not each one in turn.
    text = PAGAT.read_text(encoding="utf-8")
    n, line = line_of(text, "2. West 5♥")
    col = line.index("9♥") + 2
    c = Raw()
    try:
        c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        c.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        uri = "file:///quick/typing.gwy"
        c.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "gwy", "version": 1, "text": text}}})
        assert c.read()["params"]["version"] == 1
        typed = " X X X X X X X X X X"  # after "9♥": a word that is no card, then spaces, ...
        for k, ch in enumerate(typed):
            c.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": 2 + k},
                "contentChanges": [{"range": {"start": {"line": n, "character": col + k},
                                              "end": {"line": n, "character": col + k}}, "text": ch}]}})
        published = []
        while not published or published[-1]["version"] != 1 + len(typed):
            msg = c.read()
            if msg.get("method") == "textDocument/publishDiagnostics":
                published.append(msg["params"])
        assert len(published) < len(typed)
        # What is published last is what the last version says, as the reader reads it.
        import referee

        final = text.replace(line, line[:col] + typed + line[col:])
        (game,) = referee.parse(final)
        expected = [(d.code, d.span.line - 1, d.span.col - 1) for d in game.errors]
        assert expected and all(line_no == n for _, line_no, _ in expected)
        assert [(d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"])
                for d in published[-1]["diagnostics"]] == expected
        c.request("shutdown", None)
        c.send({"jsonrpc": "2.0", "method": "exit", "params": None})
        c.proc.wait(60)
    finally:
        if c.proc.poll() is None:
            c.proc.kill()


def test_an_archives_outline_lists_its_games_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.lsp import analysis as A

    text = PAGAT.read_text(encoding="utf-8")
    two = text + "\n" + text.split("\n", 3)[3]  # two games of 6 tricks
    assert [len(s.children) for s in A.symbols(A.read(two))] == [6, 6]
    monkeypatch.setattr(A, "OUTLINE_TRICKS", 11)  # fewer than the document's 12
    assert [(s.name, len(s.children)) for s in A.symbols(A.read(two))] == [
        ("game 1: Pagat's worked example", 0), ("game 2: Pagat's worked example", 0)]
