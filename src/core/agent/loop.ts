/**
 * The agent loop, as a plain async function over (spec, services, signal); events go to the bus.
 *
 *   messages = [...history, user(prompt)]
 *   loop:
 *     turn > maxTurns? ─▶ one more request with tool_choice none + "answer now" note ─▶ max_turns
 *     stream assistant message (text deltas → events)
 *     no tool_use? ─▶ completed, final text is the result
 *     run the calls: ordinary tools one by one in order, then `task` calls together (cap maxParallel)
 *     append tool_results (in tool_use order, paired by id) and go on
 *
 * Parent and subagents run this same function; a subagent is just a spec with a fresh history.
 * Failures end as a status (`error`, `cancelled`) and an event, never as a throw.
 */
import { addUsage, agentEmitter, type AgentStatus, type Usage } from '../events';
import type { ContentBlock, ContentBlockParam, MessageParam, ToolResultBlockParam, ToolUseBlock } from '../llm/types';
import { ModelError } from '../llm/types';
import { errorText } from '../errors';
import { compactIfNeeded, isPromptTooLong, type CompactionTrigger } from './compactor';
import { ContextMeter, estimateTextTokens } from './context-size';
import { appendUserNote, mergeConsecutive } from './conversation';
import { LoopGuard } from './loop-guard';
import { CONTINUE_NOTE, FORCE_FINAL_NOTE } from './prompts';
import { rejectsWebSearch, serverSearches, WEB_SEARCH_TOOL } from './web-search';
import { createTaskTool } from './task-tool';
import { promptMessage, stopHookNote } from '../hooks/loop-hooks';
import { executeToolCall, type ToolCallScope } from './tool-executor';
import type { RunningAgent } from './agent-registry';
import type { AgentResult, AgentSpec, RunServices, SubagentSummary } from './types';

export async function runAgent(spec: AgentSpec, services: RunServices, parentSignal: AbortSignal): Promise<AgentResult> {
  const { identity } = spec;
  // The registry owns this agent's controller (linked to the parent's signal): cancel(id) stops just this one.
  const live = services.agents.start(identity, parentSignal);
  try {
    return await loop(spec, services, live);
  } finally {
    services.agents.end(identity.agentId);
  }
}

async function loop(spec: AgentSpec, services: RunServices, live: RunningAgent): Promise<AgentResult> {
  const started = live.startedAt;
  const { identity } = spec;
  const signal = live.signal;
  const emit = agentEmitter(services.bus, identity.agentId, identity.parentId);
  const usage = live.usage;
  const subagents: SubagentSummary[] = [];
  const onChildFinished = (child: AgentResult, description: string): void => {
    addUsage(usage, child.usage);
    subagents.push(...child.subagents, summarize(child, identity.agentId, description));
  };
  const modelId = spec.modelId ?? services.modelId;
  const tools =
    identity.depth < services.limits.maxDepth && spec.canDelegate !== false
      ? spec.tools.with(createTaskTool({ parent: identity, services, onChildFinished, parentModel: modelId }))
      : spec.tools;
  const scope: ToolCallScope = { identity, tools, services, emit, signal };
  const guard = new LoopGuard();
  const messages: MessageParam[] = [...spec.history, promptMessage(spec.prompt, spec.context)];
  let turns = 0;
  let toolCalls = 0;
  let continuations = 0;
  let stopNotes = 0;
  let cutAnswer = '';
  const fixedTokens = estimateTextTokens(spec.systemPrompt) + estimateTextTokens(JSON.stringify(tools.schemas()));
  const meter = new ContextMeter(fixedTokens);
  /** Compaction: the hook before each request; replaces the conversation in place when it ran. */
  const compact = async (trigger: CompactionTrigger, turn: number): Promise<void> => {
    const out = await compactIfNeeded({ messages, meter, fixedTokens, emit, signal, usage, turn }, { ...services, modelId }, trigger);
    if (out) messages.splice(0, messages.length, ...out);
  };
  const request = async (forcedFinal: boolean, turn: number): Promise<Awaited<ReturnType<typeof streamTurn>>> => {
    await compact('auto', turn);
    const sent = messages.length;
    let response: Awaited<ReturnType<typeof streamTurn>>;
    try {
      response = await streamTurn(spec, { ...services, modelId }, tools, messages, forcedFinal, turn, signal, emit);
    } catch (err) {
      if (signal.aborted) throw err;
      if (rejectsWebSearch(err) && services.webSearch?.enabled) {
        // This endpoint has no server-side web search: off for the session, said once, the request again.
        services.webSearch.enabled = false;
        await emit({ type: 'notice', level: 'warning', text: 'this endpoint does not offer the Messages API web search tool: web search is off for this session' });
      } else if (isPromptTooLong(err)) {
        // Over the window after all (a huge prompt, a bad estimate): compact once and try again.
        await compact('overflow', turn);
      } else throw err;
      response = await streamTurn(spec, { ...services, modelId }, tools, messages, forcedFinal, turn, signal, emit);
    }
    meter.record(response.usage, sent);
    return response;
  };

  const finish = async (status: AgentStatus, result: string, error?: string): Promise<AgentResult> => {
    const durationMs = Date.now() - started;
    if (status === 'cancelled' && live.stoppedBy === 'user' && !error) error = 'stopped by the user';
    // An interruption (the process is going away) may already have written this agent's last record.
    if (!live.finishRecorded) {
      await emit({ type: 'agent_finished', status, result, turns, toolCalls, usage: { ...usage }, durationMs, ...(error ? { error } : {}) });
    }
    return {
      agentId: identity.agentId,
      status,
      result,
      turns,
      toolCalls,
      usage,
      durationMs,
      messages,
      subagents,
      model: modelId,
      ...(spec.agentType ? { agentType: spec.agentType } : {}),
      ...(error ? { error } : {}),
    };
  };

  await emit({
    type: 'agent_started',
    prompt: spec.prompt,
    depth: identity.depth,
    model: modelId,
    ...(spec.agentType ? { agentType: spec.agentType } : {}),
    ...(spec.color ? { color: spec.color } : {}),
    ...(identity.description !== undefined ? { description: identity.description } : {}),
    ...(spec.toolUseId ? { toolUseId: spec.toolUseId } : {}),
    ...(identity.parentId === null ? { cwd: services.workdir } : {}),
  });
  await emit({ type: 'message', message: messages[messages.length - 1] as MessageParam });

  try {
    for (;;) {
      if (signal.aborted) return await finish('cancelled', partialText(messages));
      const forcedFinal = turns >= spec.maxTurns;
      if (forcedFinal) appendUserNote(messages, FORCE_FINAL_NOTE);
      turns++;
      live.turns = turns;
      // Turn numbers in events continue across a session's prompts, so view ids built on them stay unique.
      const turnNo = (spec.turnBase ?? 0) + turns;
      await emit({ type: 'turn_started', turn: turnNo, forcedFinal });

      const response = await request(forcedFinal, turnNo);
      addUsage(usage, response.usage);
      await emit({ type: 'usage', turn: turnNo, usage: response.usage });
      // On the forced final turn a tool_use would never get its result: keep the conversation valid for a follow-up.
      const kept = forcedFinal ? response.content.filter((b) => b.type !== 'tool_use') : response.content;
      const assistant: MessageParam = { role: 'assistant', content: kept.length ? kept.map(toParam) : [{ type: 'text', text: '(no answer)' }] };
      messages.push(assistant);
      await emit({ type: 'message', message: assistant });

      // Searches the API ran itself: rows in the tree (their blocks stay in the message as they are).
      for (const search of serverSearches(response.content)) {
        toolCalls++;
        await emit({ type: 'tool_started', toolUseId: search.id, name: 'web_search', input: search.input, kind: 'external', summary: search.query, paths: [] });
        await emit({ type: 'tool_finished', toolUseId: search.id, name: 'web_search', isError: search.isError, output: search.output, durationMs: 0 });
      }
      live.toolCalls = toolCalls;
      // A long server-side tool run paused the turn: send the message back as it is and the API goes on.
      if (response.stopReason === 'pause_turn' && !forcedFinal) continue;
      const uses = response.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      if (forcedFinal || uses.length === 0) {
        const text = rawText(response.content);
        // An answer cut by the output limit is continued, not returned half (the parts are joined).
        if (!forcedFinal && response.stopReason === 'max_tokens' && continuations < MAX_CONTINUATIONS) {
          continuations++;
          cutAnswer += text;
          messages.push({ role: 'user', content: [{ type: 'text', text: CONTINUE_NOTE }] });
          await emit({ type: 'message', message: messages[messages.length - 1] as MessageParam });
          continue;
        }
        const answer = (cutAnswer + text).trim();
        if (response.stopReason === 'refusal') return await finish('error', answer, `the model refused to answer${answer ? `: ${oneLine(answer)}` : ''}`);
        if (!forcedFinal && answer.trim() === '') return await finish('error', '', 'the model ended its turn without an answer (an empty response)');
        // Stop hooks may send it back to work, a few times at most (loop-hooks.ts).
        const goOn = forcedFinal ? undefined : await stopHookNote({ hooks: services.hooks, identity, emit, signal }, answer, stopNotes);
        if (goOn !== undefined) {
          stopNotes++;
          cutAnswer = '';
          messages.push({ role: 'user', content: [{ type: 'text', text: goOn }] });
          await emit({ type: 'message', message: messages[messages.length - 1] as MessageParam });
          continue;
        }
        return await finish(forcedFinal ? 'max_turns' : 'completed', answer);
      }
      toolCalls += uses.length;
      live.toolCalls = toolCalls;
      const results = await runToolCalls(uses, scope, guard, response.stopReason === 'max_tokens');
      const resultMessage: MessageParam = { role: 'user', content: results };
      messages.push(resultMessage);
      await emit({ type: 'message', message: resultMessage });
    }
  } catch (err) {
    if (signal.aborted || (err instanceof ModelError && err.kind === 'aborted')) return finish('cancelled', partialText(messages));
    const message = errorText(err);
    await emit({ type: 'error', message, retrying: false });
    return finish('error', '', message);
  }
}

async function streamTurn(
  spec: AgentSpec,
  services: RunServices,
  tools: ToolCallScope['tools'],
  messages: MessageParam[],
  forcedFinal: boolean,
  turn: number,
  signal: AbortSignal,
  emit: ToolCallScope['emit'],
): ReturnType<RunServices['model']['stream']> {
  // Deltas arrive synchronously from the stream; chain their events so they stay ordered and awaited.
  let deltas: Promise<void> = Promise.resolve();
  try {
    return await services.model.stream(
      {
        model: services.modelId,
        maxTokens: services.maxTokens,
        system: spec.systemPrompt,
        messages: mergeConsecutive(messages),
        tools: tools.schemas(),
        ...(spec.webSearch !== false && services.webSearch?.enabled ? { serverTools: [WEB_SEARCH_TOOL] } : {}),
        ...(forcedFinal ? { toolChoice: 'none' as const } : {}),
      },
      signal,
      {
        onTextDelta: (text) => {
          deltas = deltas.then(() => emit({ type: 'text_delta', turn, text }));
        },
        onRetry: (message) => {
          deltas = deltas.then(() => emit({ type: 'error', message, retrying: true }));
        },
        onWaiting: ({ attempt, waitedMs }) => {
          deltas = deltas.then(() => emit({ type: 'waiting', turn, attempt, waitedMs }));
        },
      },
    );
  } finally {
    await deltas;
  }
}

/**
 * Ordinary tools run one by one in order; `task` calls then run together, at most maxParallel at once.
 * Results are kept by position, not id: a block whose id repeats an earlier one's is answered too.
 */
async function runToolCalls(uses: ToolUseBlock[], scope: ToolCallScope, guard: LoopGuard, cutOff: boolean): Promise<ToolResultBlockParam[]> {
  const results: ToolResultBlockParam[] = [];
  const blocked: (string | undefined)[] = uses.map((use) => guard.check(use.name, use.input));
  const seen = new Set<string>();
  uses.forEach((use, i) => {
    if (seen.has(use.id)) blocked[i] = `Not run: the tool_use id ${use.id} was already used by an earlier call in this message. Give every call its own id.`;
    seen.add(use.id);
  });
  // At max_tokens the last tool_use may hold half its input (the SDK parses partial JSON without complaint).
  if (cutOff && uses.length > 0) {
    blocked[uses.length - 1] = 'Not run: your reply hit the output token limit while writing this call, so its input may be incomplete. Send it again, shorter if needed.';
  }
  const isTask = (i: number): boolean => scope.tools.get((uses[i] as ToolUseBlock).name)?.kind === 'delegate';
  const indices = uses.map((_, i) => i);
  for (const i of indices.filter((i) => !isTask(i))) results[i] = await executeToolCall(uses[i] as ToolUseBlock, scope, blocked[i]);
  await mapWithLimit(indices.filter(isTask), scope.services.limits.maxParallel, async (i) => {
    results[i] = await executeToolCall(uses[i] as ToolUseBlock, scope, blocked[i]);
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

/** What a stopped agent had said so far: its assistant text, in order (empty when it said nothing). */
function partialText(messages: MessageParam[]): string {
  const parts: string[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant' || typeof m.content === 'string') continue;
    for (const b of m.content) if (b.type === 'text' && b.text.trim() && b.text !== '(no answer)') parts.push(b.text.trim());
  }
  return parts.join('\n\n');
}

const MAX_CONTINUATIONS = 3;

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function rawText(content: ContentBlock[]): string {
  return content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

/** Response blocks back as request params; thinking blocks go back unchanged, as the API requires. */
function toParam(block: ContentBlock): ContentBlockParam {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    default:
      return block as unknown as ContentBlockParam;
  }
}

function summarize(child: AgentResult, parentId: string, description: string): SubagentSummary {
  const usage: Usage = { ...child.usage };
  return {
    id: child.agentId,
    parentId,
    description,
    status: child.status,
    num_turns: child.turns,
    tool_calls: child.toolCalls,
    usage,
    result: child.result,
    duration_ms: child.durationMs,
    agent_type: child.agentType ?? 'general-purpose',
    model: child.model,
    ...(child.changes ? { changes: child.changes } : {}),
  };
}
