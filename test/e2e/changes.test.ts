/**
 * End to end in a real VS Code: a subagent changes two files, its task node's Changes row lists them with
 * their line counts, and "Revert this subagent's changes" — confirmed in the editor's modal, which lists the
 * files — puts the workspace back as it was; the row then says what the revert did; *Open in editor* shows the
 * subagent's whole record in an editor tab. Two subagents whose commands overlapped: a file neither command names
 * is shared; its checkbox in the Changes row (off by default) includes it in the revert. Screenshots:
 * test-artifacts/e2e/changes-*.png.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { reply, type MessagesApiServer } from '../fixtures/messages-api-server';
import { screenshot } from './editor';
import { CONFIG_JSON, childRoute, parentRoute } from './fixtures';
import { delegateEditorSuite, type EditorSuiteParts } from './editor-suite';
import { Panel, STEP_TIMEOUT } from './panel';
import { askFromPalette, modalDialog, runCommand } from './workbench';

const API_KEY = 'sk-e2e-changes';

describe('Delegate in a real VS Code: a subagent\'s changes, reverted', function () {
  const editor = delegateEditorSuite('changes', API_KEY, { 'delegate.permissionMode': 'acceptEdits' });
  let server: MessagesApiServer;
  let workspace: EditorSuiteParts['workspace'];
  let page: Page;
  let panel: Panel;
  before(() => ({ server, workspace, page, panel } = editor.parts()));

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') console.log(`      screenshot of the failure: ${await screenshot(page, 'failed-changes')}`);
  });

  it('lists the files on the task node, and a confirmed revert puts them back', async () => {
    server.route([
      childRoute('RETRIES', [
        reply.toolUse({ name: 'read_file', input: { path: 'config.json' } }),
        reply.toolUse([
          { name: 'edit_file', input: { path: 'config.json', old_text: '"retries": 3', new_text: '"retries": 5,\n  "backoff": true' } },
          { name: 'write_file', input: { path: 'docs/retries.md', content: '# Retries\n\nFive, with backoff.\n' } },
        ]),
        reply.text('Retries are 5 with backoff; documented in docs/retries.md.'),
      ]),
      parentRoute([
        reply.toolUse({ name: 'task', input: { description: 'tune retries', prompt: 'RETRIES: set retries to 5 with backoff in config.json and document it.' } }),
        reply.text('Retries tuned.'),
      ]),
    ]);
    await askFromPalette(page, 'Tune the retries');
    const task = panel.task('tune retries');
    await panel.waitForStatus(task, 'completed');
    await panel.waitUntilIdle();
    server.assertAllConsumed();
    assert.notEqual(readFileSync(join(workspace.dir, 'config.json'), 'utf8'), CONFIG_JSON);

    await panel.setOpen(task, true);
    const changes = panel.changesRow(task);
    await changes.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.equal((await changes.locator('.changes-summary').textContent())?.trim(), '2 files');
    await changes.locator('.changes-title').click();
    const files = panel.frame.locator('.conversation > .tree-row.change-file');
    await files.nth(1).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.deepEqual(await fileLines(files), ['config.json +2 −1', 'docs/retries.md +3']);
    await screenshot(page, 'changes-row');

    await changes.locator('.changes-revert').click();
    const modal = modalDialog(page, 'Revert the changes of the subagent "tune retries"');
    await modal.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    const text = await modal.innerText();
    assert.match(text, /config\.json: put back its previous content/);
    assert.match(text, /docs\/retries\.md: delete \(it created it\)/);
    await screenshot(page, 'changes-revert-modal');
    await modal.getByRole('button', { name: 'Revert', exact: true }).click();

    await panel.frame.locator('.conversation > .tree-row.change-file[data-revert="restored"]').waitFor({ state: 'attached', timeout: STEP_TIMEOUT });
    await panel.frame.locator('.conversation > .tree-row.change-file[data-revert="deleted"]').waitFor({ state: 'attached', timeout: STEP_TIMEOUT });
    assert.equal(readFileSync(join(workspace.dir, 'config.json'), 'utf8'), CONFIG_JSON);
    assert.equal(existsSync(join(workspace.dir, 'docs', 'retries.md')), false);
    assert.deepEqual(await files.evaluateAll((els) => els.map((e) => e.querySelector('.row-state')?.textContent)), ['reverted', 'reverted (deleted)']);
    await panel.frame.locator('.notice', { hasText: 'Reverted the changes of "tune retries": 2 files put back.' }).waitFor({ timeout: STEP_TIMEOUT });
    await screenshot(page, 'changes-reverted');

    // Open in editor: the subagent's whole record (its prompt, every call with its input) in an editor tab.
    await task.locator('.task-open').click();
    await page.locator('.tabs-container .tab', { hasText: 'tune retries.md' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    const record = page.locator('.editor-instance .monaco-editor .view-lines').first();
    await record.filter({ hasText: 'RETRIES: set retries to 5 with backoff' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    // Monaco renders spaces as no-break spaces (\s matches both).
    assert.match(await record.innerText(), /#\stune\sretries[\s\S]*##\sPrompt[\s\S]*read_file/);
    await screenshot(page, 'changes-record');
  });

  it('two subagents whose commands overlapped: a shared file\'s checkbox, off by default, includes it in the revert', async () => {
    await runCommand(page, 'Delegate: New Session');
    server.route([
      childRoute('WRITE-A', [reply.toolUse({ name: 'bash', input: { command: 'sleep 3; echo a > own-a.txt' } }), reply.text('A done.')]),
      // Through a script in a string: B's command does not name shared.txt, nor does A's.
      childRoute('WRITE-S', [reply.toolUse({ name: 'bash', input: { command: "sleep 0.3; sh -c 'echo s > shared.txt'" } }), reply.text('S done.')]),
      parentRoute([
        reply.toolUse([
          { name: 'task', input: { description: 'write a', prompt: 'WRITE-A: write own-a.txt' } },
          { name: 'task', input: { description: 'write s', prompt: 'WRITE-S: write shared.txt' } },
        ]),
        reply.text('Both written.'),
      ]),
    ]);
    await askFromPalette(page, 'Write both');
    // Commands ask in this mode: A's allowed first, then B's while A's still sleeps.
    const cards = panel.frame.locator('.inbox-card');
    await cards.nth(1).waitFor({ timeout: STEP_TIMEOUT });
    await cards.filter({ hasText: 'write a' }).locator('[data-decision="allow"]').click();
    await cards.nth(1).waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
    await cards.filter({ hasText: 'write s' }).locator('[data-decision="allow"]').click();
    const task = panel.task('write a');
    await panel.waitForStatus(task, 'completed');
    await panel.waitUntilIdle();
    server.assertAllConsumed();

    await panel.setOpen(task, true);
    const changes = panel.changesRow(task);
    await changes.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await changes.locator('.changes-title').click();
    const files = panel.frame.locator('.conversation > .tree-row.change-file');
    await files.nth(1).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    const shared = files.filter({ hasText: 'shared.txt' });
    assert.equal((await shared.locator('.change-shared').textContent())?.trim(), 'shared with "write s" · revert too');
    const box = shared.locator('input.change-include');
    assert.equal(await box.isChecked(), false, 'off by default');
    assert.equal(await shared.locator('.path-link').evaluate((e) => e.scrollWidth > e.clientWidth), false, 'the label gives way, not the file\'s name');
    await box.check();
    await screenshot(page, 'changes-shared-checked');

    await changes.locator('.changes-revert').click();
    const modal = modalDialog(page, 'Revert the changes of the subagent "write a"');
    await modal.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    const text = await modal.innerText();
    assert.match(text, /shared\.txt: delete \(it created it; shared, included: the subagent "write s"/);
    assert.match(text, /own-a\.txt: delete \(it created it\)/);
    await modal.getByRole('button', { name: 'Revert', exact: true }).click();
    await panel.frame.locator('.conversation > .tree-row.change-file[data-revert="deleted"]').nth(1).waitFor({ state: 'attached', timeout: STEP_TIMEOUT });
    assert.equal(existsSync(join(workspace.dir, 'shared.txt')), false);
    assert.equal(existsSync(join(workspace.dir, 'own-a.txt')), false);
  });
});

async function fileLines(files: Locator): Promise<string[]> {
  return files.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-file')} ${e.querySelector('.change-counts')?.textContent}`));
}
