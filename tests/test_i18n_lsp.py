"""The editor server in the editor's language (issue 40): `getaway-ref lsp` started as a
subprocess, told the editor's language by ``initialize``'s ``locale`` (LSP 3.16), says its
hover, diagnostics, completion details, quick-fix titles and outline in it. What it should
say is asked of the wording layer (and the referee) in that language, never copied here;
without a locale the language is the one ``--lang`` or the environment chose."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from conftest import DATA, RECORDS, ROOT
from lsprotocol import types as T
from pytest_lsp import ClientServerConfig, LanguageClient
from test_lsp import line_of, open_doc
from test_lsp_editor import Raw as EditorRaw

import referee
from referee.engine.language import speaking
from referee.judging import wording as W
from referee.notation.reader import Reader
from referee.table.views import PlayModel, on_the_table, waste_pile_words

PROVED = DATA / "invalid" / "M201-renege-proved.gwy"
FULL = RECORDS / "full-game.gwy"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "referee", "lsp"]))
async def urdu(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=T.ClientCapabilities(), root_uri=ROOT.as_uri(), locale="ur"))
    yield
    await lsp_client.shutdown_session()


def said(lang: str, words: Any, *args: Any, **kw: Any) -> str:
    with speaking(lang):
        out: str = words(*args, **kw)
    return out


@pytest.mark.asyncio
async def test_a_hover_on_a_play_is_in_the_editors_language(urdu: LanguageClient) -> None:
    text = PROVED.read_text(encoding="utf-8")
    uri = await open_doc(urdu, PROVED, text)
    n, line = line_of(text, "4. West 2♥, North 6♥, East K♣")
    h = await urdu.text_document_hover_async(T.HoverParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=n, character=line.index("K♣") + 1)))
    assert h is not None
    value = h.contents.value  # type: ignore[union-attr]
    lines = value.split("\n")
    # The position before East's K♣ in trick 4, each fact as the wording layer (and legal's
    # own sentences) say it in Urdu: three tricks played, 12 cards in the waste pile.
    assert lines[0] == f"**{said('ur', W.before_play, 'East', 'K♣')}** {said('ur', W.in_trick, 4)}"
    hands = [("North", 9, False), ("East", 10, False), ("South", 10, False), ("West", 9, False)]
    assert said("ur", W.hands, hands) in lines
    assert said("ur", waste_pile_words, 12) in lines
    plays = [PlayModel(seat="West", card="2♥"), PlayModel(seat="North", card="6♥")]
    assert said("ur", on_the_table, plays) in lines
    assert said("ur", W.may_play, "East", "play", None, follow="♥", unseen=10) in lines
    # Said in Urdu, not in English: none of the English sentences is left.
    english = [said("en", W.before_play, "East", "K♣"), said("en", W.hands, hands), said("en", waste_pile_words, 12)]
    assert all(e not in value for e in english)
    assert "hands:" not in value and "waste pile" not in value and "may play" not in value


@pytest.mark.asyncio
async def test_a_diagnostic_is_in_the_editors_language(urdu: LanguageClient) -> None:
    text = PROVED.read_text(encoding="utf-8")
    uri = await open_doc(urdu, PROVED, text)
    got = sorted(d.message for d in urdu.diagnostics[uri] if d.code == "M201")
    # The referee's own messages, judged in Urdu in this process.
    with speaking("ur"):
        want = sorted(d.message_with_help for g in referee.parse(text) for d in referee.Referee().judge(g).diagnostics
                      if d.code == "M201")
    with speaking("en"):
        english = sorted(d.message_with_help for g in referee.parse(text) for d in referee.Referee().judge(g).diagnostics
                         if d.code == "M201")
    assert len(got) == 2 and got == want and got != english


@pytest.mark.asyncio
async def test_completion_details_and_quick_fix_titles_are_in_the_editors_language(urdu: LanguageClient,
                                                                                   tmp_path: Path) -> None:
    text = FULL.read_text(encoding="utf-8")
    n, line = line_of(text, "3. North 4♦, East 5♦")
    cut = line[: line.index("East")]  # "3. North 4♦, ": East is to play
    typed = text.split("\n")
    typed[n] = cut + "East "
    uri = await open_doc(urdu, tmp_path / "typed.gwy", "\n".join(typed))
    res = await urdu.text_document_completion_async(T.CompletionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=n, character=len(cut))))
    items = res.items if isinstance(res, T.CompletionList) else res or []
    details = {i.label: i.detail for i in items}
    assert details["East"] == said("ur", W.may_play_now) != said("en", W.may_play_now)
    assert details["North"] == said("ur", W.seat_word)
    res = await urdu.text_document_completion_async(T.CompletionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=T.Position(line=n, character=len(cut) + 5)))
    cards = res.items if isinstance(res, T.CompletionList) else res or []
    assert cards and {c.detail for c in cards} == {said("ur", W.may_play_it, "East", "play")}

    # A hand written out of order: the fix that sorts it; a missing version line: the
    # reader's fix, its title as the reader words it in Urdu.
    head, hand = line_of(text, "North ")[1].split(" ", 1)
    unsorted = text.replace(f"{head} {hand}", f"{head} {' '.join(reversed(hand.split('#')[0].split()))}", 1)
    unsorted = unsorted.removeprefix("%gwy 1\n")
    uri = await open_doc(urdu, tmp_path / "fixes.gwy", unsorted)
    (d,) = [d for d in urdu.diagnostics[uri] if d.code == "S005"]
    with speaking("ur"):
        reader = Reader("fixes.gwy")
        reader.read_prelude("", 0)
        (missing,) = [e for e in reader.prelude.errors if e.fix is not None]
    actions = await urdu.text_document_code_action_async(T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=uri),
        range=T.Range(start=T.Position(line=0, character=0), end=T.Position(line=len(unsorted.split("\n")), character=0)),
        context=T.CodeActionContext(diagnostics=[d])))
    titles = {a.title for a in actions or [] if isinstance(a, T.CodeAction)}
    assert missing.fix is not None and missing.fix.title in titles
    assert said("ur", W.sort_hand_fix, "North") in titles
    assert said("en", W.sort_hand_fix, "North") not in titles and not any("%gwy 1'" in t and "Add" in t for t in titles)


@pytest.mark.asyncio
async def test_the_outline_is_in_the_editors_language(urdu: LanguageClient) -> None:
    text = PROVED.read_text(encoding="utf-8")
    uri = await open_doc(urdu, PROVED, text)
    symbols = await urdu.text_document_document_symbol_async(T.DocumentSymbolParams(
        text_document=T.TextDocumentIdentifier(uri=uri)))
    games = [s for s in symbols or [] if isinstance(s, T.DocumentSymbol)]
    event = "nobody noticed: East's K♣ in trick 4 was a renege, East still held 4♥"
    assert games[0].name == said("ur", W.game_name, 1, event) != said("en", W.game_name, 1, event)
    assert [c.name for c in games[0].children or []] == [said("ur", W.trick_name, k) for k in range(1, 8)]


# ---- without a locale: the one --lang or the environment chose -------------------------------------------


class Raw(EditorRaw):
    """The editor tests' JSON-RPC client, started with the environment given (no language of
    ours in it, so only ``env`` and the arguments choose one)."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        base = {k: v for k, v in os.environ.items() if k not in ("GETAWAY_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES")}
        super().__init__({**base, "LANG": "C.UTF-8", "PYTHONPATH": str(ROOT), **env}, *args)

    def hover_head(self, locale: str | None) -> str:
        init: dict[str, Any] = {"processId": None, "rootUri": None, "capabilities": {}}
        if locale is not None:
            init["locale"] = locale
        try:
            assert self.request("initialize", init)["result"]
            self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
            text = PROVED.read_text(encoding="utf-8")
            n, line = line_of(text, "1. West A♠")
            got = self.request("textDocument/hover", {"textDocument": {"uri": PROVED.as_uri()},
                                                      "position": {"line": n, "character": line.index("A♠")}})
            self.request("shutdown", None)
            self.send({"jsonrpc": "2.0", "method": "exit", "params": None})
            assert self.proc.wait(60) == 0
            value: str = got["result"]["contents"]["value"]
            return value.split("\n")[0]
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def head(lang: str) -> str:
    return f"**{said(lang, W.before_play, 'West', 'A♠')}** {said(lang, W.in_trick, 1)}"


def test_without_a_locale_the_server_speaks_english_as_before() -> None:
    assert Raw({}).hover_head(None) == "**Before West A♠** (trick 1)" == head("en")


def test_without_a_locale_the_environment_or_lang_chooses() -> None:
    assert Raw({"GETAWAY_LANG": "hi"}).hover_head(None) == head("hi") != head("en")
    assert Raw({}, "--lang", "bn").hover_head(None) == head("bn")


def test_the_editors_locale_wins_and_one_we_do_not_speak_is_left_aside() -> None:
    assert Raw({"GETAWAY_LANG": "hi"}).hover_head("ml-IN") == head("ml")
    assert Raw({"GETAWAY_LANG": "hi"}).hover_head("fr-FR") == head("hi")
