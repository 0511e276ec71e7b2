/**
 * The built panel in headless Chromium: snapshot + event batches in, DOM and posted messages out.
 * Builds dist/webview first; fails with the install command when /usr/bin/chromium is absent.
 */
import assert from 'node:assert/strict';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import { openPanel, posted, savedState, send, panelSuite } from './browser';
import { finishedSession, ROOT, runningSession } from './fixtures';
import { childIds, detail, isOpen, item } from './tree-dom';
import { callEnded } from '../kit/call-patches';

function snapshotOf(events: Parameters<typeof applyEvents>[1]): SessionViewState {
  const state = createSessionView();
  applyEvents(state, events);
  return state;
}

describe('webview panel (headless Chromium)', function () {
  this.timeout(60_000);
  const panel = panelSuite();

  it('posts ready, then renders a task from event batches, live, without rebuilding its row', async () => {
    assert.deepEqual(await posted(panel.page), [{ type: 'ready' }]);
    await send(panel.page, { type: 'snapshot', state: createSessionView(), running: false });
    const s = runningSession();
    const events = s.take();
    const cut = events.findIndex((e) => e.type === 'tool_call' && e.id === 'u2');
    await send(panel.page, { type: 'events', events: events.slice(0, cut) });
    const task = panel.page.locator(item('task:tu-up'));
    await assert.doesNotReject(task.waitFor());
    assert.equal(await task.locator('.task-title').first().textContent(), 'Upgrade esbuild and fix the build');
    assert.equal(await task.getAttribute('data-status'), 'running');
    assert.equal(await isOpen(panel.page, 'task:tu-up'), true, 'a running task is expanded');
    assert.ok(await task.locator('.codicon-loading.codicon-modifier-spin').first().isVisible());
    await panel.page.evaluate((sel) => {
      (globalThis as unknown as { document: { querySelector(s: string): Record<string, unknown> } }).document.querySelector(sel).marker = 42;
    }, item('task:tu-up'));
    await send(panel.page, { type: 'events', events: events.slice(cut) });
    const marker = await panel.page.evaluate(
      (sel) => (globalThis as unknown as { document: { querySelector(s: string): Record<string, unknown> } }).document.querySelector(sel).marker,
      item('task:tu-up'),
    );
    assert.equal(marker, 42, 'the task row element is updated in place');
    assert.deepEqual(await childIds(panel.page, 'task:tu-up', ['tool-row', 'task-row']), ['tool:u1', 'tool:u2', 'tool:u3', 'task:tu-nested', 'tool:u4']);
    const nested = panel.page.locator(item('task:tu-nested'));
    assert.equal(await nested.getAttribute('data-status'), 'running');
    assert.equal((await childIds(panel.page, 'task:tu-nested', 'tool-row')).length, 2);
    assert.equal(await nested.getAttribute('aria-level'), '2');
    assert.equal(await panel.page.locator(item('tool:u2')).getAttribute('data-status'), 'error');
    assert.match((await panel.page.locator(item('tool:u4')).textContent()) ?? '', /approval\?/);
  });

  it('shows the end of a task: completed with turns and tokens, collapsed, result row', async () => {
    const s = runningSession();
    await send(panel.page, { type: 'snapshot', state: snapshotOf(s.take()), running: true });
    s.emit('agent-up', ROOT, { type: 'permission_answered', toolUseId: 'u4', name: 'bash', decision: 'deny', reason: 'not now' });
    s.emit('agent-up', ROOT, callEnded('u4', 'bash', 'Permission denied', true, 3));
    await send(panel.page, { type: 'events', events: s.take() });
    assert.match((await panel.page.locator(item('tool:u4')).textContent()) ?? '', /denied/);
    s.childFinish('agent-nested', 'agent-up', 'completed', 1, 2, [900, 90], 'No breaking changes.');
    s.childFinish('agent-up', ROOT, 'completed', 3, 5, [12_000, 1500], 'Build fixed.');
    s.taskEnd(ROOT, null, 'tu-up', 'Build fixed.');
    await send(panel.page, { type: 'events', events: s.take() });
    const task = panel.page.locator(item('task:tu-up'));
    assert.equal(await task.getAttribute('data-status'), 'completed');
    assert.equal(await isOpen(panel.page, 'task:tu-up'), false, 'a finished task collapses');
    const meta = (await task.locator('.task-meta').first().textContent()) ?? '';
    assert.equal(meta, '3 turns · 5 tools · 12s · 14k tokens');
    assert.ok(await task.locator('.codicon-check').first().count());
    await panel.page.locator(`${item('task:tu-up')} .task-title`).click();
    assert.equal(await panel.page.locator(`${item('outcome:task:tu-up')} .text-row-line`).textContent(), 'Build fixed.');
  });

  it("a child that ended with no report says so on its outcome row, not in the harness's words to the model", async () => {
    const s = runningSession();
    s.childFinish('agent-nested', 'agent-up', 'completed', 1, 2, [900, 90], 'No breaking changes.');
    s.childFinish('agent-up', ROOT, 'max_turns', 8, 5, [12_000, 1500], '');
    s.taskEnd(ROOT, null, 'tu-up', '[The subagent reached its limit of 8 turns; this answer may be incomplete.]\n(no report)');
    await send(panel.page, { type: 'snapshot', state: snapshotOf(s.take()), running: false });
    assert.equal(await isOpen(panel.page, 'task:tu-up'), true, 'a task that ended early stays open');
    assert.equal(await panel.page.locator(item('outcome:task:tu-up')).count(), 0, 'no Result row: there is no result');
    assert.equal(await panel.page.locator(`${item('task:tu-up')} .task-reason`).textContent(), 'It used all its 8 turns before finishing');
    assert.doesNotMatch((await panel.page.locator('.conversation').textContent()) ?? '', /reached its limit|no report/);
  });

  it('keeps the user’s expand/collapse choices across a reload', async () => {
    const state = snapshotOf(finishedSession().events);
    await send(panel.page, { type: 'snapshot', state, running: false });
    assert.equal(await isOpen(panel.page, 'task:tu-a'), false, 'a completed task is closed');
    // A task that ended early (turn limit, failure) stays open by default.
    for (const id of ['task:tu-b', 'task:tu-c']) assert.equal(await isOpen(panel.page, id), true);
    await panel.page.locator(`${item('task:tu-b')} .task-title`).click();
    await panel.page.locator(`${item('task:tu-a')} .task-title`).click();
    await panel.page.locator(`${item('tool:a2')} .tool-name`).click();
    await send(panel.page);
    assert.deepEqual((await savedState(panel.page)) as unknown, { v: 1, expanded: { 'task:tu-b': false, 'task:tu-a': true, 'tool:a2': true }, draft: '' });
    assert.match((await detail(panel.page, 'tool:a2').locator('.detail-output').textContent()) ?? '', /42 passing/);

    const reloaded = await openPanel(panel.browser, await savedState(panel.page));
    try {
      await send(reloaded, { type: 'snapshot', state, running: false });
      assert.equal(await isOpen(reloaded, 'task:tu-a'), true);
      assert.equal(await isOpen(reloaded, 'tool:a2'), true);
      assert.equal(await isOpen(reloaded, 'task:tu-b'), false);
      assert.ok(await detail(reloaded, 'tool:a2').locator('.detail-output').isVisible());
    } finally {
      await reloaded.close();
    }
  });

  it('Enter posts the prompt, Shift+Enter adds a newline, Stop posts stop', async () => {
    await send(panel.page, { type: 'snapshot', state: createSessionView(), running: false });
    const input = panel.page.locator('vscode-textarea.prompt-input textarea');
    await input.click();
    await panel.page.keyboard.type('first line');
    await panel.page.keyboard.press('Shift+Enter');
    await panel.page.keyboard.type('second line');
    assert.equal((await posted(panel.page)).filter((m) => m.type === 'prompt').length, 0);
    await panel.page.keyboard.press('Enter');
    assert.deepEqual((await posted(panel.page)).filter((m) => m.type === 'prompt'), [{ type: 'prompt', text: 'first line\nsecond line' }]);
    assert.equal(await input.inputValue(), '', 'the box is cleared after sending');

    const stop = panel.page.locator('vscode-button.stop-button');
    assert.equal(await stop.getAttribute('disabled'), '');
    await send(panel.page, { type: 'status', running: true });
    assert.equal(await stop.getAttribute('disabled'), null);
    await stop.click();
    assert.deepEqual((await posted(panel.page)).at(-1), { type: 'stop' });
  });

  it('posts open_file for a clicked path and open_diff for a write row', async () => {
    await send(panel.page, { type: 'snapshot', state: snapshotOf(runningSession().events), running: true });
    await panel.page.locator(`${item('tool:u1')} .path-link`).click();
    assert.deepEqual((await posted(panel.page)).at(-1), { type: 'open_file', path: 'scripts/build.mjs' });
    assert.equal(await isOpen(panel.page, 'tool:u1'), false, 'clicking the path does not toggle the row');
    await panel.page.locator(`${item('tool:u3')} .row-diff`).click();
    assert.deepEqual((await posted(panel.page)).at(-1), { type: 'open_diff', agentId: 'agent-up', toolUseId: 'u3' });
  });

  it('shows the prompt from its event at once, then streams the parent text', async () => {
    const s = finishedSession();
    const events = s.take();
    const prompt = 'Find why the integration tests are flaky and fix it.';
    // The run's first event, alone (its hooks still running): the echo of what was typed.
    await send(panel.page, { type: 'snapshot', state: createSessionView(), running: false }, { type: 'events', events: events.slice(0, 1) });
    assert.equal(await panel.page.locator('.msg-user .msg-text').textContent(), prompt);
    const firstDelta = events.findIndex((e) => e.type === 'text_delta');
    await send(panel.page, { type: 'events', events: events.slice(0, firstDelta + 1) });
    const text = panel.page.locator('.msg-assistant').first();
    const full = 'I will split this into three investigations and run them in parallel.';
    assert.equal(await text.textContent(), full.slice(0, Math.floor(full.length / 2)));
    assert.ok(await text.evaluate((e) => (e as unknown as { classList: { contains(c: string): boolean } }).classList.contains('is-streaming')));
    await send(panel.page, { type: 'events', events: events.slice(firstDelta + 1) });
    assert.equal(await text.textContent(), full);
    assert.equal(await panel.page.locator('.msg-user').count(), 1, 'the prompt once: agent_started and the opening message add none');
    assert.match((await panel.page.locator('.msg-assistant code').first().textContent()) ?? '', /50 ms/);
  });
});
