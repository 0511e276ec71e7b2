// The subagent model cap's tiers (delegation/model-cap.ts): by the price table's output price, the cap's own model
// always passing, a model without a price refused unless it is the cap's, `none` lifting it.
import assert from 'node:assert/strict';
import { modelCapRefusal } from '../../../src/core/delegation/model-cap';
import { DEFAULT_MODEL_ALIASES } from '../../../src/core/agent-files/agent-catalog';
import { DEFAULT_PRICES } from '../../../src/core/loop/budget';

const base = { sessionModel: 'claude-sonnet-5-5', aliases: DEFAULT_MODEL_ALIASES, prices: DEFAULT_PRICES, settingName: '--subagent-model-cap' };

describe('the subagent model cap', () => {
  it('session (the default): cheaper and same-tier models pass, a dearer one is refused naming the cap', () => {
    assert.equal(modelCapRefusal({ ...base, requested: 'claude-haiku-5-5', cap: undefined }), undefined);
    assert.equal(modelCapRefusal({ ...base, requested: 'claude-sonnet-4-6', cap: 'session' }), undefined, 'the same tier');
    assert.match(modelCapRefusal({ ...base, requested: 'claude-opus-5-5', cap: undefined }) ?? '', /the session's model claude-sonnet-5-5 \(\$15; --subagent-model-cap sets the cap\)/);
  });

  it('an alias or id as the cap; none lifts it; a model without a price passes only as the cap itself', () => {
    assert.equal(modelCapRefusal({ ...base, requested: 'claude-opus-5-5', cap: 'opus' }), undefined);
    assert.match(modelCapRefusal({ ...base, requested: 'claude-opus-4-1', cap: 'opus' }) ?? '', /\$75 per million output tokens.*opus \(claude-opus-5-5\) \(\$25/);
    assert.equal(modelCapRefusal({ ...base, requested: 'claude-opus-4-1', cap: 'none' }), undefined);
    assert.match(modelCapRefusal({ ...base, requested: 'local-llm', cap: undefined }) ?? '', /has no price, so its cost tier is unknown/);
    assert.equal(modelCapRefusal({ ...base, sessionModel: 'local-llm', requested: 'local-llm', cap: undefined }), undefined);
    assert.match(modelCapRefusal({ ...base, sessionModel: 'local-llm', requested: 'claude-haiku-5-5', cap: undefined }) ?? '', /the subagent model cap the session's model local-llm has no price/);
    assert.equal(modelCapRefusal({ ...base, prices: { ...DEFAULT_PRICES, 'local-llm': { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }, requested: 'local-llm', cap: undefined }), undefined, 'priced by the user: the cheapest tier');
  });
});
