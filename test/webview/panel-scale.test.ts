/**
 * Scale and screenshots of the built panel in headless Chromium: a 5,000-call task (windowed to
 * its last rows, then all of them on request) and the two reference screenshots in
 * test-artifacts/webview/ (look at them after a UI change).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import { ARTIFACTS, openPanel, send, panelSuite } from './browser';
import { bigSession, finishedSession, ROOT, runningSession, Script } from './fixtures';
import { item } from './tree-dom';


function snapshotOf(script: Script): SessionViewState {
  const state = createSessionView();
  applyEvents(state, script.events);
  return state;
}

interface Doc {
  document: { querySelectorAll(s: string): { length: number } };
}
const toolRowCount = (page: Page): Promise<number> =>
  page.evaluate(() => (globalThis as unknown as Doc).document.querySelectorAll('vscode-tree-item.tool-row').length);

describe('webview panel at scale, and screenshots', function () {
  this.timeout(300_000);
  const panel = panelSuite({ pagePerTest: false });

  it('renders a 5,000-call task: the last 250 at once, all 5,000 on request, in order, live appends after', async () => {
    const page = await openPanel(panel.browser);
    try {
      const s = bigSession(5000);
      await send(page, { type: 'snapshot', state: snapshotOf(s), running: true });
      await page.waitForFunction(() => (globalThis as unknown as Doc).document.querySelectorAll('vscode-tree-item.tool-row').length >= 250);
      assert.equal(await toolRowCount(page), 250);
      const more = page.locator('vscode-tree-item.more-row');
      assert.equal(await more.textContent(), 'Show 4,750 earlier calls');
      await more.click();
      await page.waitForFunction(() => (globalThis as unknown as Doc).document.querySelectorAll('vscode-tree-item.tool-row').length >= 5000, undefined, {
        timeout: 240_000,
      });
      assert.equal(await more.count(), 0);
      s.take();
      s.tool('agent-big', ROOT, 'after', 'bash', { command: 'echo after' }, 'after');
      await send(page, { type: 'events', events: s.take() });
      const ids = await page
        .locator(`${item('task:tu-big')} > vscode-tree-item.tool-row`)
        .evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { id: string } }).dataset.id));
      assert.equal(ids.length, 5001);
      assert.deepEqual(ids.slice(0, 3), ['tool:big-0', 'tool:big-1', 'tool:big-2']);
      assert.deepEqual(ids.slice(-2), ['tool:big-4999', 'tool:after']);
    } finally {
      await page.close();
    }
  });

  it('screenshot: a finished session: the completed task expanded by the user, the turn-limited and failed ones open by default', async () => {
    const page = await openPanel(panel.browser, { v: 1, expanded: { 'task:tu-a': true, 'tool:a2': true }, draft: '' }, { width: 420, height: 760 });
    try {
      await send(page, { type: 'snapshot', state: snapshotOf(finishedSession()), running: false });
      await page.waitForTimeout(200); // codicon font
      assert.equal(await page.locator(item('task:tu-a')).getAttribute('aria-expanded'), 'true');
      assert.equal(await page.locator(item('task:tu-b')).getAttribute('aria-expanded'), 'true', 'a task at its turn limit stays open');
      await page.screenshot({ path: join(ARTIFACTS, 'finished-session.png') });
    } finally {
      await page.close();
    }
  });

  it('screenshot: a running task with a nested subagent and a call waiting for approval', async () => {
    const page = await openPanel(panel.browser, undefined, { width: 420, height: 560 });
    try {
      const s = runningSession();
      // Re-stamp so the elapsed times read like a live run.
      const shift = Date.now() - 45_000 - (s.events[0]?.time ?? 0);
      const events = s.events.map((e) => ({ ...e, time: e.time + shift }));
      const state = createSessionView();
      applyEvents(state, events);
      await send(page, { type: 'snapshot', state, running: true });
      await page.waitForTimeout(200);
      assert.equal(await page.locator(item('task:tu-nested')).getAttribute('data-status'), 'running');
      await page.screenshot({ path: join(ARTIFACTS, 'running-task.png') });
    } finally {
      await page.close();
    }
  });
});
