/**
 * Approval prompts in the editor: a modal that names which agent asks (the main agent, or a subagent
 * and its task), the command or path, with Allow / Allow for this session / Deny. One modal at a time,
 * however many subagents ask; a subagent simply waits for its answer. The prompt is injectable so
 * extension tests can answer it without the UI.
 */
import * as vscode from 'vscode';
import { ALLOW, ALLOW_SESSION, approvalText, DENY, type ApprovalQuestion } from './approval-text';
import type { PermissionDecision } from '../core/vocabulary';
import type { Approver, ToolCallRequest } from '../core/session';

export type { ApprovalQuestion } from './approval-text';

export type ApprovalPrompt = (question: ApprovalQuestion) => Promise<PermissionDecision>;

export const modalPrompt: ApprovalPrompt = async (q) => {
  const { message, detail } = approvalText(q);
  // Deny is the close affordance: Escape denies, and VS Code adds no separate Cancel button.
  const pick = await vscode.window.showWarningMessage(
    message,
    { modal: true, detail },
    { title: ALLOW },
    { title: ALLOW_SESSION },
    { title: DENY, isCloseAffordance: true },
  );
  if (pick?.title === ALLOW) return 'allow';
  if (pick?.title === ALLOW_SESSION) return 'allow_session';
  return 'deny';
};

export class EditorApprover implements Approver {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(public prompt: ApprovalPrompt = modalPrompt) {}

  ask(request: ToolCallRequest, reason: string, signal: AbortSignal): Promise<{ decision: PermissionDecision; reason?: string }> {
    const answer = this.queue.then(async () => {
      if (signal.aborted) return { decision: 'deny' as const, reason: 'the run was stopped' };
      const decision = await this.prompt({ who: who(request), toolName: request.toolName, summary: request.summary, reason, request });
      return decision === 'deny' ? { decision, reason: 'the user denied this call' } : { decision };
    });
    this.queue = answer.catch(() => undefined);
    return answer;
  }
}

function who(request: ToolCallRequest): string {
  const { agent } = request;
  return agent.depth === 0 ? 'The main agent' : `Subagent “${agent.description ?? agent.agentId}”`;
}
