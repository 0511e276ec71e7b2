/** The editor's `delegate.*` settings, parsed by the core by the setting table's keys (core/settings/editor-settings.ts). */
import { strict as assert } from 'node:assert';
import { editorFanoutSettings, editorSettings } from '../../../src/core/session';

const reader = (values: Record<string, unknown>) => (key: string): unknown => values[key];

describe('editorSettings', () => {
  it('reads each setting by its editor key and parses it once', () => {
    const s = editorSettings(reader({ 'delegate.model': ' m ', 'delegate.maxParallelSubagents': 3, 'delegate.subagentTokenBudget': 5000, 'delegate.maxRetryWaitSeconds': 7, 'delegate.permissionMode': 'plan', 'delegate.thinking': 'high', 'delegate.toolEnv': ['A', ' B ', 'C=1', 4] }));
    assert.equal(s.model, 'm');
    assert.equal(s.maxParallel, 3);
    assert.equal(s.subagentMaxTokens, 5000);
    assert.equal(s.maxRetryWait, 7);
    assert.equal(s.permissionMode, 'plan');
    assert.equal(s.thinking, 'high');
    assert.deepEqual(s.toolEnv, ['A', 'B']);
  });

  it('leaves out a value it cannot use, so the default applies (a mistyped sandbox never turns it off)', () => {
    const s = editorSettings(reader({ 'delegate.sandbox': 'of', 'delegate.permissionMode': 'yolo', 'delegate.maxTurns': 0, 'delegate.thinking': 'lots', 'delegate.webSearch': 'maybe', 'delegate.maxBudgetUsd': 0 }));
    assert.equal('sandbox' in s, false);
    assert.equal(s.permissionMode, 'default');
    assert.equal('maxTurns' in s, false);
    assert.equal('thinking' in s, false);
    assert.equal('webSearch' in s, false);
    assert.equal('maxBudgetUsd' in s, false);
    assert.equal(s.maxRetryWait > 0, true);
  });

  it('holds the compaction threshold inside 0.3–0.95 and keeps only string aliases', () => {
    const s = editorSettings(reader({ 'delegate.compactThreshold': 2, 'delegate.modelAliases': { sonnet: 'x', opus: '', haiku: 3 } }));
    assert.equal(s.compactThreshold, 0.95);
    assert.deepEqual(s.modelAliases, { sonnet: 'x' });
  });

  it("reads the fan-out card's rule and threshold; a mistyped rule is auto, 0 is no threshold", () => {
    assert.deepEqual(editorFanoutSettings(reader({ 'delegate.confirmFanout': 'always', 'delegate.confirmAboveUsd': 0.5 })), { rule: 'always', confirmAboveUsd: 0.5 });
    assert.deepEqual(editorFanoutSettings(reader({ 'delegate.confirmFanout': 'nevr', 'delegate.confirmAboveUsd': 0 })), { rule: 'auto', confirmAboveUsd: undefined });
  });
});
