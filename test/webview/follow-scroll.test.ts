/**
 * Following the conversation's end (webview/follow-scroll.ts) as a user lives with it, in headless Chromium: a
 * session opens at its end (a snapshot: History, a reload), sending a prompt always brings the newest row into view
 * (also when the user had scrolled up), and "Jump to latest" shows whenever rows arrive below the view — also the
 * final answer of a run that has ended meanwhile.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import { frames, openPanel, posted, send, panelSuite } from './browser';
import { bigSession, ROOT, Script, usage } from './fixtures';

const LONG = 'The module reads its settings once at start and keeps them for the whole run, so a change needs a restart. '.repeat(6);

/** A finished session of `n` exchanges (prompt, a long answer), a finished task in the middle: far taller than the panel. */
function longSession(n: number, id = 'session-1'): Script {
  const s = new Script(id);
  for (let i = 1; i <= n; i++) {
    s.rootStart(`Question ${i} of ${id}?`);
    s.turn(ROOT, null, i);
    if (i === 2) {
      s.taskStart(ROOT, null, `tu-${id}`, `kid-${id}`, 'look around', 1);
      s.tool(`kid-${id}`, ROOT, `k-${id}`, 'read_file', { path: 'src/a.ts' }, 'ok');
      s.childFinish(`kid-${id}`, ROOT, 'completed', 1, 1, [100, 10], 'Looked.');
      s.taskEnd(ROOT, null, `tu-${id}`, 'Looked.');
    }
    s.rootText(i, `Answer ${i}. ${LONG}`);
    s.emit(ROOT, null, { type: 'agent_finished', status: 'completed', result: 'ok', turns: 1, toolCalls: 0, usage: usage(10, 5), durationMs: 5 });
  }
  return s;
}

function snapshotOf(s: Script): SessionViewState {
  const state = createSessionView();
  applyEvents(state, s.take());
  return state;
}

interface Scroller {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  getBoundingClientRect(): { top: number; bottom: number };
}
interface Doc {
  document: { querySelector(s: string): Scroller | null; querySelectorAll(s: string): ArrayLike<Scroller & { textContent: string | null }> };
}

/** How far the list is from its end, in px (0: at the end). */
const fromEnd = (page: Page): Promise<number> =>
  page.evaluate(() => {
    const log = (globalThis as unknown as Doc).document.querySelector('.log') as Scroller;
    return Math.round(log.scrollHeight - log.scrollTop - log.clientHeight);
  });

/** Whether a message with this text is inside the list's visible part. */
const shown = (page: Page, text: string): Promise<boolean> =>
  page.evaluate((t) => {
    const d = (globalThis as unknown as Doc).document;
    const view = (d.querySelector('.log') as Scroller).getBoundingClientRect();
    return Array.from(d.querySelectorAll('.msg')).some((m) => {
      const r = m.getBoundingClientRect();
      return (m.textContent ?? '').includes(t) && r.top >= view.top - 1 && r.top < view.bottom - 10;
    });
  }, text);

/** Rendering settles: measured rows (markdown) move the end a few times. */
async function settle(page: Page): Promise<void> {
  await frames(page, 4);
  await page.waitForTimeout(100);
  await frames(page, 2);
}

/** The user scrolls up with the wheel, well away from the end. */
async function scrollUp(page: Page): Promise<void> {
  await page.mouse.move(150, 200);
  await page.mouse.wheel(0, -4000);
  await settle(page);
  assert.ok((await fromEnd(page)) > 500, 'scrolled away from the end');
}

describe('panel: following the conversation\'s end', function () {
  this.timeout(60_000);
  const panel = panelSuite({ size: { width: 300, height: 560 } });

  it('a session opens at its end: its snapshot, another one opened from History, a reload', async () => {
    const page = panel.page;
    await send(page, { type: 'snapshot', state: snapshotOf(longSession(8)), running: false });
    await settle(page);
    assert.equal(await fromEnd(page), 0, 'at the end');
    assert.ok(await shown(page, 'Answer 8.'), 'the last answer in view');

    // History, then Back (or the open session picked again: the host sends nothing): the list as it was.
    await send(page, { type: 'history', sessions: [] });
    await page.locator('.history-back').click();
    await settle(page);
    assert.equal(await fromEnd(page), 0, 'back from History: still at the end');
    assert.ok(await shown(page, 'Answer 8.'));

    // The user reads up, then opens another session from History.
    await scrollUp(page);
    await send(page, { type: 'history', sessions: [] });
    await send(page, { type: 'snapshot', state: snapshotOf(longSession(9, 'session-2')), running: false });
    await settle(page);
    assert.equal(await fromEnd(page), 0, 'the opened session at its end');
    assert.ok(await shown(page, 'Answer 9.'));

    // Scrolled up, then the same session comes again (the editor's window reloads the view).
    await scrollUp(page);
    await send(page, { type: 'snapshot', state: snapshotOf(longSession(9, 'session-2')), running: false });
    await settle(page);
    assert.equal(await fromEnd(page), 0, 'a new snapshot opens at the end');

    const reloaded = await openPanel(panel.browser, { v: 1, expanded: {}, draft: '' }, { width: 300, height: 560 });
    try {
      await send(reloaded, { type: 'snapshot', state: snapshotOf(longSession(8, 'session-3')), running: false });
      await settle(reloaded);
      assert.equal(await fromEnd(reloaded), 0, 'a reloaded panel at the end');
      assert.ok(await shown(reloaded, 'Answer 8.'));
    } finally {
      await reloaded.close();
    }
  });

  it('sending a prompt brings its row into view, also when the user had scrolled up', async () => {
    const page = panel.page;
    const s = longSession(8);
    await send(page, { type: 'snapshot', state: snapshotOf(s), running: false });
    await settle(page);
    await scrollUp(page);
    await page.locator('.prompt-input').click();
    await page.keyboard.type('And one more thing?');
    await page.keyboard.press('Enter');
    assert.deepEqual((await posted(page)).at(-1), { type: 'prompt', text: 'And one more thing?' });
    // The host starts the run: its status, then the prompt row, then the answer streams in.
    await send(page, { type: 'status', running: true });
    s.rootStart('And one more thing?');
    s.turn(ROOT, null, 9);
    await send(page, { type: 'events', events: s.take() });
    await settle(page);
    assert.ok(await shown(page, 'And one more thing?'), 'the new prompt in view');
    assert.equal(await fromEnd(page), 0);
    s.rootText(9, `Answer 9. ${LONG}`);
    await send(page, { type: 'events', events: s.take() });
    await settle(page);
    assert.equal(await fromEnd(page), 0, 'and its answer is followed');
    assert.equal(await page.locator('.jump-latest').isHidden(), true);
  });

  it('"Jump to latest" shows whenever rows arrive below the view, also when the run has ended meanwhile', async () => {
    // The long task's earlier calls opened (a long task folds all but its last 10: flat-rows.ts foldedCount).
    const page = await openPanel(panel.browser, { v: 1, expanded: { 'fold:task:tu-big': true }, draft: '' }, { width: 300, height: 560 });
    try {
      await jumpAfterTheRunEnds(page);
    } finally {
      await page.close();
    }
  });
});

/** The run ends while the user reads above: the final answer arrives below, and Jump to latest says so. */
async function jumpAfterTheRunEnds(page: Page): Promise<void> {
  const s = bigSession(200);
  await send(page, { type: 'snapshot', state: snapshotOf(s), running: true });
  await settle(page);
  await scrollUp(page);
  const jump = page.locator('.jump-latest');
  assert.equal(await jump.isVisible(), true, 'while it runs');

  // The run ends while the user reads: the subagent's report and the main agent's final answer arrive below.
  s.childFinish('agent-big', ROOT, 'completed', 4, 200, [9000, 900], 'Ran 200 calls.');
  s.taskEnd(ROOT, null, 'tu-big', 'Ran 200 calls.');
  s.turn(ROOT, null, 2);
  s.rootText(2, 'All 200 calls ran; nothing failed.');
  s.emit(ROOT, null, { type: 'agent_finished', status: 'completed', result: 'ok', turns: 2, toolCalls: 1, usage: usage(10, 5), durationMs: 5 });
  await send(page, { type: 'events', events: s.take() }, { type: 'status', running: false });
  await settle(page);
  assert.ok((await fromEnd(page)) > 0, 'the view stays where the user reads');
  assert.equal(await jump.isVisible(), true, 'the run ended, and the final answer waits below: the button stays');
  await jump.click();
  await settle(page);
  assert.equal(await fromEnd(page), 0);
  assert.ok(await shown(page, 'All 200 calls ran'), 'the final answer in view');
  assert.equal(await jump.isHidden(), true, 'following again: no button');

  // Finished, the user scrolls up: nothing new below, no button; a row that then arrives below brings it.
  await scrollUp(page);
  assert.equal(await jump.isHidden(), true, 'nothing arrived below');
  s.emit(ROOT, null, { type: 'notice', level: 'warning', text: 'The session index was rebuilt.' });
  await send(page, { type: 'events', events: s.take() });
  await settle(page);
  assert.equal(await jump.isVisible(), true, 'a row arrived below');
}
