/**
 * The thinking rules (src/core/llm/thinking.ts): which fields each model family gets for each setting, and
 * that every request obeys the API's constraints (budget ≥ 1024 and below max_tokens, no budget for adaptive
 * models, `disabled` never sent where it is rejected, the interleaved beta only with budget thinking and tools).
 */
import assert from 'node:assert/strict';
import { INTERLEAVED_THINKING_BETA, THINKING_BINDING_BETA, maxTokensFor, thinkingFields, thinkingNote } from '../../../src/core/llm/thinking';
import { parseThinkingSetting, type ThinkingSetting } from '../../../src/core/vocabulary';

const SETTINGS: ThinkingSetting[] = ['auto', 'off', 'low', 'medium', 'high', 'xhigh', 'max', 1024, 5000, 20_000, 60_000];
const MODELS = [
  'claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5', 'claude-opus-5', 'claude-sonnet-5', 'claude-fable-5-1', 'claude-opus-4-7',
  'claude-opus-4-6', 'claude-sonnet-4-6', 'claude-opus-4-5-20251101', 'claude-sonnet-4-5', 'claude-haiku-4-5-20251001', 'claude-opus-4-1-20250805',
  'claude-sonnet-4-20250514', 'claude-3-7-sonnet-20250219', 'claude-3-5-haiku-20241022', 'some-other-model',
];

describe('thinking rules', () => {
  it('parses the setting: levels, budgets ≥ 1024, off; rejects the rest with a reason', () => {
    assert.equal(parseThinkingSetting('HIGH'), 'high');
    assert.equal(parseThinkingSetting(' off '), 'off');
    assert.equal(parseThinkingSetting('0'), 'off');
    assert.equal(parseThinkingSetting('8192'), 8192);
    assert.equal(parseThinkingSetting(2048), 2048);
    assert.equal(parseThinkingSetting('auto'), 'auto');
    const small = parseThinkingSetting('500');
    assert.ok(typeof small === 'object' && /at least 1024/.test(small.error));
    const bad = parseThinkingSetting('lots');
    assert.ok(typeof bad === 'object' && /expected off, low, medium, high/.test(bad.error));
  });

  it('default (auto) on the default model: adaptive thinking with summarized display, no budget, drop_block binding and its beta, 64,000 max_tokens', () => {
    const f = thinkingFields('claude-sonnet-5-5', 'auto', maxTokensFor('claude-sonnet-5-5'), true);
    const thinking = { type: 'adaptive', display: 'summarized', block_binding: { prefix_mismatch_behavior: 'drop_block' } };
    assert.deepEqual(f, { max_tokens: 64_000, thinking, betas: [THINKING_BINDING_BETA] });
    // A model without the prefix check: no binding, no beta.
    assert.deepEqual(thinkingFields('claude-opus-4-7', 'auto', 64_000, true), { max_tokens: 64_000, thinking: { type: 'adaptive', display: 'summarized' }, betas: [] });
  });

  it('levels become output_config.effort on adaptive models, clamped to the levels the model takes', () => {
    assert.deepEqual(thinkingFields('claude-sonnet-5-5', 'low', 64_000, true).output_config, { effort: 'low' });
    assert.deepEqual(thinkingFields('claude-opus-5-5', 'max', 64_000, true).output_config, { effort: 'max' });
    // Sonnet 4.6 takes low/medium/high: xhigh and max run at high.
    assert.deepEqual(thinkingFields('claude-sonnet-4-6', 'max', 64_000, true).output_config, { effort: 'high' });
    // A budget on a model that takes levels: the nearest level.
    const budget = thinkingFields('claude-sonnet-5-5', 30_000, 64_000, true);
    assert.equal(budget.thinking?.type, 'adaptive');
    assert.deepEqual(budget.output_config, { effort: 'high' });
    assert.match(thinkingNote('claude-sonnet-5-5', 30_000) ?? '', /effort level, not a budget/);
  });

  it('off: between_tools on Sonnet 5.5, disabled where accepted, nothing where off is the default, effort low where thinking cannot stop', () => {
    assert.deepEqual(thinkingFields('claude-sonnet-5-5', 'off', 64_000, true).thinking, { type: 'between_tools' });
    assert.deepEqual(thinkingFields('claude-sonnet-5', 'off', 64_000, true).thinking, { type: 'disabled' });
    assert.deepEqual(thinkingFields('claude-haiku-4-5', 'off', 64_000, true), { max_tokens: 64_000, betas: [] });
    const opus = thinkingFields('claude-opus-5-5', 'off', 64_000, true);
    assert.equal(opus.thinking?.type, 'adaptive', 'what it runs anyway');
    assert.deepEqual(opus.output_config, { effort: 'low' });
    assert.match(thinkingNote('claude-opus-5-5', 'off') ?? '', /cannot turn thinking off/);
  });

  it('budget models: enabled with a budget ≥ 1024 and below max_tokens, the interleaved beta with tools only', () => {
    const f = thinkingFields('claude-haiku-4-5-20251001', 'auto', maxTokensFor('claude-haiku-4-5-20251001'), true);
    assert.deepEqual(f.thinking, { type: 'enabled', budget_tokens: 16_384, display: 'summarized' });
    assert.equal(f.max_tokens, 64_000);
    assert.deepEqual(f.betas, [INTERLEAVED_THINKING_BETA]);
    assert.deepEqual(thinkingFields('claude-haiku-4-5', 'auto', 64_000, false).betas, []);
    // Opus 4.1 has 32,000 output tokens: the high budget is lowered to leave room for the answer.
    const opus41 = thinkingFields('claude-opus-4-1-20250805', 'high', maxTokensFor('claude-opus-4-1-20250805'), true);
    assert.equal(opus41.max_tokens, 32_000);
    assert.equal((opus41.thinking as { budget_tokens: number }).budget_tokens, 32_000 - 4096);
    // A max_tokens too small to think in: no thinking rather than a rejected request.
    assert.deepEqual(thinkingFields('claude-sonnet-4-5', 'low', 4000, true), { max_tokens: 4000, betas: [] });
    // 3.7 Sonnet thinks with a budget but takes no interleaved beta.
    assert.deepEqual(thinkingFields('claude-3-7-sonnet-20250219', 'low', 64_000, true).betas, []);
  });

  it('every model × setting obeys the API constraints', () => {
    for (const model of MODELS) {
      for (const setting of SETTINGS) {
        const maxTokens = maxTokensFor(model);
        const f = thinkingFields(model, setting, maxTokens, true);
        const what = `${model} / ${String(setting)}`;
        assert.equal(f.max_tokens, maxTokens, what);
        const t = f.thinking;
        if (t?.type === 'enabled') {
          assert.ok(t.budget_tokens >= 1024 && t.budget_tokens < f.max_tokens, `${what}: budget ${t.budget_tokens} vs max_tokens ${f.max_tokens}`);
          assert.ok(!/^claude-(sonnet|opus|haiku|fable|mythos)-5|claude-opus-4-[678]|claude-sonnet-4-6/.test(model), `${what}: enabled sent to a model that rejects it`);
        }
        if (t?.type === 'adaptive') assert.ok(!/4-5|4-1|sonnet-4-2|3-7/.test(model), `${what}: adaptive sent to a budget-only model`);
        if (t?.type === 'disabled') assert.ok(!/sonnet-5-5|opus-5-5|fable|mythos/.test(model), `${what}: disabled sent where it is rejected`);
        if (f.betas.includes(INTERLEAVED_THINKING_BETA)) assert.equal(t?.type, 'enabled', `${what}: the interleaved beta belongs to budget thinking`);
        if (f.betas.includes(THINKING_BINDING_BETA)) assert.ok(t && 'block_binding' in t, `${what}: the binding beta goes with block_binding`);
        if (/3-5-haiku|some-other/.test(model)) assert.deepEqual(f, { max_tokens: maxTokens, betas: [] }, what);
      }
    }
  });

  it('max_tokens fits the model and the override wins', () => {
    assert.equal(maxTokensFor('claude-sonnet-5-5'), 64_000);
    assert.equal(maxTokensFor('claude-opus-4-1-20250805'), 32_000);
    assert.equal(maxTokensFor('claude-3-5-haiku-20241022'), 8192);
    assert.equal(maxTokensFor('some-other-model'), 16_000);
    assert.equal(maxTokensFor('claude-sonnet-5-5', 12_000), 12_000);
  });

  it('undefined setting (internal requests) sends nothing about thinking', () => {
    assert.deepEqual(thinkingFields('claude-sonnet-5-5', undefined, 8000, false), { max_tokens: 8000, betas: [] });
  });
});
