/** The status bar item: running or idle, and the session's tokens; the tooltip names the bash sandbox; a click reveals the panel. */
import * as vscode from 'vscode';
import { formatTokens, formatUsd } from '../view-model/format';
import type { ControllerStatus, SessionController } from './session-controller';

export function registerStatusBar(context: vscode.ExtensionContext, controller: SessionController): void {
  const item = vscode.window.createStatusBarItem('delegate.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Delegate';
  item.command = 'delegate.panel.focus';
  const update = (status: ControllerStatus): void => {
    const tokens = (status.tokens > 0 ? ` · ${formatTokens({ input: status.tokens, output: 0 })}` : '') + (status.costUsd > 0 ? ` · ${formatUsd(status.costUsd)}` : '');
    item.text = status.running ? `$(sync~spin) Delegate: running${tokens}` : `$(hubot) Delegate${tokens}`;
    const state = status.running ? 'Delegate is working — click to show the panel' : 'Delegate is idle — click to show the panel';
    item.tooltip = status.sandbox ? `${state}\nbash sandbox: ${status.sandbox}` : state;
  };
  update({ running: false, tokens: 0, costUsd: 0 });
  item.show();
  context.subscriptions.push(item, controller.onStatus(update));
}
