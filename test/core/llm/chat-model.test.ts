// The chat port: the Messages API mapped to plain parts for a host's own chat API (the editor's Language Model
// API), its usage counted once per object. The editor's adapter over it runs in test/vscode/lm-model.test.ts.
import assert from 'node:assert/strict';
import { chatModelPort, type ChatMessage, type ChatProvider } from '../../../src/core/llm/chat-model';
import { ModelError, type MessageParam, type ModelRequest } from '../../../src/core/llm/types';

type Send = ChatProvider['send'];

// One schema object, as the tool registry keeps: the port converts a tool once per schema.
const schema = { type: 'object' as const, properties: { path: { type: 'string' } } };

function request(messages: MessageParam[], extra: Partial<ModelRequest> = {}): ModelRequest {
  return { model: 'm', maxTokens: 100, system: 'be brief', messages, tools: [{ name: 'read_file', description: 'reads', input_schema: schema }], ...extra };
}

function provider(send: Send, counts: (string | ChatMessage | object)[] = []): ChatProvider {
  return {
    send,
    countTokens: async (what) => {
      counts.push(what);
      return typeof what === 'string' && what.startsWith('zero') ? 0 : 10;
    },
  };
}

describe('chat port (core/llm/chat-model)', () => {
  it('maps blocks to parts: empty text and thinking dropped, a non-object input wrapped, an error result said in its text, an image a line', async () => {
    let seen: Parameters<Send>[0] | undefined;
    const port = chatModelPort(provider(async (req, _signal, reply) => {
      seen = req;
      reply.sent();
      reply.text('done');
    }));
    const history: MessageParam[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 's' }, { type: 'text', text: '' }, { type: 'tool_use', id: 't1', name: 'read_file', input: 'x' }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', is_error: true, content: 'no such file' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }] },
    ];
    const res = await port.stream(request(history), new AbortController().signal, {});
    assert.ok(seen);
    assert.equal(seen.system, 'be brief');
    assert.deepEqual(seen.messages[1], { role: 'assistant', parts: [{ kind: 'tool-call', id: 't1', name: 'read_file', input: { value: 'x' } }] });
    const parts = seen.messages[2]?.parts ?? [];
    assert.deepEqual(parts[0], { kind: 'tool-result', callId: 't1', text: 'Error: no such file', isError: true });
    const omitted = parts[1];
    assert.ok(omitted?.kind === 'text' && /image or document was left out/.test(omitted.text));
    assert.deepEqual(seen.tools.map((t) => t.name), ['read_file']);
    assert.deepEqual(res.content, [{ type: 'text', text: 'done', citations: null }]);
    assert.equal(res.stopReason, 'end_turn');
  });

  it('builds the reply in order (text joined, a tool call splits it), stop reason tool_use, usage from the counts', async () => {
    const port = chatModelPort(provider(async (_req, _signal, reply) => {
      reply.sent();
      reply.text('a');
      reply.text('b');
      reply.toolCall({ id: 'c1', name: 'read_file', input: { path: 'x' } });
      reply.text('after');
    }));
    const deltas: string[] = [];
    const res = await port.stream(request([{ role: 'user', content: 'go' }]), new AbortController().signal, { onTextDelta: (d) => deltas.push(d) });
    assert.deepEqual(deltas, ['a', 'b', 'after']);
    assert.deepEqual(res.content.map((b) => (b.type === 'text' ? b.text : b.type)), ['ab', 'tool_use', 'after']);
    assert.equal(res.stopReason, 'tool_use');
    // system + one message + one tool = 30 in; the reply's text = 10 out.
    assert.equal(res.usage.input_tokens, 30);
    assert.equal(res.usage.output_tokens, 10);
  });

  it('counts each message, tool and system prompt once across turns, and gives the provider the same message object each turn', async () => {
    const counts: (string | ChatMessage | object)[] = [];
    const objects: (ChatMessage | undefined)[] = [];
    const port = chatModelPort(provider(async (req, _signal, reply) => {
      objects.push(req.messages[0]);
      reply.sent();
      reply.text('ok');
    }, counts));
    const first: MessageParam = { role: 'user', content: 'go' };
    await port.stream(request([first]), new AbortController().signal, {});
    const before = counts.length;
    await port.stream(request([first, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'more' }]), new AbortController().signal, {});
    // Only the two new messages and the reply's text are counted again.
    assert.equal(counts.length - before, 3);
    assert.equal(objects[0], objects[1]);
  });

  it("falls back to the estimate where the provider can't count (a failure, or 0 for text that isn't empty)", async () => {
    const port = chatModelPort({
      countTokens: async () => {
        throw new Error('cannot count');
      },
      send: async (_req, _signal, reply) => reply.text('x'.repeat(35)),
    });
    const res = await port.stream(request([{ role: 'user', content: 'y'.repeat(70) }], { system: '' }), new AbortController().signal, {});
    assert.equal(res.usage.output_tokens, 10);
    assert.ok(res.usage.input_tokens >= 20, `${res.usage.input_tokens}`);
  });

  it('a host callback that throws cancels the request and is rethrown as it is', async () => {
    let providerSawAbort = false;
    const port = chatModelPort(provider(async (_req, signal, reply) => {
      reply.text('first');
      providerSawAbort = signal.aborted;
      if (signal.aborted) throw new ModelError('request aborted', 'aborted');
    }));
    const bug = new Error('host bug');
    await assert.rejects(port.stream(request([{ role: 'user', content: 'go' }]), new AbortController().signal, { onTextDelta: () => { throw bug; } }), (e) => e === bug);
    assert.equal(providerSawAbort, true);
  });

  it('an aborted caller gets ModelError aborted, and the provider its signal', async () => {
    const controller = new AbortController();
    const port = chatModelPort(provider(async (_req, signal) => {
      controller.abort();
      assert.equal(signal.aborted, true);
    }));
    await assert.rejects(port.stream(request([{ role: 'user', content: 'go' }]), controller.signal, {}), (e) => e instanceof ModelError && e.kind === 'aborted');
  });
});
