import { type ToolCallRequest, fetchHostOf, PLAN_WHY, READ_ONLY_TOOL_PLAN_WHY, READ_ONLY_TOOL_UNTRUSTED_WHY, serverRuleOf, UNTRUSTED_WHY, WEB_FETCH } from '../core/session';
/**
 * The words of an approval modal (approver.ts shows them): who asks, what, and what "Allow for this session"
 * covers. No `vscode` import, so unit tests read the exact text the user decides on. web_fetch names the host,
 * says why plan mode or an untrusted workspace asks, and a private destination names the place and the URL; a
 * read-only MCP tool says why it is asked in plan mode or an untrusted workspace.
 */

/** Who asks, in every prompt the user answers (approvals, questions, the fan-out card): "The main agent" or "Subagent “find config”". */
export function whoAsks(agent: { depth: number; description?: string | null; agentId: string }): string {
  return agent.depth === 0 ? 'The main agent' : `Subagent “${agent.description ?? agent.agentId}”`;
}

export interface ApprovalQuestion {
  /** "The main agent" or "Subagent “find config”". */
  who: string;
  toolName: string;
  summary: string;
  reason: string;
  request: ToolCallRequest;
}

export const ALLOW = 'Allow';
export const ALLOW_SESSION = 'Allow for this session';
export const DENY = 'Deny';
export const ALLOW_AGENT = 'Allow for this subagent';
export const ALLOW_TASK = "Allow for this task's subagents";
export const ALLOW_SERVER = 'Allow this server for this session';

/** An MCP tool's server as its tool names start (`mcp__docs`), or undefined for any other tool. */
function mcpServerOf(q: ApprovalQuestion): string | undefined {
  return q.request.kind === 'external' && q.toolName !== WEB_FETCH ? serverRuleOf(q.toolName) : undefined;
}

/**
 * The buttons of a question: a subagent's can also be answered for it alone, or for its whole task; an MCP tool's
 * for every tool of its server.
 */
export function approvalChoices(q: ApprovalQuestion): string[] {
  const session = mcpServerOf(q) !== undefined ? [ALLOW_SESSION, ALLOW_SERVER] : [ALLOW_SESSION];
  return q.request.agent.depth > 0 && !q.request.privateDestination ? [ALLOW, ALLOW_AGENT, ALLOW_TASK, ...session, DENY] : [ALLOW, ...session, DENY];
}

/** What the two subagent answers cover (policy/agent-grants.ts), said once under the session's line. */
function agentScope(q: ApprovalQuestion, what: string): string {
  if (q.request.agent.depth === 0 || q.request.privateDestination) return '';
  return `\n"${ALLOW_AGENT}" allows ${what} for this subagent only; "${ALLOW_TASK}" for every subagent of its task, until the session ends.`;
}

/** The modal's title and detail for a question (exported for tests: the words are what the user decides on). */
export function approvalText(q: ApprovalQuestion): { message: string; detail: string } {
  const host = q.toolName === WEB_FETCH ? fetchHostOf(q.request) : undefined;
  if (host !== undefined) {
    const destination = q.request.privateDestination;
    // The summary names the place ("fetch from this machine: 127.0.0.1:8080"); the reason says why it is asked.
    const message = destination ? `${q.who} wants to ${q.summary}` : `${q.who} wants to fetch a web page from ${host}`;
    const mode = [PLAN_WHY, UNTRUSTED_WHY].find((why) => q.reason.startsWith(why));
    const why = destination ? `The URL: ${destination.url}\n\nFetches to this machine or a private network are asked in every permission mode.` : mode ? `${capitalize(mode)}.` : '';
    return { message, detail: `${destination ? '' : `${q.summary}\n\n`}${why ? `${why}\n\n` : ''}"${ALLOW_SESSION}" allows fetches from ${host} until the session ends.${agentScope(q, `fetches from ${host}`)}` };
  }
  const action = q.toolName === 'bash' ? 'run a command' : q.toolName === 'edit_file' ? 'edit a file' : q.toolName === 'write_file' ? 'write a file' : `use ${q.toolName}`;
  const scope =
    q.request.kind === 'exec'
      ? `"${ALLOW_SESSION}" allows this exact command until the session ends.`
      : q.request.kind === 'external'
        ? `"${ALLOW_SESSION}" allows every call of ${q.toolName} until the session ends.`
        : `"${ALLOW_SESSION}" allows every edit inside this folder until the session ends.`;
  const what = q.request.kind === 'exec' ? `every ${q.toolName} command` : q.request.kind === 'external' ? `every call of ${q.toolName}` : 'every edit inside this folder';
  const why = [READ_ONLY_TOOL_PLAN_WHY, READ_ONLY_TOOL_UNTRUSTED_WHY].find((w) => q.reason.startsWith(w));
  const server = mcpServerOf(q);
  const serverScope = server !== undefined ? `\n"${ALLOW_SERVER}" allows every tool of the MCP server "${server.slice('mcp__'.length)}" (${server}__*) until the session ends.` : '';
  return { message: `${q.who} wants to ${action}`, detail: `${q.summary}\n\n${why ? `${capitalize(why)}.\n\n` : ''}${scope}${serverScope}${agentScope(q, what)}` };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

