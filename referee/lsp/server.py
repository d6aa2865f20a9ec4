"""The protocol side of the editor server, on pygls: diagnostics as the user types, hover,
completion, formatting and quick fixes, all from ``analysis``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from referee import __version__
from referee.lsp import analysis as A
from referee.reports.diagnostics import ERROR, MISTAKE, NOTE

SEVERITY = {ERROR: T.DiagnosticSeverity.Error, MISTAKE: T.DiagnosticSeverity.Warning,
            NOTE: T.DiagnosticSeverity.Information}

server = LanguageServer("getaway-ref", __version__, text_document_sync_kind=T.TextDocumentSyncKind.Incremental)


def _path(uri: str) -> str:
    fs = to_fs_path(uri)
    return str(Path(fs)) if fs else uri


def _lines(doc: TextDocument) -> Sequence[str]:
    return doc.lines


def _range(doc: TextDocument, place: A.Place) -> T.Range:
    """A code-point place as the client's units (UTF-16 unless it said otherwise)."""
    codec, lines = doc.position_codec, _lines(doc)
    return T.Range(start=codec.position_to_client_units(lines, T.Position(line=place.line, character=place.start)),
                   end=codec.position_to_client_units(lines, T.Position(line=place.line, character=place.end)))


def _read(doc: TextDocument) -> A.Document:
    return A.read(doc.source, _path(doc.uri))


def diagnostics(doc: TextDocument, read: A.Document) -> list[T.Diagnostic]:
    out = []
    for f in A.findings(read):
        related = [T.DiagnosticRelatedInformation(location=T.Location(uri=doc.uri, range=_range(doc, p)), message=label)
                   for p, label in f.related]
        out.append(T.Diagnostic(
            range=_range(doc, f.place), message=f.message, severity=SEVERITY.get(f.severity, T.DiagnosticSeverity.Error),
            code=f.code, source="getaway-ref", related_information=related or None,
            data={"fix": [f.fix[0], [f.fix[1].line, f.fix[1].start, f.fix[1].end], f.fix[2]]} if f.fix else None,
        ))
    return out


def _publish(ls: LanguageServer, uri: str) -> None:
    doc = ls.workspace.get_text_document(uri)
    read = _read(doc)
    if read.settings.error:
        ls.window_show_message(T.ShowMessageParams(type=T.MessageType.Warning,
                                                   message=f"getaway-ref: settings not used: {read.settings.error}"))
    ls.text_document_publish_diagnostics(
        T.PublishDiagnosticsParams(uri=uri, version=doc.version, diagnostics=diagnostics(doc, read)))


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: LanguageServer, params: T.DidOpenTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: LanguageServer, params: T.DidChangeTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: LanguageServer, params: T.DidCloseTextDocumentParams) -> None:
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


@server.feature(T.TEXT_DOCUMENT_HOVER)
def hover(ls: LanguageServer, params: T.HoverParams) -> T.Hover | None:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    pos = doc.position_from_client_units(params.position)
    text = A.hover(_read(doc), pos.line, pos.character)
    if text is None:
        return None
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text))


@server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[" ", ","]))
def completion(ls: LanguageServer, params: T.CompletionParams) -> T.CompletionList:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    pos = doc.position_from_client_units(params.position)
    items = [T.CompletionItem(label=s.label, detail=s.detail, sort_text=s.sort,
                              kind=T.CompletionItemKind.Value if s.kind == "card" else T.CompletionItemKind.Variable)
             for s in A.complete(_read(doc), pos.line, pos.character)]
    return T.CompletionList(is_incomplete=False, items=items)


@server.feature(T.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: LanguageServer, params: T.DocumentFormattingParams) -> list[T.TextEdit] | None:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    canon = A.formatted(_read(doc))
    if canon is None:
        return None
    lines = _lines(doc)
    end = doc.position_codec.position_to_client_units(
        lines, T.Position(line=len(lines), character=0)) if lines else T.Position(line=0, character=0)
    return [T.TextEdit(range=T.Range(start=T.Position(line=0, character=0), end=end), new_text=canon)]


@server.feature(T.TEXT_DOCUMENT_CODE_ACTION,
                T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
def code_action(ls: LanguageServer, params: T.CodeActionParams) -> list[T.CodeAction]:
    doc = ls.workspace.get_text_document(params.text_document.uri)
    out = []
    for d in params.context.diagnostics:
        data: Any = d.data
        if d.source != "getaway-ref" or not isinstance(data, dict) or "fix" not in data:
            continue
        title, (line, start, end), new = data["fix"]
        edit = T.TextEdit(range=_range(doc, A.Place(line, start, end)), new_text=new)
        out.append(T.CodeAction(title=title, kind=T.CodeActionKind.QuickFix, diagnostics=[d], is_preferred=True,
                                edit=T.WorkspaceEdit(changes={doc.uri: [edit]})))
    return out


def main() -> None:
    server.start_io()
