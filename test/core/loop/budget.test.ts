// Budgets: a subagent that spends its tokens, time or dollars gets one last request with tools off and
// ends as budget_exceeded; the parent is told; the run-wide dollar cap stops every agent.
import assert from 'node:assert/strict';
import { costOf, hasPrice, parsePrices, unpricedBudget } from '../../../src/core/loop/budget';
import { ScriptedModel } from '../../kit/scripted-model';
import type { ConfigPatch } from '../../kit/session-config';
import { must } from '../../kit/must';
import { isChild } from '../../kit/is-child';
import { testSession } from '../../kit/test-session';

/** A Sonnet id: the dollar budgets need the model's price. */
const open = (model: ScriptedModel, extra: ConfigPatch = {}) => testSession({ model, modelId: 'claude-sonnet-test' }, extra);

describe('budgets', () => {
  it('a subagent over its token budget answers once with tools off and ends budget_exceeded; the parent is told', async () => {
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'))
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'dig', description: 'digger' } }] }, (req) => ({ text: `parent got: ${JSON.stringify(req.messages.at(-1)?.content)}` }))
      .script('child', { toolUses: [{ name: 'bash', input: { command: 'echo one' } }], usage: { input_tokens: 60 } })
      .script('child', { toolUses: [{ name: 'bash', input: { command: 'echo two' } }], usage: { input_tokens: 60 } })
      .script('child', (req) => ({ text: `partial report (tool choice ${req.toolChoice})` }));
    const { session, events } = await open(model, { limits: { subagentBudget: { tokens: 100 } } });
    const result = await session.run('go', new AbortController().signal);
    const child = must(result.subagents[0]);
    assert.equal(child.status, 'budget_exceeded');
    assert.equal(child.result, 'partial report (tool choice none)');
    const last = must(model.requests.filter((r) => r.route === 'child').at(-1)).request;
    assert.match(JSON.stringify(last.messages.at(-1)), /Budget reached: token budget of 100 reached \(130 used\)/);
    assert.match(result.result, /stopped at its budget \(token budget of 100 reached/);
    const started = events.find((e) => e.type === 'agent_started' && e.parentId !== null);
    assert.deepEqual(started?.type === 'agent_started' && started.budget, { tokens: 100 });
    model.assertDone();
  });

  it('a time budget aborts the step it runs out in (a long command), then the last answer', async () => {
    const model = new ScriptedModel((r) => (isChild(r) ? 'child' : 'default'))
      .script('default', { toolUses: [{ name: 'task', input: { prompt: 'wait', description: 'waiter' } }] }, { text: 'ok' })
      .script('child', { toolUses: [{ name: 'bash', input: { command: 'sleep 20' } }] })
      .script('child', { text: 'I was waiting on sleep' });
    const { session } = await open(model, { limits: { subagentBudget: { seconds: 1 } } });
    const t0 = Date.now();
    const result = await session.run('go', new AbortController().signal);
    assert.ok(Date.now() - t0 < 5000, `took ${Date.now() - t0} ms`);
    assert.equal(must(result.subagents[0]).status, 'budget_exceeded');
    assert.match(JSON.stringify(must(model.requests.filter((r) => r.route === 'child').at(-1)).request.messages), /Command cancelled.*time budget of 1 s reached/);
    model.assertDone();
  });

  it('the run-wide dollar cap stops the main agent; costs come from the price table', async () => {
    const million = { input_tokens: 1_000_000, output_tokens: 0 };
    assert.equal(costOf({ ...million, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, 'claude-sonnet-5-5'), 3);
    const model = new ScriptedModel()
      .script('default', { toolUses: [{ name: 'bash', input: { command: 'echo a' } }], usage: million })
      .script('default', { toolUses: [{ name: 'bash', input: { command: 'echo b' } }], usage: million })
      .script('default', { text: 'stopping here' });
    const { session, events } = await open(model, { limits: { maxBudgetUsd: 5 } });
    const result = await session.run('spend', new AbortController().signal);
    assert.equal(result.status, 'budget_exceeded');
    assert.match(result.error ?? '', /the run's budget of \$5\.00 is spent \(\$6\.00\)/);
    assert.ok((result.costUsd ?? 0) > 6 && (result.costUsd ?? 0) < 6.001, `cost ${result.costUsd}`);
    const costs = events.filter((e) => e.type === 'usage').map((e) => (e.type === 'usage' ? e.costUsd : 0));
    assert.equal(costs.length, 3);
    assert.ok(costs.every((c) => typeof c === 'number' && c > 0));
  });

  it('a model without a price: refused under a dollar cap, priced by DELEGATE_PRICES-style JSON', () => {
    assert.equal(hasPrice('claude-sonnet-5-5'), true);
    assert.equal(hasPrice('gpt-5.1'), false);
    assert.equal(unpricedBudget('claude-haiku-5-5', 1, undefined), undefined);
    assert.equal(unpricedBudget('gpt-5.1', undefined, undefined), undefined, 'no budget: nothing to keep');
    assert.match(unpricedBudget('gpt-5.1', 2, undefined) ?? '', /^a budget of \$2\.00 cannot be kept: the model gpt-5\.1 has no price\./);
    const prices = parsePrices('{"gpt-5": {"input": 1.25, "output": 10}}');
    assert.ok(!('error' in prices));
    assert.deepEqual(prices['gpt-5'], { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 1.5625 });
    assert.equal(unpricedBudget('gpt-5.1', 2, prices), undefined, 'a prefix prices the family');
    assert.deepEqual(parsePrices('nope'), { error: 'not JSON: write {"model-id": {"input": 3, "output": 15}} ($ per million tokens)' });
    assert.match((parsePrices('{"x": {"input": -1, "output": 1}}') as { error: string }).error, /"x" needs "input" and "output"/);
    assert.match((parsePrices('[1]') as { error: string }).error, /must be an object/);
  });
});
