// session.setModel: the editor's user picks another model between prompts (the Chat view's model picker,
// "Delegate: Choose Model"); the conversation goes on, on the new model, with the new model's window.
import assert from 'node:assert/strict';
import { must } from '../kit/must';
import { ScriptedModel } from '../kit/scripted-model';
import { testSession } from '../kit/test-session';

describe('session: setModel between prompts', () => {
  it('the next prompt runs on the new model with the whole conversation; events name it; the window follows', async () => {
    const first = new ScriptedModel().script('default', { text: 'answer one' });
    const second = new ScriptedModel().script('default', { text: 'answer two' });
    const { session, events } = await testSession({ model: first });
    assert.equal(session.context.window, 200_000);

    await session.run('one?', new AbortController().signal);
    session.setModel(second, 'copilot/gpt-test', 64_000);
    assert.equal(session.context.window, 64_000, 'compaction measures against the new model\'s window');
    await session.run('two?', new AbortController().signal);

    first.assertDone();
    second.assertDone();
    const sent = must(second.requests[0]).request;
    assert.equal(sent.model, 'copilot/gpt-test');
    assert.match(JSON.stringify(sent.messages), /one\?.*answer one.*two\?/, 'the conversation went on');
    const started = events.filter((e) => e.type === 'agent_started').map((e) => e.type === 'agent_started' && e.model);
    assert.deepEqual(started, ['claude-test', 'copilot/gpt-test']);
    session.setModel(first, 'claude-test');
    assert.equal(session.context.window, 200_000, 'no window given: from the model table again');
    session.close();
  });

  it('refuses while the main agent runs', async () => {
    const model = new ScriptedModel().script('default', { text: 'late', delayMs: 300 });
    const { session } = await testSession({ model });
    const run = session.run('wait', new AbortController().signal);
    await new Promise((r) => setTimeout(r, 50));
    assert.throws(() => session.setModel(new ScriptedModel(), 'other'), /between prompts/);
    await run;
    model.assertDone();
    session.close();
  });
});
