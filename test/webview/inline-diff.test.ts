/**
 * Seeing what changed (issue 15 §3): a write/edit row shows "+a −b", its detail the red/green hunks (the hunk
 * text made by the core's changeDiff, as the tracker sends it), an Open diff button the keyboard reaches; and
 * once the run has ended, one "N files changed" bar with Review, Keep and Revert. Screenshots in
 * test-artifacts/webview/inline-diff*.png and changes-bar*.png.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { changeDiff } from '../../src/core/changes/line-diff';
import { createSessionView } from '../../src/view-model/session-view';
import { applyEvents } from '../../src/view-model/session-view';
import { runChanges } from '../../src/view-model/run-changes';
import { ARTIFACTS, openPanel, panelSuite, posted, savedState, send } from './browser';
import { ROOT, Script } from './fixtures';
import { item } from './tree-dom';
import { callEnded } from '../kit/call-patches';

const HASH = (c: string): string => c.repeat(64);

const BEFORE = ['// Retry settings', "import { env } from './env';", '', 'export const retries = 3;', 'export const delayMs = 100;', ''].join('\n');
const AFTER = BEFORE.replace('retries = 3', 'retries = 5');
const CREATED = ["import { retries } from '../src/config';", '', "it('retries five times', () => expect(retries).toBe(5));", ''].join('\n');

function fileChanged(s: Script, agentId: string, parent: string | null, toolUseId: string, path: string, before: string | undefined, after: string, hashes: [string | undefined, string]): void {
  const d = changeDiff(before ?? '', after);
  s.emit(agentId, parent, {
    type: 'file_changed', toolUseId, path, action: before === undefined ? 'created' : 'modified',
    ...(hashes[0] ? { before: hashes[0] } : {}), after: hashes[1], added: d.added, removed: d.removed, ...(d.hunks ? { diff: d.hunks } : {}),
  });
}

/** A subagent edits one file and creates a test; the main agent then edits the README itself. */
function editSession(finish = true): Script {
  const s = new Script();
  s.rootStart('Raise the retries to 5 and cover it with a test.');
  s.turn(ROOT, null, 1);
  s.taskStart(ROOT, null, 'tu-a', 'agent-a', 'raise retries', 1);
  s.turn('agent-a', ROOT, 1);
  s.tool('agent-a', ROOT, 'a1', 'read_file', { path: 'src/config.ts' }, BEFORE);
  s.open('agent-a', ROOT, 'a2', 'edit_file', { path: 'src/config.ts', old_text: 'retries = 3', new_text: 'retries = 5' });
  fileChanged(s, 'agent-a', ROOT, 'a2', 'src/config.ts', BEFORE, AFTER, [HASH('1'), HASH('2')]);
  s.emit('agent-a', ROOT, callEnded('a2', 'edit_file', 'Edited src/config.ts at line 4', false, 12));
  s.open('agent-a', ROOT, 'a3', 'write_file', { path: 'test/config.test.ts', content: CREATED });
  fileChanged(s, 'agent-a', ROOT, 'a3', 'test/config.test.ts', undefined, CREATED, [undefined, HASH('3')]);
  s.emit('agent-a', ROOT, callEnded('a3', 'write_file', 'Created test/config.test.ts', false, 9));
  s.childFinish('agent-a', ROOT, 'completed', 2, 3, [9000, 900], 'Retries raised to 5; a test covers it.');
  s.emit('agent-a', ROOT, {
    type: 'change_manifest',
    files: [
      { path: 'src/config.ts', action: 'modified', added: 1, removed: 1, before: HASH('1'), after: HASH('2') },
      { path: 'test/config.test.ts', action: 'created', added: 3, removed: 0, after: HASH('3') },
    ],
    commands: [],
  });
  s.taskEnd(ROOT, null, 'tu-a', 'Retries raised to 5.');
  s.turn(ROOT, null, 2);
  s.open(ROOT, null, 'r1', 'edit_file', { path: 'README.md', old_text: 'three', new_text: 'five' });
  fileChanged(s, ROOT, null, 'r1', 'README.md', 'Retries: three.\n', 'Retries: five.\n', [HASH('4'), HASH('5')]);
  s.emit(ROOT, null, callEnded('r1', 'edit_file', 'Edited README.md', false, 5));
  if (finish) {
    s.rootText(2, 'Done: retries are 5, tested, and the README says so.');
    s.emit(ROOT, null, { type: 'agent_finished', status: 'completed', result: 'done', turns: 2, toolCalls: 2, usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, durationMs: 9 });
  }
  return s;
}

describe('seeing what changed', () => {
  it('the view keeps each change\'s counts and hunks; the run\'s changes are its files, its revertible subagents and the main agent\'s own', () => {
    const state = createSessionView();
    applyEvents(state, editSession().events);
    const edit = state.nodes['tool:a2'];
    assert.ok(edit?.kind === 'tool' && edit.change);
    assert.deepEqual([edit.change.added, edit.change.removed], [1, 1]);
    assert.equal(edit.change.diff, ['@@ -1,5 +1,5 @@', ' // Retry settings', " import { env } from './env';", ' ', '-export const retries = 3;', '+export const retries = 5;', ' export const delayMs = 100;'].join('\n'));
    const run = runChanges(state);
    assert.deepEqual(run.files.map((f) => [f.path, f.added, f.removed, f.before?.[0], f.after?.[0]]), [
      ['src/config.ts', 1, 1, '1', '2'],
      ['test/config.test.ts', 3, 0, undefined, '3'],
      ['README.md', 1, 1, '4', '5'],
    ]);
    assert.deepEqual(run.revertible, [{ agentId: 'agent-a', description: 'raise retries', files: 2 }]);
    assert.equal(run.byMainAgent, 1);
    // Once the subagent's changes are reverted, the run's bar counts only the main agent's file.
    const s = editSession();
    s.emit(ROOT, null, { type: 'changes_reverted', target: 'agent-a', files: [{ path: 'src/config.ts', outcome: 'restored' }, { path: 'test/config.test.ts', outcome: 'deleted' }], commands: [] });
    const reverted = createSessionView();
    applyEvents(reverted, s.events);
    assert.deepEqual(runChanges(reverted).files.map((f) => f.path), ['README.md']);
    assert.deepEqual(runChanges(reverted).revertible, []);
  });

  describe('in the panel (headless Chromium)', function () {
    this.timeout(60_000);
    const panel = panelSuite({ size: { width: 420, height: 760 } });

    it('an edit row: "+1 −1", the hunks in its detail (input JSON folded away), Open diff by keyboard', async () => {
      await send(panel.page, { type: 'snapshot', state: createSessionView(), running: false }, { type: 'events', events: editSession().take() });
      await panel.page.locator(`${item('task:tu-a')} > .task-text .task-title`).click();
      const edit = panel.page.locator(item('tool:a2'));
      await edit.waitFor();
      assert.equal((await edit.locator('.row-change-counts').innerText()).trim(), '+1 −1');
      assert.equal((await panel.page.locator(`${item('tool:a3')} .row-change-counts`).innerText()).trim(), '+3');
      assert.equal(await panel.page.locator(`${item('tool:a1')} .row-change-counts`).count(), 0, 'a read has no counts');
      // A refused or failed write has nothing to diff: no button.
      assert.equal(await panel.page.locator(`${item('tool:a2')} .row-diff`).isVisible(), true);

      // Keyboard: focus the row, Tab reaches its Open diff, Enter opens it; the row does not fold or unfold.
      await edit.focus();
      await panel.page.keyboard.press('Tab');
      assert.equal(await panel.page.evaluate(() => (globalThis as unknown as { document: { activeElement: { className: string } | null } }).document.activeElement?.className), 'row-diff');
      await panel.page.keyboard.press('Enter');
      assert.deepEqual((await posted(panel.page)).at(-1), { type: 'open_diff', agentId: 'agent-a', toolUseId: 'a2' });
      assert.equal(await edit.getAttribute('aria-expanded'), 'false');

      await edit.locator('.tool-name').click();
      const detail = panel.page.locator(item('detail:tool:a2'));
      const view = detail.locator('.diff-view');
      await view.waitFor();
      assert.deepEqual(await view.locator('.diff-del .diff-text').allInnerTexts(), ['export const retries = 3;']);
      assert.deepEqual(await view.locator('.diff-add .diff-text').allInnerTexts(), ['export const retries = 5;']);
      assert.deepEqual(await view.locator('.diff-add .diff-no').allInnerTexts(), ['', '4'], 'the new line number');
      assert.equal(await detail.locator('details.detail-raw').getAttribute('open'), null, 'the raw input is one click away');
      assert.equal(await detail.locator('.detail-raw pre').isVisible(), false);
      await detail.locator('.detail-change .diff-open').click();
      assert.deepEqual((await posted(panel.page)).at(-1), { type: 'open_diff', agentId: 'agent-a', toolUseId: 'a2' });
      await panel.page.waitForTimeout(200); // codicon font
      await panel.page.screenshot({ path: join(ARTIFACTS, 'inline-diff.png') });
      await panel.page.evaluate(() => (globalThis as unknown as { document: { documentElement: { className: string } } }).document.documentElement.className = 'vscode-light');
      await panel.page.waitForTimeout(100);
      await panel.page.screenshot({ path: join(ARTIFACTS, 'inline-diff-light.png') });
    });

    it('the run\'s end: one "3 files changed" bar with Review, Keep and Revert (none while it runs); each file with its own diff, Keep and Undo', async () => {
      const s = editSession(false);
      await send(panel.page, { type: 'snapshot', state: createSessionView(), running: true }, { type: 'events', events: s.take() });
      const bar = panel.page.locator('.changes-bar');
      assert.equal(await bar.isVisible(), false, 'not while the run goes on');
      s.rootText(2, 'Done: retries are 5, tested, and the README says so.');
      s.emit(ROOT, null, { type: 'agent_finished', status: 'completed', result: 'done', turns: 2, toolCalls: 2, usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, durationMs: 9 });
      await send(panel.page, { type: 'events', events: s.take() }, { type: 'status', running: false });
      await bar.waitFor();
      assert.equal(await bar.locator('.changes-bar-label').innerText(), '3 files changed');
      assert.equal(await bar.locator('.changes-bar-counts').innerText(), '+5 −2');
      assert.match(await bar.locator('.changes-bar-note').innerText(), /1 file changed by the main agent itself/);
      await panel.page.waitForTimeout(200);
      await panel.page.screenshot({ path: join(ARTIFACTS, 'changes-bar.png') });
      await bar.locator('[data-action="review"]').click();
      await bar.locator('[data-action="revert"]').click();
      assert.deepEqual((await posted(panel.page)).slice(-2), [{ type: 'review_changes', kept: [] }, { type: 'revert_agents', agentIds: ['agent-a'] }]);

      // The files, one row each: the name opens its diff, Undo puts that file back, Keep puts it away.
      const toggle = bar.locator('.changes-bar-toggle');
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      await toggle.click();
      assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
      const rows = bar.locator('.changes-bar-file');
      assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-file')} ${e.querySelector('.changes-bar-file-counts')?.textContent}`)), ['src/config.ts +1 −1', 'test/config.test.ts +3', 'README.md +1 −1']);
      await rows.filter({ hasText: 'test/config.test.ts' }).locator('.changes-bar-path').click();
      await rows.filter({ hasText: 'src/config.ts' }).locator('[data-action="undo-file"]').click();
      assert.deepEqual((await posted(panel.page)).slice(-2), [
        { type: 'review_changes', kept: [], path: 'test/config.test.ts' },
        { type: 'revert_agents', agentIds: ['agent-a'], paths: ['src/config.ts'] },
      ]);
      assert.equal(await rows.filter({ hasText: 'README.md' }).locator('[data-action="undo-file"]').isDisabled(), true, 'the main agent\'s own file cannot be undone');
      await panel.page.waitForTimeout(100);
      await panel.page.screenshot({ path: join(ARTIFACTS, 'changes-bar-files.png') });
      await rows.filter({ hasText: 'README.md' }).locator('[data-action="keep-file"]').click();
      assert.equal(await bar.locator('.changes-bar-label').innerText(), '2 files changed');
      assert.equal(await bar.locator('.changes-bar-note').isVisible(), false);

      // A Retry that changed nothing does not drop the earlier run's bar: it stays until Keep or Revert.
      s.rootStart('Retry: raise retries');
      await send(panel.page, { type: 'events', events: s.take() }, { type: 'status', running: true });
      assert.equal(await bar.isVisible(), false, 'hidden while the retry runs');
      s.turn(ROOT, null, 3);
      s.rootText(3, 'Nothing more to change.');
      s.emit(ROOT, null, { type: 'agent_finished', status: 'completed', result: 'done', turns: 1, toolCalls: 0, usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, durationMs: 9 });
      await send(panel.page, { type: 'events', events: s.take() }, { type: 'status', running: false });
      await bar.waitFor();
      assert.equal(await bar.locator('.changes-bar-label').innerText(), '2 files changed');
      await bar.locator('[data-action="review"]').click();
      const review = (await posted(panel.page)).at(-1);
      assert.ok(review?.type === 'review_changes' && review.kept?.length === 1 && review.kept[0]?.endsWith('\nREADME.md'), 'the host leaves the kept file out too');

      await bar.locator('[data-action="keep"]').click();
      assert.equal(await bar.isVisible(), false, 'Keep puts it away');
      // Kept stays kept after the panel reloads (saved with the webview state).
      const reloaded = await openPanel(panel.browser, await savedState(panel.page), { width: 420, height: 760 });
      try {
        await send(reloaded, { type: 'snapshot', state: (() => { const st = createSessionView(); applyEvents(st, s.events); return st; })(), running: false });
        await reloaded.waitForTimeout(400);
        assert.equal(await reloaded.locator('.changes-bar').isVisible(), false);
      } finally {
        await reloaded.close();
      }
      // The next run (a new prompt) starts with no bar.
      s.rootStart('And the delay?');
      await send(panel.page, { type: 'events', events: s.take() }, { type: 'status', running: true });
      assert.equal(await bar.isVisible(), false);
    });
  });
});
