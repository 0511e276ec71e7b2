/**
 * First run in the panel (headless Chromium): with no key and no editor model the empty state is a setup card; a Send
 * keeps the draft and the line under the composer says why; "Key saved" offers to send the draft; a refused key
 * says so in the same place. The problems are the host's own (rejectedKey of the core's 401 line). Screenshots at
 * 300 and 250 px, dark and light, in test-artifacts/webview/setup-*.png.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { WebviewToHost } from '../../src/protocol';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import type { SetupProblem } from '../../src/view-model/setup-problem';
import { rejectedKey } from '../../src/view-model/setup-problem';
import { ARTIFACTS, frames, openPanel, posted, send, panelSuite } from './browser';
import { finishedSession, Script } from './fixtures';

const NO_CREDENTIALS: SetupProblem = { kind: 'credentials', message: 'Delegate needs an Anthropic API key or a language model from the editor', editorModels: 0 };
const WITH_MODELS: SetupProblem = { ...NO_CREDENTIALS, editorModels: 2 };

interface PageDoc {
  document: { activeElement: { matches(selector: string): boolean; blur(): void; tagName: string } | null; documentElement: { className: string } };
}

async function tabTo(page: Page, selector: string): Promise<number> {
  for (let i = 1; i <= 20; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((sel) => (globalThis as unknown as PageDoc).document.activeElement?.matches(sel) ?? false, selector)) return i;
  }
  throw new Error(`Tab never reached ${selector}`);
}

const prompts = async (page: Page): Promise<WebviewToHost[]> => (await posted(page)).filter((m) => m.type === 'prompt');
const actions = async (page: Page): Promise<WebviewToHost[]> => (await posted(page)).filter((m) => m.type === 'setup_action');
const input = (page: Page) => page.locator('vscode-textarea.prompt-input textarea');
const notice = (page: Page) => page.locator('footer.composer .composer-notice');

async function typeAndSend(page: Page, text: string): Promise<void> {
  await input(page).click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await frames(page, 2);
}

function snapshotOf(events: Parameters<typeof applyEvents>[1]): SessionViewState {
  const state = createSessionView();
  applyEvents(state, events);
  return state;
}

describe('panel: first run without a key or a model', function () {
  this.timeout(60_000);
  const panel = panelSuite({ size: { width: 300, height: 560 } });

  it('the empty state is a setup card: Set API Key by Tab and Enter; no editor models says what provides them', async () => {
    const page = panel.page;
    await send(page, { type: 'snapshot', state: createSessionView(), running: false }, { type: 'setup', problem: NO_CREDENTIALS });
    const card = page.locator('.empty-hint .setup-card');
    assert.ok(await card.isVisible(), 'the card shows in the empty state');
    assert.equal(await card.locator('.setup-title').textContent(), 'Set up a model');
    assert.equal(await card.locator('[role="status"]').textContent(), 'Delegate needs an Anthropic API key or a language model from the editor.', 'a screen reader hears why');
    assert.deepEqual(await card.locator('button').allTextContents(), ['Set API Key'], 'no "Use an editor model…" when the editor has none');
    assert.match((await card.locator('.setup-none').textContent()) ?? '', /no language models\. An extension such as GitHub Copilot Chat provides them/);

    await page.evaluate(() => (globalThis as unknown as PageDoc).document.activeElement?.blur());
    await tabTo(page, '.setup-card button[data-action="set_api_key"]');
    await page.keyboard.press('Enter');
    await frames(page, 2);
    assert.deepEqual(await actions(page), [{ type: 'setup_action', action: 'set_api_key' }]);

    // The editor has models: the card offers them, and says nothing about their absence.
    await send(page, { type: 'setup', problem: WITH_MODELS });
    assert.deepEqual(await card.locator('button').allTextContents(), ['Set API Key', 'Use an editor model…']);
    assert.equal(await card.locator('.setup-none').isVisible(), false);
    await tabTo(page, '.setup-card button[data-action="choose_model"]');
    await page.keyboard.press('Space');
    await frames(page, 2);
    assert.deepEqual((await actions(page)).at(-1), { type: 'setup_action', action: 'choose_model' });

    // A prompt can run now: the card goes (the focus on its button goes to the prompt box); a conversation never shows it.
    await send(page, { type: 'setup' });
    assert.equal(await card.isVisible(), false);
    assert.ok(await page.evaluate(() => (globalThis as unknown as PageDoc).document.activeElement?.tagName === 'VSCODE-TEXTAREA'), 'focus in the prompt box, not on the page');
    await send(page, { type: 'setup', problem: NO_CREDENTIALS }, { type: 'snapshot', state: snapshotOf(finishedSession().events), running: false });
    assert.equal(await card.isVisible(), false, 'not over a conversation');
  });

  it('Send without credentials keeps the draft and says why under the composer; Key saved offers to send it', async () => {
    const page = panel.page;
    await send(page, { type: 'snapshot', state: createSessionView(), running: false }, { type: 'setup', problem: NO_CREDENTIALS });
    await typeAndSend(page, 'Explain the build');
    assert.deepEqual(await prompts(page), [{ type: 'prompt', text: 'Explain the build' }], 'the host is asked (it decides)');
    assert.equal(await input(page).inputValue(), 'Explain the build', 'the draft stays in the box');

    await send(page, { type: 'cannot_run', problem: NO_CREDENTIALS, prompt: 'Explain the build' });
    const line = notice(page);
    assert.ok(await line.isVisible());
    assert.equal(await line.locator('[role="alert"]').textContent(), 'No API key or editor model.');
    assert.equal(await line.locator('.composer-notice-text').getAttribute('title'), 'Delegate needs an Anthropic API key or a language model from the editor.');
    assert.deepEqual(await line.locator('.composer-notice-button').allTextContents(), ['Set API Key']);
    assert.equal(await page.locator('.notification, .toast').count(), 0);
    // One line under the box, above Send.
    const box = await input(page).boundingBox();
    const at = await line.boundingBox();
    const sendAt = await page.locator('vscode-button.send-button').boundingBox();
    assert.ok(box && at && sendAt && at.y >= box.y + box.height && at.y + at.height <= sendAt.y, 'between the box and Send');
    assert.ok(at.height <= 24, `one line (${at.height} px at 300 px wide)`);
    await page.screenshot({ path: join(ARTIFACTS, 'setup-refused-300-dark.png') });

    await line.locator('button[data-action="set_api_key"]').click();
    assert.deepEqual((await actions(page)).at(-1), { type: 'setup_action', action: 'set_api_key' });

    // The key is stored: confirmed, the card goes, and the draft is one click away.
    await send(page, { type: 'key_saved' }, { type: 'setup' });
    assert.equal(await page.locator('.setup-card').isVisible(), false, 'the card goes');
    assert.equal(await line.locator('[role="status"]').textContent(), 'Key saved.');
    const sendDraft = line.locator('button.send-draft');
    assert.ok(await sendDraft.isVisible());
    assert.ok(await page.evaluate(() => (globalThis as unknown as PageDoc).document.activeElement?.matches('button.send-draft') ?? false), 'the focus was on Set API Key: it moves to Send draft');
    await page.screenshot({ path: join(ARTIFACTS, 'setup-saved-300-dark.png') });
    await sendDraft.click();
    await frames(page, 2);
    assert.deepEqual((await prompts(page)).at(-1), { type: 'prompt', text: 'Explain the build' });
    assert.equal(await input(page).inputValue(), '', 'sent: the box is empty');
    assert.ok(await page.evaluate(() => (globalThis as unknown as PageDoc).document.activeElement?.tagName === 'VSCODE-TEXTAREA'), 'focus stays in the prompt box, not on the page');
    await send(page, { type: 'status', running: true });
    assert.equal(await line.isVisible(), false, 'a run started: the line is done with');
  });

  it('a prompt from elsewhere that could not start becomes the draft; Dismiss puts focus back in the box', async () => {
    const page = panel.page;
    await send(page, { type: 'snapshot', state: createSessionView(), running: false }, { type: 'cannot_run', problem: WITH_MODELS, prompt: 'From the palette' });
    assert.equal(await input(page).inputValue(), 'From the palette');
    assert.deepEqual(await notice(page).locator('.composer-notice-button').allTextContents(), ['Set API Key', 'Use an editor model…']);
    assert.equal(await notice(page).locator('.composer-notice-close').count(), 0, 'no Dismiss on a problem: it goes once fixed');
    await send(page, { type: 'key_saved' });
    await notice(page).locator('.composer-notice-close').click();
    assert.equal(await notice(page).isVisible(), false);
    assert.ok(await page.evaluate(() => (globalThis as unknown as PageDoc).document.activeElement?.tagName === 'VSCODE-TEXTAREA'));
    // A draft of the user's own is never replaced.
    await send(page, { type: 'cannot_run', problem: WITH_MODELS, prompt: 'Another' });
    assert.equal(await input(page).inputValue(), 'From the palette');
  });

  it('a prompt the session refused (too big for the window) comes back as the draft, with the reason under the box and no button', async () => {
    const page = panel.page;
    const refused: SetupProblem = { kind: 'prompt', message: "the prompt is too long for the model's context window: about 150,000 tokens (500,000 characters), and 96,000 fit", editorModels: 0 };
    await send(page, { type: 'snapshot', state: createSessionView(), running: false }, { type: 'cannot_run', problem: refused, prompt: 'Why?\nA pasted log' });
    assert.equal(await input(page).inputValue(), 'Why?\nA pasted log');
    assert.equal(await notice(page).locator('[role="alert"]').textContent(), "The prompt is too long for the model's window.");
    assert.match((await notice(page).locator('.composer-notice-text').getAttribute('title')) ?? '', /^The prompt is too long for the model's context window: about 150,000 tokens/);
    assert.equal(await notice(page).locator('.composer-notice-button').count(), 0);
  });

  it('a key the API refused (401) says so in the same place, with Set API Key', async () => {
    const page = panel.page;
    await send(page, { type: 'snapshot', state: snapshotOf(finishedSession().events), running: false }, { type: 'setup' });
    await send(page, { type: 'cannot_run', problem: rejectedKey('authentication failed (401): invalid x-api-key — check ANTHROPIC_API_KEY') ?? NO_CREDENTIALS });
    assert.equal(await notice(page).locator('[role="alert"]').textContent(), 'The API refused the key (401).');
    assert.equal(await notice(page).locator('.composer-notice-text').getAttribute('title'), 'The Anthropic API refused the key (401: invalid x-api-key).');
    assert.deepEqual(await notice(page).locator('.composer-notice-button').allTextContents(), ['Set API Key']);
    await page.screenshot({ path: join(ARTIFACTS, 'setup-rejected-300-dark.png') });
  });

  it("a 401 said at the run's end stays when the run's own events arrive after it (the host's status says when a run starts)", async () => {
    const page = panel.page;
    await send(page, { type: 'snapshot', state: createSessionView(), running: false }, { type: 'setup' });
    // The host's order: the run starts, fails on the key, ends; its events come in a later batch, the first holding
    // the prompt and the start but not yet the end (the view then counts the run as still going).
    await send(page, { type: 'status', running: true });
    await send(page, { type: 'cannot_run', problem: rejectedKey('authentication failed (401): invalid x-api-key') ?? NO_CREDENTIALS }, { type: 'status', running: false });
    const s = new Script();
    s.rootStart('Say hello again');
    await send(page, { type: 'events', events: s.take() });
    await frames(page, 3);
    assert.equal(await notice(page).locator('[role="alert"]').textContent(), 'The API refused the key (401).');
    // A new run the host starts clears it.
    await send(page, { type: 'status', running: true });
    await frames(page, 2);
    assert.equal(await notice(page).isVisible(), false);
    await send(page, { type: 'status', running: false });
  });

  for (const width of [300, 250]) {
    for (const theme of ['dark', 'light'] as const) {
      it(`screenshot at ${width} px, ${theme}: the card, then the line under the composer`, async () => {
        const page = await openPanel(panel.browser, undefined, { width, height: 520 });
        try {
          if (theme === 'light') await page.evaluate(() => ((globalThis as unknown as PageDoc).document.documentElement.className = 'vscode-light'));
          await send(page, { type: 'snapshot', state: createSessionView(), running: false }, { type: 'setup', problem: NO_CREDENTIALS });
          const card = page.locator('.setup-card');
          assert.ok(await card.isVisible());
          const right = await card.locator('button').evaluateAll((els) => els.map((e) => (e as unknown as { getBoundingClientRect(): { right: number } }).getBoundingClientRect().right));
          assert.ok(right.length > 0 && right.every((r) => r <= width), `the card's buttons fit ${width} px`);
          await page.screenshot({ path: join(ARTIFACTS, `setup-card-${width}-${theme}.png`) });
          await typeAndSend(page, 'Explain the build');
          await send(page, { type: 'cannot_run', problem: NO_CREDENTIALS, prompt: 'Explain the build' });
          const buttons = await notice(page).locator('button').evaluateAll((els) => els.map((e) => (e as unknown as { getBoundingClientRect(): { right: number } }).getBoundingClientRect().right));
          assert.ok(buttons.length > 0 && buttons.every((r) => r <= width), `the line's buttons fit ${width} px`);
          await page.screenshot({ path: join(ARTIFACTS, `setup-refused-${width}-${theme}.png`) });
          await send(page, { type: 'key_saved' }, { type: 'setup' });
          assert.ok(await notice(page).locator('button.send-draft').isVisible());
          await page.screenshot({ path: join(ARTIFACTS, `setup-saved-${width}-${theme}.png`) });
        } finally {
          await page.close();
        }
      });
    }
  }
});
