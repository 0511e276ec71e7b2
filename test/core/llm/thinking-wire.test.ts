/**
 * Thinking on the wire, through the real SDK against the local Messages-API server: the fields and beta header
 * a request carries, thinking / redacted_thinking blocks streamed back and sent back unchanged (the server
 * checks their signatures), display omitted, and the server's own rejections (what the API rejects).
 */
import assert from 'node:assert/strict';
import { createAnthropicModel } from '../../../src/core/llm/anthropic-model';
import { ModelError, type MessageParam, type ModelRequest, type ToolSchema } from '../../../src/core/llm/types';
import { toParam } from '../../../src/core/loop/message-parts';
import { reply, startMessagesApiServer, type MessagesApiServer } from '../../fixtures/messages-api-server';

const READ: ToolSchema = { name: 'read_file', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } };
const never = () => new AbortController().signal;

describe('thinking on the wire (real SDK, local server)', () => {
  let api: MessagesApiServer;
  beforeEach(async () => {
    api = await startMessagesApiServer();
  });
  afterEach(async () => {
    await api.close();
  });
  const model = () => createAnthropicModel({ apiKey: 'k', baseURL: api.baseURL, maxRetries: 0, streamRetries: 0 });
  const req = (m: string, messages: MessageParam[], extra: Partial<ModelRequest> = {}): ModelRequest => ({
    model: m,
    maxTokens: 64_000,
    system: 's',
    messages,
    tools: [READ],
    thinking: 'auto',
    ...extra,
  });

  it('budget model: enabled + budget below max_tokens + the interleaved beta; the signed blocks go back unchanged through a tool loop', async () => {
    api.script(
      reply.toolUse({ name: 'read_file', input: { path: 'a' }, id: 'toolu_1' }, { thinking: 'I should read a first.' }),
      reply.text('Done.', { thinking: 'a says hello.' }),
    );
    const first: MessageParam = { role: 'user', content: 'go' };
    const r1 = await model().stream(req('claude-haiku-4-5-20251001', [first], { thinking: 'low' }), never(), {});
    const [sent] = api.messageRequests();
    assert.deepEqual(sent?.body.thinking, { type: 'enabled', budget_tokens: 4096, display: 'summarized' });
    assert.equal(sent?.body.max_tokens, 64_000);
    assert.equal(sent?.headers['anthropic-beta'], 'interleaved-thinking-2025-05-14');
    assert.equal(sent?.body.temperature, undefined);
    const thinking = r1.content[0];
    assert.ok(thinking?.type === 'thinking', 'the thinking block streamed back first');
    assert.equal(thinking.thinking, 'I should read a first.');
    assert.match(thinking.signature, /^EsLocal\./);
    const history: MessageParam[] = [
      first,
      { role: 'assistant', content: r1.content.map(toParam) },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'hello' }] },
    ];
    const r2 = await model().stream(req('claude-haiku-4-5-20251001', history, { thinking: 'low' }), never(), {});
    assert.equal(r2.content[0]?.type, 'thinking', 'with the beta it thinks between tool calls too');
    api.assertAllConsumed();
  });

  it('a changed or missing signature, or a dropped thinking block, is rejected as the API rejects it', async () => {
    api.script(reply.toolUse({ name: 'read_file', input: { path: 'a' }, id: 'toolu_2' }, { thinking: 'Plan: read a.' }));
    const r1 = await model().stream(req('claude-haiku-4-5', [{ role: 'user', content: 'go' }]), never(), {});
    const blocks = r1.content.map(toParam);
    const result: MessageParam = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'x' }] };
    const send = async (assistant: MessageParam['content']): Promise<ModelError> => {
      try {
        await model().stream(req('claude-haiku-4-5', [{ role: 'user', content: 'go' }, { role: 'assistant', content: assistant }, result]), never(), {});
      } catch (err) {
        assert.ok(err instanceof ModelError);
        return err;
      }
      assert.fail('expected a rejection');
    };
    const changed = blocks.map((b) => (b.type === 'thinking' ? { ...b, thinking: `${b.thinking} (edited)` } : b));
    assert.match((await send(changed)).message, /400 invalid_request_error.*Invalid `signature` in `thinking` block/);
    const unsigned = blocks.map((b) => (b.type === 'thinking' ? { ...b, signature: '' } : b));
    assert.match((await send(unsigned)).message, /signature: Field required/);
    const dropped = blocks.filter((b) => b.type !== 'thinking');
    assert.match((await send(dropped)).message, /must start with a thinking block/);
  });

  it('adaptive model: no budget, no beta; display omitted (the model default) gives empty text that still round-trips; redacted_thinking passes through', async () => {
    api.script(
      reply.blocks([{ type: 'thinking', thinking: 'secret plan' }, { type: 'redacted_thinking' }, { type: 'tool_use', id: 'toolu_3', name: 'read_file', input: { path: 'a' } }], { stopReason: 'tool_use' }),
      reply.text('Done.'),
    );
    const first: MessageParam = { role: 'user', content: 'go' };
    // No thinking field: Opus 5.5's own default (adaptive, display omitted).
    const r1 = await model().stream(req('claude-opus-5-5', [first], { thinking: undefined }), never(), {});
    assert.equal(api.messageRequests()[0]?.headers['anthropic-beta'], undefined);
    const [t, redacted] = r1.content;
    assert.ok(t?.type === 'thinking' && t.thinking === '' && t.signature.length > 0, 'omitted: empty text, a signature');
    assert.ok(redacted?.type === 'redacted_thinking' && redacted.data.startsWith('RdLocal.'));
    const history: MessageParam[] = [first, { role: 'assistant', content: r1.content.map(toParam) }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_3', content: 'x' }] }];
    const r2 = await model().stream(req('claude-opus-5-5', history), never(), {});
    assert.equal(r2.content.at(-1)?.type, 'text');
    assert.deepEqual(api.messageRequests()[1]?.body.thinking, { type: 'adaptive', display: 'summarized', block_binding: { prefix_mismatch_behavior: 'drop_block' } });
    assert.equal(api.messageRequests()[1]?.headers['anthropic-beta'], 'thinking-binding-controls-2026-08-01');
    api.assertAllConsumed();
  });

  it('budget thinking without the interleaved beta does not think between tool calls (the server drops the thinking of a mid-turn reply)', async () => {
    api.script(reply.text('Done.', { thinking: 'between calls' }), reply.text('Done.', { thinking: 'between calls' }));
    const midTurn = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'read_file', input: { path: 'a' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'x' }] },
    ];
    const post = async (beta: boolean): Promise<string[]> => {
      const res = await fetch(`${api.baseURL}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'k', ...(beta ? { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } : {}) },
        body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 9000, thinking: { type: 'enabled', budget_tokens: 2048 }, tools: [READ], messages: midTurn }),
      });
      return ((await res.json()) as { content: { type: string }[] }).content.map((b) => b.type);
    };
    assert.deepEqual(await post(false), ['text']);
    assert.deepEqual(await post(true), ['thinking', 'text']);
  });

  it('the server rejects what the API rejects: enabled on an adaptive-only model, a small budget, budget ≥ max_tokens, temperature with thinking', async () => {
    const post = async (body: Record<string, unknown>): Promise<{ status: number; message: string }> => {
      const res = await fetch(`${api.baseURL}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k' }, body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], ...body }) });
      const json = (await res.json()) as { error: { message: string } };
      return { status: res.status, message: json.error.message };
    };
    assert.match((await post({ model: 'claude-sonnet-5-5', max_tokens: 9000, thinking: { type: 'enabled', budget_tokens: 4096 } })).message, /thinking.type.enabled" is not supported/);
    assert.match((await post({ model: 'claude-sonnet-5-5', max_tokens: 9000, thinking: { type: 'disabled' } })).message, /between_tools/);
    assert.match((await post({ model: 'claude-haiku-4-5', max_tokens: 9000, thinking: { type: 'enabled', budget_tokens: 500 } })).message, /greater than or equal to 1024/);
    assert.match((await post({ model: 'claude-haiku-4-5', max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 4096 } })).message, /max_tokens` must be greater than `thinking.budget_tokens/);
    assert.match((await post({ model: 'claude-haiku-4-5', max_tokens: 9000, thinking: { type: 'adaptive' } })).message, /adaptive thinking is not supported/);
    assert.match((await post({ model: 'claude-sonnet-5-5', max_tokens: 9000, thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } } })).message, /needs the beta header/);
    const temp = await post({ model: 'claude-sonnet-5-5', max_tokens: 9000, temperature: 0.2 });
    assert.equal(temp.status, 400);
    assert.match(temp.message, /temperature` may only be set to 1/);
  });
});
