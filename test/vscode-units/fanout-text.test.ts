import assert from 'node:assert/strict';
import { fanoutText } from '../../src/vscode/fanout-text';

describe('the fan-out card\'s words', () => {
  it('names who starts how many, each child\'s agent, model, tools, mode and forecast, and offers caps only with history', () => {
    const child = { model: 'claude-sonnet-5-5', mode: 'default' as const, fork: false, background: false };
    const text = fanoutText({
      parent: { agentId: 'a1', parentId: 'main', depth: 1, description: 'plan the work' },
      reason: 'count',
      p90Usd: 0.42,
      children: [
        { ...child, toolUseId: 't1', description: 'read the docs', agentType: 'Explore', tools: ['read_file', 'grep'], forecast: { agentType: 'Explore', runs: 12, tokens: { median: 12_400, p90: 30_000 }, costUsd: { median: 0.02, p90: 0.05 }, durationMs: { median: 40_000, p90: 70_000 } } },
        { ...child, toolUseId: 't2', description: 'fix the bug', agentType: 'general-purpose', background: true },
      ],
    });
    assert.equal(text.message, 'Subagent “plan the work” wants to start 2 subagents at once — up to $0.42 (p90 of past runs)');
    assert.equal(
      text.detail,
      '1. read the docs\n    Explore · claude-sonnet-5-5 · read_file, grep · mode default\n    forecast: 12k tokens (p90 30k) · $0.02 (p90 $0.05) · 40s (p90 1m 10s) — from 12 past runs\n\n' +
        '2. fix the bug\n    general-purpose · claude-sonnet-5-5 · every tool · mode default · in the background\n    forecast: no history of this agent in this workspace\n\n' +
        'Shown when 3 or more subagents start at once (delegate.confirmFanout: auto).\n\n"Run with these caps" gives each subagent with history its forecast\'s p90 as budgets (tokens, time, dollars).',
    );
    assert.equal(text.capped, true);
    const none = fanoutText({ parent: { agentId: 'main', parentId: null, depth: 0 }, reason: 'always', children: [{ ...child, toolUseId: 't', description: 'x', agentType: 'general-purpose' }] });
    assert.equal(none.message, 'The main agent wants to start 1 subagent at once');
    assert.equal(none.capped, false);
  });
});
