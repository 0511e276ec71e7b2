// A permission card in headless Chromium, the items from the host's own PanelInbox: Allow (primary) and Deny on one
// row at 300 and 250 px, light and dark; the wider answers in a menu beside Allow, each labelled by what it allows,
// reached and answered by keyboard alone (Alt+Down, arrows, Home/End, Enter, Escape, Tab) and by mouse; a card that
// arrives while the user types never takes an Enter.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { AgentIdentity, PermissionDecision } from '../../src/core/vocabulary';
import type { ToolCallRequest } from '../../src/core/session/ports';
import type { InboxItem, WebviewToHost } from '../../src/protocol';
import { createSessionView } from '../../src/view-model/session-view';
import { PanelInbox } from '../../src/vscode/panel-inbox';
import { ARTIFACTS, frames, openPanel, posted, send, panelSuite } from './browser';
import { notInView as notInViewOf } from '../kit/in-view';

const child = (agentId: string, description: string): AgentIdentity => ({ agentId, parentId: 'root', depth: 1, description, agentType: 'general-purpose' });

/** A host inbox whose every change is posted to the page, as the view provider does. */
function hostInbox(page: Page): { inbox: PanelInbox; sent: () => Promise<void> } {
  const inbox = new PanelInbox(() => true);
  let last: Promise<void> = Promise.resolve();
  inbox.onChange((items: InboxItem[]) => {
    last = last.then(() => send(page, { type: 'inbox', items }));
  });
  return { inbox, sent: () => last };
}

function askBash(inbox: PanelInbox, agent: AgentIdentity, command: string, signal = new AbortController().signal): Promise<PermissionDecision> {
  const request: ToolCallRequest = { agent, toolUseId: `tu-${agent.agentId}`, toolName: 'bash', kind: 'exec', input: { command }, summary: command, paths: [] };
  return inbox.askPermission({ who: `Subagent “${agent.description ?? agent.agentId}”`, toolName: 'bash', summary: command, reason: 'asks', request }, signal);
}

interface PageDoc {
  document: { activeElement: { matches(selector: string): boolean; textContent: string | null } | null; documentElement: { className: string } };
}
const focused = (page: Page, selector: string): Promise<boolean> => page.evaluate((sel) => (globalThis as unknown as PageDoc).document.activeElement?.matches(sel) ?? false, selector);
const focusedText = (page: Page): Promise<string> => page.evaluate(() => (globalThis as unknown as PageDoc).document.activeElement?.textContent ?? '');
const answers = async (page: Page): Promise<WebviewToHost[]> => (await posted(page)).filter((m) => m.type === 'inbox_answer');
const notInView = (page: Page, selector: string): Promise<string[]> => notInViewOf(page.locator('body'), selector);

async function theme(page: Page, name: 'dark' | 'light'): Promise<void> {
  await page.evaluate((t) => ((globalThis as unknown as PageDoc).document.documentElement.className = `vscode-${t}`), name);
  await frames(page, 2);
}

const CARD = '[data-inbox-id="ask-1"]';
const BASH_SCOPES = ['Allow npm test for this session', 'Allow every bash command for this subagent', "Allow every bash command for this task's subagents"];

describe('panel: a permission card — Allow and Deny, the wider answers in a menu', function () {
  this.timeout(120_000);
  const panel = panelSuite({ pagePerTest: false });

  for (const width of [300, 250]) {
    it(`${width} px: Allow, its ▾ and Deny on one row; the menu by keyboard says what each answer allows; light and dark`, async () => {
      const page = await openPanel(panel.browser, undefined, { width, height: 640 });
      try {
        await send(page, { type: 'snapshot', state: createSessionView(), running: true });
        const { inbox, sent } = hostInbox(page);
        const decided = askBash(inbox, child('a1', 'run the tests'), 'npm test');
        await sent();

        const row = page.locator(`${CARD} .permission-answers > *`);
        const tops = await row.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
        assert.equal(tops.length, 2, 'the Allow group and Deny');
        assert.equal(new Set(tops).size, 1, `one row (tops ${tops.join(', ')})`);
        assert.deepEqual(await page.locator(`${CARD} .inbox-button`).evaluateAll((els) => els.map((e) => e.textContent?.trim() || e.getAttribute('aria-label'))), ['Allow', 'More ways to allow', 'Deny']);
        assert.deepEqual(await notInView(page, `${CARD} .inbox-button`), []);
        assert.equal(await page.locator(`${CARD} details`).count(), 0, 'no fold');
        for (const t of ['dark', 'light'] as const) {
          await theme(page, t);
          await page.screenshot({ path: join(ARTIFACTS, `permission-card-${width}-${t}.png`) });
        }

        // Keyboard alone: Tab to Allow, Alt+Down opens the menu on its first answer.
        await page.locator(`${CARD} [data-decision="allow"]`).focus();
        await page.keyboard.press('Alt+ArrowDown');
        await frames(page, 2);
        const items = page.locator('.scope-menu [role="menuitem"]');
        assert.deepEqual((await items.allTextContents()).map((t) => t.replace(/\s+/g, ' ')), BASH_SCOPES);
        assert.equal(await page.locator(`${CARD} .allow-more`).getAttribute('aria-expanded'), 'true');
        assert.equal(await focusedText(page), BASH_SCOPES[0]);
        assert.deepEqual(await notInView(page, '.scope-menu [role="menuitem"]'), [], 'every answer of the menu in view');
        assert.deepEqual(await notInView(page, `${CARD} [data-decision="deny"]`), [], 'Deny stays in view with the menu open');
        for (const t of ['dark', 'light'] as const) {
          await theme(page, t);
          await page.screenshot({ path: join(ARTIFACTS, `permission-menu-${width}-${t}.png`) });
        }
        await page.keyboard.press('ArrowDown');
        assert.equal(await focusedText(page), BASH_SCOPES[1]);
        await page.keyboard.press('ArrowUp');
        await page.keyboard.press('ArrowUp');
        assert.equal(await focusedText(page), BASH_SCOPES[2], 'Up from the first wraps to the last');
        await page.keyboard.press('Home');
        assert.equal(await focusedText(page), BASH_SCOPES[0]);
        // Escape closes it and gives focus back to the ▾; nothing was answered.
        await page.keyboard.press('Escape');
        await frames(page, 1);
        assert.equal(await page.locator('.scope-menu').count(), 0);
        assert.equal(await focused(page, `${CARD} .allow-more`), true);
        assert.equal(await page.locator(`${CARD} .allow-more`).getAttribute('aria-expanded'), 'false');
        // Enter on the ▾ opens it again; End, Enter answers "for this task's subagents".
        await page.keyboard.press('Enter');
        await frames(page, 1);
        await page.keyboard.press('End');
        assert.equal(await focusedText(page), BASH_SCOPES[2]);
        await page.keyboard.press('Enter');
        await frames(page, 2);
        assert.deepEqual(await answers(page), [{ type: 'inbox_answer', id: 'ask-1', decision: 'allow_task' }]);
        assert.equal(await page.locator('.scope-menu').count(), 0, 'the menu closed with the answer');
        const m = (await answers(page))[0];
        if (m?.type === 'inbox_answer') inbox.answer(m.id, m.decision);
        assert.equal(await decided, 'allow_task');
      } finally {
        await page.close();
      }
    });
  }

  it('by mouse: ▾ opens the menu, a click outside closes it, a click on an answer answers; Tab out of the menu closes it', async () => {
    const page = await openPanel(panel.browser, undefined, { width: 300, height: 640 });
    try {
      await send(page, { type: 'snapshot', state: createSessionView(), running: true });
      const { inbox, sent } = hostInbox(page);
      const decided = askBash(inbox, child('a1', 'run the tests'), 'npm test -- --grep "the long name of one suite"');
      await sent();
      await page.locator(`${CARD} .allow-more`).click();
      const items = page.locator('.scope-menu [role="menuitem"]');
      // A command too long to quote is "this exact command" (the card shows it above).
      assert.deepEqual((await items.allTextContents())[0], 'Allow this exact command for this session');
      await page.mouse.click(150, 600);
      await frames(page, 1);
      assert.equal(await page.locator('.scope-menu').count(), 0, 'a click outside closed it');
      await page.locator(`${CARD} .allow-more`).press('ArrowDown');
      await page.keyboard.press('Tab');
      await frames(page, 1);
      assert.equal(await page.locator('.scope-menu').count(), 0, 'Tab closed it');
      assert.equal(await focused(page, `${CARD} .allow-more`), true);
      await page.locator(`${CARD} .allow-more`).click();
      await items.nth(1).click();
      await frames(page, 2);
      assert.deepEqual(await answers(page), [{ type: 'inbox_answer', id: 'ask-1', decision: 'allow_agent' }]);
      const m = (await answers(page))[0];
      if (m?.type === 'inbox_answer') inbox.answer(m.id, m.decision);
      assert.equal(await decided, 'allow_agent');
    } finally {
      await page.close();
    }
  });

  it('a card that arrives while the user types in the prompt box takes no Enter: nothing is allowed, the prompt is sent', async () => {
    const page = await openPanel(panel.browser, undefined, { width: 300, height: 640 });
    try {
      await send(page, { type: 'snapshot', state: createSessionView(), running: false });
      const { inbox, sent } = hostInbox(page);
      await page.locator('.prompt-input').click();
      await page.keyboard.type('and then the docs');
      void askBash(inbox, child('a1', 'run the tests'), 'npm test');
      await sent();
      await page.keyboard.press('Enter');
      await frames(page, 2);
      assert.deepEqual(await answers(page), [], 'no answer');
      assert.ok((await posted(page)).some((m) => m.type === 'prompt' && m.text === 'and then the docs'), 'the Enter sent the prompt');
      assert.equal(await page.locator(`${CARD}`).count(), 1, 'the card still waits');
    } finally {
      await page.close();
    }
  });
});
