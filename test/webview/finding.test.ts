/**
 * Finding one's way in the panel (issue 15 §1–2), in headless Chromium: the tree's ARIA and keyboard on the
 * flat list, the filter box (Ctrl+F; text, tool:, path:, status:) and "next error" across every row of the
 * session, what a folded running task does now, a task one reads inside staying open when it ends, and the
 * screenshots of a filtered tree, the dark theme and a 320 px panel.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import { ARTIFACTS, frames, openPanel, send, panelSuite } from './browser';
import { bigSession, finishedSession, ROOT, runningSession } from './fixtures';
import { childIds, isOpen, item } from './tree-dom';

function snapshotOf(events: Parameters<typeof applyEvents>[1]): SessionViewState {
  const state = createSessionView();
  applyEvents(state, events);
  return state;
}

interface Doc {
  document: { activeElement: { dataset?: { id?: string }; className?: string } | null; querySelectorAll(s: string): ArrayLike<{ dataset: Record<string, string | undefined> }> };
}
const focusedId = (page: Page): Promise<string | undefined> => page.evaluate(() => (globalThis as unknown as Doc).document.activeElement?.dataset?.id);
const shownIds = (page: Page): Promise<string[]> =>
  page.evaluate(() =>
    Array.from((globalThis as unknown as Doc).document.querySelectorAll('.conversation > .tree-row'))
      .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
      .map((e) => e.dataset.id ?? ''),
  );

describe('finding one\'s way in the panel (headless Chromium)', function () {
  this.timeout(60_000);
  const panel = panelSuite({ size: { width: 420, height: 720 } });

  it('is a tree for assistive tech and the keyboard: levels, positions, roving focus, arrows, Home/End, type-to-find', async () => {
    await send(panel.page, { type: 'snapshot', state: snapshotOf(finishedSession().events), running: false });
    assert.equal(await panel.page.locator('.conversation').getAttribute('role'), 'tree');
    const a = panel.page.locator(item('task:tu-a'));
    assert.deepEqual(
      [await a.getAttribute('role'), await a.getAttribute('aria-level'), await a.getAttribute('aria-expanded'), await a.getAttribute('aria-posinset'), await a.getAttribute('aria-setsize')],
      ['treeitem', '1', 'false', '4', '7'],
      'the 4th of the conversation\'s 7 items',
    );
    assert.equal(await panel.page.locator('.conversation > .tree-row[tabindex="0"]').count(), 1, 'one Tab stop in the tree');
    await a.focus();
    await panel.page.keyboard.press('ArrowRight');
    assert.equal(await isOpen(panel.page, 'task:tu-a'), true, '→ opens');
    await panel.page.keyboard.press('ArrowRight');
    assert.equal(await focusedId(panel.page), 'prompt:task:tu-a', '→ again: the first child');
    assert.equal(await panel.page.locator(item('prompt:task:tu-a')).getAttribute('aria-level'), '2');
    await panel.page.keyboard.press('ArrowDown');
    assert.equal(await focusedId(panel.page), 'tool:a1');
    assert.equal(await panel.page.locator(item('tool:a1')).getAttribute('tabindex'), '0', 'the Tab stop moves with focus');
    await panel.page.keyboard.press('ArrowLeft');
    assert.equal(await focusedId(panel.page), 'task:tu-a', '← on a closed row: its parent');
    await panel.page.keyboard.press('ArrowLeft');
    assert.equal(await isOpen(panel.page, 'task:tu-a'), false, '← closes');
    await panel.page.keyboard.press('End');
    assert.equal(await focusedId(panel.page), 'text:root:2');
    await panel.page.keyboard.press('Home');
    assert.equal(await focusedId(panel.page), 'user:1');
    await panel.page.keyboard.type('rep');
    assert.equal(await focusedId(panel.page), 'task:tu-c', 'type-to-find: "Reproduce the flaky test"');
    await panel.page.keyboard.press('Enter');
    assert.equal(await isOpen(panel.page, 'task:tu-c'), false, 'Enter toggles (it was open: it failed)');
  });

  it('filters every row of the session (Ctrl+F: status:, tool:, path:, text), next error goes to failures, Escape shows all', async () => {
    await send(panel.page, { type: 'snapshot', state: snapshotOf(finishedSession().events), running: false });
    await panel.page.locator(item('task:tu-a')).focus();
    await panel.page.keyboard.press('Control+f');
    const input = panel.page.locator('.find-input');
    assert.equal(await input.isVisible(), true);
    assert.equal(await panel.page.evaluate(() => (globalThis as unknown as Doc).document.activeElement?.className), 'find-input');
    await input.fill('status:error');
    await panel.page.waitForTimeout(150);
    assert.deepEqual(await shownIds(panel.page), ['task:tu-c', 'tool:c1'], 'the failed task and its failed call, nothing else');
    assert.equal(await panel.page.locator('.find-count').textContent(), '2 matches');
    await input.fill('tool:grep path:test');
    await panel.page.waitForTimeout(150);
    assert.deepEqual(await shownIds(panel.page), ['task:tu-b', 'tool:b1'], 'a call inside a collapsed task, with its task around it');
    await input.fill('tool:read_file');
    await panel.page.waitForTimeout(150);
    assert.deepEqual(await shownIds(panel.page), ['tool:root-read', 'task:tu-a', 'tool:a1']);
    await input.fill('42 passing');
    await panel.page.waitForTimeout(150);
    assert.deepEqual(await shownIds(panel.page), ['task:tu-a', 'tool:a2'], 'text matches a call\'s output');
    await panel.page.waitForTimeout(150); // codicon font
    await panel.page.screenshot({ path: join(ARTIFACTS, 'filtered-tree.png') });
    await input.press('Enter');
    assert.equal(await focusedId(panel.page), 'tool:a2', 'Enter: the first match');
    await input.fill('nothing like this');
    await panel.page.waitForTimeout(150);
    assert.equal(await panel.page.locator('.find-count').textContent(), 'No matches');
    await input.press('Escape');
    assert.equal(await panel.page.locator('.find-bar').isVisible(), false);
    assert.ok((await shownIds(panel.page)).includes('user:1'), 'everything again');

    // Next error (F8): the failed call inside the failed task, then the task… wrapping.
    await panel.page.locator(item('user:1')).focus();
    await panel.page.keyboard.press('F8');
    await frames(panel.page, 2);
    assert.equal(await focusedId(panel.page), 'task:tu-c');
    await panel.page.keyboard.press('F8');
    await frames(panel.page, 2);
    assert.equal(await focusedId(panel.page), 'tool:c1');
  });

  it('a folded running task says what it does now and how many subagents it runs; open again, the line goes', async () => {
    const s = runningSession();
    await send(panel.page, { type: 'snapshot', state: snapshotOf(s.events), running: true });
    const up = panel.page.locator(item('task:tu-up'));
    assert.equal(await up.locator('.task-now').isVisible(), false, 'open: its rows say it');
    await up.locator('.task-title').click();
    assert.equal(await up.locator('.task-now').textContent(), 'now: bash rm -rf dist && npm run build · 1 subagent, 1 running');
    await panel.page.waitForTimeout(150);
    await panel.page.screenshot({ path: join(ARTIFACTS, 'task-now.png') });
  });

  it('keeps a task open when it ends while the user reads inside it; pins its header and offers Jump to latest meanwhile', async () => {
    // The long task's earlier calls opened (a long task folds them: flat-rows.ts foldedCount).
    const page = await openPanel(panel.browser, { v: 1, expanded: { 'fold:task:tu-big': true }, draft: '' }, { width: 320, height: 480 });
    try {
      const s = bigSession(300);
      await send(page, { type: 'snapshot', state: snapshotOf(s.take()), running: true });
      await frames(page, 3);
      await page.mouse.move(150, 200);
      await page.mouse.wheel(0, -3000);
      await frames(page, 4);
      assert.equal(await page.locator('.jump-latest').isVisible(), true);
      assert.equal(await page.locator('.sticky-task .task-title').textContent(), 'Run 300 tool calls');
      await page.waitForTimeout(150);
      await page.screenshot({ path: join(ARTIFACTS, 'panel-320-pinned.png') });
      s.childFinish('agent-big', ROOT, 'completed', 4, 300, [9000, 900], 'Ran 300 calls.');
      s.taskEnd(ROOT, null, 'tu-big', 'Ran 300 calls.');
      await send(page, { type: 'events', events: s.take() });
      await frames(page, 2);
      assert.ok((await childIds(page, 'fold:task:tu-big')).length > 5, 'the user was reading it: it stays open, its rows in view');
    } finally {
      await page.close();
    }
  });

  it('the editor\'s Ctrl+F (its keybinding\'s find message) opens the bar once: what the user types right after stays; with History open, its search', async () => {
    const page = panel.page;
    await send(page, { type: 'snapshot', state: snapshotOf(finishedSession().events), running: false });
    // In the editor the key comes twice: the panel's own keydown, then the keybinding's message a moment later.
    await page.locator('.prompt-input').click();
    await page.keyboard.press('Control+f');
    await page.keyboard.type('tool:gr');
    await send(page, { type: 'find' });
    await page.keyboard.type('ep');
    assert.equal(await page.locator('.find-input').inputValue(), 'tool:grep', 'nothing typed was selected and replaced');
    await page.waitForTimeout(150);
    assert.equal(await page.locator('.find-count').textContent(), '1 match');
    await page.locator('.find-input').press('Escape');
    // The message alone (the command from the palette) opens it too, with the caret in it.
    await send(page, { type: 'find' });
    assert.equal(await page.evaluate(() => (globalThis as unknown as Doc).document.activeElement?.className), 'find-input');
    await page.locator('.find-input').press('Escape');
    await send(page, { type: 'history', sessions: [{ id: 's1', title: 'Fix the flaky test', startedAt: 1, updatedAt: 2, prompts: 1, turns: 2, tokens: 10, status: 'completed' }] });
    await send(page, { type: 'find' });
    assert.equal(await page.evaluate(() => (globalThis as unknown as Doc).document.activeElement?.className), 'history-search', 'History: its search box');
  });

  it('screenshots: the find bar with a filter at 300 and 250 px, dark and light', async () => {
    for (const width of [300, 250]) {
      const page = await openPanel(panel.browser, undefined, { width, height: 480 });
      try {
        await send(page, { type: 'snapshot', state: snapshotOf(finishedSession().events), running: false }, { type: 'find' });
        await page.keyboard.type('status:error');
        await page.waitForTimeout(200);
        assert.equal(await page.locator('.find-count').textContent(), '2 matches');
        for (const theme of ['dark', 'light']) {
          await page.evaluate((t) => ((globalThis as unknown as { document: { documentElement: { className: string } } }).document.documentElement.className = `vscode-${t}`), theme);
          await frames(page, 2);
          await page.screenshot({ path: join(ARTIFACTS, `find-bar-${width}-${theme}.png`) });
        }
      } finally {
        await page.close();
      }
    }
  });

  it('what the user opened stays open across a switch to another session and back', async () => {
    const a = snapshotOf(finishedSession().events);
    const b = snapshotOf(runningSession().events);
    await send(panel.page, { type: 'snapshot', state: a, running: false });
    await panel.page.locator(`${item('task:tu-a')} .task-title`).click();
    assert.equal(await isOpen(panel.page, 'task:tu-a'), true);
    await send(panel.page, { type: 'snapshot', state: b, running: true });
    await panel.page.locator(item('task:tu-up')).waitFor();
    await send(panel.page, { type: 'snapshot', state: a, running: false });
    assert.equal(await isOpen(panel.page, 'task:tu-a'), true, 'the choice made in the first session');
  });

  it('screenshot: the dark theme, a finished session with a task open', async () => {
    const page = await openPanel(panel.browser, { v: 1, expanded: { 'task:tu-a': true, 'tool:a2': true }, draft: '' }, { width: 420, height: 720 });
    try {
      await send(page, { type: 'snapshot', state: snapshotOf(finishedSession().events), running: false });
      assert.match(await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { className: string }; body: { className: string } } }).document.documentElement.className), /dark|^$/);
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(ARTIFACTS, 'dark-theme.png') });
    } finally {
      await page.close();
    }
  });
});
