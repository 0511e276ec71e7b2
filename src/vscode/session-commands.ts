/**
 * The session's commands: Ask…, Stop All, New Session, Compact Conversation, a message to a subagent (a task node's
 * *Send a message…*), Open Transcript (the session's file, or one subagent's, picked from a list).
 */
import * as vscode from 'vscode';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionController } from './session-controller';
import { VIEW_ID } from './view-provider';

export function registerSessionCommands(context: vscode.ExtensionContext, controller: SessionController): void {
  context.subscriptions.push(
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
    vscode.commands.registerCommand('delegate.compact', () => controller.compact()),
    vscode.commands.registerCommand('delegate.openTranscript', () => openTranscript(controller)),
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
  );
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
