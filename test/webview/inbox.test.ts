// The panel's inbox in headless Chromium: the items come from the host's own PanelInbox (src/vscode/panel-inbox.ts,
// no vscode import), the panel lists two children's asks at once, the user answers each in place by keyboard, and
// what the panel posts is handed back to the PanelInbox, whose waiting promises resolve with those decisions.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { AgentIdentity, PermissionDecision } from '../../src/core/vocabulary';
import type { ToolCallRequest } from '../../src/core/session/ports';
import type { InboxItem, WebviewToHost } from '../../src/protocol';
import { applyEvents, createSessionView } from '../../src/view-model/session-view';
import { PanelInbox } from '../../src/vscode/panel-inbox';
import { ARTIFACTS, frames, openPanel, posted, send, panelSuite } from './browser';
import { bigSession, finishedSession, ROOT } from './fixtures';
import { item } from './tree-dom';
import { notInView as notInViewOf } from '../kit/in-view';

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
    assert.deepEqual(await cards.nth(0).locator('[data-decision]').allTextContents(), ['Allow', 'Deny'], 'Allow and Deny; the wider answers in the menu beside Allow');
    await page.screenshot({ path: join(ARTIFACTS, 'inbox-two-asks.png') });

    // The second child's card first: Tab reaches its ▾, Enter opens the menu on "for this subagent", Enter answers it.
    await page.evaluate(() => (globalThis as unknown as PageDoc).document.activeElement?.blur());
    await tabTo(page, '[data-inbox-id="ask-2"] .allow-more');
    await page.keyboard.press('Enter');
    await frames(page, 1);
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

  it('back into the panel by keyboard: the prompt box, even when a row kept the focus; not after the panel opened the editor\'s UI itself', async () => {
    const page = panel.page;
    const state = createSessionView();
    applyEvents(state, finishedSession().events);
    await send(page, { type: 'snapshot', state, running: false });
    const windowEvent = (type: string): Promise<void> =>
      page.evaluate((t) => (globalThis as unknown as { dispatchEvent(e: unknown): void; FocusEvent: new (t: string) => unknown }).dispatchEvent(new (globalThis as unknown as { FocusEvent: new (t: string) => unknown }).FocusEvent(t)), type);
    const focusedIs = (selector: string): Promise<boolean> => page.evaluate((sel) => (globalThis as unknown as PageDoc).document.activeElement?.matches(sel) ?? false, selector);
    const send_ = page.locator(`${item('task:tu-b')} .task-message`);

    // The user left for the editor (Ctrl+1, the palette) with a row's button focused, then "Focus on Delegate View".
    await send_.focus();
    await page.waitForTimeout(1100);
    await windowEvent('blur');
    await windowEvent('focus');
    await page.waitForTimeout(50);
    assert.equal(await focusedIs('.composer vscode-textarea'), true, 'the prompt box, not the row left focused before');

    // The panel itself opened an input box (Send a message…): coming back from it, the button keeps the focus.
    await send_.focus();
    await page.keyboard.press('Enter');
    assert.deepEqual((await posted(page)).at(-1), { type: 'message_agent', agentId: 'agent-b' });
    await windowEvent('blur');
    await windowEvent('focus');
    await page.waitForTimeout(50);
    assert.equal(await focusedIs('.task-message'), true, 'the button the user acted on');

    // A click into the panel keeps its own focus; away by the palette and back at once: the prompt box.
    await page.waitForTimeout(1100); // past the input box the button opened
    await page.locator(item('task:tu-b')).click({ position: { x: 40, y: 8 } });
    await windowEvent('focus');
    await page.waitForTimeout(50);
    assert.equal(await focusedIs('.tree-row'), true, 'the clicked row keeps the focus');
    await windowEvent('blur');
    await windowEvent('focus');
    await page.waitForTimeout(50);
    assert.equal(await focusedIs('.composer vscode-textarea'), true, 'a click counts for the focus it brings, not a later return');
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

/** The saved state that opens the long task's folded calls. */
const LONG_TASK_OPEN = { v: 1, expanded: { 'fold:task:tu-big': true }, draft: '' };
/** A running task of 300 calls, its earlier calls opened (a long task folds all but its last 10: flat-rows.ts
 *  foldedCount): the conversation is many times taller than any panel. */
function longConversation(): { state: ReturnType<typeof createSessionView>; more: ReturnType<typeof bigSession> } {
  const more = bigSession(300);
  const state = createSessionView();
  applyEvents(state, more.take());
  return { state, more };
}

const notInView = (page: Page, selector: string): Promise<string[]> => notInViewOf(page.locator('body'), selector);
const FIRST = '.inbox-list > .inbox-card:first-child';
/** What the user reads and answers on a card: the question, every button, the text box. */
const controls = (card: string): string => [' .inbox-title', ' .inbox-button', ' .inbox-text'].map((c) => card + c).join(',');

/** What covers any point of the prompt box (a 10 px grid): the classes of elements outside it hit there. */
async function coveringComposer(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    interface El { className: string; getBoundingClientRect(): { left: number; top: number; right: number; bottom: number }; contains(e: unknown): boolean }
    const d = (globalThis as unknown as { document: { querySelector(s: string): El; elementFromPoint(x: number, y: number): El | null } }).document;
    const box = d.querySelector('.composer');
    const r = box.getBoundingClientRect();
    const found = new Set<string>();
    for (let y = r.top + 2; y < r.bottom - 1; y += 10) {
      for (let x = r.left + 2; x < r.right - 1; x += 10) {
        const hit = d.elementFromPoint(x, y);
        if (hit && !box.contains(hit)) found.add(hit.className);
      }
    }
    return [...found];
  });
}

async function themed(page: Page, theme: 'dark' | 'light', file: string): Promise<void> {
  await page.evaluate((t) => {
    (globalThis as unknown as { document: { documentElement: { className: string } } }).document.documentElement.className = `vscode-${t}`;
  }, theme);
  await frames(page, 2);
  await page.screenshot({ path: join(ARTIFACTS, `${file}-${theme}.png`) });
}

describe('panel: the inbox over a long conversation stays whole', function () {
  this.timeout(120_000);
  const panel = panelSuite({ pagePerTest: false });
  const sizes = [
    { width: 300, height: 640, name: '300' },
    { width: 250, height: 640, name: '250' },
    { width: 300, height: 420, name: '300-short' },
  ];

  for (const size of sizes) {
    it(`${size.name}: a command to allow; the question and all its buttons in view, the conversation scrolls`, async () => {
      const page = await openPanel(panel.browser, LONG_TASK_OPEN, size);
      try {
        await send(page, { type: 'snapshot', state: longConversation().state, running: true });
        const { inbox, sent } = hostInbox(page);
        const ask = request(child('c1', 'build the docs'), 'bash', 'exec', { command: 'npm run docs -- --out site/' }, 'npm run docs -- --out site/');
        void inbox.askPermission({ who: 'Subagent “build the docs”', toolName: 'bash', summary: ask.summary, reason: 'asks', request: ask }, new AbortController().signal);
        await sent();
        await frames(page, 3);
        assert.equal(await page.locator(`${FIRST} .inbox-button`).count(), 3, 'Allow, its ▾ and Deny');
        assert.deepEqual(await notInView(page, controls(FIRST)), []);
        const log = await page.locator('.log').evaluate((e) => ({ height: e.clientHeight, content: e.scrollHeight }));
        assert.ok(log.content > log.height * 3, `the conversation scrolls (${log.height} of ${log.content} px)`);
        await themed(page, 'dark', `inbox-long-${size.name}`);
        await themed(page, 'light', `inbox-long-${size.name}`);
        assert.deepEqual(await notInView(page, controls(FIRST)), [], 'in the light theme too');
      } finally {
        await page.close();
      }
    });

    it(`${size.name}: an ask_user question; its options and text box stay in view while the user types and rows arrive`, async () => {
      const page = await openPanel(panel.browser, LONG_TASK_OPEN, size);
      try {
        const { state, more } = longConversation();
        await send(page, { type: 'snapshot', state, running: true });
        const { inbox, sent } = hostInbox(page);
        void inbox.askQuestion({ agent: child('q1', 'pick a port'), question: 'Which port should the dev server listen on? The default one is taken.', options: ['8080', '3000', '5173'] }, new AbortController().signal);
        await sent();
        await frames(page, 3);
        assert.deepEqual(await notInView(page, controls(FIRST)), []);
        await page.locator(`${FIRST} .inbox-text`).click();
        await page.keyboard.type('4000, and keep 8080 free');
        for (let i = 0; i < 5; i++) more.tool('agent-big', ROOT, `late-${i}`, 'read_file', { path: `src/late-${i}.ts` }, 'ok');
        await send(page, { type: 'events', events: more.take() });
        await frames(page, 3);
        assert.equal(await page.locator(`${FIRST} .inbox-text`).inputValue(), '4000, and keep 8080 free');
        assert.deepEqual(await notInView(page, controls(FIRST)), [], 'while typing, with rows arriving');
        await themed(page, 'dark', `inbox-question-${size.name}`);
        await themed(page, 'light', `inbox-question-${size.name}`);
      } finally {
        await page.close();
      }
    });
  }

  it('a 2,000-character question at 250 px: its answers stay in view, the question scrolls in its own box', async () => {
    const page = await openPanel(panel.browser, LONG_TASK_OPEN, { width: 250, height: 420 });
    try {
      await send(page, { type: 'snapshot', state: longConversation().state, running: true });
      const { inbox, sent } = hostInbox(page);
      const question = `${'Which of these settings should win when the file and the environment disagree? '.repeat(24)}Pick one.`.slice(0, 2000);
      void inbox.askQuestion({ agent: child('q1', 'settings'), question, options: ['The file', 'The environment'] }, new AbortController().signal);
      await sent();
      await frames(page, 3);
      assert.deepEqual(await notInView(page, controls(FIRST)), []);
      const title = await page.locator(`${FIRST} .inbox-title`).evaluate((e) => ({ shown: e.clientHeight, all: e.scrollHeight }));
      assert.ok(title.all > title.shown * 2, `the question scrolls (${title.shown} of ${title.all} px)`);
      assert.deepEqual(await notInView(page, '.send-button, .prompt-input'), [], 'the prompt box keeps its room');
      assert.deepEqual(await coveringComposer(page), [], 'nothing of the squeezed conversation (its pinned header) lies over the prompt box');
      await themed(page, 'dark', 'inbox-long-question-250');
    } finally {
      await page.close();
    }
  });

  it('a panel too short for the card and the prompt box: the prompt box stays, the card scrolls in the inbox', async () => {
    const page = await openPanel(panel.browser, LONG_TASK_OPEN, { width: 250, height: 300 });
    try {
      await send(page, { type: 'snapshot', state: longConversation().state, running: true });
      const { inbox, sent } = hostInbox(page);
      const ask = request(child('c1', 'build the docs'), 'bash', 'exec', { command: 'npm run docs -- --out site/' }, 'npm run docs -- --out site/');
      void inbox.askPermission({ who: 'Subagent “build the docs”', toolName: 'bash', summary: ask.summary, reason: 'asks', request: ask }, new AbortController().signal);
      await sent();
      await frames(page, 3);
      assert.deepEqual(await notInView(page, '.send-button'), [], 'the prompt box keeps its room');
      const deny = page.locator(`${FIRST} [data-decision="deny"]`);
      await deny.scrollIntoViewIfNeeded();
      assert.deepEqual(await notInView(page, `${FIRST} [data-decision="deny"]`), [], 'Deny reached by scrolling the inbox');
      await themed(page, 'dark', 'inbox-300-tall-panel-250');
    } finally {
      await page.close();
    }
  });

  it('several cards: the first whole, the count said, each of the others whole once scrolled to', async () => {
    const page = await openPanel(panel.browser, LONG_TASK_OPEN, { width: 300, height: 560 });
    try {
      // Errors the page reports on window (a ResizeObserver loop is one, not a thrown exception).
      await page.evaluate(() => {
        const w = globalThis as unknown as { addEventListener(t: string, f: (e: { message: string }) => void): void; __errors: string[] };
        w.__errors = [];
        w.addEventListener('error', (e) => w.__errors.push(e.message));
      });
      await send(page, { type: 'snapshot', state: longConversation().state, running: true });
      const { inbox, sent } = hostInbox(page);
      const signal = new AbortController().signal;
      for (const [id, name] of [['p1', 'lint'], ['p2', 'test'], ['p3', 'bench']] as const) {
        const ask = request(child(id, name), 'bash', 'exec', { command: `npm run ${name}` }, `npm run ${name}`);
        void inbox.askPermission({ who: `Subagent “${name}”`, toolName: 'bash', summary: ask.summary, reason: 'asks', request: ask }, signal);
      }
      void inbox.askQuestion({ agent: child('q9', 'name'), question: 'What should the package be called?', options: [] }, signal);
      await sent();
      await frames(page, 3);
      assert.equal(await page.locator('.inbox-heading').textContent(), '4 subagents are waiting for you');
      assert.deepEqual(await notInView(page, controls(FIRST)), [], 'the first card whole');
      await themed(page, 'dark', 'inbox-several');
      await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { className: string } } }).document.documentElement.className = 'vscode-dark');
      const more = page.locator('.inbox-more');
      assert.match((await more.textContent()) ?? '', /^[1-3] more below$/, 'how many cards wait below');
      assert.deepEqual(await notInView(page, '.inbox-more'), []);
      // The user goes through them with the "more below" button: each next card whole, its first answer focused.
      for (let n = 2; n <= 4; n++) {
        const card = `.inbox-list > .inbox-card:nth-child(${n})`;
        if (await more.isVisible()) await more.click();
        else await page.locator(card).scrollIntoViewIfNeeded();
        await frames(page, 2);
        assert.deepEqual(await notInView(page, controls(card)), [], `card ${n} once scrolled to`);
      }
      assert.equal(await more.isHidden(), true, 'nothing more below the last card');
      assert.equal(await page.locator('.inbox-list > .inbox-card:nth-child(4) .inbox-text').evaluate((e) => e === (e.ownerDocument as unknown as { activeElement: unknown }).activeElement), true, 'the last card\'s answer box has focus');
      const log = await page.locator('.log').evaluate((e) => e.clientHeight);
      assert.ok(log >= 60, `the conversation keeps some room (${log} px)`);
      await page.setViewportSize({ width: 250, height: 480 });
      await frames(page, 4);
      // Narrower, the cards above grew: scrolled to again, the last card is whole in the resized inbox.
      await page.locator('.inbox-list > .inbox-card:nth-child(4)').scrollIntoViewIfNeeded();
      await frames(page, 2);
      assert.deepEqual(await notInView(page, controls('.inbox-list > .inbox-card:nth-child(4)')), [], 'the panel resized: still whole');
      assert.deepEqual(await page.evaluate(() => (globalThis as unknown as { __errors: string[] }).__errors), [], 'no errors (no ResizeObserver loop)');
    } finally {
      await page.close();
    }
  });
});
