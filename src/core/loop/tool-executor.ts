/**
 * Runs one tool call through the shared policy pipeline, for the parent and every subagent alike:
 *
 *   OpenCall (call-records.ts: read once, its record pending) ─▶ known tool? input parsed? ─▶ PreToolUse hooks
 *            ─▶ the tool's precheck (a refusal it knows already) ─▶ permission check ─▶ (ask approver) ─▶ `running`
 *            ─▶ execute ─▶ PostToolUse hooks
 *            ─▶ cut to the output limit ─▶ `completed` / `error` ─▶ tool_result
 *                  └─ a question the call raises as it runs (web_fetch reaching a private host): permission
 *                     check ─▶ (ask approver), with the same events, before it goes on
 *
 * Hooks, the permission check and the approver are one port, the session's ToolGate (tool-gate.ts).
 * Every failure along the way becomes an `is_error` tool_result the model can read; nothing throws
 * through the loop.
 */
import type { AgentEmit } from '../events';
import type { ToolResultBlockParam } from '../llm/types';
import { errorText } from '../errors';
import type { ToolCallRequest } from '../policy/types';
import type { AnyTool, CallDescription, PrivateDestination, ToolRegistry, ToolResult } from '../tools/types';
import { invalidJson, recordOf, toolWords, type OpenCall } from './call-records';
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

export async function executeToolCall(call: OpenCall, scope: ToolCallScope, blocked?: string): Promise<ToolResultBlockParam> {
  const { use } = call;
  const started = Date.now();
  let result: ToolResult;
  try {
    result = blocked !== undefined ? { content: blocked, isError: true } : await runPipeline(call, scope);
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
    type: 'tool_call',
    id: use.id,
    name: use.name,
    state: result.isError === true ? 'error' : 'completed',
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

/** A call's live output (`tool_output` events) stops here; its result still holds all of it. */
const LIVE_OUTPUT_CHARS = 256 * 1024;

async function runPipeline(call: OpenCall, scope: ToolCallScope): Promise<ToolResult> {
  const { gate, outputs, identity } = scope;
  const { use, tool } = call;
  if (scope.signal.aborted) return { content: 'Not run: the run was cancelled.', isError: true };
  if (!tool) {
    return { content: `Unknown tool "${use.name}". Available tools: ${scope.tools.names().join(', ')}.`, isError: true };
  }
  const garbled = invalidJson(use.input);
  if (garbled !== undefined || !call.parsed) {
    const text = garbled ?? '';
    return { content: `Invalid input for ${use.name}: it is not valid JSON (${text.slice(0, 200)}${text.length > 200 ? '…' : ''}). Send the call again with a JSON object.`, isError: true };
  }
  let parsed = call.parsed;
  if (!parsed.ok) return { content: `Invalid input for ${use.name}: ${parsed.error}`, isError: true };
  // A call its tool cannot describe (its paths unknown) is not run: the permission check confines what it names.
  const unsaid: ToolResult = { content: `Tool ${use.name} failed: it could not say what this call does (its summary and paths), so it was not run.`, isError: true };
  let said = call.said;
  if (!said) return unsaid;

  const gateScope: GateScope = { identity, emit: scope.emit, signal: scope.signal };
  const pre = await gate.preToolUse(gateScope, { toolUseId: use.id, toolName: use.name, input: parsed.input });
  if (pre.denied !== undefined) return { content: `Denied by a PreToolUse hook: ${pre.denied}`, isError: true };
  const rewritten = pre.input !== parsed.input;
  if (rewritten) {
    // A new input: parsed and described again, and the running patch says what runs.
    parsed = tool.parse(pre.input);
    if (!parsed.ok) return { content: `A PreToolUse hook replaced the input with one that is invalid: ${parsed.error}`, isError: true };
    said = toolWords(tool, parsed.input);
    if (!said) return unsaid;
  }
  const input: unknown = parsed.input;
  // A refusal the tool knows already (the read-before-write guard): said now, before anyone is asked in vain.
  const early = await tool.precheck?.(input, { signal: scope.signal, agentId: identity.agentId, toolUseId: use.id });
  if (early !== undefined) return { content: early, isError: true };

  const request = callRequest(tool, input, said, use.id, scope);
  const refusal = await gate.permit(gateScope, request, pre);
  if (refusal) return { content: refusal, isError: true };

  await scope.emit({ type: 'tool_call', id: use.id, name: use.name, state: 'running', ...(rewritten ? recordOf(tool, said, pre.input) : {}) });
  const outputPath = outputs.outputPathFor?.(use.id);
  const allowPrivateDestination = (destination: PrivateDestination): Promise<string | undefined> => gate.permitPrivate(gateScope, request, destination);
  // Live output in order, and all of it out before the call's end patch; past LIVE_OUTPUT_CHARS a chatty command's
  // rest waits for its result (a host shows the output's tail, and the bus is not a pipe for megabytes).
  let live = Promise.resolve();
  let liveChars = 0;
  const onOutput = (text: string): void => {
    if (liveChars >= LIVE_OUTPUT_CHARS) return;
    const piece = text.slice(0, LIVE_OUTPUT_CHARS - liveChars);
    liveChars += piece.length;
    live = live.then(() => scope.emit({ type: 'tool_output', id: use.id, text: piece }));
  };
  const output = await tool.execute(input, { signal: scope.signal, agentId: identity.agentId, toolUseId: use.id, allowPrivateDestination, onOutput, ...(outputPath ? { outputPath } : {}) });
  await live;
  return gate.postToolUse(gateScope, { toolUseId: use.id, toolName: use.name, input, output });
}

function callRequest(tool: AnyTool, input: unknown, said: CallDescription, toolUseId: string, scope: ToolCallScope): ToolCallRequest {
  return {
    agent: scope.identity,
    toolUseId,
    toolName: tool.name,
    kind: tool.kind,
    input,
    summary: said.summary,
    paths: said.paths,
    ...(tool.readOnly ? { readOnly: true } : {}),
  };
}
