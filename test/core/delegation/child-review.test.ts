// Review before a result reaches the parent: accept passes it on, edit replaces it, re-run runs a new child
// with the edited prompt on the same task node; the parent only ever sees what the user let through.
import assert from 'node:assert/strict';
import type { ReviewDecision, ReviewRequest } from '../../../src/core/delegation/child-review';
import { firstUserText, ScriptedModel } from '../../kit/scripted-model';
import { applyEvents, createSessionView } from '../../../src/view-model/session-view';
import { must } from '../../kit/must';
import { isChild } from '../../kit/is-child';
import { denyAll, testSession } from '../../kit/test-session';

async function run(decisions: ReviewDecision[], childReplies: string[]) {
  const asked: ReviewRequest[] = [];
  const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'))
    .script('default', { toolUses: [{ name: 'task', input: { prompt: 'Count the tests.', description: 'count' } }] }, (r) => ({ text: `parent got ${JSON.stringify(r.messages.at(-1)?.content)}` }));
  for (const text of childReplies) model.script('child', (r) => ({ text: `${text} (asked: ${firstUserText(r)})` }));
  const { session, events } = await testSession({ model, mode: 'default', approver: denyAll }, { ports: { review: async (req) => (asked.push(req), must(decisions.shift())) } });
  const result = await session.run('go', new AbortController().signal);
  model.assertDone();
  return { result, asked, events };
}

describe('review of subagent results', () => {
  it('accept: the parent gets the result as it was', async () => {
    const { result, asked } = await run([{ action: 'accept' }], ['12 tests']);
    assert.equal(asked.length, 1);
    assert.match(asked[0]?.result ?? '', /^12 tests/);
    assert.match(result.result, /12 tests \(asked: Count the tests\.\)/);
  });

  it('edit: the parent gets the edited text, marked as edited, never the original', async () => {
    const { result } = await run([{ action: 'edit', result: 'There are 14 tests (2 skipped).' }], ['12 tests']);
    assert.match(result.result, /There are 14 tests \(2 skipped\)\.\\n\[This result was edited by the user/);
    assert.doesNotMatch(result.result, /12 tests/);
  });

  it('re-run: a new child runs the edited prompt on the same task node; the parent gets only the re-run', async () => {
    const { result, asked, events } = await run([{ action: 'rerun', prompt: 'Count the tests, skipped ones too.' }, { action: 'accept' }], ['12 tests', '14 tests']);
    assert.equal(asked.length, 2);
    assert.notEqual(asked[0]?.agentId, asked[1]?.agentId);
    assert.match(result.result, /14 tests \(asked: Count the tests, skipped ones too\.\)/);
    assert.doesNotMatch(result.result, /12 tests/);
    const state = createSessionView();
    applyEvents(state, events);
    const tasks = Object.values(state.nodes).filter((n) => n.kind === 'task');
    assert.equal(tasks.length, 1, 'one task node');
    const task = tasks[0];
    assert.equal(task?.kind === 'task' && task.review, 'accepted');
    assert.match(task?.kind === 'task' ? (task.result ?? '') : '', /14 tests/);
  });

  it('send_message: a resumed child\'s reply waits for the same review; the parent gets only what the user let through', async () => {
    const asked: ReviewRequest[] = [];
    const decisions: ReviewDecision[] = [{ action: 'accept' }, { action: 'edit', result: 'REVIEWED: y is in c.ts' }];
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'))
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'Find x.', description: 'finder', name: 'finder' } }] })
      .script('default', { toolUses: [{ name: 'send_message', input: { to: 'finder', message: 'And y?' } }] })
      .script('default', (r) => ({ text: `parent got ${JSON.stringify(r.messages.at(-1)?.content)}` }))
      .script('child', { text: 'x is in a.ts' })
      .script('child', { text: 'RAW: y is in b.ts' });
    const { session, events } = await testSession({ model, mode: 'default', approver: denyAll }, { ports: { review: async (req) => (asked.push(req), must(decisions.shift())) } });
    const result = await session.run('go', new AbortController().signal);
    model.assertDone();
    assert.equal(asked.length, 2, 'the send_message reply was reviewed too');
    assert.equal(asked[1]?.agentId, asked[0]?.agentId);
    assert.equal(asked[1]?.prompt, 'And y?');
    assert.match(asked[1]?.result ?? '', /^RAW: y is in b\.ts/);
    assert.match(result.result, /REVIEWED: y is in c\.ts/);
    assert.doesNotMatch(result.result, /RAW: y is in b\.ts/);
    assert.equal(events.filter((e) => e.type === 'review_requested').length, 2);
  });

  it('send_message re-run: the child is resumed again with the edited message; the parent gets only that reply', async () => {
    const asked: ReviewRequest[] = [];
    const decisions: ReviewDecision[] = [{ action: 'accept' }, { action: 'rerun', prompt: 'And y, in src/ only?' }, { action: 'accept' }];
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'))
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'Find x.', description: 'finder', name: 'finder' } }] })
      .script('default', { toolUses: [{ name: 'send_message', input: { to: 'finder', message: 'And y?' } }] })
      .script('default', (r) => ({ text: `parent got ${JSON.stringify(r.messages.at(-1)?.content)}` }))
      .script('child', { text: 'x is in a.ts' })
      .script('child', { text: 'FIRST: y is in b.ts' })
      .script('child', (r) => ({ text: `SECOND: y is in src/c.ts (asked: ${JSON.stringify(r.messages.at(-1)?.content)})` }));
    const { session } = await testSession({ model, mode: 'default', approver: denyAll }, { ports: { review: async (req) => (asked.push(req), must(decisions.shift())) } });
    const result = await session.run('go', new AbortController().signal);
    model.assertDone();
    assert.equal(asked.length, 3);
    assert.equal(asked[2]?.prompt, 'And y, in src/ only?');
    assert.match(result.result, /SECOND: y is in src\/c\.ts/);
    assert.match(result.result, /in src\/ only\?/);
    assert.doesNotMatch(result.result, /FIRST: y/);
  });
});
