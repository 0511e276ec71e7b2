/**
 * Failures you can act on (issue 15 §4): a task that failed, was stopped or hit its turn limit says why on its
 * row in plain words (the raw error on hover and in its Error row), stays open, and offers Retry and
 * "Re-run with an edited prompt…". Screenshot in test-artifacts/webview/task-failed-retry.png.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createSessionView } from '../../src/view-model/session-view';
import { ARTIFACTS, panelSuite, posted, send } from './browser';
import { finishedSession, ROOT } from './fixtures';
import { item } from './tree-dom';


describe('failures you can act on (headless Chromium)', function () {
  this.timeout(60_000);
  const panel = panelSuite({ size: { width: 360, height: 900 } });

  it('says why in plain words, stays open, and offers Retry and an edited re-run; a completed task offers neither', async () => {
    const s = finishedSession();
    // A fourth task the user stopped: "Stopped", with no "stopped by the user" beside it.
    s.taskStart(ROOT, null, 'tu-d', 'agent-d', 'Profile the suite', 1);
    s.childFinish('agent-d', ROOT, 'cancelled', 1, 0, [800, 50], '', 'stopped by the user');
    await send(panel.page, { type: 'snapshot', state: createSessionView(), running: false }, { type: 'events', events: s.take() });
    const failed = panel.page.locator(item('task:tu-c'));
    await failed.waitFor();
    assert.equal(await failed.locator(':scope > .task-text .task-reason').innerText(), "The model's servers were overloaded (retries ran out)");
    assert.equal(await failed.locator(':scope > .task-text .task-reason').getAttribute('title'), 'Model request failed: overloaded', 'the raw error on hover');
    assert.equal((await failed.locator(':scope > .task-text .row-state').innerText()).trim(), 'Failed');
    assert.equal(await failed.getAttribute('aria-expanded'), 'true', 'a failed task stays open');
    await panel.page.locator(item('outcome:task:tu-c')).waitFor();

    const limited = panel.page.locator(item('task:tu-b'));
    assert.equal(await limited.locator(':scope > .task-text .task-reason').innerText(), 'It used all its 8 turns before finishing');
    assert.equal(await limited.getAttribute('aria-expanded'), 'true');

    const stopped = panel.page.locator(item('task:tu-d'));
    assert.equal((await stopped.locator(':scope > .task-text .row-state').innerText()).trim(), 'Stopped');
    assert.equal(await stopped.locator(':scope > .task-text .task-reason').isVisible(), false, 'the word says it all');
    assert.equal(await panel.page.getByText('stopped by the user').count(), 0);

    const done = panel.page.locator(item('task:tu-a'));
    assert.equal(await done.locator(':scope > .task-text .task-retry').isVisible(), false);
    assert.equal(await done.getAttribute('aria-expanded'), 'false', 'a completed task closes');

    await panel.page.waitForTimeout(200); // codicon font
    await panel.page.screenshot({ path: join(ARTIFACTS, 'task-failed-retry.png') });
    await failed.locator(':scope > .task-text [data-action="retry"]').click();
    await limited.locator(':scope > .task-text [data-action="rerun-edited"]').click();
    // Keyboard: Tab reaches the buttons; Enter activates without folding the row.
    await stopped.locator(':scope > .task-text [data-action="retry"]').focus();
    await panel.page.keyboard.press('Enter');
    assert.deepEqual((await posted(panel.page)).filter((m) => m.type === 'retry_task'), [
      { type: 'retry_task', agentId: 'agent-c', edit: false },
      { type: 'retry_task', agentId: 'agent-b', edit: true },
      { type: 'retry_task', agentId: 'agent-d', edit: false },
    ]);
    assert.equal(await failed.getAttribute('aria-expanded'), 'true', 'the click does not fold the row');
  });
});
