/**
 * Talking to a finished subagent in a real VS Code 1.139 with the packaged extension: the task row's *Send a
 * message…* opens an input box; the subagent resumes with its whole conversation plus the message, on the same
 * node, and its new report replaces the old one there. A screenshot of the resumed node is kept.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { firstUserText, reply, type MessagesApiServer } from '../fixtures/messages-api-server';
import { isChild } from '../kit/is-child';
import { screenshot } from './editor';
import { childRoute, parentRoute } from './fixtures';
import { delegateEditorSuite } from './editor-suite';
import { Panel, STEP_TIMEOUT } from './panel';
import { answerInputBox, askFromPalette, runCommand } from './workbench';

describe('Delegate in a real VS Code: a message to a finished subagent', function () {
  const editor = delegateEditorSuite('resume', 'sk-e2e-resume', { 'delegate.model': 'claude-sonnet-5-5', 'delegate.permissionMode': 'default' });
  let server: MessagesApiServer;
  let page: Page;
  let panel: Panel;
  before(() => ({ server, page, panel } = editor.parts()));

  it('Send a message… on a finished task resumes it with its history, on the same node', async () => {
    await runCommand(page, 'Delegate: New Session');
    server.route([
      childRoute('SCOUT', [reply.text('Found three source files.'), reply.text('And two test files: math.test.ts and strings.test.ts.')]),
      parentRoute([reply.toolUse({ name: 'task', input: { description: 'scout the sources', prompt: 'SCOUT: list the source files.' } }), reply.text('Three source files.')]),
    ]);
    await askFromPalette(page, 'What sources are there?');
    const task = panel.task('scout the sources');
    await panel.waitForStatus(task, 'completed');
    await panel.waitUntilIdle();

    await task.locator('.task-message').click();
    await answerInputBox(page, 'Delegate: message subagent', 'Also list the tests.');
    await panel.setOpen(task, true);
    await panel.outcome(task).filter({ hasText: 'And two test files' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await panel.waitForStatus(task, 'completed');
    // The message that resumed it is a row of its own, under the first prompt.
    assert.match(await panel.frame.locator(`.message-row[data-parent="${await task.getAttribute('data-id')}"]`).innerText(), /Message · run 2[\s\S]*Also list the tests\./);
    assert.deepEqual((await panel.taskSummaries()).map((t) => t.description), ['scout the sources'], 'one node: the resume is a new segment of the same subagent');
    await screenshot(page, 'resumed-child');

    const resumed = server.messageRequests().filter(isChild).at(-1);
    assert.ok(resumed);
    const sent = JSON.stringify(resumed.body.messages);
    assert.match(firstUserText(resumed), /SCOUT: list the source files\./, 'its first prompt is still its first message');
    assert.ok(sent.includes('Found three source files.'), 'its earlier report is in its history');
    assert.ok(sent.includes('Also list the tests.'), 'the message arrives');
    server.assertAllConsumed();
  });
});
