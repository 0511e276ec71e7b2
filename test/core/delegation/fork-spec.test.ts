// A fork's spec from its parent's: what it keeps (system prompt, web search, model, the tools in order), what it
// gets of its own (identity, a subagent's turn cap and budget, no delegating), and what it leaves (the parent's
// turn numbering, hook context, colour, budget).
import assert from 'node:assert/strict';
import { FORK_AGENT_TYPE, FORK_REFUSAL, forkOpening, forkSpec, forkTools } from '../../../src/core/delegation/fork';
import type { ContentBlockParam, MessageParam } from '../../../src/core/llm/types';
import { toolPairingError } from '../../fixtures/tool-pairing';
import type { AgentSpec } from '../../../src/core/loop/types';
import { ToolRegistry } from '../../../src/core/tools/types';
import type { MessagesRequestBody } from '../../fixtures/messages-api-server';
import { sharedPrefixShare } from '../../kit/cache-prefix';
import { fakeConfig, fakeTool } from '../../kit/run-services';

describe('fork spec', () => {
  const { limits } = fakeConfig({ maxTurns: 50, subagentMaxTurns: 7, maxParallel: 4, maxDepth: 1, maxOutputChars: 30_000, subagentBudget: { tokens: 5000 } });
  const parentTools = new ToolRegistry([fakeTool('read_file', 'read', () => 'x'), fakeTool('task', 'delegate', () => 'ran'), fakeTool('task_output', 'read', () => 'ran'), fakeTool('mcp__a__b', 'external', () => 'y')]);
  const parent: AgentSpec = {
    identity: { agentId: 'main', parentId: null, depth: 0 },
    systemPrompt: 'PARENT SYSTEM',
    history: [],
    prompt: 'first prompt',
    tools: parentTools,
    maxTurns: 50,
    turnBase: 12,
    context: ['hook context'],
    color: 'blue',
    budget: { usd: 3 },
    webSearch: false,
  };
  const messages = [
    { role: 'user' as const, content: 'first prompt' },
    { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'task', input: { prompt: 'p', fork: true } }] },
  ];
  const spec = forkSpec(
    { spec: parent, tools: parentTools, messages, modelId: 'claude-parent' },
    { identity: { agentId: 'f1', parentId: 'main', depth: 1, agentType: FORK_AGENT_TYPE }, prompt: 'p', toolUseId: 'toolu_1', limits },
  );

  it("keeps what shapes the parent's requests and takes a subagent's limits", () => {
    assert.equal(spec.systemPrompt, 'PARENT SYSTEM');
    assert.equal(spec.webSearch, false);
    assert.equal(spec.modelId, 'claude-parent');
    assert.deepEqual(spec.history, messages);
    assert.notEqual(spec.history, messages, 'a copy: the parent goes on with its own array');
    assert.equal(spec.maxTurns, 7);
    assert.deepEqual(spec.budget, { tokens: 5000 });
    assert.equal(spec.canDelegate, false);
    assert.equal(spec.agentType, 'fork');
    assert.equal(spec.toolUseId, 'toolu_1');
    assert.deepEqual(spec.fork, { agentId: 'main', messageCount: 2 });
    assert.equal(spec.turnBase, undefined);
    assert.equal(spec.context, undefined);
    assert.equal(spec.color, undefined);
  });

  it('has the same tool schemas in the same order; task and task_output refuse, the others are the same tools', async () => {
    assert.deepEqual(spec.tools.schemas(), parentTools.schemas());
    assert.equal(spec.tools.get('read_file'), parentTools.get('read_file'));
    assert.equal(spec.tools.get('mcp__a__b'), parentTools.get('mcp__a__b'));
    for (const name of ['task', 'task_output']) {
      const tool = spec.tools.get(name);
      assert.ok(tool);
      assert.deepEqual(await tool.execute({ prompt: 'x' }, { signal: new AbortController().signal, agentId: 'f1', toolUseId: 't' }), { content: FORK_REFUSAL, isError: true });
    }
    assert.deepEqual(forkTools(new ToolRegistry()).names(), []);
  });
});

describe('shared prefix share (the measure of the ≥ 90 % fork test)', () => {
  const tools = [{ name: 'read_file', description: 'Read a file.', input_schema: { type: 'object' } }];
  const messages: NonNullable<MessagesRequestBody['messages']> = [
    { role: 'user', content: 'read a.ts' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a.ts' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x'.repeat(1000) }] },
  ];
  const base: MessagesRequestBody = { model: 'claude-test', system: 'SYSTEM PROMPT', tools, messages };

  it('is 1 for the same request, and counts only the leading blocks both have', () => {
    assert.equal(sharedPrefixShare(base, base).share, 1);
    const longer = { ...base, messages: [...messages, { role: 'assistant', content: [{ type: 'text', text: 'y'.repeat(1000) }] }] };
    const s = sharedPrefixShare(base, longer);
    assert.ok(s.share > 0.4 && s.share < 0.6, String(s.share));
    assert.match(s.firstDifference ?? '', /^3:assistant:/);
  });

  it('a changed system prompt keeps only the tools; another model shares nothing; tool_choice keeps tools and system', () => {
    const other = sharedPrefixShare(base, { ...base, system: 'OTHER PROMPT' });
    assert.equal(other.sharedChars, `tool:${JSON.stringify(tools[0])}`.length);
    assert.equal(sharedPrefixShare(base, { ...base, model: 'claude-other' }).share, 0);
    const choice = sharedPrefixShare(base, { ...base, tool_choice: { type: 'none' } });
    assert.match(choice.firstDifference ?? '', /^0:user:/);
  });

  it('ignores cache_control markers, as the cache does', () => {
    const marked = { ...base, messages: [...messages.slice(0, 2), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x'.repeat(1000), cache_control: { type: 'ephemeral' } }] }] };
    assert.equal(sharedPrefixShare(marked, base).share, 1);
  });
});

describe("the fork's opening against the API's tool-pairing rule", () => {
  const assistant = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_fork', name: 'task', input: {} }, { type: 'tool_use', id: 'toolu_sibling', name: 'read_file', input: {} }] };
  const history = [{ role: 'user', content: 'go' }, assistant];

  it('answers every call of the parent\'s last message, so the API takes it; one missing is the API\'s 400', () => {
    const opening = forkOpening(assistant as MessageParam, 'toolu_fork', 'do it');
    assert.equal(toolPairingError({ messages: [...history, opening] as MessagesRequestBody['messages'] }), undefined);
    const missing = { role: 'user', content: (opening.content as ContentBlockParam[]).filter((b) => !(b.type === 'tool_result' && b.tool_use_id === 'toolu_sibling')) };
    assert.match(toolPairingError({ messages: [...history, missing] as MessagesRequestBody['messages'] }) ?? '', /^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_sibling\./);
    assert.match(toolPairingError({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: '' }] }] }) ?? '', /unexpected `tool_use_id`/);
  });
});
