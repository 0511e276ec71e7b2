/**
 * Failures you can act on (issue 15 §4): a task that failed, was stopped or hit its turn limit says why on its
 * row in plain words (the raw error on hover and in its Error row), stays open, and offers Retry and
 * "Re-run with an edited prompt…". Screenshot in test-artifacts/webview/task-failed-retry.png.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { DelegateEvent } from '../../src/core/events';
import { applyEvents, createSessionView } from '../../src/view-model/session-view';
import { ARTIFACTS, frames, panelSuite, posted, send } from './browser';
import { finishedSession, ROOT, usage, type Script } from './fixtures';
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
    const errorRow = panel.page.locator(item('outcome:task:tu-c'));
    await errorRow.waitFor();
    // Said once: the row under it holds the whole message (opened), not the same words again.
    assert.equal((await errorRow.innerText()).replace(/\s+/g, ' ').trim(), 'Error the full message');
    await errorRow.locator('.text-row-title').click();
    await panel.page.locator(item('detail:outcome:task:tu-c')).getByText('Model request failed: overloaded').waitFor();
    await errorRow.locator('.text-row-title').click();

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

describe('Retry that says what happened (headless Chromium)', function () {
  this.timeout(60_000);
  const panel = panelSuite({ size: { width: 300, height: 900 } });
  const RETRY_PROMPT = 'Run the subagent task "Reproduce the flaky test" again (it ended: failed). Delegate it with the task tool (description "Reproduce the flaky test") and exactly this prompt:\n\nReproduce the flaky test. Report what you found in a short summary.';

  /** The finished session's events up to the main agent's end (its last event), and that end. */
  function untilRootEnd(): { running: DelegateEvent[]; end: DelegateEvent[]; s: Script } {
    const s = finishedSession();
    const all = s.take();
    return { running: all.slice(0, -1), end: all.slice(-1), s };
  }

  it('Retry waits for the run\'s end; after it, "You" reads "Retry: <task>", the old row says Retried and leads to the new run', async () => {
    const { running, end, s } = untilRootEnd();
    await send(panel.page, { type: 'snapshot', state: createSessionView(), running: true }, { type: 'events', events: running });
    const failed = panel.page.locator(item('task:tu-c'));
    await failed.waitFor();
    assert.equal(await failed.locator(':scope > .task-text .task-reason').isVisible(), true, 'the reason shows at once');
    assert.equal(await failed.locator(':scope > .task-text [data-action="retry"]').isVisible(), false, 'no Retry while the main agent still works');
    assert.equal(await failed.locator(':scope > .task-text [data-action="rerun-edited"]').isVisible(), false);
    await send(panel.page, { type: 'events', events: end }, { type: 'status', running: false });
    assert.equal(await failed.locator(':scope > .task-text [data-action="retry"]').isVisible(), true, 'the run ended: Retry');
    const rerun = failed.locator(':scope > .task-text [data-action="rerun-edited"]');
    assert.equal(await rerun.evaluate((b) => b.scrollWidth <= b.clientWidth), true, 'Re-run… is not cut at 300 px');

    // The host sends the written prompt with retryOf: the view shows what the user did.
    s.rootStart(RETRY_PROMPT, { agentId: 'agent-c', description: 'Reproduce the flaky test' });
    await send(panel.page, { type: 'events', events: s.take() }, { type: 'status', running: true });
    const you = panel.page.locator('.msg-retry');
    await you.waitFor();
    assert.equal((await you.innerText()).replace(/\s+/g, ' ').trim(), 'You Retry: Reproduce the flaky test');
    assert.equal(await panel.page.getByText('Run the subagent task', { exact: false }).count(), 0, 'the written prompt is not shown');
    assert.equal(await failed.locator(':scope > .task-text [data-action="retry"]').isVisible(), false, 'no Retry while the retry runs');
    const retried = failed.locator(':scope > .task-text .task-retried');
    assert.equal(await retried.isVisible(), true);
    assert.equal((await retried.innerText()).trim(), 'Retried');
    s.turn(ROOT, null, 3);
    s.taskStart(ROOT, null, 'tu-c2', 'agent-c2', 'Reproduce the flaky test', 1);
    s.childFinish('agent-c2', ROOT, 'completed', 1, 0, [900, 90], 'It reproduces 1 run in 20.');
    s.taskEnd(ROOT, null, 'tu-c2', 'It reproduces 1 run in 20.');
    s.emit(ROOT, null, { type: 'agent_finished', status: 'completed', result: 'done', turns: 1, toolCalls: 1, usage: usage(100, 10), durationMs: 900 });
    await send(panel.page, { type: 'events', events: s.take() }, { type: 'status', running: false });
    assert.equal(await failed.locator(':scope > .task-text [data-action="retry"]').isVisible(), false, 'retried and run again: no Retry once the retry ended');
    await panel.page.waitForTimeout(200);
    await panel.page.screenshot({ path: join(ARTIFACTS, 'task-retried.png') });
    await retried.click();
    await frames(panel.page, 3);
    assert.equal(await panel.page.evaluate(() => (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }).document.activeElement?.getAttribute('data-id')), 'task:tu-c2', 'Retried leads to the new run');
  });

  it('a reopened session (no prompt events in the transcript) shows the same: the Retry row, the old task retried and linked', () => {
    const { running, end, s } = untilRootEnd();
    s.rootStart(RETRY_PROMPT, { agentId: 'agent-c', description: 'Reproduce the flaky test', edited: true });
    s.taskStart(ROOT, null, 'tu-other', 'agent-o', 'Something else first', 1);
    s.taskStart(ROOT, null, 'tu-c2', 'agent-c2', 'Reproduce the flaky test', 1);
    const state = createSessionView();
    applyEvents(state, [...running, ...end, ...s.take()].filter((e) => e.type !== 'prompt'));
    const prompts = state.items.map((id) => state.nodes[id]).filter((n) => n?.kind === 'user');
    assert.deepEqual(prompts.map((p) => p?.kind === 'user' && p.retryOf), [undefined, { agentId: 'agent-c', description: 'Reproduce the flaky test', edited: true }]);
    const old = state.nodes['task:tu-c'];
    assert.ok(old?.kind === 'task');
    assert.deepEqual(old.retriedBy, { promptId: prompts[1]?.id, taskId: 'task:tu-c2' }, 'linked to the task with its description, not the first one started');

    // A Retry the main agent answered without delegating: no new run to lead to, so Retry stays possible.
    const t = untilRootEnd();
    t.s.rootStart(RETRY_PROMPT, { agentId: 'agent-c', description: 'Reproduce the flaky test' });
    t.s.rootText(3, 'I will not run it again.');
    t.s.emit(ROOT, null, { type: 'agent_finished', status: 'completed', result: 'no', turns: 1, toolCalls: 0, usage: usage(10, 1), durationMs: 100 });
    const declined = createSessionView();
    applyEvents(declined, [...t.running, ...t.end, ...t.s.take()]);
    const kept = declined.nodes['task:tu-c'];
    assert.ok(kept?.kind === 'task' && kept.retriedBy && kept.retriedBy.taskId === undefined);
    assert.equal(declined.retrying, undefined, 'the run ended: nothing waits for a new task');
  });
});
