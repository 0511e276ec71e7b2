/**
 * The panel inbox in a real VS Code 1.139 with the packaged extension: two parallel subagents ask for a command
 * at once; both wait in the inbox at the top of the panel (no modal), each answered in place by keyboard; the
 * answered one goes on while the other still waits. A screenshot of the two cards is kept (dark theme, side bar).
 * After a long run (the conversation far taller than the panel) a command to allow and an ask_user question
 * stay whole, visible and clickable without scrolling, in 300 and 250 px side bars and a short window.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { reply, type MessagesApiServer } from '../fixtures/messages-api-server';
import { screenshot } from './editor';
import { childRoute, parentRoute } from './fixtures';
import { delegateEditorSuite, type EditorSuiteParts } from './editor-suite';
import { Panel, STEP_TIMEOUT } from './panel';
import { notInView } from '../kit/in-view';
import { waitUntil } from './wait';
import { askFromPalette, modalDialog, runCommand, setSideBarWidth } from './workbench';

describe('Delegate in a real VS Code: the inbox of subagents waiting for you', function () {
  const editor = delegateEditorSuite('inbox', 'sk-e2e-inbox', { 'delegate.model': 'claude-sonnet-5-5', 'delegate.permissionMode': 'default', 'workbench.colorTheme': 'Default Dark Modern' });
  let server: MessagesApiServer;
  let workspace: EditorSuiteParts['workspace'];
  let page: Page;
  let panel: Panel;
  before(() => ({ server, workspace, page, panel } = editor.parts()));

  it('two children ask at once: both wait in the panel, each is answered in place by keyboard', async () => {
    await runCommand(page, 'Delegate: New Session');
    server.route([
      childRoute('LEFT', [reply.toolUse({ name: 'bash', input: { command: 'echo left > left.txt' } }), reply.text('left done')]),
      childRoute('RIGHT', [reply.toolUse({ name: 'bash', input: { command: 'echo right > right.txt' } }), reply.text('right done')]),
      parentRoute([
        reply.toolUse([
          { name: 'task', input: { description: 'left writer', prompt: 'LEFT: write left.txt' } },
          { name: 'task', input: { description: 'right writer', prompt: 'RIGHT: write right.txt' } },
        ]),
        reply.text('Both asked.'),
      ]),
    ]);
    await askFromPalette(page, 'Write both files.');
    const cards = panel.frame.locator('.inbox-card');
    await cards.nth(1).waitFor({ timeout: STEP_TIMEOUT });
    assert.equal(await panel.frame.locator('.inbox-heading').textContent(), '2 subagents are waiting for you');
    assert.equal(await modalDialog(page, 'wants to run a command').count(), 0, 'no modal for a subagent while the panel shows');
    const names = await cards.locator('.inbox-who-name').allTextContents();
    assert.deepEqual([...names].sort(), ['Subagent “left writer”', 'Subagent “right writer”']);
    await screenshot(page, 'inbox-two-asks');

    const right = cards.filter({ hasText: 'right writer' });
    assert.equal(await right.locator('.inbox-input').textContent(), 'echo right > right.txt');
    await right.locator('[data-decision="allow"]').focus();
    await page.keyboard.press('Enter');
    await cards.nth(1).waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
    assert.deepEqual(await cards.locator('.inbox-who-name').allTextContents(), ['Subagent “left writer”'], 'the left writer still waits');
    await waitUntil(() => existsSync(join(workspace.dir, 'right.txt')), 'the right writer runs its command');
    assert.equal(existsSync(join(workspace.dir, 'left.txt')), false);

    await cards.first().locator('[data-decision="deny"]').focus();
    await page.keyboard.press('Space');
    await panel.waitUntilIdle();
    assert.equal(await panel.frame.locator('.inbox').isHidden(), true);
    assert.equal(existsSync(join(workspace.dir, 'left.txt')), false, 'denied');
  });

  it('after a long run, a command to allow and a question stay whole and clickable without scrolling: 300, 250 px and a short window', async () => {
    await runCommand(page, 'Delegate: New Session');
    const reads = Array.from({ length: 60 }, (_, i) => ({ name: 'read_file', input: { path: i % 2 ? 'src/math.ts' : 'README.md' } }));
    server.route([
      childRoute('LONGRUN', [
        reply.toolUse(reads),
        reply.toolUse({ name: 'bash', input: { command: 'echo built > built.txt' } }),
        reply.toolUse({ name: 'ask_user', input: { question: 'Which port should the dev server listen on? The default one is taken.', options: ['8080', '3000', '5173'] } }),
        reply.text('long run done'),
      ]),
      parentRoute([reply.toolUse({ name: 'task', input: { description: 'long run', prompt: 'LONGRUN: read everything, build, ask.' } }), reply.text('The long run is over.')]),
    ]);
    const body = panel.frame.locator('body');
    const card = '.inbox-list > .inbox-card:first-child';
    const controls = `${card} .inbox-title, ${card} .inbox-button, ${card} .inbox-text`;
    try {
      assert.ok(Math.abs((await setSideBarWidth(page, 300)) - 300) <= 2, 'a 300 px side bar');
      await askFromPalette(page, 'Run the long job.');
      await panel.frame.locator(`${card}.inbox-permission`).waitFor({ timeout: STEP_TIMEOUT });
      // The task's earlier calls opened (a long task folds all but its last 10): the conversation as tall as it gets.
      const fold = panel.frame.locator('.tree-row.fold-row').first();
      await fold.click();
      await panel.frame.locator('.tree-row.fold-row[aria-expanded="true"]').waitFor({ timeout: STEP_TIMEOUT });
      const log = await panel.frame.locator('.log').evaluate((e) => ({ height: e.clientHeight, content: e.scrollHeight }));
      assert.ok(log.content > log.height * 2, `the conversation is far taller than its room (${log.height} of ${log.content} px)`);
      assert.deepEqual(await notInView(body, controls), [], '300 px');
      await screenshot(page, 'inbox-long-300');
      assert.ok(Math.abs((await setSideBarWidth(page, 250)) - 250) <= 2, 'a 250 px side bar');
      await page.setViewportSize({ width: 1400, height: 560 });
      await page.waitForTimeout(500);
      assert.deepEqual(await notInView(body, controls), [], '250 px, a short window');
      await screenshot(page, 'inbox-long-250-short');
      // Clicked where it is: nothing had to scroll.
      await panel.frame.locator(`${card} [data-decision="allow"]`).click({ noWaitAfter: true });
      await waitUntil(() => existsSync(join(workspace.dir, 'built.txt')), 'the allowed command runs');

      await panel.frame.locator(`${card}.inbox-question`).waitFor({ timeout: STEP_TIMEOUT });
      assert.deepEqual(await notInView(body, controls), [], 'the question, 250 px, a short window');
      await panel.frame.locator(`${card} .inbox-text`).click();
      await page.keyboard.type('4000, and keep 8080 free');
      assert.deepEqual(await notInView(body, controls), [], 'while the user types');
      await screenshot(page, 'inbox-question-250-short');
      await page.keyboard.press('Enter');
      // Opening the fold stopped following the end (the user looked back): Jump to latest brings the answer into view.
      const jump = panel.frame.locator('.jump-latest');
      await jump.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
      await jump.click();
      await panel.assistantText('The long run is over.').waitFor({ timeout: STEP_TIMEOUT });
      await panel.waitUntilIdle();
      const asked = editor.requests().find((r) => JSON.stringify(r.body.messages).includes('4000, and keep 8080 free'));
      assert.ok(asked, 'the typed answer reached the subagent');
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
    }
  });
});
