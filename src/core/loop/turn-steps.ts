/**
 * The two steps of one turn of the loop (loop.ts), for the parent and every subagent alike:
 *
 *   streamTurn    one streamed model request: text deltas, retries and waits become events, in order
 *   runToolCalls  the calls of the reply (read once: call-records.ts), each record `pending` at once; then ordinary
 *                 tools one by one in order, then `task` calls together (at most maxParallel at once, after the
 *                 fan-out gate); results kept by position, one per tool_use block
 */
import type { MessageParam, ModelPort, ToolResultBlockParam } from '../llm/types';
import { pendingPatch, type OpenCall } from './call-records';
import { mergeConsecutive } from './conversation';
import type { LoopGuard } from './loop-guard';
import { executeToolCall, type ToolCallScope } from './tool-executor';
import type { AgentSpec, ModelAccess } from './types';
import { WEB_SEARCH_TOOL } from './web-search';

export async function streamTurn(
  spec: AgentSpec,
  /** This agent's model access (its own model id and thinking, where its spec sets them). */
  models: ModelAccess,
  tools: ToolCallScope['tools'],
  messages: MessageParam[],
  forcedFinal: boolean,
  turn: number,
  signal: AbortSignal,
  emit: ToolCallScope['emit'],
): ReturnType<ModelPort['stream']> {
  // Deltas arrive synchronously from the stream; chain their events so they stay ordered and awaited.
  let deltas: Promise<void> = Promise.resolve();
  try {
    return await models.model.stream(
      {
        model: models.modelId,
        maxTokens: models.maxTokensFor(models.modelId),
        thinking: models.thinking ?? 'auto',
        system: spec.systemPrompt,
        messages: mergeConsecutive(messages),
        tools: tools.schemas(),
        ...(spec.webSearch !== false && models.features.has('web_search') ? { serverTools: [WEB_SEARCH_TOOL] } : {}),
        ...(forcedFinal ? { toolChoice: 'none' as const } : {}),
        // The agent's own tools (`task`, `task_output`) come after the ones it shares with parent and children.
        ...(models.features.has('prompt_cache') ? { cache: { sharedTools: spec.sharedTools ?? spec.tools.names().length } } : {}),
      },
      signal,
      {
        onTextDelta: (text) => {
          deltas = deltas.then(() => emit({ type: 'text_delta', turn, text }));
        },
        onThinking: ({ text, redacted }) => {
          deltas = deltas.then(() => emit({ type: 'thinking', turn, text, ...(redacted ? { redacted } : {}) }));
        },
        onRetry: (message) => {
          deltas = deltas.then(() => emit({ type: 'error', message, retrying: true }));
        },
        onWaiting: ({ attempt, waitedMs, retry }) => {
          deltas = deltas.then(() => emit({ type: 'waiting', turn, attempt, waitedMs, ...(retry ? { retry } : {}) }));
        },
      },
    );
  } finally {
    await deltas;
  }
}

/**
 * Every call's record is pending first (the reply's calls, in its order); ordinary tools then run one by one in
 * order, `task` calls together, at most maxParallel at once. Results are kept by position, not id: a block whose id
 * repeats an earlier one's is answered too.
 */
export async function runToolCalls(calls: OpenCall[], scope: ToolCallScope, guard: LoopGuard, cutOff: boolean): Promise<ToolResultBlockParam[]> {
  const results: ToolResultBlockParam[] = [];
  const blocked: (string | undefined)[] = calls.map(({ use }) => guard.check(use.name, use.input));
  const seen = new Set<string>();
  calls.forEach(({ use }, i) => {
    if (seen.has(use.id)) blocked[i] = `Not run: the tool_use id ${use.id} was already used by an earlier call in this message. Give every call its own id.`;
    seen.add(use.id);
  });
  // At max_tokens the last tool_use may hold half its input (the SDK parses partial JSON without complaint).
  if (cutOff && calls.length > 0) {
    blocked[calls.length - 1] = 'Not run: your reply hit the output token limit while writing this call, so its input may be incomplete. Send it again, shorter if needed.';
  }
  for (const call of calls) await scope.emit(pendingPatch(call));
  const at = (i: number): OpenCall => calls[i] as OpenCall;
  const isTask = (i: number): boolean => at(i).tool?.kind === 'delegate';
  const indices = calls.map((_, i) => i);
  for (const i of indices.filter((i) => !isTask(i))) results[i] = await executeToolCall(at(i), scope, blocked[i]);
  // The children this reply starts, all at once before any runs (fanout-gate.ts): the user may refuse them.
  const starts = indices.filter((i) => isTask(i) && blocked[i] === undefined && at(i).use.name === 'task');
  if (scope.fanout && starts.length > 0 && !scope.signal.aborted) {
    const refused = await scope.fanout.review(scope.identity, starts.map((i) => ({ toolUseId: at(i).use.id, input: at(i).use.input })), scope.signal);
    for (const i of starts) blocked[i] ??= refused.get(at(i).use.id);
  }
  await mapWithLimit(indices.filter(isTask), scope.limits.maxParallel, async (i) => {
    results[i] = await executeToolCall(at(i), scope, blocked[i]);
  });
  return results;
}

async function mapWithLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
