/**
 * The view-model stores a call's record as its patches come (core/events.ts tool_call): the row is made by the
 * pending patch with the tool's own words, then changes state; nothing is guessed from the input.
 */
import assert from 'node:assert/strict';
import { applyEvents, createSessionView, type SessionViewState, type ToolCallNode } from '../../src/view-model/session-view';
import { toolStateLabel } from '../../src/view-model/format';
import { callEnded, callPending } from '../kit/call-patches';
import { ROOT, Script } from './fixtures';

const tool = (state: SessionViewState, id: string): ToolCallNode => {
  const n = state.nodes[`tool:${id}`];
  assert.ok(n?.kind === 'tool', `missing tool row ${id}`);
  return n;
};

describe('call records in the view', () => {
  it('a row per record: pending (waiting), running, completed; summary and paths as the tool said them', () => {
    const s = new Script();
    s.rootStart('go');
    s.turn(ROOT, null, 1);
    // Words no guess from the input would find: the row shows them as they are.
    s.emit(ROOT, null, callPending('c1', 'lookup', { path: 'a.ts', command: 'rm -rf /' }, { kind: 'read', summary: 'the tool\'s words', paths: ['b.ts'] }));
    s.emit(ROOT, null, callPending('c2', 'bash', { command: 'ls' }));
    const state = createSessionView();
    applyEvents(state, s.take());
    assert.deepEqual([tool(state, 'c1').summary, tool(state, 'c1').paths, tool(state, 'c1').toolKind], ['the tool\'s words', ['b.ts'], 'read']);
    assert.deepEqual([tool(state, 'c1').status, toolStateLabel(tool(state, 'c1'))], ['pending', 'waiting']);
    assert.equal(state.totals.toolCalls, 2, 'counted once, when the record opens');

    s.emit(ROOT, null, { type: 'tool_call', id: 'c1', name: 'lookup', state: 'running' });
    applyEvents(state, s.take());
    assert.equal(tool(state, 'c1').status, 'running');
    assert.equal(tool(state, 'c2').status, 'pending', 'the next call waits for its turn');

    s.emit(ROOT, null, callEnded('c1', 'lookup', 'found', false, 42));
    // A PreToolUse hook's rewrite: the running patch says what runs.
    s.emit(ROOT, null, { type: 'tool_call', id: 'c2', name: 'bash', state: 'running', kind: 'exec', summary: 'ls -la', paths: [], input: { command: 'ls -la' } });
    applyEvents(state, s.take());
    assert.deepEqual([tool(state, 'c1').status, tool(state, 'c1').output, tool(state, 'c1').durationMs], ['ok', 'found', 42]);
    assert.deepEqual([tool(state, 'c2').status, tool(state, 'c2').summary], ['running', 'ls -la']);
    assert.equal(state.totals.toolCalls, 2, 'a rewrite is not another call');
  });

  it('a run that ends with calls still pending settles them as cancelled', () => {
    const s = new Script();
    s.rootStart('go');
    s.emit(ROOT, null, callPending('p1', 'bash', { command: 'make' }));
    s.emit(ROOT, null, { type: 'agent_finished', status: 'cancelled', result: '', turns: 1, toolCalls: 1, usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, durationMs: 5 });
    const state = createSessionView();
    applyEvents(state, s.events);
    assert.equal(tool(state, 'p1').status, 'cancelled');
  });
});
