/**
 * The panel as users live in it, in a real VS Code 1.139 with the packaged extension (issue 25 §2, §5): Ctrl+F
 * while the panel has focus opens the panel's find bar — the editor's find widget stays shut and nothing typed
 * goes into the open file — while Ctrl+F in the editor stays the editor's; and a long session reopened from
 * History, and again after a window reload, opens at its end. Screenshots: the find bar at 300 and 250 px.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { reply, type MessagesApiServer } from '../fixtures/messages-api-server';
import { screenshot } from './editor';
import { parentRoute } from './fixtures';
import { delegateEditorSuite, type EditorSuiteParts } from './editor-suite';
import { Panel, STEP_TIMEOUT } from './panel';
import { waitUntil } from './wait';
import { askFromPalette, openDelegateView, openFileInEditor, runCommand, setSideBarWidth } from './workbench';

describe('Delegate in a real VS Code: Ctrl+F in the panel, and a session reopened at its end', function () {
  const editor = delegateEditorSuite('find-follow', 'sk-e2e-find', { 'delegate.permissionMode': 'default' });
  let server: MessagesApiServer;
  let workspace: EditorSuiteParts['workspace'];
  let page: Page;
  let panel: Panel;
  before(() => ({ server, workspace, page, panel } = editor.parts()));

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    console.log(`      screenshot of the failure: ${await screenshot(page, `failed-find-follow-${(this.currentTest.title.split(' ')[0] ?? 'x').replace(/\W+/g, '')}`)}`);
  });

  it('Ctrl+F with the panel focused opens its find bar, not the editor\'s find widget; the file is untouched; in the editor Ctrl+F stays the editor\'s', async () => {
    await runCommand(page, 'Delegate: New Session');
    server.route([parentRoute([reply.toolUse({ name: 'read_file', input: { path: 'README.md' } }), reply.text('The README describes a sample project.')])]);
    await askFromPalette(page, 'What is in the README?');
    await panel.assistantText('The README describes').waitFor({ timeout: STEP_TIMEOUT });
    await panel.waitUntilIdle();

    const file = join(workspace.dir, 'src', 'math.ts');
    const onDisk = readFileSync(file, 'utf8');
    const fileEditor = await openFileInEditor(page, 'src/math.ts');
    const shownText = (): Promise<string> => fileEditor.locator('.view-lines').innerText();
    const before = await shownText();
    const editorFind = page.locator('.editor-group-container .monaco-editor .find-widget.visible');

    for (const width of [300, 250]) {
      assert.ok(Math.abs((await setSideBarWidth(page, width)) - width) <= 2, `a ${width} px side bar`);
      // The user clicks into the panel (its prompt box), then at once presses Ctrl+F and types.
      await panel.frame.locator('.prompt-input').click();
      await page.keyboard.press('Control+f');
      await page.keyboard.type('read_file');
      const input = panel.frame.locator('.find-input');
      await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
      assert.equal(await input.inputValue(), 'read_file', 'what was typed is in the panel\'s find bar');
      assert.equal(await input.evaluate((e) => e === e.ownerDocument.activeElement), true, 'the find bar has focus');
      await page.waitForTimeout(300);
      assert.equal(await editorFind.count(), 0, 'the editor\'s find widget stays shut');
      assert.equal(await shownText(), before, 'nothing typed went into the file');
      assert.equal(await page.locator('.tabs-container .tab.dirty').count(), 0, 'the file is not modified');
      assert.equal(await panel.frame.locator('.find-count').textContent(), '1 match');
      await screenshot(page, `find-bar-${width}`);
      await input.press('Escape');
      await panel.frame.locator('.find-bar').waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
    }

    // The command (palette, or the keybinding where the key reaches the workbench) opens it from anywhere.
    await fileEditor.locator('.view-lines').click();
    await runCommand(page, 'Delegate: Find in Panel');
    const input = panel.frame.locator('.find-input');
    await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await waitUntil(() => input.evaluate((e) => e === e.ownerDocument.activeElement), 'the find bar has focus');
    await page.keyboard.type('README');
    assert.equal(await input.inputValue(), 'README');
    assert.equal(await shownText(), before);
    await input.press('Escape');

    // In the editor, Ctrl+F is the editor's own.
    await fileEditor.locator('.view-lines').click();
    await page.waitForTimeout(400);
    await page.keyboard.press('Control+f');
    await editorFind.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.equal(await panel.frame.locator('.find-bar').isHidden(), true, 'the panel\'s find bar stays shut');
    await page.keyboard.press('Escape');
    assert.equal(readFileSync(file, 'utf8'), onDisk, 'the file on disk is unchanged');
    await runCommand(page, 'View: Close All Editors');
  });

  it('a long session reopened from History, and after a window reload, opens at its end', async () => {
    await runCommand(page, 'Delegate: New Session');
    const paragraphs = Array.from({ length: 40 }, (_, i) => `${i + 1}. The settings are read once at start and kept for the whole run, so a change needs a restart.`);
    server.route([parentRoute([reply.text(`${paragraphs.join('\n\n')}\n\nThat is the end of the long answer.`)])]);
    await askFromPalette(page, 'Explain the settings at length.');
    await panel.assistantText('That is the end of the long answer.').waitFor({ timeout: STEP_TIMEOUT });
    await panel.waitUntilIdle();

    /** The list at its end and the answer's last line on screen. */
    const atEnd = async (p: Panel): Promise<boolean> =>
      p.frame.locator('.log').evaluate((log) => {
        const end = [...log.querySelectorAll('.msg-assistant p')].find((e) => (e.textContent ?? '').includes('That is the end of the long answer.'));
        if (!end) return false;
        const view = log.getBoundingClientRect();
        const r = end.getBoundingClientRect();
        return log.scrollHeight - log.scrollTop - log.clientHeight < 2 && r.top >= view.top && r.bottom <= view.bottom;
      });

    // The user reads back up (with the wheel, over the panel), then starts a new session and later comes back.
    const bar = await page.locator('.part.sidebar').boundingBox();
    if (!bar) throw new Error('the side bar is not shown');
    await page.mouse.move(bar.x + bar.width / 2, bar.y + bar.height / 3);
    await page.mouse.wheel(0, -5000);
    await waitUntil(async () => !(await atEnd(panel)), 'the user has scrolled up');
    await runCommand(page, 'Delegate: New Session');
    await panel.emptyHint().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await runCommand(page, 'Delegate: Show History');
    const row = panel.frame.locator('.history-row', { hasText: 'Explain the settings at length.' });
    await row.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await row.click();
    await panel.assistantText('That is the end of the long answer.').waitFor({ timeout: STEP_TIMEOUT });
    await waitUntil(() => atEnd(panel), 'the reopened session shows its end');
    const log = await panel.frame.locator('.log').evaluate((e) => ({ height: e.clientHeight, content: e.scrollHeight }));
    assert.ok(log.content > log.height * 2, `a session far taller than the panel (${log.height} of ${log.content} px)`);
    await screenshot(page, 'reopened-at-end');

    await runCommand(page, 'Developer: Reload Window');
    await openDelegateView(page);
    const reloaded = await Panel.of(page);
    await reloaded.assistantText('That is the end of the long answer.').waitFor({ timeout: 60_000 });
    await waitUntil(() => atEnd(reloaded), 'the session shows its end after a reload');
    await screenshot(page, 'reloaded-at-end');
  });
});
