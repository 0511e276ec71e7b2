/**
 * The editor host: a thin shell over the core. It wires the session controller, the panel, the
 * commands, the status bar and workspace trust, and returns a small API the extension tests use.
 */
import { moduleStart } from './load-clock';
import * as vscode from 'vscode';
import { sealProcessEnvironment } from '../core/session/process-environment';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promptForApiKey, storeApiKey } from './api-key';
import { registerChatParticipant } from './chat-participant';
import { chooseModel } from './choose-model';
import { EditorApprover } from './approver';
import { EditorQuestions } from './user-questions';
import { PanelInbox } from './panel-inbox';
import { EditorFanout } from './fanout-card';
import { CHANGE_SCHEME, ChangeActions } from './change-actions';
import { HistoryActions } from './history-actions';
import { EditorMcpServers } from './mcp-servers';
import { SessionController } from './session-controller';
import { transcriptRootOf } from './session-history';
import { readSettings } from './settings';
import { createStatusBar } from './status-bar';
import { DelegateViewProvider, VIEW_ID } from './view-provider';

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
  // No credential stays in the extension host's environment block (/proc/<pid>/environ, readable by the user's other
  // processes, an unsandboxed command among them); process.env keeps them for the other extensions.
  const sealed = sealProcessEnvironment();
  if (sealed.note) console.debug(`Delegate: ${sealed.note}`);
  // Asked only during a run, after `view` exists.
  const inbox = new PanelInbox((): boolean => view.isVisible);
  const approver = new EditorApprover(undefined, inbox);
  const mcpServers = new EditorMcpServers(context.workspaceState);
  const questions = new EditorQuestions(undefined, inbox);
  const fanout = new EditorFanout(undefined, inbox);
  const controller = new SessionController(context, approver, mcpServers, questions, fanout);
  active = controller;
  const changes = new ChangeActions(controller, () => transcriptRootOf(context));
  const view = new DelegateViewProvider(context.extensionUri, controller, changes, new HistoryActions(controller, () => transcriptRootOf(context)), inbox);
  const status = createStatusBar();

  context.subscriptions.push(
    controller,
    view,
    status.item,
    controller.onStatus((s) => status.update(s)),
    vscode.window.registerWebviewViewProvider(VIEW_ID, view),
    vscode.workspace.registerTextDocumentContentProvider(CHANGE_SCHEME, changes),
    vscode.workspace.onDidGrantWorkspaceTrust(() => controller.setTrusted(true)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('delegate.permissionMode')) controller.current?.setMode(readSettings().permissionMode);
    }),
    vscode.commands.registerCommand('delegate.ask', async (prompt?: string) => {
      const text =
        typeof prompt === 'string'
          ? prompt
          : await vscode.window.showInputBox({ title: 'Delegate: Ask', prompt: 'What should the agent do?', placeHolder: 'e.g. Find where the config is parsed and explain it', ignoreFocusOut: true });
      if (!text?.trim()) return;
      await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
      await controller.ask(text);
    }),
    vscode.commands.registerCommand('delegate.stop', () => controller.stop()),
    vscode.commands.registerCommand('delegate.newSession', () => controller.newSession()),
    // A string argument is the key itself (scripts, tests); without one the user is asked.
    vscode.commands.registerCommand('delegate.setApiKey', (key?: unknown) => (typeof key === 'string' ? storeApiKey(context.secrets, key) : promptForApiKey(context.secrets))),
    vscode.commands.registerCommand('delegate.openTranscript', () => openTranscript(controller)),
    vscode.commands.registerCommand('delegate.showHistory', async () => {
      await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
      await view.showHistory();
    }),
    vscode.commands.registerCommand('delegate.compact', () => controller.compact()),
    vscode.commands.registerCommand('delegate.chooseModel', () => chooseModel(controller.models.catalog)),
    // A task node's *Send a message…* (the webview posts the agent id; the text may come with it).
    vscode.commands.registerCommand('delegate.messageSubagent', async (agentId: unknown, text?: unknown) => {
      if (typeof agentId !== 'string' || agentId === '') return undefined;
      const message =
        typeof text === 'string'
          ? text
          : await vscode.window.showInputBox({ title: `Delegate: message subagent ${agentId}`, prompt: 'A finished subagent resumes with its history and this message; a running one reads it at its next turn.', ignoreFocusOut: true });
      if (!message?.trim()) return undefined;
      return controller.messageSubagent(agentId, message);
    }),
    // Ctrl/Cmd+F while the panel has focus (package.json's keybinding), so the editor's find widget does not open.
    vscode.commands.registerCommand('delegate.find', () => view.find()),
    // The Chat view's "Show in Delegate panel" buttons.
    vscode.commands.registerCommand('delegate.revealAgent', (agentId: unknown) => typeof agentId === 'string' && view.reveal(agentId)),
  );
  const participant = registerChatParticipant(controller, context.extensionUri);
  if (participant) context.subscriptions.push(participant);
  // The session open before a reload or restart comes back (read after activation: not on its clock).
  setTimeout(() => void controller.restore(), 0);
  void vscode.commands.executeCommand('setContext', 'delegate.running', false);
  const end = performance.now();
  return {
    controller,
    approver,
    questions,
    inbox,
    fanout,
    mcpServers,
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

/** Opens the session transcript, or one subagent's, picked from a list. */
async function openTranscript(controller: SessionController): Promise<void> {
  const transcript = controller.current?.transcript;
  if (!transcript) {
    void vscode.window.showInformationMessage('Delegate: no session yet — ask something first.');
    return;
  }
  const subagentDir = join(transcript.dir, 'subagents');
  const children = await readdir(subagentDir).catch(() => [] as string[]);
  let file = transcript.file;
  if (children.length > 0) {
    const picks = [
      { label: 'Session', description: 'the main agent, and each subagent\'s start and finish', file: transcript.file },
      ...children.sort().map((name) => ({ label: name.replace(/\.jsonl$/, ''), description: 'everything this subagent did', file: join(subagentDir, name) })),
    ];
    const pick = await vscode.window.showQuickPick(picks, { title: 'Delegate: Open Transcript' });
    if (!pick) return;
    file = pick.file;
  }
  await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
}
