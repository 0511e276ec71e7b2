/**
 * First run, end to end, in a real VS Code 1.139 with the packaged extension and no Anthropic key anywhere (the
 * runner strips ANTHROPIC_*; this editor has no language models): the empty panel is a setup card; a Send keeps the
 * draft and the line under the composer says why (no toast); Set API Key from the card; "Key saved"; Send draft
 * reaches the local Messages-API server with the typed key. Then a wrong key from the palette: the API's 401 shows in
 * the same line, with Set API Key. Screenshots of the side bar at 300 and 250 px, light and dark:
 * test-artifacts/e2e/first-run-*.png.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { firstUserText, reply, startMessagesApiServer, type MessagesApiServer } from '../fixtures/messages-api-server';
import { openDelegateEditor, ROOT_DIR, screenshot, type EditorSession } from './editor';
import { createWorkspace } from './fixtures';
import { Panel, STEP_TIMEOUT } from './panel';
import { waitUntil } from './wait';
import { answerInputBox, askFromPalette, openDelegateView, runCommand, setApiKeyFromPalette } from './workbench';

const API_KEY = 'sk-e2e-first-run';
const SHOTS = join(ROOT_DIR, 'test-artifacts', 'e2e');

describe('Delegate in a real VS Code: first run without a key', function () {
  let server: MessagesApiServer;
  let workspace: ReturnType<typeof createWorkspace>;
  let session: EditorSession | undefined;
  let page: Page;
  let panel: Panel;

  before(async function () {
    this.timeout(240_000);
    server = await startMessagesApiServer({ requireKey: API_KEY });
    workspace = createWorkspace('first-run');
    session = await openDelegateEditor({ workspace: workspace.dir, settings: { 'delegate.baseUrl': server.baseURL, 'delegate.model': 'test-model' } });
    page = session.page;
    await openDelegateView(page);
    panel = await Panel.of(page);
  });

  after(async function () {
    this.timeout(60_000);
    await session?.close();
    await server?.close();
    workspace?.remove();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') console.log(`      screenshot of the failure: ${await screenshot(page, `failed-first-run-${(this.currentTest.title.split(' ')[0] ?? 'x').replace(/\W+/g, '')}`)}`);
  });

  const card = (): Locator => panel.frame.locator('.empty-hint .setup-card');
  const line = (): Locator => panel.frame.locator('footer.composer .composer-notice');
  const box = (): Locator => panel.frame.locator('vscode-textarea.prompt-input textarea');

  it('a. the setup card; Send keeps the draft and says why; Set API Key from the card; Key saved; Send draft reaches the API', async () => {
    await card().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    assert.equal(await card().locator('[role="status"]').textContent(), 'Delegate needs an Anthropic API key or a language model from the editor.');
    assert.deepEqual(await card().locator('button').allTextContents(), ['Set API Key'], 'no "Use an editor model…": this editor has none');
    assert.match((await card().locator('.setup-none').textContent()) ?? '', /GitHub Copilot Chat/);
    await sideBarShots(page, panel, 'card');

    await box().click();
    await page.keyboard.type('Say hello');
    await page.keyboard.press('Enter');
    await line().locator('[role="alert"]').filter({ hasText: 'No API key or editor model.' }).waitFor({ timeout: STEP_TIMEOUT });
    assert.equal(await box().inputValue(), 'Say hello', 'the draft stays in the box');
    assert.deepEqual(await line().locator('button').allTextContents(), ['Set API Key']);
    assert.deepEqual(await keyNotifications(page), [], 'no toast (headless, toasts wait in the notification center)');
    assert.equal(server.messageRequests().length, 0);
    await sideBarShots(page, panel, 'refused');

    await card().locator('button[data-action="set_api_key"]').click();
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Delegate: Set API Key' }).waitFor({ timeout: STEP_TIMEOUT });
    assert.equal(await input.getAttribute('type'), 'password');
    await answerInputBox(page, 'Delegate: Set API Key', API_KEY);

    await line().locator('[role="status"]').filter({ hasText: 'Key saved.' }).waitFor({ timeout: STEP_TIMEOUT });
    await card().waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
    await sideBarShots(page, panel, 'saved');
    server.script(reply.text('Hello from the API.'));
    await line().locator('button.send-draft').click();
    await panel.assistantText('Hello from the API.').waitFor({ timeout: STEP_TIMEOUT });
    await panel.waitUntilIdle();
    const [sent] = server.messageRequests();
    assert.equal(sent?.apiKey, API_KEY, 'the key typed into the box');
    assert.match(firstUserText(sent ?? ({} as never)), /Say hello/);
    assert.equal(await box().inputValue(), '', 'sent: the box is empty');
    assert.equal(await line().isVisible(), false, 'the run started: the line is gone');
    server.assertAllConsumed();
  });

  it('b. a wrong key from the palette: Key saved, then the API\'s 401 in the same line, with Set API Key', async () => {
    await runCommand(page, 'Delegate: New Session');
    await setApiKeyFromPalette(page, 'sk-wrong');
    await line().locator('[role="status"]').filter({ hasText: 'Key saved.' }).waitFor({ timeout: STEP_TIMEOUT });
    const before = server.messageRequests().length;
    await box().click();
    await page.keyboard.type('Say hello again');
    await page.keyboard.press('Enter');
    await line().locator('[role="alert"]').filter({ hasText: 'The API refused the key (401).' }).waitFor({ timeout: STEP_TIMEOUT });
    assert.equal(server.messageRequests().length, before + 1, 'one request, refused (a 401 is not retried)');
    assert.deepEqual(await line().locator('button').allTextContents(), ['Set API Key']);
    assert.deepEqual(await keyNotifications(page), [], 'no toast');
    // The conversation's record names where the key was set, not a variable the user never touched.
    await panel.frame.getByText('check the key set with “Delegate: Set API Key”').first().waitFor({ timeout: STEP_TIMEOUT });
    await sideBarShots(page, panel, 'rejected', [300]);

    await line().locator('button[data-action="set_api_key"]').click();
    await answerInputBox(page, 'Delegate: Set API Key', API_KEY);
    await line().locator('[role="status"]').filter({ hasText: 'Key saved.' }).waitFor({ timeout: STEP_TIMEOUT });
  });
  it('c. the key removed: the card is back; Ask… from the palette with the side bar closed opens the panel with the prompt as the draft and the line', async () => {
    await runCommand(page, 'Delegate: New Session');
    await runCommand(page, 'Delegate: Set API Key');
    await answerInputBox(page, 'Delegate: Set API Key', '');
    await card().waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await runCommand(page, 'View: Close Primary Side Bar');
    await page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
    const before = server.messageRequests().length;
    await askFromPalette(page, 'Summarise the README');
    await line().locator('[role="alert"]').filter({ hasText: 'No API key or editor model.' }).waitFor({ timeout: STEP_TIMEOUT });
    assert.equal(await box().inputValue(), 'Summarise the README', 'the palette\'s prompt is the draft');
    assert.ok(await card().isVisible());
    assert.equal(server.messageRequests().length, before);
    assert.deepEqual(await keyNotifications(page), [], 'no toast');
  });
});

/**
 * Notifications about keys or models, read in the notification center (headless Chromium shows no toasts: they go
 * there; docs/real-editor.md). Other Delegate notices (no sandbox on this machine) are not this test's business.
 */
async function keyNotifications(page: Page): Promise<string[]> {
  await runCommand(page, 'Notifications: Show Notifications');
  const center = page.locator('.notifications-center');
  await center.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  const texts = await center.locator('.notification-list-item').allInnerTexts();
  await runCommand(page, 'Notifications: Hide Notifications');
  await center.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
  return texts.filter((t) => /API key|Choose Model|language model|authentication|401/i.test(t));
}

/** Drags the sash on the side bar's right edge until the side bar is `width` px wide. */
async function setSideBarWidth(page: Page, width: number): Promise<void> {
  const bar = page.locator('.part.sidebar');
  const at = await bar.boundingBox();
  if (!at) throw new Error('no side bar');
  if (Math.abs(at.width - width) <= 2) return;
  const edge = at.x + at.width;
  const sashes = await page.locator('.monaco-sash.vertical').evaluateAll((els) =>
    els.map((e) => {
      const r = (e as unknown as { getBoundingClientRect(): { x: number; y: number; width: number; height: number } }).getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2, height: r.height };
    }),
  );
  const sash = sashes.filter((s) => s.height > 100).sort((a, b) => Math.abs(a.x - edge) - Math.abs(b.x - edge))[0];
  if (!sash || Math.abs(sash.x - edge) > 6) throw new Error(`no sash on the side bar's edge (x ${edge}): ${JSON.stringify(sashes)}`);
  await page.mouse.move(sash.x, sash.y);
  await page.mouse.down();
  await page.mouse.move(sash.x - 10, sash.y, { steps: 2 });
  await page.mouse.move(sash.x + (width - at.width), sash.y, { steps: 5 });
  await page.mouse.up();
  await waitUntil(async () => Math.abs(((await bar.boundingBox())?.width ?? 0) - width) <= 2, `the side bar is ${width} px wide (it is ${(await bar.boundingBox())?.width})`);
}

/** The side bar at each width, light (this editor's default) then dark. */
async function sideBarShots(page: Page, panel: Panel, name: string, widths = [300, 250]): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await panel.frame.locator(`body.vscode-${theme}`).waitFor({ state: 'attached', timeout: STEP_TIMEOUT });
    for (const width of widths) {
      await setSideBarWidth(page, width);
      await page.mouse.move(1100, 200);
      const at = await page.locator('.part.sidebar').boundingBox();
      if (at) await page.screenshot({ path: join(SHOTS, `first-run-${name}-${width}-${theme}.png`), clip: at });
    }
  }
}

/** "Preferences: Toggle between Light/Dark Themes" until the workbench is `theme` (Default Light/Dark Modern). */
async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  const is = async (): Promise<boolean> => ((await page.locator('.monaco-workbench').getAttribute('class')) ?? '').split(/\s+/).includes(theme === 'light' ? 'vs' : 'vs-dark');
  if (await is()) return;
  await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
  await waitUntil(is, `the ${theme} theme`);
}
