/**
 * One record per tool call (core/events.ts ToolCallPatch, loop/call-records.ts): every call of a reply is read once
 * and opened `pending` in its tool's own words before any runs, then `running`, then `completed` / `error`; a call
 * that never runs goes from pending to its error; a PreToolUse rewrite's running patch says what runs.
 */
import assert from 'node:assert/strict';
import { patchToolCall, type DelegateEvent, type EventOf, type ToolCallRecord } from '../../../src/core/events';
import { runAgent } from '../../../src/core/loop/loop';
import { ScriptedModel } from '../../kit/scripted-model';
import { ToolRegistry, type Tool } from '../../../src/core/tools/types';
import { makeRun } from '../../kit/run-services';

/** A tool that counts its parses and says its calls in words no guess from the input would find. */
function countingTool(): Tool<{ path: string }> & { parses: number } {
  const tool = {
    parses: 0,
    name: 'peek',
    kind: 'read' as const,
    description: 'peek',
    inputSchema: { type: 'object' as const, properties: {} },
    parse(raw: unknown) {
      tool.parses++;
      const path = (raw as { path?: unknown } | null)?.path;
      return typeof path === 'string' ? { ok: true as const, input: { path } } : { ok: false as const, error: 'needs "path"' };
    },
    describe: (input: { path: string }) => ({ summary: `peek at ${input.path}\nsecond line`, paths: [input.path] }),
    execute: async (input: { path: string }) => ({ content: `seen ${input.path}` }),
  };
  return tool;
}

const spec = (tools: ToolRegistry) => ({ identity: { agentId: 'main', parentId: null, depth: 0 }, systemPrompt: 's', history: [], prompt: 'go', tools, maxTurns: 5 });
const patches = (events: DelegateEvent[]): EventOf<'tool_call'>[] => events.filter((e): e is EventOf<'tool_call'> => e.type === 'tool_call');
const records = (events: DelegateEvent[]): Map<string, ToolCallRecord> => {
  const out = new Map<string, ToolCallRecord>();
  for (const e of patches(events)) out.set(e.id, patchToolCall(out.get(e.id), e.agentId, e));
  return out;
};

describe('call records', () => {
  it('a reply\'s calls: each read once, all pending in their tools\' words before any runs, then running and ended', async () => {
    const peek = countingTool();
    const model = new ScriptedModel()
      .script('default', { toolUses: [{ id: 'c1', name: 'peek', input: { path: 'a.ts' } }, { id: 'c2', name: 'peek', input: { path: 'b.ts' } }, { id: 'c3', name: 'nope', input: { x: 1 } }, { id: 'c4', name: 'peek', input: {} }] })
      .script('default', { text: 'done' });
    const { ports, baseTools, events } = makeRun(model, { baseTools: new ToolRegistry([peek]) });
    const result = await runAgent(spec(baseTools), ports, new AbortController().signal);
    assert.equal(result.status, 'completed');
    assert.equal(peek.parses, 3, 'each known call\'s input parsed once (c3 has no tool)');
    assert.deepEqual(patches(events).map((e) => `${e.id} ${e.state}`), [
      'c1 pending', 'c2 pending', 'c3 pending', 'c4 pending',
      'c1 running', 'c1 completed', 'c2 running', 'c2 completed', 'c3 error', 'c4 error',
    ]);
    const all = records(events);
    const { durationMs, ...c1 } = all.get('c1') as ToolCallRecord;
    assert.ok(typeof durationMs === 'number');
    assert.deepEqual(c1, { id: 'c1', agentId: 'main', name: 'peek', kind: 'read', summary: 'peek at a.ts …', paths: ['a.ts'], input: { path: 'a.ts' }, state: 'completed', output: 'seen a.ts' });
    // An unknown tool, an input the tool refuses: described by the input alone, no kind, no paths.
    assert.deepEqual([all.get('c3')?.kind, all.get('c3')?.summary, all.get('c3')?.paths, all.get('c3')?.state], [undefined, 'x: 1', [], 'error']);
    assert.match(String(all.get('c3')?.output), /^Unknown tool "nope"/);
    assert.deepEqual([all.get('c4')?.kind, all.get('c4')?.summary, all.get('c4')?.state], ['read', '', 'error']);
    assert.match(String(all.get('c4')?.output), /needs "path"/);
  });

  it('a PreToolUse hook\'s new input: parsed again, and the running patch says what runs', async () => {
    const peek = countingTool();
    const model = new ScriptedModel().script('default', { toolUses: [{ id: 'r1', name: 'peek', input: { path: 'a.ts' } }] }).script('default', { text: 'done' });
    const { ports, baseTools, hooks, events } = makeRun(model, { baseTools: new ToolRegistry([peek]) });
    hooks.on('PreToolUse', () => ({ decision: 'allow', input: { path: 'safe.ts' } }));
    await runAgent(spec(baseTools), ports, new AbortController().signal);
    assert.equal(peek.parses, 2);
    const running = patches(events).find((e) => e.state === 'running');
    assert.ok(running && 'summary' in running);
    assert.deepEqual([running.summary, running.paths, running.input], ['peek at safe.ts …', ['safe.ts'], { path: 'safe.ts' }]);
    assert.deepEqual(records(events).get('r1')?.input, { path: 'safe.ts' });
    assert.equal(records(events).get('r1')?.output, 'seen safe.ts');
  });

  it('a call its tool cannot describe is not run (its paths unknown, nothing confines it)', async () => {
    const peek = countingTool();
    let ran = 0;
    const mute = { ...peek, describe: (): never => { throw new Error('no words'); }, execute: async () => (ran++, { content: 'ran' }) };
    const model = new ScriptedModel().script('default', { toolUses: [{ id: 'm1', name: 'peek', input: { path: '/etc/passwd' } }] }).script('default', { text: 'done' });
    const { ports, baseTools, events } = makeRun(model, { baseTools: new ToolRegistry([mute]) });
    await runAgent(spec(baseTools), ports, new AbortController().signal);
    assert.equal(ran, 0);
    const record = records(events).get('m1');
    assert.deepEqual([record?.state, record?.summary, record?.paths], ['error', 'path: /etc/passwd', []]);
    assert.match(String(record?.output), /could not say what this call does/);
  });
});
