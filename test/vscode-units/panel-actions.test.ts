/**
 * The host side of the panel's new actions without an editor (a `vscode` stand-in, vscode-stub.ts): Retry on a
 * task that ended early (task-retry.ts), History's rename and delete (history-actions.ts), the changes bar's
 * Review (change-actions.ts reviewRun: one multi-file diff of the run's files).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, ScriptedModel } from '../kit/scripted-model';
import type { SessionController } from '../../src/vscode/session-controller';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import { runChanges } from '../../src/view-model/run-changes';
import { finishedSession, ROOT, Script } from '../webview/fixtures';
import { installVscodeStub } from './vscode-stub';
import { tempDir } from '../kit/temp-dirs';
import { testSession } from '../kit/test-session';
import { history } from '../../src/core/session/history';

const stub = installVscodeStub();
/* eslint-disable @typescript-eslint/no-require-imports -- loaded after the stub is in place */
const { TaskRetry } = require('../../src/vscode/task-retry') as typeof import('../../src/vscode/task-retry');
const { HistoryActions } = require('../../src/vscode/history-actions') as typeof import('../../src/vscode/history-actions');
const { ChangeActions } = require('../../src/vscode/change-actions') as typeof import('../../src/vscode/change-actions');
/* eslint-enable @typescript-eslint/no-require-imports */

function fakeController(state: SessionViewState, opts: { running?: boolean; openSessionId?: string; current?: unknown; root?: string } = {}): { controller: SessionController; asked: string[]; options: unknown[]; newSessions: number } {
  const record = { asked: [] as string[], options: [] as unknown[], newSessions: 0 };
  const controller = {
    snapshot: () => ({ state, running: opts.running ?? false }),
    get isRunning() {
      return opts.running ?? false;
    },
    openSessionId: opts.openSessionId,
    current: opts.current,
    sessions: history(opts.root ?? '/unused'),
    showRecorded: () => undefined,
    ask: async (prompt: string, options?: unknown) => {
      record.asked.push(prompt);
      record.options.push(options);
    },
    newSession: () => void record.newSessions++,
  };
  return { controller: controller as unknown as SessionController, ...record, get asked() { return record.asked; }, get options() { return record.options; }, get newSessions() { return record.newSessions; } };
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
    // The panel shows what the user did, not the written prompt: the run says it is a Retry of that task.
    assert.deepEqual(fake.options, [{ retryOf: { agentId: 'agent-c', description: 'Reproduce the flaky test' } }, { retryOf: { agentId: 'agent-b', description: 'Grep for timing-dependent waits', edited: true } }]);
    // Retried once: the row offers it no more, and the host refuses it too.
    const retried = viewOf(finishedSession());
    const old = retried.nodes['task:tu-c'];
    if (old?.kind === 'task') old.retriedBy = { promptId: 'user:9', taskId: 'task:tu-c2' };
    const again = fakeController(retried);
    assert.equal(await new TaskRetry(again.controller).retry('agent-c', false), false);
    assert.deepEqual(again.asked, []);
    assert.match(stub.messages.at(-1)?.text ?? '', /was retried already/);

    const busy = fakeController(state, { running: true });
    assert.equal(await new TaskRetry(busy.controller).retry('agent-c', false), false);
    assert.deepEqual(busy.asked, []);
    assert.match(stub.messages.at(-1)?.text ?? '', /the run is still going/);
  });

  it('History: rename writes the name; delete asks, removes the files, starts a new session when it was the open one, refuses the running one', async () => {
    const root = tempDir('delegate-history-host-');
    writeFileSync(join(root, 's1.jsonl'), '');
    mkdirSync(join(root, 's1'));
    const open = fakeController(createSessionView(), { openSessionId: 's1', root });
    const actions = new HistoryActions(open.controller);
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

    const running = fakeController(createSessionView(), { running: true, openSessionId: 's2', root });
    const guarded = new HistoryActions(running.controller);
    guarded.confirm = async () => assert.fail('not asked');
    assert.equal(await guarded.delete('s2', 'x'), false);
    assert.match(stub.messages.at(-1)?.text ?? '', /stop it before deleting it/);
  });

  it('Review opens the run\'s files in one multi-file diff, each entry under the workspace file\'s path (added: no original side; deleted: no modified side)', async () => {
    const s = new Script();
    s.rootStart('Edit three files.');
    s.open(ROOT, null, 'w1', 'write_file', { path: 'a.txt' });
    s.emit(ROOT, null, { type: 'file_changed', toolUseId: 'w1', path: 'a.txt', action: 'created', after: 'b'.repeat(64), added: 1, removed: 0 });
    s.open(ROOT, null, 'e1', 'edit_file', { path: 'src/b.ts' });
    s.emit(ROOT, null, { type: 'file_changed', toolUseId: 'e1', path: 'src/b.ts', action: 'modified', before: 'c'.repeat(64), after: 'd'.repeat(64), added: 1, removed: 1 });
    s.open(ROOT, null, 'x1', 'bash', { command: 'rm gone.txt' });
    s.emit(ROOT, null, { type: 'file_changed', toolUseId: 'x1', path: 'gone.txt', action: 'deleted', before: 'e'.repeat(64), added: 0, removed: 2 });
    const folder = tempDir('delegate-review-ws-');
    mkdirSync(join(folder, 'src'));
    writeFileSync(join(folder, 'a.txt'), 'new\n');
    writeFileSync(join(folder, 'src', 'b.ts'), 'changed\n');
    stub.workspaceFolder = folder;
    try {
      const fake = fakeController(viewOf(s), { openSessionId: 'sess' });
      const changes = new ChangeActions(fake.controller, () => '/unused');
      assert.equal(await changes.reviewRun(), true);
      const call = stub.commands.at(-1);
      assert.equal(call?.command, 'vscode.changes');
      assert.equal(call?.args[0], 'Delegate: 3 files changed by the last run');
      const kept = (hash: string, path: string): string => `delegate-change:${folder}/${path}?session=sess&blob=${hash.repeat(64)}`;
      assert.deepEqual((call?.args[1] as ({ toString(): string } | undefined)[][]).map((r) => r.map((u) => u?.toString())), [
        // The multi-file diff labels an entry by its URIs' paths: the same path on both sides reads as the file itself.
        [`file:${folder}/a.txt`, undefined, `file:${folder}/a.txt`],
        [`file:${folder}/src/b.ts`, kept('c', 'src/b.ts'), `file:${folder}/src/b.ts`],
        [`file:${folder}/gone.txt`, kept('e', 'gone.txt'), undefined],
      ]);
      // One file's row in the bar: its own diff; an added file against an empty side.
      assert.equal(await changes.reviewRun([], 'a.txt'), true);
      assert.deepEqual([stub.commands.at(-1)?.command, ...(stub.commands.at(-1)?.args.slice(0, 3) ?? []).map(String)], ['vscode.diff', `delegate-change:${folder}/a.txt?session=sess&blob=none`, `file:${folder}/a.txt`, 'a.txt (Delegate: added)']);
      // A file the user kept in the bar is not reviewed again.
      const key = `${viewOf(s).items[0]}@${(viewOf(s).nodes[viewOf(s).items[0] ?? ''] as { time: number }).time}\nsrc/b.ts`;
      await changes.reviewRun([key]);
      assert.equal((stub.commands.at(-1)?.args[1] as unknown[]).length, 2);
      assert.equal(await new ChangeActions(fakeController(createSessionView(), { openSessionId: 'sess' }).controller, () => '/unused').reviewRun(), false, 'nothing changed: nothing to review');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('Revert on the bar: one modal for the run\'s two subagents, then both put back', async () => {
    const workdir = tempDir('delegate-bar-ws-');
    const model = new ScriptedModel((req) => (firstUserText(req).startsWith('KID-A') ? 'a' : firstUserText(req).startsWith('KID-B') ? 'b' : 'main'))
      .script('a', { toolUses: [{ name: 'write_file', input: { path: 'a.txt', content: 'from a\n' } }] }, { text: 'wrote a' })
      .script('b', { toolUses: [{ name: 'write_file', input: { path: 'b.txt', content: 'from b\n' } }] }, { text: 'wrote b' })
      .script('main', { toolUses: [{ name: 'task', input: { prompt: 'KID-A: write a.txt', description: 'write a' } }, { name: 'task', input: { prompt: 'KID-B: write b.txt', description: 'write b' } }] }, { text: 'done' });
    const { session, events, transcriptRoot } = await testSession({ workdir, model });
    try {
      await session.run('write two files through two subagents', new AbortController().signal);
      const state = createSessionView();
      applyEvents(state, events);
      const ids = [...state.items].map((id) => state.nodes[id]).filter((n) => n?.kind === 'task').map((n) => (n?.kind === 'task' ? n.agentId ?? '' : ''));
      assert.equal(ids.length, 2);
      const fake = fakeController(state, { openSessionId: session.id, current: { id: session.id, bus: session.bus, changes: session.changes } });
      const changes = new ChangeActions(fake.controller, () => transcriptRoot);
      const asked: string[] = [];
      changes.confirm = async (message, detail) => {
        asked.push(`${message}\n${detail}`);
        return true;
      };
      await changes.revertRun(ids);
      assert.equal(asked.length, 1, 'one modal for both');
      assert.match(asked[0] ?? '', /^Revert the changes of the last run's 2 subagents\?\nthe subagent "write a" \(\w+\):\n {2}• a\.txt: delete \(it created it\)\nthe subagent "write b" \(\w+\):\n {2}• b\.txt: delete \(it created it\)/);
      assert.equal(existsSync(join(workdir, 'a.txt')) || existsSync(join(workdir, 'b.txt')), false, 'both put back');
      assert.deepEqual(stub.messages.at(-1), { level: 'info', text: 'Delegate: reverted 2 files of the last run.' });
      assert.equal(events.filter((e) => e.type === 'changes_reverted').length, 2, 'each revert recorded');
      assert.ok(readFileSync(join(transcriptRoot, `${session.id}.jsonl`), 'utf8').includes('changes_reverted'));
    } finally {
      session.close();
    }
  });

  it('a file\'s Undo in the bar: no modal, only that file; two subagents that changed it one after the other are reverted last first', async () => {
    const workdir = tempDir('delegate-undo-ws-');
    writeFileSync(join(workdir, 'x.txt'), 'original\n');
    const model = new ScriptedModel((req) => (firstUserText(req).startsWith('KID-A') ? 'a' : firstUserText(req).startsWith('KID-B') ? 'b' : 'main'))
      .script('a', { toolUses: [{ name: 'read_file', input: { path: 'x.txt' } }] }, { toolUses: [{ name: 'write_file', input: { path: 'x.txt', content: 'from a\n' } }, { name: 'write_file', input: { path: 'y.txt', content: 'y from a\n' } }] }, { text: 'a done' })
      .script('b', { toolUses: [{ name: 'read_file', input: { path: 'x.txt' } }] }, { toolUses: [{ name: 'write_file', input: { path: 'x.txt', content: 'from b\n' } }] }, { text: 'b done' })
      .script('main', { toolUses: [{ name: 'task', input: { prompt: 'KID-A: write x.txt', description: 'write a' } }] }, { toolUses: [{ name: 'task', input: { prompt: 'KID-B: write x.txt', description: 'write b' } }] }, { text: 'done' });
    const { session, events, transcriptRoot } = await testSession({ workdir, model });
    try {
      await session.run('two subagents, one file', new AbortController().signal);
      const state = createSessionView();
      applyEvents(state, events);
      const run = runChanges(state);
      const x = run.files.find((f) => f.path === 'x.txt');
      assert.equal(x?.agents.length, 2, 'both subagents changed x.txt');
      const fake = fakeController(state, { openSessionId: session.id, current: { id: session.id, bus: session.bus, changes: session.changes } });
      const changes = new ChangeActions(fake.controller, () => transcriptRoot);
      changes.confirm = async () => assert.fail('a file\'s Undo asks nothing');
      await changes.revertRun(x?.agents ?? [], ['x.txt']);
      assert.equal(readFileSync(join(workdir, 'x.txt'), 'utf8'), 'original\n', 'b\'s change undone, then a\'s');
      assert.equal(readFileSync(join(workdir, 'y.txt'), 'utf8'), 'y from a\n', 'the other file stays');
      assert.deepEqual(stub.messages.at(-1), { level: 'info', text: 'Delegate: x.txt put back as it was before the run.' });
    } finally {
      session.close();
    }
  });
});
