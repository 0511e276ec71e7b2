/**
 * The core's "ask" as an ACP `session/request_permission`: every call the policy would ask about goes to the
 * client, naming the agent that asks (the main agent, or which subagent), with four options:
 *
 *   allow once ─▶ allow      allow always ─▶ allow_session (the policy remembers it for the session)
 *   reject once ─▶ deny      reject always ─▶ deny, and this tool is refused without asking for the session
 *   an MCP tool's question also: allow all of its server's tools ─▶ allow_server (an allow_always option)
 *
 * The request goes on the call's card (a folded child's: its task call, updates.ts cardOf) as `pending` under the
 * asking title; once answered the card is put back as it was (call-cards.ts).
 *
 * No answer is never an allow: a cancelled request, a closed connection, an unknown option id or an aborted call
 * are all a deny.
 */
import { approvalSubject, type Approver, type ToolCallRequest } from '../core/session/ports';
import type { PermissionDecision } from '../core/vocabulary';
import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk/unstable';
import { locationsOf, toolKindOf, toolTitle } from './tool-kinds';

export type AskClient = (request: RequestPermissionRequest, signal: AbortSignal) => Promise<RequestPermissionResponse>;

export interface PermissionRouting {
  /** The ACP session the asking agent's updates go to. */
  sessionOf(agentId: string): string;
  /** The card (session and tool call) a call's question goes on. */
  cardOf(agentId: string, toolUseId: string): { sessionId: string; toolCallId: string };
  /** A question goes on this card: the function returned puts the card back once it is answered (call-cards.ts). */
  hold(sessionId: string, toolCallId: string): () => Promise<void>;
  /** "the main agent", `subagent "…" (type)`. */
  describeAgent(agentId: string): string;
}

const PERMISSION_OPTIONS: readonly PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Allow for this session', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject_always', name: 'Reject for this session', kind: 'reject_always' },
];

export function clientApprover(workdir: string, routing: PermissionRouting, ask: AskClient): Approver {
  /** Tools the user rejected for the session. */
  const rejected = new Set<string>();
  return {
    async ask(request: ToolCallRequest, reason: string, signal: AbortSignal) {
      if (rejected.has(request.toolName)) return { decision: 'deny', reason: `the user rejected ${request.toolName} for this session` };
      const who = routing.describeAgent(request.agent.agentId);
      let optionId: string | undefined;
      const card = routing.cardOf(request.agent.agentId, request.toolUseId);
      const release = routing.hold(card.sessionId, card.toolCallId);
      try {
        const response = await ask(
          {
            sessionId: card.sessionId,
            toolCall: {
              toolCallId: card.toolCallId,
              title: `${who[0]?.toUpperCase() ?? ''}${who.slice(1)} wants to: ${toolTitle(request.toolName, request.summary)}`,
              kind: toolKindOf(request.toolName, request.input),
              status: 'pending',
              locations: locationsOf(workdir, request.paths),
              rawInput: request.input,
              content: [{ type: 'content', content: { type: 'text', text: reason } }],
            },
            options: optionsFor(request),
            _meta: { delegate: { agentId: request.agent.agentId, parentId: request.agent.parentId, description: request.agent.description ?? null, agentType: request.agent.agentType ?? null, reason } },
          },
          signal,
        );
        optionId = response.outcome.outcome === 'selected' ? response.outcome.optionId : undefined;
      } catch {
        optionId = undefined;
      }
      await release();
      return decide(optionId, request, rejected);
    },
  };
}

/** An MCP tool's server as its tool names start (`mcp__docs`); undefined for any other tool. */
function mcpServerOf(request: ToolCallRequest): string | undefined {
  return approvalSubject(request).mcpServer;
}

/** The four options; an MCP tool's question also offers its whole server for the session. */
function optionsFor(request: ToolCallRequest): PermissionOption[] {
  const server = mcpServerOf(request);
  if (server === undefined) return [...PERMISSION_OPTIONS];
  const all: PermissionOption = { optionId: ALLOW_SERVER, name: `Allow every tool of "${server.slice('mcp__'.length)}" for this session`, kind: 'allow_always' };
  return [...PERMISSION_OPTIONS.slice(0, 2), all, ...PERMISSION_OPTIONS.slice(2)];
}

const ALLOW_SERVER = 'allow_server';

function decide(optionId: string | undefined, request: ToolCallRequest, rejected: Set<string>): { decision: PermissionDecision; reason?: string } {
  switch (optionId) {
    case ALLOW_SERVER:
      // Only where it was offered: an option the question did not have is no answer.
      if (mcpServerOf(request) !== undefined) return { decision: 'allow_server' };
      return { decision: 'deny', reason: 'no answer from the user (the request was cancelled); not allowed' };
    case 'allow_once':
      return { decision: 'allow' };
    case 'allow_always':
      return { decision: 'allow_session' };
    case 'reject_always':
      rejected.add(request.toolName);
      return { decision: 'deny', reason: `the user rejected ${request.toolName} for this session` };
    case 'reject_once':
      return { decision: 'deny', reason: 'the user rejected this call' };
    default:
      return { decision: 'deny', reason: 'no answer from the user (the request was cancelled); not allowed' };
  }
}
