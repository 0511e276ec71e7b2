// Mocha tests that only pass inside a real VS Code 1.139 extension host with the smoke extension loaded.
/* global describe, it */
const assert = require('assert');
const vscode = require('vscode');

const ID = 'delegate-dev.delegate-vscode-smoke';

describe('real VS Code extension host', () => {
  it('is VS Code 1.139', () => {
    assert.match(vscode.version, /^1\.139\./, `vscode.version is ${vscode.version}`);
  });

  it('runs extension code on Node (not a web worker)', () => {
    assert.strictEqual(typeof process.versions.node, 'string');
    assert.ok(require('fs').existsSync('/'));
  });

  it('opened the workspace folder', () => {
    assert.strictEqual(vscode.workspace.workspaceFolders?.length, 1);
  });

  it('activated the smoke extension', async () => {
    const ext = vscode.extensions.getExtension(ID);
    assert.ok(ext, `${ID} is loaded`);
    const api = await ext.activate();
    assert.strictEqual(ext.isActive, true);
    assert.strictEqual(typeof api.activatedAt, 'number');
  });

  it('runs the smoke command', async () => {
    const result = await vscode.commands.executeCommand('delegateSmoke.hello', 'tests');
    assert.strictEqual(result, 'hello tests');
  });

  it('shows a document in the editor', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'plaintext', content: 'Delegate smoke\n\nA real VS Code 1.139 ran this.\n' });
    const editor = await vscode.window.showTextDocument(doc);
    assert.strictEqual(editor.document.lineCount, 4);
  });
});
