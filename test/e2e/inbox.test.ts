/**
 * The panel inbox in a real VS Code 1.139 with the packaged extension: two parallel subagents ask for a command
 * at once; both wait in the inbox at the top of the panel (no modal), each answered in place by keyboard; the
 * answered one goes on while the other still waits. A screenshot of the two cards is kept (dark theme, side bar).
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
import { askFromPalette, modalDialog, runCommand } from './workbench';

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
    const deadline = Date.now() + STEP_TIMEOUT;
    while (!existsSync(join(workspace.dir, 'right.txt'))) {
      if (Date.now() > deadline) throw new Error('the right writer did not run its command');
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(existsSync(join(workspace.dir, 'left.txt')), false);

    await cards.first().locator('[data-decision="deny"]').focus();
    await page.keyboard.press('Space');
    await panel.waitUntilIdle();
    assert.equal(await panel.frame.locator('.inbox').isHidden(), true);
    assert.equal(existsSync(join(workspace.dir, 'left.txt')), false, 'denied');
  });
});
