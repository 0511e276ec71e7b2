// The session's rule on prompts, as every host meets it (the editor's controller calls this same session.run):
// an empty prompt or one the window cannot hold throws PromptRefused before any event, and a prompt the API
// refuses as too long anyway fails alone — the next prompt runs, live and in a session resumed from its transcript.
import assert from 'node:assert/strict';
import { contentText, reply, startMessagesApiServer, type MessagesApiServer } from '../../fixtures/messages-api-server';
import { PromptRefused } from '../../../src/core/session';
import { history } from '../../../src/core/session/history';
import { must } from '../../kit/must';
import { testSession } from '../../kit/test-session';

const HUGE = 'a line of a log that someone pasted whole into the prompt box\n'.repeat(40_000);
const userTexts = (api: MessagesApiServer, i: number): string[] => (must(api.messageRequests()[i]).body.messages ?? []).filter((m) => m.role === 'user').map((m) => contentText(m.content));

describe('the prompts a session refuses', () => {
  let api: MessagesApiServer;
  beforeEach(async () => {
    api = await startMessagesApiServer();
  });
  afterEach(() => api.close());

  it('an empty or blank prompt, and one over the window, throw PromptRefused before any event; the next prompt runs alone', async () => {
    api.script(reply.text('Hi.'));
    const { session, events } = await testSession({ api });
    const signal = new AbortController().signal;
    for (const prompt of ['', ' \n\t']) await assert.rejects(session.run(prompt, signal), (err) => err instanceof PromptRefused && err.kind === 'empty');
    await assert.rejects(session.run(HUGE, signal), (err) => err instanceof PromptRefused && err.kind === 'too_long' && /about [\d,]+ tokens \([\d,]+ characters\), and [\d,]+ fit \(a 200,000-token window/.test(err.message));
    assert.deepEqual(events, [], 'nothing said, nothing kept');
    assert.deepEqual(session.history, []);
    assert.equal((await session.run('hello', signal)).status, 'completed');
    assert.deepEqual(userTexts(api, 0), ['hello']);
  });

  it('the window is the session\'s (a smaller model fills sooner): a prompt that fits 200,000 tokens is refused under 20,000', async () => {
    const { session } = await testSession({ api }, { model: { contextWindow: 20_000 } });
    await assert.rejects(session.run('x'.repeat(80_000), new AbortController().signal), (err) => err instanceof PromptRefused && /a 20,000-token window/.test(err.message));
    assert.equal(api.messageRequests().length, 0);
  });

  it('a prompt the API refuses as too long leaves a note, not itself: the next prompt runs, and so does a resumed session', async () => {
    api.script(reply.text('Fine now.'), reply.text('Fine again.'));
    const { session, transcriptRoot } = await testSession({ api }, { model: { contextWindow: 4_000_000 } });
    const signal = new AbortController().signal;
    const failed = await session.run(`why?\n${HUGE}`, signal);
    assert.equal(failed.status, 'error');
    assert.match(failed.error ?? '', /prompt is too long: \d+ tokens > 200000 maximum/);
    const refused = api.messageRequests().length;
    assert.equal((await session.run('and now?', signal)).status, 'completed');
    const texts = userTexts(api, refused);
    assert.equal(texts.length, 1);
    assert.match(must(texts[0]), /^\[The user's last prompt \([\d]+ characters\) is not in this conversation: the API refused it \(.*prompt is too long.*\)\.\]\nand now\?$/);

    const resumed = must(await history(transcriptRoot).resume(session.id));
    assert.ok(JSON.stringify(resumed.history).length < 10_000, 'the transcript gives the note back, not the prompt');
    assert.deepEqual(resumed.history, session.history);
  });
});

describe('an empty text block the model sent', () => {
  let api: MessagesApiServer;
  beforeEach(async () => {
    api = await startMessagesApiServer();
  });
  afterEach(() => api.close());

  it('is not sent back (the API refuses "text content blocks must be non-empty"): the run and the next prompt go on', async () => {
    api.script(
      reply.blocks([{ type: 'text', text: '' }, { type: 'tool_use', id: 'toolu_empty_text', name: 'glob', input: { pattern: '*.md' } }], { stopReason: 'tool_use' }),
      reply.blocks([{ type: 'text', text: ' \n' }, { type: 'text', text: 'No markdown here.' }]),
      reply.text('Still none.'),
    );
    const { session } = await testSession({ api });
    const signal = new AbortController().signal;
    const first = await session.run('any markdown?', signal);
    assert.equal(first.status, 'completed', first.error);
    assert.equal((await session.run('sure?', signal)).status, 'completed');
    const sent = JSON.stringify(must(api.messageRequests().at(-1)).body.messages);
    assert.doesNotMatch(sent, /"text":"\s*"/);
  });
});
