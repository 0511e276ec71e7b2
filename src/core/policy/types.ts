/**
 * Policy contracts shared by every agent of a run: one PermissionPolicy, one Approver and one
 * HookRegistry instance serve the parent and all its subagents (context isolation is not isolation of authority).
 */
import type { AgentIdentity, PermissionDecision } from '../vocabulary';
import type { PrivateDestination, ToolKind } from '../tools/types';

export interface ToolCallRequest {
  agent: AgentIdentity;
  toolUseId: string;
  toolName: string;
  kind: ToolKind;
  input: unknown;
  /** The tool's one-line summary (command or path). */
  summary: string;
  /** Paths as given by the model (the tool's `paths(input)`). */
  paths: string[];
  /** An `external` tool that declared it changes nothing (MCP `readOnlyHint`). */
  readOnly?: boolean;
  /** Asked during the call: web_fetch reached a host on this machine or a private network (web-fetch-policy.ts). */
  privateDestination?: PrivateDestination;
}

export type PermissionVerdict =
  | { behavior: 'allow' }
  | { behavior: 'deny'; reason: string }
  | { behavior: 'ask'; reason: string };

/** The permission checks every call goes through (PermissionPolicy implements it). */
export interface PermissionChecker {
  check(request: ToolCallRequest): Promise<PermissionVerdict>;
  /** "Allow for this session"; `server`: every tool of the request's MCP server ("Allow this server for this session"). */
  rememberForSession(request: ToolCallRequest, scope?: 'call' | 'server'): void;
  /** "For this subagent" / "for this task's subagents". */
  rememberForAgent(request: ToolCallRequest, scope: 'agent' | 'task'): void;
}

/** Asked when the verdict is `ask`. Hosts implement it: the editor shows a modal; the CLI refuses. */
export interface Approver {
  ask(request: ToolCallRequest, reason: string, signal: AbortSignal): Promise<{ decision: PermissionDecision; reason?: string }>;
}
