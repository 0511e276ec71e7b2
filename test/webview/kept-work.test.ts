/**
 * Isolated subagents' kept work in the panel (issue 27): the kept-in-worktrees bar lists each child's kept files
 * (a file opens the diff of its kept version), Apply and Discard per child and Apply all post to the host, all by
 * keyboard; a landing's conflicts (file, lines, with whom) and a failed check (who broke it) are said in the bar;
 * everything applied or discarded puts the bar away. Resolve, only on a child whose landing conflicted, posts to the
 * host, is busy while its resolver runs (the bar stays), says a failure in one line, and the resolver's kept changes
 * then stand in for the child's with their own Apply. Screenshots: test-artifacts/webview/kept-*.png (250 px, dark).
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

/** A resolver of agent-b's conflicts, started by the panel's Resolve (session.land: no task call of its own), kept. */
function resolverRuns(s: Script): void {
  s.emit('agent-r', ROOT, { type: 'worktree_created', workdir: '/s/worktrees/agent-r', base: BASE });
  s.emit('agent-r', ROOT, { type: 'agent_started', prompt: "Subagent agent-b's changes could not land in the user's folder.", description: "resolve agent-b's conflicts", depth: 1, model: 'claude-sonnet', toolUseId: 'land:1' });
}
function resolverKept(s: Script): void {
  s.childFinish('agent-r', ROOT, 'completed', 2, 2, [700, 70], 'Kept both: retries 5, delay 20.');
  s.emit('agent-r', ROOT, { ...kept('agent-r', [{ path: 'config.json', status: 'M' }]), resolves: 'agent-b' } as EventBody);
}

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

  it('a resolver\'s kept changes stand in for the child it resolves; discarded, the child is open again', () => {
    const s = keptSession();
    s.emit(ROOT, null, conflictLanding);
    resolverRuns(s);
    resolverKept(s);
    const state = createSessionView();
    applyEvents(state, s.take());
    const view = keptWork(decodeSnapshot(encodeSnapshot(state)));
    assert.deepEqual(view.open, ['agent-r'], 'the resolver lands instead of the child');
    assert.equal(view.children.find((c) => c.agentId === 'agent-b')?.resolvedBy, 'agent-r');
    assert.equal(view.children.find((c) => c.agentId === 'agent-r')?.kept.resolves, 'agent-b');
    s.emit(ROOT, null, { type: 'changes_landed', action: 'discard', outcomes: [{ agentId: 'agent-r', outcome: 'discarded', files: [] }] });
    applyEvents(state, s.take());
    assert.deepEqual(keptWork(state).open, ['agent-b'], 'the conflict is the user\'s again');
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

    it('Resolve: only on a conflict, named for what it does; busy while its resolver runs; a failure in one line; the resolver\'s changes then wait with Apply', async () => {
      const s = keptSession();
      await send(page, { type: 'snapshot', state: createSessionView(), running: false }, { type: 'events', events: s.take() });
      assert.equal(await page.locator(`${BAR} [data-action="resolve"]`).count(), 0, 'no Resolve before a landing conflicted');
      s.emit(ROOT, null, conflictLanding);
      await send(page, { type: 'events', events: s.take() });
      const resolve = page.locator(`${child('agent-b')} [data-action="resolve"]`);
      assert.equal(await page.locator(`${BAR} [data-action="resolve"]`).count(), 1, 'only the conflicting child has it');
      assert.equal(await resolve.getAttribute('aria-label'), 'Resolve conflicts of "raise delay" with a subagent');
      await page.screenshot({ path: join(ARTIFACTS, 'kept-resolve-250-dark.png') });
      const overflow = await page.locator(BAR).evaluate((e) => e.scrollWidth - e.clientWidth);
      assert.ok(overflow <= 0, `the bar fits a narrow panel (overflow ${overflow}px)`);

      // Keyboard: Tab reaches it from the child's name row's neighbours; Enter presses it.
      await page.locator(`${BAR} [data-action="apply-all"]`).focus();
      await page.keyboard.press('Tab');
      assert.equal(await activeAction(page), 'resolve');
      await page.keyboard.press('Enter');
      const resolves = async (): Promise<unknown[]> => (await posted(page)).filter((m) => m.type === 'resolve_agent');
      assert.deepEqual(await resolves(), [{ type: 'resolve_agent', agentId: 'agent-b' }]);

      // Busy at once: the host's run starts, the bar stays (Apply and Discard disabled), a second press sends nothing.
      await send(page, { type: 'kept_resolve', agentId: 'agent-b', state: 'running' }, { type: 'status', running: true });
      resolverRuns(s);
      await send(page, { type: 'events', events: s.take() });
      assert.equal(await page.locator(BAR).isVisible(), true, 'a resolve keeps the bar');
      assert.equal((await resolve.textContent())?.trim(), 'Resolving…');
      assert.equal(await resolve.getAttribute('aria-busy'), 'true');
      assert.equal(await resolve.getAttribute('aria-disabled'), 'true');
      assert.equal(await activeAction(page), 'resolve', 'the focus stays on it');
      assert.equal(await page.locator(`${child('agent-b')} [data-action="apply"]`).getAttribute('aria-disabled'), 'true');
      await page.keyboard.press('Space');
      // aria-disabled (focusable): a click still reaches it and must do nothing.
      await resolve.click({ force: true });
      await page.locator(`${child('agent-b')} [data-action="apply"]`).click({ force: true });
      assert.equal((await resolves()).length, 1, 'busy: pressed again, nothing is sent');
      assert.equal((await posted(page)).filter((m) => m.type === 'land_agents').length, 0, 'Apply waits for the run\'s end');
      assert.equal(await page.getByText("resolve agent-b's conflicts", { exact: true }).count(), 1, 'the resolver shows in the task tree');
      await page.screenshot({ path: join(ARTIFACTS, 'kept-resolving-250-dark.png') });

      // It failed: one line says why; Resolve is offered again.
      s.childFinish('agent-r', ROOT, 'error', 1, 0, [10, 1], '', 'the model refused');
      await send(page, { type: 'events', events: s.take() }, { type: 'status', running: false }, { type: 'kept_resolve', agentId: 'agent-b', state: 'failed', reason: 'the resolver failed: the model refused' });
      assert.equal((await page.locator(`${child('agent-b')} .kept-bar-resolve-failed`).textContent())?.trim(), 'Resolve failed: the resolver failed: the model refused');
      assert.equal((await resolve.textContent())?.trim(), 'Resolve');
      assert.equal(await resolve.getAttribute('aria-disabled'), null);
      await page.screenshot({ path: join(ARTIFACTS, 'kept-resolve-failed-250-dark.png') });

      // Again, by Space; this time the resolver keeps its changes: they stand in for the child's, with Apply.
      await resolve.focus();
      await page.keyboard.press('Space');
      assert.equal((await resolves()).length, 2);
      assert.equal(await page.locator(`${child('agent-b')} .kept-bar-resolve-failed`).count(), 0, 'the old reason goes with the new try');
      await send(page, { type: 'status', running: true });
      resolverKept(s);
      await send(page, { type: 'events', events: s.take() }, { type: 'status', running: false }, { type: 'kept_resolve', agentId: 'agent-b', state: 'done' });
      assert.equal((await page.locator(`${child('agent-b')} .kept-bar-state`).textContent())?.trim(), 'handed to a resolver');
      assert.equal(await page.locator(`${child('agent-b')} [data-action]`).count(), 0, 'the child waits on its resolver');
      assert.equal((await page.locator(`${child('agent-r')} .kept-bar-state`).textContent())?.trim(), '1 file · for "raise delay"');
      await page.locator(`${child('agent-r')} [data-action="apply"]`).click();
      assert.deepEqual((await posted(page)).filter((m) => m.type === 'land_agents').at(-1), { type: 'land_agents', agentIds: ['agent-r'], action: 'land' });
      await page.screenshot({ path: join(ARTIFACTS, 'kept-resolved-250-dark.png') });
      const overflowAfter = await page.locator(BAR).evaluate((e) => e.scrollWidth - e.clientWidth);
      assert.ok(overflowAfter <= 0, `the bar fits a narrow panel (overflow ${overflowAfter}px)`);
      const clipped = await page.locator(`${BAR} .kept-bar-state`).evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth).length);
      assert.equal(clipped, 0, 'no state word is cut off');

      // The resolver's own result refused (a marker left): no Resolve of a resolver; its Discard gives the child back.
      s.emit(ROOT, null, { type: 'changes_landed', action: 'land', outcomes: [{ agentId: 'agent-r', outcome: 'conflict', files: ['config.json'], conflicts: [{ path: 'config.json', hunks: [{ line: 2, lines: 1 }], with: ['a conflict marker the resolver left'] }] }] });
      await send(page, { type: 'events', events: s.take() });
      assert.equal(await page.locator(`${child('agent-r')} [data-action="resolve"]`).count(), 0);
      assert.equal(await page.locator(`${child('agent-r')} [data-action="discard"]`).count(), 1);
      s.emit(ROOT, null, { type: 'changes_landed', action: 'discard', outcomes: [{ agentId: 'agent-r', outcome: 'discarded', files: [] }] });
      await send(page, { type: 'events', events: s.take() });
      assert.equal(await page.locator(`${child('agent-b')} [data-action="resolve"]`).count(), 1, 'the child\'s conflict is the user\'s again');
    });
  });
});
