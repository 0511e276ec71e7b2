/**
 * What the editor says about a session outside the panel, each at most as often as it helps: a bash sandbox that
 * is missing (once a window) or refused (every session), a failed run, and an untrusted workspace's read-only agents
 * (once a prompt). A key the API refused is model-setup.ts's (the panel's line, with Set API Key).
 */
import * as vscode from 'vscode';
import type { SandboxStatus } from '../core/session';

export class SessionNotices {
  private trustShown = false;
  private sandboxShown = false;

  /** A new prompt: the trust notice may show again. */
  newPrompt(): void {
    this.trustShown = false;
  }

  sandbox(status: SandboxStatus): void {
    if (status.kind === 'refused') {
      void vscode.window.showErrorMessage(`Delegate: delegate.sandbox is on, but ${status.detail}: bash commands are refused. Install bubblewrap, or set delegate.sandbox to auto or off.`);
    } else if (status.kind === 'none' && status.reason === 'unavailable' && !this.sandboxShown) {
      this.sandboxShown = true;
      void vscode.window.showWarningMessage(
        `Delegate: no sandbox (${status.detail}), so bash commands run unconfined; the deny list still applies. Install bubblewrap, or set delegate.sandbox to off to silence this.`,
      );
    }
  }

  /** One line. */
  runError(message: string): void {
    void vscode.window.showErrorMessage(`Delegate: ${message}`);
  }

  untrusted(): void {
    if (this.trustShown) return;
    this.trustShown = true;
    void vscode.window
      .showWarningMessage('Delegate: this workspace is not trusted, so agents are read-only (writes and bash are refused).', 'Manage Workspace Trust')
      .then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
      });
  }
}
