/**
 * The host side of the panel's new actions without an editor (a `vscode` stand-in, vscode-stub.ts): Retry on a
 * task that ended early (task-retry.ts), History's rename and delete (history-actions.ts), the changes bar's
 * Review (change-actions.ts reviewRun: one multi-file diff of the run's files).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionController } from '../../src/vscode/session-controller';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import { finishedSession, ROOT, Script } from '../webview/fixtures';
import { installVscodeStub } from './vscode-stub';

const stub = installVscodeStub();
/* eslint-disable @typescript-eslint/no-require-imports -- loaded after the stub is in place */
const { TaskRetry } = require('../../src/vscode/task-retry') as typeof import('../../src/vscode/task-retry');
const { HistoryActions } = require('../../src/vscode/history-actions') as typeof import('../../src/vscode/history-actions');
const { ChangeActions } = require('../../src/vscode/change-actions') as typeof import('../../src/vscode/change-actions');
/* eslint-enable @typescript-eslint/no-require-imports */

function fakeController(state: SessionViewState, opts: { running?: boolean; openSessionId?: string } = {}): { controller: SessionController; asked: string[]; newSessions: number } {
  const record = { asked: [] as string[], newSessions: 0 };
  const controller = {
    snapshot: () => ({ state, running: opts.running ?? false }),
    get isRunning() {
      return opts.running ?? false;
    },
    openSessionId: opts.openSessionId,
    ask: async (prompt: string) => void record.asked.push(prompt),
    newSession: () => void record.newSessions++,
  };
  return { controller: controller as unknown as SessionController, ...record, get asked() { return record.asked; }, get newSessions() { return record.newSessions; } };
}

const viewOf = (s: Script): SessionViewState => {
  const state = createSessionView();
  applyEvents(state, s.events);
  return state;
};

describe('vscode/panel actions (a vscode stand-in)', () => {
  beforeEach(() => {
    stub.messages.length = 0;
    stub.commands.length = 0;
  });

  it('Retry asks the main agent to delegate the task again; the edited re-run sends the edited prompt; not while a run goes on', async () => {
    const state = viewOf(finishedSession());
    const fake = fakeController(state);
    const retry = new TaskRetry(fake.controller);
    assert.equal(await retry.retry('agent-c', false), true);
    assert.match(fake.asked[0] ?? '', /^Run the subagent task "Reproduce the flaky test" again \(it ended: failed\)\. .*\n\nReproduce the flaky test\. Report what you found in a short summary\.$/);
    retry.askText = async (_title, text) => `${text} Only 5 runs.`;
    assert.equal(await retry.retry('agent-b', true), true);
    assert.match(fake.asked[1] ?? '', /which I edited:\n\nGrep for timing-dependent waits\. Report what you found in a short summary\. Only 5 runs\.$/);
    retry.askText = async () => undefined;
    assert.equal(await retry.retry('agent-b', true), false, 'a dismissed edit sends nothing');

    const busy = fakeController(state, { running: true });
    assert.equal(await new TaskRetry(busy.controller).retry('agent-c', false), false);
    assert.deepEqual(busy.asked, []);
    assert.match(stub.messages.at(-1)?.text ?? '', /the run is still going/);
  });

  it('History: rename writes the name; delete asks, removes the files, starts a new session when it was the open one, refuses the running one', async () => {
    const root = mkdtempSync(join(tmpdir(), 'delegate-history-host-'));
    writeFileSync(join(root, 's1.jsonl'), '');
    mkdirSync(join(root, 's1'));
    const open = fakeController(createSessionView(), { openSessionId: 's1' });
    const actions = new HistoryActions(open.controller, () => root);
    await actions.rename('s1', 'Flaky tests');
    assert.ok(existsSync(join(root, 's1.meta.json')));
    actions.confirm = async () => false;
    assert.equal(await actions.delete('s1', 'Flaky tests'), false);
    assert.ok(existsSync(join(root, 's1.jsonl')), 'kept when the modal is dismissed');
    const asked: string[] = [];
    actions.confirm = async (title) => {
      asked.push(title);
      return true;
    };
    assert.equal(await actions.delete('s1', 'Flaky tests'), true);
    assert.deepEqual(asked, ['Flaky tests']);
    assert.equal(existsSync(join(root, 's1.jsonl')) || existsSync(join(root, 's1')) || existsSync(join(root, 's1.meta.json')), false);
    assert.equal(open.newSessions, 1, 'the open session was deleted: a new one');

    const running = fakeController(createSessionView(), { running: true, openSessionId: 's2' });
    const guarded = new HistoryActions(running.controller, () => root);
    guarded.confirm = async () => assert.fail('not asked');
    assert.equal(await guarded.delete('s2', 'x'), false);
    assert.match(stub.messages.at(-1)?.text ?? '', /stop it before deleting it/);
  });

  it('Review opens the run\'s files in one multi-file diff: the workspace file, its content before and after', async () => {
    const s = new Script();
    s.rootStart('Edit two files.');
    s.emit(ROOT, null, { type: 'tool_started', toolUseId: 'w1', name: 'write_file', input: { path: 'a.txt' } });
    s.emit(ROOT, null, { type: 'file_changed', toolUseId: 'w1', path: 'a.txt', action: 'created', after: 'b'.repeat(64), added: 1, removed: 0 });
    s.emit(ROOT, null, { type: 'tool_started', toolUseId: 'e1', name: 'edit_file', input: { path: 'src/b.ts' } });
    s.emit(ROOT, null, { type: 'file_changed', toolUseId: 'e1', path: 'src/b.ts', action: 'modified', before: 'c'.repeat(64), after: 'd'.repeat(64), added: 1, removed: 1 });
    stub.workspaceFolder = '/work/project';
    const fake = fakeController(viewOf(s), { openSessionId: 'sess' });
    const changes = new ChangeActions(fake.controller, () => '/unused');
    assert.equal(await changes.reviewRun(), true);
    const call = stub.commands.at(-1);
    assert.equal(call?.command, 'vscode.changes');
    assert.equal(call?.args[0], 'Delegate: 2 files changed by the last run');
    assert.deepEqual((call?.args[1] as { toString(): string }[][]).map((r) => r.map(String)), [
      ['file:/work/project/a.txt', 'delegate-change:/sess/none/a.txt', `delegate-change:/sess/${'b'.repeat(64)}/a.txt`],
      ['file:/work/project/src/b.ts', `delegate-change:/sess/${'c'.repeat(64)}/b.ts`, `delegate-change:/sess/${'d'.repeat(64)}/b.ts`],
    ]);
    assert.equal(await new ChangeActions(fakeController(createSessionView(), { openSessionId: 'sess' }).controller, () => '/unused').reviewRun(), false, 'nothing changed: nothing to review');
  });
});
