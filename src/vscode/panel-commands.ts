/**
 * The Delegate panel (the webview view) and its commands: Show History, Find in Panel (Ctrl/Cmd+F while it has focus,
 * so the editor's find widget does not open), Show Subagent in Panel (the Chat view's buttons).
 */
import * as vscode from 'vscode';
import type { ChangeActions } from './change-actions';
import { HistoryActions } from './history-actions';
import type { PanelInbox } from './panel-inbox';
import type { SessionController } from './session-controller';
import { DelegateViewProvider, VIEW_ID } from './view-provider';

export function registerPanel(context: vscode.ExtensionContext, parts: { controller: SessionController; changes: ChangeActions; inbox: PanelInbox }): DelegateViewProvider {
  const history = new HistoryActions(parts.controller);
  const view = new DelegateViewProvider(context.extensionUri, parts.controller, parts.changes, history, parts.inbox);
  context.subscriptions.push(
    view,
    vscode.window.registerWebviewViewProvider(VIEW_ID, view),
    vscode.commands.registerCommand('delegate.showHistory', async () => {
      await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
      await view.showHistory();
    }),
    vscode.commands.registerCommand('delegate.find', () => view.find()),
    vscode.commands.registerCommand('delegate.revealAgent', (agentId: unknown) => typeof agentId === 'string' && view.reveal(agentId)),
  );
  return view;
}
