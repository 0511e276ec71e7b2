// A session's exit paths: shutdown kills every process group its bash calls started (even ones that
// ignore SIGTERM) and records each unfinished agent once; cancel(id) stops one subagent only.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedModel } from '../kit/scripted-model';
import type { DelegateEvent } from '../../src/core/events';
import { testSession } from '../kit/test-session';
import { isAlive } from '../kit/processes';
import { waitUntil } from '../kit/wait';

/** These commands write `$!` for the test to watch: a host pid only without the sandbox's pid namespace. */
const NO_SANDBOX = { mode: 'off' as const, allowNetwork: false };



function readLines(file: string): DelegateEvent[] {
  return readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as DelegateEvent);
}

describe('session shutdown', () => {

  it('shutdownNow kills a group that ignores SIGTERM and records the interruption once', async () => {
    const model = new ScriptedModel().script('default', { toolUses: [{ name: 'bash', input: { command: `trap '' TERM; sleep 300 & echo $! > s.pid; wait` } }] });
    const { session, workdir } = await testSession({ model }, { tools: { sandbox: NO_SANDBOX } });
    const running = session.run('go', new AbortController().signal);
    await waitUntil(() => existsSync(join(workdir, 's.pid')) && readFileSync(join(workdir, 's.pid'), 'utf8').trim() !== '', 'the command writes its pid');
    const pid = Number(readFileSync(join(workdir, 's.pid'), 'utf8'));
    assert.equal(session.processes.size, 1);
    session.shutdownNow('test ended');
    await waitUntil(() => !isAlive(pid), 'the sleep is killed', 1000);
    const result = await running;
    assert.equal(result.status, 'cancelled');
    const ends = readLines(session.store.sessionFile).filter((e) => e.type === 'agent_finished');
    assert.equal(ends.length, 1, 'recorded once, not again by the loop');
    assert.equal(ends[0]?.type === 'agent_finished' && ends[0].error, 'interrupted: test ended');
    assert.equal(session.agents.size, 0);
    assert.equal(session.processes.size, 0);
  });

  it('shutdown cancels the run, TERMs then KILLs, and leaves nothing listed', async () => {
    const model = new ScriptedModel().script('default', { toolUses: [{ name: 'bash', input: { command: `trap '' TERM; sleep 300 & echo $! > s.pid; wait` } }] });
    const { session, workdir } = await testSession({ model }, { tools: { sandbox: NO_SANDBOX } });
    const running = session.run('go', new AbortController().signal);
    await waitUntil(() => existsSync(join(workdir, 's.pid')) && readFileSync(join(workdir, 's.pid'), 'utf8').trim() !== '', 'the command writes its pid');
    const pid = Number(readFileSync(join(workdir, 's.pid'), 'utf8'));
    const t0 = Date.now();
    await session.shutdown('editor closed', 300);
    assert.ok(Date.now() - t0 < 2000);
    assert.equal(isAlive(pid), false);
    assert.equal((await running).status, 'cancelled');
    assert.equal(session.processes.size, 0);
    const ends = readLines(session.store.sessionFile).filter((e) => e.type === 'agent_finished');
    assert.equal(ends.length, 1);
  });

  it('cancel(id) stops one subagent: the parent gets a result saying the user stopped it, with what it had said, and goes on', async () => {
    const route = (r: { messages: { content: unknown }[] }): string => JSON.stringify(r.messages[0]?.content).includes('SLOW') ? 'slow' : JSON.stringify(r.messages[0]?.content).includes('FAST') ? 'fast' : 'default';
    const model = new ScriptedModel(route)
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'SLOW job', description: 'slow' } }, { name: 'task', input: { prompt: 'FAST job', description: 'fast' } }] }, (req) => ({ text: `parent saw: ${JSON.stringify(req.messages.at(-1)?.content)}` }))
      .script('slow', { text: 'looked at half of it', toolUses: [{ name: 'bash', input: { command: 'sleep 30' } }] })
      .script('fast', { text: 'fast done', delayMs: 100 });
    const { session, events } = await testSession({ model });
    const running = session.run('fan out', new AbortController().signal);
    await waitUntil(() => events.some((e) => e.type === 'tool_call' && e.state === 'running' && e.name === 'bash'), 'the slow child runs bash');
    const slow = events.find((e) => e.type === 'agent_started' && e.description === 'slow');
    const t0 = Date.now();
    assert.equal(session.cancel(slow?.agentId ?? ''), true);
    await waitUntil(() => events.some((e) => e.type === 'agent_finished' && e.agentId === slow?.agentId), 'the slow child ends');
    assert.ok(Date.now() - t0 < 2000);
    const result = await running;
    assert.equal(result.status, 'completed');
    assert.match(result.result, /The user stopped this subagent/);
    assert.match(result.result, /looked at half of it/);
    assert.match(result.result, /fast done/);
    const slowEnd = events.find((e) => e.type === 'agent_finished' && e.agentId === slow?.agentId);
    assert.equal(slowEnd?.type === 'agent_finished' && slowEnd.error, 'stopped by the user');
    assert.equal(session.cancel('nope'), false);
    model.assertDone();
  });
});
