/**
 * Approval prompts in the editor: a modal that names which agent asks (the main agent, or a subagent
 * and its task), the command or path, with Allow / Allow for this session / Deny. One modal at a time,
 * however many subagents ask; a subagent simply waits for its answer. The prompt is injectable so
 * extension tests can answer it without the UI.
 */
import * as vscode from 'vscode';
import type { PermissionDecision } from '../core/events';
import type { Approver, ToolCallRequest } from '../core/policy/types';
import { fetchHostOf, PLAN_WHY, UNTRUSTED_WHY, WEB_FETCH } from '../core/policy/web-fetch-policy';

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

/** The modal's title and detail for a question (exported for tests: the words are what the user decides on). */
export function approvalText(q: ApprovalQuestion): { message: string; detail: string } {
  const host = q.toolName === WEB_FETCH ? fetchHostOf(q.request) : undefined;
  if (host !== undefined) {
    const destination = q.request.privateDestination;
    // The summary names the place ("fetch from this machine: 127.0.0.1:8080"); the reason says why it is asked.
    const message = destination ? `${q.who} wants to ${q.summary}` : `${q.who} wants to fetch a web page from ${host}`;
    const mode = [PLAN_WHY, UNTRUSTED_WHY].find((why) => q.reason.startsWith(why));
    const why = destination ? `The URL: ${destination.url}\n\nFetches to this machine or a private network are asked in every permission mode.` : mode ? `${capitalize(mode)}.` : '';
    return { message, detail: `${destination ? '' : `${q.summary}\n\n`}${why ? `${why}\n\n` : ''}"${ALLOW_SESSION}" allows fetches from ${host} until the session ends.` };
  }
  const action = q.toolName === 'bash' ? 'run a command' : q.toolName === 'edit_file' ? 'edit a file' : q.toolName === 'write_file' ? 'write a file' : `use ${q.toolName}`;
  const scope =
    q.request.kind === 'exec'
      ? `"${ALLOW_SESSION}" allows this exact command until the session ends.`
      : q.request.kind === 'external'
        ? `"${ALLOW_SESSION}" allows every call of ${q.toolName} until the session ends.`
        : `"${ALLOW_SESSION}" allows every edit inside this folder until the session ends.`;
  return { message: `${q.who} wants to ${action}`, detail: `${q.summary}\n\n${scope}` };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

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
