// The fan-out card's words: what all tasks share said once, per task only what differs; a forecast per agent type
// that says what it rests on, and says so when the runs vary a lot instead of one misleading figure; the capped
// run's name and caps; the modal's text with the same content.
import assert from 'node:assert/strict';
import type { FanoutCard, FanoutChild } from '../../src/core/session/ports';
import { fanoutText, fanoutView } from '../../src/vscode/fanout-text';

const child = (id: string, description: string, more: Partial<FanoutChild> = {}): FanoutChild => ({ toolUseId: id, description, prompt: `Do ${description}.`, agentType: 'reviewer', model: 'claude-sonnet-5-5', mode: 'default', fork: false, background: false, ...more });
const main = { agentId: 'main', parentId: null, depth: 0 };
/** 12 runs of reviewer: a median run of 40k tokens, a tail 60× longer. */
const reviewer = { agentType: 'reviewer', runs: 12, tokens: { median: 40_000, p90: 2_400_000 }, costUsd: { median: 0.12, p90: 7.2 }, durationMs: { median: 60_000, p90: 1_800_000 } };

describe('the fan-out card\'s words', () => {
  it('says which figure varies: runs of the same size whose time alone spread 9×', () => {
    const timeOnly = { agentType: 'general-purpose', runs: 6, tokens: { median: 1700, p90: 1700 }, costUsd: { median: 0.0007, p90: 0.0013 }, durationMs: { median: 16, p90: 146 } };
    const view = fanoutView({ parent: main, reason: 'count', p90Usd: 0.004, children: ['a', 'b', 'c'].map((d, i) => child(`t${i}`, d, { forecast: timeOnly })) });
    assert.match(view.forecast[0] ?? '', /, but the largest took 1\.7k tokens · \$0\.0013 · 146ms \(time 9× the median\)\.$/);
  });

  it('four tasks of one agent: the shared fields once, nothing per task; a forecast that says it rests on 12 runs that vary 60×', () => {
    const card: FanoutCard = { parent: main, reason: 'count', p90Usd: 28.8, children: ['api', 'ui', 'db', 'docs'].map((d, i) => child(`t${i}`, `review ${d}`, { forecast: reviewer })) };
    const view = fanoutView(card);
    assert.equal(view.shared, 'reviewer · claude-sonnet-5-5 · every tool · mode default');
    assert.deepEqual(view.tasks.map((t) => [t.description, t.own, t.prompt]), [['review api', '', 'Do review api.'], ['review ui', '', 'Do review ui.'], ['review db', '', 'Do review db.'], ['review docs', '', 'Do review docs.']]);
    assert.deepEqual(view.forecast, ['reviewer (4 tasks): from 12 past runs here, and they vary a lot: median 40k tokens · $0.12 · 1m 00s, but 9 in 10 stayed under 2.4M tokens · $7.20 · 30m 00s (tokens and cost 60× the median).']);
    assert.equal(view.caps, 'Stops each at its usual maximum (what 9 in 10 past runs stayed within): reviewer at 2.4M tokens · 30m 00s · $7.20.');
    assert.deepEqual(view.choices.map((c) => c.label), ['Run', 'Run, stopping each at its usual maximum', 'Cancel']);
    assert.equal(view.why, 'Shown when 3 or more subagents start at once (delegate.confirmFanout: auto).');
  });

  it('a task call that picks its model and effort: the card says them on that task, the shared ones once', () => {
    const view = fanoutView({ parent: main, reason: 'count', children: [child('a', 'scan', { model: 'claude-haiku-5-5', effort: 'low' }), child('b', 'fix'), child('c', 'prove', { effort: 'high' })] });
    assert.equal(view.shared, 'reviewer · every tool · mode default');
    assert.deepEqual(view.tasks.map((t) => t.own), ['claude-haiku-5-5 · effort low', 'claude-sonnet-5-5', 'claude-sonnet-5-5 · effort high']);
  });

  it('mixed tasks: only what differs per task; no history says so; fewer than 10 runs name the largest; no capped run without history', () => {
    const explore = { agentType: 'Explore', runs: 4, tokens: { median: 12_400, p90: 30_000 }, costUsd: { median: 0.02, p90: 0.05 }, durationMs: { median: 40_000, p90: 70_000 } };
    const card: FanoutCard = {
      parent: { agentId: 'a1', parentId: 'main', depth: 1, description: 'plan the work' },
      reason: 'always',
      children: [
        child('t1', 'read the docs', { agentType: 'Explore', tools: ['read_file', 'grep'], forecast: explore }),
        child('t2', 'fix the bug', { agentType: 'general-purpose', background: true }),
      ],
    };
    const view = fanoutView(card);
    assert.equal(view.shared, 'claude-sonnet-5-5 · mode default');
    assert.deepEqual(view.tasks.map((t) => t.own), ['Explore · read_file, grep', 'general-purpose · every tool · in the background']);
    assert.deepEqual(view.forecast, ['Explore: from 4 past runs here: median 12k tokens · $0.02 · 40s; the largest took 30k tokens · $0.05 · 1m 10s.', 'general-purpose: no history yet in this workspace, so no forecast.']);
    assert.match(view.caps ?? '', /Explore at 30k tokens · 1m 10s · \$0\.05; the others \(no history\) run without caps\.$/);
    const none = fanoutView({ parent: main, reason: 'count', children: [child('a', 'one'), child('b', 'two'), child('c', 'three')] });
    assert.equal(none.caps, undefined);
    assert.deepEqual(none.choices.map((c) => c.choice), ['run', 'cancel']);
    assert.deepEqual(fanoutView({ parent: main, reason: 'count', children: [child('a', 'one', { forecast: { ...explore, runs: 1 } })] }).forecast, ['reviewer: from 1 past run here: 12k tokens · $0.02 · 40s.']);
  });

  it('the modal: who starts how many, the same content as text, the setting that stops it', () => {
    const text = fanoutText({ parent: { agentId: 'a1', parentId: 'main', depth: 1, description: 'plan the work' }, reason: 'cost', p90Usd: 0.42, children: [child('t1', 'read the docs', { forecast: reviewer }), child('t2', 'fix the bug', { model: 'claude-opus-5-5', forecast: reviewer })] });
    assert.equal(text.message, 'Subagent “plan the work” wants to start 2 subagents at once');
    assert.equal(text.capped, true);
    assert.equal(
      text.detail,
      'All: reviewer · every tool · mode default\n\n1. read the docs — claude-sonnet-5-5\n2. fix the bug — claude-opus-5-5\n\n' +
        'Forecast\nreviewer (2 tasks): from 12 past runs here, and they vary a lot: median 40k tokens · $0.12 · 1m 00s, but 9 in 10 stayed under 2.4M tokens · $7.20 · 30m 00s (tokens and cost 60× the median).\n\n' +
        '"Run, stopping each at its usual maximum": stops each at its usual maximum (what 9 in 10 past runs stayed within): reviewer at 2.4M tokens · 30m 00s · $7.20.\n\n' +
        'Shown because together they may cost $0.42 (each at its usual maximum), over delegate.confirmAboveUsd. To start them without asking, set delegate.confirmFanout to never.',
    );
  });
});
