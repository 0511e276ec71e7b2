/**
 * Isolated subagents' kept work in the panel (issue 27): the kept-in-worktrees bar lists each child's kept files
 * (a file opens the diff of its kept version), Apply and Discard per child and Apply all post to the host, all by
 * keyboard; a landing's conflicts (file, lines, with whom) and a failed check (who broke it) are said in the bar;
 * everything applied or discarded puts the bar away. Screenshots: test-artifacts/webview/kept-*.png (250 px, dark).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { EventBody } from '../../src/core/events';
import { keptWork } from '../../src/view-model/kept-work';
import { decodeSnapshot, encodeSnapshot } from '../../src/view-model/snapshot-codec';
import { allTasks, applyEvents, createSessionView } from '../../src/view-model/session-view';
import { ARTIFACTS, frames, openPanel, panelSuite, posted, send } from './browser';
import { ROOT, Script } from './fixtures';

const BASE = { commit: 'c'.repeat(40), changes: 'd'.repeat(64), files: 0 };

/** Two isolated children, both kept: "tune retries" changed config.json and added docs; "raise delay" changed config.json. */
function keptSession(): Script {
  const s = new Script();
  s.rootStart('Tune retries and delay, each in its own worktree.');
  s.turn(ROOT, null, 1);
  // As the core sends them: a child's worktree is made (and said) before the child starts.
  s.emit('agent-a', ROOT, { type: 'worktree_created', workdir: '/s/worktrees/agent-a', base: BASE });
  s.taskStart(ROOT, null, 'tu-a', 'agent-a', 'tune retries', 1);
  s.emit('agent-b', ROOT, { type: 'worktree_created', workdir: '/s/worktrees/agent-b', base: BASE });
  s.taskStart(ROOT, null, 'tu-b', 'agent-b', 'raise delay', 1);
  s.childFinish('agent-a', ROOT, 'completed', 2, 2, [900, 90], 'Retries are 5.');
  s.emit('agent-a', ROOT, kept('agent-a', [{ path: 'config.json', status: 'M' }, { path: 'docs/retries.md', status: 'A' }]));
  s.childFinish('agent-b', ROOT, 'completed', 2, 1, [800, 80], 'Delay is 20.');
  s.emit('agent-b', ROOT, kept('agent-b', [{ path: 'config.json', status: 'M' }]));
  s.taskEnd(ROOT, null, 'tu-a', 'Retries are 5.');
  s.taskEnd(ROOT, null, 'tu-b', 'Delay is 20.');
  s.emit(ROOT, null, { type: 'agent_finished', status: 'completed', result: 'done', turns: 1, toolCalls: 2, usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, durationMs: 9 });
  return s;
}

function kept(agentId: string, files: { path: string; status: string }[]): EventBody {
  return { type: 'worktree_kept', base: BASE, snapshot: 's'.repeat(40), files, branch: `delegate/session-/${agentId}`, commit: 'e'.repeat(40), patch: `/s/worktrees/${agentId}.patch`, landCheck: 'npm test' };
}

/** Apply all: the check passed, A landed, B conflicts with A on config.json's line 3. */
const conflictLanding: EventBody = {
  type: 'changes_landed',
  action: 'land',
  outcomes: [
    { agentId: 'agent-a', outcome: 'landed', files: ['config.json', 'docs/retries.md'] },
    { agentId: 'agent-b', outcome: 'conflict', files: ['config.json'], conflicts: [{ path: 'config.json', hunks: [{ line: 3, lines: 3 }], with: ['agent-a'] }] },
  ],
  check: { command: 'npm test', ok: true, output: '' },
};

const failedCheck: EventBody = {
  type: 'changes_landed',
  action: 'land',
  outcomes: [{ agentId: 'agent-b', outcome: 'check_failed', files: ['config.json'] }],
  check: { command: 'npm test', ok: false, output: '1 failing: delay must be < 15', brokenBy: 'agent-b' },
};

const BAR = '.kept-bar';
const child = (agentId: string): string => `${BAR} .kept-bar-child[data-agent="${agentId}"]`;
type PageDoc = { document: { documentElement: { className: string }; activeElement: { dataset?: Record<string, string | undefined> } | null } };
const activeAction = (page: Page): Promise<string | undefined> => page.evaluate(() => (globalThis as unknown as PageDoc).document.activeElement?.dataset?.action);

describe('panel: isolated subagents\' kept work', function () {
  this.timeout(120_000);

  it('the view state holds each child\'s kept files and what landing did (through a packed snapshot too)', () => {
    const s = keptSession();
    const state = createSessionView();
    applyEvents(state, s.take());
    assert.deepEqual(keptWork(state).children.map((c) => [c.agentId, c.description, c.kept.files.map((f) => f.path)]), [
      ['agent-a', 'tune retries', ['config.json', 'docs/retries.md']],
      ['agent-b', 'raise delay', ['config.json']],
    ]);
    assert.deepEqual(keptWork(state).open, ['agent-a', 'agent-b']);
    assert.deepEqual(allTasks(state).map((t) => [t.description, t.status]), [['tune retries', 'completed'], ['raise delay', 'completed']], 'a worktree said before its child started makes no "Subtask" of its own');
    s.emit(ROOT, null, conflictLanding);
    applyEvents(state, s.take());
    const after = keptWork(decodeSnapshot(encodeSnapshot(state)));
    assert.deepEqual(after.open, ['agent-b'], 'a conflict stays open to retry; the landed one is done');
    assert.deepEqual(after.children.map((c) => c.kept.outcome), ['landed', 'conflict']);
    assert.deepEqual(after.children[1]?.kept.conflicts, [{ path: 'config.json', hunks: [{ line: 3, lines: 3 }], with: ['agent-a'] }]);
    assert.equal(after.check?.ok, true);
  });

  describe('in the panel', () => {
    const panel = panelSuite({ pagePerTest: false });
    let page: Page;
    beforeEach(async () => {
      page = await openPanel(panel.browser, undefined, { width: 250, height: 640 });
      await page.evaluate(() => ((globalThis as unknown as PageDoc).document.documentElement.className = 'vscode-dark'));
    });
    afterEach(async () => page.close());

    it('lists each child\'s files; Open diff, Apply, Discard and Apply all post to the host, by mouse and keyboard', async () => {
      const s = keptSession();
      await send(page, { type: 'snapshot', state: createSessionView(), running: false }, { type: 'events', events: s.take() });
      await page.locator(BAR).waitFor({ state: 'visible' });
      assert.equal((await page.locator(`${BAR} .kept-bar-counts`).textContent())?.trim(), '2 subagents · 3 files');
      assert.deepEqual(await page.locator(`${child('agent-a')} .kept-bar-path`).allTextContents(), ['config.json', 'docs/retries.md']);
      assert.deepEqual(await page.locator(`${child('agent-b')} .kept-bar-path`).allTextContents(), ['config.json']);
      assert.equal((await page.locator(`${BAR} .kept-bar-check`).textContent())?.trim(), 'Apply runs `npm test` on the combined changes first');
      await page.screenshot({ path: join(ARTIFACTS, 'kept-bar-250-dark.png') });
      // Nothing wider than the 250 px panel.
      const overflow = await page.locator(BAR).evaluate((e) => e.scrollWidth - e.clientWidth);
      assert.ok(overflow <= 0, `the bar fits a narrow panel (overflow ${overflow}px)`);

      await page.locator(`${child('agent-a')} .kept-bar-path`, { hasText: 'docs/retries.md' }).click();
      await page.locator(`${child('agent-a')} [data-action="apply"]`).click();
      await page.locator(`${child('agent-b')} [data-action="discard"]`).click();
      await page.locator(`${BAR} [data-action="apply-all"]`).click();
      const sent = (await posted(page)).filter((m) => m.type === 'land_agents' || m.type === 'open_kept_diff');
      assert.deepEqual(sent, [
        { type: 'open_kept_diff', agentId: 'agent-a', path: 'docs/retries.md' },
        { type: 'land_agents', agentIds: ['agent-a'], action: 'land' },
        { type: 'land_agents', agentIds: ['agent-b'], action: 'discard' },
        { type: 'land_agents', agentIds: ['agent-a', 'agent-b'], action: 'land' },
      ]);

      // Keyboard: Tab goes from Apply all to the first child's Apply; Enter presses it.
      await page.locator(`${BAR} [data-action="apply-all"]`).focus();
      await page.keyboard.press('Tab');
      assert.equal(await activeAction(page), 'apply');
      await page.keyboard.press('Enter');
      const last = (await posted(page)).filter((m) => m.type === 'land_agents').at(-1);
      assert.deepEqual(last, { type: 'land_agents', agentIds: ['agent-a'], action: 'land' });
    });

    it('says a conflict (file, lines, with whom) and a failed check (who broke it); all settled, the bar goes', async () => {
      const s = keptSession();
      await send(page, { type: 'snapshot', state: createSessionView(), running: false }, { type: 'events', events: s.take() });
      s.emit(ROOT, null, conflictLanding);
      await send(page, { type: 'events', events: s.take() });
      assert.equal(await page.locator(child('agent-a')).getAttribute('data-outcome'), 'landed');
      assert.equal((await page.locator(`${child('agent-a')} .kept-bar-state`).textContent())?.trim(), 'applied');
      assert.equal(await page.locator(`${child('agent-a')} [data-action="apply"]`).count(), 0, 'a landed child has no Apply');
      assert.equal((await page.locator(`${child('agent-b')} .kept-bar-conflict`).textContent())?.trim(), 'config.json: lines 3-5 meets "tune retries"');
      assert.match((await page.locator(`${BAR} .kept-bar-check`).textContent()) ?? '', /Check `npm test` passed on the combined changes/);
      assert.equal((await page.locator(`${BAR} .kept-bar-counts`).textContent())?.trim(), '1 subagent · 1 file');
      // The conversation keeps what was done (the bar goes once all is decided).
      assert.equal(await page.locator('.notice', { hasText: 'Applied the kept changes of "tune retries"; "raise delay" not applied: config.json lines 3-5 meets "tune retries"; the check `npm test` passed.' }).count(), 1);

      s.emit(ROOT, null, failedCheck);
      await send(page, { type: 'events', events: s.take() });
      assert.match((await page.locator(`${BAR} .kept-bar-check`).textContent()) ?? '', /Check `npm test` failed on the combined changes: broken by "raise delay"; nothing applied/);
      assert.equal(await page.locator(`${BAR} .kept-bar-check`).getAttribute('title'), '1 failing: delay must be < 15');
      assert.equal((await page.locator(`${child('agent-b')} .kept-bar-state`).textContent())?.trim(), 'check failed: nothing applied');
      await page.screenshot({ path: join(ARTIFACTS, 'kept-bar-check-failed-250-dark.png') });

      // Hidden while a run goes on.
      await send(page, { type: 'status', running: true });
      assert.equal(await page.locator(BAR).isVisible(), false);
      await send(page, { type: 'status', running: false });
      await frames(page, 2);
      assert.equal(await page.locator(BAR).isVisible(), true);

      s.emit(ROOT, null, { type: 'changes_landed', action: 'discard', outcomes: [{ agentId: 'agent-b', outcome: 'discarded', files: [] }] });
      await send(page, { type: 'events', events: s.take() });
      assert.equal(await page.locator(BAR).isVisible(), false, 'nothing left to decide');
    });
  });
});
