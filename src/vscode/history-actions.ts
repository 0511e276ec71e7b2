/**
 * The editor's side of History's rename and delete (webview/history-view.ts): rename writes the name beside the
 * transcript (core/store/session-admin.ts); delete asks first (a modal naming the session), refuses the session
 * running here, deletes its files, and starts a new session when it was the open one. Both re-send the list.
 */
import * as vscode from 'vscode';
import type { SessionController } from './session-controller';

/** The modal; tests replace it (a modal cannot be answered from the extension host). */
export type ConfirmDelete = (title: string) => Promise<boolean>;

const modalConfirm: ConfirmDelete = async (title) =>
  (await vscode.window.showWarningMessage(`Delete the session "${title}"?`, { modal: true, detail: 'Its transcript, its subagents\' records and the kept file contents go; Revert of its changes will no longer be possible.' }, 'Delete')) === 'Delete';

export class HistoryActions {
  confirm: ConfirmDelete = modalConfirm;

  constructor(private readonly controller: SessionController) {}

  async rename(id: string, title: string): Promise<void> {
    try {
      await this.controller.sessions.rename(id, title);
    } catch (err) {
      void vscode.window.showErrorMessage(`Delegate: cannot rename the session: ${err instanceof Error ? err.message : String(err)}.`);
    }
  }

  /** True when the session was deleted. */
  async delete(id: string, title: string): Promise<boolean> {
    if (this.controller.isRunning && this.controller.openSessionId === id) {
      void vscode.window.showInformationMessage('Delegate: this session is running: stop it before deleting it.');
      return false;
    }
    if (!(await this.confirm(title))) return false;
    try {
      await this.controller.sessions.delete(id);
    } catch (err) {
      void vscode.window.showErrorMessage(`Delegate: cannot delete the session: ${err instanceof Error ? err.message : String(err)}.`);
      return false;
    }
    if (this.controller.openSessionId === id) this.controller.newSession();
    return true;
  }
}
