/**
 * Approval prompts in the editor: a modal that names which agent asks (the main agent, or a subagent and its task)
 * and the command or path, with Allow, the most useful wider answer, Deny, and "More choices…", a quick pick of every
 * answer, each labelled by what it allows (approval-text.ts). One modal at a time; a subagent's request goes to the
 * panel's inbox instead while the panel is visible (panel-inbox.ts: there several wait side by side, each answered in
 * place, the wider answers in a menu beside Allow). The prompt is injectable so extension tests can answer it
 * without the UI.
 *
 * No stray Enter allows: VS Code focuses a modal's first button the moment it opens — maybe while the user types in
 * an editor — so that button is "More choices…" (Enter opens the list; nothing is decided), Escape denies, and Allow
 * takes a click or Tab.
 */
import * as vscode from 'vscode';
import { approvalChoices, approvalText, modalButtons, MORE_CHOICES, plainLabel, type ApprovalQuestion, whoAsks } from './approval-text';
import type { PermissionDecision } from '../core/vocabulary';
import type { Approver, ToolCallRequest } from '../core/session/ports';
import type { PanelPrompts } from './panel-inbox';

export type { ApprovalQuestion } from './approval-text';

export type ApprovalPrompt = (question: ApprovalQuestion) => Promise<PermissionDecision>;

export const modalPrompt: ApprovalPrompt = async (q) => {
  const { message, detail } = approvalText(q);
  const buttons = modalButtons(q);
  const pick = await vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons);
  if (pick?.title === MORE_CHOICES) return choose(q, message);
  return pick?.decision ?? 'deny';
};

/** Every answer in a quick pick, in the panel menu's order; dismissed, it denies (as Escape on the modal does). */
async function choose(q: ApprovalQuestion, message: string): Promise<PermissionDecision> {
  const items = approvalChoices(q).map((c) => ({ label: plainLabel(c.label), decision: c.decision }));
  const pick = await vscode.window.showQuickPick(items, { title: message, placeHolder: `${q.summary.split('\n')[0] ?? ''} — how to answer?`, ignoreFocusOut: true });
  return pick?.decision ?? 'deny';
}

export class EditorApprover implements Approver {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    public prompt: ApprovalPrompt = modalPrompt,
    private readonly panel?: PanelPrompts,
  ) {}

  ask(request: ToolCallRequest, reason: string, signal: AbortSignal): Promise<{ decision: PermissionDecision; reason?: string }> {
    if (request.agent.depth > 0 && this.panel?.available) {
      const question = { who: whoAsks(request.agent), toolName: request.toolName, summary: request.summary, reason, request };
      return this.panel.askPermission(question, signal).then((decision) =>
        decision !== 'deny' ? { decision } : { decision, reason: signal.aborted ? 'the run was stopped' : 'the user denied this call' },
      );
    }
    const answer = this.queue.then(async () => {
      if (signal.aborted) return { decision: 'deny' as const, reason: 'the run was stopped' };
      const decision = await this.prompt({ who: whoAsks(request.agent), toolName: request.toolName, summary: request.summary, reason, request });
      return decision === 'deny' ? { decision, reason: 'the user denied this call' } : { decision };
    });
    this.queue = answer.catch(() => undefined);
    return answer;
  }
}

