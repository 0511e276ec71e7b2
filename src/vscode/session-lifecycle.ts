/**
 * The session controller's life in the editor: built with the editor's ports, disposed with the extension, told when
 * the workspace becomes trusted and when the permission mode setting changes, and reopening the session that was
 * open before a reload or restart (after activation: not on its clock).
 */
import * as vscode from 'vscode';
import type { EditorApprover } from './approver';
import type { EditorFanout } from './fanout-card';
import type { EditorMcpServers } from './mcp-servers';
import { SessionController } from './session-controller';
import { readSettings } from './settings';
import type { EditorQuestions } from './user-questions';

/** What the editor answers for the core: approvals, ask_user's questions, the fan-out card, MCP servers' prompts. */
export interface EditorPorts {
  approver: EditorApprover;
  questions: EditorQuestions;
  fanout: EditorFanout;
  mcpServers: EditorMcpServers;
}

export function registerSessionController(context: vscode.ExtensionContext, ports: EditorPorts): SessionController {
  const controller = new SessionController(context, ports.approver, ports.mcpServers, ports.questions, ports.fanout);
  context.subscriptions.push(
    controller,
    vscode.workspace.onDidGrantWorkspaceTrust(() => controller.setTrusted(true)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('delegate.permissionMode')) controller.current?.setMode(readSettings().session.permissionMode);
    }),
  );
  setTimeout(() => void controller.restore(), 0);
  void vscode.commands.executeCommand('setContext', 'delegate.running', false);
  return controller;
}
