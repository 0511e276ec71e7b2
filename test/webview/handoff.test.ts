/**
 * A completed subagent's handoffs (Copilot's `handoffs` of its agent file): the view model keeps them on its task
 * node from `agent_finished`, the packed snapshot carries them (a reloaded panel still shows the buttons), and the
 * panel shows one button per handoff after the answer; pressed (keyboard alone), it asks the host, whose
 * `fill_prompt` fills the prompt box and names the agent above it, and Send takes the agent along.
 * A handoff the user sent shows as their own words with a "→ agent (handoff: label)" mark, never as the prompt the
 * host wrote for the main agent (that one is on hover), live and in a session rebuilt from its transcript.
 * Screenshots: test-artifacts/webview/handoff-250-dark.png, handoff-filled-250-dark.png, handoff-sent-250-dark.png.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { WebviewToHost } from '../../src/protocol';
import { applyEvents, createSessionView, type SessionViewState, type TaskNode } from '../../src/view-model/session-view';
import { decodeSnapshot, encodeSnapshot } from '../../src/view-model/snapshot-codec';
import { ARTIFACTS, frames, openPanel, panelSuite, posted, savedState, send } from './browser';
import { ROOT, Script, usage } from './fixtures';
import { item } from './tree-dom';

const IMPLEMENT = 'Implement the plan outlined above.';
const HANDOFFS = [
  { label: 'Start implementation', agent: 'implementer', prompt: IMPLEMENT },
  { label: 'Review the plan for gaps and risks before anything is built', agent: 'reviewer', prompt: 'Review the plan above.', send: true, model: 'haiku' },
];

/** A session whose planner subagent completed with two handoffs; `endRoot`: the main agent has finished too. */
function session(endRoot: boolean): Script {
  const s = new Script();
  s.rootStart('Plan the login page.');
  s.turn(ROOT, null, 1);
  s.taskStart(ROOT, null, 'tu-plan', 'planner-1', 'Plan the login page', 1);
  s.emit('planner-1', ROOT, { type: 'agent_finished', status: 'completed', result: '1. a form 2. a session cookie', handoffs: HANDOFFS, turns: 2, toolCalls: 1, usage: usage(3000, 400), durationMs: 9000 });
  s.taskEnd(ROOT, null, 'tu-plan', '1. a form 2. a session cookie');
  if (endRoot) s.emit(ROOT, null, { type: 'agent_finished', status: 'completed', result: 'planned', turns: 1, toolCalls: 1, usage: usage(5000, 600), durationMs: 12_000 });
  return s;
}

const WRITTEN = 'Hand this over to the "reviewer" agent: start it with the task tool (subagent_type "reviewer", model "haiku") with the request below as its prompt.\n\nReview the plan above. Mind the cookie.';
const SENT = { agent: 'reviewer', label: 'Review the plan for gaps and risks before anything is built', text: 'Review the plan above. Mind the cookie.' };

/** The session above, then the handoff the user sent, as the core emits a root run the host wrote for one. */
function handedOver(s: Script): void {
  s.emit(ROOT, null, { type: 'prompt', text: WRITTEN, handoff: SENT });
  s.emit(ROOT, null, { type: 'agent_started', prompt: WRITTEN, depth: 0, model: 'claude-sonnet', handoff: SENT });
  s.emit(ROOT, null, { type: 'message', message: { role: 'user', content: WRITTEN } });
  s.turn(ROOT, null, 2);
}

function stateOf(s: Script): SessionViewState {
  const state = createSessionView();
  applyEvents(state, s.events);
  return state;
}

const planTask = (state: SessionViewState): TaskNode => state.nodes['task:tu-plan'] as TaskNode;

describe('handoffs on the view model and the packed snapshot', () => {
  it('a completed answer\'s handoffs land on its task node and survive the packed snapshot', () => {
    const state = stateOf(session(true));
    assert.deepEqual(planTask(state).handoffs, HANDOFFS);
    assert.deepEqual(planTask(decodeSnapshot(encodeSnapshot(state))).handoffs, HANDOFFS, 'a reloaded panel gets them');
  });

  it('a sent handoff is a user node with the user\'s words; a transcript\'s broken handoff shows the written prompt', () => {
    const s = session(true);
    handedOver(s);
    const rows = (state: SessionViewState) => state.items.flatMap((id) => (state.nodes[id]?.kind === 'user' ? [state.nodes[id]] : []));
    assert.deepEqual(rows(decodeSnapshot(encodeSnapshot(stateOf(s)))).map((n) => n?.kind === 'user' && [n.text, n.handoff]), [['Plan the login page.', undefined], [WRITTEN, SENT]]);
    const broken = new Script();
    broken.emit(ROOT, null, { type: 'agent_started', prompt: WRITTEN, depth: 0, model: 'claude-sonnet', handoff: { agent: 'reviewer', label: 7 } as unknown as typeof SENT });
    assert.deepEqual(rows(stateOf(broken)).map((n) => n?.kind === 'user' && [n.text, n.handoff]), [[WRITTEN, undefined]]);
  });

  it('a resumed segment that ends early takes the buttons away', () => {
    const s = session(true);
    s.emit('planner-1', ROOT, { type: 'agent_started', prompt: 'Add a logout.', depth: 1, model: 'claude-sonnet', toolUseId: 'tu-plan', segment: 2, resumedBy: 'user' });
    s.emit('planner-1', ROOT, { type: 'agent_finished', status: 'error', result: '', turns: 1, toolCalls: 0, usage: usage(100, 10), durationMs: 900, error: 'overloaded' });
    assert.equal(planTask(stateOf(s)).handoffs, undefined);
  });
});

interface PageDoc {
  document: { activeElement: { matches(s: string): boolean } | null; documentElement: { className: string } };
}
const focusedIs = (page: Page, selector: string): Promise<boolean> => page.evaluate((sel) => (globalThis as unknown as PageDoc).document.activeElement?.matches(sel) ?? false, selector);
async function dark(page: Page): Promise<void> {
  await page.evaluate(() => ((globalThis as unknown as PageDoc).document.documentElement.className = 'vscode-dark'));
  await frames(page, 2);
}

describe('panel: handoff buttons after a subagent\'s answer (headless Chromium)', function () {
  this.timeout(60_000);
  const panel = panelSuite({ size: { width: 250, height: 640 } });

  it('one button per handoff from a packed snapshot; keyboard alone presses one; the filled box sends to its agent', async () => {
    const { page } = panel;
    await send(page, { type: 'snapshot', packed: encodeSnapshot(stateOf(session(true))), running: false });
    const row = page.locator(item('task:tu-plan'));
    const buttons = row.locator(':scope > .task-text .handoff-button');
    assert.equal(await buttons.count(), 2);
    assert.deepEqual(await buttons.allInnerTexts(), HANDOFFS.map((h) => h.label));
    assert.equal(await buttons.nth(0).getAttribute('aria-label'), 'Start implementation: puts “Implement the plan outlined above.” in the prompt box for the implementer agent');
    assert.equal(await buttons.nth(1).getAttribute('aria-label'), 'Review the plan for gaps and risks before anything is built: sends “Review the plan above.” to the reviewer agent on haiku');
    const box = await buttons.nth(1).boundingBox();
    assert.ok(box && box.x + box.width <= 250, `the long label fits the 250 px panel (${JSON.stringify(box)})`);
    await dark(page);
    await page.waitForTimeout(200); // codicon font
    await page.screenshot({ path: join(ARTIFACTS, 'handoff-250-dark.png') });

    // Keyboard alone: the row, Tab to its first button, Enter; the row does not fold or move.
    const open = await row.getAttribute('aria-expanded');
    await row.focus();
    await page.keyboard.press('Tab');
    assert.equal(await focusedIs(page, '.handoff-button[data-index="0"]'), true, 'Tab from the row reaches its first handoff');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    const pressed = (await posted(page)).filter((m) => m.type === 'handoff');
    assert.deepEqual(pressed, [{ type: 'handoff', agentId: 'planner-1', index: 0 }, { type: 'handoff', agentId: 'planner-1', index: 1 }]);
    assert.equal(await row.getAttribute('aria-expanded'), open, 'pressing does not fold the row');

    // The host fills the box: the prompt in it, the agent named above it, the focus in it; Enter sends both.
    await send(page, { type: 'fill_prompt', text: IMPLEMENT, handoff: { agent: 'implementer', label: 'Start implementation' } });
    const chip = page.locator('.handoff-chip');
    assert.equal(await chip.isVisible(), true);
    assert.equal((await chip.innerText()).trim(), 'implementer · Start implementation');
    assert.equal(await page.locator('vscode-textarea.prompt-input textarea').inputValue(), IMPLEMENT);
    assert.equal(await focusedIs(page, '.composer vscode-textarea'), true, 'typing goes on in the box');
    await page.screenshot({ path: join(ARTIFACTS, 'handoff-filled-250-dark.png') });
    await page.keyboard.type(' Keep it small.');
    await page.keyboard.press('Enter');
    const prompts = (await posted(page)).filter((m): m is Extract<WebviewToHost, { type: 'prompt' }> => m.type === 'prompt');
    assert.deepEqual(prompts, [{ type: 'prompt', text: 'Implement the plan outlined above. Keep it small.', handoff: { agent: 'implementer', label: 'Start implementation' } }]);
    assert.equal(await chip.isHidden(), true, 'sent: the line goes with the prompt');

    // × (by keyboard) sends the next one to the main agent as usual.
    await send(page, { type: 'fill_prompt', text: 'Review it.', handoff: { agent: 'reviewer', label: 'Review' } });
    await page.locator('.handoff-chip-remove').focus();
    await page.keyboard.press('Enter');
    assert.equal(await chip.isHidden(), true);
    await page.keyboard.press('Enter'); // the focus went back to the box
    assert.deepEqual((await posted(page)).filter((m) => m.type === 'prompt').at(-1), { type: 'prompt', text: 'Review it.' });
  });

  it('a sent handoff\'s row: the user\'s words and "→ reviewer (handoff: …)", not the written prompt; the same from a transcript', async () => {
    const { page } = panel;
    const s = session(true);
    await send(page, { type: 'snapshot', packed: encodeSnapshot(stateOf(s)), running: false });
    s.take();
    handedOver(s);
    await send(page, { type: 'events', events: s.take() }, { type: 'status', running: true });
    const check = async (p: Page, from: string): Promise<void> => {
      const row = p.locator('.msg-user').last();
      await row.waitFor();
      assert.equal((await row.locator('.msg-text').innerText()).trim(), SENT.text, `${from}: the user's words`);
      assert.equal((await row.locator('.msg-handoff').innerText()).replace(/\s+/g, ' ').trim(), `reviewer (handoff: ${SENT.label})`, `${from}: the mark`);
      assert.equal(await p.getByText('Hand this over', { exact: false }).count(), 0, `${from}: the written prompt is not shown`);
      assert.match((await row.getAttribute('title')) ?? '', /The main agent was asked:\n\nHand this over to the "reviewer" agent/, `${from}: it is on hover`);
      const box = await row.locator('.msg-handoff').boundingBox();
      assert.ok(box && box.x + box.width <= 250, `${from}: the mark fits the 250 px panel (${JSON.stringify(box)})`);
    };
    await check(page, 'live');
    await dark(page);
    await page.waitForTimeout(200); // codicon font
    await page.screenshot({ path: join(ARTIFACTS, 'handoff-sent-250-dark.png') });

    // A session reopened from its transcript (no prompt events there), packed as the host posts it.
    const reopened = createSessionView();
    applyEvents(reopened, s.events.filter((e) => e.type !== 'prompt'));
    await send(page, { type: 'snapshot', packed: encodeSnapshot(reopened), running: false });
    await check(page, 'from the transcript');
  });

  it('no buttons while the run goes on, nor on a task that did not complete', async () => {
    const { page } = panel;
    await send(page, { type: 'snapshot', state: stateOf(session(false)), running: true });
    const row = page.locator(item('task:tu-plan'));
    await row.waitFor();
    assert.equal(await row.locator('.handoff-button').first().isVisible(), false, 'hidden while the main agent still works');
    const s = session(true);
    await send(page, { type: 'snapshot', state: stateOf(s), running: false });
    assert.equal(await row.locator('.handoff-button').first().isVisible(), true);
    s.emit('planner-1', ROOT, { type: 'agent_started', prompt: 'Add a logout.', depth: 1, model: 'claude-sonnet', toolUseId: 'tu-plan', segment: 2, resumedBy: 'user' });
    s.emit('planner-1', ROOT, { type: 'agent_finished', status: 'max_turns', result: '', turns: 30, toolCalls: 0, usage: usage(100, 10), durationMs: 900 });
    await send(page, { type: 'snapshot', state: stateOf(s), running: false });
    assert.equal(await row.locator('.handoff-button').count(), 0, 'an answer that did not complete offers none');
  });

  it('a handoff without a prompt names the agent over an empty box; a reloaded panel keeps the line and its draft', async () => {
    const { page } = panel;
    await send(page, { type: 'snapshot', state: stateOf(session(true)), running: false });
    await send(page, { type: 'fill_prompt', text: '', handoff: { agent: 'reviewer', label: 'Review', model: 'haiku' } });
    assert.equal(await page.locator('.handoff-chip').isVisible(), true, 'an empty box still goes to the agent');
    await page.keyboard.type('Look at the cookie handling.');
    await page.waitForTimeout(400); // the draft is saved 300 ms after the last key
    const reloaded = await openPanel(panel.browser, await savedState(page), { width: 250, height: 640 });
    try {
      await send(reloaded, { type: 'snapshot', state: stateOf(session(true)), running: false });
      assert.equal((await reloaded.locator('.handoff-chip').innerText()).trim(), 'reviewer · Review');
      await reloaded.locator('vscode-textarea.prompt-input textarea').focus();
      await reloaded.keyboard.press('Enter');
      assert.deepEqual((await posted(reloaded)).filter((m) => m.type === 'prompt'), [{ type: 'prompt', text: 'Look at the cookie handling.', handoff: { agent: 'reviewer', label: 'Review', model: 'haiku' } }]);
    } finally {
      await reloaded.close();
    }
  });
});
