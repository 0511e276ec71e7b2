/**
 * Reducer cases for calls: tool rows, `task` calls (which become task nodes), permission asks
 * and answers. Every case is O(1) in the number of nodes.
 */
import type { EventOf } from '../core/events';
import type { ToolKind } from '../core/tools/types';
import { getTask, getTool, placeNode, taskNodeId, taskOfAgent, toolNodeId, type Touched } from './store';
import { refusalOf } from './changes';
import { inputJson, inputPaths, oneLine, preview, summarizeInput, taskDescription } from './summarize';
import { TASK_TOOL_NAME, TOTALS_KEY, type SessionViewState, type TaskNode, type ToolCallNode } from './types';

interface CallRef {
  agentId: string;
  toolUseId: string;
  name: string;
  input: unknown;
  time: number;
  /** What the tool said about the call (events from before tools said so lack them: guessed from the input). */
  summary?: string;
  paths?: string[];
  kind?: ToolKind;
}

/** The task node for a `task` tool_use, created (under the calling agent) on first sight. */
export function ensureTaskNode(state: SessionViewState, call: CallRef, touched: Touched): TaskNode {
  const id = taskNodeId(call.toolUseId);
  const existing = getTask(state, id);
  if (existing) return existing;
  const { description, prompt } = taskDescription(call.input);
  const parentDepth = state.agents[call.agentId]?.depth ?? 0;
  const node: TaskNode = {
    kind: 'task',
    id,
    toolUseId: call.toolUseId,
    agentId: null,
    parentAgentId: call.agentId,
    depth: parentDepth + 1,
    description,
    prompt,
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

function ensureToolNode(state: SessionViewState, call: CallRef, touched: Touched): ToolCallNode {
  const id = toolNodeId(call.toolUseId);
  const existing = getTool(state, id);
  if (existing) return existing;
  const node: ToolCallNode = {
    kind: 'tool',
    id,
    toolUseId: call.toolUseId,
    agentId: call.agentId,
    name: call.name,
    summary: call.summary !== undefined ? oneLine(call.summary) : summarizeInput(call.name, call.input),
    paths: call.paths ?? inputPaths(call.input),
    ...(call.kind ? { toolKind: call.kind } : {}),
    inputJson: inputJson(call.input),
    status: 'running',
    startedAt: call.time,
  };
  placeNode(state, node, call.agentId, touched);
  return node;
}

export function onToolStarted(state: SessionViewState, e: EventOf<'tool_started'>, touched: Touched): void {
  const call: CallRef = {
    agentId: e.agentId,
    toolUseId: e.toolUseId,
    name: e.name,
    input: e.input,
    time: e.time,
    ...(e.summary !== undefined ? { summary: e.summary } : {}),
    ...(e.paths ? { paths: e.paths } : {}),
    ...(e.kind ? { kind: e.kind } : {}),
  };
  // Node may exist already (permission_asked, the child's agent_started or the fan-out card came first).
  if (isTaskCall(e)) {
    const task = ensureTaskNode(state, call, touched);
    if (task.status === 'pending') startPending(task, e.time, touched);
  } else ensureToolNode(state, call, touched);
  state.totals.toolCalls += 1;
  touched.add(TOTALS_KEY);
  const owner = taskOfAgent(state, e.agentId);
  if (owner) {
    owner.toolCalls += 1;
    touched.add(owner.id);
  }
}

/**
 * A fan-out's calls wait for the user (the card): pending task rows, with the agent type the card names, before any
 * starts. Each call's tool_started (or the answer) starts it; a Cancel stops them with the reason said on the row.
 */
export function onFanoutAsked(state: SessionViewState, e: EventOf<'fanout_asked'>, touched: Touched): void {
  for (const c of e.calls) {
    const task = ensureTaskNode(state, { agentId: e.agentId, toolUseId: c.toolUseId, name: TASK_TOOL_NAME, input: c.input, time: e.time }, touched);
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

/**
 * A call that hands work to a subagent (a task row): the tool says so by its kind. Events written before
 * tools declared a kind have none: there the core's task tool is known by its name.
 */
function isTaskCall(e: EventOf<'tool_started'>): boolean {
  return e.kind !== undefined ? e.kind === 'delegate' : e.name === TASK_TOOL_NAME;
}

export function onToolFinished(state: SessionViewState, e: EventOf<'tool_finished'>, touched: Touched): void {
  const task = getTask(state, taskNodeId(e.toolUseId));
  if (task) {
    // A background child's call returns at once while it goes on working: its node keeps running.
    if (task.agentId !== null && state.agents[task.agentId]?.running) {
      task.background = true;
      touched.add(task.id);
      return;
    }
    // The subagent's own agent_finished is authoritative; this only fills what it did not set.
    if (task.status === 'running') {
      task.status = e.isError ? 'error' : 'completed';
      if (e.isError) task.error ??= e.output;
    }
    // Only a finished child's report: a stopped or limited one's tool_result is the harness's words to the model.
    if (task.result === undefined && !e.isError && task.status === 'completed') task.result = preview(e.output).text;
    task.durationMs ??= e.durationMs;
    touched.add(task.id);
    return;
  }
  const tool = getTool(state, toolNodeId(e.toolUseId)) ??
    ensureToolNode(state, { agentId: e.agentId, toolUseId: e.toolUseId, name: e.name, input: undefined, time: e.time }, touched);
  tool.status = e.isError ? 'error' : 'ok';
  // Kept on the node: a slim snapshot drops the output the words are read from.
  const refusal = e.isError ? refusalOf(e.output) : undefined;
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
  const call: CallRef = { agentId: e.agentId, toolUseId: e.toolUseId, name: e.name, input: e.input, time: e.time };
  // tool_started came first and made the row (a task or a tool, by its kind); the name only for events without one.
  const node =
    getTask(state, taskNodeId(e.toolUseId)) ??
    getTool(state, toolNodeId(e.toolUseId)) ??
    (e.name === TASK_TOOL_NAME ? ensureTaskNode(state, call, touched) : ensureToolNode(state, call, touched));
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
    if (node?.kind === 'tool' && node.agentId === agentId && node.status === 'running') {
      node.status = 'cancelled';
      touched.add(id);
    }
  }
}
