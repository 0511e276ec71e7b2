/**
 * Approval prompts in the editor: a modal that names which agent asks (the main agent, or a subagent
 * and its task), the command or path, with Allow / Allow for this session / Deny. One modal at a time,
 * however many subagents ask; a subagent simply waits for its answer. The prompt is injectable so
 * extension tests can answer it without the UI.
 */
import * as vscode from 'vscode';
import type { PermissionDecision } from '../core/events';
import type { Approver, ToolCallRequest } from '../core/policy/types';

export interface ApprovalQuestion {
  /** "The main agent" or "Subagent “find config”". */
  who: string;
  toolName: string;
  summary: string;
  reason: string;
  request: ToolCallRequest;
}

export type ApprovalPrompt = (question: ApprovalQuestion) => Promise<PermissionDecision>;

export const ALLOW = 'Allow';
export const ALLOW_SESSION = 'Allow for this session';
export const DENY = 'Deny';

export const modalPrompt: ApprovalPrompt = async (q) => {
  const action = q.toolName === 'bash' ? 'run a command' : q.toolName === 'edit_file' ? 'edit a file' : q.toolName === 'write_file' ? 'write a file' : `use ${q.toolName}`;
  const scope =
    q.request.kind === 'exec'
      ? `"${ALLOW_SESSION}" allows this exact command until the session ends.`
      : q.request.kind === 'external'
        ? `"${ALLOW_SESSION}" allows every call of ${q.toolName} until the session ends.`
        : `"${ALLOW_SESSION}" allows every edit inside this folder until the session ends.`;
  // Deny is the close affordance: Escape denies, and VS Code adds no separate Cancel button.
  const pick = await vscode.window.showWarningMessage(
    `${q.who} wants to ${action}`,
    { modal: true, detail: `${q.summary}\n\n${scope}` },
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
