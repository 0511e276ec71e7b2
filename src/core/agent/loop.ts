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
 * Parent and subagents run this same function; a subagent is just a spec with a fresh history (a fork's
 * history is its parent's conversation so far: fork.ts).
 * Failures end as a status (`error`, `cancelled`) and an event, never as a throw.
 */
import { agentEmitter } from '../events';
import type { MessageParam, ToolUseBlock } from '../llm/types';
import { ModelError } from '../llm/types';
import { errorText } from '../errors';
import { compactIfNeeded, isPromptTooLong, type CompactionTrigger } from './compactor';
import { ContextMeter, estimateTextTokens } from './context-size';
import { BackgroundChildren } from './background';
import { budgetExceeded, budgetNote, costOf } from './budget';
import { appendUserNote, promptMessage } from './conversation';
import { StepSignals } from './step-signals';
import { oneLine, partialText, rawText, summarize, toParam } from './message-parts';
import { runToolCalls, streamTurn } from './turn-steps';
import { LoopGuard } from './loop-guard';
import { CONTINUE_NOTE, FORCE_FINAL_NOTE } from './prompts';
import { rejectsCacheControl, rejectsWebSearch } from './endpoint-refusals';
import { serverSearches } from './web-search';
import { createTaskTool, toToolResult } from './task-tool';
import { delegationTools, mergeSummary, takeInbox } from './child-tools';
import type { ToolCallScope } from './tool-executor';
import type { ToolRegistry } from '../tools/types';
import type { RunningAgent } from './agent-registry';
import type { AgentResult, AgentSpec, ForkBase, RunServices, SubagentSummary } from './types';
import { addUsage, type AgentStatus } from '../vocabulary';

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
  let costUsd: number | undefined;
  const addCost = (c: number | undefined): void => {
    if (c !== undefined) costUsd = (costUsd ?? 0) + c;
  };
  const onChildFinished = (child: AgentResult, description: string): void => {
    addUsage(usage, child.usage);
    addCost(child.costUsd);
    // A resumed child (send_message) is one entry, its segments added up.
    for (const s of [...child.subagents, summarize(child, identity.agentId, description)]) mergeSummary(subagents, s);
  };
  const modelId = spec.modelId ?? services.modelId;
  // An agent on another model compacts against that model's window (a smaller editor model fills sooner).
  const ownWindow = modelId === services.modelId ? undefined : await services.model.contextWindow?.(modelId).catch(() => undefined);
  const thinking = spec.thinking ?? services.thinking;
  const modelServices = { ...services, modelId, ...(thinking !== undefined ? { thinking } : {}), ...(ownWindow ? { context: { ...services.context, window: ownWindow } } : {}) };
  const background = new BackgroundChildren();
  // A fork's `task` call starts from this agent's conversation as it is at that call (fork.ts).
  const forkBase = (): ForkBase => ({ spec, tools, messages: [...messages], modelId });
  const tools: ToolRegistry =
    identity.depth < services.limits.maxDepth && spec.canDelegate !== false
      ? spec.tools.with(
          createTaskTool({ parent: identity, spawner: services.spawner, subagentMaxTurns: services.limits.subagentMaxTurns, onChildFinished, parentModel: modelId, background: { children: background, agentSignal: signal }, forkBase, ...(services.children ? { directory: services.children } : {}) }),
          background.tool(),
          ...delegationTools(services, { sender: identity, onChildFinished, toToolResult: (child, stopped) => toToolResult(child, services.limits.subagentMaxTurns, stopped), background: { children: background, agentSignal: signal } }),
        )
      : spec.tools;
  /** Reports of background children that finished since the last turn, as a note before the next request. */
  const deliverBackground = async (): Promise<void> => {
    const note = background.takeFinished();
    if (!note) return;
    messages.push({ role: 'user', content: [{ type: 'text', text: note }] });
    await emit({ type: 'message', message: messages[messages.length - 1] as MessageParam });
  };
  /** Messages sent to this agent while it runs (send_message: steering), as a user message before the next request. */
  const deliverInbox = async (): Promise<void> => {
    const note = takeInbox(live);
    if (!note) return;
    messages.push(note);
    await emit({ type: 'message', message: note });
  };
  const scope: ToolCallScope = { identity, tools, services, emit, signal };
  // Budgets: checked at each turn; a wall-clock budget also aborts the step it runs out in (budget.ts).
  const steps = new StepSignals(signal);
  let budgetHit: string | undefined;
  const clock = spec.budget?.seconds !== undefined
    ? setTimeout(() => {
        budgetHit ??= `time budget of ${spec.budget?.seconds} s reached`;
        steps.abortCurrent();
      }, Math.max(0, (spec.budget.seconds ?? 0) * 1000 - (Date.now() - started)))
    : undefined;
  const guard = new LoopGuard();
  const messages: MessageParam[] = [...spec.history, spec.opening ?? promptMessage(spec.prompt, spec.context)];
  let turns = 0;
  let toolCalls = 0;
  let continuations = 0;
  let stopNotes = 0;
  let cutAnswer = '';
  const fixedTokens = estimateTextTokens(spec.systemPrompt) + estimateTextTokens(JSON.stringify(tools.schemas()));
  const meter = new ContextMeter(fixedTokens);
  /** Compaction: the hook before each request; replaces the conversation in place when it ran. */
  const compact = async (trigger: CompactionTrigger, turn: number): Promise<void> => {
    const out = await compactIfNeeded({ messages, meter, fixedTokens, emit, signal, usage, turn }, modelServices, trigger);
    if (out) messages.splice(0, messages.length, ...out);
  };
  const request = async (forcedFinal: boolean, turn: number, stepSignal: AbortSignal): Promise<Awaited<ReturnType<typeof streamTurn>>> => {
    await compact('auto', turn);
    const sent = messages.length;
    let response: Awaited<ReturnType<typeof streamTurn>>;
    try {
      response = await streamTurn(spec, modelServices, tools, messages, forcedFinal, turn, stepSignal, emit);
    } catch (err) {
      if (signal.aborted) throw err;
      if (rejectsCacheControl(err) && services.features.has('prompt_cache')) {
        // An Anthropic-compatible endpoint without prompt caching: off for the session, said once, the request again.
        services.features.refuse('prompt_cache');
        await emit({ type: 'notice', level: 'warning', text: 'this endpoint does not accept prompt caching (cache_control): caching is off for this session' });
      } else if (rejectsWebSearch(err) && services.features.has('web_search')) {
        // This endpoint has no server-side web search: off for the session, said once, the request again.
        services.features.refuse('web_search');
        await emit({ type: 'notice', level: 'warning', text: 'this endpoint does not offer the Messages API web search tool: web search is off for this session' });
      } else if (isPromptTooLong(err)) {
        // Over the window after all (a huge prompt, a bad estimate): compact once and try again.
        await compact('overflow', turn);
      } else throw err;
      response = await streamTurn(spec, modelServices, tools, messages, forcedFinal, turn, stepSignal, emit);
    }
    meter.record(response.usage, sent);
    return response;
  };

  const finish = async (status: AgentStatus, result: string, error?: string): Promise<AgentResult> => {
    // No agent ends before its background children (cancelled with it, they end at once).
    await background.settle();
    clearTimeout(clock);
    steps.dispose();
    const durationMs = Date.now() - started;
    if (status === 'cancelled' && live.stoppedBy === 'user' && !error) error = 'stopped by the user';
    // An interruption (the process is going away) may already have written this agent's last record.
    if (!live.finishRecorded) {
      await emit({ type: 'agent_finished', status, result, turns, toolCalls, usage: { ...usage }, ...(costUsd !== undefined ? { costUsd } : {}), durationMs, ...(error ? { error } : {}) });
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
      ...(spec.fork ? { fork: true } : {}),
      ...(costUsd !== undefined ? { costUsd } : {}),
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
    ...(spec.budget ? { budget: spec.budget } : {}),
    ...(identity.description !== undefined ? { description: identity.description } : {}),
    ...(spec.toolUseId ? { toolUseId: spec.toolUseId } : {}),
    ...(spec.fork ? { forkedFrom: spec.fork } : {}),
    ...(identity.parentId === null ? { cwd: services.workdir } : {}),
    ...(spec.name ? { name: spec.name } : {}),
    ...(spec.segment ? { segment: spec.segment.n, resumedBy: spec.segment.by } : {}),
  });
  await emit({ type: 'message', message: messages[messages.length - 1] as MessageParam });

  try {
    for (;;) {
      if (signal.aborted) return await finish('cancelled', partialText(messages));
      budgetHit ??= budgetExceeded(spec.budget, usage, costUsd ?? 0, Date.now() - started, services.runSpend);
      const overBudget = budgetHit;
      const forcedFinal = turns >= spec.maxTurns || overBudget !== undefined;
      await deliverBackground();
      await deliverInbox();
      if (forcedFinal) appendUserNote(messages, overBudget ? budgetNote(overBudget) : FORCE_FINAL_NOTE);
      const step = steps.next();
      turns++;
      live.turns = turns;
      // Turn numbers in events continue across a session's prompts, so view ids built on them stay unique.
      const turnNo = (spec.turnBase ?? 0) + turns;
      await emit({ type: 'turn_started', turn: turnNo, forcedFinal });

      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(forcedFinal, turnNo, step);
      } catch (err) {
        // The time budget ran out during this request: the next turn is the last one, tools off.
        if (!signal.aborted && budgetHit !== undefined && !forcedFinal) continue;
        throw err;
      }
      addUsage(usage, response.usage);
      const cost = costOf(response.usage, modelId, services.prices);
      addCost(cost);
      services.runSpend?.add(cost);
      await emit({ type: 'usage', turn: turnNo, usage: response.usage, ...(cost !== undefined ? { costUsd: cost } : {}) });
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
        const goOn = forcedFinal ? undefined : await services.gate.stopNote({ identity, emit, signal }, answer, stopNotes);
        if (goOn !== undefined) {
          stopNotes++;
          cutAnswer = '';
          messages.push({ role: 'user', content: [{ type: 'text', text: goOn }] });
          await emit({ type: 'message', message: messages[messages.length - 1] as MessageParam });
          continue;
        }
        // A message arrived while it answered (send_message): one more turn to read it.
        if (!forcedFinal && live.inbox.length > 0) continue;
        // Children still working in the background: wait for the next report and give it another turn.
        if (!forcedFinal && background.running > 0) {
          await background.waitAny(signal);
          if (signal.aborted) return await finish('cancelled', partialText(messages));
          continue;
        }
        if (overBudget) return await finish('budget_exceeded', answer, overBudget);
        return await finish(forcedFinal ? 'max_turns' : 'completed', answer);
      }
      toolCalls += uses.length;
      live.toolCalls = toolCalls;
      const results = await runToolCalls(uses, { ...scope, signal: step }, guard, response.stopReason === 'max_tokens');
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

const MAX_CONTINUATIONS = 3;
