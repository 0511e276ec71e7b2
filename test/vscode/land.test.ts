/**
 * Isolated subagents' kept work through the real editor (issue 27): two children in worktrees of a git workspace
 * change the same line differently; the bar's Open diff shows a kept version beside the workspace's file, Apply
 * lands one (the workspace file changes, the view says "landed"), Apply of the other reports the conflict (file,
 * lines, with whom) and writes nothing, Discard (confirmed) drops its branch. Through the live session's bus and
 * through a session reopened from its transcript. Resolve hands a conflict to a resolver subagent through the session
 * (session.land with resolve): one that changes nothing is a failure with its reason; one that edits keeps its
 * changes for the user (the workspace untouched), standing in for the child's, and their Apply lands them.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DelegateApi } from '../../src/vscode/extension';
import { allTasks, type TaskNode } from '../../src/view-model/session-view';
import { keptWork } from '../../src/view-model/kept-work';
import type { ResolveState } from '../../src/vscode/land-actions';
import { firstUserText, reply, type MessagesApiServer } from '../fixtures/messages-api-server';
import { startTestHost } from './test-host';
import { isChild } from '../kit/is-child';


describe('Delegate in the extension host: isolated subagents\' kept work, applied and discarded', () => {
  let api: DelegateApi;
  let server: MessagesApiServer;
  let workdir: string;
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: workdir, encoding: 'utf8' });

  before(async () => {
    ({ api, server, workdir } = await startTestHost());
    const config = vscode.workspace.getConfiguration('delegate');
    await config.update('permissionMode', 'acceptEdits', vscode.ConfigurationTarget.Global);
    // The workspace made a repository for this suite only (the others expect a plain folder).
    writeFileSync(join(workdir, 'app.txt'), 'name=app\nvalue=1\nend\n');
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base');
  });

  after(async () => {
    api.controller.newSession();
    rmSync(join(workdir, '.git'), { recursive: true, force: true });
    rmSync(join(workdir, 'app.txt'), { force: true });
    await vscode.workspace.getConfiguration('delegate').update('permissionMode', undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  const child = (word: string, value: string): Parameters<MessagesApiServer['route']>[0][number] => ({
    name: word,
    match: (req) => isChild(req) && firstUserText(req).includes(word),
    replies: [
      reply.toolUse({ name: 'read_file', input: { path: 'app.txt' } }),
      reply.toolUse({ name: 'edit_file', input: { path: 'app.txt', old_text: 'value=1', new_text: `value=${value}` } }),
      reply.text(`value is ${value}`),
    ],
  });

  it('Open diff, Apply (the file changes), Apply of the conflicting one (nothing written, the conflict named), Discard', async () => {
    server.route([
      child('TWO', '2'),
      child('THREE', '3'),
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse([
            { name: 'task', input: { description: 'set two', prompt: 'TWO: set value to 2 in app.txt', isolation: 'worktree' } },
            { name: 'task', input: { description: 'set three', prompt: 'THREE: set value to 3 in app.txt', isolation: 'worktree' } },
          ]),
          reply.text('both kept'),
        ],
      },
    ]);
    await api.controller.ask('Set the value two ways');
    server.assertAllConsumed();
    assert.equal(readFileSync(join(workdir, 'app.txt'), 'utf8'), 'name=app\nvalue=1\nend\n', 'isolated: the workspace is untouched');
    const tasks = (): TaskNode[] => allTasks(api.controller.snapshot().state);
    const byName = (d: string): TaskNode => tasks().find((t) => t.description === d) as TaskNode;
    const [two, three] = [byName('set two'), byName('set three')];
    assert.deepEqual([two.kept?.files, three.kept?.files], [[{ path: 'app.txt', status: 'M' }], [{ path: 'app.txt', status: 'M' }]]);
    assert.ok(two.agentId && three.agentId);

    // Open diff: the workspace's file (left) beside the branch's version (right).
    assert.ok(await api.changes.land.openDiff(two.agentId, 'app.txt'));
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'a diff editor is open');
    assert.equal((await vscode.workspace.openTextDocument(tab.input.modified)).getText(), 'name=app\nvalue=2\nend\n');
    assert.equal(tab.input.original.fsPath, join(workdir, 'app.txt'));
    assert.equal(tab.input.original.scheme, 'file');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // Apply: through the live session (it is open here), the workspace file changes.
    await api.changes.land.land([two.agentId], 'land');
    assert.equal(readFileSync(join(workdir, 'app.txt'), 'utf8'), 'name=app\nvalue=2\nend\n');
    assert.equal(byName('set two').kept?.outcome, 'landed');

    // The other one now conflicts with what landed: nothing written, the conflict named.
    await api.changes.land.land([three.agentId], 'land');
    assert.equal(readFileSync(join(workdir, 'app.txt'), 'utf8'), 'name=app\nvalue=2\nend\n');
    assert.equal(byName('set three').kept?.outcome, 'conflict');
    assert.deepEqual(byName('set three').kept?.conflicts?.map((c) => c.path), ['app.txt']);

    // Reopened from its transcript: the view rebuilt from it; Discard (confirmed) drops the branch.
    const id = api.controller.openSessionId as string;
    api.controller.newSession();
    assert.ok(await api.controller.openSession(id));
    assert.equal(byName('set three').kept?.outcome, 'conflict', 'the landing is in the transcript');
    const asked: string[] = [];
    api.changes.land.confirm = async (message) => {
      asked.push(message);
      return true;
    };
    try {
      await api.changes.land.land([three.agentId], 'discard');
    } finally {
      api.changes.land.confirm = async () => false;
    }
    assert.deepEqual(asked, ['Discard the kept changes of "set three"?']);
    assert.equal(byName('set three').kept?.outcome, 'discarded');
    assert.equal(git('branch', '--list', `*${three.agentId}*`).trim(), '', 'its branch is gone');
    assert.notEqual(git('branch', '--list', `*${two.agentId}*`).trim(), '', 'the landed one\'s branch stays (its revert needs it)');
  });

  it('Resolve: a resolver subagent through the session; its changes kept for Apply, standing in for the child\'s', async () => {
    api.controller.newSession();
    writeFileSync(join(workdir, 'app.txt'), 'name=app\nvalue=1\nend\n');
    server.route([
      // The resolvers: the first changes nothing (a failure, said), the second merges both sides.
      {
        name: 'resolver',
        match: (req) => isChild(req) && firstUserText(req).includes('could not land in the user\'s folder'),
        replies: [
          reply.text('Nothing to merge, I think.'),
          reply.toolUse({ name: 'read_file', input: { path: 'app.txt' } }),
          reply.toolUse({ name: 'write_file', input: { path: 'app.txt', content: 'name=app\nvalue=45\nend\n' } }),
          reply.text('Kept both: value=45.'),
        ],
      },
      child('FOUR', '4'),
      child('FIVE', '5'),
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse([
            { name: 'task', input: { description: 'set four', prompt: 'FOUR: set value to 4 in app.txt', isolation: 'worktree' } },
            { name: 'task', input: { description: 'set five', prompt: 'FIVE: set value to 5 in app.txt', isolation: 'worktree' } },
          ]),
          reply.text('both kept'),
        ],
      },
    ]);
    await api.controller.ask('Set the value two ways, again');
    const byName = (d: string): TaskNode => allTasks(api.controller.snapshot().state).find((t) => t.description === d) as TaskNode;
    const [four, five] = [byName('set four').agentId as string, byName('set five').agentId as string];
    await api.changes.land.land([four], 'land');
    await api.changes.land.land([five], 'land');
    assert.equal(byName('set five').kept?.outcome, 'conflict');
    const told: ResolveState[] = [];
    const sub = api.changes.land.onResolve((s) => told.push(s));
    try {
      // A resolver that leaves the markers its copy started with: dropped, the child still a conflict, why in one line.
      const first = await api.changes.land.resolve(five);
      assert.equal(first.state, 'failed');
      assert.match(first.state === 'failed' ? first.reason : '', /^the resolver left a conflict marker in app\.txt; [\w-]+'s conflict stands\. \(it said: Nothing to merge, I think\.\)$/);
      assert.equal(keptWork(api.controller.snapshot().state).children.find((c) => c.agentId === five)?.resolvedBy, undefined, 'its marked copy is not kept to stand in');
      assert.deepEqual(keptWork(api.controller.snapshot().state).open, [five], 'the conflict is the user\'s again');

      // Again, as the panel's Resolve sends it (the view provider hands it to the land actions).
      await api.view.onMessage({ type: 'resolve_agent', agentId: five });
      assert.deepEqual(told.at(-1), { agentId: five, state: 'done' });
      assert.deepEqual(told.map((t) => t.state), ['running', 'failed', 'running', 'done']);
    } finally {
      sub.dispose();
    }
    server.assertAllConsumed();
    assert.equal(api.controller.isRunning, false);
    // Kept, not landed: the workspace still has the first child's value; the resolver is a task of its own.
    assert.equal(readFileSync(join(workdir, 'app.txt'), 'utf8'), 'name=app\nvalue=4\nend\n');
    const view = keptWork(api.controller.snapshot().state);
    const resolver = view.children.find((c) => c.agentId === five)?.resolvedBy;
    assert.ok(resolver, 'a resolver\'s kept changes stand in for the child\'s');
    assert.deepEqual(view.open, [resolver]);
    const node = allTasks(api.controller.snapshot().state).find((t) => t.agentId === resolver);
    assert.equal(node?.description, `resolve ${five}'s conflicts`);
    assert.equal(node?.status, 'completed');
    assert.equal(node?.kept?.resolves, five);

    // Its Apply lands the merge; the child is settled through it.
    await api.changes.land.land([resolver], 'land');
    assert.equal(readFileSync(join(workdir, 'app.txt'), 'utf8'), 'name=app\nvalue=45\nend\n');
    assert.equal(byName('set five').kept?.outcome, 'resolved');
    assert.deepEqual(keptWork(api.controller.snapshot().state).open, []);
  });
});
