/** The task node's meta line tells the prompt cache's hit share in its tooltip (built panel, headless Chromium). */
import assert from 'node:assert/strict';
import { applyEvents, createSessionView } from '../../src/view-model/session-view';
import { send, panelSuite } from './browser';
import { ROOT, Script } from './fixtures';

const meta = (id: string): string => `.tree-row[data-id="${id}"] .task-meta`;

describe('webview panel: prompt cache share on the task node', function () {
  this.timeout(60_000);
  const panel = panelSuite();

  it('live from usage events, then from the finished total; a task without input says nothing', async () => {
    const s = new Script();
    s.rootStart('Survey the code.');
    s.turn(ROOT, null, 1);
    s.taskStart(ROOT, null, 'tu-a', 'agent-a', 'Survey the runner', 1);
    s.taskStart(ROOT, null, 'tu-b', 'agent-b', 'Survey the tests', 1);
    s.turn('agent-a', ROOT, 1);
    // 8,000 of 10,000 input tokens read from the cache, 1,500 written, 500 uncached.
    s.emit('agent-a', ROOT, { type: 'usage', turn: 1, usage: { input_tokens: 500, cache_read_input_tokens: 8000, cache_creation_input_tokens: 1500, output_tokens: 200 } });
    await send(panel.page, { type: 'snapshot', state: createSessionView(), running: true });
    await send(panel.page, { type: 'events', events: s.take() });
    await panel.page.locator(meta('task:tu-a')).first().waitFor();
    assert.equal(await panel.page.locator(meta('task:tu-a')).first().getAttribute('title'), 'Prompt cache: 80% of 10,000 input tokens read from cache');
    assert.equal((await panel.page.locator(meta('task:tu-b')).first().getAttribute('title')) ?? '', '', 'no input counted yet');

    s.emit('agent-a', ROOT, { type: 'agent_finished', status: 'completed', result: 'ok', turns: 2, toolCalls: 1, usage: { input_tokens: 1000, cache_read_input_tokens: 15_000, cache_creation_input_tokens: 4000, output_tokens: 400 }, durationMs: 5000 });
    await send(panel.page, { type: 'events', events: s.take() });
    await panel.page.waitForFunction((sel) => (globalThis as unknown as { document: { querySelector(s: string): { title: string } | null } }).document.querySelector(sel)?.title.includes('75%'), meta('task:tu-a'));
    assert.equal(await panel.page.locator(meta('task:tu-a')).first().getAttribute('title'), 'Prompt cache: 75% of 20,000 input tokens read from cache');

    // The same state as a snapshot (a reopened panel) shows the same.
    const state = createSessionView();
    applyEvents(state, s.events);
    await send(panel.page, { type: 'snapshot', state, running: false });
    await panel.page.waitForFunction((sel) => (globalThis as unknown as { document: { querySelector(s: string): { title: string } | null } }).document.querySelector(sel)?.title.includes('75%'), meta('task:tu-a'));
  });
});
