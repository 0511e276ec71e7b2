/**
 * Runs inside the real VS Code extension host (real `vscode` API): activation, commands, the view
 * provider, approvals through the injectable prompt, transcripts. The local Messages-API server
 * runs in this same process; the extension reaches it through the `delegate.baseUrl` setting.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { DelegateApi } from '../../src/vscode/extension';
import type { ApprovalQuestion } from '../../src/vscode/approver';
import { modalPrompt } from '../../src/vscode/approver';
import { quickPickPrompt } from '../../src/vscode/user-questions';
import { modalFanoutPrompt } from '../../src/vscode/fanout-card';
import type { FanoutCard, FanoutChoice } from '../../src/core/session/ports';
import type { TaskNode, ViewNode } from '../../src/view-model/session-view';
import { allTasks } from '../../src/view-model/session-view';
import { resolveSessionConfig } from '../../src/core/session';
import { firstUserText, reply, startMessagesApiServer, systemText, lastToolResults, type MessagesApiServer, type RecordedRequest } from '../fixtures/messages-api-server';
import { EXTENSION_ID, startTestHost } from './test-host';
import { isChild } from '../kit/is-child';
import { must } from '../kit/must';
import { isAlive } from '../kit/processes';
import { waitUntil } from '../kit/wait';


describe('Delegate in the extension host', () => {
  let api: DelegateApi;
  let server: MessagesApiServer;
  let workdir: string;

  before(async () => {
    ({ api, server, workdir } = await startTestHost());
  });

  after(async () => {
    api.approver.prompt = modalPrompt;
    await server.close();
  });

  let since = 0;
  /** This test's requests only: the server lives across tests. */
  const requests = (): RecordedRequest[] => server.messageRequests().slice(since);

  beforeEach(async () => {
    api.controller.newSession();
    since = server.messageRequests().length;
    // A subagent's ask goes to the panel while it is visible; the tests that answer the modal's prompt hide it.
    await setPanelVisible(false);
  });

  async function setPanelVisible(visible: boolean): Promise<void> {
    if (api.view.isVisible === visible) return;
    await vscode.commands.executeCommand(visible ? 'delegate.panel.focus' : 'workbench.action.closeSidebar');
    await waitUntil(() => api.view.isVisible === visible, `the panel ${visible ? 'shows' : 'hides'}`, 15_000);
  }

  it('activates quickly and registers its commands and view', async () => {
    const b = api.activationBreakdown;
    console.log(`activation took ${api.activationMs.toFixed(1)} ms (imports ${b.importsMs.toFixed(1)}, editor wait ${b.waitMs.toFixed(1)}, activate() ${b.activateMs.toFixed(1)})`);
    const commands = await vscode.commands.getCommands(true);
    // Every command package.json contributes, each registered by its feature's module (activate() lists them).
    const contributed = (vscode.extensions.getExtension('delegate-dev.delegate')?.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands.map((c) => c.command);
    assert.equal(contributed.length, 11);
    for (const id of [...contributed, 'delegate.panel.focus']) assert.ok(commands.includes(id), `${id} is registered`);
    await vscode.commands.executeCommand('delegate.panel.focus');
    await waitUntil(() => api.view.posted.includes('snapshot'), 'the panel loads and gets a snapshot', 15_000);
  });

  it('runs Ask… with a subagent: the task node holds the child\'s calls, the parent never sees them', async () => {
    const CANARY = 'CANARY-ext-host-7781';
    writeFileSync(join(workdir, 'notes.md'), `remember ${CANARY}\n`);
    server.route([
      { name: 'child', match: isChild, replies: [reply.toolUse({ name: 'read_file', input: { path: 'notes.md' } }), reply.text('Conclusion: notes.md has the reminder.')] },
      {
        name: 'parent',
        match: () => true,
        replies: [reply.toolUse({ name: 'task', input: { prompt: 'Read notes.md and report.', description: 'read the notes' } }), reply.text('Done: the notes hold a reminder.')],
      },
    ]);
    await vscode.commands.executeCommand('delegate.ask', 'What do the notes say?');
    server.assertAllConsumed();
    const { state } = api.controller.snapshot();
    // The status bar's figures are the view's totals: one count, not a second one kept beside it.
    const status = api.controller.status();
    assert.ok(status.tokens > 0, 'the run used tokens');
    assert.equal(status.tokens, state.totals.tokens.input + state.totals.tokens.output);
    assert.equal(status.costUsd, state.totals.costUsd ?? 0);
    const tasks = allTasks(state);
    assert.equal(tasks.length, 1);
    const task = tasks[0] as TaskNode;
    assert.equal(task.description, 'read the notes');
    assert.equal(task.status, 'completed');
    const children = task.children.map((id: string) => state.nodes[id] as ViewNode);
    assert.equal(children.length, 1);
    assert.equal(children[0]?.kind, 'tool');
    for (const req of requests().filter((r) => !isChild(r))) {
      assert.ok(!JSON.stringify(req.body).includes(CANARY), 'the parent never held the child\'s tool output');
    }
    const transcript = api.controller.current?.store.sessionFile;
    assert.ok(transcript && existsSync(transcript), 'the transcript is in the extension\'s storage');
    assert.ok(readFileSync(transcript, 'utf8').includes('agent_finished'));
  });

  it('delegate.messageSubagent (a task node\'s Send a message…): the finished child resumes with its history on the same node', async () => {
    server.route([
      { name: 'child', match: isChild, replies: [reply.text('Conclusion: notes.md has the reminder.'), reply.text('Follow-up: the reminder is about the canary.')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'Read notes.md and report.', description: 'read the notes' } }), reply.text('Done.')] },
    ]);
    await vscode.commands.executeCommand('delegate.ask', 'What do the notes say?');
    const before = allTasks(api.controller.snapshot().state);
    const agentId = must((must(before[0]) as TaskNode).agentId);
    const result = (await vscode.commands.executeCommand('delegate.messageSubagent', agentId, 'USER-FOLLOW-UP: what is it about?')) as { result?: string } | undefined;
    assert.equal(result?.result, 'Follow-up: the reminder is about the canary.');
    server.assertAllConsumed();
    const child = must(requests().filter(isChild).at(-1));
    const sent = JSON.stringify(child.body.messages);
    assert.ok(sent.includes('Conclusion: notes.md has the reminder.') && sent.includes('USER-FOLLOW-UP: what is it about?'), 'its history and the message');
    const tasks = allTasks(api.controller.snapshot().state);
    assert.equal(tasks.length, before.length, 'no new node');
    const task = tasks[0] as TaskNode;
    assert.equal(task.segments, 2);
    assert.equal(task.status, 'completed');
    assert.equal(task.result, 'Follow-up: the reminder is about the canary.');
  });

  it('asks before a subagent writes, naming the subagent; Deny leaves the file untouched', async () => {
    await vscode.workspace.getConfiguration('delegate').update('permissionMode', 'default', vscode.ConfigurationTarget.Global);
    const questions: ApprovalQuestion[] = [];
    api.approver.prompt = async (q) => {
      questions.push(q);
      return 'deny';
    };
    writeFileSync(join(workdir, 'keep.txt'), 'original\n');
    server.route([
      {
        name: 'child',
        match: isChild,
        // Read first: a write of a file it never read is refused before anyone is asked (the write guard).
        replies: [reply.toolUse({ name: 'read_file', input: { path: 'keep.txt' } }), reply.toolUse({ name: 'write_file', input: { path: 'keep.txt', content: 'overwritten\n' } }), reply.text('I was not allowed to write.')],
      },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'Rewrite keep.txt', description: 'rewrite keep' } }), reply.text('ok')] },
    ]);
    await api.controller.ask('Rewrite keep.txt');
    server.assertAllConsumed();
    assert.equal(questions.length, 1);
    assert.equal(questions[0]?.who, 'Subagent “rewrite keep”');
    assert.equal(questions[0]?.toolName, 'write_file');
    assert.equal(readFileSync(join(workdir, 'keep.txt'), 'utf8'), 'original\n');
    const childResults = lastToolResults(requests().filter(isChild)[2] as RecordedRequest);
    assert.equal(childResults[0]?.is_error, true);
    assert.match(String(childResults[0]?.content), /denied/);
  });

  it('ask_user: a subagent\'s question is asked naming it, with its options; the answer is its tool result', async () => {
    const asked: { title: string; question: string; options: string[] }[] = [];
    api.questions.prompt = async (q, title) => {
      asked.push({ title, question: q.question, options: q.options });
      return '3000';
    };
    server.route([
      { name: 'child', match: isChild, replies: [reply.toolUse({ name: 'ask_user', input: { question: 'Which port?', options: ['8080', '3000'] } }), reply.text('using 3000')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'Pick the port', description: 'pick port' } }), reply.text('ok')] },
    ]);
    try {
      await api.controller.ask('Set up the server');
    } finally {
      api.questions.prompt = quickPickPrompt;
    }
    server.assertAllConsumed();
    assert.deepEqual(asked, [{ title: 'Delegate: subagent “pick port” asks', question: 'Which port?', options: ['8080', '3000'] }]);
    const answer = lastToolResults(requests().filter(isChild).at(-1) as RecordedRequest)[0];
    assert.equal(answer?.is_error, undefined);
    assert.equal(answer?.content, 'The user answered: 3000');
  });

  it('the fan-out card: three parallel subagents wait for it; Cancel starts none, Run with these caps gives each its forecast\'s p90 as budgets', async () => {
    const cards: FanoutCard[] = [];
    let choice: FanoutChoice = 'cancel';
    api.fanout.prompt = async (card) => {
      cards.push(card);
      return choice;
    };
    const three = reply.toolUse([
      { name: 'task', input: { prompt: 'Look at a', description: 'look at a' } },
      { name: 'task', input: { prompt: 'Look at b', description: 'look at b', subagent_type: 'Explore' } },
      { name: 'task', input: { prompt: 'Look at c', description: 'look at c' } },
    ]);
    const route = () =>
      server.route([
        { name: 'child', match: isChild, replies: [reply.text('seen'), reply.text('seen'), reply.text('seen')] },
        { name: 'parent', match: () => true, replies: [three, reply.text('ok')] },
      ]);
    try {
      server.route([{ name: 'parent', match: () => true, replies: [three, reply.text('cancelled, then')] }]);
      await api.controller.ask('Look at three things');
      server.assertAllConsumed();
      assert.equal(cards.length, 1);
      assert.deepEqual(cards[0]?.children.map((c) => [c.description, c.agentType, c.mode]), [['look at a', 'general-purpose', 'default'], ['look at b', 'Explore', 'default'], ['look at c', 'general-purpose', 'default']]);
      assert.equal(cards[0]?.reason, 'count');
      assert.equal(requests().filter(isChild).length, 0, 'no subagent started');
      const results = lastToolResults(requests().at(-1) as RecordedRequest);
      assert.equal(results.length, 3);
      for (const r of results) assert.match(String(r.content), /^Not run: the user cancelled this fan-out of 3 subagents before it started/);

      // Run: the children run and become this workspace's history of these agent types.
      choice = 'run';
      api.controller.newSession();
      route();
      await api.controller.ask('Look at three things');
      server.assertAllConsumed();
      assert.equal(cards.length, 2);

      choice = 'run_capped';
      api.controller.newSession();
      since = server.messageRequests().length;
      route();
      await api.controller.ask('Look at three things');
      server.assertAllConsumed();
      const card = cards[2] as FanoutCard;
      const explore = card.children.find((c) => c.agentType === 'Explore');
      assert.ok(explore?.forecast && explore.forecast.runs >= 1, 'the card forecasts from the earlier run');
      const { state } = api.controller.snapshot();
      const tasks = allTasks(state);
      assert.equal(tasks.length, 3);
      for (const task of tasks) {
        const f = card.children.find((c) => c.description === task.description)?.forecast;
        assert.ok(f, `a forecast for ${task.description}`);
        assert.equal(task.budget?.tokens, Math.ceil(f.tokens.p90), 'the p90 tokens became its budget');
        assert.equal(task.budget?.seconds, Math.max(1, Math.ceil(f.durationMs.p90 / 1000)));
      }
    } finally {
      api.fanout.prompt = modalFanoutPrompt;
    }
  });

  it('the fan-out card in the panel: the tasks pending in the tree, no modal; Run with "Don\'t ask again" starts them and asks to stop asking', async () => {
    await setPanelVisible(true);
    const modal: FanoutCard[] = [];
    api.fanout.prompt = async (card) => {
      modal.push(card);
      return 'cancel';
    };
    let neverAsked = 0;
    const dontAskAgain = api.fanout.dontAskAgain;
    api.fanout.dontAskAgain = async () => void (neverAsked += 1);
    server.route([
      { name: 'child', match: isChild, replies: [reply.text('seen'), reply.text('seen'), reply.text('seen')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse(['a', 'b', 'c'].map((x) => ({ name: 'task', input: { prompt: `Look at ${x}`, description: `look at ${x}` } }))), reply.text('ok')] },
    ]);
    try {
      const run = api.controller.ask('Look at three things');
      await waitUntil(() => api.inbox.items().some((i) => i.kind === 'fanout'), 'the card waits in the inbox', 15_000);
      const card = must(api.inbox.items().find((i) => i.kind === 'fanout'));
      assert.equal(card.main, true);
      assert.equal(card.title, 'wants to start 3 subagents at once');
      assert.deepEqual(card.fanout?.tasks.map((t) => t.prompt), ['Look at a', 'Look at b', 'Look at c']);
      await waitUntil(() => allTasks(api.controller.snapshot().state).filter((t) => t.status === 'pending').length === 3, 'the three tasks pending in the tree', 15_000);
      assert.equal(requests().filter(isChild).length, 0, 'none started');
      await api.view.onMessage({ type: 'inbox_fanout', id: card.id, choice: 'run', dontAsk: true });
      await run;
      assert.deepEqual(allTasks(api.controller.snapshot().state).map((t) => t.status), ['completed', 'completed', 'completed']);
      assert.equal(neverAsked, 1, '"Don\'t ask again" was applied once');
    } finally {
      api.fanout.prompt = modalFanoutPrompt;
      api.fanout.dontAskAgain = dontAskAgain;
      await setPanelVisible(false);
    }
    server.assertAllConsumed();
    assert.deepEqual(modal, [], 'no modal while the panel shows');
  });

  it('Allow for this subagent: that subagent writes on unasked, a sibling subagent is still asked', async () => {
    await vscode.workspace.getConfiguration('delegate').update('permissionMode', 'default', vscode.ConfigurationTarget.Global);
    const asked: string[] = [];
    api.approver.prompt = async (q) => {
      asked.push(q.who);
      return q.who.includes('first') ? 'allow_agent' : 'deny';
    };
    server.route([
      { name: 'first', match: (r) => isChild(r) && JSON.stringify(r.body.messages).includes('FIRST'), replies: [reply.toolUse({ name: 'write_file', input: { path: 'f1.txt', content: '1\n' } }), reply.toolUse({ name: 'write_file', input: { path: 'f2.txt', content: '2\n' } }), reply.text('wrote two')] },
      { name: 'second', match: (r) => isChild(r) && JSON.stringify(r.body.messages).includes('SECOND'), replies: [reply.toolUse({ name: 'write_file', input: { path: 's1.txt', content: 's\n' } }), reply.text('was refused')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse({ name: 'task', input: { prompt: 'FIRST: write two files', description: 'first writer' } }),
          reply.toolUse({ name: 'task', input: { prompt: 'SECOND: write one file', description: 'second writer' } }),
          reply.text('ok'),
        ],
      },
    ]);
    try {
      await api.controller.ask('write files');
    } finally {
      api.approver.prompt = modalPrompt;
    }
    server.assertAllConsumed();
    assert.deepEqual(asked, ['Subagent “first writer”', 'Subagent “second writer”'], 'the first writer was asked once, the second writer too');
    assert.equal(readFileSync(join(workdir, 'f2.txt'), 'utf8'), '2\n');
    assert.equal(existsSync(join(workdir, 's1.txt')), false);
  });

  it('the panel inbox: two parallel subagents ask at once, both wait side by side; answering one in place unblocks only it', async () => {
    await vscode.workspace.getConfiguration('delegate').update('permissionMode', 'default', vscode.ConfigurationTarget.Global);
    await setPanelVisible(true);
    const modal: string[] = [];
    api.approver.prompt = async (q) => {
      modal.push(q.who);
      return 'deny';
    };
    server.route([
      { name: 'left', match: (r) => isChild(r) && JSON.stringify(r.body.messages).includes('LEFT'), replies: [reply.toolUse({ name: 'write_file', input: { path: 'left.txt', content: 'L\n' } }), reply.text('left done')] },
      { name: 'right', match: (r) => isChild(r) && JSON.stringify(r.body.messages).includes('RIGHT'), replies: [reply.toolUse({ name: 'bash', input: { command: 'echo right > right.txt' } }), reply.text('right done')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse([
            { name: 'task', input: { prompt: 'LEFT: write left.txt', description: 'left writer' } },
            { name: 'task', input: { prompt: 'RIGHT: write right.txt', description: 'right writer' } },
          ]),
          reply.text('ok'),
        ],
      },
    ]);
    try {
      const run = api.controller.ask('write both');
      await waitUntil(() => api.inbox.items().length === 2, 'both subagents wait in the inbox at once', 15_000);
      const items = api.inbox.items();
      const left = must(items.find((i) => i.who === 'Subagent “left writer”'));
      const right = must(items.find((i) => i.who === 'Subagent “right writer”'));
      assert.equal(left.input, 'left.txt');
      assert.equal(right.input, 'echo right > right.txt', 'the exact command');
      // Narrowest first: that one command for the session, then every bash command for the subagent or its task.
      assert.deepEqual(right.choices.map((c) => `${c.decision}: ${c.label}`), [
        'allow: Allow',
        'allow_session: Allow `echo right > right.txt` for this session',
        'allow_agent: Allow every bash command for this subagent',
        "allow_task: Allow every bash command for this task's subagents",
        'deny: Deny',
      ]);
      assert.ok(api.view.posted.includes('inbox'), 'the panel was sent the list');
      const waiting = (): string[] => Object.values(api.controller.snapshot().state.nodes).flatMap((n) => (n.kind === 'tool' && n.permission === 'asked' ? [n.name] : []));
      assert.deepEqual(waiting().sort(), ['bash', 'write_file'], 'both calls are marked as waiting on their rows');

      // Answered in place (the message the panel posts): the right writer goes on, the left one still waits.
      await api.view.onMessage({ type: 'inbox_answer', id: right.id, decision: 'allow' });
      await waitUntil(() => existsSync(join(workdir, 'right.txt')), 'the right writer ran its command', 15_000);
      await waitUntil(() => allTasks(api.controller.snapshot().state).some((t) => t.description === 'right writer' && t.status === 'completed'), 'the right writer finished', 15_000);
      assert.deepEqual(api.inbox.items().map((i) => i.id), [left.id], 'the left writer still waits');
      assert.equal(existsSync(join(workdir, 'left.txt')), false);

      await api.view.onMessage({ type: 'inbox_answer', id: left.id, decision: 'deny' });
      await run;
    } finally {
      api.approver.prompt = modalPrompt;
      await setPanelVisible(false);
    }
    server.assertAllConsumed();
    assert.deepEqual(modal, [], 'no modal for a subagent while the panel shows');
    assert.equal(existsSync(join(workdir, 'left.txt')), false, 'denied');
    assert.equal(api.inbox.items().length, 0);
  });

  it('the panel inbox: a subagent\'s ask_user is answered in place; Stop withdraws a waiting request as denied', async () => {
    await vscode.workspace.getConfiguration('delegate').update('permissionMode', 'default', vscode.ConfigurationTarget.Global);
    await setPanelVisible(true);
    const modal: string[] = [];
    const notifyWaiting = api.view.notifyWaiting;
    api.questions.prompt = async (_q, title) => {
      modal.push(title);
      return undefined;
    };
    try {
      server.route([
        { name: 'child', match: isChild, replies: [reply.toolUse({ name: 'ask_user', input: { question: 'Which port?', options: ['8080', '3000'] } }), reply.text('using 4000')] },
        { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'Pick the port', description: 'pick port' } }), reply.text('ok')] },
      ]);
      const run = api.controller.ask('Set up the server');
      await waitUntil(() => api.inbox.items().length === 1, 'the question waits in the inbox', 15_000);
      const question = must(api.inbox.items()[0]);
      assert.deepEqual([question.kind, question.who, question.title, question.options], ['question', 'Subagent “pick port”', 'Which port?', ['8080', '3000']]);
      // Hidden while the question waits: it stays in the panel, and a notification says so; its Show reveals the panel.
      const nudged: string[] = [];
      let show: (answer: boolean) => void = () => undefined;
      api.view.notifyWaiting = (line) => {
        nudged.push(line);
        return new Promise((resolve) => (show = resolve));
      };
      await setPanelVisible(false);
      await waitUntil(() => nudged.length === 1, 'a notification says the subagent waits', 15_000);
      show(true);
      await waitUntil(() => api.view.isVisible, 'Show on the notification reveals the panel again', 15_000);
      assert.deepEqual(nudged, ['1 subagent is waiting for you'], 'one notification, naming how many wait');
      assert.equal(api.inbox.items().length, 1, 'the question still waits');
      await api.view.onMessage({ type: 'inbox_reply', id: question.id, text: '4000' });
      await run;
      server.assertAllConsumed();
      assert.equal(lastToolResults(requests().filter(isChild).at(-1) as RecordedRequest)[0]?.content, 'The user answered: 4000', 'a typed answer');
      assert.deepEqual(modal, [], 'no quick pick');

      since = server.messageRequests().length;
      server.route([
        { name: 'child', match: isChild, replies: [reply.toolUse({ name: 'write_file', input: { path: 'stopped.txt', content: 'x\n' } }), reply.text('unreachable')] },
        { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'Write it', description: 'stopped writer' } }), reply.text('ok')] },
      ]);
      const stopped = api.controller.ask('Write stopped.txt');
      await waitUntil(() => api.inbox.items().length === 1, 'the write waits in the inbox', 15_000);
      await vscode.commands.executeCommand('delegate.stop');
      await stopped;
      assert.equal(api.inbox.items().length, 0, 'the stopped run\'s request is gone');
      assert.equal(existsSync(join(workdir, 'stopped.txt')), false, 'no answer is never an allow');
    } finally {
      api.questions.prompt = quickPickPrompt;
      api.view.notifyWaiting = notifyWaiting;
      await setPanelVisible(false);
    }
  });

  it('Allow for this session stops asking for writes; the change opens as a diff', async () => {
    let asked = 0;
    api.approver.prompt = async () => {
      asked++;
      return 'allow_session';
    };
    server.script(
      reply.toolUse({ name: 'write_file', input: { path: 'a.txt', content: 'one\n' } }),
      reply.toolUse({ name: 'write_file', input: { path: 'b.txt', content: 'two\n' } }),
      reply.text('wrote both'),
    );
    await api.controller.ask('write two files');
    server.assertAllConsumed();
    assert.equal(asked, 1);
    assert.equal(readFileSync(join(workdir, 'b.txt'), 'utf8'), 'two\n');
    const writeId = lastToolResults(requests()[1] as RecordedRequest)[0]?.tool_use_id;
    assert.ok(typeof writeId === 'string');
    const diffOf = async (): Promise<string[]> => {
      assert.ok(await api.changes.openToolChange(writeId));
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
      assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'a diff editor is open');
      return [(await vscode.workspace.openTextDocument(tab.input.original)).getText(), (await vscode.workspace.openTextDocument(tab.input.modified)).getText()];
    };
    assert.deepEqual(await diffOf(), ['', 'one\n'], 'a new file: nothing → what was written');
    // A reopened session (a reload, the history list) keeps its diffs: they are served from the session folder.
    const id = api.controller.openSessionId;
    assert.ok(id);
    api.controller.newSession();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.equal(await api.changes.openToolChange(writeId), false, 'another session has no such call');
    assert.ok(await api.controller.openSession(id));
    assert.deepEqual(await diffOf(), ['', 'one\n']);
  });

  it('a finished task\'s Changes: a file opens the diff of its kept contents; Revert (confirmed) puts it back and the view says so', async () => {
    await vscode.workspace.getConfiguration('delegate').update('permissionMode', 'acceptEdits', vscode.ConfigurationTarget.Global);
    writeFileSync(join(workdir, 'settings.ini'), 'level=1\n');
    server.route([
      {
        name: 'child',
        match: isChild,
        replies: [
          reply.toolUse({ name: 'read_file', input: { path: 'settings.ini' } }),
          reply.toolUse([
            { name: 'edit_file', input: { path: 'settings.ini', old_text: 'level=1', new_text: 'level=2' } },
            { name: 'write_file', input: { path: 'added.ini', content: 'new=1\n' } },
          ]),
          reply.text('Raised the level and added a file.'),
        ],
      },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'Raise the level', description: 'raise level' } }), reply.text('ok')] },
    ]);
    await api.controller.ask('Raise the level');
    server.assertAllConsumed();
    const task = allTasks(api.controller.snapshot().state)[0] as TaskNode;
    assert.deepEqual(task.changes?.files.map((f) => [f.path, f.action, f.added, f.removed]), [['settings.ini', 'modified', 1, 1], ['added.ini', 'created', 1, 0]]);
    assert.ok(task.agentId);

    await api.changes.openChange(task.agentId, 'settings.ini');
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'a diff editor is open');
    const left = await vscode.workspace.openTextDocument(tab.input.original);
    const right = await vscode.workspace.openTextDocument(tab.input.modified);
    assert.deepEqual([left.getText(), right.getText()], ['level=1\n', 'level=2\n'], 'served from the session folder');

    const asked: string[] = [];
    api.changes.confirm = async (message, detail) => {
      asked.push(`${message}\n${detail}`);
      return true;
    };
    try {
      await api.changes.revert(task.agentId);
    } finally {
      api.changes.confirm = async () => false;
    }
    assert.equal(asked.length, 1);
    assert.match(asked[0] ?? '', /^Revert the changes of the subagent "raise level" \(\w+\)\?\n• settings\.ini: put back its previous content \(it modified it\)\n• added\.ini: delete \(it created it\)/);
    assert.equal(readFileSync(join(workdir, 'settings.ini'), 'utf8'), 'level=1\n');
    assert.equal(existsSync(join(workdir, 'added.ini')), false);
    const after = allTasks(api.controller.snapshot().state)[0] as TaskNode;
    assert.deepEqual(after.changes?.files.map((f) => f.revert?.outcome), ['restored', 'deleted']);
    const transcript = api.controller.current?.store.sessionFile;
    assert.ok(transcript && readFileSync(transcript, 'utf8').includes('"type":"changes_reverted"'), 'recorded in the transcript');
  });

  it('two subagents whose commands overlapped: Revert leaves a shared file alone unless checked, and puts back the subagent\'s own', async () => {
    await vscode.workspace.getConfiguration('delegate').update('permissionMode', 'bypassPermissions', vscode.ConfigurationTarget.Global);
    for (const f of ['own-a.txt', 'shared-s.txt']) rmSync(join(workdir, f), { force: true });
    const childOf = (marker: string) => (r: RecordedRequest): boolean => isChild(r) && firstUserText(r).includes(marker);
    // A's command runs on while B's writes shared-s.txt through a script neither command names: either could have.
    const aCmd = 'sleep 1.5; echo a > own-a.txt';
    server.route([
      { name: 'A', match: childOf('CHILD-A'), replies: [reply.toolUse({ name: 'bash', input: { command: aCmd } }), reply.text('A done.')] },
      { name: 'B', match: childOf('CHILD-B'), replies: [reply.toolUse({ name: 'bash', input: { command: "sleep 0.4; sh -c 'echo s > shared-s.txt'" } }, { delayMs: 300 }), reply.text('B done.')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse([
            { name: 'task', input: { prompt: 'CHILD-A: write a', description: 'write a' } },
            { name: 'task', input: { prompt: 'CHILD-B: write s', description: 'write s' } },
          ]),
          reply.text('ok'),
        ],
      },
    ]);
    const asked: string[] = [];
    api.changes.confirm = async (message, detail) => {
      asked.push(`${message}\n${detail}`);
      return true;
    };
    try {
      await api.controller.ask('Write both');
      server.assertAllConsumed();
      const tasks = allTasks(api.controller.snapshot().state);
      const a = tasks.find((t) => t.description === 'write a');
      const b = tasks.find((t) => t.description === 'write s');
      assert.ok(a?.agentId && b?.agentId);
      assert.deepEqual(a.changes?.files.map((f) => [f.path, f.sharedWith?.map((c) => c.agentId)]), [['shared-s.txt', [b.agentId]], ['own-a.txt', undefined]]);

      // B's only file is shared: nothing to do unless checked, and no modal asks.
      await api.changes.revert(b.agentId);
      assert.equal(asked.length, 0);
      assert.equal(readFileSync(join(workdir, 'shared-s.txt'), 'utf8'), 's\n');

      await api.changes.revert(a.agentId);
      assert.equal(asked.length, 1);
      assert.match(asked[0] ?? '', new RegExp(`\\n– shared-s\\.txt: left alone — shared: \`sleep 0\\.4; sh -c 'echo s > shared-s\\.txt'\` of the subagent "write s" \\(${b.agentId}\\) ran at the same time and may have changed it \\(check it in the Changes row to include it\\)\\n• own-a\\.txt: delete \\(it created it\\)`));
      assert.equal(readFileSync(join(workdir, 'shared-s.txt'), 'utf8'), 's\n', 'left alone');
      assert.equal(existsSync(join(workdir, 'own-a.txt')), false);
      let view = allTasks(api.controller.snapshot().state).find((t) => t.agentId === a.agentId);
      assert.deepEqual(view?.changes?.files.map((f) => [f.path, f.revert?.outcome]), [['shared-s.txt', 'skipped'], ['own-a.txt', 'deleted']]);

      // Checked in the Changes row (the panel sends it with Revert): put back too.
      await api.changes.revert(a.agentId, ['shared-s.txt']);
      assert.match(asked[1] ?? '', /\n• shared-s\.txt: delete \(it created it; shared, included: the subagent "write s" \(\w+\) may also have changed it\)$/m);
      assert.equal(existsSync(join(workdir, 'shared-s.txt')), false);
      view = allTasks(api.controller.snapshot().state).find((t) => t.agentId === a.agentId);
      assert.deepEqual(view?.changes?.files.map((f) => [f.path, f.revert?.outcome]), [['shared-s.txt', 'deleted'], ['own-a.txt', 'deleted']]);
    } finally {
      api.changes.confirm = async () => false;
      await vscode.workspace.getConfiguration('delegate').update('permissionMode', 'default', vscode.ConfigurationTarget.Global);
    }
  });

  it('grep and glob run on the ripgrep VS Code ships', async () => {
    writeFileSync(join(workdir, 'grep-me.txt'), 'needle-7f2 in a haystack\n');
    server.script(
      reply.toolUse([
        { name: 'grep', input: { pattern: 'needle-7f2', output_mode: 'content' } },
        { name: 'glob', input: { pattern: '*.txt' } },
      ]),
      reply.text('found it'),
    );
    await api.controller.ask('find the needle');
    server.assertAllConsumed();
    const [grep, glob] = lastToolResults(requests()[1] as RecordedRequest).map((r) => String(r.content));
    assert.equal(grep, 'grep-me.txt:1:needle-7f2 in a haystack');
    assert.match(glob ?? '', /grep-me\.txt/);
  });

  it('with reviewSubagentResults a finished result waits on its node; Edit result sends the edited text', async () => {
    const config = vscode.workspace.getConfiguration('delegate');
    await config.update('reviewSubagentResults', true, vscode.ConfigurationTarget.Global);
    api.controller.newSession();
    try {
      server.route([
        { name: 'child', match: isChild, replies: [reply.text('The loader reads 3 files.')] },
        { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'Read the loader.', description: 'read loader' } }), reply.text('noted')] },
      ]);
      api.controller.review.askText = async (_title, text) => `${text} (checked by hand: 4 files)`;
      const run = api.controller.ask('How many files does the loader read?');
      await waitUntil(() => api.controller.review.waiting.length === 1, 'the result is held for review', 15_000);
      const held = allTasks(api.controller.snapshot().state)[0];
      assert.equal(held?.review, 'pending');
      assert.equal(requests().filter((r) => !isChild(r)).length, 1, 'the parent has not seen it yet');
      await api.controller.review.act(api.controller.review.waiting[0] as string, 'edit');
      await run;
      server.assertAllConsumed();
      const toParent = String(lastToolResults(requests().filter((r) => !isChild(r))[1] as RecordedRequest)[0]?.content);
      assert.match(toParent, /^The loader reads 3 files\.[\s\S]*\(checked by hand: 4 files\)\n\[This result was edited by the user/);
      assert.equal(allTasks(api.controller.snapshot().state)[0]?.review, 'edited');
    } finally {
      await config.update('reviewSubagentResults', undefined, vscode.ConfigurationTarget.Global);
      api.controller.newSession();
    }
  });

  it('with reviewSubagentResults a send_message reply waits for review too; the parent gets only the edited text', async () => {
    const config = vscode.workspace.getConfiguration('delegate');
    await config.update('reviewSubagentResults', true, vscode.ConfigurationTarget.Global);
    api.controller.newSession();
    try {
      server.route([
        { name: 'child', match: isChild, replies: [reply.text('x is in a.ts'), reply.text('RAW-REPLY: y is in b.ts')] },
        {
          name: 'parent',
          match: () => true,
          replies: [
            reply.toolUse({ name: 'task', input: { prompt: 'Find x.', description: 'finder', name: 'finder' } }),
            reply.toolUse({ name: 'send_message', input: { to: 'finder', message: 'And y?' } }),
            reply.text('noted'),
          ],
        },
      ]);
      api.controller.review.askText = async () => 'REVIEWED: y is in c.ts';
      const run = api.controller.ask('Where are x and y?');
      await waitUntil(() => api.controller.review.waiting.length === 1, 'the task result is held for review', 15_000);
      await api.controller.review.act(api.controller.review.waiting[0] as string, 'accept');
      await waitUntil(() => api.controller.review.waiting.length === 1 && requests().filter(isChild).length === 2, 'the send_message reply is held for review', 15_000);
      assert.equal(requests().filter((r) => !isChild(r)).length, 2, 'the parent has not seen the reply yet');
      await api.controller.review.act(api.controller.review.waiting[0] as string, 'edit');
      await run;
      server.assertAllConsumed();
      const toParent = String(lastToolResults(requests().filter((r) => !isChild(r))[2] as RecordedRequest)[0]?.content);
      assert.match(toParent, /^REVIEWED: y is in c\.ts\n\[This result was edited by the user/);
      assert.doesNotMatch(toParent, /RAW-REPLY/);
    } finally {
      await config.update('reviewSubagentResults', undefined, vscode.ConfigurationTarget.Global);
      api.controller.newSession();
    }
  });

  it('Stop cancels a running subagent', async () => {
    server.route([
      { name: 'child', match: isChild, replies: [reply.stall()] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'wait', description: 'waiter' } })] },
    ]);
    const run = api.controller.ask('start and wait');
    await waitUntil(() => requests().some(isChild), 'the child asked the model', 15_000);
    assert.equal(api.controller.isRunning, true);
    await vscode.commands.executeCommand('delegate.stop');
    await run;
    const task = allTasks(api.controller.snapshot().state)[0];
    assert.equal(task?.status, 'cancelled');
    assert.equal(api.controller.isRunning, false);
  });

  it('deactivate (the editor closing) kills a command that ignores SIGTERM and records the interruption', async () => {
    await vscode.workspace.getConfiguration('delegate').update('permissionMode', 'bypassPermissions', vscode.ConfigurationTarget.Global);
    const pidFile = join(workdir, 'stubborn.pid');
    // Found by its arguments: inside the bash sandbox (its own pid namespace) `$!` is not a host pid.
    const seconds = `300.${process.pid}`;
    server.script(reply.toolUse({ name: 'bash', input: { command: `trap '' TERM; sleep ${seconds} & echo started > stubborn.pid; wait` } }));
    const run = api.controller.ask('start a stubborn command');
    await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the command started', 15_000);
    let pid = 0;
    await waitUntil(() => (pid = hostPidOf(['sleep', seconds]) ?? 0) > 0, 'the sleep is seen from the host', 15_000);
    const transcript = api.controller.current?.store.sessionFile;
    const sandboxTmp = api.controller.current?.sandbox.tempFolder;
    assert.ok(sandboxTmp && existsSync(sandboxTmp), 'the command runs in the sandbox, with its private /tmp');
    // What deactivate() awaits (calling deactivate itself would end this extension host's tests).
    await api.controller.shutdown('the editor closed the extension');
    await run;
    await waitUntil(() => !isAlive(pid), 'the process that ignored SIGTERM is gone', 3000);
    assert.equal(existsSync(sandboxTmp), false, "the sandbox's private /tmp went with the session");
    assert.ok(transcript);
    const ends = readFileSync(transcript, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; status?: string }).filter((e) => e.type === 'agent_finished');
    assert.equal(ends.at(-1)?.status, 'cancelled');
    await vscode.workspace.getConfiguration('delegate').update('permissionMode', 'default', vscode.ConfigurationTarget.Global);
  });

  it('Show History and opening a session rebuild the view from the transcript; Compact Conversation compacts it', async () => {
    server.route([
      { name: 'summary', match: (r) => systemText(r).startsWith('You summarize'), replies: [reply.text('SUMMARY: counted to three')] },
      { name: 'parent', match: () => true, replies: ['one', 'two', 'three'].map((n) => reply.text(`${n}: ${'counting at length. '.repeat(60)}`)) },
    ]);
    for (const p of ['1?', '2?', '3?']) await api.controller.ask(p);
    const id = api.controller.openSessionId;
    assert.ok(id);
    api.controller.newSession();
    const listed = await api.controller.history();
    assert.equal(listed.find((s) => s.id === id)?.prompts, 3);
    assert.ok(await api.controller.openSession(id));
    const texts = Object.values(api.controller.snapshot().state.nodes).filter((n) => n.kind === 'text').map((n) => (n.kind === 'text' ? n.text : ''));
    assert.deepEqual(texts.map((t) => t.split(':')[0]), ['one', 'two', 'three']);
    await vscode.commands.executeCommand('delegate.compact');
    const compacted = Object.values(api.controller.snapshot().state.nodes).find((n) => n.kind === 'compaction');
    assert.ok(compacted, 'a compaction row');
    server.assertAllConsumed();
  });
});

describe('Delegate in the extension host: hooks and project instructions', () => {
  let api: DelegateApi;
  let server: MessagesApiServer;
  let workdir: string;

  before(async () => {
    api = (await vscode.extensions.getExtension<DelegateApi>(EXTENSION_ID)?.activate()) as DelegateApi;
    server = await startMessagesApiServer();
    process.env.ANTHROPIC_API_KEY = 'test-key';
    workdir = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    await vscode.workspace.getConfiguration('delegate').update('baseUrl', server.baseURL, vscode.ConfigurationTarget.Global);
    mkdirSync(join(workdir, '.claude'), { recursive: true });
    const block = 'echo "no shell here (project $(basename "$CLAUDE_PROJECT_DIR"))" >&2; exit 2';
    writeFileSync(join(workdir, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: block }] }] } }));
    writeFileSync(join(workdir, 'CLAUDE.md'), 'EDITOR-MARKER-5: answer briefly.\n');
  });

  after(async () => {
    // Later suites share the workspace.
    rmSync(join(workdir, '.claude'), { recursive: true, force: true });
    rmSync(join(workdir, 'CLAUDE.md'), { force: true });
    await server.close();
  });

  it('a trusted workspace runs its hooks and sends its CLAUDE.md; the panel names the file; untrusted, only the user\'s hooks load', async () => {
    api.controller.newSession();
    server.script(reply.toolUse({ name: 'bash', input: { command: 'ls' } }), reply.text('No shell.'));
    await api.controller.ask('list the files');
    server.assertAllConsumed();
    const [first, second] = server.messageRequests();
    assert.ok(first && second);
    assert.match(systemText(first), /## From CLAUDE\.md \(project instructions\)\n\nEDITOR-MARKER-5/);
    const [result] = lastToolResults(second);
    assert.equal(result?.is_error, true);
    assert.match(String(result?.content), /Denied by a PreToolUse hook: no shell here \(project delegate-ws-/);
    const notices = Object.values(api.controller.snapshot().state.nodes).flatMap((n: ViewNode) => (n.kind === 'notice' ? [n.text] : []));
    assert.ok(notices.some((t) => /^Project instructions: CLAUDE\.md \(\d+ characters\)\.$/.test(t)), notices.join('\n'));

    const resolved = await resolveSessionConfig({ cwd: workdir, env: {}, overrides: {}, trusted: false, host: 'editor', home: homedir() });
    assert.ok(!('error' in resolved), 'resolved');
    const untrusted = resolved.files;
    assert.equal(untrusted.commandHooks?.groups.PreToolUse.length, 0, 'the workspace\'s hooks wait for trust');
    assert.deepEqual(untrusted.commandHooks?.problems, [
      { level: 'info', source: '.claude/settings.json', text: 'its hooks do not run until you trust this workspace (yours in ~/.claude/settings.json do)' },
    ]);
    assert.deepEqual(untrusted.instructions?.files, ['CLAUDE.md']);
  });
});


/** The host pid of a live process whose argument list is exactly `argv`. */
function hostPidOf(argv: string[]): number | undefined {
  const cmdline = `${argv.join('\0')}\0`;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8') === cmdline && isAlive(Number(entry))) return Number(entry);
    } catch {
      // Exited while we looked.
    }
  }
  return undefined;
}

