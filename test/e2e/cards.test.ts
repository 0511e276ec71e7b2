/**
 * The panel's two decision cards in a real VS Code 1.139 with the packaged extension, as a user meets them:
 *
 * - the fan-out card, inline in the panel (no modal): its tasks already pending in the tree, nothing started, the
 *   forecast saying what it rests on (no history, then 6 past runs), Run by keyboard with "Don't ask again" (the
 *   workspace's settings file says never; the next fan-out starts unasked; Undo from the notification brings the
 *   card back), Cancel stopping the pending rows; at 300 and 250 px, dark and light;
 * - a subagent's permission card at 250 px, by keyboard alone: Allow and Deny on one row, Alt+Down opens the
 *   menu of wider answers, "for this subagent" lets its next command run unasked;
 * - the main agent's modal: the button VS Code focuses is "More choices…", so Enter allows nothing and opens the
 *   quick pick of every answer; "for this session" there lets the same command run again unasked.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { lastToolResults, reply, type MessagesApiServer, type RecordedRequest } from '../fixtures/messages-api-server';
import { screenshot } from './editor';
import { childRoute, isChild, parentRoute } from './fixtures';
import { delegateEditorSuite, type EditorSuiteParts } from './editor-suite';
import { Panel, STEP_TIMEOUT } from './panel';
import { waitUntil } from './wait';
import { notInView } from '../kit/in-view';
import { askFromPalette, modalDialog, notification, runCommand, setSideBarWidth } from './workbench';

const FANOUT = ['fan alpha', 'fan beta', 'fan gamma'];
const ANSWERS = '.inbox-fanout .fanout-answers button, .inbox-fanout .fanout-never input';

/** Sets the workbench's colour theme in the workspace's settings (the editor applies it at once), keeping the rest; undefined: the user's again. */
async function colorTheme(page: Page, dir: string, theme: string | undefined): Promise<void> {
  const file = join(dir, '.vscode', 'settings.json');
  const settings = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  if (theme === undefined) delete settings['workbench.colorTheme'];
  else settings['workbench.colorTheme'] = theme;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
  await page.locator(theme?.includes('Light') ? '.monaco-workbench.vs' : '.monaco-workbench.vs-dark').waitFor({ state: 'attached', timeout: STEP_TIMEOUT });
  await page.waitForTimeout(500);
}

describe('Delegate in a real VS Code: the fan-out card and the permission card', function () {
  const editor = delegateEditorSuite('cards', 'sk-e2e-cards', { 'delegate.model': 'claude-sonnet-5-5', 'delegate.permissionMode': 'default', 'workbench.colorTheme': 'Default Dark Modern' });
  let server: MessagesApiServer;
  let workspace: EditorSuiteParts['workspace'];
  let page: Page;
  let panel: Panel;
  before(() => ({ server, workspace, page, panel } = editor.parts()));

  /** The main agent starts the three FANOUT subagents at once; each answers in one reply. */
  function routeFanout(final: string): void {
    server.route([
      ...FANOUT.map((d) => childRoute(d.toUpperCase(), [reply.text(`${d} done`)])),
      parentRoute([reply.toolUse(FANOUT.map((d) => ({ name: 'task', input: { description: d, prompt: `${d.toUpperCase()}: look at the project and report one fact.` } }))), reply.text(final)]),
    ]);
  }
  const childRequests = (): number => editor.requests().filter(isChild).length;
  const settingsFile = (): string => {
    const file = join(workspace.dir, '.vscode', 'settings.json');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  };

  it('the fan-out card waits inline with its tasks pending in the tree; Run with "Don\'t ask again"; Undo; Cancel', async () => {
    const body = panel.frame.locator('body');
    const card = panel.frame.locator('.inbox-card.inbox-fanout');
    assert.ok(Math.abs((await setSideBarWidth(page, 300)) - 300) <= 2, 'a 300 px side bar');
    await runCommand(page, 'Delegate: New Session');
    routeFanout('All three reported.');
    await askFromPalette(page, 'Look at the project three ways.');
    await card.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.equal(await modalDialog(page, 'wants to start').count(), 0, 'no modal while the panel shows');
    for (const d of FANOUT) assert.equal(await panel.task(d).getAttribute('data-status'), 'pending', `${d} waits in the tree`);
    assert.equal(childRequests(), 0, 'no subagent started');
    assert.equal(await panel.frame.locator('.inbox-heading').textContent(), 'The main agent is waiting for you');
    assert.equal(await card.locator('.inbox-title').textContent(), 'wants to start 3 subagents at once');
    assert.equal(await card.locator('.fanout-shared').textContent(), 'All: general-purpose · claude-sonnet-5-5 · every tool · mode default');
    assert.deepEqual(await card.locator('.fanout-task summary').allTextContents(), FANOUT);
    assert.equal(await card.locator('.fanout-forecast-line').textContent(), 'general-purpose (3 tasks): no history yet in this workspace, so no forecast.');
    assert.deepEqual(await card.locator('.fanout-answers button').allTextContents(), ['Run', 'Cancel'], 'no capped run without history');
    assert.deepEqual(await notInView(body, ANSWERS), [], '300 px');
    await screenshot(page, 'fanout-card-300-dark');
    assert.ok(Math.abs((await setSideBarWidth(page, 250)) - 250) <= 2, 'a 250 px side bar');
    assert.deepEqual(await notInView(body, ANSWERS), [], '250 px');
    await screenshot(page, 'fanout-card-250-dark');
    await colorTheme(page, workspace.dir, 'Light Modern');
    assert.deepEqual(await notInView(body, ANSWERS), [], '250 px, light');
    await screenshot(page, 'fanout-card-250-light');

    // Keyboard: the first task's prompt, then "Don't ask again" and Run.
    await card.locator('.fanout-task summary').first().focus();
    await page.keyboard.press('Enter');
    assert.equal(await card.locator('.fanout-prompt').first().textContent(), 'FAN ALPHA: look at the project and report one fact.');
    await card.locator('.fanout-never input').focus();
    await page.keyboard.press('Space');
    await card.locator('[data-choice="run"]').focus();
    await page.keyboard.press('Enter');
    await card.waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
    await panel.assistantText('All three reported.').waitFor({ timeout: STEP_TIMEOUT });
    await panel.waitUntilIdle();
    for (const d of FANOUT) assert.equal(await panel.task(d).getAttribute('data-status'), 'completed');
    await waitUntil(() => /"delegate\.confirmFanout":\s*"never"/.test(settingsFile()), 'the workspace settings say never');
    const SAID = 'subagents now start without the fan-out card in this workspace';
    await notification(page, SAID);

    // Unasked now: the next fan-out starts at once.
    await runCommand(page, 'Delegate: New Session');
    const before = childRequests();
    routeFanout('Again, unasked.');
    await askFromPalette(page, 'Look again.');
    await panel.assistantText('Again, unasked.').waitFor({ timeout: STEP_TIMEOUT });
    await panel.waitUntilIdle();
    assert.equal(childRequests() - before, 3, 'the three ran without a card');

    // Undo from the notification: the card is back, and its forecast rests on the six runs so far.
    await (await notification(page, SAID)).getByRole('button', { name: 'Undo' }).click();
    await waitUntil(() => !settingsFile().includes('confirmFanout'), 'Undo took the setting out');
    await runCommand(page, 'Delegate: New Session');
    server.route([parentRoute([reply.toolUse(FANOUT.map((d) => ({ name: 'task', input: { description: d, prompt: `${d}: again` } }))), reply.text('Cancelled, then.')])]);
    await askFromPalette(page, 'Once more.');
    await card.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.match((await card.locator('.fanout-forecast-line').textContent()) ?? '', /^general-purpose \(3 tasks\): from 6 past runs here.* median .* tokens .* the largest took .* tokens/);
    assert.match((await card.locator('.fanout-caps').textContent()) ?? '', /^Stops each at its usual maximum .*general-purpose at .* tokens/);
    await screenshot(page, 'fanout-card-forecast-250-light');
    await card.locator('[data-choice="cancel"]').click();
    await panel.assistantText('Cancelled, then.').waitFor({ timeout: STEP_TIMEOUT });
    await panel.waitUntilIdle();
    for (const d of FANOUT) assert.equal(await panel.task(d).getAttribute('data-status'), 'cancelled');
    const results = lastToolResults(editor.requests().at(-1) as RecordedRequest);
    assert.match(String(results[0]?.content), /^Not run: the user cancelled this fan-out of 3 subagents/);
    await colorTheme(page, workspace.dir, undefined);
  });

  it('a subagent\'s permission card at 250 px, by keyboard: Alt+Down, "for this subagent", its next command runs unasked', async () => {
    assert.ok(Math.abs((await setSideBarWidth(page, 250)) - 250) <= 2, 'a 250 px side bar');
    await runCommand(page, 'Delegate: New Session');
    server.route([
      childRoute('MENU', [reply.toolUse({ name: 'bash', input: { command: 'echo one > one.txt' } }), reply.toolUse({ name: 'bash', input: { command: 'echo two > two.txt' } }), reply.text('menu done')]),
      parentRoute([reply.toolUse({ name: 'task', input: { description: 'menu writer', prompt: 'MENU: write one.txt, then two.txt.' } }), reply.text('Both written.')]),
    ]);
    await askFromPalette(page, 'Write the two files.');
    const card = panel.frame.locator('.inbox-card.inbox-permission', { hasText: 'menu writer' });
    await card.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    const tops = await card.locator('.permission-answers > *').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
    assert.equal(new Set(tops).size, 1, `Allow and Deny on one row (${tops.join(', ')})`);
    assert.deepEqual(await notInView(panel.frame.locator('body'), '.inbox-permission .inbox-button'), []);

    await card.locator('[data-decision="allow"]').focus();
    await page.keyboard.press('Alt+ArrowDown');
    const items = panel.frame.locator('.scope-menu [role="menuitem"]');
    await items.first().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.deepEqual(await items.allInnerTexts(), ['Allow echo one > one.txt for this session', 'Allow every bash command for this subagent', "Allow every bash command for this task's subagents"]);
    assert.deepEqual(await notInView(panel.frame.locator('body'), '.scope-menu [role="menuitem"]'), [], 'the menu whole in a 250 px panel');
    await screenshot(page, 'permission-menu-250-dark');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await panel.assistantText('Both written.').waitFor({ timeout: STEP_TIMEOUT });
    await panel.waitUntilIdle();
    assert.ok(existsSync(join(workspace.dir, 'one.txt')) && existsSync(join(workspace.dir, 'two.txt')), 'both commands ran: the second unasked');
  });

  it('the main agent\'s modal: Enter opens "More choices…" and allows nothing; "for this session" from the list covers the repeat', async () => {
    await runCommand(page, 'Delegate: New Session');
    const command = 'echo main >> main.txt';
    server.route([parentRoute([reply.toolUse({ name: 'bash', input: { command } }), reply.toolUse({ name: 'bash', input: { command } }), reply.text('Ran it twice.')])]);
    await askFromPalette(page, 'Append to main.txt twice.');
    const dialog = modalDialog(page, 'The main agent wants to run a command');
    await dialog.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.deepEqual((await dialog.getByRole('button').allInnerTexts()).filter((t) => t.trim()).sort(), ['Allow', `Allow “${command}” for this session`, 'Deny', 'More choices…'].sort());
    await screenshot(page, 'permission-modal');
    // A stray Enter: the focused button is "More choices…".
    await page.keyboard.press('Enter');
    const pick = page.locator('.quick-input-widget');
    await pick.locator('.quick-input-title', { hasText: 'The main agent wants to run a command' }).waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.equal(existsSync(join(workspace.dir, 'main.txt')), false, 'the Enter allowed nothing');
    assert.deepEqual((await pick.locator('.quick-input-list .monaco-list-row').allInnerTexts()).map((t) => t.trim()), ['Allow', `Allow “${command}” for this session`, 'Deny']);
    await screenshot(page, 'permission-more-choices');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await panel.assistantText('Ran it twice.').waitFor({ timeout: STEP_TIMEOUT });
    await panel.waitUntilIdle();
    assert.equal(readFileSync(join(workspace.dir, 'main.txt'), 'utf8'), 'main\nmain\n', 'the repeat ran unasked');
  });
});
