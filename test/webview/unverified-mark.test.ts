/**
 * A task whose report the harness could not back up, as the panel shows it (issue 16 §3–4): the row's mark with
 * each unverified claim and its reason, and the word that instruction-shaped text was defanged; a task with a
 * clean report has none. Screenshot in test-artifacts/webview/unverified-mark.png.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { applyEvents, createSessionView } from '../../src/view-model/session-view';
import { ARTIFACTS, panelSuite, send } from './browser';
import { ROOT, Script } from './fixtures';
import { item } from './tree-dom';

const UNVERIFIED = [{ claim: 'All tests pass.', reason: '`npm test` exited 1' }, { claim: 'Updated `src/b.ts`.', reason: 'no write or edit of src/b.ts in the record, and no command changed it' }];

function session(): Script {
  const s = new Script();
  s.rootStart('Fix the date parser and run the tests.');
  s.turn(ROOT, null, 1);
  s.taskStart(ROOT, null, 'tu-a', 'agent-a', 'fix the parser', 1);
  s.taskStart(ROOT, null, 'tu-b', 'agent-b', 'read the docs', 1);
  s.turn('agent-a', ROOT, 1);
  s.tool('agent-a', ROOT, 'a1', 'bash', { command: 'npm test' }, '1 failing\n[exit code 1]', true);
  s.childFinish('agent-a', ROOT, 'completed', 2, 1, [5000, 400], 'Updated `src/b.ts`. All tests pass.');
  s.emit('agent-a', ROOT, { type: 'report_checked', unverified: UNVERIFIED, defanged: ['a system-reminder tag'] });
  s.childFinish('agent-b', ROOT, 'completed', 1, 0, [1000, 100], 'The docs say nothing about time zones.');
  s.taskEnd(ROOT, null, 'tu-a', 'Updated `src/b.ts`. All tests pass.\n\n[changes] ran `npm test` (exit 1)\n[unverified] "All tests pass.": `npm test` exited 1');
  s.taskEnd(ROOT, null, 'tu-b', 'The docs say nothing about time zones.\n\n[changes] none');
  return s;
}

describe('unverified claims on a task: the view', () => {
  it('puts the checked report on its task node', () => {
    const state = createSessionView();
    applyEvents(state, session().events);
    const a = state.nodes['task:tu-a'];
    const b = state.nodes['task:tu-b'];
    assert.ok(a?.kind === 'task' && b?.kind === 'task');
    assert.deepEqual(a.unverified, UNVERIFIED);
    assert.deepEqual(a.defanged, ['a system-reminder tag']);
    assert.equal(b.unverified, undefined);
  });

  describe('in the panel (headless Chromium)', function () {
    this.timeout(60_000);
    const panel = panelSuite({ size: { width: 520, height: 420 } });

    it('marks the task with each claim and its reason; the clean task has no mark', async () => {
      await send(panel.page, { type: 'snapshot', state: createSessionView(), running: false }, { type: 'events', events: session().take() });
      const mark = panel.page.locator(`${item('task:tu-a')} > .task-text .task-unverified`);
      await mark.waitFor();
      assert.equal((await mark.locator('.task-unverified-label').textContent())?.trim(), '2 claims not backed by the record · instruction-shaped text defanged');
      assert.deepEqual(await mark.locator('.task-unverified-claim').allTextContents(), UNVERIFIED.map((u) => `"${u.claim}" — ${u.reason}`));
      assert.match((await mark.getAttribute('title')) ?? '', /Defanged before the parent read it: a system-reminder tag/);
      assert.equal(await panel.page.locator(`${item('task:tu-b')} > .task-text .task-unverified`).isVisible(), false);
      await panel.page.waitForTimeout(200); // codicon font
      await panel.page.screenshot({ path: join(ARTIFACTS, 'unverified-mark.png') });
    });
  });
});
