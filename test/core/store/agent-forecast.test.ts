import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { forecastAgents, forecastFrom } from '../../../src/core/store/agent-forecast';
import type { SubagentRun } from '../../../src/core/store/session-index';
import { tempDir } from '../../kit/temp-dirs';

const usage = (tokens: number) => ({ input_tokens: tokens - 100, output_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });

/** A root transcript with one prompt whose children finished with these figures. */
function writeSession(root: string, id: string, cwd: string, time: number, children: { type?: string; tokens: number; ms: number; usd?: number; status?: string }[]): void {
  const env = (agentId: string, parentId: string | null, t: number) => ({ seq: 0, time: t, sessionId: id, agentId, parentId });
  const lines: unknown[] = [{ ...env('main', null, time), type: 'agent_started', prompt: 'go', depth: 0, model: 'm', cwd }];
  children.forEach((c, i) => {
    const a = `c${i}`;
    lines.push({ ...env(a, 'main', time + i), type: 'agent_started', prompt: 'p', depth: 1, model: 'm', ...(c.type ? { agentType: c.type } : {}) });
    lines.push({ ...env(a, 'main', time + i + 1), type: 'agent_finished', status: c.status ?? 'completed', result: 'r', turns: 1, toolCalls: 1, usage: usage(c.tokens), durationMs: c.ms, ...(c.usd !== undefined ? { costUsd: c.usd } : {}) });
  });
  lines.push({ ...env('main', null, time + 100), type: 'agent_finished', status: 'completed', result: 'r', turns: 1, toolCalls: 1, usage: usage(200), durationMs: 5 });
  writeFileSync(join(root, `${id}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

describe('agent forecast', () => {
  it('median and p90 per agent type from this folder\'s sessions; failed and stopped runs do not count; other folders ignored', async () => {
    const root = tempDir('forecast-');
    const tokens = [1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000];
    writeSession(root, 'a0000000-0000-4000-8000-000000000001', '/w', 1_000, tokens.slice(0, 5).map((t) => ({ type: 'Explore', tokens: t, ms: t / 10, usd: t / 1e6 })));
    writeSession(root, 'a0000000-0000-4000-8000-000000000002', '/w', 2_000, [
      ...tokens.slice(5).map((t) => ({ type: 'Explore', tokens: t, ms: t / 10, usd: t / 1e6 })),
      { type: 'Explore', tokens: 999_999, ms: 1, status: 'error' },
      { type: 'Explore', tokens: 999_999, ms: 1, status: 'cancelled' },
      { tokens: 500, ms: 50 },
    ]);
    writeSession(root, 'a0000000-0000-4000-8000-000000000003', '/elsewhere', 3_000, [{ type: 'Explore', tokens: 1, ms: 1 }]);
    const forecasts = await forecastAgents(root, '/w', ['Explore', 'general-purpose', 'reviewer']);
    const explore = forecasts.get('Explore');
    assert.equal(explore?.runs, 10);
    assert.deepEqual(explore?.tokens, { median: 5000, p90: 9000 });
    assert.deepEqual(explore?.durationMs, { median: 500, p90: 900 });
    assert.ok(explore?.costUsd && Math.abs(explore.costUsd.p90 - 0.009) < 1e-12);
    // A child with no agentType on its start ran the default type.
    assert.deepEqual(forecasts.get('general-purpose')?.tokens, { median: 500, p90: 500 });
    assert.equal(forecasts.get('general-purpose')?.costUsd, undefined, 'no price, no dollar forecast');
    assert.equal(forecasts.get('reviewer'), undefined, 'no history');
  });

  it('uses only the newest 50 runs', () => {
    const runs: SubagentRun[] = Array.from({ length: 80 }, (_, i) => ({ agentType: 'x', tokens: i < 50 ? 10 : 1_000_000, durationMs: 1, status: 'completed' }));
    assert.deepEqual(forecastFrom('x', runs)?.tokens, { median: 10, p90: 10 });
  });
});
