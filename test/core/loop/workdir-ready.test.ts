/**
 * An agent whose WORKDIR is still being made (spec.workdirReady: an isolated child's worktree checkout): its first
 * request goes out at once, nothing acts on a reply before the folder is verified, and a folder that fails aborts
 * the request in flight and ends the run as an error with the reason, no tool run.
 */
import assert from 'node:assert/strict';
import { runAgent } from '../../../src/core/loop/loop';
import type { AgentSpec } from '../../../src/core/loop/types';
import { ToolRegistry } from '../../../src/core/tools/types';
import { ScriptedModel } from '../../kit/scripted-model';
import { fakeTool, makeRun } from '../../kit/run-services';

const spec = (tools: ToolRegistry, workdirReady: Promise<void>): AgentSpec => ({
  identity: { agentId: 'sub1', parentId: 'main', depth: 1 },
  systemPrompt: 'CHILD SYSTEM',
  history: [],
  prompt: 'look',
  tools,
  maxTurns: 5,
  workdirReady,
});

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (err: Error) => void } {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('agent loop: a WORKDIR still being made', () => {
  it('the first request goes out before the folder is ready; its tool runs only once it is', async () => {
    const ready = deferred();
    const order: string[] = [];
    const model = new ScriptedModel().script(
      'default',
      () => {
        order.push('request');
        setTimeout(() => {
          order.push('ready');
          ready.resolve();
        }, 50);
        return { toolUses: [{ name: 'look', input: {} }] };
      },
      { text: 'done' },
    );
    const tools = new ToolRegistry([fakeTool('look', 'read', () => (order.push('tool'), 'seen'))]);
    const { ports } = makeRun(model, { baseTools: tools });
    const result = await runAgent(spec(tools, ready.promise), ports, new AbortController().signal);
    model.assertDone();
    assert.equal(result.status, 'completed');
    assert.deepEqual(order, ['request', 'ready', 'tool']);
  });

  it('a folder failing while the request is in flight: the request is aborted, no tool runs, the run ends as an error saying why', async () => {
    const ready = deferred();
    let ran = false;
    const model = new ScriptedModel().script('default', () => {
      setTimeout(() => ready.reject(new Error('git worktree add failed: disk full')), 20);
      return { toolUses: [{ name: 'look', input: {} }], delayMs: 30_000 };
    });
    const tools = new ToolRegistry([fakeTool('look', 'read', () => ((ran = true), 'seen'))]);
    const { ports, events } = makeRun(model, { baseTools: tools });
    const t0 = Date.now();
    const result = await runAgent(spec(tools, ready.promise), ports, new AbortController().signal);
    assert.ok(Date.now() - t0 < 10_000, 'the request in flight was aborted, not waited for');
    assert.equal(result.status, 'error');
    assert.equal(result.error, 'its folder could not be made: git worktree add failed: disk full');
    assert.equal(ran, false);
    assert.equal(events.filter((e) => e.type === 'tool_call').length, 0);
  });

  it('a folder that failed before the first request: no request is sent', async () => {
    const model = new ScriptedModel();
    const tools = new ToolRegistry([]);
    const { ports } = makeRun(model, { baseTools: tools });
    const failed = Promise.reject(new Error('the repository has no commit yet'));
    const result = await runAgent(spec(tools, failed), ports, new AbortController().signal);
    assert.equal(model.requests.length, 0);
    assert.equal(result.status, 'error');
    assert.match(result.error ?? '', /no commit yet/);
  });
});
