// Background subagents: task{run_in_background} returns at once, the parent goes on, the report reaches it
// at the start of a later turn (or through task_output), the run does not end while one works, and Stop
// reaches it.
import assert from 'node:assert/strict';
import { ScriptedModel } from '../../kit/scripted-model';
import type { ModelRequest } from '../../../src/core/llm/types';
import { applyEvents, createSessionView } from '../../../src/view-model/session-view';
import { must } from '../../kit/must';
import { isChild } from '../../kit/is-child';
import { testSession } from '../../kit/test-session';

const last = (r: ModelRequest): string => JSON.stringify(r.messages.at(-1));

describe('background subagents', () => {
  it('returns at once; the parent works on; the report arrives at the start of a later turn', async () => {
    const order: string[] = [];
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'))
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'index the repo', description: 'indexer', run_in_background: true } }] })
      .script('default', (r) => (order.push(`parent saw: ${last(r).includes('in the background') ? 'started' : '?'}`), { toolUses: [{ name: 'bash', input: { command: 'sleep 0.4' } }] }))
      .script('default', (r) => (order.push(`parent turn 3 note: ${last(r).includes('Background subagent') ? 'yes' : 'no'}`), { text: 'all done' }))
      .script('child', () => (order.push('child asked'), { text: 'index built', delayMs: 150 }));
    const { session, events } = await testSession({ model });
    const result = await session.run('go', new AbortController().signal);
    assert.equal(result.status, 'completed');
    assert.equal(result.result, 'all done');
    assert.deepEqual([...order].sort(), ['child asked', 'parent saw: started', 'parent turn 3 note: yes']);
    // The parent's second turn started while the child still worked (it answers after 150 ms).
    const parentTurn2 = must(events.find((e) => e.type === 'turn_started' && e.parentId === null && e.turn === 2));
    const childEnd = must(events.find((e) => e.type === 'agent_finished' && e.parentId !== null));
    assert.ok(parentTurn2.seq < childEnd.seq, 'the parent went on before the child finished');
    const third = must(model.requests.filter((r) => r.route === 'default')[2]).request;
    assert.match(last(third), /\[Background subagent [0-9a-f]+ \(\\"indexer\\"\) finished:\]\\nindex built/);
    assert.equal(result.subagents.length, 1);
    const state = createSessionView();
    applyEvents(state, events);
    const task = Object.values(state.nodes).find((n) => n.kind === 'task');
    assert.equal(task?.kind === 'task' && task.status, 'completed');
    assert.equal(task?.kind === 'task' && task.background, true);
    model.assertDone();
  });

  it('a parent that is done waits for a child still working, then goes on with its report', async () => {
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'))
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'slow job', description: 'slow', run_in_background: true } }] })
      .script('default', { text: 'I will wait for it.' })
      .script('default', (r) => ({ text: `final with ${last(r).includes('slow result') ? 'the report' : 'nothing'}` }))
      .script('child', { text: 'slow result', delayMs: 400 });
    const { session } = await testSession({ model });
    const result = await session.run('go', new AbortController().signal);
    assert.equal(result.result, 'final with the report');
    model.assertDone();
  });

  it('task_output checks on a child and waits for it; an unknown id lists the started ones', async () => {
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'))
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'job', description: 'job', run_in_background: true } }] })
      .script('default', (r) => {
        const id = must(/Started subagent ([0-9a-f]+)/.exec(last(r)))[1] as string;
        return { toolUses: [{ name: 'task_output', input: { id } }, { name: 'task_output', input: { id, wait: true } }, { name: 'task_output', input: { id: 'nope' } }] };
      })
      .script('default', (r) => ({ text: last(r) }))
      .script('child', { text: 'job report', delayMs: 200 });
    const { session } = await testSession({ model });
    const result = await session.run('go', new AbortController().signal);
    assert.match(result.result, /is still running/);
    assert.match(result.result, /job report/);
    assert.match(result.result, /No background subagent \\"nope\\"; started so far: [0-9a-f]+/);
    model.assertDone();
  });

  it('Stop reaches a background child: the run ends cancelled, the child with it', async () => {
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'))
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'forever', description: 'forever', run_in_background: true } }] }, { text: 'waiting' })
      .script('child', { toolUses: [{ name: 'bash', input: { command: 'sleep 30' } }] });
    const { session, events } = await testSession({ model });
    const stop = new AbortController();
    const running = session.run('go', stop.signal);
    const t0 = Date.now();
    setTimeout(() => stop.abort(), 400);
    const result = await running;
    assert.ok(Date.now() - t0 < 4000);
    assert.equal(result.status, 'cancelled');
    const childEnd = events.find((e) => e.type === 'agent_finished' && e.parentId !== null);
    assert.equal(childEnd?.type === 'agent_finished' && childEnd.status, 'cancelled');
    assert.equal(session.agents.size, 0);
  });
});
