/**
 * Scale and screenshots of the built panel in headless Chromium: a 5,000-call task (a virtual list: the
 * rows in view only, any row reachable at once) and the reference screenshots in
 * test-artifacts/webview/ (look at them after a UI change).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import { encodeSnapshot } from '../../src/view-model/snapshot-codec';
import { ARTIFACTS, frames, openPanel, send, panelSuite } from './browser';
import { bigSession, finishedSession, ROOT, runningSession, Script } from './fixtures';
import { item } from './tree-dom';


function snapshotOf(script: Script): SessionViewState {
  const state = createSessionView();
  applyEvents(state, script.events);
  return state;
}

interface Doc {
  document: { querySelectorAll(s: string): ArrayLike<{ dataset: Record<string, string | undefined> }> };
}
/** Row ids in the DOM, in list order. */
const domRows = (page: Page): Promise<string[]> =>
  page.evaluate(() =>
    Array.from((globalThis as unknown as Doc).document.querySelectorAll('.conversation > .tree-row'))
      .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
      .map((e) => e.dataset.id ?? ''),
  );

describe('webview panel at scale, and screenshots', function () {
  this.timeout(300_000);
  const panel = panelSuite({ pagePerTest: false });

  it('a 5,000-call task: pinned to its newest row, a few dozen rows in the DOM, any row in view at once, keyboard to both ends', async () => {
    // Its earlier calls opened: a long task folds all but its last 10 (flat-rows.ts foldedCount), the rows are the same.
    const page = await openPanel(panel.browser, { v: 1, expanded: { 'fold:task:tu-big': true }, draft: '' }, { width: 420, height: 720 });
    try {
      const s = bigSession(5000);
      // As the editor posts it: packed (snapshot-codec.ts).
      await send(page, { type: 'snapshot', packed: encodeSnapshot(snapshotOf(s)), running: true });
      await frames(page, 3);
      let rows = await domRows(page);
      assert.ok(rows.length > 20 && rows.length <= 80, `rows in the DOM: ${rows.length}`);
      assert.equal(rows.at(-1), 'tool:big-4999', 'the followed task shows its newest row');
      assert.equal(await page.locator(item('tool:big-4999')).getAttribute('aria-setsize'), '12', 'the prompt row, the fold row (4,990 calls) and the last 10');
      assert.equal(await page.locator(item('tool:big-4999')).getAttribute('aria-posinset'), '12');
      assert.equal(await page.locator(item('tool:big-4999')).getAttribute('aria-level'), '2');
      assert.equal(await page.locator(item('tool:big-4989')).getAttribute('aria-setsize'), '4990', 'under the fold row');
      assert.equal(await page.locator(item('tool:big-4989')).getAttribute('aria-level'), '3');

      // A live call: still pinned to the newest row.
      s.take();
      s.tool('agent-big', ROOT, 'after', 'bash', { command: 'echo after' }, 'after');
      await send(page, { type: 'events', events: s.take() });
      await frames(page, 2);
      assert.equal((await domRows(page)).at(-1), 'tool:after');

      // The middle, at once: no "Show earlier calls", one scroll.
      // The user scrolls (a wheel turn, then the scroll bar dragged to the middle).
      await page.mouse.move(200, 300);
      await page.mouse.wheel(0, -200);
      await page.locator('.log').evaluate((log) => {
        const l = log as unknown as { scrollTop: number; scrollHeight: number };
        l.scrollTop = l.scrollHeight / 2;
      });
      await frames(page, 2);
      rows = await domRows(page);
      assert.ok(rows.some((id) => /^tool:big-2[45]\d\d$/.test(id)), `middle rows: ${rows.slice(0, 3).join(', ')}…`);
      assert.ok(rows.length <= 80, `rows in the DOM: ${rows.length}`);
      assert.equal(await page.locator('.jump-latest').isVisible(), true, 'scrolled away from a running task: Jump to latest');
      assert.equal(await page.locator('.sticky-task .task-title').textContent(), 'Run 5000 tool calls', 'its header stays pinned');
      await page.waitForTimeout(200); // codicon font
      await page.screenshot({ path: join(ARTIFACTS, 'scale-5000-middle.png') });

      // Keyboard: Home, End, arrows reach rows that were not in the DOM.
      await page.locator(item(rows[5] ?? '')).focus();
      const focusIs = (id: string): Promise<unknown> =>
        page.waitForFunction((want) => (globalThis as unknown as { document: { activeElement: { dataset: { id?: string } } | null } }).document.activeElement?.dataset.id === want, id, { timeout: 5000 });
      await page.keyboard.press('Home');
      await focusIs('user:1');
      await page.keyboard.press('End');
      await focusIs('tool:after');
      await page.keyboard.press('ArrowUp');
      assert.equal(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { dataset: { id?: string } } | null } }).document.activeElement?.dataset.id), 'tool:big-4999');
      await page.keyboard.press('ArrowLeft');
      // 5,000 rows up: scrolled there, then focused once it is rendered.
      await page.waitForFunction(() => (globalThis as unknown as { document: { activeElement: { dataset: { id?: string } } | null } }).document.activeElement?.dataset.id === 'task:tu-big', undefined, { timeout: 5000 });
      await page.locator('.jump-latest').click().catch(() => undefined);
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
