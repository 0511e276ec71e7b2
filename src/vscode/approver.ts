/**
 * Approval prompts in the editor: a modal that names which agent asks (the main agent, or a subagent
 * and its task), the command or path, with Allow / Allow for this session / Deny. One modal at a time;
 * a subagent's request goes to the panel's inbox instead while the panel is visible (panel-inbox.ts:
 * there several wait side by side, each answered in place). The prompt is injectable so extension
 * tests can answer it without the UI.
 */
import * as vscode from 'vscode';
import { ALLOW, ALLOW_AGENT, ALLOW_SERVER, ALLOW_SESSION, ALLOW_TASK, approvalChoices, approvalText, DENY, type ApprovalQuestion, whoAsks } from './approval-text';
import type { PermissionDecision } from '../core/vocabulary';
import type { Approver, ToolCallRequest } from '../core/session';
import type { PanelPrompts } from './panel-inbox';

export type { ApprovalQuestion } from './approval-text';

export type ApprovalPrompt = (question: ApprovalQuestion) => Promise<PermissionDecision>;

export const modalPrompt: ApprovalPrompt = async (q) => {
  const { message, detail } = approvalText(q);
  // Deny is the close affordance: Escape denies, and VS Code adds no separate Cancel button.
  const buttons = approvalChoices(q).map((title) => ({ title, ...(title === DENY ? { isCloseAffordance: true } : {}) }));
  const pick = await vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons);
  return DECISIONS[pick?.title ?? DENY] ?? 'deny';
};

const DECISIONS: Record<string, PermissionDecision> = { [ALLOW]: 'allow', [ALLOW_SESSION]: 'allow_session', [ALLOW_SERVER]: 'allow_server', [ALLOW_AGENT]: 'allow_agent', [ALLOW_TASK]: 'allow_task', [DENY]: 'deny' };

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
