/**
 * Permissions of an external tool that says it changes nothing (an MCP tool's `annotations.readOnlyHint`). It
 * changes nothing, but its input goes to a server that is not Delegate: `search({q: "<the .env file>"})` sends out
 * what the agent read, as a web_fetch URL can (web-fetch-policy.ts). So it is treated like web_fetch:
 *
 *                               default, acceptEdits   plan    bypassPermissions   untrusted workspace (every mode)
 *   not read-only (mutates)     ask                    refused allowed             refused (permission-policy.ts)
 *   read-only                   ask                    ask     allowed             ask
 *
 * Only an answer or a rule skips the question: "Allow for this session" (that tool), `--allowed-tools` naming the
 * tool or its server (`mcp__docs`), "for this subagent / task" (agent-grants.ts). For the change tracker the hint
 * still means "changes no files" (change-tracker.ts does not watch such a call).
 */
import type { PermissionVerdict, ToolCallRequest } from './types';
import type { PermissionMode } from '../vocabulary';

/** Why plan mode and an untrusted workspace ask (the editor's modal shows it; the headless refusal starts with it). */
export const READ_ONLY_TOOL_PLAN_WHY = 'plan mode is read-only, but a read-only tool still sends its input to its server, which can carry what the agent read';
export const READ_ONLY_TOOL_UNTRUSTED_WHY = 'the workspace is not trusted, and a read-only tool still sends its input to its server, which can carry what the agent read';

export function readOnlyToolVerdict(req: ToolCallRequest, mode: PermissionMode, trusted: boolean, allowedForSession: boolean): PermissionVerdict {
  if (allowedForSession) return { behavior: 'allow' };
  const what = `${req.toolName} wants to send${req.summary ? ` ${req.summary}` : ' a call'}`;
  if (!trusted) return { behavior: 'ask', reason: `${READ_ONLY_TOOL_UNTRUSTED_WHY}: ${what}` };
  if (mode === 'plan') return { behavior: 'ask', reason: `${READ_ONLY_TOOL_PLAN_WHY}: ${what}` };
  if (mode === 'bypassPermissions') return { behavior: 'allow' };
  return { behavior: 'ask', reason: `${req.toolName} reaches outside Delegate${req.summary ? `: ${req.summary}` : ''}` };
}

/** `mcp__docs` for `mcp__docs__search`: the rule that allows every tool of the server (tool-rules.ts). */
export function serverRuleOf(toolName: string): string | undefined {
  const m = /^(mcp__.+?)__./.exec(toolName);
  return m?.[1];
}
