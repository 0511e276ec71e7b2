/**
 * The JSON a hook command reads on stdin, shaped as Claude Code sends it, so the scripts people already have
 * work unchanged: our tool names and input fields become Claude Code's (`read_file` {path} → `Read` {file_path}),
 * file paths absolute as Claude Code's always are.
 *
 *   every event   session_id, transcript_path, cwd, permission_mode, hook_event_name
 *   in a subagent + agent_id, agent_type
 *   tool events   + tool_name, tool_input, tool_use_id; PostToolUse + tool_response
 */
import { isAbsolute, resolve } from 'node:path';
import { claudeToolName, toClaudeInput } from '../tools/tool-names';
import type { ToolResult } from '../tools/types';
import type { HookEventName } from './hook-settings';
import { narrowMode, type AgentIdentity, type PermissionMode } from '../vocabulary';

/** Claude Code's name for a subagent that is not a custom one (an identity without a type is one). */
const DEFAULT_AGENT_TYPE = 'general-purpose';

export interface PayloadSession {
  sessionId: string;
  workdir: string;
  /** The session's transcript (Delegate's JSONL, not Claude Code's format). */
  transcriptPath: string;
  permissionMode(): PermissionMode;
}

export type Payload = Record<string, unknown>;

export function agentTypeOf(agent: AgentIdentity): string {
  return agent.agentType ?? DEFAULT_AGENT_TYPE;
}

export function basePayload(event: HookEventName, session: PayloadSession, agent: AgentIdentity): Payload {
  return {
    session_id: session.sessionId,
    transcript_path: session.transcriptPath,
    cwd: session.workdir,
    // A subagent whose definition narrows the mode works under the stricter one.
    permission_mode: narrowMode(session.permissionMode(), agent.mode) ?? session.permissionMode(),
    hook_event_name: event,
    ...(agent.parentId !== null ? { agent_id: agent.agentId, agent_type: agentTypeOf(agent) } : {}),
  };
}

export function toolPayload(event: 'PreToolUse' | 'PostToolUse', session: PayloadSession, call: { agent: AgentIdentity; toolName: string; toolUseId: string; input: unknown }): Payload {
  return {
    ...basePayload(event, session, call.agent),
    tool_name: claudeToolName(call.toolName),
    tool_input: claudeToolInput(call.toolName, call.input, session.workdir),
    tool_use_id: call.toolUseId,
  };
}

/** Claude Code's field names, and `file_path` absolute (scripts compare it with $CLAUDE_PROJECT_DIR). */
export function claudeToolInput(toolName: string, input: unknown, workdir: string): unknown {
  const mapped = toClaudeInput(toolName, input);
  if (typeof mapped !== 'object' || mapped === null || Array.isArray(mapped)) return mapped;
  const record = mapped as Record<string, unknown>;
  const file = record.file_path;
  return typeof file === 'string' && file !== '' && !isAbsolute(file) && !file.startsWith('~') ? { ...record, file_path: resolve(workdir, file) } : record;
}

/**
 * `tool_response` after the call. Claude Code's are per-tool objects; the fields its hook examples read are kept:
 * `filePath` and `success` for file tools, `stdout`/`stderr`/`interrupted` for Bash. `output` and `is_error` are
 * what the model got.
 */
export function toolResponse(toolName: string, input: unknown, output: ToolResult, workdir: string): Payload {
  const base: Payload = { success: output.isError !== true, is_error: output.isError === true, output: output.content };
  const claudeInput = claudeToolInput(toolName, input, workdir) as { file_path?: unknown };
  if (typeof claudeInput?.file_path === 'string') return { filePath: claudeInput.file_path, ...base };
  if (toolName === 'bash') return { stdout: output.content, stderr: '', interrupted: /\nCommand (timed out|cancelled)/.test(output.content), ...base };
  return base;
}
