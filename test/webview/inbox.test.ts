// The panel's inbox in headless Chromium: the items come from the host's own PanelInbox (src/vscode/panel-inbox.ts,
// no vscode import), the panel lists two children's asks at once, the user answers each in place by keyboard, and
// what the panel posts is handed back to the PanelInbox, whose waiting promises resolve with those decisions.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { AgentIdentity, PermissionDecision } from '../../src/core/vocabulary';
import type { ToolCallRequest } from '../../src/core/session';
import type { InboxItem, WebviewToHost } from '../../src/protocol';
import { createSessionView } from '../../src/view-model/session-view';
import { PanelInbox } from '../../src/vscode/panel-inbox';
import { ARTIFACTS, frames, posted, send, panelSuite } from './browser';

const child = (agentId: string, description: string): AgentIdentity => ({ agentId, parentId: 'root', depth: 1, description, agentType: 'general-purpose' });

function request(agent: AgentIdentity, toolName: string, kind: ToolCallRequest['kind'], input: unknown, summary: string, paths: string[] = []): ToolCallRequest {
  return { agent, toolUseId: `tu-${agent.agentId}`, toolName, kind, input, summary, paths };
}

/** A host inbox whose every change is posted to the page, as the view provider does. */
function hostInbox(page: Page): { inbox: PanelInbox; sent: () => Promise<void> } {
  const inbox = new PanelInbox(() => true);
  let last: Promise<void> = Promise.resolve();
  inbox.onChange((items: InboxItem[]) => {
    last = last.then(() => send(page, { type: 'inbox', items }));
  });
  return { inbox, sent: () => last };
}

/** The little of the page's DOM these tests reach into (the test is compiled without the DOM library). */
interface PageDoc {
  document: { activeElement: { matches(selector: string): boolean; blur(): void } | null };
}

/** Presses Tab until the focused element matches `selector` (at most 30 times); the number of presses. */
async function tabTo(page: Page, selector: string): Promise<number> {
  for (let i = 1; i <= 30; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((sel) => (globalThis as unknown as PageDoc).document.activeElement?.matches(sel) ?? false, selector)) return i;
  }
  throw new Error(`Tab never reached ${selector}`);
}

const answers = async (page: Page): Promise<WebviewToHost[]> => (await posted(page)).filter((m) => m.type === 'inbox_answer' || m.type === 'inbox_reply');

describe('panel: the inbox of subagents waiting for the user', function () {
  this.timeout(60_000);
  const panel = panelSuite({ size: { width: 320, height: 640 } });

  it('lists two children\'s asks at once; each is answered in place by keyboard and only its own promise resolves', async () => {
    const page = panel.page;
    await send(page, { type: 'snapshot', state: createSessionView(), running: true });
    const { inbox, sent } = hostInbox(page);
    const stop = new AbortController();
    const first = request(child('a1', 'run the tests'), 'bash', 'exec', { command: 'npm test -- --grep "inbox"' }, 'npm test -- --grep "inbox"');
    const second = request(child('a2', 'fix the docs'), 'mcp__files__write', 'external', { path: 'docs/a.md', text: 'hello' }, 'mcp__files__write docs/a.md');
    const settled: string[] = [];
    const one = inbox.askPermission({ who: 'Subagent “run the tests”', toolName: 'bash', summary: first.summary, reason: 'asks', request: first }, stop.signal).then((d) => (settled.push(`a1:${d}`), d));
    const two = inbox.askPermission({ who: 'Subagent “fix the docs”', toolName: second.toolName, summary: second.summary, reason: 'asks', request: second }, stop.signal).then((d) => (settled.push(`a2:${d}`), d));
    await sent();

    assert.equal(await page.locator('.inbox-heading').textContent(), '2 subagents are waiting for you');
    const cards = page.locator('.inbox-card');
    assert.equal(await cards.count(), 2, 'both asks wait side by side');
    assert.deepEqual(await cards.locator('.inbox-who-name').allTextContents(), ['Subagent “run the tests”', 'Subagent “fix the docs”']);
    assert.deepEqual(await cards.locator('.inbox-title').allTextContents(), ['wants to run a command', 'wants to use mcp__files__write']);
    assert.equal(await cards.nth(0).locator('.inbox-input').textContent(), 'npm test -- --grep "inbox"', 'the exact command');
    assert.deepEqual(JSON.parse((await cards.nth(1).locator('.inbox-input').textContent()) ?? ''), { path: 'docs/a.md', text: 'hello' }, 'the exact MCP input');
    assert.deepEqual(await cards.nth(0).locator('.inbox-button').allTextContents(), ['Allow', 'Allow for this subagent', "Allow for this task's subagents", 'Allow for this session', 'Deny']);
    await page.screenshot({ path: join(ARTIFACTS, 'inbox-two-asks.png') });

    // The second child's card first: Tab reaches its "Allow for this subagent", Enter answers it.
    await page.evaluate(() => (globalThis as unknown as PageDoc).document.activeElement?.blur());
    await tabTo(page, '[data-inbox-id="ask-2"] [data-decision="allow_agent"]');
    await page.keyboard.press('Enter');
    await frames(page, 2);
    assert.deepEqual(await answers(page), [{ type: 'inbox_answer', id: 'ask-2', decision: 'allow_agent' }]);
    for (const m of await answers(page)) if (m.type === 'inbox_answer') inbox.answer(m.id, m.decision);
    assert.equal(await two, 'allow_agent');
    await sent();
    assert.deepEqual(settled, ['a2:allow_agent'], 'the first child still waits');
    assert.equal(await cards.count(), 1);
    assert.equal(await page.locator('.inbox-heading').textContent(), '1 subagent is waiting for you');

    // The first child's Deny, by Space.
    await tabTo(page, '[data-inbox-id="ask-1"] [data-decision="deny"]');
    await page.keyboard.press('Space');
    await frames(page, 2);
    const last = (await answers(page)).at(-1);
    assert.deepEqual(last, { type: 'inbox_answer', id: 'ask-1', decision: 'deny' });
    if (last?.type === 'inbox_answer') inbox.answer(last.id, last.decision);
    assert.equal(await one, 'deny');
    await sent();
    assert.equal(await page.locator('.inbox').isHidden(), true, 'nothing waits: the inbox is gone');
    // Focus went on to the prompt box, not to the page (a keyboard user keeps working).
    assert.equal(await page.evaluate(() => (globalThis as unknown as PageDoc).document.activeElement?.matches('.composer vscode-textarea') ?? false), true, 'focus in the prompt box after the last answer');
  });

  it('"Focus on Delegate View" focuses the page: the prompt box takes it (not the document body)', async () => {
    const page = panel.page;
    await send(page, { type: 'snapshot', state: createSessionView(), running: false });
    await page.evaluate(() => (globalThis as unknown as PageDoc).document.activeElement?.blur());
    // What the editor does to the webview's frame: the window gets focus, no control does.
    await page.evaluate(() => (globalThis as unknown as { dispatchEvent(e: unknown): void; FocusEvent: new (t: string) => unknown }).dispatchEvent(new (globalThis as unknown as { FocusEvent: new (t: string) => unknown }).FocusEvent('focus')));
    await page.waitForTimeout(50);
    assert.equal(await page.evaluate(() => (globalThis as unknown as PageDoc).document.activeElement?.matches('.composer vscode-textarea') ?? false), true);
  });

  it('ask_user: options are buttons and a typed answer is sent with Enter; a stopped run takes its questions out as unanswered', async () => {
    const page = panel.page;
    await send(page, { type: 'snapshot', state: createSessionView(), running: true });
    const { inbox, sent } = hostInbox(page);
    const stop = new AbortController();
    const picked = inbox.askQuestion({ agent: child('q1', 'pick a port'), question: 'Which port?', options: ['8080', '3000'] }, stop.signal);
    const typed = inbox.askQuestion({ agent: child('q2', 'name it'), question: 'What name?', options: [] }, stop.signal);
    const stopped = inbox.askPermission(
      { who: 'Subagent “late”', toolName: 'write_file', summary: 'notes.md', reason: 'asks', request: request(child('q3', 'late'), 'write_file', 'write', { path: 'notes.md' }, 'notes.md', ['notes.md']) },
      stop.signal,
    );
    await sent();
    assert.equal(await page.locator('.inbox-heading').textContent(), '3 subagents are waiting for you');
    assert.deepEqual(await page.locator('[data-inbox-id="ask-1"] [data-option]').allTextContents(), ['8080', '3000']);

    await page.locator('[data-inbox-id="ask-2"] .inbox-text').focus();
    await page.keyboard.type('delegate-inbox');
    await page.keyboard.press('Enter');
    await page.locator('[data-inbox-id="ask-1"] [data-option="3000"]').click();
    await frames(page, 2);
    assert.deepEqual(await answers(page), [
      { type: 'inbox_reply', id: 'ask-2', text: 'delegate-inbox' },
      { type: 'inbox_reply', id: 'ask-1', text: '3000' },
    ]);
    for (const m of await answers(page)) if (m.type === 'inbox_reply') inbox.reply(m.id, m.text);
    assert.deepEqual(await Promise.all([picked, typed]), ['3000', 'delegate-inbox']);
    assert.equal(inbox.answer('ask-3', 'allow_session' as PermissionDecision), true, 'an offered answer is taken');
    assert.equal(await stopped, 'allow_session');

    const late = inbox.askPermission({ who: 'Subagent “late”', toolName: 'bash', summary: 'ls', reason: 'asks', request: request(child('q4', 'late'), 'bash', 'exec', { command: 'ls' }, 'ls') }, stop.signal);
    assert.equal(inbox.answer('ask-4', 'allow_agent'), true);
    assert.equal(await late, 'allow_agent');
    const never = inbox.askPermission({ who: 'Subagent “late”', toolName: 'bash', summary: 'rm', reason: 'asks', request: request(child('q5', 'late'), 'bash', 'exec', { command: 'rm x' }, 'rm') }, stop.signal);
    await sent();
    assert.equal(await page.locator('.inbox-card').count(), 1);
    stop.abort();
    assert.equal(await never, 'deny', 'no answer is never an allow');
    await sent();
    assert.equal(await page.locator('.inbox').isHidden(), true, 'the stopped run\'s question is gone');
  });
});
