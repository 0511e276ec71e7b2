/**
 * The agent loop, as a plain async function over (spec, ports, signal); events go to the bus. The run's state is
 * one object (run-state.ts); the steps below read and change it, top-down in the order they happen:
 *
 *   start      agent_started; messages = [...history, user(prompt)]
 *   each turn:
 *     turn > maxTurns or over budget? ─▶ forced final: tool_choice none + "answer now" (or budget) note
 *     request  compaction, then stream the assistant message (text deltas → events); an endpoint that refuses
 *              prompt caching or web search, or a prompt too long, is answered once and the request sent again;
 *              a WORKDIR still being made (spec.workdirReady) is waited for before anything acts on the reply
 *     record   usage and cost, the assistant message, server-side searches as tool rows
 *     no tool_use? ─▶ answer: a cut answer is continued, Stop hooks may send it on, background children
 *                     are waited for; else the final text is the result
 *     run the calls: read once (call-records.ts), each record pending; ordinary tools one by one in order, then
 *                 `task` calls together (cap maxParallel)
 *     append tool_results (in tool_use order, paired by id) and go on
 *
 * Parent and subagents run this same function; a subagent is just a spec with a fresh history (a fork's
 * history is its parent's conversation so far: fork.ts).
 * Failures end as a status (`error`, `cancelled`) and an event, never as a throw.
 */
import type { MessageParam, ModelResponse, ToolUseBlock } from '../llm/types';
import { ModelError } from '../llm/types';
import { errorText } from '../errors';
import { isPromptTooLong, type CompactionDeps } from './compact-if-needed';
import { budgetExceeded, budgetNote, costOf, unpricedBudget } from './budget';
import { appendUserNote } from './conversation';
import { oneLine, partialText, rawText, toParam } from './message-parts';
import { runToolCalls, streamTurn } from './turn-steps';
import { readCalls } from './call-records';
import { oneLine as summaryLine } from '../shown-text';
import { CONTINUE_NOTE, FORCE_FINAL_NOTE } from './prompts';
import { rejectsCacheControl, rejectsWebSearch } from './endpoint-refusals';
import { serverSearches } from './web-search';
import type { RunningAgent } from './agent-registry';
import { RunState } from './run-state';
import type { AgentResult, AgentSpec, ModelAccess, OutputCheck, RunPorts } from './types';
import { addUsage } from '../vocabulary';

/** What a turn comes to: the run's result when it ended, else undefined (the next turn). */
type TurnEnd = AgentResult | undefined;

export async function runAgent(spec: AgentSpec, ports: RunPorts, parentSignal: AbortSignal): Promise<AgentResult> {
  const { identity } = spec;
  // The registry owns this agent's controller (linked to the parent's signal): cancel(id) stops just this one.
  const live = ports.agents.start(identity, parentSignal);
  try {
    return await loop(spec, ports, live);
  } finally {
    ports.agents.end(identity.agentId);
  }
}

async function loop(spec: AgentSpec, ports: RunPorts, live: RunningAgent): Promise<AgentResult> {
  const run = await openRun(spec, ports, live);
  await start(run);
  try {
    // A budget in dollars on a model without a price would never be reached: refused before the first request.
    const unpriced = unpricedBudget(run.modelId, ports.spend.runSpend?.capUsd ?? spec.budget?.usd, ports.spend.prices);
    if (unpriced) throw new Error(unpriced);
    for (;;) {
      const end = await turn(run);
      if (end) return end;
    }
  } catch (err) {
    if (run.workdirFailed !== undefined) {
      const message = `its folder could not be made: ${run.workdirFailed}`;
      await run.emit({ type: 'error', message, retrying: false });
      return run.finish('error', '', message);
    }
    if (run.signal.aborted || (err instanceof ModelError && err.kind === 'aborted')) return run.finish('cancelled', partialText(run.messages));
    const message = errorText(err);
    await run.emit({ type: 'error', message, retrying: false });
    return run.finish('error', '', message);
  }
}

/** The run's state, on this agent's model: its own model id and thinking, and its model's window for compaction. */
async function openRun(spec: AgentSpec, ports: RunPorts, live: RunningAgent): Promise<RunState> {
  const { models, config } = ports;
  const modelId = spec.modelId ?? models.modelId;
  // An agent on another model compacts against that model's window (a smaller editor model fills sooner).
  const ownWindow = modelId === models.modelId ? undefined : await models.model.contextWindow?.(modelId).catch(() => undefined);
  const thinking = spec.thinking ?? models.thinking;
  const model: ModelAccess = { model: models.model, modelId, maxTokensFor: (id) => models.maxTokensFor(id), ...(thinking !== undefined ? { thinking } : {}), features: models.features };
  const compaction: CompactionDeps = { model: model.model, modelId, maxTokensFor: model.maxTokensFor, context: ownWindow ? { ...config.context, window: ownWindow } : { ...config.context }, saveFullOutput: (id, content) => ports.outputs.saveFullOutput(id, content) };
  return new RunState(spec, ports, live, model, compaction);
}

async function start(run: RunState): Promise<void> {
  const { spec, identity } = run;
  await run.emit({
    type: 'agent_started',
    prompt: spec.prompt,
    depth: identity.depth,
    model: run.modelId,
    ...(spec.agentType ? { agentType: spec.agentType } : {}),
    ...(spec.color ? { color: spec.color } : {}),
    ...(spec.budget ? { budget: spec.budget } : {}),
    ...(identity.description !== undefined ? { description: identity.description } : {}),
    ...(spec.toolUseId ? { toolUseId: spec.toolUseId } : {}),
    ...(spec.fork ? { forkedFrom: spec.fork } : {}),
    ...(identity.parentId === null ? { cwd: run.ports.config.workdir } : {}),
    ...(spec.name ? { name: spec.name } : {}),
    ...(identity.mode ? { mode: identity.mode } : {}),
    ...(identity.parentId !== null ? { tools: ranWith(spec) } : {}),
    ...(spec.segment ? { segment: spec.segment.n, resumedBy: spec.segment.by } : {}),
    ...(spec.retryOf ? { retryOf: spec.retryOf } : {}),
    ...(spec.handoff ? { handoff: spec.handoff } : {}),
    ...(spec.asked ? { asked: spec.asked } : {}),
    ...(spec.memory ? { memory: spec.memory } : {}),
  });
  await run.emit({ type: 'message', message: run.messages[run.messages.length - 1] as MessageParam });
}

/** A subagent's tools as agent_started records them (a resume offers it no tool outside them). */
function ranWith(spec: AgentSpec): string[] {
  return [...spec.tools.names(), ...(spec.canDelegate ? ['task'] : []), ...(spec.webSearch !== false ? ['web_search'] : [])];
}

async function turn(run: RunState): Promise<TurnEnd> {
  const { spec, signal, live } = run;
  if (signal.aborted) return run.finish('cancelled', partialText(run.messages));
  run.budgetHit ??= budgetExceeded(spec.budget, run.usage, run.costUsd ?? 0, Date.now() - run.started, run.ports.spend.runSpend);
  const overBudget = run.budgetHit;
  const forcedFinal = run.turns >= spec.maxTurns || overBudget !== undefined;
  await run.deliverBackground();
  await run.deliverInbox();
  if (forcedFinal) appendUserNote(run.messages, overBudget ? budgetNote(overBudget) : FORCE_FINAL_NOTE);
  const step = run.steps.next();
  run.turns++;
  live.turns = run.turns;
  // Turn numbers in events continue across a session's prompts, so view ids built on them stay unique.
  const turnNo = (spec.turnBase ?? 0) + run.turns;
  await run.emit({ type: 'turn_started', turn: turnNo, forcedFinal });

  let response: ModelResponse;
  try {
    // Its WORKDIR failed before this request went out: it is not sent (one in flight is aborted: run-state.ts).
    if (run.workdirFailed !== undefined) throw new Error(run.workdirFailed);
    response = await request(run, forcedFinal, turnNo, step);
  } catch (err) {
    // The time budget ran out during this request: the next turn is the last one, tools off.
    if (!signal.aborted && run.workdirFailed === undefined && run.budgetHit !== undefined && !forcedFinal) return undefined;
    throw err;
  }
  await account(run, response, turnNo);
  // An isolated child's worktree is checked out while its first request is in flight: nothing acts on the reply before
  // it is verified (failing, the run ends and the reply is dropped; its usage is counted above all the same).
  await run.workdirVerified();
  await record(run, response, forcedFinal);
  // A long server-side tool run paused the turn: send the message back as it is and the API goes on.
  if (response.stopReason === 'pause_turn' && !forcedFinal) return undefined;
  const uses = response.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
  if (forcedFinal || uses.length === 0) return answer(run, response, forcedFinal, overBudget);
  run.toolCalls += uses.length;
  live.toolCalls = run.toolCalls;
  const results = await runToolCalls(readCalls(uses, run.scope.tools), { ...run.scope, signal: step }, run.guard, response.stopReason === 'max_tokens');
  await run.say({ role: 'user', content: results });
  return undefined;
}

/** Compaction, then the streamed request; an endpoint's refusal or a prompt too long is answered once and sent again. */
async function request(run: RunState, forcedFinal: boolean, turn: number, stepSignal: AbortSignal): Promise<ModelResponse> {
  const { spec, model, tools, messages, emit } = run;
  const features = run.ports.models.features;
  await run.compact('auto', turn);
  const sent = messages.length;
  let response: ModelResponse;
  try {
    response = await streamTurn(spec, model, tools, messages, forcedFinal, turn, stepSignal, emit);
  } catch (err) {
    if (run.signal.aborted) throw err;
    if (rejectsCacheControl(err) && features.has('prompt_cache')) {
      // An Anthropic-compatible endpoint without prompt caching: off for the session, said once, the request again.
      features.refuse('prompt_cache');
      await emit({ type: 'notice', level: 'warning', text: 'this endpoint does not accept prompt caching (cache_control): caching is off for this session' });
    } else if (rejectsWebSearch(err) && features.has('web_search')) {
      // This endpoint has no server-side web search: off for the session, said once, the request again.
      features.refuse('web_search');
      await emit({ type: 'notice', level: 'warning', text: 'this endpoint does not offer the Messages API web search tool: web search is off for this session' });
    } else if (isPromptTooLong(err)) {
      // Over the window after all (a huge prompt, a bad estimate): compact once and try again.
      await run.compact('overflow', turn);
    } else throw err;
    response = await streamTurn(spec, model, tools, messages, forcedFinal, turn, stepSignal, emit);
  }
  run.measured(response.usage, sent);
  return response;
}

/** The reply's usage and cost. */
async function account(run: RunState, response: ModelResponse, turn: number): Promise<void> {
  const { spend } = run.ports;
  addUsage(run.usage, response.usage);
  const cost = costOf(response.usage, run.modelId, spend.prices);
  run.addCost(cost);
  spend.runSpend?.add(cost);
  await run.emit({ type: 'usage', turn, usage: response.usage, ...(cost !== undefined ? { costUsd: cost } : {}) });
}

/** The assistant message, and the searches the API ran itself. */
async function record(run: RunState, response: ModelResponse, forcedFinal: boolean): Promise<void> {
  // On the forced final turn a tool_use would never get its result: keep the conversation valid for a follow-up.
  // A blank text block (models send them before a tool_use) is not kept: the API refuses one sent back, and every
  // later request of the conversation with it.
  const kept = response.content.filter((b) => !(forcedFinal && b.type === 'tool_use') && !(b.type === 'text' && b.text.trim() === ''));
  await run.say({ role: 'assistant', content: kept.length ? kept.map(toParam) : [{ type: 'text', text: '(no answer)' }] });

  // Searches the API ran itself: rows in the tree (their blocks stay in the message as they are).
  for (const search of serverSearches(response.content)) {
    run.toolCalls++;
    const call = { id: search.id, name: 'web_search' };
    await run.emit({ type: 'tool_call', ...call, state: 'pending', kind: 'external', summary: summaryLine(search.query), paths: [], input: search.input });
    await run.emit({ type: 'tool_call', ...call, state: search.isError ? 'error' : 'completed', output: search.output, durationMs: 0 });
  }
  run.live.toolCalls = run.toolCalls;
}

/** A reply without calls to run: a cut answer goes on, a Stop hook or a background child may send it on, else it ends. */
async function answer(run: RunState, response: ModelResponse, forcedFinal: boolean, overBudget: string | undefined): Promise<TurnEnd> {
  const { identity, emit, signal } = run;
  const text = rawText(response.content);
  // An answer cut by the output limit is continued, not returned half (the parts are joined).
  if (!forcedFinal && response.stopReason === 'max_tokens' && run.continuations < MAX_CONTINUATIONS) {
    run.continuations++;
    run.cutAnswer += text;
    await run.say({ role: 'user', content: [{ type: 'text', text: CONTINUE_NOTE }] });
    return undefined;
  }
  const final = (run.cutAnswer + text).trim();
  if (response.stopReason === 'refusal') return run.finish('error', final, `the model refused to answer${final ? `: ${oneLine(final)}` : ''}`);
  if (!forcedFinal && final.trim() === '') return run.finish('error', '', 'the model ended its turn without an answer (an empty response)');
  // Stop hooks may send it back to work, a few times at most (loop-hooks.ts).
  const goOn = forcedFinal ? undefined : await run.ports.gate.stopNote({ identity, emit, signal }, final, run.stopNotes);
  if (goOn !== undefined) {
    run.stopNotes++;
    run.cutAnswer = '';
    await run.say({ role: 'user', content: [{ type: 'text', text: goOn }] });
    return undefined;
  }
  // A message arrived while it answered (send_message): one more turn to read it.
  if (!forcedFinal && run.live.inbox.length > 0) return undefined;
  // Children still working in the background: wait for the next report and give it another turn.
  if (!forcedFinal && run.background.running > 0) {
    await run.background.waitAny(signal);
    if (signal.aborted) return run.finish('cancelled', partialText(run.messages));
    return undefined;
  }
  const typed = run.spec.output ? await typedEnd(run, final, forcedFinal) : undefined;
  if (typed === 'again') return undefined;
  if (typed && 'errors' in typed) return run.finish('error', final, typed.errors);
  const result = typed ? typed.report : final;
  const output = typed ? { value: typed.value } : undefined;
  if (overBudget) return run.finish('budget_exceeded', result, overBudget, output);
  return run.finish(forcedFinal ? 'max_turns' : 'completed', result, undefined, output);
}

/**
 * A typed agent's end (report/typed-output.ts): its value and report, or once the errors as a note that asks again,
 * then the errors that fail it. A forced final (turn cap, budget) is not asked again: without a value it keeps its status.
 */
async function typedEnd(run: RunState, final: string, forcedFinal: boolean): Promise<'again' | { value: unknown; report: string } | { errors: string } | undefined> {
  const verdict = await (run.spec.output as OutputCheck)(final);
  if (verdict.ok) return verdict;
  if (forcedFinal) return undefined;
  if (run.outputRetries < 1) {
    run.outputRetries++;
    run.cutAnswer = '';
    await run.say({ role: 'user', content: [{ type: 'text', text: verdict.note }] });
    return 'again';
  }
  return { errors: `its final message did not give a value the output schema accepts, asked twice: ${verdict.errors}` };
}

const MAX_CONTINUATIONS = 3;
