// The fan-out card inline in the panel's inbox (headless Chromium; the item from the host's own PanelInbox and the
// events the core emits): the tasks already wait in the tree as pending rows; the card says what they share once,
// one row per task with its prompt a keypress away, a forecast that says what it rests on; its answers (Run, the
// capped run, Cancel, "Don't ask again") stay whole at 300 and 250 px and in a short panel, light and dark, and
// work by keyboard alone; the answer starts the rows (or stops them, on Cancel).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { FanoutCard, FanoutChild } from '../../src/core/session/ports';
import type { InboxItem, WebviewToHost } from '../../src/protocol';
import { applyEvents, createSessionView } from '../../src/view-model/session-view';
import { PanelInbox } from '../../src/vscode/panel-inbox';
import { ARTIFACTS, frames, openPanel, posted, send, panelSuite } from './browser';
import { bigSession, ROOT, Script } from './fixtures';
import { item } from './tree-dom';
import { notInView as notInViewOf } from '../kit/in-view';

const DOCS = ['api', 'ui', 'db', 'docs'];
/** 12 past runs of `reviewer`: a median run of 40k tokens, a tail 60× longer (the case). */
const reviewer = { agentType: 'reviewer', runs: 12, tokens: { median: 40_000, p90: 2_400_000 }, costUsd: { median: 0.12, p90: 7.2 }, durationMs: { median: 60_000, p90: 1_800_000 } };
const children: FanoutChild[] = DOCS.map((d) => ({ toolUseId: `fan-${d}`, description: `review ${d}`, prompt: `Review src/${d}/ for bugs and report each with a line number.`, agentType: 'reviewer', model: 'claude-sonnet-5-5', mode: 'default', fork: false, background: false, forecast: reviewer }));
const card: FanoutCard = { parent: { agentId: ROOT, parentId: null, depth: 0 }, reason: 'count', p90Usd: 28.8, children };

/** The main agent's reply of four task calls, as the core emits it while the card waits. */
function asked(script: Script): void {
  script.emit(ROOT, null, { type: 'fanout_asked', calls: children.map((c) => ({ toolUseId: c.toolUseId, input: { description: c.description, prompt: c.prompt, subagent_type: 'reviewer' }, agentType: 'reviewer' })) });
}

function hostInbox(page: Page): { inbox: PanelInbox; sent: () => Promise<void> } {
  const inbox = new PanelInbox(() => true);
  let last: Promise<void> = Promise.resolve();
  inbox.onChange((items: InboxItem[]) => {
    last = last.then(() => send(page, { type: 'inbox', items }));
  });
  return { inbox, sent: () => last };
}

interface PageDoc {
  document: { activeElement: { matches(selector: string): boolean } | null; documentElement: { className: string } };
}
const focused = (page: Page, selector: string): Promise<boolean> => page.evaluate((sel) => (globalThis as unknown as PageDoc).document.activeElement?.matches(sel) ?? false, selector);
const notInView = (page: Page, selector: string): Promise<string[]> => notInViewOf(page.locator('body'), selector);
async function theme(page: Page, name: 'dark' | 'light'): Promise<void> {
  await page.evaluate((t) => ((globalThis as unknown as PageDoc).document.documentElement.className = `vscode-${t}`), name);
  await frames(page, 2);
}

const CARD = '.inbox-card.inbox-fanout';
const ANSWERS = `${CARD} .fanout-answers button, ${CARD} .fanout-never input`;
const rowStatus = (page: Page): Promise<(string | null)[]> => Promise.all(children.map((c) => page.locator(item(`task:${c.toolUseId}`)).getAttribute('data-status')));

describe('panel: the fan-out card, inline', function () {
  this.timeout(120_000);
  const panel = panelSuite({ pagePerTest: false });

  for (const width of [300, 250]) {
    it(`${width} px: pending rows in the tree; shared fields once, the forecast's basis; answered by keyboard alone, the rows start`, async () => {
      const page = await openPanel(panel.browser, undefined, { width, height: 720 });
      try {
        const script = new Script();
        script.rootStart('Review the four parts of the app.');
        asked(script);
        const state = createSessionView();
        applyEvents(state, script.take());
        await send(page, { type: 'snapshot', state, running: true });
        const { inbox, sent } = hostInbox(page);
        const answer = inbox.askFanout(card, new AbortController().signal);
        await sent();
        await frames(page, 3);

        assert.deepEqual(await rowStatus(page), ['pending', 'pending', 'pending', 'pending'], 'the tasks wait in the tree');
        assert.equal((await page.locator(`${item('task:fan-api')} .row-state`).textContent())?.trim(), 'Waiting for you to run it');
        assert.equal(await page.locator('.inbox-heading').textContent(), 'The main agent is waiting for you');
        assert.equal(await page.locator(`${CARD} .inbox-title`).textContent(), 'wants to start 4 subagents at once');
        assert.equal(await page.locator(`${CARD} .inbox-show`).count(), 0, 'the main agent has no node to show');
        assert.equal(await page.locator(`${CARD} .fanout-shared`).textContent(), 'All: reviewer · claude-sonnet-5-5 · every tool · mode default');
        assert.deepEqual(await page.locator(`${CARD} .fanout-task summary`).allTextContents(), DOCS.map((d) => `review ${d}`), 'one row per task, nothing repeated');
        assert.match((await page.locator(`${CARD} .fanout-forecast`).textContent()) ?? '', /reviewer \(4 tasks\): from 12 past runs here, and they vary a lot: median 40k tokens .*\(tokens and cost 60× the median\)/);
        assert.deepEqual(await page.locator(`${CARD} .fanout-answers button`).allTextContents(), ['Run', 'Cancel', 'Run, stopping each at its usual maximum']);
        assert.match((await page.locator(`${CARD} .fanout-caps`).textContent()) ?? '', /^Stops each at its usual maximum .*reviewer at 2\.4M tokens · 30m 00s · \$7\.20\.$/);
        assert.deepEqual(await notInView(page, ANSWERS), [], 'every answer in view');
        assert.deepEqual(await notInView(page, `${item('task:fan-docs')} .task-title`), [], 'the pending rows in sight below the card');
        for (const t of ['dark', 'light'] as const) {
          await theme(page, t);
          await page.screenshot({ path: join(ARTIFACTS, `fanout-card-${width}-${t}.png`) });
        }

        // Keyboard: Tab reaches the first task; Enter shows its prompt.
        const first = `${CARD} .fanout-task:first-child summary`;
        for (let i = 0; i < 20 && !(await focused(page, first)); i++) await page.keyboard.press('Tab');
        assert.equal(await focused(page, first), true, 'Tab reached the first task');
        await page.keyboard.press('Enter');
        await frames(page, 2);
        assert.equal(await page.locator(`${CARD} .fanout-task:first-child .fanout-prompt`).isVisible(), true);
        assert.equal(await page.locator(`${CARD} .fanout-task:first-child .fanout-prompt`).textContent(), 'Review src/api/ for bugs and report each with a line number.');
        assert.deepEqual(await notInView(page, ANSWERS), [], 'a prompt opened: the answers still in view');
        await page.screenshot({ path: join(ARTIFACTS, `fanout-card-${width}-prompt-light.png`) });
        // Tab on to the checkbox, Space checks it, Shift+Tab back to the capped run, Enter.
        for (let i = 0; i < 20 && !(await focused(page, `${CARD} .fanout-never input`)); i++) await page.keyboard.press('Tab');
        await page.keyboard.press('Space');
        await page.keyboard.press('Shift+Tab');
        assert.equal(await focused(page, `${CARD} [data-choice="run_capped"]`), true);
        await page.keyboard.press('Enter');
        await frames(page, 2);
        const answers = (await posted(page)).filter((m): m is Extract<WebviewToHost, { type: 'inbox_fanout' }> => m.type === 'inbox_fanout');
        assert.deepEqual(answers, [{ type: 'inbox_fanout', id: 'ask-1', choice: 'run_capped', dontAsk: true }]);
        assert.equal(inbox.runFanout('ask-1', 'run_capped', true), true);
        assert.deepEqual(await answer, { choice: 'run_capped', dontAsk: true });
        await sent();
        assert.equal(await page.locator('.inbox').isHidden(), true, 'the card went');

        script.emit(ROOT, null, { type: 'fanout_answered', choice: 'run_capped', toolUseIds: children.map((c) => c.toolUseId) });
        await send(page, { type: 'events', events: script.take() });
        assert.deepEqual(await rowStatus(page), ['running', 'running', 'running', 'running'], 'Run started the rows');
      } finally {
        await page.close();
      }
    });
  }

  it('250 px, a short panel over a long conversation: the answers stay whole, the tasks scroll inside the card; Cancel stops the rows', async () => {
    const page = await openPanel(panel.browser, undefined, { width: 250, height: 420 });
    try {
      const state = createSessionView();
      const big = bigSession(300);
      applyEvents(state, big.take());
      await send(page, { type: 'snapshot', state, running: true });
      const { inbox, sent } = hostInbox(page);
      const answer = inbox.askFanout(card, new AbortController().signal);
      await sent();
      await frames(page, 3);
      assert.deepEqual(await notInView(page, ANSWERS), [], 'every answer in view');
      assert.deepEqual(await notInView(page, '.send-button'), [], 'the prompt box keeps its room');
      const info = await page.locator(`${CARD} .fanout-info`).evaluate((e) => ({ shown: e.clientHeight, all: e.scrollHeight }));
      assert.ok(info.all > info.shown, `the tasks and forecast scroll in the card (${info.shown} of ${info.all} px)`);
      await theme(page, 'dark');
      await page.screenshot({ path: join(ARTIFACTS, 'fanout-card-250-short-dark.png') });
      await page.locator(`${CARD} [data-choice="cancel"]`).click();
      await frames(page, 2);
      assert.equal(inbox.runFanout('ask-1', 'cancel', false), true);
      assert.deepEqual(await answer, { choice: 'cancel', dontAsk: false });

      // The core's events for a cancelled fan-out: pending rows, the answer, then each refused call.
      const events = new Script('session-2');
      events.rootStart('Review the four parts.');
      asked(events);
      events.emit(ROOT, null, { type: 'fanout_answered', choice: 'cancel', toolUseIds: children.map((c) => c.toolUseId) });
      for (const c of children) events.tool(ROOT, null, c.toolUseId, 'task', { description: c.description, prompt: c.prompt }, 'Not run: the user cancelled this fan-out of 4 subagents before it started.', true);
      const cancelled = createSessionView();
      applyEvents(cancelled, events.take());
      await send(page, { type: 'snapshot', state: cancelled, running: false });
      assert.deepEqual(await rowStatus(page), ['cancelled', 'cancelled', 'cancelled', 'cancelled']);
    } finally {
      await page.close();
    }
  });
});
