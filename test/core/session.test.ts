// A session you can live in, in the core: follow-ups keep everything (a stopped run too), ids and turn
// numbers never repeat, and a session rebuilt from its transcript goes on exactly where it was.
import assert from 'node:assert/strict';
import { must } from '../kit/must';
import { INTERRUPTED_RESULT } from '../../src/core/loop/conversation';
import type { DelegateEvent } from '../../src/core/events';
import { firstUserText, ScriptedModel } from '../kit/scripted-model';
import type { MessageParam, ModelRequest } from '../../src/core/llm/types';
import { ROOT_AGENT_ID } from '../../src/core/session';
import type { ConfigPatch } from '../kit/session-config';
import { listSessions } from '../../src/core/store/session-index';
import { replaySession } from '../../src/core/session/replay';
import { readTranscript } from '../../src/core/store/transcript-reader';
import { isChild } from '../kit/is-child';
import { applyEvents, createSessionView } from '../../src/view-model/session-view';
import { sessionDirs } from '../kit/temp-dirs';
import { testSession } from '../kit/test-session';

const requestText = (r: ModelRequest): string => JSON.stringify(r.messages);

/** A session in `dirs` (shared with a later resume). */
const open = (model: ScriptedModel, dirs: { workdir: string; transcriptRoot: string }, extra: ConfigPatch = {}) => testSession({ ...dirs, model }, extra);

async function resume(model: ScriptedModel, dirs: { workdir: string; transcriptRoot: string }, id: string, extra: ConfigPatch = {}) {
  const events = await readTranscript(dirs.transcriptRoot, id);
  assert.ok(events, 'the transcript exists');
  return open(model, dirs, { ...extra, persistence: { resume: replaySession(id, events, ROOT_AGENT_ID), ...extra.persistence } });
}

describe('session: follow-ups, history and resume', () => {
  it('three prompts each answered in their first turn: all kept, turn numbers continue, ids unique', async () => {
    const dirs = sessionDirs();
    const model = new ScriptedModel().script('default', { text: 'one' }, { text: 'two' }, (req) => ({ text: `three after ${req.messages.length} messages` }));
    const { session, events } = await open(model, dirs);
    for (const prompt of ['first?', 'second?', 'third?']) assert.equal((await session.run(prompt, new AbortController().signal)).status, 'completed');
    assert.deepEqual(events.filter((e) => e.type === 'turn_started').map((e) => e.type === 'turn_started' && e.turn), [1, 2, 3]);
    assert.equal(model.requests[2]?.request.messages.length, 5);
    assert.match(requestText(must(model.requests[2]).request), /first\?.*one.*second\?.*two.*third\?/);
    assert.equal(session.history.length, 6);
    const seqs = events.map((e) => e.seq);
    assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b));
    assert.equal(new Set(seqs).size, seqs.length);
    model.assertDone();
  });

  it('a follow-up after Stop holds the stopped prompt, its partial work and a note; the API gets alternating roles', async () => {
    const dirs = sessionDirs();
    const model = new ScriptedModel()
      .script('default', { text: 'let me look', toolUses: [{ name: 'bash', input: { command: 'sleep 20' } }] })
      .script('default', (req) => ({ text: `seen ${req.messages.length}` }));
    const { session } = await open(model, dirs);
    const stop = new AbortController();
    const first = session.run('refactor everything', stop.signal);
    setTimeout(() => stop.abort(), 150);
    assert.equal((await first).status, 'cancelled');
    const second = await session.run('what did you get done?', new AbortController().signal);
    assert.equal(second.status, 'completed');
    const sent = must(model.requests[1]).request.messages;
    assert.deepEqual(sent.map((m) => m.role), ['user', 'assistant', 'user'], 'consecutive user messages are merged for the API');
    const text = JSON.stringify(sent);
    assert.match(text, /refactor everything/);
    assert.match(text, /let me look/);
    assert.match(text, /Command cancelled/);
    assert.match(text, /This request was stopped before it finished by the user/);
    assert.match(text, /what did you get done\?/);
    model.assertDone();
  });

  it('closes a tool_use left without a result by a dead process when the transcript is replayed', () => {
    const base = { sessionId: 's', time: 1, agentId: ROOT_AGENT_ID, parentId: null };
    const events = [
      { ...base, seq: 1, type: 'agent_started', prompt: 'go', depth: 0, model: 'm' },
      { ...base, seq: 2, type: 'message', message: { role: 'user', content: 'go' } },
      { ...base, seq: 3, type: 'turn_started', turn: 1, forcedFinal: false },
      { ...base, seq: 4, type: 'message', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'make' } }] } },
    ] as DelegateEvent[];
    const state = replaySession('s', events, ROOT_AGENT_ID);
    assert.equal(state.interrupted, true);
    assert.equal(state.lastSeq, 4);
    assert.equal(state.rootTurns, 1);
    const [, , results, note] = state.history;
    assert.deepEqual(results, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: INTERRUPTED_RESULT, is_error: true }] });
    assert.match(JSON.stringify(note), /interrupted: the process ended/);
  });

  it('resumes from the transcript: same id, the parent’s conversation only, seq and turns continue, appended', async () => {
    const dirs = sessionDirs();
    const CANARY = 'CANARY-only-in-the-child';
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'))
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'look', description: 'look around' } }] }, { text: 'the child looked' }, { text: 'noted' })
      .script('child', { text: `found ${CANARY}` });
    const first = await open(model, dirs);
    await first.session.run('investigate', new AbortController().signal);
    await first.session.run('and then?', new AbortController().signal);
    first.session.close();
    const lastSeq = must(first.events.at(-1)).seq;
    const liveHistory = structuredClone(first.session.history);

    const model2 = new ScriptedModel().script('default', { text: 'continuing' });
    const second = await resume(model2, dirs, first.session.id);
    assert.equal(second.session.id, first.session.id);
    assert.deepEqual(second.session.history, liveHistory, 'the replayed conversation is the live one');
    await second.session.run('go on', new AbortController().signal);
    const sent = must(model2.requests[0]).request;
    assert.equal(firstUserText(sent), 'investigate');
    assert.ok(!JSON.stringify(sent).includes(`found ${CANARY}"`) || JSON.stringify(sent).split(CANARY).length === 2, 'only the child’s final report, never its conversation');
    assert.equal(second.events[0]?.seq, lastSeq + 1);
    assert.equal(second.events.find((e) => e.type === 'turn_started')?.type === 'turn_started' && (second.events.find((e) => e.type === 'turn_started') as { turn: number }).turn, 4);
    const all = await readTranscript(dirs.transcriptRoot, first.session.id);
    assert.equal(all?.filter((e) => e.type === 'agent_started' && e.parentId === null).length, 3, 'one transcript, appended');
    const [listed] = await listSessions(dirs.transcriptRoot, { cwd: dirs.workdir });
    assert.equal(listed?.id, first.session.id);
    assert.equal(listed?.title, 'investigate');
    assert.equal(listed?.prompts, 3);
    assert.equal(listed?.status, 'completed');
    model2.assertDone();
  });

  it('a Retry the host wrote: the model gets the written prompt, the prompt event and the transcript\'s agent_started say what the user did', async () => {
    const dirs = sessionDirs();
    const model = new ScriptedModel().script('default', { text: 'again' }, { text: 'plain answer' });
    const { session, events } = await open(model, dirs);
    const retryOf = { agentId: 'agent-7', description: 'Reproduce the flaky test' };
    await session.run('Run the subagent task "Reproduce the flaky test" again.', new AbortController().signal, { retryOf });
    assert.equal(firstUserText(must(model.requests[0]).request), 'Run the subagent task "Reproduce the flaky test" again.');
    assert.deepEqual(events.find((e) => e.type === 'prompt'), { ...must(events.find((e) => e.type === 'prompt')), text: 'Run the subagent task "Reproduce the flaky test" again.', retryOf });
    const saved = must(await readTranscript(dirs.transcriptRoot, session.id)).find((e) => e.type === 'agent_started' && e.parentId === null);
    assert.deepEqual(saved?.type === 'agent_started' && saved.retryOf, retryOf, 'a reopened session shows the Retry too');
    await session.run('plain', new AbortController().signal);
    const plain = events.filter((e) => e.type === 'agent_started' && e.parentId === null).at(-1);
    assert.equal(plain?.type === 'agent_started' && plain.retryOf, undefined);
  });

  it('a handoff the host wrote: the model gets the written prompt; the events, the transcript and a view rebuilt from it show the user\'s words and the agent', async () => {
    const dirs = sessionDirs();
    const model = new ScriptedModel().script('default', { text: 'handed over' });
    const { session, events } = await open(model, dirs);
    const written = 'Hand this over to the "reviewer" agent: start it with the task tool (subagent_type "reviewer").\n\nReview the plan above.';
    const handoff = { agent: 'reviewer', label: 'Review the plan', text: 'Review the plan above.' };
    await session.run(written, new AbortController().signal, { handoff });
    assert.equal(firstUserText(must(model.requests[0]).request), written);
    const live = events.find((e) => e.type === 'prompt');
    assert.deepEqual(live?.type === 'prompt' && [live.text, live.handoff], [written, handoff]);
    const saved = must(await readTranscript(dirs.transcriptRoot, session.id));
    const started = saved.find((e) => e.type === 'agent_started' && e.parentId === null);
    assert.deepEqual(started?.type === 'agent_started' && started.handoff, handoff, 'the transcript keeps it');
    for (const [from, list] of [['the live events', events], ['the transcript', saved]] as const) {
      const view = createSessionView();
      applyEvents(view, list);
      const rows = view.items.map((id) => view.nodes[id]).filter((n) => n?.kind === 'user');
      assert.deepEqual(rows.map((n) => n?.kind === 'user' && [n.text, n.handoff]), [[written, handoff]], from);
    }
  });

  it('lists an interrupted session as interrupted and never reuses an agent id on resume', async () => {
    const dirs = sessionDirs();
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'))
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'wait', description: 'waiter' } }] })
      .script('child', { text: 'never', delayMs: 5000 });
    const { session, events } = await open(model, dirs);
    const stop = new AbortController();
    const running = session.run('start', stop.signal);
    await new Promise((r) => setTimeout(r, 100));
    session.close(); // the process "dies": nothing more is written after this point
    const cut = events.length;
    stop.abort();
    await running;
    const transcript = must(await readTranscript(dirs.transcriptRoot, session.id)).slice(0, cut);
    const state = replaySession(session.id, transcript, ROOT_AGENT_ID);
    const childId = must(events.find((e) => e.type === 'agent_started' && e.parentId !== null)).agentId;
    assert.ok(state.agentIds.has(childId));
  });
});

describe('session: compaction', () => {
  it('a long child whose outputs exceed the window many times completes under the threshold; the parent is untouched', async () => {
    const dirs = sessionDirs();
    const steps = 60;
    const childSizes: number[] = [];
    const model = new ScriptedModel((r) => (r.system.startsWith('You summarize') ? 'summary' : isChild(r) ? 'child' : 'default'));
    model.script('default', { toolUses: [{ name: 'task', input: { prompt: 'read all the logs', description: 'reader' } }] }, (req) => ({ text: `done; parent saw ${req.messages.length} messages` }));
    for (let i = 0; i < steps; i++) {
      model.script('child', (req) => {
        childSizes.push(JSON.stringify(req.messages).length / 4);
        return { toolUses: [{ name: 'bash', input: { command: `head -c 7990 /dev/zero | tr '\\0' x; echo ' #${i}'` } }], usage: { input_tokens: Math.ceil(JSON.stringify(req.messages).length / 4) } };
      });
    }
    model.script('child', { text: 'read them all' });
    for (let i = 0; i < 60; i++) model.script('summary', { text: `summary ${i}: read logs so far` });
    const { session, events } = await open(model, dirs, { model: { contextWindow: 20_000 }, limits: { subagentMaxTurns: 100 } });
    const result = await session.run('summarize the logs', new AbortController().signal);
    assert.equal(result.status, 'completed', result.error);
    const compactions = events.filter((e) => e.type === 'compacted');
    assert.ok(compactions.length >= 2, `compacted ${compactions.length} times`);
    assert.ok(compactions.every((e) => e.agentId !== ROOT_AGENT_ID), 'only the child compacted');
    const total = (steps * 8000) / 4;
    assert.ok(total >= 5 * 20_000, 'outputs total at least 5× the window');
    assert.ok(Math.max(...childSizes) < 20_000 * 0.8 + 1100, `peak child request ~${Math.max(...childSizes)} tokens`);
    assert.match(result.result, /parent saw 3 messages/);
  });

  it('compacts and retries once on "prompt is too long"; replayed history equals the live one', async () => {
    const dirs = sessionDirs();
    const { ModelError } = await import('../../src/core/llm/types');
    const model = new ScriptedModel((r) => (r.system.startsWith('You summarize') ? 'summary' : 'default'))
      .script('default', { text: 'a', toolUses: [{ name: 'bash', input: { command: `head -c 3000 /dev/zero | tr '\\0' y` } }] })
      .script('default', { text: 'b', toolUses: [{ name: 'bash', input: { command: `head -c 3000 /dev/zero | tr '\\0' z` } }] })
      .script('default', { text: 'c', toolUses: [{ name: 'bash', input: { command: 'echo small' } }] })
      .script('default', { text: 'd', toolUses: [{ name: 'bash', input: { command: 'echo small2' } }] })
      .script('default', { error: new ModelError('request rejected (400 invalid_request_error): prompt is too long: 250000 tokens > 200000 maximum', 'bad_request', 400) })
      .script('default', (req) => ({ text: `ok with ${req.messages.length} messages` }))
      .script('summary', { text: 'SUMMARY: y and z were printed' });
    const { session, events } = await open(model, dirs);
    const result = await session.run('print things', new AbortController().signal);
    assert.equal(result.status, 'completed', result.error);
    const compacted = events.find((e) => e.type === 'compacted');
    assert.equal(compacted?.type === 'compacted' && compacted.trigger, 'overflow');
    const retried = must(model.requests.filter((r) => r.route === 'default').at(-1)).request;
    assert.match(JSON.stringify(retried.messages[0]), /SUMMARY: y and z were printed/);
    assert.match(JSON.stringify(retried.messages[0]), /print things/, 'the request being worked on, verbatim');
    const replayed = replaySession(session.id, must(await readTranscript(dirs.transcriptRoot, session.id)), ROOT_AGENT_ID);
    assert.deepEqual(replayed.history, session.history);
    model.assertDone();
  });

  it('compact() between prompts summarizes the root conversation and a resumed session holds the same', async () => {
    const dirs = sessionDirs();
    const model = new ScriptedModel((r) => (r.system.startsWith('You summarize') ? 'summary' : 'default'))
      .script('default', ...['one', 'two', 'three', 'four'].map((n) => ({ text: `${n}: ${'counting slowly and at length. '.repeat(40)}` })))
      .script('summary', { text: 'we counted to four' });
    const { session, events } = await open(model, dirs);
    for (const p of ['1', '2', '3', '4']) await session.run(p, new AbortController().signal);
    const before = session.history.length;
    assert.equal(await session.compact(new AbortController().signal), true);
    assert.ok(session.history.length < before);
    const e = events.find((x) => x.type === 'compacted');
    assert.equal(e?.type === 'compacted' && e.trigger, 'manual');
    const replayed = replaySession(session.id, must(await readTranscript(dirs.transcriptRoot, session.id)), ROOT_AGENT_ID);
    assert.deepEqual(replayed.history, session.history as MessageParam[]);
    model.assertDone();
  });
});
