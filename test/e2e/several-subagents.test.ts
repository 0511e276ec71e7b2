/**
 * Several subagents you can trust, in a real VS Code 1.139 with the packaged extension: a sibling's stale
 * write refused (naming who changed the file), a subagent's budget shown against what it spent and reached,
 * and a result held for review until the user accepts it. The model is the local Messages-API server.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { lastToolResults, reply, type MessagesApiServer, type RecordedRequest } from '../fixtures/messages-api-server';
import { screenshot } from './editor';
import { childRoute, isChild, parentRoute } from './fixtures';
import { delegateEditorSuite, type EditorSuiteParts } from './editor-suite';
import { Panel, STEP_TIMEOUT } from './panel';
import { gateWhen, waitUntil } from './wait';
import { askFromPalette, runCommand } from './workbench';

const API_KEY = 'sk-e2e-several';

describe('Delegate in a real VS Code: several subagents you can trust', function () {
  const editor = delegateEditorSuite('several', API_KEY, {
    'delegate.model': 'claude-sonnet-5-5',
    'delegate.permissionMode': 'acceptEdits',
    'delegate.subagentTokenBudget': 3000,
    'delegate.reviewSubagentResults': true,
  });
  let server: MessagesApiServer;
  let workspace: EditorSuiteParts['workspace'];
  let page: Page;
  let panel: Panel;
  /** This test's Messages API requests only: the server lives across tests. */
  const requests = editor.requests;
  before(() => ({ server, workspace, page, panel } = editor.parts()));

  /** Accepts every held result, in the order they come, until the run is idle. */
  async function acceptAllUntilIdle(): Promise<void> {
    // Each poll accepts whatever result waits for review.
    const acceptedAndIdle = async (): Promise<boolean> => {
      if (await panel.isIdle()) return true;
      const accept = panel.frame.locator('.task-review:not([hidden]) button[data-action="accept"]').first();
      if (await accept.isVisible().catch(() => false)) await accept.click();
      return false;
    };
    await waitUntil(acceptedAndIdle, 'the run ends');
  }

  it('a sibling’s stale write is refused naming who changed the file; the budget bar fills and the budget is reached', async () => {
    await runCommand(page, 'Delegate: New Session');
    const usage = { input_tokens: 1800, output_tokens: 100 };
    const lowerHasRead = (): boolean => requests().filter((r) => isChild(r) && JSON.stringify(r.body.messages?.[0]).includes('LOWER')).length >= 2;
    server.route([
      childRoute('RAISE', [
        reply.toolUse({ name: 'read_file', input: { path: 'config.json' } }, { usage }),
        // Held until its sibling has read the file too: that read is what goes stale.
        reply.toolUse({ name: 'edit_file', input: { path: 'config.json', old_text: '"retries": 3', new_text: '"retries": 5' } }, { usage, until: gateWhen(lowerHasRead) }),
        reply.text('Raised retries to 5.', { usage }),
      ]),
      childRoute('LOWER', [
        reply.toolUse({ name: 'read_file', input: { path: 'config.json' } }, { usage: { input_tokens: 500, output_tokens: 50 } }),
        // Held until its sibling's edit is on disk, so that one comes first.
        reply.toolUse(
          { name: 'edit_file', input: { path: 'config.json', old_text: '"retries": 3', new_text: '"retries": 1' } },
          { until: gateWhen(() => readFileSync(join(workspace.dir, 'config.json'), 'utf8').includes('"retries": 5')), usage: { input_tokens: 500, output_tokens: 50 } },
        ),
        reply.text('Could not lower retries: the file changed under me.'),
      ]),
      parentRoute([
        reply.toolUse([
          { name: 'task', input: { description: 'raise retries', prompt: 'RAISE: set retries to 5 in config.json.' } },
          { name: 'task', input: { description: 'lower retries', prompt: 'LOWER: set retries to 1 in config.json.' } },
        ]),
        reply.text('One of the two edits was refused as stale.'),
      ]),
    ]);
    await askFromPalette(page, 'Change the retries.');
    const raise = panel.task('raise retries');
    const lower = panel.task('lower retries');
    await raise.locator('.task-review:not([hidden])').first().waitFor({ timeout: STEP_TIMEOUT });
    assert.equal(await raise.getAttribute('data-status'), 'budget_exceeded', '2 × 1,900 tokens is over the 3,000 budget: its third request came with tools off');
    await lower.locator('.task-review:not([hidden])').first().waitFor({ timeout: STEP_TIMEOUT });
    await panel.setOpen(lower, true);
    const stale = panel.toolRows(lower).nth(1);
    await stale.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.match(await stale.innerText(), /stale/);
    await screenshot(page, 'stale-write-and-budget');
    await acceptAllUntilIdle();
    assert.equal(readFileSync(join(workspace.dir, 'config.json'), 'utf8'), '{\n  "retries": 5\n}\n', 'exactly one change on disk');
    const lowerResults = requests().filter((r) => isChild(r) && JSON.stringify(r.body.messages?.[0]).includes('LOWER')).map((r) => lastToolResults(r).map((t) => String(t.content)).join('\n'));
    assert.match(lowerResults.join('\n'), /the subagent "raise retries" \([0-9a-f]+\) changed it/);
  });

  it('a finished result waits for review; Accept lets the parent have it', async () => {
    await runCommand(page, 'Delegate: New Session');
    server.route([
      childRoute('SUMMARY', [reply.text('The README describes a tiny sample project.')]),
      parentRoute([reply.toolUse({ name: 'task', input: { description: 'summarize readme', prompt: 'SUMMARY: read README.md and summarize it.' } }), reply.text('Summarized.')]),
    ]);
    await askFromPalette(page, 'Summarize the README.');
    const task = panel.task('summarize readme');
    const held = task.locator('.task-review:not([hidden])').first();
    await held.waitFor({ timeout: STEP_TIMEOUT });
    assert.equal(requests().filter((r) => !isChild(r)).length, 1, 'the parent has not seen the result yet');
    await screenshot(page, 'review-held');
    await held.locator('button[data-action="accept"]').click();
    await panel.assistantText('Summarized.').waitFor({ timeout: STEP_TIMEOUT });
    const toParent = String(lastToolResults(requests().filter((r) => !isChild(r))[1] as RecordedRequest)[0]?.content);
    assert.match(toParent, /^The README describes a tiny sample project\./);
    server.assertAllConsumed();
  });
});
