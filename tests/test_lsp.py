"""The editor server end to end: `getaway-ref lsp` started as a subprocess, spoken to as an
editor would (pytest-lsp's client): open a record with a renege, receive the diagnostics
with the place that proves it, hover a play, complete seats and cards, format, quick-fix."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from conftest import DATA, RECORDS, ROOT
from lsprotocol import types as T
from pytest_lsp import ClientServerConfig, LanguageClient

PROVED = DATA / "invalid" / "M201-renege-proved.gwy"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "referee", "lsp"]))
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=T.ClientCapabilities(), root_uri=ROOT.as_uri()))
    yield
    await lsp_client.shutdown_session()


async def open_doc(client: LanguageClient, path: Path, text: str | None = None) -> str:
    """The document opened in the editor (its text, or the file's), once the server has published its diagnostics."""
    uri = path.as_uri()
    client.text_document_did_open(T.DidOpenTextDocumentParams(text_document=T.TextDocumentItem(
        uri=uri, language_id="gwy", version=1, text=text if text is not None else path.read_text(encoding="utf-8"))))
    await client.wait_for_notification(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return uri


def line_of(text: str, start: str) -> tuple[int, str]:
    """The number and the text of the first line that starts with ``start``."""
    for i, line in enumerate(text.split("\n")):
        if line.startswith(start):
            return i, line
    raise AssertionError(start)


@pytest.mark.asyncio
async def test_a_renege_is_published_with_the_play_that_proves_it(client: LanguageClient) -> None:
    text = PROVED.read_text(encoding="utf-8")
    uri = await open_doc(client, PROVED, text)
    diags = client.diagnostics[uri]
    reneges = [d for d in diags if d.code == "M201"]
    assert len(reneges) == 2
    first = reneges[0]
    n, line = line_of(text, "4. West 2♥, North 6♥, East K♣")
    assert first.range.start == T.Position(line=n, character=line.index("K♣"))
    assert first.range.end.character == line.index("K♣") + 2
    assert first.severity == T.DiagnosticSeverity.Warning and first.source == "getaway-ref"
    (rel,) = first.related_information or []
    m, proof = line_of(text, "7. South 2♣, West 3♣, North K♣, East 4♥")
    assert rel.location.uri == uri and rel.location.range.start == T.Position(line=m, character=proof.index("4♥"))
    assert "heart" in rel.message


@pytest.mark.asyncio
async def test_diagnostics_follow_the_text_as_it_is_typed(client: LanguageClient) -> None:
    path = RECORDS / "pagat-example.gwy"
    text = path.read_text(encoding="utf-8")
    uri = await open_doc(client, path, text)
    assert list(client.diagnostics[uri]) == []
    n, line = line_of(text, "2. West 5♥")
    col = line.index("9♥")
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[T.TextDocumentContentChangePartial(
            range=T.Range(start=T.Position(line=n, character=col), end=T.Position(line=n, character=col + 2)),
            text="9X")]))
    await client.wait_for_notification(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    (d,) = client.diagnostics[uri]
    assert d.code == "S002" and d.range.start == T.Position(line=n, character=col)
    assert d.severity == T.DiagnosticSeverity.Error


@pytest.mark.asyncio
async def test_hover_on_a_play_shows_the_position_before_it(client: LanguageClient) -> None:
    text = PROVED.read_text(encoding="utf-8")
    uri = await open_doc(client, PROVED, text)
    n, line = line_of(text, "4. West 2♥, North 6♥, East K♣")
    h = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=n, character=line.index("K♣") + 1)))
    assert h is not None
    value = h.contents.value  # type: ignore[union-attr]
    assert "Before East K♣" in value and "trick 4" in value
    # After three tricks, hands of 13: North 9 (played 3, none picked up), and so on; the
    # waste pile holds the 12 cards of tricks 1-3; East must follow hearts.
    assert "hands: North 9, East 10, South 10, West 9" in value
    assert "waste pile: 12 cards" in value
    assert "East to play to trick 4, following ♥ if able" in value
    assert "on the table: West 2♥, North 6♥" in value
    # the first play of the game: who leads and why
    n1, line1 = line_of(text, "1. West A♠")
    h = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=n1, character=line1.index("West"))))
    assert h is not None and "A♠" in h.contents.value and "opens trick 1" in h.contents.value  # type: ignore[union-attr]
    # nothing to say off a play
    h = await client.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=0, character=1)))
    assert h is None


@pytest.mark.asyncio
async def test_completion_offers_seats_then_the_cards_legal_at_that_point(client: LanguageClient) -> None:
    path = RECORDS / "full-game.gwy"
    text = path.read_text(encoding="utf-8")
    n, line = line_of(text, "3. North 4♦, East 5♦")
    cut = line[: line.index("East")]  # "3. North 4♦, "
    typed = text.split("\n")
    typed[n] = cut
    uri = await open_doc(client, path, "\n".join(typed))
    res = await client.text_document_completion_async(T.CompletionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=n, character=len(cut))))
    assert res is not None
    items = res.items if isinstance(res, T.CompletionList) else res
    seats = sorted(items, key=lambda i: i.sort_text or "")
    assert {i.label for i in items} == {"North", "East", "South", "West"}
    assert seats[0].label == "East" and seats[0].detail == "may play now"
    # "East " typed: East's hand is known from the deal; the diamonds it holds, nothing else
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[T.TextDocumentContentChangePartial(
            range=T.Range(start=T.Position(line=n, character=len(cut)), end=T.Position(line=n, character=len(cut))),
            text="East ")]))
    await client.wait_for_notification(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    res = await client.text_document_completion_async(T.CompletionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=n, character=len(cut) + 5)))
    items = res.items if isinstance(res, T.CompletionList) else res  # type: ignore[union-attr]
    labels = [i.label for i in items]

    import referee
    from referee.engine.cards import card_str

    game = referee.parse(text)[0]
    before = referee.Referee(keep_engine=True)
    trimmed = referee.parse("\n".join(text.split("\n")[:n] + [cut.rstrip(", ")]))[0]
    e = before.judge(trimmed).engine
    east = list(game.seats).index("East")
    assert sorted(labels) == sorted(card_str(c) for c in e.playable(east))
    assert "5♦" in labels and all(c.endswith("♦") for c in labels)


@pytest.mark.asyncio
async def test_formatting_gives_the_canonical_form(client: LanguageClient, tmp_path: Path) -> None:
    path = RECORDS / "pagat-example.gwy"
    canon = path.read_text(encoding="utf-8")
    messy = canon.replace("1. West A♠, North J♠", "1.   West AS ,North   js")
    assert messy != canon
    f = tmp_path / "messy.gwy"
    uri = await open_doc(client, f, messy)
    edits = await client.text_document_formatting_async(T.DocumentFormattingParams(
        text_document=T.TextDocumentIdentifier(uri=uri), options=T.FormattingOptions(tab_size=4, insert_spaces=True)))
    assert edits is not None and len(edits) == 1
    r = __import__("conftest").run_cli("fmt", str(path))
    assert edits[0].new_text == r.stdout == canon
    assert edits[0].range.start == T.Position(line=0, character=0)


@pytest.mark.asyncio
async def test_a_missing_version_line_has_a_quick_fix(client: LanguageClient, tmp_path: Path) -> None:
    text = (RECORDS / "pagat-example.gwy").read_text(encoding="utf-8")
    assert text.startswith("%gwy 1\n")
    uri = await open_doc(client, tmp_path / "noversion.gwy", text[len("%gwy 1\n"):])
    (d,) = [d for d in client.diagnostics[uri] if d.code == "S005"]
    actions = await client.text_document_code_action_async(T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), range=d.range,
        context=T.CodeActionContext(diagnostics=[d])))
    assert actions
    (fix,) = actions
    assert isinstance(fix, T.CodeAction) and fix.kind == T.CodeActionKind.QuickFix and "%gwy 1" in fix.title
    (edit,) = fix.edit.changes[uri]  # type: ignore[union-attr]
    assert edit.range.start == edit.range.end == T.Position(line=0, character=0) and edit.new_text == "%gwy 1\n"


def test_without_the_lsp_extra_the_user_gets_a_one_line_hint() -> None:
    import subprocess

    # pygls made unimportable, as in an install without the extra
    code = "import sys; sys.modules['pygls'] = None; sys.argv = ['getaway-ref', 'lsp']; from referee.cli import main; main()"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip() == "error: the editor server needs the lsp extra: pip install 'getaway-ref[lsp]'"


@pytest.mark.asyncio
async def test_the_editor_follows_the_projects_settings(client: LanguageClient, tmp_path: Path) -> None:
    # What CI gates is what the editor shows: [tool.getaway-ref] ignore = ["M"]
    (tmp_path / "pyproject.toml").write_text('[tool.getaway-ref]\nignore = ["M"]\n', encoding="utf-8")
    uri = await open_doc(client, tmp_path / "renege.gwy", PROVED.read_text(encoding="utf-8"))
    assert [d.code for d in client.diagnostics[uri]] == []
    # the default rule set too: a game without [Rules], played anticlockwise
    src = (RECORDS / "anticlockwise.gwy").read_text(encoding="utf-8")
    text = "".join(x for x in src.splitlines(True) if not x.startswith("[Rules"))
    d = tmp_path / "anti"
    d.mkdir()
    uri = await open_doc(client, d / "anti.gwy", text)
    assert client.diagnostics[uri]
    (d / "getaway-ref.toml").write_text('set = { direction = "anticlockwise" }\n', encoding="utf-8")
    uri = await open_doc(client, d / "anti2.gwy", text)
    assert list(client.diagnostics[uri]) == []
