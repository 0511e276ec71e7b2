// Replies that used to be mishandled: a tool input that is not JSON (real SDK, local server), two calls
// with one id, an answer cut by max_tokens, a refusal, an empty answer.
import assert from 'node:assert/strict';
import { runAgent } from '../../../src/core/loop/loop';
import { createAnthropicModel } from '../../../src/core/llm/anthropic-model';
import { ScriptedModel } from '../../kit/scripted-model';
import type { ModelPort } from '../../../src/core/llm/types';
import { lastToolResults, reply, startMessagesApiServer, type MessagesApiServer } from '../../fixtures/messages-api-server';
import { must } from '../../kit/must';
import { makeRun } from '../../kit/run-services';

function run(model: ModelPort, prompt = 'go') {
  const t = makeRun(model);
  const spec = { identity: { agentId: 'main', parentId: null, depth: 0 }, systemPrompt: 'sys', history: [], prompt, tools: t.baseTools, maxTurns: 10 };
  return { t, result: runAgent(spec, t.ports, new AbortController().signal) };
}

describe('agent loop: replies that used to go wrong', () => {
  let api: MessagesApiServer;
  beforeEach(async () => {
    api = await startMessagesApiServer();
  });
  afterEach(() => api.close());

  it('a tool input that is not valid JSON becomes an error result for that call; the run goes on (one request, not three)', async () => {
    api.script(
      reply.toolUse([
        { name: 'read_file', rawInput: '{"path": "a.txt", oops}' },
        { name: 'read_file', input: { path: 'b.txt' } },
      ]),
      reply.text('recovered'),
    );
    const model = createAnthropicModel({ apiKey: 'k', baseURL: api.baseURL, streamRetryDelayMs: 1 });
    const { result } = run(model);
    const r = await result;
    assert.equal(r.status, 'completed', r.error);
    assert.equal(r.result, 'recovered');
    assert.equal(api.messageRequests().length, 2, 'the turn was not re-requested');
    const [bad, good] = lastToolResults(must(api.messageRequests()[1]));
    assert.equal(bad?.is_error, true);
    assert.match(String(bad?.content), /Invalid input for read_file: it is not valid JSON \(\{"path": "a\.txt", oops\}\)/);
    assert.equal(good?.content, 'contents of b.txt');
    api.assertAllConsumed();
  });

  it('answers every block of two calls sharing one id, in order, and says the id was reused', async () => {
    const model = new ScriptedModel().script(
      'default',
      { toolUses: [{ name: 'read_file', input: { path: 'a' }, id: 'toolu_same' }, { name: 'bash', input: { command: 'ls' }, id: 'toolu_same' }] },
      { text: 'ok' },
    );
    const { result } = run(model);
    assert.equal((await result).status, 'completed');
    const sent = model.requests[1]?.request.messages.at(-1)?.content;
    assert.ok(Array.isArray(sent));
    assert.equal(sent.length, 2);
    assert.deepEqual(sent.map((b) => (b.type === 'tool_result' ? String(b.content).slice(0, 40) : '')), ['contents of a', 'Not run: the tool_use id toolu_same was ']);
  });

  it('continues an answer cut by max_tokens (joined, not returned half)', async () => {
    const model = new ScriptedModel().script('default', { text: 'The answer is', stopReason: 'max_tokens' }, { text: ' forty', stopReason: 'max_tokens' }, { text: '-two.' });
    const { result } = run(model);
    const r = await result;
    assert.equal(r.status, 'completed');
    assert.equal(r.result, 'The answer is forty-two.');
    assert.match(JSON.stringify(model.requests[1]?.request.messages.at(-1)), /cut off by the output token limit/);
    model.assertDone();
  });

  it('a refusal ends with status error and the reason; an empty answer is an error too', async () => {
    const refused = await run(new ScriptedModel().script('default', { text: 'I can’t help with that.', stopReason: 'refusal' })).result;
    assert.equal(refused.status, 'error');
    assert.match(refused.error ?? '', /the model refused to answer: I can’t help with that\./);
    const empty = await run(new ScriptedModel().script('default', {})).result;
    assert.equal(empty.status, 'error');
    assert.match(empty.error ?? '', /without an answer/);
  });
});
