/**
 * End to end, in a real VS Code 1.139 with workspace trust on: the user answers the trust dialog
 * "No, I don't trust the authors", asks something that makes the agent write, and the write is
 * refused without any approval modal; the file is not created; a warning offers "Manage Workspace
 * Trust", whose button opens the trust editor. Ask… runs while the Delegate view is closed: it must
 * reveal it. The API key comes from ANTHROPIC_API_KEY in the editor's environment (the extension
 * host inherits it), the other way a user can provide it.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { lastToolResults, reply, startMessagesApiServer, type MessagesApiServer } from '../fixtures/messages-api-server';
import { editorModule, openDelegateEditor, screenshot, type EditorSession } from './editor';
import { createWorkspace, parentRoute } from './fixtures';
import { Panel, STEP_TIMEOUT } from './panel';
import { askFromPalette, modalDialog, notification } from './workbench';

const API_KEY = 'sk-e2e-from-the-environment';

describe('Delegate in a real VS Code (untrusted workspace)', function () {
  let server: MessagesApiServer;
  let workspace: ReturnType<typeof createWorkspace>;
  let session: EditorSession | undefined;
  let page: Page;

  before(async function () {
    this.timeout(240_000);
    server = await startMessagesApiServer({ requireKey: API_KEY });
    workspace = createWorkspace('untrusted');
    session = await openDelegateEditor({
      workspace: workspace.dir,
      workspaceTrust: 'enabled',
      env: { ANTHROPIC_API_KEY: API_KEY },
      settings: { 'delegate.baseUrl': server.baseURL, 'delegate.model': 'test-model' },
    });
    page = session.page;
    const { answerTrustDialog } = await editorModule();
    await answerTrustDialog(page, { trust: false });
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  });

  after(async function () {
    this.timeout(60_000);
    await session?.close();
    await server?.close();
    workspace?.remove();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') console.log(`      screenshot of the failure: ${await screenshot(page, 'failed-untrusted')}`);
  });

  it('e. a write in Restricted Mode is refused, no file appears, and a warning offers "Manage Workspace Trust"', async () => {
    server.route([
      parentRoute([
        reply.toolUse({ name: 'write_file', input: { path: 'notes/plan.md', content: '# Plan\n' } }),
        reply.text('I could not write notes/plan.md: this workspace is not trusted.'),
      ]),
    ]);
    // The Delegate view is not open yet (the Explorer is): Ask… must reveal it.
    await askFromPalette(page, 'Write a plan to notes/plan.md.');
    const panel = await Panel.of(page);
    await panel.frame.locator('footer.composer').waitFor({ state: 'visible', timeout: STEP_TIMEOUT });

    const row = panel.frame.locator('.conversation > .tree-row.tool-row').filter({ has: panel.frame.locator('.tool-name', { hasText: 'write_file' }) });
    await row.and(panel.frame.locator('[data-status="error"]')).waitFor({ state: 'attached', timeout: STEP_TIMEOUT });
    await panel.assistantText('this workspace is not trusted').waitFor({ timeout: STEP_TIMEOUT });
    await panel.waitUntilIdle();
    assert.equal(existsSync(join(workspace.dir, 'notes', 'plan.md')), false, 'the file was not created');
    assert.equal(existsSync(join(workspace.dir, 'notes')), false, 'not even its folder');
    assert.equal(await modalDialog(page, 'wants to').count(), 0, 'no approval modal: an untrusted workspace refuses outright');

    const refused = server.messageRequests()[1];
    assert.ok(refused, 'the main agent was told about the refusal');
    const result = lastToolResults(refused)[0];
    assert.equal(result?.is_error, true);
    assert.match(JSON.stringify(result?.content), /not trusted/);

    const warning = await notification(page, 'this workspace is not trusted');
    const manage = warning.getByRole('button', { name: 'Manage Workspace Trust' });
    await manage.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await screenshot(page, 'untrusted-refusal');

    await manage.click();
    // 1.139 shows the Workspace Trust editor as a modal editor over the workbench.
    await page.getByText('You are in Restricted Mode').first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    server.assertAllConsumed();
  });
});
