/**
 * A long subagent's calls folded (flat-rows.ts foldedCount, issue 25 §8): a child that made 320 calls shows one
 * "310 earlier calls" row and its last 10, not 320 rows; the row opens like any other (click, keyboard), and
 * Next error (F8) opens it to reach a failed call inside. Screenshots at 300 and 250 px, dark and light:
 * test-artifacts/webview/long-task-fold-*.png.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { applyEvents, createSessionView } from '../../src/view-model/session-view';
import { ARTIFACTS, frames, openPanel, panelSuite, send } from './browser';
import { ROOT, Script } from './fixtures';
import { childIds, isOpen, item } from './tree-dom';

/** A child of 320 calls, one of the early ones failed, still running or failed at its end. */
function longChild(finished: boolean): Script {
  const s = new Script();
  s.rootStart('Check every package.');
  s.turn(ROOT, null, 1);
  s.taskStart(ROOT, null, 'tu-long', 'agent-long', 'Check all 320 packages for the deprecated API', 1);
  s.turn('agent-long', ROOT, 1);
  for (let i = 0; i < 320; i++) s.tool('agent-long', ROOT, `p${i}`, i % 2 ? 'grep' : 'read_file', i % 2 ? { pattern: `api${i}` } : { path: `packages/p${i}/index.ts` }, `out ${i}`, i === 12);
  if (finished) {
    s.childFinish('agent-long', ROOT, 'error', 40, 320, [90_000, 9000], '', 'Model request failed: overloaded');
    s.taskEnd(ROOT, null, 'tu-long', 'Model request failed: overloaded', true);
  }
  return s;
}

const focused = (page: Page): Promise<string | undefined> =>
  page.evaluate(() => (globalThis as unknown as { document: { activeElement: { dataset?: { id?: string } } | null } }).document.activeElement?.dataset?.id);

describe('a long subagent\'s calls, folded (headless Chromium)', function () {
  this.timeout(90_000);
  const panel = panelSuite({ size: { width: 300, height: 640 } });

  it('320 calls: one "310 earlier calls" row and the last 10; opened by click or keyboard; Next error opens it', async () => {
    const page = panel.page;
    const state = createSessionView();
    applyEvents(state, longChild(false).events);
    await send(page, { type: 'snapshot', state, running: true });
    const fold = page.locator(item('fold:task:tu-long'));
    await fold.waitFor();
    assert.equal((await fold.innerText()).replace(/\s+/g, ' ').trim(), '310 earlier calls');
    assert.equal(await fold.getAttribute('aria-expanded'), 'false');
    assert.deepEqual(await childIds(page, 'task:tu-long', 'tool-row'), Array.from({ length: 10 }, (_, i) => `tool:p${310 + i}`), 'the newest 10 in sight');
    assert.equal(await page.locator('.conversation > .tool-row').count(), 10, 'not 320 rows');
    await page.waitForTimeout(200);
    await page.screenshot({ path: join(ARTIFACTS, 'long-task-fold-300.png') });

    // Keyboard: the fold row opens with ArrowRight like a task row.
    await fold.focus();
    await page.keyboard.press('ArrowRight');
    await frames(page, 2);
    assert.equal(await isOpen(page, 'fold:task:tu-long'), true);
    await page.keyboard.press('ArrowDown');
    await frames(page, 2);
    assert.equal(await focused(page), 'tool:p0', 'the earliest call, under the fold');
    assert.equal(await page.locator(item('tool:p0')).getAttribute('aria-level'), '3');
    await page.keyboard.press('ArrowLeft');
    await frames(page, 2);
    assert.equal(await focused(page), 'fold:task:tu-long', 'Left on its child goes to the fold row');
    await page.keyboard.press('ArrowLeft');
    await frames(page, 2);
    assert.equal(await isOpen(page, 'fold:task:tu-long'), false, 'Left again closes it');
  });

  it('a failed long child: Next error reaches a failed call inside the fold; screenshots at 250 px, light', async () => {
    const page = await openPanel(panel.browser, undefined, { width: 250, height: 640 });
    try {
      const state = createSessionView();
      applyEvents(state, longChild(true).events);
      await send(page, { type: 'snapshot', state, running: false });
      await page.locator(item('fold:task:tu-long')).waitFor();
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(ARTIFACTS, 'long-task-fold-250.png') });
      await page.evaluate(() => ((globalThis as unknown as { document: { documentElement: { className: string } } }).document.documentElement.className = 'vscode-light'));
      await page.waitForTimeout(100);
      await page.screenshot({ path: join(ARTIFACTS, 'long-task-fold-250-light.png') });
      await page.keyboard.press('F8');
      await frames(page, 3);
      assert.equal(await focused(page), 'task:tu-long', 'the failed task first');
      await page.keyboard.press('F8');
      await frames(page, 3);
      assert.equal(await focused(page), 'tool:p12', 'then the failed call inside the fold, opened');
      assert.equal(await isOpen(page, 'fold:task:tu-long'), true);
    } finally {
      await page.close();
    }
  });
});
