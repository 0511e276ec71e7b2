/**
 * Several subagents in one folder, as the panel shows it: a stale write refused (the tool row says
 * "stale"), a finished task's Changes row (files with line counts, commands with exit codes, the
 * Revert action) and what a revert did, live and in a session rebuilt from its events. Screenshots in
 * test-artifacts/webview/changes-*.png.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { toolStateLabel, toolStateTitle } from '../../src/view-model/format';
import { notReadMessage, staleMessage } from '../../src/core/changes/stale-guard';
import { decodeSnapshot, encodeSnapshot } from '../../src/view-model/snapshot-codec';
import { applyEvents, createSessionView, type SessionViewState, type ToolCallNode } from '../../src/view-model/session-view';
import { ARTIFACTS, posted, send, panelSuite } from './browser';
import { ROOT, Script } from './fixtures';
import { childIds, item } from './tree-dom';

const HASH = (c: string): string => c.repeat(64);
const STALE = 'Refused: src/config.ts changed since you last read it: the subagent "raise retries" (agent-a) changed it. Read it again with read_file, then redo your edit on the current content.';

/** Two parallel subagents on one file: A edits it and adds a test, B's edit is refused as stale. */
function changesSession(): Script {
  const s = new Script();
  s.rootStart('Tune the retry settings and cover them with a test.');
  s.turn(ROOT, null, 1);
  s.taskStart(ROOT, null, 'tu-a', 'agent-a', 'raise retries', 1);
  s.taskStart(ROOT, null, 'tu-b', 'agent-b', 'raise delay', 1);
  s.turn('agent-a', ROOT, 1);
  s.turn('agent-b', ROOT, 1);
  s.tool('agent-a', ROOT, 'a1', 'read_file', { path: 'src/config.ts' }, 'export const retries = 3;');
  s.tool('agent-b', ROOT, 'b1', 'read_file', { path: 'src/config.ts' }, 'export const retries = 3;');
  s.tool('agent-a', ROOT, 'a2', 'edit_file', { path: 'src/config.ts', old_text: 'retries = 3', new_text: 'retries = 5' }, 'Edited src/config.ts at line 1');
  s.emit('agent-a', ROOT, { type: 'file_changed', toolUseId: 'a2', path: 'src/config.ts', action: 'modified', before: HASH('1'), after: HASH('2'), added: 3, removed: 1 });
  s.tool('agent-b', ROOT, 'b2', 'edit_file', { path: 'src/config.ts', old_text: 'delay = 10', new_text: 'delay = 20' }, STALE, true);
  s.tool('agent-a', ROOT, 'a3', 'write_file', { path: 'test/config.test.ts', content: '…' }, 'Created test/config.test.ts');
  s.emit('agent-a', ROOT, { type: 'file_changed', toolUseId: 'a3', path: 'test/config.test.ts', action: 'created', after: HASH('3'), added: 40, removed: 0 });
  s.tool('agent-a', ROOT, 'a4', 'bash', { command: 'npm test' }, '1 failing\n[exit code 1]', true);
  s.childFinish('agent-a', ROOT, 'completed', 4, 4, [9000, 900], 'Retries raised to 5; a test covers it (it fails until the delay is fixed).');
  s.emit('agent-a', ROOT, {
    type: 'change_manifest',
    files: [
      { path: 'src/config.ts', action: 'modified', added: 3, removed: 1, before: HASH('1'), after: HASH('2') },
      { path: 'test/config.test.ts', action: 'created', added: 40, removed: 0, after: HASH('3') },
    ],
    commands: [{ command: 'npm test', exit_code: 1 }],
  });
  s.childFinish('agent-b', ROOT, 'completed', 3, 2, [4000, 300], 'My edit was refused: the file changed under me.');
  s.emit('agent-b', ROOT, { type: 'change_manifest', files: [], commands: [] });
  s.taskEnd(ROOT, null, 'tu-a', 'Retries raised to 5.\n\n[changes] modified src/config.ts (+3 -1); created test/config.test.ts (+40); ran `npm test` (exit 1)');
  s.taskEnd(ROOT, null, 'tu-b', 'My edit was refused.\n\n[changes] none');
  s.turn(ROOT, null, 2);
  s.rootText(2, 'Retries are at 5; the delay change must be redone on the current file.');
  s.emit(ROOT, null, { type: 'agent_finished', status: 'completed', result: 'done', turns: 2, toolCalls: 2, usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }, durationMs: 9 });
  return s;
}

function revertEvent(s: Script): void {
  s.emit(ROOT, null, {
    type: 'changes_reverted',
    target: 'agent-a',
    files: [
      { path: 'src/config.ts', outcome: 'refused', reason: 'it was changed since by someone else', from: HASH('4'), expected: HASH('2') },
      { path: 'test/config.test.ts', outcome: 'deleted', from: HASH('3') },
    ],
    commands: ['npm test'],
  });
}

/** Two children whose commands overlapped: gen.ts neither named is shared; a.txt is A's own (its command named it). */
function sharedSession(): Script {
  const s = new Script();
  s.rootStart('Build and document.');
  s.turn(ROOT, null, 1);
  s.taskStart(ROOT, null, 'tu-a', 'agent-a', 'build', 1);
  s.taskStart(ROOT, null, 'tu-b', 'agent-b', 'document', 1);
  const cause = (agentId: string, toolUseId: string, command: string): { agentId: string; toolUseId: string; tool: string; command: string } => ({ agentId, toolUseId, tool: 'bash', command });
  const a = cause('agent-a', 'a1', 'sleep 1; echo a > a.txt');
  const b = cause('agent-b', 'b1', 'node write-docs.js');
  s.tool('agent-a', ROOT, 'a1', 'bash', { command: a.command }, '');
  s.tool('agent-b', ROOT, 'b1', 'bash', { command: b.command }, '');
  s.childFinish('agent-b', ROOT, 'completed', 1, 1, [100, 10], 'Documented.');
  s.emit('agent-b', ROOT, { type: 'change_manifest', files: [{ path: 'gen.ts', action: 'created', added: 9, removed: 0, after: HASH('7'), by: [a, b], sharedWith: [a] }], commands: [{ command: b.command, exit_code: 0 }] });
  s.childFinish('agent-a', ROOT, 'completed', 1, 1, [100, 10], 'Built.');
  s.emit('agent-a', ROOT, {
    type: 'change_manifest',
    files: [
      { path: 'a.txt', action: 'created', added: 1, removed: 0, after: HASH('8'), by: [a] },
      { path: 'gen.ts', action: 'created', added: 9, removed: 0, after: HASH('7'), by: [a, b], sharedWith: [b] },
    ],
    commands: [{ command: a.command, exit_code: 0 }],
  });
  s.taskEnd(ROOT, null, 'tu-a', 'Built.');
  s.taskEnd(ROOT, null, 'tu-b', 'Documented.');
  return s;
}

function viewOf(s: Script): SessionViewState {
  const state = createSessionView();
  applyEvents(state, s.events);
  return state;
}

describe('several subagents in one folder: the view', () => {
  it('a write refused because the agent never read the file says "not read", not "stale"; both survive the packed snapshot', () => {
    const s = new Script();
    s.rootStart('Write two files.');
    s.tool(ROOT, null, 'w1', 'write_file', { path: 'a.txt' }, notReadMessage('a.txt', 'write', undefined), true);
    s.tool(ROOT, null, 'w2', 'edit_file', { path: 'b.txt' }, staleMessage('b.txt', 'edit', 'the subagent "x"'), true);
    s.tool(ROOT, null, 'w3', 'write_file', { path: 'c.txt' }, 'Error: EACCES: permission denied', true);
    const state = viewOf(s);
    const labels = (st: typeof state): string[] => ['tool:w1', 'tool:w2', 'tool:w3'].map((id) => toolStateLabel(st.nodes[id] as ToolCallNode));
    assert.deepEqual(labels(state), ['not read', 'stale', 'error']);
    assert.deepEqual(labels(decodeSnapshot(encodeSnapshot(state))), ['not read', 'stale', 'error'], 'the slim snapshot has no output to read the words from');
    assert.equal(toolStateTitle(state.nodes['tool:w1'] as ToolCallNode), 'refused: the agent had not read the file before writing it');
  });

  it('a finished task holds its manifest; a refused stale write is a "stale" row; a revert marks the files and leaves a notice', () => {
    const s = changesSession();
    const state = viewOf(s);
    const a = state.nodes['task:tu-a'];
    assert.ok(a?.kind === 'task');
    assert.deepEqual(a.changes?.files.map((f) => [f.path, f.action, f.added, f.removed]), [
      ['src/config.ts', 'modified', 3, 1],
      ['test/config.test.ts', 'created', 40, 0],
    ]);
    assert.deepEqual(a.changes?.commands, [{ command: 'npm test', exit_code: 1 }]);
    const b = state.nodes['task:tu-b'];
    assert.deepEqual(b?.kind === 'task' && b.changes, { files: [], commands: [] });
    assert.equal(toolStateLabel(state.nodes['tool:b2'] as ToolCallNode), 'stale');
    assert.equal(toolStateLabel(state.nodes['tool:a4'] as ToolCallNode), 'error');
    // Each write/edit row knows its change (the row's diff), a refused one none.
    assert.deepEqual((state.nodes['tool:a2'] as ToolCallNode).change, { path: 'src/config.ts', before: HASH('1'), after: HASH('2'), added: 3, removed: 1 });
    assert.deepEqual((state.nodes['tool:a3'] as ToolCallNode).change, { path: 'test/config.test.ts', after: HASH('3'), added: 40, removed: 0 });
    assert.equal((state.nodes['tool:b2'] as ToolCallNode).change, undefined);

    revertEvent(s);
    const reopened = viewOf(s);
    const reverted = reopened.nodes['task:tu-a'];
    assert.ok(reverted?.kind === 'task' && reverted.changes);
    assert.equal(reverted.changes.reverted, true);
    assert.deepEqual(reverted.changes.files.map((f) => [f.path, f.revert?.outcome]), [['src/config.ts', 'refused'], ['test/config.test.ts', 'deleted']]);
    const notice = reopened.nodes[reopened.items.at(-1) ?? ''];
    assert.ok(notice?.kind === 'notice');
    assert.equal(notice.level, 'warning');
    assert.equal(notice.text, 'Reverted the changes of "raise retries": 1 file put back, 1 refused (changed since by someone else). Commands are not undone: `npm test`.');
  });

  it('a revert that skipped a shared file: the file is marked skipped, the notice counts it', () => {
    const s = sharedSession();
    s.emit(ROOT, null, {
      type: 'changes_reverted',
      target: 'agent-a',
      files: [
        { path: 'a.txt', outcome: 'deleted', from: HASH('8') },
        { path: 'gen.ts', outcome: 'skipped', reason: 'shared: `node write-docs.js` of the subagent "document" (agent-b) ran at the same time and may have changed it' },
      ],
      commands: [],
    });
    const state = viewOf(s);
    const a = state.nodes['task:tu-a'];
    assert.ok(a?.kind === 'task');
    assert.deepEqual(a.changes?.files.map((f) => [f.path, f.revert?.outcome]), [['a.txt', 'deleted'], ['gen.ts', 'skipped']]);
    const notice = state.nodes[state.items.at(-1) ?? ''];
    assert.ok(notice?.kind === 'notice');
    assert.equal(notice.text, 'Reverted the changes of "build": 1 file put back, 1 skipped (shared with another agent\'s call).');
  });

  describe('in the panel (headless Chromium)', function () {
    this.timeout(60_000);
    const panel = panelSuite({ size: { width: 480, height: 760 } });

    it('shows the stale refusal, the Changes row (files open their diff, Revert asks the host) and then what the revert did', async () => {
      const s = changesSession();
      const events = s.take();
      await send(panel.page, { type: 'snapshot', state: createSessionView(), running: false }, { type: 'events', events });
      // Task B: its refused edit reads "stale", and its output names who changed the file.
      const b = panel.page.locator(item('task:tu-b'));
      await b.locator(':scope > .task-text .task-title').click();
      const stale = panel.page.locator(item('tool:b2'));
      await stale.waitFor();
      assert.equal((await stale.locator('.row-state').first().textContent())?.trim(), 'stale');
      assert.equal(await stale.locator('.row-diff').isVisible(), false, 'a refused edit has no diff to open');
      await stale.locator('.tool-name').click();
      await panel.page.locator('.detail-output.is-error', { hasText: 'changed it. Read it again' }).waitFor();
      await panel.page.waitForTimeout(200); // codicon font
      await panel.page.screenshot({ path: join(ARTIFACTS, 'changes-stale-refusal.png') });
      await b.locator(':scope > .task-text .task-title').click();

      // Task A: its Changes row sits between the calls and the result, collapsed, with the Revert action.
      const a = panel.page.locator(item('task:tu-a'));
      await a.locator(':scope > .task-text .task-title').click();
      const changes = panel.page.locator(item('changes:task:tu-a'));
      await changes.waitFor();
      const order = await childIds(panel.page, 'task:tu-a');
      assert.deepEqual(order.map((id) => id.replace(/:.*/, '')), ['prompt', 'tool', 'tool', 'tool', 'tool', 'changes', 'outcome']);
      assert.equal((await changes.locator('.changes-summary').textContent())?.trim(), '2 files · 1 command');
      assert.ok(await changes.locator('.changes-revert').isVisible());
      await changes.locator('.changes-title').click();
      const files = panel.page.locator('.tree-row.change-file[data-parent="changes:task:tu-a"]');
      await files.first().waitFor();
      assert.deepEqual(await files.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-file')} ${e.querySelector('.change-counts')?.textContent}`)), [
        'src/config.ts +3 −1',
        'test/config.test.ts +40',
      ]);
      const command = panel.page.locator('.tree-row.change-command[data-parent="changes:task:tu-a"]');
      assert.deepEqual([await command.locator('.change-command-text').textContent(), await command.locator('.row-state').textContent()], ['npm test', 'exit 1']);
      assert.match((await panel.page.locator('.tree-row.change-note[data-parent="changes:task:tu-a"]').textContent()) ?? '', /Only files in the workspace are reverted/);
      await panel.page.waitForTimeout(200);
      await panel.page.screenshot({ path: join(ARTIFACTS, 'changes-manifest.png') });

      await files.first().locator('.path-link').click();
      await changes.locator('.changes-revert').click();
      const sent = (await posted(panel.page)).filter((m) => m.type === 'open_change' || m.type === 'revert_agent');
      assert.deepEqual(sent, [
        { type: 'open_change', agentId: 'agent-a', path: 'src/config.ts' },
        { type: 'revert_agent', agentId: 'agent-a' },
      ]);
      assert.equal(await changes.getAttribute('aria-expanded'), 'true', 'the Revert click does not fold the row');

      // The host reverted: one file put back, one refused; the row says so, the conversation has a notice.
      revertEvent(s);
      await send(panel.page, { type: 'events', events: s.take() });
      await panel.page.locator('.change-file[data-revert="refused"]').waitFor();
      assert.deepEqual(await files.evaluateAll((els) => els.map((e) => `${e.getAttribute('data-file')}: ${e.querySelector('.row-state')?.textContent}`)), [
        'src/config.ts: not reverted',
        'test/config.test.ts: reverted (deleted)',
      ]);
      assert.ok(await changes.locator('.changes-revert').isVisible(), 'a refused file can be tried again');
      await panel.page.locator('.notice', { hasText: 'Reverted the changes of "raise retries"' }).waitFor();
      await panel.page.waitForTimeout(200);
      await panel.page.screenshot({ path: join(ARTIFACTS, 'changes-reverted.png'), fullPage: true });
    });

    it('a shared file has a checkbox, off by default, naming who else may have changed it; Revert sends the checked ones', async () => {
      const s = sharedSession();
      await send(panel.page, { type: 'snapshot', state: createSessionView(), running: false }, { type: 'events', events: s.take() });
      const a = panel.page.locator(item('task:tu-a'));
      await a.locator(':scope > .task-text .task-title').click();
      const changes = panel.page.locator(item('changes:task:tu-a'));
      await changes.locator('.changes-title').click();
      const files = panel.page.locator('.tree-row.change-file[data-parent="changes:task:tu-a"]');
      await files.nth(1).waitFor();
      // Only the shared file has the choice; it says who else, and it is off.
      assert.equal(await files.nth(0).locator('.change-include').count(), 0);
      const shared = files.nth(1);
      assert.equal((await shared.locator('.change-shared').textContent())?.trim(), 'shared with "document" · revert too');
      assert.match((await shared.locator('.change-shared').getAttribute('title')) ?? '', /^Shared: `node write-docs\.js` \("document"\) ran while this subagent's calls did and may have changed gen\.ts/);
      const box = shared.locator('input.change-include');
      assert.equal(await box.isChecked(), false, 'off by default');
      // In a narrow side bar the label gives way (down to the checkbox), not the file's name.
      await panel.page.setViewportSize({ width: 240, height: 760 });
      const cut = (sel: string): Promise<boolean> => shared.locator(sel).evaluate((e) => e.scrollWidth > e.clientWidth);
      assert.equal(await cut('.path-link'), false, 'the name is whole');
      assert.equal(await cut('.change-shared-text'), true, 'the label is cut');
      assert.ok(await box.isVisible());
      await panel.page.setViewportSize({ width: 480, height: 760 });
      await panel.page.waitForTimeout(200);
      await panel.page.screenshot({ path: join(ARTIFACTS, 'changes-shared.png') });

      await changes.locator('.changes-revert').click();
      await box.check();
      assert.equal(await changes.getAttribute('aria-expanded'), 'true', 'the checkbox does not fold the row');
      await changes.locator('.changes-revert').click();
      // B's row offers the same file, naming A; B's choice is its own.
      const b = panel.page.locator(item('task:tu-b'));
      await b.locator(':scope > .task-text .task-title').click();
      const bChanges = panel.page.locator(item('changes:task:tu-b'));
      await bChanges.locator('.changes-title').click();
      const bShared = panel.page.locator('.tree-row.change-file[data-parent="changes:task:tu-b"]').first();
      await bShared.waitFor();
      assert.equal((await bShared.locator('.change-shared').textContent())?.trim(), 'shared with "build" · revert too');
      assert.equal(await bShared.locator('input.change-include').isChecked(), false);
      await bChanges.locator('.changes-revert').click();
      const sent = (await posted(panel.page)).filter((m) => m.type === 'revert_agent');
      assert.deepEqual(sent, [
        { type: 'revert_agent', agentId: 'agent-a' },
        { type: 'revert_agent', agentId: 'agent-a', includeShared: ['gen.ts'] },
        { type: 'revert_agent', agentId: 'agent-b' },
      ]);

      // The host skipped it (say, before the box was checked): the row says so and still offers the choice.
      s.emit(ROOT, null, {
        type: 'changes_reverted',
        target: 'agent-a',
        files: [
          { path: 'a.txt', outcome: 'deleted', from: HASH('8') },
          { path: 'gen.ts', outcome: 'skipped', reason: 'shared: `node write-docs.js` of the subagent "document" (agent-b) ran at the same time and may have changed it' },
        ],
        commands: [],
      });
      await send(panel.page, { type: 'events', events: s.take() });
      await panel.page.locator('.change-file[data-revert="skipped"]').waitFor();
      assert.equal((await shared.locator('.row-state').textContent())?.trim(), 'skipped (shared)');
      assert.equal(await shared.locator('input.change-include').isChecked(), true, 'the choice stays');
      assert.ok(await changes.locator('.changes-revert').isVisible(), 'a skipped file can still be reverted');
    });
  });
});
