/**
 * Unit tests of the pure session view reducer: conversation order, task node lifecycle,
 * nested and interleaved subagents, permissions, errors, replay safety and scale.
 */
import assert from 'node:assert/strict';
import {
  applyEvent,
  applyEvents,
  createSessionView,
  type SessionViewState,
  type TaskNode,
  type ToolCallNode,
  type ViewNode,
} from '../../src/view-model/session-view';
import { bigSession, finishedSession, ROOT, runningSession, Script, usage } from './fixtures';
import { callEnded } from '../kit/call-patches';

function node<K extends ViewNode['kind']>(state: SessionViewState, id: string, kind: K): Extract<ViewNode, { kind: K }> {
  const n = state.nodes[id];
  assert.ok(n, `missing node ${id}`);
  assert.equal(n.kind, kind);
  return n as Extract<ViewNode, { kind: K }>;
}

const task = (s: SessionViewState, toolUseId: string): TaskNode => node(s, `task:${toolUseId}`, 'task');
const tool = (s: SessionViewState, toolUseId: string): ToolCallNode => node(s, `tool:${toolUseId}`, 'tool');

describe('session view reducer', () => {
  it('orders the conversation: prompt, streamed text, root tool row, tasks, final text', () => {
    const state = createSessionView();
    applyEvents(state, finishedSession().events);
    const kinds = state.items.map((id) => state.nodes[id]?.kind);
    assert.deepEqual(kinds, ['user', 'text', 'tool', 'task', 'task', 'task', 'text']);
    const first = node(state, state.items[1] ?? '', 'text');
    assert.equal(first.text, 'I will split this into three investigations and run them in parallel.');
    assert.equal(first.final, true);
    assert.equal(node(state, state.items[0] ?? '', 'user').text, 'Find why the integration tests are flaky and fix it.');
    assert.equal(state.running, false);
  });

  it('accumulates text deltas per turn before the final message', () => {
    const s = new Script();
    s.rootStart('hi');
    s.turn(ROOT, null, 1);
    s.emit(ROOT, null, { type: 'text_delta', turn: 1, text: 'Hel' });
    s.emit(ROOT, null, { type: 'text_delta', turn: 1, text: 'lo' });
    const state = createSessionView();
    applyEvents(state, s.events);
    const text = node(state, 'text:root:1', 'text');
    assert.equal(text.text, 'Hello');
    assert.equal(text.final, false);
    assert.equal(state.running, true);
  });

  it('picks task rows by the call\'s kind, not its name', () => {
    const s = new Script();
    s.rootStart('go');
    s.turn(ROOT, null, 1);
    // An MCP server's tool that happens to be called `task` is a tool row; a delegating tool of another name is a task row.
    s.open(ROOT, null, 'mcp', 'task', { title: 'buy milk' }, { kind: 'external', summary: 'title: buy milk' });
    s.emit(ROOT, null, { type: 'permission_asked', toolUseId: 'mcp', name: 'task', input: { title: 'buy milk' }, reason: 'an MCP tool' });
    s.emit(ROOT, null, callEnded('mcp', 'task', 'added', false, 3));
    s.open(ROOT, null, 'spawn', 'spawn_agent', { description: 'look around', prompt: 'Look around.' }, { kind: 'delegate', summary: 'look around' });
    s.open(ROOT, null, 'old', 'task', { description: 'the core\'s task', prompt: 'Go.' });
    const state = createSessionView();
    applyEvents(state, s.events);
    assert.equal(tool(state, 'mcp').output, 'added');
    assert.equal(tool(state, 'mcp').permission, 'allowed');
    assert.equal(state.nodes['task:mcp'], undefined);
    assert.equal(task(state, 'spawn').description, 'look around');
    assert.equal(task(state, 'old').description, 'the core\'s task');
    assert.equal(state.totals.tasks, 2);
  });

  it('shows a prompt once: from its prompt event at once, from agent_started only in an older transcript without one', () => {
    const events = finishedSession().events;
    const prompts = (state: SessionViewState): string[] => state.items.flatMap((id) => { const n = state.nodes[id]; return n?.kind === 'user' ? [n.text] : []; });
    // The echo: the prompt event alone (the hooks still running, no agent yet) is a row, and nothing runs yet.
    const echoed = createSessionView();
    applyEvents(echoed, events.slice(0, 1));
    assert.deepEqual(prompts(echoed), ['Find why the integration tests are flaky and fix it.']);
    assert.deepEqual(echoed.agents, {});
    applyEvents(echoed, events.slice(1));
    assert.deepEqual(prompts(echoed), ['Find why the integration tests are flaky and fix it.']);
    const older = createSessionView();
    applyEvents(older, events.filter((e) => e.type !== 'prompt'));
    assert.deepEqual(prompts(older), ['Find why the integration tests are flaky and fix it.']);
    // The same text typed twice is two prompts (no merging by text).
    const twice = new Script();
    twice.rootStart('again');
    twice.emit(ROOT, null, { type: 'agent_finished', status: 'completed', result: '', turns: 0, toolCalls: 0, usage: usage(0, 0), durationMs: 1 });
    twice.rootStart('again');
    const state = createSessionView();
    applyEvents(state, twice.events);
    assert.deepEqual(prompts(state), ['again', 'again']);
  });

  it('builds a task node through its lifecycle', () => {
    const state = createSessionView();
    const s = finishedSession();
    const touched = new Set<string>();
    // Up to the child's start: the node exists, running, description from agent_started.
    const started = s.events.findIndex((e) => e.type === 'agent_started' && e.agentId === 'agent-a') + 1;
    applyEvents(state, s.events.slice(0, started), touched);
    const a = task(state, 'tu-a');
    assert.equal(a.status, 'running');
    assert.equal(a.agentId, 'agent-a');
    assert.equal(a.description, 'Survey the test runner config');
    assert.ok(touched.has('task:tu-a'));
    applyEvents(state, s.events.slice(started - 1));
    assert.equal(a.status, 'completed');
    assert.equal(a.turns, 3);
    assert.equal(a.toolCalls, 2);
    assert.deepEqual(a.tokens, { input: 5200, output: 800 });
    assert.equal(a.durationMs, 12_400);
    assert.match(a.result ?? '', /2 s timeout/);
    assert.deepEqual(a.children, ['tool:a1', 'tool:a2']);
    assert.equal(tool(state, 'a2').summary, 'npx mocha --reporter dot');
    assert.equal(tool(state, 'a1').summary, 'test/setup.ts');
    assert.deepEqual(tool(state, 'a1').paths, ['test/setup.ts']);
    assert.equal(tool(state, 'a2').status, 'ok');
  });

  it('keeps parallel children apart when their events interleave', () => {
    const state = createSessionView();
    applyEvents(state, finishedSession().events);
    assert.deepEqual(task(state, 'tu-b').children, ['tool:b1', 'tool:b2']);
    assert.deepEqual(task(state, 'tu-c').children, ['tool:c1']);
    assert.equal(task(state, 'tu-b').status, 'max_turns');
    assert.equal(tool(state, 'b1').agentId, 'agent-b');
  });

  it('shows errors on the agent, not as tool rows', () => {
    const state = createSessionView();
    applyEvents(state, finishedSession().events);
    const c = task(state, 'tu-c');
    assert.equal(c.status, 'error');
    assert.equal(c.error, 'Model request failed: overloaded');
    assert.equal(c.warning, undefined, 'a retry warning is cleared when the agent finishes');
    assert.equal(tool(state, 'c1').status, 'error');
    assert.equal(tool(state, 'c1').output, 'Error: ETIMEDOUT');
  });

  it('nests a subagent of a subagent inside its parent task', () => {
    const state = createSessionView();
    applyEvents(state, runningSession().events);
    const up = task(state, 'tu-up');
    assert.deepEqual(up.children, ['tool:u1', 'tool:u2', 'tool:u3', 'task:tu-nested', 'tool:u4']);
    const nested = task(state, 'tu-nested');
    assert.equal(nested.depth, 2);
    assert.equal(nested.parentAgentId, 'agent-up');
    assert.deepEqual(nested.children, ['tool:n1', 'tool:n2']);
    assert.equal(state.items.includes('task:tu-nested'), false);
  });

  it('propagates live usage to every running ancestor and the session totals', () => {
    const s = runningSession();
    s.emit('agent-nested', 'agent-up', { type: 'usage', turn: 1, usage: usage(1000, 100) });
    const state = createSessionView();
    applyEvents(state, s.events);
    assert.deepEqual(task(state, 'tu-nested').tokens, { input: 1000, output: 100 });
    assert.deepEqual(task(state, 'tu-up').tokens, { input: 7400, output: 800 });
    assert.deepEqual(state.totals.tokens, { input: 7400, output: 800 });
  });

  it('marks a call waiting for approval, then denied', () => {
    const s = runningSession();
    const state = createSessionView();
    applyEvents(state, s.take());
    assert.equal(tool(state, 'u4').permission, 'asked');
    assert.equal(tool(state, 'u4').status, 'running');
    s.emit('agent-up', ROOT, { type: 'permission_answered', toolUseId: 'u4', name: 'bash', decision: 'deny', reason: 'User denied' });
    s.emit('agent-up', ROOT, callEnded('u4', 'bash', 'Permission denied', true, 5));
    const touched = applyEvents(state, s.take());
    assert.ok(touched.has('tool:u4'));
    assert.equal(tool(state, 'u4').permission, 'denied');
    assert.equal(tool(state, 'u4').permissionReason, 'User denied');
  });

  it('settles open calls of a cancelled agent and ends the run', () => {
    const s = runningSession();
    s.childFinish('agent-nested', 'agent-up', 'cancelled', 1, 2, [10, 1], '');
    s.childFinish('agent-up', ROOT, 'cancelled', 2, 4, [20, 2], '');
    s.emit(ROOT, null, { type: 'agent_finished', status: 'cancelled', result: '', turns: 1, toolCalls: 1, usage: usage(30, 3), durationMs: 9 });
    const state = createSessionView();
    applyEvents(state, s.events);
    assert.equal(tool(state, 'n2').status, 'cancelled');
    assert.equal(tool(state, 'u4').status, 'cancelled');
    assert.equal(task(state, 'tu-up').status, 'cancelled');
    assert.equal(state.running, false);
    const last = state.nodes[state.items[state.items.length - 1] ?? ''];
    assert.equal(last?.kind, 'notice');
  });

  it("a stopped child's outcome is its own report, never the harness's words to the model", () => {
    const s = runningSession();
    s.childFinish('agent-nested', 'agent-up', 'completed', 1, 2, [10, 1], 'nested done');
    s.childFinish('agent-up', ROOT, 'cancelled', 2, 4, [20, 2], '', 'stopped by the user');
    s.taskEnd(ROOT, null, 'tu-up', '[The user stopped this subagent before it finished. Do not restart it unless the user asks.]\nIt had not reported anything yet.');
    const state = createSessionView();
    applyEvents(state, s.events);
    assert.equal(task(state, 'tu-up').status, 'cancelled');
    assert.equal(task(state, 'tu-up').result, undefined);
  });

  it('skips replayed events and survives a JSON round trip', () => {
    const s = finishedSession();
    const state = createSessionView();
    applyEvents(state, s.events.slice(0, 20));
    const copy = JSON.parse(JSON.stringify(state)) as SessionViewState;
    // The host's snapshot overlaps the next batch by a few events.
    applyEvents(copy, s.events.slice(15));
    applyEvents(state, s.events.slice(20));
    assert.deepEqual(copy, JSON.parse(JSON.stringify(state)));
    assert.equal(applyEvent(state, s.events[3] as (typeof s.events)[number]), false);
  });

  it('handles a child whose agent_started comes before the task call', () => {
    const s = new Script();
    s.rootStart('go');
    s.emit('kid', ROOT, { type: 'agent_started', prompt: 'p', description: 'early bird', depth: 1, model: 'm', toolUseId: 'tu-x' });
    s.open(ROOT, null, 'tu-x', 'task', { description: 'late', prompt: 'p' });
    s.tool('kid', ROOT, 'k1', 'bash', { command: 'ls' }, 'a');
    const state = createSessionView();
    applyEvents(state, s.events);
    assert.equal(state.items.filter((id) => id === 'task:tu-x').length, 1);
    assert.equal(task(state, 'tu-x').description, 'early bird');
    assert.deepEqual(task(state, 'tu-x').children, ['tool:k1']);
    assert.equal(state.totals.toolCalls, 2);
  });

  it('bounds previews and keeps 5,000 calls in order under one task', () => {
    const s = bigSession(5000);
    s.tool('agent-big', ROOT, 'huge', 'bash', { command: 'cat big' }, 'x'.repeat(100_000));
    const state = createSessionView();
    applyEvents(state, s.events);
    const big = task(state, 'tu-big');
    assert.equal(big.children.length, 5001);
    assert.equal(big.toolCalls, 5001);
    assert.equal(big.children[0], 'tool:big-0');
    assert.equal(big.children[4999], 'tool:big-4999');
    const huge = tool(state, 'huge');
    assert.ok((huge.output ?? '').length <= 2049);
    assert.equal(huge.outputTruncated, true);
  });
});
