/**
 * Reading the panel's flat tree (webview/renderer.ts) in a test: a row by its node id, whether it is open,
 * the rows under a row (in list order, those in the DOM), its detail row. A row's children are not inside
 * its element: they are sibling rows whose `data-parent` names it.
 */
import type { Locator, Page } from 'playwright-core';

/** The selector of the row of `id` (a node id, or `prompt:…`, `outcome:…`, `changes:…`, `detail:…`). */
export const item = (id: string): string => `.tree-row[data-id="${id}"]`;

interface RowEl {
  dataset: Record<string, string | undefined>;
  className: string;
}
interface Doc {
  document: { querySelectorAll(s: string): ArrayLike<RowEl> };
}

/** Whether the row of `id` is open (aria-expanded). */
export async function isOpen(page: Page, id: string): Promise<boolean> {
  return (await page.locator(item(id)).getAttribute('aria-expanded')) === 'true';
}

/**
 * The ids of the rows under `parentId` that are in the DOM, in list order; `kind` keeps those of one class
 * (`tool-row`, `task-row`, `outcome-row`…).
 */
export async function childIds(page: Page, parentId: string, kind?: string | string[]): Promise<string[]> {
  const kinds = kind === undefined ? [] : Array.isArray(kind) ? kind : [kind];
  return page.evaluate(
    ({ parentId, kinds }) => {
      const rows = Array.from((globalThis as unknown as Doc).document.querySelectorAll(`.tree-row[data-parent="${parentId}"]`));
      return rows
        .filter((r) => kinds.length === 0 || kinds.some((k) => r.className.split(' ').includes(k)))
        .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
        .map((r) => r.dataset.id ?? '');
    },
    { parentId, kinds },
  );
}

/** The detail row under an open row (its input/output, or its full text). */
export function detail(page: Page, id: string): Locator {
  return page.locator(item(`detail:${id}`));
}
