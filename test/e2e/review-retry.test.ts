/**
 * Review and Retry as users live in them (issue 25 §3, §8), in a real VS Code 1.139 with the packaged extension:
 *
 *   Review   a subagent changes one file, creates one and deletes one: the multi-file diff labels each entry by
 *            its workspace path (added "A", deleted "D", no storage path, no rename); each file of the changes
 *            bar has its own Keep and Undo (Undo puts that one file back on disk)
 *   Retry    a child fails on 529s while another edits a file: Retry waits for the run's end; after it the
 *            panel shows "You · Retry: <task>" (the model gets the written prompt), the old row says Retried
 *            and leads to the new run, and the earlier run's "1 file changed" bar is still there
 *   Focus    "Focus on Delegate View" puts focus in the prompt box
 *
 * Screenshots at 300 and 250 px, dark and light: test-artifacts/e2e/review-*.png, retry-*.png.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { firstUserText, reply, type MessagesApiServer } from '../fixtures/messages-api-server';
import { screenshot } from './editor';
import { childRoute, isChild, parentRoute } from './fixtures';
import { delegateEditorSuite, type EditorSuiteParts } from './editor-suite';
import { Panel, STEP_TIMEOUT } from './panel';
import { gate, waitUntil } from './wait';
import { askFromPalette, runCommand } from './workbench';

const API_KEY = 'sk-e2e-review-retry';

/** Drags the sash between the side bar and the editor until the side bar is `width` px wide. */
async function setSideBarWidth(page: Page, width: number): Promise<void> {
  const bar = await page.locator('.part.sidebar').boundingBox();
  if (!bar) throw new Error('no side bar');
  const edge = bar.x + bar.width;
  const sash = await page.locator('.monaco-sash.vertical').evaluateAll((els, x) => {
    const rects = els.map((e) => (e as unknown as { getBoundingClientRect(): { left: number; width: number; top: number; height: number } }).getBoundingClientRect()).filter((r) => r.height > 100);
    rects.sort((a, b) => Math.abs(a.left + a.width / 2 - x) - Math.abs(b.left + b.width / 2 - x));
    const r = rects[0];
    return r ? { x: r.left + r.width / 2, y: r.top + r.height / 2 } : null;
  }, edge);
  if (!sash) throw new Error('no sash beside the side bar');
  await page.mouse.move(sash.x, sash.y);
  await page.mouse.down();
  await page.mouse.move(bar.x + width, sash.y, { steps: 8 });
  await page.mouse.up();
  await waitUntil(async () => Math.abs(((await page.locator('.part.sidebar').boundingBox())?.width ?? 0) - width) <= 2, `the side bar is ${width} px wide`);
}

/** The side bar at 300 and 250 px, in the dark and the light theme: one screenshot each. */
async function shots(page: Page, name: string): Promise<void> {
  for (const theme of ['dark', 'light']) {
    for (const width of [300, 250]) {
      await setSideBarWidth(page, width);
      await page.waitForTimeout(300);
      await screenshot(page, `${name}-${width}-${theme}`);
    }
    await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
    await page.waitForTimeout(500);
  }
  await setSideBarWidth(page, 300);
}

/** The multi-file diff's entries as the user reads them: the name, the folder beside it, the status letter. */
async function diffEntries(page: Page): Promise<{ name: string; folder: string; status: string }[]> {
  const entries = page.locator('.multiDiffEntry');
  await entries.first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  // No named local functions in page code: tsx's keepNames would wrap them in `__name`, absent in the page.
  return entries.evaluateAll((els) =>
    els.map((e) => {
      const [name, folder, status] = ['.file-path .title .label-name', '.file-path .title .label-description', '.file-path .status'].map(
        (s) => (e as unknown as { querySelector(s: string): { textContent: string | null } | null }).querySelector(s)?.textContent?.trim() ?? '',
      );
      return { name: name ?? '', folder: folder ?? '', status: status ?? '' };
    }),
  );
}

describe('Delegate in a real VS Code: review and retry as users live in them', function () {
  const editor = delegateEditorSuite('review-retry', API_KEY, { 'delegate.permissionMode': 'bypassPermissions', 'workbench.colorTheme': 'Default Dark Modern' });
  let server: MessagesApiServer;
  let workspace: EditorSuiteParts['workspace'];
  let page: Page;
  let panel: Panel;
  before(() => ({ server, workspace, page, panel } = editor.parts()));

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') console.log(`      screenshot of the failure: ${await screenshot(page, 'failed-review-retry')}`);
  });

  it('Review: entries read as the workspace files (A, D, no storage path); each file of the bar has Keep and Undo', async () => {
    await runCommand(page, 'Delegate: New Session');
    server.route([
      childRoute('GREET', [
        reply.toolUse({ name: 'read_file', input: { path: 'src/math.ts' } }),
        reply.toolUse([
          { name: 'edit_file', input: { path: 'src/math.ts', old_text: 'a + b', new_text: 'b + a' } },
          { name: 'write_file', input: { path: 'src/greet.js', content: 'export const greet = (n) => `hello ${n}`;\n' } },
        ]),
        reply.toolUse({ name: 'bash', input: { command: 'rm test/math.test.ts' } }),
        reply.text('Greeting added, math flipped, the old test removed.'),
      ]),
      parentRoute([reply.toolUse({ name: 'task', input: { description: 'add a greeting', prompt: 'GREET: add src/greet.js, flip add, drop its test.' } }), reply.text('Done.')]),
    ]);
    await askFromPalette(page, 'Add a greeting');
    await panel.waitForStatus(panel.task('add a greeting'), 'completed');
    await panel.waitUntilIdle();
    server.assertAllConsumed();
    const bar = panel.frame.locator('.changes-bar');
    await bar.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.equal(await bar.locator('.changes-bar-label').innerText(), '3 files changed');

    await bar.locator('[data-action="review"]').click();
    await page.locator('.tabs-container .tab', { hasText: 'Delegate: 3 files changed' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    const entries = await diffEntries(page);
    const byName = new Map(entries.map((e) => [e.name, e]));
    assert.deepEqual([...byName.keys()].sort(), ['greet.js', 'math.test.ts', 'math.ts']);
    assert.deepEqual(byName.get('math.ts'), { name: 'math.ts', folder: 'src', status: '' }, 'modified: the file itself, no rename');
    assert.deepEqual(byName.get('greet.js'), { name: 'greet.js', folder: 'src', status: 'A' }, 'a new file is Added');
    assert.equal(byName.get('math.test.ts')?.status, 'D', 'a deleted file is Deleted');
    assert.match(byName.get('math.test.ts')?.folder ?? '', /test$/);
    const text = await page.locator('.multiDiffEntry .file-path').allInnerTexts();
    assert.ok(!text.some((t) => /[0-9a-f]{64}|\/none\b|R/.test(t.replace(/\s+/g, ' '))), `no storage path and no rename: ${text.join(' | ')}`);
    await screenshot(page, 'review-multi-diff');

    // Each file in the bar: Undo puts that one file back, Keep puts it away.
    await bar.locator('.changes-bar-toggle').click();
    const files = bar.locator('.changes-bar-file');
    await files.nth(2).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await shots(page, 'review-bar');
    await files.filter({ hasText: 'src/greet.js' }).locator('[data-action="undo-file"]').click();
    await waitUntil(() => !existsSync(join(workspace.dir, 'src', 'greet.js')), 'greet.js is put back (deleted: the subagent created it)');
    await waitUntil(async () => (await files.count()) === 2, 'the bar lists the two other files');
    assert.match(readFileSync(join(workspace.dir, 'src', 'math.ts'), 'utf8'), /b \+ a/, 'the other changes stay');
    assert.equal(existsSync(join(workspace.dir, 'test', 'math.test.ts')), false);
    await files.filter({ hasText: 'src/math.ts' }).locator('[data-action="keep-file"]').click();
    await waitUntil(async () => (await files.count()) === 1, 'the kept file leaves the bar');
    assert.equal(await bar.locator('.changes-bar-label').innerText(), '1 file changed');
    await bar.locator('[data-action="keep"]').click();
    await bar.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
  });

  it('Retry: not while the run goes; after it "You · Retry: <task>", the old row Retried, the earlier bar kept', async () => {
    await runCommand(page, 'Delegate: New Session');
    const ended = gate();
    server.route([
      // Retries run out: three 529s (the SDK's two retries and the first attempt).
      childRoute('FLAKE', [reply.overloaded(), reply.overloaded(), reply.overloaded()]),
      childRoute('NOTES', [reply.toolUse({ name: 'write_file', input: { path: 'notes.txt', content: 'flaky: test/a\n' } }), reply.text('Noted.')]),
      parentRoute([
        reply.toolUse([
          { name: 'task', input: { description: 'reproduce flake', prompt: 'FLAKE: run the suite 20 times and report.' } },
          { name: 'task', input: { description: 'write notes', prompt: 'NOTES: write notes.txt.' } },
        ]),
        // Held: the main agent still works after the child failed.
        reply.text('One child failed on overload; notes written.', { until: ended.opened }),
      ]),
    ]);
    await askFromPalette(page, 'Find the flake');
    await panel.waitForStatus(panel.task('reproduce flake'), 'error');
    // The retry's task has the same title: the old row by its id.
    const failed = panel.frame.locator(`.conversation > .tree-row[data-id="${await panel.task('reproduce flake').getAttribute('data-id')}"]`);
    await panel.waitForStatus(panel.task('write notes'), 'completed');
    const retry = failed.locator(':scope > .task-text [data-action="retry"]');
    const rerun = failed.locator(':scope > .task-text [data-action="rerun-edited"]');
    assert.equal(await retry.isVisible(), false, 'no Retry while the main agent still works');
    assert.equal(await rerun.isVisible(), false);
    ended.open();
    await panel.waitUntilIdle();
    await retry.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    // Said once: the reason on the row, the Error row under it holds the full message without repeating it.
    assert.equal(await panel.frame.getByText("The model's servers were overloaded (retries ran out)").count(), 1);
    const bar = panel.frame.locator('.changes-bar');
    await bar.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.equal(await bar.locator('.changes-bar-label').innerText(), '1 file changed');
    server.assertAllConsumed();

    const before = editor.requests().length;
    server.route([
      childRoute('FLAKE', [reply.text('Reproduced: 1 run in 20 fails.')]),
      parentRoute([reply.toolUse({ name: 'task', input: { description: 'reproduce flake', prompt: 'FLAKE: run the suite 20 times and report.' } }), reply.text('It reproduces.')]),
    ]);
    await retry.click();
    const you = panel.frame.locator('.msg-retry');
    await you.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.equal((await you.innerText()).replace(/\s+/g, ' ').trim(), 'You Retry: reproduce flake');
    await panel.waitUntilIdle();
    server.assertAllConsumed();
    const asked = editor.requests().slice(before).find((r) => !isChild(r));
    assert.match(JSON.stringify(asked?.body.messages ?? []), /Run the subagent task \\"reproduce flake\\" again/, 'the model got the written prompt');
    assert.equal(await panel.frame.locator('.msg-user', { hasText: 'Run the subagent task' }).count(), 0, 'the panel does not show it as the user\'s words');
    assert.ok(editor.requests().slice(before).some((r) => isChild(r) && firstUserText(r).startsWith('FLAKE')));

    assert.equal(await retry.isVisible(), false, 'retried: the old row offers Retry no more');
    const retried = failed.locator(':scope > .task-text .task-retried');
    assert.equal(await retried.isVisible(), true);
    assert.equal(await bar.isVisible(), true, 'the earlier run\'s bar stays until Keep or Revert');
    assert.equal(await bar.locator('.changes-bar-label').innerText(), '1 file changed');
    await shots(page, 'retry');
    await retried.click();
    await waitUntil(
      async () => (await panel.frame.locator('.tree-row.task-row:focus').getAttribute('data-status').catch(() => null)) === 'completed',
      'Retried leads to the new run (focused)',
    );
  });

  it('"Focus on Delegate View" puts focus in the prompt box, not on the page', async () => {
    await runCommand(page, 'View: Focus Active Editor Group');
    await runCommand(page, 'Delegate: Focus on Delegate View');
    await waitUntil(
      async () => panel.frame.locator('body').evaluate(() => {
        const active = (globalThis as unknown as { document: { activeElement: { matches(s: string): boolean } | null } }).document.activeElement;
        return active?.matches('footer.composer vscode-textarea') ?? false;
      }),
      'the prompt box has focus',
    ).catch(async (e) => {
      const info = await panel.frame.locator('body').evaluate(() => {
        const d = (globalThis as unknown as { document: { hasFocus(): boolean; activeElement: { tagName: string; className: string } | null } }).document;
        return `${d.hasFocus()} ${d.activeElement?.tagName}.${d.activeElement?.className}`;
      });
      const outer = await page.evaluate(() => { const d = (globalThis as unknown as { document: { activeElement: { tagName: string; className: string } | null } }).document; return `${d.activeElement?.tagName}.${d.activeElement?.className}`; });
      throw new Error(`${(e as Error).message}: frame ${info}; outer ${outer}`);
    });
    await page.keyboard.type('typed right away');
    assert.equal(await panel.frame.locator('footer.composer vscode-textarea').evaluate((t) => (t as unknown as { value: string }).value), 'typed right away');
  });
});
