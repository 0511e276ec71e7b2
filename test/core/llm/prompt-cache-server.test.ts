/**
 * The local server's prompt cache (test/fixtures/prompt-cache.ts) follows the API's documented rules: prefix
 * order, keys on exact bytes, the per-model minimum, at most 4 breakpoints, the 20-block look-back, the TTL,
 * entries readable only once the response that wrote them has begun, and the usage split.
 */
import assert from 'node:assert/strict';
import { minimumCacheableTokens, PromptCache } from '../../fixtures/prompt-cache';
import { reply, startMessagesApiServer } from '../../fixtures/messages-api-server';

const CC = { type: 'ephemeral' };
/** A tool definition of about `tokens` tokens (characters / 4). */
const tool = (name: string, tokens = 300) => ({ name, description: 'x'.repeat(tokens * 4), input_schema: { type: 'object' } });
const text = (t: string, cached = false) => ({ type: 'text', text: t, ...(cached ? { cache_control: CC } : {}) });

function body(o: { tools?: unknown[]; system?: unknown; messages?: unknown[]; model?: string }): Record<string, unknown> {
  return { model: o.model ?? 'claude-sonnet-5-5', max_tokens: 100, tools: o.tools ?? [], system: o.system ?? [], messages: o.messages ?? [{ role: 'user', content: 'hi' }] };
}

/** Evaluates and commits at once (the response began). */
function send(cache: PromptCache, b: Record<string, unknown>, total = 100_000) {
  const v = cache.evaluate(b, total);
  assert.ok(v.ok, v.ok ? '' : v.message);
  v.commit();
  return v.usage;
}

describe('local prompt cache (the API caching rules)', () => {
  const plain: Record<string, unknown>[] = [tool('a'), tool('b'), tool('c'), tool('d')];
  const tools = [...plain.slice(0, 3), { ...tool('d'), cache_control: CC }];

  it('writes at a breakpoint, then reads the same prefix; input_tokens excludes both', () => {
    const cache = new PromptCache();
    const first = send(cache, body({ tools }), 2000);
    assert.ok(first.cache_creation_input_tokens >= 1200);
    assert.equal(first.cache_read_input_tokens, 0);
    assert.equal(first.input_tokens, 2000 - first.cache_creation_input_tokens);
    const second = send(cache, body({ tools, messages: [{ role: 'user', content: 'another question' }] }), 2000);
    assert.equal(second.cache_read_input_tokens, first.cache_creation_input_tokens);
    assert.equal(second.cache_creation_input_tokens, 0);
    assert.equal(second.input_tokens, 2000 - second.cache_read_input_tokens);
  });

  it('keys on exact bytes: a reordered tool list or a changed schema misses; moving cache_control does not', () => {
    const cache = new PromptCache();
    send(cache, body({ tools }));
    const reordered = [tools[1], tools[0], tools[2], tools[3]];
    assert.equal(send(cache, body({ tools: reordered })).cache_read_input_tokens, 0);
    const changed = [...tools.slice(0, 3), { ...tool('d'), input_schema: { type: 'object', properties: {} }, cache_control: CC }];
    assert.equal(send(cache, body({ tools: changed })).cache_read_input_tokens, 0);
    // The same tools, the breakpoint now on the system prompt: the look-back finds the tools entry.
    const moved = send(cache, body({ tools: plain, system: [text('You are a test.', true)] }));
    assert.ok(moved.cache_read_input_tokens >= 1200, JSON.stringify(moved));
  });

  it('a changed tool_choice misses from the messages on, but still reads tools and system', () => {
    const cache = new PromptCache();
    const long = [{ role: 'user', content: [text('q'.repeat(8000), true)] }];
    const first = send(cache, body({ tools, system: [text('sys', true)], messages: long }));
    const forced = send(cache, { ...body({ tools, system: [text('sys', true)], messages: long }), tool_choice: { type: 'none' } });
    assert.ok(forced.cache_read_input_tokens > 1000 && forced.cache_read_input_tokens < first.cache_creation_input_tokens, JSON.stringify(forced));
  });

  it('does not cache a prefix under the model’s minimum (1,024 by default, 4,096 for Haiku 4.5)', () => {
    assert.equal(minimumCacheableTokens('claude-sonnet-5-5'), 1024);
    assert.equal(minimumCacheableTokens('claude-haiku-4-5-20251001'), 4096);
    assert.equal(minimumCacheableTokens('some-other-model'), 1024);
    const cache = new PromptCache();
    const small = [{ ...tool('a', 500), cache_control: CC }];
    assert.equal(send(cache, body({ tools: small })).cache_creation_input_tokens, 0);
    assert.equal(cache.size, 0);
    assert.equal(send(cache, body({ tools, model: 'claude-haiku-4-5' })).cache_creation_input_tokens, 0);
  });

  it('refuses more than 4 breakpoints with the API’s message', () => {
    const cache = new PromptCache();
    const five = [tool('a'), tool('b')].map((t) => ({ ...t, cache_control: CC }));
    const v = cache.evaluate(body({ tools: five, system: [text('s', true), text('t', true)], messages: [{ role: 'user', content: [text('q', true)] }] }), 1000);
    assert.ok(!v.ok);
    assert.equal(v.message, 'A maximum of 4 blocks with cache_control may be provided. Found 5.');
  });

  it('looks back 20 blocks before a breakpoint, and no further', () => {
    const cache = new PromptCache();
    const turn = (n: number) => Array.from({ length: n }, (_, i) => text(`block ${i}`));
    const history = [{ role: 'user', content: [...turn(1), text('start', true)] }];
    send(cache, body({ tools: plain, messages: history }));
    const near = [{ role: 'user', content: [...turn(1), text('start')] }, { role: 'assistant', content: turn(10) }, { role: 'user', content: [...turn(9), text('end', true)] }];
    assert.ok(send(cache, body({ tools: plain, messages: near })).cache_read_input_tokens > 0);
    const cache2 = new PromptCache();
    send(cache2, body({ tools: plain, messages: history }));
    const far = [{ role: 'user', content: [...turn(1), text('start')] }, { role: 'assistant', content: turn(11) }, { role: 'user', content: [...turn(10), text('end', true)] }];
    assert.equal(send(cache2, body({ tools: plain, messages: far })).cache_read_input_tokens, 0);
  });

  it('expires an entry 5 minutes after its last use (1 hour with ttl 1h), a read refreshing it', () => {
    let now = 0;
    const cache = new PromptCache({ now: () => now });
    send(cache, body({ tools }));
    now += 4 * 60_000;
    assert.ok(send(cache, body({ tools })).cache_read_input_tokens > 0);
    now += 4 * 60_000; // 8 minutes after the write, 4 after the read
    assert.ok(send(cache, body({ tools })).cache_read_input_tokens > 0);
    now += 6 * 60_000;
    assert.equal(send(cache, body({ tools })).cache_read_input_tokens, 0);
    const hour = [...tools.slice(0, 3), { ...tool('d'), cache_control: { type: 'ephemeral', ttl: '1h' } }];
    const written = send(cache, body({ tools: hour, model: 'claude-opus-5' }));
    assert.equal(written.cache_creation.ephemeral_1h_input_tokens, written.cache_creation_input_tokens);
    now += 50 * 60_000;
    assert.ok(send(cache, body({ tools: hour, model: 'claude-opus-5' })).cache_read_input_tokens > 0);
  });

  it('makes an entry readable only once the response that wrote it has begun', () => {
    const cache = new PromptCache();
    const a = cache.evaluate(body({ tools }), 2000);
    const b = cache.evaluate(body({ tools }), 2000);
    assert.ok(a.ok && b.ok);
    a.commit();
    b.commit();
    assert.equal(b.usage.cache_read_input_tokens, 0, 'sent at the same instant: no sharing');
    assert.ok(b.usage.cache_creation_input_tokens > 0);
    assert.ok(send(cache, body({ tools })).cache_read_input_tokens > 0);
  });

  it('over HTTP: message_start carries the split; an endpoint without caching answers 400 naming cache_control', async () => {
    const api = await startMessagesApiServer();
    const rejecting = await startMessagesApiServer({ rejectCacheControl: true });
    try {
      const post = (base: string, b: Record<string, unknown>) =>
        fetch(`${base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k' }, body: JSON.stringify(b) });
      api.script(reply.text('one'), reply.text('two'));
      const first = (await (await post(api.baseURL, body({ tools }))).json()) as { usage: Record<string, number> };
      const second = (await (await post(api.baseURL, body({ tools }))).json()) as { usage: Record<string, number> };
      assert.ok((first.usage.cache_creation_input_tokens ?? 0) > 0);
      assert.equal(second.usage.cache_read_input_tokens, first.usage.cache_creation_input_tokens);
      const res = await post(rejecting.baseURL, body({ tools }));
      assert.equal(res.status, 400);
      // The API's error body carries the request's id, as its request-id header does.
      assert.deepEqual(await res.json(), { type: 'error', error: { type: 'invalid_request_error', message: 'tools.3.cache_control: Extra inputs are not permitted' }, request_id: res.headers.get('request-id') });
    } finally {
      await api.close();
      await rejecting.close();
    }
  });
});
