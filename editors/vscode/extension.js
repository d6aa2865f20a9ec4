// getaway-ref for VS Code: the editor server (`getaway-ref lsp`) for .gwy records. The
// colours of syntaxes/gwy.tmLanguage.json work without it; the server adds diagnostics,
// hover, completion, quick fixes, formatting, semantic colours, the outline and lenses.
'use strict';
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration('getaway-ref').get('command');
  client = new LanguageClient(
    'getaway-ref', 'getaway-ref',
    { command, args },
    { documentSelector: [{ scheme: 'file', language: 'gwy' }, { scheme: 'untitled', language: 'gwy' }] },
  );
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start().catch((err) => {
    vscode.window.showWarningMessage(
      `getaway-ref: the editor server did not start (${err.message || err}); ` +
      "install it with pip install 'getaway-ref[lsp]' or set getaway-ref.command");
  });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
