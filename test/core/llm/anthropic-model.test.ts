/**
 * The Anthropic ModelPort against the local Messages-API server, through the real SDK: streaming, tool_use
 * assembly, usage, auth headers, SDK retries, harness retries (stream error event, idle watchdog), abort,
 * and the routing of interleaved requests.
 */
import assert from 'node:assert/strict';
import { createAnthropicModel, type AnthropicModelOptions } from '../../../src/core/llm/anthropic-model';
import { ModelError, type ModelRequest, type ToolSchema } from '../../../src/core/llm/types';
import { lastToolResults, reply, startMessagesApiServer, systemText, type MessagesApiServer } from '../../fixtures/messages-api-server';

const READ_TOOL: ToolSchema = {
  name: 'read_file',
  description: 'Read a file',
  input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

const request = (text: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'claude-test',
  maxTokens: 1024,
  system: 'You are a test.',
  messages: [{ role: 'user', content: text }],
  tools: [READ_TOOL],
  ...extra,
});

async function rejection(p: Promise<unknown>): Promise<ModelError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ModelError, `expected ModelError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a rejection');
}

describe('anthropic model (real SDK against the local Messages API server)', () => {
  let api: MessagesApiServer;
  const model = (o: AnthropicModelOptions = {}) =>
    createAnthropicModel({ apiKey: 'test-key', baseURL: api.baseURL, maxRetries: 2, streamRetryDelayMs: 5, idleTimeoutMs: 300, ...o });
  const never = () => new AbortController().signal;

  beforeEach(async () => {
    api = await startMessagesApiServer();
  });
  afterEach(async () => {
    await api.close();
  });

  it('streams text, forwarding the deltas, and sends the request as the API expects', async () => {
    api.script(reply.text('Hello from the local server.'));
    const deltas: string[] = [];
    const res = await model().stream(request('hi'), never(), { onTextDelta: (d) => deltas.push(d) });
    assert.equal(res.stopReason, 'end_turn');
    assert.deepEqual(res.content, [{ type: 'text', text: 'Hello from the local server.' }]);
    assert.ok(deltas.length >= 2, 'text arrives in several deltas');
    assert.equal(deltas.join(''), 'Hello from the local server.');
    const [sent] = api.messageRequests();
    assert.ok(sent);
    assert.equal(sent.body.stream, true);
    assert.equal(sent.body.model, 'claude-test');
    assert.equal(sent.body.max_tokens, 1024);
    assert.equal(systemText(sent), 'You are a test.');
    assert.equal(sent.body.tools?.[0]?.name, 'read_file');
    assert.equal(sent.body.tool_choice, undefined, 'auto is the default: not sent');
    assert.equal(sent.headers['authorization'], 'Bearer test-key');
    assert.equal(sent.apiKey, 'test-key');
    api.assertAllConsumed();
  });

  it('assembles tool_use inputs from input_json_delta chunks', async () => {
    const input = { path: 'src/a.ts', nested: { list: [1, 2, 3], quote: 'say "hi"\n' } };
    api.script(reply.toolUse([{ name: 'read_file', input, id: 'toolu_A' }, { name: 'read_file', input: { path: 'b' } }], { text: 'Reading.' }));
    const res = await model().stream(request('read'), never(), {});
    assert.equal(res.stopReason, 'tool_use');
    assert.equal(res.content.length, 3);
    const [text, first, second] = res.content;
    assert.equal(text?.type, 'text');
    assert.ok(first?.type === 'tool_use' && second?.type === 'tool_use');
    assert.equal(first.id, 'toolu_A');
    assert.deepEqual(first.input, input);
    assert.match(second.id, /^toolu_/);
    assert.deepEqual(second.input, { path: 'b' });
    assert.deepEqual(JSON.parse(JSON.stringify(first)), { type: 'tool_use', id: 'toolu_A', name: 'read_file', input }, 'serialises cleanly');
  });

  it('maps usage, cache counters included', async () => {
    api.script(
      reply.text('x', { usage: { input_tokens: 1200, output_tokens: 34, cache_creation_input_tokens: 500, cache_read_input_tokens: 700 } }),
      reply.text('y', { usage: { input_tokens: 5, output_tokens: 2 } }),
    );
    const a = await model().stream(request('u'), never(), {});
    assert.deepEqual(a.usage, { input_tokens: 1200, output_tokens: 34, cache_creation_input_tokens: 500, cache_read_input_tokens: 700 });
    const b = await model().stream(request('u'), never(), {});
    assert.deepEqual(b.usage, { input_tokens: 5, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });

  it("sends tool_choice none with the tools kept, and the tool results as the client built them", async () => {
    api.script(reply.text('Final answer.'));
    await model().stream(
      request('go', {
        toolChoice: 'none',
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'contents', is_error: true }] },
        ],
      }),
      never(),
      {},
    );
    const [sent] = api.messageRequests();
    assert.deepEqual(sent?.body.tool_choice, { type: 'none' });
    assert.equal(sent?.body.tools?.length, 1);
    assert.ok(sent);
    assert.deepEqual(lastToolResults(sent), [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'contents', is_error: true }]);
  });

  it('accepts an auth token (Bearer) and x-api-key; requireKey rejects a wrong key with 401', async () => {
    await api.close();
    api = await startMessagesApiServer({ requireKey: 'right' });
    api.script(reply.text('ok'));
    const res = await createAnthropicModel({ authToken: 'right', baseURL: api.baseURL }).stream(request('t'), never(), {});
    assert.equal(res.stopReason, 'end_turn');
    const raw = await fetch(`${api.baseURL}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'x-api-key': 'right', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'count me' }] }),
    });
    assert.equal(raw.status, 200);
    assert.ok(((await raw.json()) as { input_tokens: number }).input_tokens > 0);
    const err = await rejection(model({ apiKey: 'wrong' }).stream(request('t'), never(), {}));
    assert.equal(err.kind, 'auth');
    assert.equal(err.status, 401);
  });

  it('lets the SDK retry a 529 (retry-after-ms honoured), then succeeds', async () => {
    api.script(reply.overloaded(), reply.text('after overload'));
    const started = Date.now();
    const res = await model().stream(request('o'), never(), {});
    assert.equal(res.content[0]?.type === 'text' && res.content[0].text, 'after overload');
    assert.equal(api.messageRequests().length, 2);
    assert.ok(Date.now() - started < 1000, 'short back-off');
  });

  it('fails fast on 401 with a one-line auth error, without retrying', async () => {
    api.script(reply.authError());
    const onRetry: string[] = [];
    const err = await rejection(model().stream(request('a'), never(), { onRetry: (m) => onRetry.push(m) }));
    assert.equal(err.kind, 'auth');
    assert.equal(err.status, 401);
    assert.ok(!err.message.includes('\n'), 'one line');
    assert.match(err.message, /authentication failed \(401\): invalid x-api-key — check ANTHROPIC_API_KEY/);
    assert.equal(api.messageRequests().length, 1);
    assert.deepEqual(onRetry, []);
  });

  it('a 401 names where the key came from when the host says (the editor: its secret storage, not a variable)', async () => {
    api.script(reply.authError());
    const err = await rejection(createAnthropicModel({ apiKey: 'k', baseURL: api.baseURL, keyHint: 'the key set with “Delegate: Set API Key”' }).stream(request('a'), never(), {}));
    assert.equal(err.message, 'authentication failed (401): invalid x-api-key — check the key set with “Delegate: Set API Key”');
  });

  it('maps 400 to bad_request with the server message, and an exhausted 529 to api', async () => {
    api.script(
      reply.httpError(400, 'invalid_request_error', 'messages: roles must alternate'),
      reply.overloaded(),
      reply.overloaded(),
      reply.streamError('invalid_request_error', 'tool_use ids must be unique'),
    );
    const bad = await rejection(model().stream(request('b'), never(), {}));
    assert.equal(bad.kind, 'bad_request');
    assert.match(bad.message, /400.*messages: roles must alternate/);
    const over = await rejection(model({ maxRetries: 1 }).stream(request('b'), never(), {}));
    assert.equal(over.kind, 'api');
    assert.equal(over.status, 529);
    assert.match(over.message, /529 overloaded_error\): Overloaded/);
    const inStream = await rejection(model().stream(request('b'), never(), {}));
    assert.equal(inStream.kind, 'bad_request', 'an invalid_request_error event is not retried');
    assert.match(inStream.message, /tool_use ids must be unique/);
    api.assertAllConsumed();
  });

  it('retries an `event: error` inside the stream and reports it through onRetry', async () => {
    api.script(reply.streamError('overloaded_error', 'Overloaded', { partialText: 'Partial ' }), reply.text('Complete answer.'));
    const deltas: string[] = [];
    const retries: string[] = [];
    const res = await model().stream(request('e'), never(), { onTextDelta: (d) => deltas.push(d), onRetry: (m) => retries.push(m) });
    assert.equal(res.content[0]?.type === 'text' && res.content[0].text, 'Complete answer.');
    assert.equal(retries.length, 1);
    assert.match(retries[0] ?? '', /overloaded_error: Overloaded.*retrying \(1\/2\)/);
    assert.equal(deltas.join(''), 'Partial Complete answer.', 'the failed attempt\'s deltas came first');
    assert.equal(api.messageRequests().length, 2);
  });

  it('retries a stream whose connection is cut mid-way', async () => {
    api.script(reply.drop({ partialText: 'half' }), reply.text('Whole.'));
    const retries: string[] = [];
    const res = await model().stream(request('d'), never(), { onRetry: (m) => retries.push(m) });
    assert.equal(res.content[0]?.type === 'text' && res.content[0].text, 'Whole.');
    assert.equal(retries.length, 1);
    assert.match(retries[0] ?? '', /^stream failed \(/);
    assert.ok(!retries[0]?.includes('\n'));
  });

  it('aborts an idle stream with the watchdog and retries it', async () => {
    api.script(reply.stall({ partialText: 'thinking…' }), reply.text('Recovered.'));
    const retries: string[] = [];
    const res = await model({ idleTimeoutMs: 300 }).stream(request('s'), never(), { onRetry: (m) => retries.push(m) });
    assert.equal(res.content[0]?.type === 'text' && res.content[0].text, 'Recovered.');
    assert.equal(retries.length, 1);
    assert.match(retries[0] ?? '', /stalled: no data for 300ms/);
  });

  it('counts pings as activity (the SDK hides them): no idle retry while bytes keep coming', async () => {
    api.script(reply.text('slow but alive', { pings: { count: 3, everyMs: 120 } }));
    const retries: string[] = [];
    const res = await model({ idleTimeoutMs: 250 }).stream(request('p'), never(), { onRetry: (m) => retries.push(m) });
    assert.equal(res.content[0]?.type === 'text' && res.content[0].text, 'slow but alive');
    assert.deepEqual(retries, []);
  });

  it('gives up on a stream that keeps stalling with an api error after streamRetries', async () => {
    api.setResponder(() => reply.stall());
    const retries: string[] = [];
    const started = Date.now();
    const err = await rejection(model({ idleTimeoutMs: 150, streamRetries: 2 }).stream(request('s'), never(), { onRetry: (m) => retries.push(m) }));
    assert.equal(err.kind, 'api');
    assert.match(err.message, /stalled.*gave up after 3 attempts/);
    assert.equal(retries.length, 2);
    assert.equal(api.messageRequests().length, 3);
    assert.ok(Date.now() - started < 2000);
  });

  it('rejects promptly with aborted when the caller aborts mid-stream', async () => {
    api.script(reply.text('a long answer that streams slowly, chunk by chunk', { chunkDelayMs: 200 }));
    const ac = new AbortController();
    let abortedAt = 0;
    const p = model({ idleTimeoutMs: 5000 }).stream(request('x'), ac.signal, {
      onTextDelta: () => {
        if (!abortedAt) {
          abortedAt = Date.now();
          ac.abort();
        }
      },
    });
    const err = await rejection(p);
    assert.equal(err.kind, 'aborted');
    assert.ok(Date.now() - abortedAt < 150, `took ${Date.now() - abortedAt}ms`);
    assert.equal(api.messageRequests().length, 1);
    const pre = await rejection(model().stream(request('x'), AbortSignal.abort(), {}));
    assert.equal(pre.kind, 'aborted');
  });

  it('routes interleaved requests of concurrent agents by their first user message', async () => {
    api.route([
      { match: 'CHILD-A', replies: [reply.toolUse({ name: 'read_file', input: { path: 'a' } }, { delayMs: 30 }), reply.text('A done')] },
      { match: 'CHILD-B', replies: [reply.text('B done')] },
      { match: () => true, name: 'parent', replies: [reply.text('parent done')] },
    ]);
    const m = model();
    const childA = async () => {
      const first = await m.stream(request('task CHILD-A: read a'), never(), {});
      const call = first.content.find((b) => b.type === 'tool_use');
      assert.ok(call?.type === 'tool_use');
      return m.stream(
        request('task CHILD-A: read a', {
          messages: [
            { role: 'user', content: 'task CHILD-A: read a' },
            { role: 'assistant', content: first.content },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'A' }] },
          ],
        }),
        never(),
        {},
      );
    };
    const [a, b, p] = await Promise.all([childA(), m.stream(request('task CHILD-B'), never(), {}), m.stream(request('the user prompt'), never(), {})]);
    const text = (r: typeof a) => (r.content[0]?.type === 'text' ? r.content[0].text : '');
    assert.deepEqual([text(a), text(b), text(p)], ['A done', 'B done', 'parent done']);
    assert.deepEqual(api.messageRequests().map((r) => r.route).sort(), ['CHILD-A', 'CHILD-A', 'CHILD-B', 'parent']);
    api.assertAllConsumed();

    // A request nothing answers: HTTP 500 not retried by the SDK, recorded as a failure.
    const err = await rejection(m.stream(request('task CHILD-B again'), never(), {}));
    assert.equal(err.kind, 'api');
    assert.match(err.message, /messages-api-server: route "CHILD-B" ran out of replies/);
    assert.equal(api.messageRequests().length, 5);
    assert.throws(() => api.assertAllConsumed(), /ran out of replies/);
  });

  it('rethrows a host callback error as is, and names the host it cannot reach', async () => {
    api.script(reply.text('some text'));
    const boom = new Error('host bug');
    await assert.rejects(
      model().stream(request('c'), never(), {
        onTextDelta: () => {
          throw boom;
        },
      }),
      (err) => err === boom,
    );
    const closed = api.baseURL;
    await api.close();
    const err = await rejection(createAnthropicModel({ apiKey: 'k', baseURL: closed, maxRetries: 0 }).stream(request('r'), never(), {}));
    assert.equal(err.kind, 'api');
    assert.equal(err.message, `cannot reach ${closed}: Connection error: connect ECONNREFUSED ${closed.slice('http://'.length)}`);
    api = await startMessagesApiServer();
  });

  it('answers non-streaming requests as JSON, and refuses to start without credentials', async () => {
    api.script(reply.toolUse({ name: 'read_file', input: { path: 'j' }, id: 'toolu_J' }));
    const res = await fetch(`${api.baseURL}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const body = (await res.json()) as { content: unknown[]; stop_reason: string; usage: { input_tokens: number } };
    assert.equal(body.stop_reason, 'tool_use');
    assert.deepEqual(body.content, [{ type: 'tool_use', id: 'toolu_J', name: 'read_file', input: { path: 'j' } }]);
    assert.ok(body.usage.input_tokens > 0);
    const err = await rejection(createAnthropicModel({ baseURL: api.baseURL }).stream(request('n'), never(), {}));
    assert.equal(err.kind, 'auth');
    assert.match(err.message, /ANTHROPIC_API_KEY/);
  });
});
