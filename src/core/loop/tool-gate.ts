/**
 * What stands between a tool call and its running, as one port the session builds from the settings-file hooks,
 * the permission policy and the host's approver (session/policy-gate.ts); the loop and the tool executor see only
 * this (pi-mono's beforeToolCall / afterToolCall are the same idea):
 *
 *   parsed call ─▶ preToolUse (hooks: deny, replace the input, allow, ask)
 *               ─▶ permit (policy verdict; ask the approver, with permission_asked / permission_answered events)
 *               ─▶ execute ─┬─ a private host reached mid-call ─▶ permitPrivate (asked in every mode)
 *                           └─▶ postToolUse (hooks may replace the output)
 *   answer ready ─▶ stopNote (Stop / SubagentStop hooks: a note that sends the agent on, or nothing)
 */
import type { AgentEmit } from '../events';
import type { ToolCallRequest } from '../policy/types';
import type { PrivateDestination, ToolResult } from '../tools/types';
import type { AgentIdentity } from '../vocabulary';

/** Whose call, where its events go, and the signal that stops it. */
export interface GateScope {
  identity: AgentIdentity;
  emit: AgentEmit;
  signal: AbortSignal;
}

/** What the PreToolUse hooks decided. */
export interface HookVerdict {
  /** A hook denied the call: why. */
  denied?: string;
  /** A hook explicitly allowed the call: no approval question (confinement and deny list still hold). */
  allowed: boolean;
  /** A hook wants the user asked even where the policy would allow: why. */
  asked?: string;
  /** The input to run with (a hook may have replaced it). */
  input: unknown;
}

export interface ToolGate {
  preToolUse(scope: GateScope, call: { toolUseId: string; toolName: string; input: unknown }): Promise<HookVerdict>;
  /** The permission check, asking the approver when it must: a refusal for the model, or undefined (may run). */
  permit(scope: GateScope, request: ToolCallRequest, hook: { allowed: boolean; asked?: string }): Promise<string | undefined>;
  /** A question the call raises as it runs (web_fetch reaching this machine or a private network). */
  permitPrivate(scope: GateScope, request: ToolCallRequest, destination: PrivateDestination): Promise<string | undefined>;
  postToolUse(scope: GateScope, call: { toolUseId: string; toolName: string; input: unknown; output: ToolResult }): Promise<ToolResult>;
  /** Stop (SubagentStop for a child) hooks on the answer: the note that makes the agent go on, or undefined. */
  stopNote(scope: GateScope, answer: string, continuations: number): Promise<string | undefined>;
}
