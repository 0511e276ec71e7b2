/**
 * The editor host: a thin shell over the core. activate() is a list of registrations, each feature registering its
 * own commands and providers in its own module (vscode-extension-samples' shape), and returns a small API the
 * extension tests use.
 *
 *   the session controller, with the editor's ports   session-lifecycle.ts   (trust, the permission mode, restore)
 *   the Changes row's diffs and reverts                change-actions.ts
 *   the panel                                          panel-commands.ts      (Show History, Find, Show Subagent)
 *   Ask…, Stop All, New Session, Compact, Open Transcript, a message to a subagent        session-commands.ts
 *   Set API Key, Choose Model                          api-key.ts, choose-model.ts
 *   the status bar item, @delegate in the Chat view    status-bar.ts, chat-participant.ts
 */
import { moduleStart } from './load-clock';
import * as vscode from 'vscode';
import { registerApiKeyCommand } from './api-key';
import { sealCredentials } from './model-choice';
import { EditorApprover } from './approver';
import { registerChangeActions, type ChangeActions } from './change-actions';
import { registerChatParticipant } from './chat-participant';
import { registerChooseModel } from './choose-model';
import { EditorFanout } from './fanout-card';
import { EditorMcpServers } from './mcp-servers';
import { registerPanel } from './panel-commands';
import { PanelInbox } from './panel-inbox';
import { registerSessionCommands } from './session-commands';
import type { SessionController } from './session-controller';
import { registerSessionController } from './session-lifecycle';
import { registerStatusBar } from './status-bar';
import { EditorQuestions } from './user-questions';
import type { DelegateViewProvider } from './view-provider';

export interface DelegateApi {
  controller: SessionController;
  approver: EditorApprover;
  /** ask_user's questions (the prompt is injectable, like the approver's). */
  questions: EditorQuestions;
  /** Subagents' questions waiting in the panel while it is visible (answered in place). */
  inbox: PanelInbox;
  /** The fan-out card (its prompt is injectable). */
  fanout: EditorFanout;
  /** The workspace's MCP servers (approval and input prompts are injectable). */
  mcpServers: EditorMcpServers;
  view: DelegateViewProvider;
  /** The Changes row's actions (diffs, revert); tests replace its `confirm`. */
  changes: ChangeActions;
  /** Evaluating the bundle plus activate(): what activation costs the editor. */
  activationMs: number;
  /** Evaluating the bundle's imports, the editor's wait before calling activate(), and activate() itself. */
  activationBreakdown: { importsMs: number; waitMs: number; activateMs: number };
}

/** The controller deactivate() shuts down. */
let active: SessionController | undefined;

/** When this file's own body ran: everything it imports has been evaluated by now. */
const importsDone = performance.now();

export function activate(context: vscode.ExtensionContext): DelegateApi {
  const activateStart = performance.now();
  sealCredentials();
  // Asked only during a run, after `view` exists.
  const inbox = new PanelInbox((): boolean => view.isVisible);
  const ports = {
    approver: new EditorApprover(undefined, inbox),
    questions: new EditorQuestions(undefined, inbox),
    fanout: new EditorFanout(undefined, inbox),
    mcpServers: new EditorMcpServers(context.workspaceState),
  };

  const controller = registerSessionController(context, ports);
  const changes = registerChangeActions(context, controller);
  const view = registerPanel(context, { controller, changes, inbox });
  registerSessionCommands(context, controller);
  registerApiKeyCommand(context);
  registerChooseModel(context, controller);
  registerStatusBar(context, controller);
  registerChatParticipant(context, controller);

  active = controller;
  const end = performance.now();
  return {
    controller,
    ...ports,
    inbox,
    view,
    changes,
    // The extension's own cost; the editor's wait between loading and calling activate() is not ours.
    activationMs: importsDone - moduleStart + (end - activateStart),
    activationBreakdown: { importsMs: importsDone - moduleStart, waitMs: activateStart - importsDone, activateMs: end - activateStart },
  };
}

/** The editor is closing or reloading: every agent stops, every process group it started is killed (no orphans). */
export async function deactivate(): Promise<void> {
  await active?.shutdown('the editor closed the extension');
}
