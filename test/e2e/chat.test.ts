/**
 * End to end, in a real VS Code 1.139, without an Anthropic key: the editor's own language models (the
 * test-only provider extension, test/vscode-lm/, answering from an LmScript served over HTTP) run
 * Delegate — picked with "Delegate: Choose Model" for the panel, and in the Chat view's picker for
 * `@delegate`. The Chat view is turned back on for this editor (the runner's defaults hide it); it needs
 * no Copilot sign-in, only a model in its picker (docs/real-editor.md).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { isChildRequest, lmReply, promptOf, systemOf, TEST_LM_VENDOR, wholeLmRequest, type LmRecorded, type LmRoute } from '../fixtures/lm-script';
import { startLmScriptServer, type LmScriptServer } from '../fixtures/lm-script-server';
import { lastResponse, openChat, sendChat, unfoldSteps, waitForResponse } from './chat-view';
import { openDelegateEditor, ROOT_DIR, screenshot, type EditorSession } from './editor';
import { CANARY, createWorkspace } from './fixtures';
import { Panel, STEP_TIMEOUT } from './panel';
import { gate, waitUntil } from './wait';
import { askFromPalette, openDelegateView, runCommand } from './workbench';

const child = (marker: string, replies: LmRoute['replies']): LmRoute => ({ name: `child ${marker}`, match: (r) => isChildRequest(r) && promptOf(r).includes(marker), replies });
const parent = (replies: LmRoute['replies']): LmRoute => ({ name: 'parent', match: (r) => !isChildRequest(r), replies });

describe('Delegate on the editor\'s language models, and @delegate in the Chat view', function () {
  let lm: LmScriptServer;
  let workspace: ReturnType<typeof createWorkspace>;
  let session: EditorSession | undefined;
  let page: Page;
  let panel: Panel;
  let since = 0;
  const requests = (): LmRecorded[] => lm.script.requests.slice(since);

  before(async function () {
    this.timeout(240_000);
    const builder = (await import(pathToFileURL(join(ROOT_DIR, 'scripts', 'build-extension-tests.mjs')).href)) as { buildTestLmExtension(): Promise<string> };
    const testLm = await builder.buildTestLmExtension();
    lm = await startLmScriptServer();
    workspace = createWorkspace('chat');
    session = await openDelegateEditor({
      workspace: workspace.dir,
      // No API key anywhere (the runner strips ANTHROPIC_*): delegate.provider auto means the editor's models.
      settings: { 'chat.disableAIFeatures': false, 'workbench.secondarySideBar.defaultVisibility': 'visible', 'delegate.permissionMode': 'default' },
      env: { DELEGATE_TEST_LM_URL: lm.url },
      otherVsix: [testLm],
    });
    page = session.page;
    await openDelegateView(page);
    panel = await Panel.of(page);
  });

  after(async function () {
    this.timeout(60_000);
    await session?.close();
    await lm?.close();
    workspace?.remove();
  });

  beforeEach(() => {
    since = lm.script.requests.length;
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') console.log(`      screenshot of the failure: ${await screenshot(page, `failed-chat-${(this.currentTest.title.split(' ')[0] ?? 'x').replace(/\W+/g, '')}`)}`);
  });

  it('a. Delegate: Choose Model lists the editor\'s models; the pick runs a delegation from the panel', async () => {
    await runCommand(page, 'Delegate: Choose Model');
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await rows.filter({ hasText: 'Script Plain' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    const listed = await rows.allInnerTexts();
    assert.ok(listed.some((t) => /Script Plain[\s\S]*cannot call tools/.test(t)), listed.join(' | '));
    assert.ok(listed.some((t) => t.includes('Anthropic API')));
    await screenshot(page, 'choose-model');
    await rows.filter({ hasText: 'Script Model' }).first().click();
    const settings = join(session?.editor.dirs.userData ?? '', 'User', 'settings.json');
    await waitUntil(() => readFileSync(settings, 'utf8').includes('"delegate.provider": "vscode"'), 'the pick is saved');
    assert.deepEqual(JSON.parse(readFileSync(settings, 'utf8'))['delegate.vscodeModel'], { vendor: TEST_LM_VENDOR, family: 'script', id: 'script-tools' });

    lm.script.route([
      child('SURVEY', [lmReply.toolUse({ name: 'read_file', input: { path: 'test/strings.test.ts' } }), lmReply.text('strings.test.ts checks shout().')]),
      parent([lmReply.toolUse({ name: 'task', input: { description: 'survey strings', prompt: 'SURVEY: read test/strings.test.ts.' } }), lmReply.text('The strings test checks shout().')]),
    ]);
    await askFromPalette(page, 'What does the strings test check?');
    const task = panel.task('survey strings');
    await panel.waitForStatus(task, 'completed');
    await panel.assistantText('The strings test checks shout().').waitFor({ timeout: STEP_TIMEOUT });
    await panel.setOpen(task, true);
    assert.deepEqual(await panel.toolNames(task), ['read_file']);
    lm.script.assertAllConsumed();
    assertNoLeak(requests());
  });

  it('b. @delegate in the Chat view: the answer streams, each subagent a progress line, then its summary and a button to its node in the panel', async () => {
    await runCommand(page, 'Delegate: New Session');
    const progressSeen = gate();
    lm.script.route([
      child('SURVEY', [
        lmReply.toolUse({ name: 'glob', input: { pattern: 'test/**/*.test.ts' } }),
        lmReply.toolUse([
          { name: 'read_file', input: { path: 'test/math.test.ts' } },
          { name: 'read_file', input: { path: 'test/strings.test.ts' } },
        ]),
        // Held until the test has seen the progress line while the subagent runs (a fixed delay flaked under load).
        lmReply.text('Two test files: math.test.ts checks add(), strings.test.ts checks shout().', { until: progressSeen.opened }),
      ]),
      child('CONFIG', [lmReply.toolUse({ name: 'read_file', input: { path: 'config.json' } }), lmReply.text('config.json sets retries to 3.')]),
      parent([
        lmReply.toolUse(
          [
            { name: 'task', input: { description: 'survey tests', prompt: 'SURVEY: list the test files under test/, read each one and report what it covers.' } },
            { name: 'task', input: { description: 'read config', prompt: 'CONFIG: what does config.json set?' } },
          ],
          'I will hand the survey and the config to two subagents.',
        ),
        lmReply.text('The tests cover **add()** and **shout()**; the config sets retries to 3.'),
      ]),
    ]);
    await openChat(page);
    await sendChat(page, '@delegate What do the tests cover, and what does the config set?');
    try {
      await lastResponse(page).getByText('Subagent: survey tests').waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
      await screenshot(page, 'chat-running');
    } finally {
      progressSeen.open();
    }

    const response = await waitForResponse(page, 'the config sets retries to 3.');
    await unfoldSteps(response);
    await response.getByText('I will hand the survey and the config to two subagents.').waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    const text = await response.innerText();
    assert.match(text, /I will hand the survey and the config to two subagents\./);
    assert.match(text, /✓ survey tests — 3 turns · 3 tool calls · [\d.]+k? tokens · [\d.]+m?s/);
    assert.match(text, /✓ read config — 2 turns · 1 tool call · /);
    const buttons = response.getByRole('button', { name: 'Show in Delegate panel' });
    assert.equal(await buttons.count(), 2);

    // The panel has the same session: the prompt, both tasks and their calls.
    await panel.assistantText('the config sets retries to 3').waitFor({ timeout: STEP_TIMEOUT });
    const survey = panel.task('survey tests');
    await panel.setOpen(survey, false);
    // In the order they finished: the config first (the survey's last reply waits for the test).
    assert.ok(text.indexOf('✓ read config') < text.indexOf('✓ survey tests'));
    await buttons.nth(1).click();
    await survey.and(panel.frame.locator('.revealed[aria-expanded="true"]')).waitFor({ state: 'attached', timeout: STEP_TIMEOUT });
    assert.deepEqual(await panel.toolNames(survey), ['glob', 'read_file', 'read_file']);
    await page.waitForTimeout(300);
    await screenshot(page, 'chat-delegation');

    lm.script.assertAllConsumed();
    assert.ok(requests().every((r) => r.request.model === 'script-tools'), 'the model picked in the chat');
    assertNoLeak(requests());
  });

  it('c. a follow-up goes on with the conversation; /compact compacts it; /new starts over', async () => {
    lm.script.route([
      { name: 'summary', match: (r) => systemOf(r).startsWith('You summarize'), replies: [lmReply.text('SUMMARY: the tests cover add() and shout().')] },
      parent([lmReply.text('Only math and strings are tested.'), lmReply.text('A fresh start.')]),
    ]);
    await sendChat(page, '@delegate Is anything else tested?');
    await waitForResponse(page, 'Only math and strings are tested.');
    const followUp = requests()[0]?.request;
    assert.ok(followUp && /What do the tests cover[\s\S]*retries to 3[\s\S]*Is anything else tested/.test(wholeLmRequest(followUp)), 'the follow-up holds the earlier exchange');

    await sendChat(page, '@delegate /compact');
    await waitForResponse(page, 'Compacted the conversation');

    await sendChat(page, '@delegate /new');
    await waitForResponse(page, 'Started a new Delegate session');
    await sendChat(page, '@delegate Start again.');
    await waitForResponse(page, 'A fresh start.');
    const fresh = requests().at(-1)?.request;
    assert.equal(fresh?.messages.length, 2, 'system prompt and the new prompt only');
    assert.ok(!wholeLmRequest(fresh as never).includes('Is anything else tested'));
    lm.script.assertAllConsumed();
  });
});

/** The subagents read the canary file; no main-agent request may hold it. */
function assertNoLeak(requests: LmRecorded[]): void {
  const main = requests.filter((x) => !isChildRequest(x.request));
  // An empty list would pass the check below without checking anything.
  assert.ok(main.length > 0, `no main-agent request among the ${requests.length} recorded: nothing to check for the canary`);
  for (const r of main) assert.ok(!wholeLmRequest(r.request).includes(CANARY), `main agent request #${r.index} must not hold the canary`);
}

