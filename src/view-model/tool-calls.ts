/**
 * Reducer cases for calls: tool rows, `task` calls (which become task nodes), permission asks
 * and answers. Every case is O(1) in the number of nodes.
 */
import { describesCall, endsCall, opensCall, type EventOf, type ToolCallDescription } from '../core/events';
import { getTask, getTool, placeNode, taskNodeId, taskOfAgent, toolNodeId, type Touched } from './store';
import { refusalOf } from './changes';
import { inputJson, preview } from './summarize';
import { isOpenCall, TOTALS_KEY, type SessionViewState, type TaskNode, type ToolCallNode } from './types';

interface TaskCall {
  agentId: string;
  toolUseId: string;
  time: number;
  description: string;
  prompt: string;
}

/** The task node for a call that delegates, created (under the calling agent) on first sight. */
export function ensureTaskNode(state: SessionViewState, call: TaskCall, touched: Touched): TaskNode {
  const id = taskNodeId(call.toolUseId);
  const existing = getTask(state, id);
  if (existing) return existing;
  const parentDepth = state.agents[call.agentId]?.depth ?? 0;
  const node: TaskNode = {
    kind: 'task',
    id,
    toolUseId: call.toolUseId,
    agentId: null,
    parentAgentId: call.agentId,
    depth: parentDepth + 1,
    description: call.description,
    prompt: call.prompt,
    status: 'running',
    turns: 0,
    toolCalls: 0,
    tokens: { input: 0, output: 0 },
    startedAt: call.time,
    children: [],
  };
  placeNode(state, node, call.agentId, touched);
  state.totals.tasks += 1;
  touched.add(TOTALS_KEY);
  return node;
}

/** A tool call's row, made from what its record says it is (the summary and paths as its tool said them). */
function ensureToolNode(state: SessionViewState, agentId: string, toolUseId: string, name: string, call: ToolCallDescription, time: number, touched: Touched): ToolCallNode {
  const id = toolNodeId(toolUseId);
  const existing = getTool(state, id);
  if (existing) return existing;
  const node: ToolCallNode = {
    kind: 'tool',
    id,
    toolUseId,
    agentId,
    name,
    summary: call.summary,
    paths: call.paths,
    ...(call.kind ? { toolKind: call.kind } : {}),
    inputJson: inputJson(call.input),
    status: 'pending',
    startedAt: time,
  };
  placeNode(state, node, agentId, touched);
  return node;
}

/**
 * A patch of a call's record (events.ts ToolCallPatch), stored as it comes: its first patch makes its row (a task row
 * for a call that delegates), a hook's rewrite says it anew, `running` and the end change it.
 */
export function onToolCall(state: SessionViewState, e: EventOf<'tool_call'>, touched: Touched): void {
  if (opensCall(e)) opened(state, e, touched);
  else if (describesCall(e)) rewritten(state, e, touched);
  if (endsCall(e)) ended(state, e, touched);
  else if (e.state === 'running') {
    const task = getTask(state, taskNodeId(e.id));
    if (task) {
      if (task.status === 'pending') startPending(task, e.time, touched);
      return;
    }
    const tool = getTool(state, toolNodeId(e.id));
    if (!tool) return;
    tool.status = 'running';
    tool.startedAt = e.time;
    touched.add(tool.id);
  }
}

/** A call's record opened (pending; a transcript before records opens it running): its row, counted once. */
function opened(state: SessionViewState, e: EventOf<'tool_call'> & ToolCallDescription, touched: Touched): void {
  if (e.kind === 'delegate') {
    const task = getTask(state, taskNodeId(e.id));
    const call = { agentId: e.agentId, toolUseId: e.id, time: e.time, description: e.summary || 'Subtask', prompt: taskPrompt(e.input) };
    // The fan-out card of a transcript before records made the row first: the call's words are its description.
    if (task?.agentId === null) {
      task.description = call.description;
      task.prompt = call.prompt;
      touched.add(task.id);
    } else if (!task) ensureTaskNode(state, call, touched);
  } else ensureToolNode(state, e.agentId, e.id, e.name, e, e.time, touched);
  state.totals.toolCalls += 1;
  touched.add(TOTALS_KEY);
  const owner = taskOfAgent(state, e.agentId);
  if (owner) {
    owner.toolCalls += 1;
    touched.add(owner.id);
  }
}

/** A PreToolUse hook rewrote the call's input: the row says what runs. */
function rewritten(state: SessionViewState, e: EventOf<'tool_call'> & ToolCallDescription, touched: Touched): void {
  const task = getTask(state, taskNodeId(e.id));
  if (task) {
    if (task.agentId === null) {
      task.description = e.summary || task.description;
      task.prompt = taskPrompt(e.input);
      touched.add(task.id);
    }
    return;
  }
  const tool = getTool(state, toolNodeId(e.id));
  if (!tool) return;
  tool.summary = e.summary;
  tool.paths = e.paths;
  tool.inputJson = inputJson(e.input);
  touched.add(tool.id);
}

/** What a subagent is asked to do: the `prompt` of the call that delegates (the task tool's input). */
function taskPrompt(input: unknown): string {
  const prompt = typeof input === 'object' && input !== null ? (input as { prompt?: unknown }).prompt : undefined;
  return typeof prompt === 'string' ? prompt : '';
}

/**
 * A fan-out's calls wait for the user (the card): pending task rows, with the agent type the card names, before any
 * starts. Each call's `running` patch (or the answer) starts it; a Cancel stops them with the reason said on the row.
 */
export function onFanoutAsked(state: SessionViewState, e: EventOf<'fanout_asked'>, touched: Touched): void {
  for (const c of e.calls) {
    // The calls' records came first; a transcript before records has its calls' words after this event.
    const task = ensureTaskNode(state, { agentId: e.agentId, toolUseId: c.toolUseId, time: e.time, description: 'Subtask', prompt: taskPrompt(c.input) }, touched);
    if (task.agentId !== null || task.status !== 'running') continue;
    task.status = 'pending';
    if (c.agentType !== 'fork') task.agentType = c.agentType;
    else task.fork = true;
    touched.add(task.id);
  }
}

export function onFanoutAnswered(state: SessionViewState, e: EventOf<'fanout_answered'>, touched: Touched): void {
  for (const id of e.toolUseIds) {
    const task = getTask(state, taskNodeId(id));
    if (task?.status !== 'pending') continue;
    if (e.choice === 'cancel') {
      task.status = 'cancelled';
      task.error = 'Not started: the fan-out was cancelled.';
      touched.add(task.id);
    } else startPending(task, e.time, touched);
  }
}

/** Run was chosen: from now on it counts as started (a queued one too: it runs as soon as a slot is free). */
function startPending(task: TaskNode, time: number, touched: Touched): void {
  task.status = 'running';
  task.startedAt = time;
  touched.add(task.id);
}

function ended(state: SessionViewState, e: EventOf<'tool_call'> & { state: 'completed' | 'error'; output: string; durationMs: number; fullOutputPath?: string }, touched: Touched): void {
  const isError = e.state === 'error';
  const task = getTask(state, taskNodeId(e.id));
  if (task) {
    // A background child's call returns at once while it goes on working: its node keeps running. Its agent may not
    // have started yet (a worktree or its agent file's servers are still being made): a task call that succeeded with
    // no child seen can only be one (a foreground call returns after its child; one that ran none is an error).
    if ((task.agentId !== null && state.agents[task.agentId]?.running) || (task.agentId === null && !isError)) {
      task.background = true;
      touched.add(task.id);
      return;
    }
    // The subagent's own agent_finished is authoritative; this only fills what it did not set.
    if (task.status === 'running') {
      task.status = isError ? 'error' : 'completed';
      if (isError) task.error ??= e.output;
    }
    // Only a finished child's report: a stopped or limited one's tool_result is the harness's words to the model.
    if (task.result === undefined && !isError && task.status === 'completed') task.result = preview(e.output).text;
    task.durationMs ??= e.durationMs;
    touched.add(task.id);
    return;
  }
  // A cut transcript may end a call it never opened: a row that says only its name.
  const tool = getTool(state, toolNodeId(e.id)) ?? ensureToolNode(state, e.agentId, e.id, e.name, { summary: '', paths: [], input: undefined }, e.time, touched);
  tool.status = isError ? 'error' : 'ok';
  // Kept on the node: a slim snapshot drops the output the words are read from.
  const refusal = isError ? refusalOf(e.output) : undefined;
  if (refusal) tool.refusal = refusal;
  const out = preview(e.output);
  tool.output = out.text;
  tool.outputTruncated = out.truncated || e.fullOutputPath !== undefined;
  if (e.fullOutputPath !== undefined) tool.fullOutputPath = e.fullOutputPath;
  tool.durationMs = e.durationMs;
  if (tool.permission === 'asked') tool.permission = 'allowed';
  touched.add(tool.id);
}

export function onPermissionAsked(state: SessionViewState, e: EventOf<'permission_asked'>, touched: Touched): void {
  // The call's record made its row (a task or a tool); a cut transcript may ask for one it never opened.
  const node =
    getTask(state, taskNodeId(e.toolUseId)) ??
    getTool(state, toolNodeId(e.toolUseId)) ??
    ensureToolNode(state, e.agentId, e.toolUseId, e.name, { summary: '', paths: [], input: e.input }, e.time, touched);
  node.permission = 'asked';
  if (node.kind === 'tool') node.permissionReason = e.reason;
  touched.add(node.id);
}

export function onPermissionAnswered(state: SessionViewState, e: EventOf<'permission_answered'>, touched: Touched): void {
  const node = getTask(state, taskNodeId(e.toolUseId)) ?? getTool(state, toolNodeId(e.toolUseId));
  if (!node) return;
  node.permission = e.decision === 'deny' ? 'denied' : 'allowed';
  if (node.kind === 'tool' && e.reason !== undefined) node.permissionReason = e.reason;
  if (node.kind === 'task' && e.decision === 'deny' && node.status === 'running') {
    node.status = 'error';
    node.error = e.reason ?? 'Denied';
  }
  touched.add(node.id);
}

/** Rows of a finished agent still shown as running (cancelled mid-call) stop spinning. */
export function settleOpenCalls(state: SessionViewState, ids: readonly string[], agentId: string, touched: Touched): void {
  for (const id of ids) {
    const node = state.nodes[id];
    if (node?.kind === 'tool' && node.agentId === agentId && isOpenCall(node)) {
      node.status = 'cancelled';
      touched.add(id);
    }
  }
}
