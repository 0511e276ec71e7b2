// Throwaway extension for the real-editor smoke tests: one command, one webview panel, and an activation report.
const vscode = require('vscode');

exports.activate = function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('delegateSmoke.hello', (name = 'world') => {
      vscode.window.showInformationMessage(`Delegate smoke says hello to ${name}`);
      return `hello ${name}`;
    }),
    vscode.commands.registerCommand('delegateSmoke.openPanel', () => {
      const panel = vscode.window.createWebviewPanel('delegateSmoke.panel', 'Delegate Smoke Panel', vscode.ViewColumn.One, { enableScripts: true });
      panel.webview.html = `<!DOCTYPE html><html><body>
        <h1>Delegate smoke panel</h1>
        <button id="ping">Ping the extension</button>
        <p id="reply">no reply yet</p>
        <script>
          const vscode = acquireVsCodeApi();
          document.getElementById('ping').addEventListener('click', () => vscode.postMessage({ type: 'ping' }));
          window.addEventListener('message', (e) => { document.getElementById('reply').textContent = e.data.text; });
        </script></body></html>`;
      panel.webview.onDidReceiveMessage((m) => {
        if (m.type === 'ping') panel.webview.postMessage({ text: `pong from the extension host (VS Code ${vscode.version})` });
      });
      return true;
    }),
  );
  return { activatedAt: Date.now() };
};

exports.deactivate = function deactivate() {};
