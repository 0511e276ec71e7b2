/**
 * End to end, in a real VS Code 1.139 with the packaged extension, driven as a user would: the API key
 * set through "Delegate: Set API Key", prompts sent through "Delegate: Ask…", the panel's task tree
 * read and clicked, the Stop button, the fan-out card and a subagent's permission card in the panel. One editor (a trusted workspace) serves
 * every test here; each test starts with "Delegate: New Session". The model is the local
 * Messages-API server, which only accepts the key typed into the UI.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { lastToolResults, reply, type MessagesApiServer } from '../fixtures/messages-api-server';
import { screenshot } from './editor';
import { CANARY, CONFIG_JSON, childRoute, isChild, parentRoute, wholeRequest } from './fixtures';
import { delegateEditorSuite, type EditorSuiteParts } from './editor-suite';
import { Panel, STEP_TIMEOUT } from './panel';
import { gate, waitUntil } from './wait';
import { askFromPalette, modalDialog, runCommand } from './workbench';

const API_KEY = 'sk-e2e-typed-into-the-ui';

describe('Delegate in a real VS Code (trusted workspace)', function () {
  const editor = delegateEditorSuite('trusted', API_KEY, { 'delegate.subagentMaxTurns': 3, 'delegate.permissionMode': 'default' });
  let server: MessagesApiServer;
  let workspace: EditorSuiteParts['workspace'];
  let page: Page;
  let panel: Panel;
  /** This test's Messages API requests only: the server lives across tests. */
  const requests = editor.requests;
  before(() => ({ server, workspace, page, panel } = editor.parts()));

  beforeEach(async () => {
    await runCommand(page, 'Delegate: New Session');
    await panel.emptyHint().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  });

  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    const name = `failed-${(this.currentTest.title.split(' ')[0] ?? 'test').replace(/\W+/g, '')}`;
    console.log(`      screenshot of the failure: ${await screenshot(page, name)}`);
    // Leave the editor usable for the next test: answer a leftover modal, stop a leftover run.
    const deny = page.locator('.monaco-dialog-box').getByRole('button', { name: 'Deny', exact: true });
    if (await deny.isVisible()) await deny.click();
    if (!(await panel.isIdle())) await panel.stopButton().click();
  });

  it('a. Ask… runs a task whose calls show, in order, in its tree; the main agent never sees what the subagent read', async () => {
    const liveSeen = gate();
    server.route([
      childRoute('SURVEY', [
        reply.toolUse({ name: 'glob', input: { pattern: 'test/**/*.test.ts' } }),
        reply.toolUse([
          { name: 'read_file', input: { path: 'test/math.test.ts' } },
          { name: 'read_file', input: { path: 'test/strings.test.ts' } },
        ]),
        // Held, so the live tree can be seen while the task still runs.
        reply.text('Two test files: math.test.ts checks add(), strings.test.ts checks shout().', { until: liveSeen.opened }),
      ]),
      parentRoute([
        reply.toolUse({ name: 'task', input: { description: 'survey tests', prompt: 'SURVEY: list the test files under test/, read each one and report what it covers.' } }),
        reply.text('The tests cover add() and shout().'),
      ]),
    ]);
    await askFromPalette(page, 'What do the tests cover?');

    const task = panel.task('survey tests');
    const rows = panel.toolRows(task);
    try {
      await rows.nth(2).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
      assert.equal(await task.getAttribute('data-status'), 'running', 'the calls show live, while the task runs (and it is open meanwhile)');
    } finally {
      liveSeen.open();
    }

    await panel.waitForStatus(task, 'completed');
    await panel.assistantText('The tests cover add() and shout().').waitFor({ timeout: STEP_TIMEOUT });
    await panel.waitUntilIdle();
    await panel.setOpen(task, true);
    assert.deepEqual(await panel.toolNames(task), ['glob', 'read_file', 'read_file']);
    assert.deepEqual(await rows.locator('.tool-summary').allTextContents(), ['test/**/*.test.ts', 'test/math.test.ts', 'test/strings.test.ts']);
    for (const status of await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))) assert.equal(status, 'ok');
    await panel.outcome(task).filter({ hasText: 'Result' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await screenshot(page, 'ask-with-task');

    server.assertAllConsumed();
    const parent = requests().filter((r) => !isChild(r));
    const child = requests().filter(isChild);
    assert.equal(parent.length, 2);
    assert.equal(child.length, 3);
    assert.ok(child.some((r) => wholeRequest(r).includes(CANARY)), 'the subagent read the canary file (else this test proves nothing)');
    for (const r of parent) assert.ok(!wholeRequest(r).includes(CANARY), `main agent request #${r.index} must not contain the canary`);
    for (const r of requests()) assert.equal(r.apiKey, API_KEY, 'every request carries the key typed into "Delegate: Set API Key"');
  });

  it('b. a finished session with three parallel tasks: collapse two, expand one', async () => {
    server.route([
      childRoute('ALPHA', [reply.toolUse({ name: 'read_file', input: { path: 'src/math.ts' } }), reply.text('math.ts exports add(a, b), which returns their sum.')]),
      childRoute('BETA', [
        reply.toolUse({ name: 'glob', input: { pattern: 'src/*.ts' } }),
        reply.toolUse({ name: 'read_file', input: { path: 'src/strings.ts' } }),
        reply.text('strings.ts exports shout(s), which upper-cases a string.'),
      ]),
      // Three turns of calls with subagentMaxTurns 3: the fourth request is the forced final answer (max_turns).
      childRoute('GAMMA', [
        reply.toolUse({ name: 'glob', input: { pattern: '**/*.json' } }),
        reply.toolUse({ name: 'read_file', input: { path: 'config.json' } }),
        reply.toolUse({ name: 'read_file', input: { path: 'README.md' } }),
        reply.text('Partial audit: config.json sets retries to 3; the README was not checked against it yet.'),
      ]),
      parentRoute([
        reply.toolUse([
          { name: 'task', input: { description: 'explain math', prompt: 'ALPHA: explain src/math.ts.' } },
          { name: 'task', input: { description: 'explain strings', prompt: 'BETA: explain src/strings.ts.' } },
          { name: 'task', input: { description: 'audit config', prompt: 'GAMMA: audit the JSON config against the README.' } },
        ]),
        reply.text('math.ts adds numbers, strings.ts shouts, and the config audit stopped at its turn limit.'),
      ]),
    ]);
    await askFromPalette(page, 'Explain the source files and audit the config.');

    // Three at once: the fan-out card asks first, inline in the panel (no modal), naming each child; none starts until Run.
    const card = panel.frame.locator('.inbox-card.inbox-fanout');
    await card.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.equal(await modalDialog(page, 'wants to start').count(), 0, 'no modal while the panel shows');
    const cardText = await card.innerText();
    for (const line of ['wants to start 3 subagents at once', 'explain math', 'explain strings', 'audit config', 'general-purpose', 'mode default']) assert.ok(cardText.includes(line), `the card shows ${line}: ${cardText}`);
    assert.equal(server.messageRequests().filter((r) => JSON.stringify(r.body.messages).includes('ALPHA')).length, 0, 'no child has started');
    await screenshot(page, 'fanout-card');
    const cardButtons = await card.locator('.fanout-answers button').allInnerTexts();
    assert.ok(cardButtons.includes('Run') && cardButtons.includes('Cancel'), cardButtons.join(', '));
    await card.locator('[data-choice="run"]').click();
    await card.waitFor({ state: 'detached', timeout: STEP_TIMEOUT });

    const math = panel.task('explain math');
    const strings = panel.task('explain strings');
    const audit = panel.task('audit config');
    await panel.assistantText('the config audit stopped at its turn limit').waitFor({ timeout: STEP_TIMEOUT });
    await panel.waitUntilIdle(); // the same render that disables Stop shows the final statuses
    assert.deepEqual(await panel.taskSummaries(), [
      { description: 'explain math', status: 'completed' },
      { description: 'explain strings', status: 'completed' },
      { description: 'audit config', status: 'max_turns' },
    ]);
    assert.match(await audit.locator('.task-sub').innerText(), /Turn limit reached/);

    for (const t of [math, strings, audit]) await panel.setOpen(t, true);
    await panel.setOpen(math, false);
    await panel.setOpen(strings, false);
    assert.deepEqual([await panel.isOpen(math), await panel.isOpen(strings), await panel.isOpen(audit)], [false, false, true]);
    assert.deepEqual(await panel.toolNames(audit), ['glob', 'read_file', 'read_file']);
    await panel.toolRows(audit).nth(2).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.equal(await panel.toolRows(math).first().isVisible(), false, 'a collapsed task hides its calls');
    await panel.outcome(audit).filter({ hasText: 'Partial audit' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await screenshot(page, 'finished-session');
    server.assertAllConsumed();
  });

  it('c. a running task shows live; Stop in the panel cancels it', async () => {
    server.route([
      childRoute('SLOW', [reply.toolUse({ name: 'read_file', input: { path: 'README.md' } }), reply.stall()]),
      parentRoute([reply.toolUse({ name: 'task', input: { description: 'deep analysis', prompt: 'SLOW: analyse the whole project in depth.' } })]),
    ]);
    await askFromPalette(page, 'Analyse the project.');

    const task = panel.task('deep analysis');
    await panel.waitForStatus(task, 'running');
    await panel.toolRows(task).first().and(panel.frame.locator('[data-status="ok"]')).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await waitUntil(() => requests().filter(isChild).length === 2, 'the subagent is waiting on its (stalled) second model reply');
    // The elapsed time ticks once a second while nothing else happens: it must pass one second.
    await waitUntil(async () => /\b\d+(\.\d+)?s\b/.test(await task.locator('.task-sub').innerText()), 'the running task shows seconds elapsed');
    await screenshot(page, 'running-task');

    assert.equal(await panel.isIdle(), false, 'Stop is enabled while running');
    await panel.stopButton().click();
    await panel.waitForStatus(task, 'cancelled');
    await panel.waitUntilIdle();
    assert.match(await task.locator('.task-sub').innerText(), /Stopped/);
    server.assertAllConsumed();
  });

  it('d. a subagent\'s write asks in the panel\'s inbox, naming the subagent; Deny there leaves the file alone', async () => {
    server.route([
      childRoute('CONFIG', [
        // Read first: a write of a file it never read is refused before anyone is asked (the write guard).
        reply.toolUse({ name: 'read_file', input: { path: 'config.json' } }),
        reply.toolUse({ name: 'write_file', input: { path: 'config.json', content: '{ "retries": 0 }\n' } }),
        reply.text('config.json is unchanged: the write was denied.'),
      ]),
      parentRoute([
        reply.toolUse({ name: 'task', input: { description: 'update config', prompt: 'CONFIG: set retries to 0 in config.json.' } }),
        reply.text('The change was not made: the write was denied.'),
      ]),
    ]);
    await askFromPalette(page, 'Set retries to 0.');

    // The panel is visible: a subagent's question waits in its inbox, answered in place (no modal).
    const card = panel.frame.locator('.inbox-card', { hasText: 'Subagent “update config”' });
    await card.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.match(await card.innerText(), /wants to write a file[\s\S]*config\.json/);
    assert.equal(await modalDialog(page, 'wants to').count(), 0, 'no modal while the panel shows the question');
    const task = panel.task('update config');
    const row = panel.toolRows(task).nth(1);
    await row.and(panel.frame.locator('[data-permission="asked"]')).waitFor({ state: 'attached', timeout: STEP_TIMEOUT });
    await screenshot(page, 'permission-inbox');
    const buttons = await card.locator('button[data-decision]').allInnerTexts();
    assert.deepEqual(buttons, ['Allow', 'Deny'], 'Allow and Deny; the wider answers in the menu beside Allow');
    await card.locator('.allow-more').click();
    assert.deepEqual(await panel.frame.locator('.scope-menu [role="menuitem"]').allInnerTexts(), [
      'Allow every file edit in the workspace for this subagent',
      "Allow every file edit in the workspace for this task's subagents",
      'Allow every file edit in the workspace for this session',
    ]);
    await page.keyboard.press('Escape');

    await card.locator('[data-decision="deny"]').click();
    await card.waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
    await panel.waitForStatus(task, 'completed');
    await panel.waitUntilIdle();
    assert.equal(readFileSync(join(workspace.dir, 'config.json'), 'utf8'), CONFIG_JSON, 'config.json is unchanged on disk');

    await panel.setOpen(task, true);
    await row.and(panel.frame.locator('[data-permission="denied"]')).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.equal((await row.locator('.row-state').innerText()).trim(), 'denied');
    const afterDeny = requests().filter(isChild)[2];
    assert.ok(afterDeny, 'the subagent was told about the denial');
    assert.equal(lastToolResults(afterDeny)[0]?.is_error, true);
    await screenshot(page, 'permission-denied');
    server.assertAllConsumed();
  });
});

