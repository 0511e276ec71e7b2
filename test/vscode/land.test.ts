/**
 * Isolated subagents' kept work through the real editor (issue 27): two children in worktrees of a git workspace
 * change the same line differently; the bar's Open diff shows a kept version beside the workspace's file, Apply
 * lands one (the workspace file changes, the view says "landed"), Apply of the other reports the conflict (file,
 * lines, with whom) and writes nothing, Discard (confirmed) drops its branch. Through the live session's bus and
 * through a session reopened from its transcript.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DelegateApi } from '../../src/vscode/extension';
import { allTasks, type TaskNode } from '../../src/view-model/session-view';
import { firstUserText, reply, startMessagesApiServer, type MessagesApiServer } from '../fixtures/messages-api-server';
import { isChild } from '../kit/is-child';

const EXTENSION_ID = 'delegate-dev.delegate';

describe('Delegate in the extension host: isolated subagents\' kept work, applied and discarded', () => {
  let api: DelegateApi;
  let server: MessagesApiServer;
  let workdir: string;
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: workdir, encoding: 'utf8' });

  before(async () => {
    const ext = vscode.extensions.getExtension<DelegateApi>(EXTENSION_ID);
    assert.ok(ext);
    api = await ext.activate();
    server = await startMessagesApiServer();
    workdir = (vscode.workspace.workspaceFolders?.[0] as vscode.WorkspaceFolder).uri.fsPath;
    process.env.ANTHROPIC_API_KEY = 'test-key';
    const config = vscode.workspace.getConfiguration('delegate');
    await config.update('baseUrl', server.baseURL, vscode.ConfigurationTarget.Global);
    await config.update('model', 'test-model', vscode.ConfigurationTarget.Global);
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
});
