"""The protocol side of the editor server, on pygls: diagnostics as the user types, hover,
completion, formatting, quick fixes, colours, the outline, folding, hand sizes and each
game's verdict, all from ``analysis``, in the editor's language (``initialize``'s
``locale``, else ``--lang`` or the environment's: :func:`speak`), every sentence through the
wording layer and the catalogues.

Steady under any client:

- edits are coalesced: a change only marks its document; the judging runs once the
  changes stop arriving for a moment, on the latest version alone;
- a document is judged a game at a time, and an unchanged game is not judged again
  (``analysis.read`` with the previous version);
- only opened documents are read, and, for a request about a document not opened, a
  regular file under ``FILE_LIMIT`` (a hover on ``file:///dev/zero`` reads nothing);
- every request gets the answer the protocol says: params that do not fit the method an
  InvalidParams error, a request before ``initialize`` ServerNotInitialized, one after
  ``shutdown`` InvalidRequest; an error never carries a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import stat
import sys
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import to_fs_path

from referee import __version__
from referee.engine import language as L
from referee.engine.language import gettext as _
from referee.lsp import TOKEN_MODIFIERS, TOKEN_TYPES

if TYPE_CHECKING:
    from referee.lsp import analysis as A

# The severities' names as reports.diagnostics spells them (ERROR, MISTAKE, NOTE).
SEVERITY = {"error": T.DiagnosticSeverity.Error, "mistake": T.DiagnosticSeverity.Warning,
            "note": T.DiagnosticSeverity.Information}
FILE_LIMIT = 8 << 20  # a document not opened is read from disk only if it is a regular file this small
TOKENS_LIMIT = 2 << 20  # a document larger is coloured by ranges only (semantic tokens)
SETTLE = 0.03  # seconds without a change before a document is judged
SERVER_NOT_INITIALIZED, INVALID_REQUEST, INVALID_PARAMS = -32002, -32600, -32602


@dataclass
class _Bad:
    """A request whose params do not fit its method: answered with InvalidParams."""

    id: Any
    method: str
    reason: str
    jsonrpc: str = "2.0"


def _forget(futures: dict[Any, Any], key: Any, _done: Any) -> None:
    futures.pop(key, None)


class _Protocol(LanguageServerProtocol):
    """pygls's protocol, answering what it would drop or answer with a traceback."""

    _initialized = False

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as e:
            if "jsonrpc" in data and "id" in data and "method" in data:
                return _Bad(data["id"], str(data["method"]), e.message or "invalid params")
            raise

    def handle_message(self, message: Any) -> None:
        method = getattr(message, "method", None)
        request = method is not None and hasattr(message, "id")
        if isinstance(message, _Bad):
            self._answer_error(message.id, INVALID_PARAMS, _("invalid params for {method}: {reason}").format(
                method=message.method, reason=message.reason))
            return
        if self._shutdown and method != T.EXIT:
            if request:
                self._answer_error(message.id, INVALID_REQUEST, _("the server is shut down: only 'exit' may follow"))
            return
        if not self._initialized and method not in (T.INITIALIZE, T.EXIT) and method is not None:
            if request:
                self._answer_error(message.id, SERVER_NOT_INITIALIZED, _("the server is not initialized yet"))
            return
        if method == T.INITIALIZE:
            self._initialized = True
            speak(getattr(getattr(message, "params", None), "locale", None))
        super().handle_message(message)

    def _handle_notification(self, method_name: str, params: Any) -> None:
        # pygls 2.1 files the future of a notification's handler (didChange, didOpen...) in
        # its table of requests under a fresh uuid and never takes it out: 2-3 KB an edit,
        # for ever. Each new one leaves the table when it is done.
        futures = self._request_futures
        before = len(futures)
        super()._handle_notification(method_name, params)
        for key in list(futures)[before:]:
            futures[key].add_done_callback(partial(_forget, futures, key))

    def _answer_error(self, msg_id: Any, code: int, text: str) -> None:
        self._send_response(msg_id, None, T.ResponseError(code=code, message=text))

    def _send_response(self, msg_id: Any, result: Any = None, error: Any = None) -> None:
        if error is not None and getattr(error, "data", None) is not None:
            error = T.ResponseError(code=error.code, message=error.message)  # no traceback to the client
        super()._send_response(msg_id, result, error)


def speak(locale: str | None) -> str:
    """The language the server says everything in: the editor's (``initialize``'s
    ``locale``, LSP 3.16: ``ur``, ``pa-Arab``, ``hi-IN``) when we speak it, else the one
    ``--lang`` or the environment chose, as for every command. Chosen before any document is
    read, so the diagnostics' messages (the referee's, worded by the catalogue) are in it too."""
    found = L.known(locale) if locale else None
    return L.choose(found) if found is not None else L.current()


class GwyServer(LanguageServer):
    """The server, with each opened document's last reading and its pending judging."""

    def __init__(self) -> None:
        super().__init__("getaway-ref", __version__, text_document_sync_kind=T.TextDocumentSyncKind.Incremental,
                         protocol_cls=_Protocol)
        self.read: dict[str, tuple[int | None, A.Document]] = {}
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.settings: dict[str, A.Settings] = {}
        self.shut_down = False  # a 'shutdown' request was answered
        self.exit_code = 0  # the protocol's: 1 for an 'exit' not after a 'shutdown'


server = GwyServer()


@server.feature(T.SHUTDOWN)
def shutdown(ls: GwyServer, params: None) -> None:
    """Remember the 'shutdown' (pygls answers it after this), for the exit code of 'exit'."""
    ls.shut_down = True


@server.feature(T.EXIT)
def exit_(ls: GwyServer, params: None) -> None:
    """The protocol: exit with 0 after a 'shutdown', 1 otherwise (an editor that ends the
    server without asking it to shut down learns that from the code). pygls computes the
    code too, then ends the server by a SystemExit that its loop swallows."""
    ls.exit_code = 0 if ls.shut_down else 1


def _path(uri: str) -> str:
    fs = to_fs_path(uri)
    return os.path.normpath(fs) if fs else uri


def _settings(ls: GwyServer, path: str, fresh: bool = False) -> A.Settings:
    from referee.lsp import analysis as A

    s = ls.settings.get(path)
    if s is None or fresh:
        s = ls.settings[path] = A.settings_for(path)
    return s


def _document(ls: GwyServer, uri: str) -> A.Document | None:
    """The document as judged now: an opened one (judged again if it changed), or a regular
    file on disk under FILE_LIMIT; None for anything else."""
    from referee.lsp import analysis as A

    docs = ls.workspace.text_documents
    if uri in docs:
        doc = docs[uri]
        had = ls.read.get(uri)
        if had is not None and had[0] == doc.version:
            return had[1]
        read = A.read(doc.source, _path(uri), _settings(ls, _path(uri)), had[1] if had else None)
        ls.read[uri] = (doc.version, read)
        return read
    path = to_fs_path(uri) if uri.startswith("file:") else None
    if not path:
        return None
    _restore(ls, path)
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > FILE_LIMIT:
            return None
        with open(path, "rb") as f:
            text = f.read(FILE_LIMIT + 1).decode("utf-8", errors="replace")
    except OSError:
        return None
    return A.read(text, _path(uri), _settings(ls, _path(uri)))


# ---- positions: the client's units ------------------------------------------------------------------

_WIDE = re.compile("[\U00010000-\U0010ffff]")


def _units(ls: GwyServer, text: str) -> int:
    """The length of ``text`` in the client's position units (UTF-16 unless it said otherwise)."""
    enc = ls.workspace.position_encoding if ls.workspace is not None else T.PositionEncodingKind.Utf16
    if enc == T.PositionEncodingKind.Utf32:
        return len(text)
    if enc == T.PositionEncodingKind.Utf8:
        return len(text.encode("utf-8"))
    return len(text) + len(_WIDE.findall(text))


def _pos(ls: GwyServer, lines: list[str], line: int, col: int) -> T.Position:
    text = lines[line] if 0 <= line < len(lines) else ""
    if text.isascii():
        return T.Position(line=line, character=col)
    return T.Position(line=line, character=_units(ls, text[:col]) + max(0, col - len(text)))


def _range(ls: GwyServer, lines: list[str], p: A.Place) -> T.Range:
    return T.Range(start=_pos(ls, lines, p.line, p.start), end=_pos(ls, lines, p.line, p.end))


def _col(ls: GwyServer, lines: list[str], pos: T.Position) -> int:
    """A client position's column as code points."""
    text = lines[pos.line] if 0 <= pos.line < len(lines) else ""
    if text.isascii():
        return pos.character
    units = 0
    for i, ch in enumerate(text):
        if units >= pos.character:
            return i
        units += _units(ls, ch)
    return len(text)


# ---- diagnostics --------------------------------------------------------------------------------------


def diagnostics(ls: GwyServer, uri: str, doc: A.Document) -> list[T.Diagnostic]:
    from referee.lsp import analysis as A

    out = []
    lines = doc.lines
    for f in A.findings(doc):
        related = [T.DiagnosticRelatedInformation(location=T.Location(uri=uri, range=_range(ls, lines, p)), message=label)
                   for p, label in f.related]
        data = None
        if f.fix is not None:
            data = {"fix": {"title": f.fix.title, "preferred": f.fix.preferred,
                            "edits": [[p.line, p.start, p.end, text] for p, text in f.fix.edits]}}
        out.append(T.Diagnostic(
            range=_range(ls, lines, f.place), message=f.message,
            severity=SEVERITY.get(f.severity, T.DiagnosticSeverity.Error), code=f.code, source="getaway-ref",
            related_information=related or None, data=data))
    return out


def _publish(ls: GwyServer, uri: str) -> None:
    ls.pending.pop(uri, None)
    docs = ls.workspace.text_documents
    if uri not in docs:
        return
    doc = _document(ls, uri)
    if doc is None:
        return
    ls.text_document_publish_diagnostics(
        T.PublishDiagnosticsParams(uri=uri, version=docs[uri].version, diagnostics=diagnostics(ls, uri, doc)))


def _schedule(ls: GwyServer, uri: str) -> None:
    """Judge the document once the changes stop: a change that arrives first moves it on,
    so only the latest version is judged."""
    old = ls.pending.pop(uri, None)
    if old is not None:
        old.cancel()
    ls.pending[uri] = asyncio.get_running_loop().call_later(SETTLE, _publish, ls, uri)


def _restore(ls: GwyServer, path: str) -> None:
    """A rewrite of the file cut short by a kill (``fmt --write`` killed mid-copy): the
    file put back from its journal, as every command does before it reads a record, and
    the user told in one line (the editor may hold the half-written text: reload it)."""
    from referee.files import recover

    def tell(message: str) -> None:
        ls.window_show_message(T.ShowMessageParams(type=T.MessageType.Warning,
                                                   message="getaway-ref: " + _("{message} (reload the file)").format(
                                                       message=message)))

    recover([path], tell=tell)


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: GwyServer, params: T.DidOpenTextDocumentParams) -> None:
    uri = params.text_document.uri
    path = _path(uri)
    if uri.startswith("file:"):
        _restore(ls, path)
    settings = _settings(ls, path, fresh=True)
    if settings.error:
        ls.window_show_message(T.ShowMessageParams(type=T.MessageType.Warning,
                                                   message="getaway-ref: " + _("settings not used: {error}").format(
                                                       error=settings.error)))
    ls.read.pop(uri, None)
    _publish(ls, uri)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: GwyServer, params: T.DidChangeTextDocumentParams) -> None:
    _schedule(ls, params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: GwyServer, params: T.DidSaveTextDocumentParams) -> None:
    uri = params.text_document.uri
    _settings(ls, _path(uri), fresh=True)  # a settings file may have changed with it
    ls.read.pop(uri, None)
    _schedule(ls, uri)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: GwyServer, params: T.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    pending = ls.pending.pop(uri, None)
    if pending is not None:
        pending.cancel()
    ls.read.pop(uri, None)
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


# ---- requests -------------------------------------------------------------------------------------------


@server.feature(T.TEXT_DOCUMENT_HOVER)
def hover(ls: GwyServer, params: T.HoverParams) -> T.Hover | None:
    from referee.lsp import analysis as A

    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return None
    text = A.hover(doc, params.position.line, _col(ls, doc.lines, params.position))
    if text is None:
        return None
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text))


@server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[" ", ","]))
def completion(ls: GwyServer, params: T.CompletionParams) -> T.CompletionList:
    from referee.lsp import analysis as A

    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return T.CompletionList(is_incomplete=False, items=[])
    items = [T.CompletionItem(label=s.label, detail=s.detail, sort_text=s.sort,
                              kind=T.CompletionItemKind.Value if s.kind == "card" else T.CompletionItemKind.Variable)
             for s in A.complete(doc, params.position.line, _col(ls, doc.lines, params.position))]
    return T.CompletionList(is_incomplete=False, items=items)


@server.feature(T.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: GwyServer, params: T.DocumentFormattingParams) -> list[T.TextEdit] | None:
    from referee.lsp import analysis as A

    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return None
    canon = A.formatted(doc)
    if canon is None:
        return None
    lines = doc.lines
    end = T.Position(line=len(lines), character=0)
    return [T.TextEdit(range=T.Range(start=T.Position(line=0, character=0), end=end), new_text=canon)]


def _edit(ls: GwyServer, uri: str, lines: list[str], title: str, edits: list[tuple[A.Place, str]], preferred: bool,
          diags: list[T.Diagnostic] | None) -> T.CodeAction:
    changes = [T.TextEdit(range=_range(ls, lines, p), new_text=text) for p, text in edits]
    return T.CodeAction(title=title, kind=T.CodeActionKind.QuickFix, diagnostics=diags, is_preferred=preferred,
                        edit=T.WorkspaceEdit(changes={uri: changes}))


@server.feature(T.TEXT_DOCUMENT_CODE_ACTION, T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
def code_action(ls: GwyServer, params: T.CodeActionParams) -> list[T.CodeAction]:
    from referee.lsp import analysis as A

    uri = params.text_document.uri
    doc = _document(ls, uri)
    if doc is None:
        return []
    lines = doc.lines
    out = []
    for d in params.context.diagnostics:
        data: Any = d.data
        if d.source != "getaway-ref" or not isinstance(data, dict) or not isinstance(data.get("fix"), dict):
            continue
        fix = data["fix"]
        try:
            edits = [(A.Place(int(a), int(b), int(c)), str(t)) for a, b, c, t in fix["edits"]]
        except (KeyError, TypeError, ValueError):
            continue
        out.append(_edit(ls, uri, lines, str(fix.get("title") or _("Fix")), edits, bool(fix.get("preferred")), [d]))
    for q in A.actions_at(doc, params.range.start.line, params.range.end.line):
        out.append(_edit(ls, uri, lines, q.title, list(q.edits), q.preferred, None))
    return out


LEGEND = T.SemanticTokensLegend(token_types=TOKEN_TYPES, token_modifiers=TOKEN_MODIFIERS)


def _tokens(ls: GwyServer, uri: str, first: int, last: int | None) -> T.SemanticTokens:
    from referee.lsp import analysis as A

    doc = _document(ls, uri)
    if doc is None:
        return T.SemanticTokens(data=[])
    data: list[int] = []
    lines = doc.lines
    last_line = last_start = 0
    for line, start, length, kind, mods in A.tokens(doc, first, last):
        text = lines[line]
        s = _units(ls, text[:start]) if not text.isascii() else start
        n = _units(ls, text[start:start + length]) if not text.isascii() else length
        data += [line - last_line, s - last_start if line == last_line else s, n, kind, mods]
        last_line, last_start = line, s
    return T.SemanticTokens(data=data)


@server.feature(T.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
def semantic_tokens(ls: GwyServer, params: T.SemanticTokensParams) -> T.SemanticTokens:
    """A whole document's colours; over TOKENS_LIMIT bytes none (the client asks for the
    lines it shows, below, and the grammar colours the rest): millions of tokens would hold
    every other request up for seconds."""
    docs = ls.workspace.text_documents
    uri = params.text_document.uri
    if uri in docs and len(docs[uri].source) > TOKENS_LIMIT:
        return T.SemanticTokens(data=[])
    return _tokens(ls, uri, 0, None)


@server.feature(T.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, LEGEND)
def semantic_tokens_range(ls: GwyServer, params: T.SemanticTokensRangeParams) -> T.SemanticTokens:
    return _tokens(ls, params.text_document.uri, params.range.start.line, params.range.end.line)


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: GwyServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol]:
    from referee.lsp import analysis as A

    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return []
    lines = doc.lines

    def sym(s: A.Symbol, kind: T.SymbolKind) -> T.DocumentSymbol:
        return T.DocumentSymbol(name=s.name, detail=s.detail, kind=kind, range=_range(ls, lines, s.place),
                                selection_range=_range(ls, lines, s.head),
                                children=[sym(c, T.SymbolKind.Event) for c in s.children] or None)

    out = []
    for s in A.symbols(doc):
        r = sym(s, T.SymbolKind.Module)
        r.range = T.Range(start=r.range.start, end=_pos(ls, lines, s.place.line, s.place.end))
        out.append(r)
    return out


@server.feature(T.TEXT_DOCUMENT_FOLDING_RANGE)
def folding_range(ls: GwyServer, params: T.FoldingRangeParams) -> list[T.FoldingRange]:
    from referee.lsp import analysis as A

    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return []
    return [T.FoldingRange(start_line=a, end_line=b, kind=T.FoldingRangeKind.Region) for a, b in A.folds(doc)]


@server.feature(T.TEXT_DOCUMENT_INLAY_HINT, T.InlayHintOptions(resolve_provider=False))
def inlay_hint(ls: GwyServer, params: T.InlayHintParams) -> list[T.InlayHint]:
    from referee.lsp import analysis as A

    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return []
    lines = doc.lines
    return [T.InlayHint(position=_pos(ls, lines, p.line, p.start), label=text, kind=T.InlayHintKind.Type,
                        padding_left=True)
            for p, text in A.hints(doc, params.range.start.line, params.range.end.line)]


@server.feature(T.TEXT_DOCUMENT_CODE_LENS, T.CodeLensOptions(resolve_provider=False))
def code_lens(ls: GwyServer, params: T.CodeLensParams) -> list[T.CodeLens]:
    from referee.lsp import analysis as A

    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return []
    lines = doc.lines
    return [T.CodeLens(range=_range(ls, lines, p), command=T.Command(title=text, command=""))
            for p, text in A.lenses(doc)]


class _OneLine(logging.Formatter):
    """pygls's log lines without their tracebacks: a client's bad message is answered (see
    _Protocol) and logged in one line."""

    def format(self, record: logging.LogRecord) -> str:
        first = record.getMessage().split("\n", 1)[0]
        return f"getaway-ref lsp: {record.levelname.lower()}: {first}"


def main() -> int:
    """Serve the editor on standard input and output until it says exit, or closes them;
    the exit code."""
    log = logging.getLogger("pygls")
    handler = logging.StreamHandler()
    handler.setFormatter(_OneLine())
    log.addHandler(handler)
    log.propagate = False
    log.setLevel(logging.WARNING)
    server.start_io()
    if sys.stdout is not None and sys.stdout.closed:
        # The protocol closed standard output with its last message: whatever flushes it
        # on the way out finds nothing left to write, not a closed file.
        sys.stdout = open(os.devnull, "w", encoding="utf-8")
    return server.exit_code
