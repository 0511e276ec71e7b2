/**
 * What an approval question is about, read once from the request and the policy's reason, so a host words its
 * question (the editor's modal, ACP's options, the headless CLI's refusal) without knowing the policy's tool names,
 * rule syntax or reason strings:
 *
 *   web_fetch          fetchHost (an answer covers that host), fetchRule (the rule that allows it), fetchUrl
 *   an MCP tool        mcpServer: its server as rules name it (`mcp__docs`), for "every tool of this server"
 *   the reason         modeWhy: why plan mode or an untrusted workspace asks what it would otherwise let go;
 *                      protectedPath: a protected path, asked in every mode but bypassPermissions
 */
import { PROTECTED_WHY } from './protected-paths';
import { READ_ONLY_TOOL_PLAN_WHY, READ_ONLY_TOOL_UNTRUSTED_WHY, serverRuleOf } from './read-only-tool-policy';
import type { ToolCallRequest } from './types';
import { fetchHostOf, hostRule, PLAN_WHY, UNTRUSTED_WHY, WEB_FETCH } from './web-fetch-policy';

export interface ApprovalSubject {
  /** A web_fetch call: the host it reaches (lower case; a private destination's own host). */
  fetchHost?: string;
  /** The tool rule that allows fetches from that host (`web_fetch(domain:example.com)`). */
  fetchRule?: string;
  /** A web_fetch call: its URL as the model gave it. */
  fetchUrl?: string;
  /** The tool rule naming the whole tool when it is web_fetch (`web_fetch`: every host). */
  fetchTool?: string;
  /** An MCP tool (kind `external`, not web_fetch): its server as rules name it (`mcp__docs`). */
  mcpServer?: string;
  /** Why plan mode or an untrusted workspace asks about a call that changes nothing (the policy's words). */
  modeWhy?: string;
  /** The reason names a protected path (.git, .mcp.json…): asked in acceptEdits too. */
  protectedPath: boolean;
}

/** `reason`: the policy's reason for asking (without one, nothing is read from it). */
export function approvalSubject(request: ToolCallRequest, reason = ''): ApprovalSubject {
  const fetch = request.toolName === WEB_FETCH;
  const fetchHost = fetch ? fetchHostOf(request) : undefined;
  const input = request.input as Record<string, unknown> | null;
  const mcpServer = request.kind === 'external' && !fetch ? serverRuleOf(request.toolName) : undefined;
  const modeWhy = (fetchHost !== undefined ? [PLAN_WHY, UNTRUSTED_WHY] : [READ_ONLY_TOOL_PLAN_WHY, READ_ONLY_TOOL_UNTRUSTED_WHY]).find((w) => reason.startsWith(w));
  return {
    ...(fetch ? { fetchTool: WEB_FETCH } : {}),
    ...(fetchHost !== undefined ? { fetchHost, fetchRule: hostRule(fetchHost) } : {}),
    ...(fetch && typeof input?.url === 'string' ? { fetchUrl: input.url } : {}),
    ...(mcpServer !== undefined ? { mcpServer } : {}),
    ...(modeWhy !== undefined ? { modeWhy } : {}),
    protectedPath: reason.includes(PROTECTED_WHY),
  };
}
