/**
 * A burst of events into an open 300-row task, as the host sends it (batches of 50 every 16 ms) and all at
 * once: both must end with the same rows, in event order, each with its place in the tree (aria-level,
 * aria-posinset, aria-setsize), the newest in view. A collapsed task has no rows in the DOM until it is
 * opened; then every call of the burst is there to scroll to.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { DelegateEvent } from '../../src/core/events';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import { frames, openPanel, send, panelSuite } from './browser';
import { bigSession, ROOT } from './fixtures';
import { item } from './tree-dom';

interface RowInfo {
  id: string;
  level: string | null;
  pos: string | null;
  size: string | null;
  status: string | null;
}
interface Doc {
  document: { querySelectorAll(s: string): ArrayLike<{ dataset: Record<string, string | undefined>; getAttribute(n: string): string | null }> };
  postMessage(m: unknown, origin: string): void;
  setTimeout(f: () => void, ms: number): void;
}

const TASK = 'task:tu-big';
/** The task's long run of calls folds its first ones (flat-rows.ts foldedCount); these tests open the fold. */
const FOLD = 'fold:task:tu-big';
const FOLD_OPEN = { v: 1, expanded: { [FOLD]: true }, draft: '' };

/** The task's rows in the DOM, in list order, with their place in the tree. */
async function rowsOf(page: Page): Promise<RowInfo[]> {
  return page.evaluate((parent) => {
    const items = Array.from((globalThis as unknown as Doc).document.querySelectorAll(`.tree-row[data-parent="${parent}"], .tree-row[data-parent="fold:${parent}"]`));
    return items
      .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
      .map((e) => ({ id: e.dataset.id ?? '', level: e.getAttribute('aria-level'), pos: e.getAttribute('aria-posinset'), size: e.getAttribute('aria-setsize'), status: e.getAttribute('data-status') }));
  }, TASK);
}

async function waitForRow(page: Page, id: string): Promise<void> {
  await page.waitForFunction((sel) => (globalThis as unknown as Doc).document.querySelectorAll(sel).length > 0, item(id), { timeout: 120_000 });
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
      const page = await openPanel(panel.browser, FOLD_OPEN);
      try {
        await send(page, { type: 'snapshot', state: structuredClone(base), running: true });
        await waitForRow(page, 'tool:big-299');
        if (batched) await postInBatches(page, burst, 50);
        else await send(page, { type: 'events', events: burst });
        await waitForRow(page, 'tool:burst-149');
        results.push(await rowsOf(page));
      } finally {
        await page.close();
      }
    }
    const [batched, once] = results;
    assert.ok(batched && once);
    assert.deepEqual(batched, once);
    const tools = batched.filter((r) => r.id.startsWith('tool:'));
    assert.ok(tools.length >= 20 && tools.length <= 80, `rows in the DOM: ${tools.length}`);
    assert.deepEqual(tools.slice(-2).map((r) => r.id), ['tool:burst-148', 'tool:burst-149'], 'the newest rows in view');
    assert.ok(tools.every((r) => r.status === 'ok'), 'every call finished');
    // Each row's place: the last 10 calls at level 2 under the task (prompt, fold, 10 calls: 12), the 440 before
    // them at level 3 under the opened fold row, each at its position.
    for (const r of batched) {
      const tail = r.id === FOLD || tools.slice(-10).includes(r);
      assert.equal(r.level, tail ? '2' : '3', r.id);
      assert.equal(r.size, tail ? '12' : '440', r.id);
    }
    assert.equal(tools.at(-1)?.pos, '12');
    assert.equal(tools.at(-2)?.pos, '11');
    assert.equal(tools.at(-11)?.pos, '440', 'the newest folded call');
  });

  it('re-uses the elements of rows that scrolled out for the rows that came, each showing its own call; at rest the DOM is in list order, focus kept', async () => {
    const { base, burst } = scene(300);
    const page = await openPanel(panel.browser, FOLD_OPEN);
    try {
      await send(page, { type: 'snapshot', state: structuredClone(base), running: true });
      await waitForRow(page, 'tool:big-299');
      // Elements by identity before the burst: the burst's rows are to be drawn in some of them.
      await page.evaluate(() => {
        const g = globalThis as unknown as { __before: unknown[]; document: { querySelectorAll(s: string): ArrayLike<unknown> } };
        g.__before = Array.from(g.document.querySelectorAll('.conversation > .tool-row'));
      });
      await postInBatches(page, burst, 50);
      await waitForRow(page, 'tool:burst-149');
      const shown = await page.evaluate(() => {
        interface El { dataset: Record<string, string | undefined>; querySelector(s: string): { textContent: string | null; dataset: Record<string, string | undefined> } | null }
        const g = globalThis as unknown as { __before: El[]; document: { querySelectorAll(s: string): ArrayLike<El> } };
        const rows = Array.from(g.document.querySelectorAll('.conversation > .tool-row'));
        return {
          reused: rows.filter((r) => g.__before.includes(r) && (r.dataset.id ?? '').startsWith('tool:burst-')).length,
          rows: rows.map((r) => ({ id: r.dataset.id ?? '', name: r.querySelector('.tool-name')?.textContent, summary: r.querySelector('.tool-summary')?.textContent, path: r.querySelector('.path-link')?.dataset.path ?? null })),
        };
      });
      assert.ok(shown.reused > 0, 'some rows of the burst are drawn in elements that showed earlier calls');
      for (const r of shown.rows.filter((x) => x.id.startsWith('tool:burst-'))) {
        const i = Number(r.id.slice('tool:burst-'.length));
        assert.deepEqual(r, { id: r.id, name: i % 2 ? 'bash' : 'read_file', summary: i % 2 ? `echo ${i}` : `b${i}.ts`, path: i % 2 ? null : `b${i}.ts` }, r.id);
      }
      for (const r of shown.rows.filter((x) => x.id.startsWith('tool:big-'))) {
        const i = Number(r.id.slice('tool:big-'.length));
        assert.equal(r.summary, i % 3 === 0 ? `echo ${i}` : `src/file-${i}.ts`, r.id);
      }
      // A row focused by keyboard, then the list at rest: the elements in list order, the focus where it was.
      await page.locator(item('tool:burst-140')).focus();
      await page.waitForTimeout(500);
      const order = await page.evaluate(() => {
        const g = globalThis as unknown as { document: { activeElement: { dataset?: Record<string, string | undefined> } | null; querySelectorAll(s: string): ArrayLike<{ dataset: Record<string, string | undefined> }> } };
        return { indexes: Array.from(g.document.querySelectorAll('.conversation > .tree-row')).map((r) => Number(r.dataset.index)), focused: g.document.activeElement?.dataset?.id };
      });
      assert.deepEqual(order.indexes, [...order.indexes].sort((a, b) => a - b), 'DOM order is list order at rest');
      assert.equal(order.focused, 'tool:burst-140');
    } finally {
      await page.close();
    }
  });

  it('has no rows of a collapsed task in the DOM until it is opened, then every call of the burst', async () => {
    const { base, burst } = scene(20);
    const page = await openPanel(panel.browser, { v: 1, expanded: { 'task:tu-big': false, [FOLD]: true }, draft: '' });
    try {
      await send(page, { type: 'snapshot', state: base, running: true });
      await send(page, { type: 'events', events: burst });
      assert.deepEqual(await rowsOf(page), [], 'no rows while collapsed');
      assert.equal(await page.locator(item(TASK)).getAttribute('aria-expanded'), 'false');
      await page.locator(`${item(TASK)} .task-title`).click();
      await waitForRow(page, 'tool:burst-149');
      const rows = await rowsOf(page);
      assert.equal(rows.at(-1)?.id, 'tool:burst-149');
      assert.equal(rows.at(-1)?.size, '12', 'the prompt row, the fold row and the last 10 of 170 calls');
      // The first rows are one scroll away.
      await page.locator('.log').evaluate((log) => ((log as unknown as { scrollTop: number }).scrollTop = 0));
      await waitForRow(page, 'prompt:task:tu-big');
      const top = (await rowsOf(page)).map((r) => r.id);
      assert.deepEqual(top.slice(0, 4), ['prompt:task:tu-big', FOLD, 'tool:big-0', 'tool:big-1']);
    } finally {
      await page.close();
    }
  });
});
