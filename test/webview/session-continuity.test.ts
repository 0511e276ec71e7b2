/**
 * The view reducer over a session that lasts: prompts in a row (turn numbers continue, nothing is
 * replaced), a follow-up after Stop, compaction rows, and a reopened session whose last run never
 * recorded its end.
 */
import assert from 'node:assert/strict';
import { applyEvents, createSessionView, settleInterrupted, type SessionViewState } from '../../src/view-model/session-view';
import { ROOT, Script, usage } from './fixtures';

function kinds(state: SessionViewState): string[] {
  return state.items.map((id) => {
    const n = state.nodes[id];
    if (!n) return '?';
    if (n.kind === 'user') return `user:${n.text}`;
    if (n.kind === 'text') return `text:${n.text}`;
    if (n.kind === 'notice') return `notice:${n.text}`;
    return n.kind;
  });
}

function answer(s: Script, prompt: string, turn: number, text: string): void {
  s.rootStart(prompt);
  s.turn(ROOT, null, turn);
  s.rootText(turn, text);
  s.emit(ROOT, null, { type: 'agent_finished', status: 'completed', result: text, turns: 1, toolCalls: 0, usage: usage(10, 5), durationMs: 5 });
}

describe('session view: a session that lasts', () => {
  it('three prompts in a row, each answered in its first turn: all kept, in order', () => {
    const s = new Script();
    answer(s, 'first?', 1, 'one');
    answer(s, 'second?', 2, 'two');
    answer(s, 'third?', 3, 'three');
    const state = createSessionView();
    applyEvents(state, s.events);
    assert.deepEqual(kinds(state), ['user:first?', 'text:one', 'user:second?', 'text:two', 'user:third?', 'text:three']);
    assert.equal(new Set(state.items).size, state.items.length, 'no id reused');
  });

  it('a follow-up after Stop keeps the stopped exchange and its partial text', () => {
    const s = new Script();
    s.rootStart('refactor it');
    s.turn(ROOT, null, 1);
    s.emit(ROOT, null, { type: 'text_delta', turn: 1, text: 'Looking at the mod' });
    s.emit(ROOT, null, { type: 'agent_finished', status: 'cancelled', result: 'Looking at the mod', turns: 1, toolCalls: 0, usage: usage(10, 5), durationMs: 5, error: 'stopped by the user' });
    answer(s, 'what did you get done?', 2, 'Only looked.');
    const state = createSessionView();
    applyEvents(state, s.events);
    assert.deepEqual(kinds(state), ['user:refactor it', 'text:Looking at the mod', 'notice:Stopped.', 'user:what did you get done?', 'text:Only looked.']);
  });

  it('shows a compaction in the conversation for the main agent and among a subagent’s calls', () => {
    const s = new Script();
    s.rootStart('long job');
    s.turn(ROOT, null, 1);
    s.taskStart(ROOT, null, 'tu-1', 'kid', 'read logs', 1);
    s.emit('kid', ROOT, { type: 'compacted', trigger: 'auto', tokensBefore: 162_000, tokensAfter: 41_000, stubs: { a: 'x', b: 'y' }, summary: 'sum', keptMessages: 6 });
    s.emit(ROOT, null, { type: 'compacted', trigger: 'manual', tokensBefore: 9000, tokensAfter: 2000, stubs: {} , summary: 's', keptMessages: 4 });
    const state = createSessionView();
    applyEvents(state, s.events);
    const task = state.nodes['task:tu-1'];
    assert.equal(task?.kind, 'task');
    const childId = task?.kind === 'task' ? task.children[0] : undefined;
    const child = childId ? state.nodes[childId] : undefined;
    assert.equal(child?.kind, 'compaction');
    assert.equal(child?.kind === 'compaction' && child.stubbed, 2);
    assert.equal(state.nodes[state.items.at(-1) ?? '']?.kind, 'compaction');
  });

  it('a reopened session whose run never recorded its end shows it as interrupted, not running', () => {
    const s = new Script();
    s.rootStart('go');
    s.turn(ROOT, null, 1);
    s.taskStart(ROOT, null, 'tu-1', 'kid', 'work', 1);
    s.open('kid', ROOT, 'k1', 'bash', { command: 'make' });
    const state = createSessionView();
    applyEvents(state, s.events);
    assert.equal(state.running, true);
    settleInterrupted(state, 'the editor closed');
    assert.equal(state.running, false);
    const task = state.nodes['task:tu-1'];
    assert.equal(task?.kind === 'task' && task.status, 'cancelled');
    assert.equal(task?.kind === 'task' && task.error, 'interrupted: the editor closed');
    assert.equal(state.nodes['tool:k1']?.kind === 'tool' && (state.nodes['tool:k1'] as { status: string }).status, 'cancelled');
    assert.match(kinds(state).at(-1) ?? '', /notice:Interrupted: the editor closed/);
  });

  it('an interruption recorded by the core reads as interrupted, not as a plain stop', () => {
    const s = new Script();
    s.rootStart('go');
    s.emit(ROOT, null, { type: 'agent_finished', status: 'cancelled', result: '', turns: 0, toolCalls: 0, usage: usage(0, 0), durationMs: 5, error: 'interrupted: SIGHUP' });
    const state = createSessionView();
    applyEvents(state, s.events);
    assert.deepEqual(kinds(state), ['user:go', 'notice:Interrupted: SIGHUP.']);
  });
});
