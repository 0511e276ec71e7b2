/**
 * End to end in a real VS Code (issue 27): a subagent in its own worktree (the task's `isolation: "worktree"`) edits
 * config.json; the workspace is untouched until the user applies it from the panel's kept-in-worktrees bar: its file
 * opens the diff (the workspace's ↔ the branch's version), Apply lands it and the workspace file changes. Two that
 * conflict: Apply all lands one, the other's Resolve (by keyboard) runs a resolver subagent in the task tree, whose
 * merge then waits in the bar; its Apply lands it. Screenshots: test-artifacts/e2e/kept-*.png.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { reply, type MessagesApiServer } from '../fixtures/messages-api-server';
import { screenshot } from './editor';
import { CONFIG_JSON, childRoute, parentRoute } from './fixtures';
import { delegateEditorSuite, type EditorSuiteParts } from './editor-suite';
import { Panel, STEP_TIMEOUT } from './panel';
import { waitUntil } from './wait';
import { askFromPalette, notification } from './workbench';

const API_KEY = 'sk-e2e-kept';

describe('Delegate in a real VS Code: an isolated subagent\'s kept changes, applied from the panel', function () {
  const editor = delegateEditorSuite('kept', API_KEY, { 'delegate.permissionMode': 'acceptEdits' });
  let server: MessagesApiServer;
  let workspace: EditorSuiteParts['workspace'];
  let page: Page;
  let panel: Panel;
  before(() => {
    ({ server, workspace, page, panel } = editor.parts());
    // Worktrees need a repository with a commit.
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: workspace.dir, encoding: 'utf8' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base');
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') console.log(`      screenshot of the failure: ${await screenshot(page, 'failed-kept')}`);
  });

  it('the bar lists the kept file; its diff opens; Apply changes the workspace file and puts the bar away', async () => {
    server.route([
      childRoute('RETRIES', [
        reply.toolUse({ name: 'read_file', input: { path: 'config.json' } }),
        reply.toolUse({ name: 'edit_file', input: { path: 'config.json', old_text: '"retries": 3', new_text: '"retries": 5' } }),
        reply.text('Retries are 5, on my branch.'),
      ]),
      parentRoute([
        reply.toolUse({ name: 'task', input: { description: 'tune retries', prompt: 'RETRIES: set retries to 5 in config.json.', isolation: 'worktree' } }),
        reply.text('Kept on a branch.'),
      ]),
    ]);
    await askFromPalette(page, 'Tune the retries in a worktree');
    const task = panel.task('tune retries');
    await panel.waitForStatus(task, 'completed');
    await panel.waitUntilIdle();
    server.assertAllConsumed();
    assert.equal(readFileSync(join(workspace.dir, 'config.json'), 'utf8'), CONFIG_JSON, 'isolated: the workspace is untouched');

    const bar = panel.frame.locator('.kept-bar');
    await bar.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.equal((await bar.locator('.kept-bar-counts').textContent())?.trim(), '1 subagent · 1 file');
    const child = bar.locator('.kept-bar-child', { hasText: 'tune retries' });
    assert.deepEqual(await child.locator('.kept-bar-path').allTextContents(), ['config.json']);
    await screenshot(page, 'kept-bar');

    // Open diff: the workspace's file beside the branch's version.
    await child.locator('.kept-bar-path', { hasText: 'config.json' }).click();
    await page.locator('.tabs-container .tab', { hasText: 'workspace ↔ "tune retries" kept' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await page.locator('.editor-instance .monaco-diff-editor .view-lines', { hasText: '"retries": 5' }).first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await screenshot(page, 'kept-diff');

    await child.locator('[data-action="apply"]').click();
    await waitUntil(() => readFileSync(join(workspace.dir, 'config.json'), 'utf8').includes('"retries": 5'), 'the workspace file changes');
    assert.equal(readFileSync(join(workspace.dir, 'config.json'), 'utf8'), '{\n  "retries": 5\n}\n');
    await bar.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
    await notification(page, 'Delegate: Applied the kept changes of "tune retries".');
    await panel.frame.locator('.notice', { hasText: 'Applied the kept changes of "tune retries".' }).waitFor({ timeout: STEP_TIMEOUT });
    assert.deepEqual(await panel.taskSummaries(), [{ description: 'tune retries', status: 'completed' }], 'one task: the worktree event before its start made no other');
    await screenshot(page, 'kept-applied');
  });

  it('a conflict\'s Resolve: a resolver subagent runs in the tree, its merge waits in the bar, Apply lands it', async () => {
    const edit = (from: string, to: string) => reply.toolUse({ name: 'edit_file', input: { path: 'config.json', old_text: from, new_text: to } });
    server.route([
      childRoute('could not land in the user', [
        reply.toolUse({ name: 'read_file', input: { path: 'config.json' } }),
        reply.toolUse({ name: 'write_file', input: { path: 'config.json', content: '{\n  "retries": 16\n}\n' } }),
        reply.text('Kept both: 7 + 9 = 16.'),
      ]),
      childRoute('SEVEN', [reply.toolUse({ name: 'read_file', input: { path: 'config.json' } }), edit('"retries": 5', '"retries": 7'), reply.text('7.')]),
      childRoute('NINE', [reply.toolUse({ name: 'read_file', input: { path: 'config.json' } }), edit('"retries": 5', '"retries": 9'), reply.text('9.')]),
      parentRoute([
        reply.toolUse([
          { name: 'task', input: { description: 'retries seven', prompt: 'SEVEN: set retries to 7 in config.json.', isolation: 'worktree' } },
          { name: 'task', input: { description: 'retries nine', prompt: 'NINE: set retries to 9 in config.json.', isolation: 'worktree' } },
        ]),
        reply.text('Both kept.'),
      ]),
    ]);
    await askFromPalette(page, 'Set the retries two ways');
    await panel.waitForStatus(panel.task('retries nine'), 'completed');
    await panel.waitUntilIdle();
    const bar = panel.frame.locator('.kept-bar');
    await bar.locator('[data-action="apply-all"]').click();
    // The two ran in parallel: whichever was kept first lands, the other conflicts with it.
    const config = (): string => readFileSync(join(workspace.dir, 'config.json'), 'utf8');
    await waitUntil(() => /"retries": (7|9)/.test(config()), 'the first lands');
    const first = config();
    const conflicted = first.includes('"retries": 7') ? 'retries nine' : 'retries seven';
    const loser = bar.locator('.kept-bar-child').filter({ has: panel.frame.locator('.kept-bar-name', { hasText: new RegExp(`^"${conflicted}"$`) }) });
    const resolve = loser.getByRole('button', { name: `Resolve conflicts of "${conflicted}" with a subagent` });
    await resolve.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await screenshot(page, 'kept-conflict');

    await resolve.focus();
    await page.keyboard.press('Enter');
    const resolver = panel.frame.locator('.kept-bar-child', { hasText: 'conflicts' }).filter({ hasText: `for "${conflicted}"` });
    await resolver.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    const tasks = await panel.taskSummaries();
    assert.deepEqual(tasks.filter((t) => t.description.endsWith('\'s conflicts')).map((t) => [t.description.startsWith('resolve '), t.status]), [[true, 'completed']], `the resolver is a task of the tree: ${JSON.stringify(tasks)}`);
    assert.equal((await loser.locator('.kept-bar-state').textContent())?.trim(), 'handed to a resolver');
    assert.equal(config(), first, 'kept, not applied');
    await screenshot(page, 'kept-resolved');

    await resolver.locator('[data-action="apply"]').click();
    await waitUntil(() => readFileSync(join(workspace.dir, 'config.json'), 'utf8').includes('"retries": 16'), 'the merge lands');
    await bar.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
    server.assertAllConsumed();
  });
});
