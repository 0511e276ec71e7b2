/**
 * The session view reducer: folds the core's events into a `SessionViewState` that both the
 * extension host (keeps it, sends it as the snapshot) and the webview (renders it) hold.
 *
 * `applyEvent` MUTATES the state in place (no copies: 5,000 tool calls stay O(1) per event) and
 * records the ids of the nodes it changed in the optional `touched` set, so a renderer can update
 * exactly those. Events already applied (same session, seq not above the last one) are skipped,
 * so a snapshot followed by an overlapping batch is harmless. Pure TS: no DOM, no vscode.
 */
import type { DelegateEvent, EventOf } from '../core/events';
import { onChangeManifest, onChangesReverted, onFileChanged } from './changes';
import { onHook, onInstructionsLoaded } from './hook-notices';
import { onChangesLanded, onWorktreeKept } from './kept-work';
import { forEachTaskUpward, getTask, nextLocalId, placeNode, taskNodeId, taskOfAgent, type Touched } from './store';
import { messageText, oneLine, preview } from './summarize';
import { onThinking } from './thinking-rows';
import { onWaiting, settleWaiting } from './waiting-notices';
import { ensureTaskNode, onFanoutAnswered, onFanoutAsked, onPermissionAnswered, onPermissionAsked, onToolCall, settleOpenCalls } from './tool-calls';
import {
  isOpenCall,
  TOTALS_KEY,
  VIEW_STATE_VERSION,
  type SessionViewState,
  type TaskNode,
  type TextNode,
  type TokenCount,
} from './types';
import type { HandoffOf, RetryOf, Usage } from '../core/vocabulary';

export * from './types';
export type { Touched } from './store';

export function createSessionView(): SessionViewState {
  return {
    version: VIEW_STATE_VERSION,
    items: [],
    nodes: {},
    agents: {},
    lastSeq: {},
    totals: { tokens: { input: 0, output: 0 }, toolCalls: 0, tasks: 0 },
    running: false,
    nextLocalId: 0,
  };
}

/** Applies a batch in order; returns the touched set (the one given, or a new one). */
export function applyEvents(state: SessionViewState, events: Iterable<DelegateEvent>, touched: Touched = new Set()): Touched {
  for (const event of events) applyEvent(state, event, touched);
  return touched;
}

/** Folds one event into `state` (mutating it). Returns false when the event was a replay and skipped. */
export function applyEvent(state: SessionViewState, event: DelegateEvent, touched: Touched = new Set()): boolean {
  const last = state.lastSeq[event.sessionId] ?? 0;
  if (event.seq <= last) return false;
  state.lastSeq[event.sessionId] = event.seq;
  // The prompt, hook and instruction notices come before an agent starts (or instead of it: a blocked prompt), and so
  // does an isolated subagent's worktree: no agent to register (it would be a "Subtask" that never ends).
  if (event.type !== 'prompt' && event.type !== 'agent_started' && event.type !== 'hook' && event.type !== 'instructions_loaded' && event.type !== 'worktree_created') ensureAgent(state, event, touched);
  switch (event.type) {
    case 'prompt':
      if (event.parentId === null) {
        addPrompt(state, event.text, event.time, touched, event);
        state.promptShown = true;
      }
      break;
    case 'agent_started':
      onAgentStarted(state, event, touched);
      break;
    case 'agent_finished':
      onAgentFinished(state, event, touched);
      break;
    case 'message':
      onMessage(state, event, touched);
      break;
    case 'text_delta':
      if (isRoot(state, event.agentId)) textNode(state, event.agentId, event.turn, touched).text += event.text;
      break;
    case 'turn_started':
      onTurnStarted(state, event, touched);
      break;
    case 'thinking':
      onThinking(state, event, touched);
      break;
    case 'tool_call':
      onToolCall(state, event, touched);
      break;
    case 'fanout_asked':
      onFanoutAsked(state, event, touched);
      break;
    case 'fanout_answered':
      onFanoutAnswered(state, event, touched);
      break;
    case 'permission_asked':
      onPermissionAsked(state, event, touched);
      break;
    case 'permission_answered':
      onPermissionAnswered(state, event, touched);
      break;
    case 'usage':
      onUsage(state, event, touched);
      break;
    case 'error':
      onError(state, event, touched);
      break;
    case 'hook':
      onHook(state, event, touched);
      break;
    case 'instructions_loaded':
      onInstructionsLoaded(state, event, touched);
      break;
    case 'waiting':
      onWaiting(state, event, touched);
      break;
    case 'review_requested':
    case 'review_resolved': {
      const task = getTask(state, state.agents[event.agentId]?.taskId);
      if (!task) break;
      task.review = event.type === 'review_requested' ? 'pending' : event.action === 'accept' ? 'accepted' : event.action === 'edit' ? 'edited' : 'rerun';
      touched.add(task.id);
      break;
    }
    case 'notice':
      addNotice(state, event.level, event.source ? `${event.source}: ${event.text}` : event.text, event.time, touched);
      break;
    case 'file_changed':
      onFileChanged(state, event, touched);
      break;
    case 'change_manifest':
      onChangeManifest(state, event, touched);
      break;
    case 'report_checked': {
      const task = taskOfAgent(state, event.agentId);
      if (!task) break;
      task.unverified = event.unverified;
      task.defanged = event.defanged;
      touched.add(task.id);
      break;
    }
    case 'changes_reverted':
      onChangesReverted(state, event, touched);
      break;
    case 'worktree_kept':
      onWorktreeKept(state, event, touched);
      break;
    case 'changes_landed':
      onChangesLanded(state, event, touched);
      break;
    case 'compacted':
      placeNode(
        state,
        {
          kind: 'compaction',
          id: `compaction:${event.seq}`,
          agentId: event.agentId,
          trigger: event.trigger,
          tokensBefore: event.tokensBefore,
          tokensAfter: event.tokensAfter,
          stubbed: Object.keys(event.stubs).length,
          summarized: event.summary !== undefined,
          time: event.time,
        },
        event.agentId,
        touched,
      );
      break;
  }
  return true;
}

/**
 * For a session rebuilt from its transcript that is not running in this process: whatever still
 * looks running was interrupted (the editor closed, the process died) before its end was recorded.
 */
export function settleInterrupted(state: SessionViewState, reason: string, touched: Touched = new Set()): void {
  for (const node of Object.values(state.nodes)) {
    if (node.kind === 'task' && (node.status === 'running' || node.status === 'pending')) {
      node.status = 'cancelled';
      node.error ??= `interrupted: ${reason}`;
      touched.add(node.id);
    } else if (node.kind === 'tool' && isOpenCall(node)) {
      node.status = 'cancelled';
      touched.add(node.id);
    }
  }
  let rootWasRunning = false;
  for (const agent of Object.values(state.agents)) {
    if (agent.running && agent.taskId === null) rootWasRunning = true;
    agent.running = false;
  }
  if (rootWasRunning) addNotice(state, 'warning', `Interrupted: ${reason}.`, Date.now(), touched);
  setRunning(state, false, touched);
}

function isRoot(state: SessionViewState, agentId: string): boolean {
  const entry = state.agents[agentId];
  return entry !== undefined && entry.taskId === null;
}

/** An event for an agent never announced (e.g. a transcript cut at the start): register it. */
function ensureAgent(state: SessionViewState, event: DelegateEvent, touched: Touched): void {
  if (state.agents[event.agentId]) return;
  if (event.parentId === null) {
    state.agents[event.agentId] = { parentId: null, depth: 0, taskId: null, turn: 0, running: true };
    return;
  }
  const task = ensureTaskNode(state, { agentId: event.parentId, toolUseId: `agent:${event.agentId}`, time: event.time, description: 'Subtask', prompt: '' }, touched);
  task.agentId = event.agentId;
  state.agents[event.agentId] = { parentId: event.parentId, depth: task.depth, taskId: task.id, turn: 0, running: true };
}

function onAgentStarted(state: SessionViewState, e: EventOf<'agent_started'>, touched: Touched): void {
  if (e.parentId === null) {
    state.agents[e.agentId] = { parentId: null, depth: e.depth, taskId: null, turn: 0, running: true };
    // The `prompt` event showed it; a transcript written before that event existed has only this.
    if (!state.promptShown) addPrompt(state, e.prompt, e.time, touched, e);
    delete state.promptShown;
    setRunning(state, true, touched);
    return;
  }
  const toolUseId = e.toolUseId ?? `agent:${e.agentId}`;
  const existing = getTask(state, taskNodeId(toolUseId));
  const task =
    existing ??
    ensureTaskNode(state, { agentId: e.parentId, toolUseId, time: e.time, description: e.description?.trim() || oneLine(e.prompt, 80) || 'Subtask', prompt: e.prompt }, touched);
  task.agentId = e.agentId;
  if (e.description) task.description = e.description;
  // A resumed child (a new segment) keeps its node and first prompt; the message that resumed it is its own field.
  if (e.segment) {
    // The node keeps counting across segments: what it showed so far is the base of the new segment's figures.
    if (task.status !== 'running') task.earlier = { turns: task.turns, toolCalls: task.toolCalls, tokens: { ...task.tokens }, ...(task.costUsd !== undefined ? { costUsd: task.costUsd } : {}), durationMs: task.durationMs ?? 0 };
    task.segments = e.segment;
    task.lastMessage = e.prompt;
    delete task.error;
  } else task.prompt = e.prompt;
  if (e.name) task.name = e.name;
  task.depth = e.depth;
  task.model = e.model;
  if (e.asked) task.asked = e.asked;
  if (e.budget) task.budget = e.budget;
  if (e.agentType) task.agentType = e.agentType;
  if (e.color) task.color = e.color;
  if (e.forkedFrom) task.fork = true;
  if (e.memory) task.memory = e.memory;
  task.status = 'running';
  task.startedAt = e.time;
  touched.add(task.id);
  state.agents[e.agentId] = { parentId: e.parentId, depth: e.depth, taskId: task.id, turn: 0, running: true };
  if (!e.segment && isRoot(state, e.parentId)) noteRetryTask(state, task, touched);
}

/** A task the main agent started during a Retry: the retried one's new run if it has its description (else the first). */
function noteRetryTask(state: SessionViewState, task: TaskNode, touched: Touched): void {
  const retrying = state.retrying;
  if (!retrying || task.id === retrying.taskId) return;
  if (task.description === retrying.description) linkRetry(state, task.id, touched);
  else retrying.candidate ??= task.id;
}

function linkRetry(state: SessionViewState, taskId: string | undefined, touched: Touched): void {
  const old = getTask(state, state.retrying?.taskId);
  delete state.retrying;
  if (!old?.retriedBy || !taskId) return;
  old.retriedBy.taskId = taskId;
  touched.add(old.id);
}

function onAgentFinished(state: SessionViewState, e: EventOf<'agent_finished'>, touched: Touched): void {
  const entry = state.agents[e.agentId];
  if (entry) entry.running = false;
  const task = getTask(state, entry?.taskId);
  if (!task) {
    if (state.retrying) linkRetry(state, state.retrying.candidate, touched);
    settleOpenCalls(state, state.items, e.agentId, touched);
    if (e.status === 'error') addNotice(state, 'error', e.error ?? (e.result || 'The agent failed.'), e.time, touched);
    else if (e.status === 'cancelled' && e.error?.startsWith('interrupted')) addNotice(state, 'warning', `${capitalize(e.error)}.`, e.time, touched);
    else if (e.status === 'cancelled') addNotice(state, 'info', 'Stopped.', e.time, touched);
    else if (e.status === 'max_turns') addNotice(state, 'warning', `Stopped after ${e.turns} turns (turn limit reached).`, e.time, touched);
    else if (e.status === 'budget_exceeded') addNotice(state, 'warning', `Stopped at the run's budget: ${e.error ?? 'budget reached'}.`, e.time, touched);
    setRunning(state, Object.values(state.agents).some((a) => a.taskId === null && a.running), touched);
    return;
  }
  settleOpenCalls(state, task.children, e.agentId, touched);
  task.status = e.status;
  const base = task.earlier;
  const tokens = tokensOf(e.usage);
  task.turns = (base?.turns ?? 0) + e.turns;
  task.toolCalls = (base?.toolCalls ?? 0) + e.toolCalls;
  task.tokens = base ? { input: base.tokens.input + tokens.input, output: base.tokens.output + tokens.output, ...((base.tokens.cacheRead ?? 0) + (tokens.cacheRead ?? 0) > 0 ? { cacheRead: (base.tokens.cacheRead ?? 0) + (tokens.cacheRead ?? 0) } : {}) } : tokens;
  if (e.costUsd !== undefined) task.costUsd = (base?.costUsd ?? 0) + e.costUsd;
  task.durationMs = (base?.durationMs ?? 0) + e.durationMs;
  if (e.result) task.result = preview(e.result).text;
  if (e.error !== undefined) task.error = e.error;
  // A resumed segment that ends early offers no handoff: the buttons follow its last answer only.
  if (e.handoffs?.length) task.handoffs = e.handoffs;
  else delete task.handoffs;
  delete task.warning;
  touched.add(task.id);
}

function onMessage(state: SessionViewState, e: EventOf<'message'>, touched: Touched): void {
  // User-role messages are not rows: the prompt came as its own event; the rest are tool results and the
  // harness's notes (continue, a Stop hook's reason), with the context hooks added after the prompt.
  if (!isRoot(state, e.agentId) || e.message.role === 'user') return;
  const text = messageText(e.message);
  const turn = state.agents[e.agentId]?.turn ?? 0;
  const existing = state.nodes[textId(e.agentId, turn)];
  if (!existing && text.trim() === '') return;
  const node = textNode(state, e.agentId, turn, touched);
  node.text = text;
  node.final = true;
}

function onTurnStarted(state: SessionViewState, e: EventOf<'turn_started'>, touched: Touched): void {
  const entry = state.agents[e.agentId];
  if (entry) entry.turn = e.turn;
  const task = getTask(state, entry?.taskId);
  if (task) {
    task.turns = Math.max(task.turns, e.turn);
    delete task.warning;
    touched.add(task.id);
  }
}

function onUsage(state: SessionViewState, e: EventOf<'usage'>, touched: Touched): void {
  settleWaiting(state, e, touched);
  const add = tokensOf(e.usage);
  state.totals.tokens.input += add.input;
  state.totals.tokens.output += add.output;
  if (add.cacheRead) state.totals.tokens.cacheRead = (state.totals.tokens.cacheRead ?? 0) + add.cacheRead;
  if (e.costUsd !== undefined) state.totals.costUsd = (state.totals.costUsd ?? 0) + e.costUsd;
  touched.add(TOTALS_KEY);
  forEachTaskUpward(state, e.agentId, (task) => {
    // A finished task already holds its authoritative total (agent_finished.usage).
    if (task.status !== 'running') return;
    task.tokens.input += add.input;
    task.tokens.output += add.output;
    if (add.cacheRead) task.tokens.cacheRead = (task.tokens.cacheRead ?? 0) + add.cacheRead;
    if (e.costUsd !== undefined) task.costUsd = (task.costUsd ?? 0) + e.costUsd;
    touched.add(task.id);
  });
}

function onError(state: SessionViewState, e: EventOf<'error'>, touched: Touched): void {
  const task = getTask(state, state.agents[e.agentId]?.taskId);
  if (task) {
    if (e.retrying) task.warning = e.message;
    else task.error = e.message;
    touched.add(task.id);
    return;
  }
  addNotice(state, e.retrying ? 'warning' : 'error', e.retrying ? `Retrying: ${e.message}` : e.message, e.time, touched);
}

const textId = (agentId: string, turn: number): string => `text:${agentId}:${turn}`;

function textNode(state: SessionViewState, agentId: string, turn: number, touched: Touched): TextNode {
  const entry = state.agents[agentId];
  if (entry && turn > entry.turn) entry.turn = turn;
  const id = textId(agentId, turn);
  const existing = state.nodes[id];
  touched.add(id);
  if (existing?.kind === 'text') return existing;
  const node: TextNode = { kind: 'text', id, agentId, turn, text: '', final: false };
  placeNode(state, node, null, touched);
  return node;
}

/**
 * A root prompt: its row in the conversation; a Retry's marks the retried task (it offers Retry no more). `shown`:
 * what the host wrote it for (the prompt event's or agent_started's fields), which the row shows instead of `text`.
 */
function addPrompt(state: SessionViewState, text: string, time: number, touched: Touched, shown: { retryOf?: RetryOf; handoff?: HandoffOf }): void {
  delete state.retrying;
  if (text.trim() === '') return;
  const id = nextLocalId(state, 'user');
  const { retryOf } = shown;
  const handoff = handoffOf(shown.handoff);
  placeNode(state, { kind: 'user', id, text, time, ...(retryOf ? { retryOf } : {}), ...(handoff ? { handoff } : {}) }, null, touched);
  const old = retryOf ? getTask(state, state.agents[retryOf.agentId]?.taskId) : undefined;
  if (!old) return;
  old.retriedBy = { promptId: id };
  state.retrying = { taskId: old.id, description: old.description };
  touched.add(old.id);
}

/** A handoff as a transcript gives it: only a whole one (a hand-edited file's broken one shows the written prompt). */
function handoffOf(h: HandoffOf | undefined): HandoffOf | undefined {
  if (typeof h?.agent !== 'string' || typeof h.label !== 'string' || typeof h.text !== 'string') return undefined;
  return { agent: h.agent, label: h.label, text: h.text };
}

function addNotice(state: SessionViewState, level: 'error' | 'warning' | 'info', text: string, time: number, touched: Touched): void {
  const id = nextLocalId(state, 'notice');
  placeNode(state, { kind: 'notice', id, level, text, time }, null, touched);
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

function setRunning(state: SessionViewState, running: boolean, touched: Touched): void {
  if (state.running === running) return;
  state.running = running;
  touched.add(TOTALS_KEY);
}

function tokensOf(usage: Usage): TokenCount {
  return {
    input: usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens,
    output: usage.output_tokens,
    ...(usage.cache_read_input_tokens > 0 ? { cacheRead: usage.cache_read_input_tokens } : {}),
  };
}

/** Every task node in the session, in no particular order (tests, host summaries). */
export function allTasks(state: SessionViewState): TaskNode[] {
  return Object.values(state.nodes).filter((n): n is TaskNode => n.kind === 'task');
}
