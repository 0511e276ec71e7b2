/**
 * The packed snapshot (src/view-model/snapshot-codec.ts): what the panel decodes is the slim snapshot, field for
 * field and node for node in the same order, for the fixtures' sessions and for calls with unusual values; text of
 * another format is refused with an error that says so.
 */
import assert from 'node:assert/strict';
import { applyEvents, createSessionView, type SessionViewState, type ToolCallNode, type ViewNode } from '../../src/view-model/session-view';
import { slimSnapshot } from '../../src/view-model/slim-snapshot';
import { decodeSnapshot, encodeSnapshot } from '../../src/view-model/snapshot-codec';
import { bigSession, finishedSession, ROOT, runningSession, Script } from './fixtures';
import { callEnded, callPending } from '../kit/call-patches';

function stateOf(script: Script): SessionViewState {
  const state = createSessionView();
  applyEvents(state, script.events);
  return state;
}

/** Every undefined value under `value`, by path (an absent field must be absent, not an undefined key). */
function undefinedKeys(value: unknown, path = '$'): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => (v === undefined ? [`${path}.${k}`] : undefinedKeys(v, `${path}.${k}`)));
}

/** Decodes what encodeSnapshot made of `state` and holds it to slimSnapshot(state), node order included. */
function roundTrip(state: SessionViewState): SessionViewState {
  const before = structuredClone(state);
  const decoded = decodeSnapshot(encodeSnapshot(state));
  const slim = slimSnapshot(state);
  assert.deepStrictEqual(decoded, slim);
  assert.deepEqual(Object.keys(decoded.nodes), Object.keys(slim.nodes), 'the nodes in the same order');
  assert.deepEqual(undefinedKeys(decoded), []);
  assert.deepStrictEqual(JSON.parse(JSON.stringify(decoded)), decoded, 'a JSON round trip keeps it');
  assert.deepStrictEqual(state, before, 'the state itself is not changed');
  return decoded;
}

/** A hand-made finished call (the reducer's fields), with `extra` over it (a field `extra` sets to undefined is left out). */
function call(toolUseId: string, extra: Partial<ToolCallNode> = {}): ToolCallNode {
  const node: ToolCallNode = {
    kind: 'tool',
    id: `tool:${toolUseId}`,
    toolUseId,
    agentId: ROOT,
    name: 'read_file',
    summary: 'src/a.ts',
    paths: ['src/a.ts'],
    inputJson: '{\n  "path": "src/a.ts"\n}',
    status: 'ok',
    startedAt: 1_700_000_000_000,
    output: 'export {};',
    outputTruncated: false,
    durationMs: 12,
    ...extra,
  };
  return Object.fromEntries(Object.entries(node).filter(([, v]) => v !== undefined)) as unknown as ToolCallNode;
}

/** A state whose conversation is `nodes`, in this order. */
function stateWith(nodes: ViewNode[]): SessionViewState {
  const state = createSessionView();
  for (const node of nodes) {
    state.nodes[node.id] = node;
    state.items.push(node.id);
  }
  return state;
}

describe('the packed snapshot (snapshot-codec)', () => {
  it('decodes the fixtures\' sessions to their slim snapshots: finished, running with a nested subagent, 2,000 calls', () => {
    roundTrip(stateOf(finishedSession()));
    roundTrip(stateOf(bigSession(2000, true)));
    const running = roundTrip(stateOf(runningSession()));
    // Still running: the calls keep their input (the slim snapshot keeps running calls whole), the finished ones do not.
    const open = running.nodes['tool:u4'];
    assert.ok(open?.kind === 'tool' && open.status === 'running' && open.permission === 'asked' && open.inputJson.includes('rm -rf dist'));
    const done = running.nodes['tool:u2'];
    assert.ok(done?.kind === 'tool' && done.status === 'error' && done.detailOmitted === true && done.inputJson === '' && done.output === undefined);
    assert.deepEqual(running.nodes['task:tu-nested']?.kind === 'task' && running.nodes['task:tu-nested'].children, ['tool:n1', 'tool:n2']);
  });

  it('keeps what a session holds besides calls: thinking, compaction, notices, changes, permissions, tool kinds, cancelled calls', () => {
    const s = new Script();
    s.rootStart('Tidy the config.');
    s.turn(ROOT, null, 1);
    s.emit(ROOT, null, { type: 'thinking', turn: 1, text: 'Check **config** first.' });
    s.emit(ROOT, null, { type: 'notice', level: 'warning', text: 'agents/x.md: no description', source: 'agents' });
    s.open(ROOT, null, 'r1', 'edit_file', { path: 'src/config.ts' });
    s.emit(ROOT, null, { type: 'permission_asked', toolUseId: 'r1', name: 'edit_file', input: { path: 'src/config.ts' }, reason: 'Writes a file' });
    s.emit(ROOT, null, { type: 'permission_answered', toolUseId: 'r1', name: 'edit_file', decision: 'allow' });
    s.emit(ROOT, null, { type: 'file_changed', toolUseId: 'r1', path: 'src/config.ts', action: 'modified', before: 'a'.repeat(64), after: 'b'.repeat(64), added: 1, removed: 1, diff: '@@ -1 +1 @@\n-a\n+b' });
    s.emit(ROOT, null, callEnded('r1', 'edit_file', 'Edited', false, 7));
    s.emit(ROOT, null, callPending('r2', 'bash', { command: 'rm -rf /' }));
    s.emit(ROOT, null, { type: 'permission_asked', toolUseId: 'r2', name: 'bash', input: { command: 'rm -rf /' }, reason: 'Runs a command' });
    s.emit(ROOT, null, { type: 'permission_answered', toolUseId: 'r2', name: 'bash', decision: 'deny', reason: 'no' });
    s.emit(ROOT, null, callEnded('r2', 'bash', 'Denied', true, 0, '/tmp/out.txt'));
    s.emit(ROOT, null, { type: 'compacted', trigger: 'auto', tokensBefore: 160_000, tokensAfter: 40_000, stubs: { r1: 'stub' }, summary: 'so far', keptMessages: 2 });
    s.open(ROOT, null, 'r3', 'grep', { pattern: 'x' });
    s.emit(ROOT, null, { type: 'agent_finished', status: 'cancelled', result: '', turns: 1, toolCalls: 3, usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, durationMs: 900 });
    const state = stateOf(s);
    const kinds = new Set(Object.values(state.nodes).map((n) => n.kind));
    assert.deepEqual([...kinds].sort(), ['compaction', 'notice', 'thinking', 'tool', 'user']);
    const decoded = roundTrip(state);
    const edit = decoded.nodes['tool:r1'];
    assert.ok(edit?.kind === 'tool');
    assert.deepEqual(edit.change, { path: 'src/config.ts', before: 'a'.repeat(64), after: 'b'.repeat(64), added: 1, removed: 1 }, 'the counts without the hunks');
    assert.equal(edit.toolKind, 'write');
    const denied = decoded.nodes['tool:r2'];
    assert.ok(denied?.kind === 'tool' && denied.permission === 'denied' && denied.status === 'error');
    assert.ok(!('permissionReason' in denied) && !('fullOutputPath' in denied));
    const cancelled = decoded.nodes['tool:r3'];
    assert.ok(cancelled?.kind === 'tool' && cancelled.status === 'cancelled' && !('durationMs' in cancelled) && !('outputTruncated' in cancelled));
  });

  it('calls with unusual values: no paths, several, one that is not the summary, unicode, no duration, times out of order or not whole', () => {
    const state = stateWith([
      call('p0', { paths: [] }),
      call('p2', { paths: ['a.ts', 'b.ts'], summary: 'a.ts b.ts' }),
      call('p1', { paths: ['other.ts'] }),
      call('p-same', { paths: ['src/a.ts', 'src/a.ts'] }),
      call('ü-🦄', { summary: 'grep "ünïcödé ✓" \u2028 𝒳 \u0000', paths: ['dir/ﬁle 🦄.ts'], agentId: 'agent-ü', name: 'mcp__srv__tööl' }),
      // Shapes that would read alike if agent and name were only joined.
      call('join-1', { agentId: 'a', name: 'bc' }),
      call('join-2', { agentId: 'ab', name: 'c' }),
      call('no-duration', { durationMs: undefined, outputTruncated: undefined, startedAt: 1_699_999_999_000 }),
      call('earlier', { startedAt: 5 }),
      call('fraction', { startedAt: 1_700_000_000_000.25, durationMs: 0.5 }),
      call('huge', { startedAt: Number.MAX_SAFE_INTEGER }),
      call('cut', { outputTruncated: true, fullOutputPath: '/tmp/full.txt', permissionReason: 'asked once' }),
      { kind: 'text', id: 'text:root:1', agentId: ROOT, turn: 1, text: 'between', final: true },
      call('after-text', { status: 'cancelled' }),
      call('live', { status: 'running', output: undefined, outputTruncated: undefined, durationMs: undefined }),
      // An id that is not `tool:` + its toolUseId cannot be a row: it goes whole, still slim.
      { ...call('odd'), id: 'tool:odd-id' },
    ]);
    const decoded = roundTrip(state);
    const odd = decoded.nodes['tool:odd-id'];
    assert.ok(odd?.kind === 'tool' && odd.toolUseId === 'odd' && odd.detailOmitted === true && odd.inputJson === '');
  });

  it('is a fraction of the slim JSON for a big session (calls as a table, the task\'s children as one range)', () => {
    const state = stateOf(bigSession(5000, true));
    const packed = encodeSnapshot(state).length;
    const json = JSON.stringify(slimSnapshot(state)).length;
    assert.ok(packed < json / 5, `packed ${packed} chars, slim JSON ${json}`);
  });

  it('refuses text of another format, the old slim JSON, and a table whose parts do not add up', () => {
    const text = encodeSnapshot(stateOf(finishedSession()));
    assert.match(text, /^\{"format":1,/);
    assert.throws(() => decodeSnapshot(text.replace('"format":1', '"format":2')), /decodeSnapshot: a snapshot of format 2, this panel reads format 1/);
    assert.throws(() => decodeSnapshot(JSON.stringify(slimSnapshot(stateOf(finishedSession())))), /a snapshot of format undefined, this panel reads format 1/);
    assert.throws(() => decodeSnapshot('null'), /format undefined/);
    assert.throws(() => decodeSnapshot('{"format":1}'), /without its state, runs or table/);
    const doc = JSON.parse(text) as { rows: { summary: string[] }; runs: number[] };
    doc.rows.summary.pop();
    assert.throws(() => decodeSnapshot(JSON.stringify(doc)), /columns differ in length/);
    const short = JSON.parse(text) as { runs: number[] };
    short.runs[1] = (short.runs[1] ?? 0) - 1;
    assert.throws(() => decodeSnapshot(JSON.stringify(short)), /do not add up/);
  });

  it('makes a finished call\'s node when it is first read; writes, new nodes and listing keep the snapshot\'s order', () => {
    const state = stateOf(bigSession(300, true));
    const slim = slimSnapshot(state);
    const nodes = decodeSnapshot(encodeSnapshot(state)).nodes;
    assert.ok('tool:big-299' in nodes && !('tool:nope' in nodes));
    const first = nodes['tool:big-7'];
    assert.deepStrictEqual(first, slim.nodes['tool:big-7']);
    assert.equal(nodes['tool:big-7'], first, 'made once: the same object on the next read');
    // A node replaced before it was ever read (node_detail) keeps its place; a node added since comes after.
    const detail = { ...(slim.nodes['tool:big-200'] as ToolCallNode), output: 'out', detailOmitted: undefined };
    nodes['tool:big-200'] = detail;
    assert.equal(nodes['tool:big-200'], detail);
    const added = call('later');
    nodes[added.id] = added;
    assert.deepEqual(Object.keys(nodes), [...Object.keys(slim.nodes), added.id]);
    assert.equal(Object.values(nodes).filter((n) => n.kind === 'tool').length, 301);
    assert.equal(nodes['tool:big-200'], detail);
    assert.deepStrictEqual(nodes['tool:big-250'], slim.nodes['tool:big-250']);
  });
});
