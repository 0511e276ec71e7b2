/** Where a request's cache_control breakpoints go (src/core/llm/cache-breakpoints.ts). */
import assert from 'node:assert/strict';
import type Anthropic from '@anthropic-ai/sdk';
import { MAX_BREAKPOINTS, withCacheBreakpoints } from '../../../src/core/llm/cache-breakpoints';
import { rejectsCacheControl } from '../../../src/core/loop/endpoint-refusals';
import { ModelError } from '../../../src/core/llm/types';

type Params = Anthropic.MessageCreateParamsNonStreaming;
const tool = (name: string, chars = 2000): Anthropic.Tool => ({ name, description: 'd'.repeat(chars), input_schema: { type: 'object' } });
const params = (o: Partial<Params> = {}): Params => ({
  model: 'claude-sonnet-5-5',
  max_tokens: 100,
  system: 'You are a coding agent.',
  tools: [tool('bash'), tool('read_file'), tool('task')],
  messages: [{ role: 'user', content: 'hello' }],
  ...o,
});

/** Paths of the blocks that carry cache_control. */
function marked(p: Params): string[] {
  const out: string[] = [];
  (p.tools ?? []).forEach((t, i) => 'cache_control' in t && t.cache_control && out.push(`tools.${i}:${'name' in t ? t.name : ''}`));
  if (Array.isArray(p.system)) p.system.forEach((b, i) => b.cache_control && out.push(`system.${i}`));
  p.messages.forEach((m, mi) => {
    if (typeof m.content !== 'string') m.content.forEach((b, bi) => 'cache_control' in b && b.cache_control && out.push(`messages.${mi}.${bi}`));
  });
  return out;
}

describe('cache breakpoints', () => {
  it('marks the last shared tool, the system prompt and the tail; the caller’s objects stay as they were', () => {
    const p = params();
    const out = withCacheBreakpoints(p, { sharedTools: 2 });
    assert.deepEqual(marked(out), ['tools.1:read_file', 'system.0', 'messages.0.0']);
    assert.deepEqual(out.system, [{ type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } }]);
    assert.equal(p.messages[0]?.content, 'hello');
    assert.ok(!('cache_control' in (p.tools?.[1] ?? {})));
    assert.deepEqual(withCacheBreakpoints(p, undefined), p, 'no cache request: unchanged');
  });

  it('puts server tools (web search) after the shared client tools and before the agent’s own', () => {
    const search: Anthropic.WebSearchTool20250305 = { type: 'web_search_20250305', name: 'web_search', max_uses: 5 };
    const out = withCacheBreakpoints(params({ tools: [tool('bash'), tool('read_file'), tool('task'), search] }), { sharedTools: 2 });
    assert.deepEqual(out.tools?.map((t) => ('name' in t ? t.name : '')), ['bash', 'read_file', 'web_search', 'task']);
    assert.deepEqual(marked(out).slice(0, 1), ['tools.2:web_search']);
  });

  it('orders MCP tools of the shared block by name (servers connect in any order), after the built-ins', () => {
    const out = withCacheBreakpoints(params({ tools: [tool('bash'), tool('mcp__zeta__a'), tool('read_file'), tool('mcp__alpha__b'), tool('task')] }), { sharedTools: 4 });
    assert.deepEqual(out.tools?.map((t) => ('name' in t ? t.name : '')), ['bash', 'read_file', 'mcp__alpha__b', 'mcp__zeta__a', 'task']);
  });

  it('never marks a block that cannot carry it (thinking, empty text): the one before it instead', () => {
    const out = withCacheBreakpoints(
      params({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'q' }, { type: 'text', text: '' }] },
        ],
      }),
      {},
    );
    assert.ok(marked(out).includes('messages.0.0'));
  });

  it('skips a breakpoint whose prefix is surely under the model’s minimum', () => {
    const small = withCacheBreakpoints(params({ tools: [tool('bash', 100)], messages: [{ role: 'user', content: 'x'.repeat(4000) }] }), {});
    assert.deepEqual(marked(small), ['messages.0.0'], 'tools and system are a few hundred characters: not cacheable');
    const haiku = withCacheBreakpoints(params({ model: 'claude-haiku-4-5' }), { sharedTools: 2 });
    assert.deepEqual(marked(haiku), [], 'Haiku 4.5 needs 4,096 tokens');
  });

  it('adds the previous tail when the look-back (20 blocks) cannot reach it, and the built-ins before MCP tools — never more than 4', () => {
    const results = Array.from({ length: 12 }, (_, i) => ({ type: 'tool_result' as const, tool_use_id: `t${i}`, content: 'ok' }));
    const uses = Array.from({ length: 12 }, (_, i) => ({ type: 'tool_use' as const, id: `t${i}`, name: 'bash', input: {} }));
    const messages: Anthropic.MessageParam[] = [
      { role: 'user', content: 'start' },
      { role: 'assistant', content: uses },
      { role: 'user', content: results },
    ];
    const out = withCacheBreakpoints(params({ messages }), { sharedTools: 2 });
    assert.deepEqual(marked(out), ['tools.1:read_file', 'system.0', 'messages.0.0', 'messages.2.11']);
    const mcp = withCacheBreakpoints(params({ messages, tools: [tool('bash'), tool('read_file'), tool('mcp__x__y'), tool('task')] }), { sharedTools: 3 });
    assert.equal(marked(mcp).length, MAX_BREAKPOINTS);
    assert.ok(!marked(mcp).includes('tools.1:read_file'), 'the fifth candidate is left out');
    const short = withCacheBreakpoints(params({ messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }] }), { sharedTools: 2 });
    assert.deepEqual(marked(short), ['tools.1:read_file', 'system.0', 'messages.2.0'], 'the look-back reaches the previous tail');
  });

  it('recognises an endpoint’s refusal of cache_control', () => {
    assert.ok(rejectsCacheControl(new ModelError('request rejected (400 invalid_request_error): tools.3.cache_control: Extra inputs are not permitted', 'bad_request', 400)));
    assert.ok(!rejectsCacheControl(new ModelError('request rejected (400 invalid_request_error): tools.7.type: unknown tool type', 'bad_request', 400)));
    assert.ok(!rejectsCacheControl(new ModelError('API error (500 api_error): cache_control', 'api', 500)));
  });
});
