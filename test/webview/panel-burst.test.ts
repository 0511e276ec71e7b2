/**
 * A burst of events into an open 300-row task, as the host sends it (batches of 50 every 16 ms, more
 * rows than one frame builds) and all at once: both must end with the same rows, in event order, each
 * with the place (level, data-path) the tree's keyboard navigation reads — the slot-change patch
 * (tree-patches.ts) re-stamps only rows whose place changed. A collapsed task builds no rows until
 * it is opened, then shows them all.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { DelegateEvent } from '../../src/core/events';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import { frames, openPanel, send, panelSuite } from './browser';
import { bigSession, ROOT } from './fixtures';

interface RowInfo {
  id: string;
  level: string | null;
  path: string | null;
  status: string | null;
}
interface Doc {
  document: { querySelectorAll(s: string): ArrayLike<{ dataset: Record<string, string | undefined>; getAttribute(n: string): string | null }> };
  postMessage(m: unknown, origin: string): void;
  setTimeout(f: () => void, ms: number): void;
}

const TASK = 'vscode-tree-item[data-id="task:tu-big"]';

/** Every row of the task, in DOM order, with its place in the tree. */
async function rowsOf(page: Page): Promise<RowInfo[]> {
  return page.evaluate((sel) => {
    const items = (globalThis as unknown as Doc).document.querySelectorAll(`${sel} > vscode-tree-item`);
    return Array.from(items).map((e) => ({ id: e.dataset.id ?? e.dataset.moreOf ?? '', level: e.getAttribute('level'), path: e.dataset.path ?? null, status: e.getAttribute('data-status') }));
  }, TASK);
}

async function waitForRows(page: Page, n: number): Promise<void> {
  await page.waitForFunction(
    ({ sel, n }) => (globalThis as unknown as Doc).document.querySelectorAll(`${sel} > vscode-tree-item.tool-row`).length >= n,
    { sel: TASK, n },
    { timeout: 120_000 },
  );
  await frames(page, 3);
}

/** Posts the events in batches of `size`, one every 16 ms, like the host's batching. */
async function postInBatches(page: Page, events: DelegateEvent[], size: number): Promise<void> {
  const batches: DelegateEvent[][] = [];
  for (let i = 0; i < events.length; i += size) batches.push(events.slice(i, i + size));
  // No named local functions in page code (tsx's keepNames would wrap them in `__name`, absent in the page).
  await page.evaluate(async (batches) => {
    const g = globalThis as unknown as Doc;
    for (const batch of batches) {
      g.postMessage({ type: 'events', events: batch }, '*');
      await new Promise<void>((resolve) => g.setTimeout(resolve, 16));
    }
  },
    batches,
  );
}

function scene(rows: number): { base: SessionViewState; burst: DelegateEvent[] } {
  const s = bigSession(rows);
  const base = createSessionView();
  applyEvents(base, s.take());
  for (let i = 0; i < 150; i++) s.tool('agent-big', ROOT, `burst-${i}`, i % 2 ? 'bash' : 'read_file', i % 2 ? { command: `echo ${i}` } : { path: `b${i}.ts` }, `out ${i}`);
  return { base, burst: s.take() };
}

describe('webview panel under a burst of events', function () {
  this.timeout(180_000);
  const panel = panelSuite({ pagePerTest: false });

  it('ends with the same rows, in event order and in their places, whether the burst comes in batches or at once', async () => {
    const { base, burst } = scene(300);
    const results: RowInfo[][] = [];
    for (const batched of [true, false]) {
      const page = await openPanel(panel.browser);
      try {
        await send(page, { type: 'snapshot', state: structuredClone(base), running: true });
        await waitForRows(page, 250);
        if (batched) await postInBatches(page, burst, 50);
        else await send(page, { type: 'events', events: burst });
        await waitForRows(page, 400);
        results.push(await rowsOf(page));
      } finally {
        await page.close();
      }
    }
    const [batched, once] = results;
    assert.ok(batched && once);
    assert.deepEqual(batched, once);
    const tools = batched.filter((r) => r.id.startsWith('tool:'));
    assert.equal(tools.length, 400);
    assert.deepEqual(tools.slice(0, 2).map((r) => r.id), ['tool:big-50', 'tool:big-51']);
    assert.deepEqual(tools.slice(-2).map((r) => r.id), ['tool:burst-148', 'tool:burst-149']);
    assert.ok(tools.every((r) => r.status === 'ok'), 'every call finished');
    // Each row's place is its index among the task's children (prompt row, "Show earlier", then the calls).
    batched.forEach((r, i) => {
      assert.equal(r.level, '1', r.id);
      assert.equal(r.path, `0.${i}`, r.id);
    });
  });

  it('builds a collapsed task\'s rows only when it is opened, then shows every call of the burst', async () => {
    const { base, burst } = scene(20);
    const page = await openPanel(panel.browser, { v: 1, expanded: { 'task:tu-big': false }, draft: '' });
    try {
      await send(page, { type: 'snapshot', state: base, running: true });
      await send(page, { type: 'events', events: burst });
      assert.deepEqual(await rowsOf(page), [], 'no rows while collapsed');
      await page.locator(TASK).evaluate((e) => e.setAttribute('open', ''));
      await waitForRows(page, 170);
      const ids = (await rowsOf(page)).map((r) => r.id);
      assert.equal(ids[0], 'prompt:task:tu-big');
      assert.deepEqual(ids.slice(1, 3), ['tool:big-0', 'tool:big-1']);
      assert.equal(ids.at(-1), 'tool:burst-149');
      assert.equal(ids.length, 171);
    } finally {
      await page.close();
    }
  });
});
