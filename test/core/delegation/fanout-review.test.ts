import assert from 'node:assert/strict';
import { BUILT_IN_AGENTS } from '../../../src/core/agent-files/agent-catalog';
import type { AgentDefinition } from '../../../src/core/agent-files/agent-definition';
import { createFanoutReview, FanoutCaps, type FanoutCard, type FanoutChoice, type FanoutRule } from '../../../src/core/delegation/fanout-review';
import type { AgentForecast } from '../../../src/core/store/agent-forecast';
import type { EventBody } from '../../../src/core/events';

const root = { agentId: 'main', parentId: null, depth: 0 };
const types: ReadonlyMap<string, AgentDefinition> = new Map(BUILT_IN_AGENTS.map((a) => [a.name, a]));
const explore: AgentForecast = { agentType: 'Explore', runs: 4, tokens: { median: 1000, p90: 4200.5 }, costUsd: { median: 0.01, p90: 0.3 }, durationMs: { median: 2000, p90: 9100 } };
const call = (id: string, input: Record<string, unknown>) => ({ toolUseId: id, input: { prompt: `do ${id}`, ...input } });

function setup(choice: FanoutChoice, rule: FanoutRule = 'auto', above?: number) {
  const cards: FanoutCard[] = [];
  const events: { agentId: string; body: EventBody }[] = [];
  const caps = new FanoutCaps();
  const forecastReads: string[][] = [];
  const gate = createFanoutReview({
    prompt: {
      confirm: async (card) => {
        cards.push(card);
        return choice;
      },
    },
    rule: () => rule,
    confirmAboveUsd: () => above,
    agentTypes: () => types,
    defaultType: 'general-purpose',
    modelId: () => 'claude-sonnet-5-5',
    mode: () => 'acceptEdits',
    forecast: async (ts) => {
      forecastReads.push([...ts]);
      return new Map(ts.map((t) => [t, t === 'Explore' ? explore : undefined]));
    },
    caps,
    emit: async (parent, body) => void events.push({ agentId: parent.agentId, body }),
  });
  return { gate, cards, caps, events, forecastReads, signal: new AbortController().signal };
}

describe('the fan-out review', () => {
  it('auto: two children start unasked; three show one card with each child, its agent, model, mode and forecast', async () => {
    const { gate, cards, signal } = setup('run');
    assert.equal((await gate.review(root, [call('a', {}), call('b', {})], signal)).size, 0);
    assert.equal(cards.length, 0);
    const refused = await gate.review(root, [call('a', { description: 'one' }), call('b', { description: 'two', subagent_type: 'Explore' }), call('c', { fork: true, run_in_background: true })], signal);
    assert.equal(refused.size, 0);
    const card = cards[0] as FanoutCard;
    assert.equal(card.reason, 'count');
    assert.deepEqual(
      card.children.map((c) => [c.description, c.agentType, c.model, c.mode, c.fork, c.background, c.forecast?.runs]),
      [
        ['one', 'general-purpose', 'claude-sonnet-5-5', 'acceptEdits', false, false, undefined],
        ['two', 'Explore', 'claude-sonnet-5-5', 'acceptEdits', false, false, 4],
        ['do c', 'fork', 'claude-sonnet-5-5', 'acceptEdits', true, true, undefined],
      ],
    );
    assert.equal(card.p90Usd, 0.3);
  });

  it('auto without a dollar limit: fewer than three children read no forecast (it reads the saved sessions, and could not make it ask)', async () => {
    const { gate, cards, forecastReads, signal } = setup('run');
    assert.equal((await gate.review(root, [call('a', { subagent_type: 'Explore' }), call('b', {})], signal)).size, 0);
    assert.deepEqual(forecastReads, [], 'no forecast read');
    await gate.review(root, [call('a', {}), call('b', {}), call('c', { subagent_type: 'Explore' })], signal);
    assert.equal(cards.length, 1);
    assert.deepEqual(forecastReads, [['general-purpose', 'Explore']], 'the card it shows has the forecast');
  });

  it('a call’s own model (an alias, through the table) and effort are on its child', async () => {
    const { gate, cards, signal } = setup('run', 'always');
    await gate.review(root, [call('a', { model: 'haiku', effort: 'low' }), call('b', {})], signal);
    assert.deepEqual(cards[0]?.children.map((c) => [c.model, c.effort]), [['claude-haiku-5-5', 'low'], ['claude-sonnet-5-5', undefined]]);
  });

  it('auto with confirmAboveUsd: one child whose forecast p90 is over it shows the card; under it, not', async () => {
    const over = setup('run', 'auto', 0.25);
    await over.gate.review(root, [call('a', { subagent_type: 'Explore' })], over.signal);
    assert.equal(over.cards[0]?.reason, 'cost');
    const under = setup('run', 'auto', 0.5);
    await under.gate.review(root, [call('a', { subagent_type: 'Explore' })], under.signal);
    assert.equal(under.cards.length, 0);
  });

  it('always asks for one child; never never asks', async () => {
    const always = setup('run', 'always');
    await always.gate.review(root, [call('a', {})], always.signal);
    assert.equal(always.cards[0]?.reason, 'always');
    const never = setup('cancel', 'never');
    assert.equal((await never.gate.review(root, [call('a', {}), call('b', {}), call('c', {})], never.signal)).size, 0);
    assert.equal(never.cards.length, 0);
  });

  it('Cancel refuses every call with a reason the model reads', async () => {
    const { gate, signal } = setup('cancel');
    const refused = await gate.review(root, [call('a', {}), call('b', {}), call('c', {})], signal);
    assert.deepEqual([...refused.keys()], ['a', 'b', 'c']);
    assert.match(refused.get('a') ?? '', /^Not run: the user cancelled this fan-out of 3 subagents before it started\. Ask the user how to go on/);
  });

  it('Run with these caps: a child with history gets its p90 as budgets, never looser than its own; one without runs as it was', async () => {
    const { gate, caps, signal } = setup('run_capped');
    await gate.review(root, [call('a', { subagent_type: 'Explore' }), call('b', {}), call('c', {})], signal);
    assert.deepEqual(caps.apply('a', { tokens: 3000 }), { tokens: 3000, seconds: 10, usd: 0.3 });
    assert.equal(caps.apply('a', undefined), undefined, 'taken once');
    assert.equal(caps.apply('b', undefined), undefined);
  });

  it('while the card waits the parent emits its calls as pending (a view shows them), then the answer; unasked, nothing', async () => {
    const { gate, cards, events, signal } = setup('cancel');
    await gate.review(root, [call('a', {}), call('b', {})], signal);
    assert.deepEqual(events, [], 'no card, no pending tasks');
    await gate.review(root, [call('a', { description: 'one' }), call('b', { subagent_type: 'Explore' }), call('c', { fork: true })], signal);
    assert.deepEqual(cards[0]?.children.map((c) => c.prompt), ['do a', 'do b', 'do c'], 'the card has each prompt');
    assert.deepEqual(events, [
      { agentId: 'main', body: { type: 'fanout_asked', calls: [
        { toolUseId: 'a', input: { prompt: 'do a', description: 'one' }, agentType: 'general-purpose' },
        { toolUseId: 'b', input: { prompt: 'do b', subagent_type: 'Explore' }, agentType: 'Explore' },
        { toolUseId: 'c', input: { prompt: 'do c', fork: true }, agentType: 'fork' },
      ] } },
      { agentId: 'main', body: { type: 'fanout_answered', choice: 'cancel', toolUseIds: ['a', 'b', 'c'] } },
    ]);
    const stopped = setup('run');
    const stop = new AbortController();
    stop.abort();
    await stopped.gate.review(root, [call('a', {}), call('b', {}), call('c', {})], stop.signal);
    assert.deepEqual(stopped.events.at(-1)?.body, { type: 'fanout_answered', choice: 'cancel', toolUseIds: ['a', 'b', 'c'] }, 'a stopped run cancels, whatever the card said');
  });
});
