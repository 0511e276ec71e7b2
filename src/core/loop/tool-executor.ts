/**
 * Runs one tool call through the shared policy pipeline, for the parent and every subagent alike:
 *
 *   tool_use ─▶ known tool? ─▶ parse input ─▶ PreToolUse hooks ─▶ permission check ─▶ (ask approver)
 *            ─▶ execute ─▶ PostToolUse hooks ─▶ cut to the output limit ─▶ tool_result
 *                  └─ a question the call raises as it runs (web_fetch reaching a private host): permission
 *                     check ─▶ (ask approver), with the same events, before it goes on
 *
 * Hooks, the permission check and the approver are one port, the session's ToolGate (tool-gate.ts).
 * Every failure along the way becomes an `is_error` tool_result the model can read; nothing throws
 * through the loop.
 */
import type { AgentEmit } from '../events';
import { INVALID_TOOL_INPUT, type ToolResultBlockParam, type ToolUseBlock } from '../llm/types';
import { errorText } from '../errors';
import type { ToolCallRequest } from '../policy/types';
import type { AnyTool, PrivateDestination, ToolRegistry, ToolResult } from '../tools/types';
import { limitOutput, limitPartialOutput } from './output-limit';
import type { GateScope, ToolGate } from './tool-gate';
import type { FanoutGate } from '../delegation/fanout-gate';
import type { Outputs, RunLimits } from './types';
import type { AgentIdentity } from '../vocabulary';

export interface ToolCallScope {
  identity: AgentIdentity;
  tools: ToolRegistry;
  gate: ToolGate;
  outputs: Outputs;
  /** The output cap per call, and how many `task` calls run at once (turn-steps.ts). */
  limits: Pick<RunLimits, 'maxOutputChars' | 'maxParallel'>;
  /** What a reply's `task` calls pass before they start (the session's; none: they start). */
  fanout?: FanoutGate;
  emit: AgentEmit;
  signal: AbortSignal;
}

export async function executeToolCall(use: ToolUseBlock, scope: ToolCallScope, blocked?: string): Promise<ToolResultBlockParam> {
  const started = Date.now();
  await scope.emit({ type: 'tool_started', toolUseId: use.id, name: use.name, input: use.input, ...describeCall(scope.tools.get(use.name), use.input) });
  let result: ToolResult;
  try {
    result = blocked !== undefined ? { content: blocked, isError: true } : await runPipeline(use, scope);
  } catch (err) {
    // A tool or port that threw anyway: report it to the model, keep the run alive.
    result = { content: `Tool ${use.name} failed: ${errorText(err)}`, isError: true };
  }
  if (scope.signal.aborted && !result.isError) result = { content: `${result.content}\n[run cancelled]`, isError: result.isError };
  const max = scope.limits.maxOutputChars;
  const limited = result.fullOutput
    ? limitPartialOutput(result.content, max, result.fullOutput)
    : await limitOutput(result.content, max, (full) => scope.outputs.saveFullOutput(use.id, full));
  await scope.emit({
    type: 'tool_finished',
    toolUseId: use.id,
    name: use.name,
    isError: result.isError === true,
    output: limited.content,
    durationMs: Date.now() - started,
    ...(limited.fullOutputPath ? { fullOutputPath: limited.fullOutputPath } : {}),
  });
  return {
    type: 'tool_result',
    tool_use_id: use.id,
    content: limited.content,
    ...(result.isError ? { is_error: true } : {}),
  };
}

async function runPipeline(use: ToolUseBlock, scope: ToolCallScope): Promise<ToolResult> {
  const { gate, outputs, identity } = scope;
  if (scope.signal.aborted) return { content: 'Not run: the run was cancelled.', isError: true };
  const tool = scope.tools.get(use.name);
  if (!tool) {
    return { content: `Unknown tool "${use.name}". Available tools: ${scope.tools.names().join(', ')}.`, isError: true };
  }
  const garbled = invalidJson(use.input);
  if (garbled !== undefined) {
    return { content: `Invalid input for ${use.name}: it is not valid JSON (${garbled.slice(0, 200)}${garbled.length > 200 ? '…' : ''}). Send the call again with a JSON object.`, isError: true };
  }
  let parsed = tool.parse(use.input);
  if (!parsed.ok) return { content: `Invalid input for ${use.name}: ${parsed.error}`, isError: true };

  const gateScope: GateScope = { identity, emit: scope.emit, signal: scope.signal };
  const pre = await gate.preToolUse(gateScope, { toolUseId: use.id, toolName: use.name, input: parsed.input });
  if (pre.denied !== undefined) return { content: `Denied by a PreToolUse hook: ${pre.denied}`, isError: true };
  if (pre.input !== parsed.input) {
    parsed = tool.parse(pre.input);
    if (!parsed.ok) return { content: `A PreToolUse hook replaced the input with one that is invalid: ${parsed.error}`, isError: true };
  }
  const input: unknown = parsed.input;

  const request = callRequest(tool, input, use, scope);
  const refusal = await gate.permit(gateScope, request, pre);
  if (refusal) return { content: refusal, isError: true };

  const outputPath = outputs.outputPathFor?.(use.id);
  const allowPrivateDestination = (destination: PrivateDestination): Promise<string | undefined> => gate.permitPrivate(gateScope, request, destination);
  const output = await tool.execute(input, { signal: scope.signal, agentId: identity.agentId, toolUseId: use.id, allowPrivateDestination, ...(outputPath ? { outputPath } : {}) });
  return gate.postToolUse(gateScope, { toolUseId: use.id, toolName: use.name, input, output });
}

function callRequest(tool: AnyTool, input: unknown, use: ToolUseBlock, scope: ToolCallScope): ToolCallRequest {
  return {
    agent: scope.identity,
    toolUseId: use.id,
    toolName: tool.name,
    kind: tool.kind,
    input,
    summary: tool.summarize(input),
    paths: tool.paths(input),
    ...(tool.readOnly ? { readOnly: true } : {}),
  };
}

/** The raw text of a tool input the stream could not parse as JSON, if that is what this is. */
function invalidJson(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || !(INVALID_TOOL_INPUT in input)) return undefined;
  return String((input as Record<string, unknown>)[INVALID_TOOL_INPUT]);
}

/** The tool's own description of a call, for the event (nothing when the tool is unknown or its input does not parse). */
function describeCall(tool: AnyTool | undefined, input: unknown): { kind?: AnyTool['kind']; summary?: string; paths?: string[] } {
  if (!tool) return {};
  const parsed = tool.parse(input);
  if (!parsed.ok) return { kind: tool.kind };
  try {
    return { kind: tool.kind, summary: tool.summarize(parsed.input), paths: tool.paths(parsed.input) };
  } catch {
    return { kind: tool.kind };
  }
}
