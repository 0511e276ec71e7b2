// send_message and read_subagent inside a session (issue 16 §1–2): a child the user stopped is resumed only on
// the parent's explicit resume_stopped (and its resume says it was stopped); the resumed child keeps its tree node
// (a new segment in the view); the user's own message (Session.messageSubagent) resumes it too; the pages and
// errors of read_subagent; a message is marked as the parent's, never the user's.
import assert from 'node:assert/strict';
import type { DelegateEvent } from '../../../src/core/events';
import { ScriptedModel } from '../../kit/scripted-model';
import type { ModelRequest } from '../../../src/core/llm/types';
import { ROOT_AGENT_ID } from '../../../src/core/session';
import { replaySession } from '../../../src/core/session/replay';
import { readTranscript } from '../../../src/core/store/transcript-reader';
import { mergeSummary } from '../../../src/core/delegation/child-tools';
import { createReadSubagentTool } from '../../../src/core/delegation/read-subagent-tool';
import { ChildRecords, indexChildren } from '../../../src/core/delegation/child-records';
import type { SubagentSummary } from '../../../src/core/loop/types';
import { applyEvents, createSessionView } from '../../../src/view-model/session-view';
import { emptyUsage } from '../../../src/core/vocabulary';
import { must } from '../../kit/must';
import { isChild } from '../../kit/is-child';
import { testSession } from '../../kit/test-session';
import { waitUntil } from '../../kit/wait';

const last = (r: ModelRequest): string => JSON.stringify(r.messages.at(-1));

/** A session; with `resumeId`, that session of `transcriptRoot` continued. */
async function open(model: ScriptedModel, transcriptRoot?: string, resumeId?: string) {
  const resume = transcriptRoot && resumeId ? replaySession(resumeId, must(await readTranscript(transcriptRoot, resumeId)), ROOT_AGENT_ID) : undefined;
  return testSession({ model, ...(transcriptRoot ? { transcriptRoot } : {}) }, resume ? { persistence: { resume } } : {});
}

describe('send_message and read_subagent in a session', () => {
  it('a child the user stopped stays stopped until the parent says resume_stopped; its resume says it was stopped; same node, segment 2', async () => {
    let childId = '';
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'))
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'slow job', description: 'slow', name: 'slow' } }] })
      .script('default', (r) => {
        childId = must(/\[subagent ([0-9a-f]+) \\"slow\\"/.exec(last(r)))[1] as string;
        assert.match(last(r), /The user stopped this subagent/);
        return { toolUses: [{ name: 'send_message', input: { to: 'slow', message: 'go on' } }] };
      })
      .script('default', (r) => {
        assert.match(last(r), /The user stopped [0-9a-f]+ \\"slow\\".*resume_stopped: true/);
        return { toolUses: [{ name: 'send_message', input: { to: childId, message: 'the user says go on', resume_stopped: true } }] };
      })
      .script('default', (r) => ({ text: `parent got: ${last(r).includes('resumed report') ? 'the report' : 'nothing'}` }))
      .script('child', { toolUses: [{ name: 'bash', input: { command: 'sleep 30' } }] })
      .script('child', (r) => {
        const text = last(r);
        assert.match(text, /You were stopped by the user before you finished/);
        assert.match(text, /not from the user/);
        assert.match(text, /the user says go on/);
        return { text: 'resumed report' };
      });
    const { session, events } = await open(model);
    const running = session.run('go', new AbortController().signal);
    // Stop the child (only it) once its bash call runs.
    await waitUntil(() => events.some((e) => e.type === 'tool_call' && e.state === 'running' && e.name === 'bash'), 'the child runs bash', 4000);
    const child = must(session.agents.running().find((a) => a.identity.parentId !== null));
    assert.ok(session.cancel(child.identity.agentId));
    const result = await running;
    assert.equal(result.result, 'parent got: the report');
    model.assertDone();
    const starts = events.filter((e) => e.type === 'agent_started' && e.agentId === childId);
    assert.equal(starts.length, 2);
    assert.equal(starts[1]?.type === 'agent_started' && starts[1].segment, 2);
    assert.equal(starts[1]?.type === 'agent_started' && starts[1].resumedBy, 'parent');
    const state = createSessionView();
    applyEvents(state, events);
    const tasks = Object.values(state.nodes).filter((n) => n.kind === 'task');
    assert.equal(tasks.length, 1, 'one node for both segments');
    const task = must(tasks[0]);
    assert.ok(task.kind === 'task');
    assert.equal(task.status, 'completed');
    assert.equal(task.segments, 2);
    // The node's figures add both segments up, as the JSON's subagents[] entry does.
    const finishes = events.filter((e) => e.type === 'agent_finished' && e.agentId === childId);
    assert.equal(finishes.length, 2);
    const sum = (f: (e: (typeof finishes)[number]) => number) => finishes.reduce((n, e) => n + f(e), 0);
    assert.equal(task.toolCalls, sum((e) => (e.type === 'agent_finished' ? e.toolCalls : 0)));
    assert.equal(task.tokens.output, sum((e) => (e.type === 'agent_finished' ? e.usage.output_tokens : 0)));
    assert.equal(task.turns, sum((e) => (e.type === 'agent_finished' ? e.turns : 0)));
    assert.equal(task.name, 'slow');
    assert.equal(task.prompt, 'slow job');
    assert.equal(task.result, 'resumed report');
    assert.equal(result.subagents.length, 1);
    assert.equal(result.subagents[0]?.segments, 2);
    session.close();
  });

  it('the user messages a finished child (Session.messageSubagent), in a later process too; a bad id throws', async () => {
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'))
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'count files', description: 'counter', name: 'counter' } }] }, { text: 'done' })
      .script('child', { text: 'there are 3' }, (r) => {
        assert.equal(r.messages.length, 3);
        assert.match(JSON.stringify(r.messages[1]), /there are 3/);
        assert.equal(last(r), JSON.stringify({ role: 'user', content: 'and now?' }));
        return { text: 'now 4' };
      }, { text: 'later 5' });
    const first = await open(model);
    await first.session.run('go', new AbortController().signal);
    const again = await first.session.messageSubagent('counter', 'and now?', new AbortController().signal);
    assert.ok(again !== 'queued' && again.result === 'now 4');
    await assert.rejects(first.session.messageSubagent('nobody', 'hi', new AbortController().signal), /no subagent "nobody" in this session/);
    first.session.close();
    // A later process: the records and the conversation come back from the transcript.
    const second = await open(model, first.transcriptRoot, first.session.id);
    const later = await second.session.messageSubagent('counter', 'once more', new AbortController().signal);
    assert.ok(later !== 'queued' && later.result === 'later 5');
    const req = must(model.requests.filter((r) => r.route === 'child').at(-1)).request;
    assert.equal(req.messages.length, 5);
    const resumed = second.events.find((e) => e.type === 'agent_started');
    assert.equal(resumed?.type === 'agent_started' && resumed.segment, 3);
    assert.equal(resumed?.type === 'agent_started' && resumed.resumedBy, 'user');
    second.session.close();
    model.assertDone();
  });

  it('send_message{run_in_background}: returns at once; the resumed child\'s report arrives as a background note', async () => {
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'))
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'draft it', description: 'drafter', name: 'drafter' } }] })
      .script('default', { toolUses: [{ name: 'send_message', input: { to: 'drafter', message: 'now polish it', run_in_background: true } }] })
      .script('default', (r) => {
        assert.match(last(r), /Resumed subagent [0-9a-f]+ \\"drafter\\" .*in the background/);
        return { text: 'waiting for the polish' };
      })
      .script('default', (r) => ({ text: `final: ${last(r).includes('polished draft') ? 'with the polish' : 'without'}` }))
      .script('child', { text: 'rough draft' }, { text: 'polished draft', delayMs: 200 });
    const { session } = await open(model);
    const result = await session.run('go', new AbortController().signal);
    assert.equal(result.result, 'final: with the polish');
    model.assertDone();
    session.close();
  });
});

describe('child records, summaries, read_subagent input', () => {
  it('names are unique: a reused one is refused with the holder; ids are not names; an unfinished child is indexed as cancelled', () => {
    const ev = (seq: number, agentId: string, body: Record<string, unknown>): DelegateEvent => ({ seq, time: seq, sessionId: 's', agentId, parentId: 'main', ...body }) as DelegateEvent;
    const events = [ev(1, 'aaaa', { type: 'agent_started', prompt: 'p', depth: 1, model: 'm', name: 'one', description: 'first' }), ev(2, 'bbbb', { type: 'agent_started', prompt: 'q', depth: 1, model: 'm' }), ev(3, 'aaaa', { type: 'agent_finished', status: 'cancelled', result: '', turns: 1, toolCalls: 0, usage: emptyUsage(), durationMs: 1, error: 'stopped by the user' })];
    const seed = indexChildren(events);
    assert.deepEqual(seed.map((r) => [r.id, r.status, r.stoppedByUser]), [['aaaa', 'cancelled', true], ['bbbb', 'cancelled', false]]);
    const records = new ChildRecords(() => '/nonexistent', seed);
    assert.equal(records.find('one')?.id, 'aaaa');
    assert.match(must(records.claimName('one', 'cccc')), /a subagent named "one" already exists in this session: aaaa \(first\)/);
    assert.match(must(records.claimName('bbbb', 'cccc')), /already a subagent's id/);
    assert.equal(records.claimName('two', 'cccc'), undefined);
    assert.equal(records.claimName('two', 'cccc'), undefined, 'the holder may claim its own name again');
  });

  it('mergeSummary folds a resumed child into one entry, its figures added up', () => {
    const s = (turns: number, result: string): SubagentSummary => ({ id: 'a', parentId: 'main', description: 'd', status: 'completed', num_turns: turns, tool_calls: turns, usage: { ...emptyUsage(), output_tokens: 10 }, result, duration_ms: 5, agent_type: 'general-purpose', model: 'm' });
    const list: SubagentSummary[] = [];
    mergeSummary(list, s(2, 'first'));
    mergeSummary(list, s(3, 'second'));
    assert.equal(list.length, 1);
    assert.deepEqual([list[0]?.num_turns, list[0]?.tool_calls, list[0]?.usage.output_tokens, list[0]?.duration_ms, list[0]?.result, list[0]?.segments], [5, 5, 20, 10, 'second', 2]);
  });

  it('read_subagent checks its input: what, offset, limit (capped at 100)', () => {
    const tool = createReadSubagentTool({ agentId: 'main', parentId: null, depth: 0 }, { find: () => undefined, childrenOf: () => [], page: async () => ({ content: '' }) });
    assert.deepEqual(tool.parse({ id: 'x', what: 'calls', limit: 500 }), { ok: true, input: { id: 'x', what: 'calls', offset: 0, limit: 100, diff: false } });
    const error = (raw: unknown): string => {
      const parsed = tool.parse(raw);
      return parsed.ok ? '' : parsed.error;
    };
    assert.match(error({ id: 'x', what: 'calls', offset: -1 }), /"offset" must be an integer ≥ 0/);
    assert.match(error({ id: 'x', what: 'all' }), /"what" must be one of "calls", "files", "transcript"/);
    assert.match(error({ what: 'calls' }), /needs "id"/);
  });
});
