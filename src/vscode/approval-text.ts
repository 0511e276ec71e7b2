import { approvalSubject, type ToolCallRequest } from '../core/session/ports';
import type { PermissionDecision } from '../core/vocabulary';
/**
 * The words of a permission question (the panel's card and the modal show them): who asks, what, why it is asked,
 * and each way to answer, labelled by what it allows for this very call — on one axis, "Allow <what> for <whom>":
 *
 *   allow          Allow                                    (this call only)
 *   allow_session  Allow `npm test` for this session        (exec: that exact command; write: every edit in the
 *                                                            workspace; web_fetch: that host; MCP: that tool)
 *   allow_server   Allow every tool of server "docs" for this session
 *   allow_agent    Allow every bash command for this subagent          (policy/agent-grants.ts: the kind of call)
 *   allow_task     Allow every bash command for this task's subagents
 *   deny           Deny
 *
 * A scope is offered only where the policy remembers it (core/policy/permission-policy.ts rememberForSession, agent-grants.ts keyOf):
 * an answer that would cover nothing is not a button. No `vscode` import, so unit tests read the exact words.
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

/** One way to answer: the decision and the words that say what it allows. */
export interface ApprovalChoice {
  decision: PermissionDecision;
  label: string;
}

const ALLOW = 'Allow';
const DENY = 'Deny';
/** A command is named in its scope's label when it is this short, on one line, and plain enough to quote. */
const QUOTED_COMMAND_MAX = 40;

/** An MCP tool's server as its tool names start (`mcp__docs`), or undefined for any other tool. */
function mcpServerOf(q: ApprovalQuestion): string | undefined {
  return approvalSubject(q.request, q.reason).mcpServer;
}

/** The command of an exec call, as the policy remembers it for the session. */
function commandOf(request: ToolCallRequest): string | undefined {
  const input = request.input as Record<string, unknown> | null;
  return typeof input?.command === 'string' ? input.command : undefined;
}

/** What a session answer and a subagent answer cover for this call, in words; undefined: the policy keeps no such answer. */
function coverage(q: ApprovalQuestion): { session?: string; agent?: string } {
  const { request } = q;
  const host = approvalSubject(request, q.reason).fetchHost;
  if (host !== undefined) return { session: `fetches from ${host}`, agent: `fetches from ${host}` };
  if (request.kind === 'write') return { session: 'every file edit in the workspace', agent: 'every file edit in the workspace' };
  if (request.kind === 'external') return { session: `every call of ${q.toolName}`, agent: `every call of ${q.toolName}` };
  if (request.kind === 'exec') {
    const command = commandOf(request);
    const plain = command !== undefined && command.length <= QUOTED_COMMAND_MAX && !/[\n\r`]|&&/.test(command) && command.trim() === command && command !== '';
    return { ...(command !== undefined ? { session: plain ? `\`${command}\`` : 'this exact command' } : {}), agent: `every ${q.toolName} command` };
  }
  return {};
}

/**
 * The wider answers of a question, narrowest first; the first is the one the modal offers beside Allow. A subagent's
 * can be given for it alone or for its whole task (never for a private destination: the policy asks those by host
 * before any grant); an MCP tool's for every tool of its server.
 */
function scopeChoices(q: ApprovalQuestion): ApprovalChoice[] {
  const { session, agent } = coverage(q);
  const sub = q.request.agent.depth > 0 && !q.request.privateDestination && agent !== undefined;
  const out: ApprovalChoice[] = [];
  const sessionChoice = session !== undefined ? [{ decision: 'allow_session' as const, label: `Allow ${session} for this session` }] : [];
  // A session answer for a command covers that one command: narrower than every command of the subagent.
  if (q.request.kind === 'exec') out.push(...sessionChoice);
  if (sub) out.push({ decision: 'allow_agent', label: `Allow ${agent} for this subagent` }, { decision: 'allow_task', label: `Allow ${agent} for this task's subagents` });
  if (q.request.kind !== 'exec') out.push(...sessionChoice);
  const server = mcpServerOf(q);
  if (server !== undefined) out.push({ decision: 'allow_server', label: `Allow every tool of server "${server.slice('mcp__'.length)}" for this session` });
  return out;
}

/** Every answer of a question: Allow (this call), the wider ones, Deny. */
export function approvalChoices(q: ApprovalQuestion): ApprovalChoice[] {
  return [{ decision: 'allow', label: ALLOW }, ...scopeChoices(q), { decision: 'deny', label: DENY }];
}

export const MORE_CHOICES = 'More choices…';

/**
 * The modal's buttons, in order. VS Code focuses a modal's first button the moment it opens (maybe while the user
 * types in an editor): that one is "More choices…", so a stray Enter opens the list and decides nothing. Then Allow,
 * the narrowest wider answer, and Deny, the close affordance (Escape).
 */
export function modalButtons(q: ApprovalQuestion): { title: string; decision?: PermissionDecision; isCloseAffordance?: boolean }[] {
  const best = scopeChoices(q)[0];
  return [
    { title: MORE_CHOICES },
    { title: ALLOW, decision: 'allow' },
    ...(best ? [{ title: plainLabel(best.label), decision: best.decision }] : []),
    { title: DENY, decision: 'deny', isCloseAffordance: true },
  ];
}

/** A label as plain text (a modal's button, a quick pick's item): `npm test` becomes “npm test”. */
export function plainLabel(label: string): string {
  return label.replace(/`([^`]*)`/g, '“$1”');
}

/**
 * The question's title, why it is asked ('' when nothing needs saying) and the modal's detail: the exact call (unless
 * the title names it) and the why (exported for tests: the words are what the user decides on).
 */
export function approvalText(q: ApprovalQuestion): { message: string; why: string; detail: string } {
  const { fetchHost: host, modeWhy } = approvalSubject(q.request, q.reason);
  if (host !== undefined) {
    const destination = q.request.privateDestination;
    if (destination) {
      // The summary names the place ("fetch from this machine: 127.0.0.1:8080"); the why gives the URL.
      const why = `The URL: ${destination.url}\n\nFetches to this machine or a private network are asked in every permission mode.`;
      return { message: `${q.who} wants to ${q.summary}`, why, detail: why };
    }
    return withSummary(q, `${q.who} wants to fetch a web page from ${host}`, modeWhy ? `${capitalize(modeWhy)}.` : '');
  }
  const action = q.toolName === 'bash' ? 'run a command' : q.toolName === 'edit_file' ? 'edit a file' : q.toolName === 'write_file' ? 'write a file' : `use ${q.toolName}`;
  return withSummary(q, `${q.who} wants to ${action}`, modeWhy ? `${capitalize(modeWhy)}.` : '');
}

function withSummary(q: ApprovalQuestion, message: string, why: string): { message: string; why: string; detail: string } {
  return { message, why, detail: why ? `${q.summary}\n\n${why}` : q.summary };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
