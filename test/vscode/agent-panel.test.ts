/**
 * Agent files' fields the panel shows, through the real editor (issue 28). Copilot's `handoffs`: its subagent
 * completes, its task node holds them; the panel's button with `send: true` asks the main agent to start the named
 * agent with the handoff's prompt (the reviewer runs with it), one without fills the panel's prompt box
 * (`fill_prompt`), and the panel's Send of that box (`prompt` naming the agent) does the same; the prompt rows the
 * panel gets show the user's words and the agent, never the prompt written for the main agent, live and reopened
 * from history. Claude Code's
 * `memory`: the task node names the folder, and the marker's press opens its MEMORY.md in an editor.
 */
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DelegateApi } from '../../src/vscode/extension';
import { allTasks } from '../../src/view-model/session-view';
import { decodeSnapshot, encodeSnapshot } from '../../src/view-model/snapshot-codec';
import { firstUserText, reply, systemText, type MessagesApiServer, type RecordedRequest } from '../fixtures/messages-api-server';
import { startTestHost } from './test-host';
import { isChild } from '../kit/is-child';
import { waitUntil } from '../kit/wait';


const PLANNER = `---
name: planner
description: Plans a feature before anyone builds it.
handoffs:
  - label: Review the plan
    agent: reviewer
    prompt: Review the login plan for gaps.
    send: true
  - label: Implement it
    agent: reviewer
    prompt: Check the implementation against the plan.
---
PLANNER-BODY: you write plans.
`;
const REVIEWER = `---
name: reviewer
description: Reviews plans and code.
---
REVIEWER-BODY: you review.
`;

describe('Delegate in the extension host: agent files in the panel (handoffs, memory)', () => {
  let api: DelegateApi;
  let server: MessagesApiServer;
  let workdir: string;
  let since = 0;
  const requests = (): RecordedRequest[] => server.messageRequests().slice(since);

  before(async () => {
    ({ api, server, workdir } = await startTestHost());
    mkdirSync(join(workdir, '.claude', 'agents'), { recursive: true });
    writeFileSync(join(workdir, '.claude', 'agents', 'planner.md'), PLANNER);
    writeFileSync(join(workdir, '.claude', 'agents', 'reviewer.md'), REVIEWER);
    await vscode.commands.executeCommand('delegate.panel.focus');
    await waitUntil(() => api.view.posted.includes('snapshot'), 'the panel loads', 15_000);
  });

  after(async () => {
    api.controller.newSession();
    rmSync(join(workdir, '.claude'), { recursive: true, force: true });
    await server.close();
  });

  /** The panel's prompt rows, from the snapshot as it is posted: what each shows, and the handoff mark's agent and label. */
  const promptRows = (): string[][] => {
    const state = decodeSnapshot(encodeSnapshot(api.controller.snapshot().state));
    return state.items.flatMap((id) => {
      const n = state.nodes[id];
      return n?.kind !== 'user' ? [] : [n.handoff ? [n.handoff.text, `→ ${n.handoff.agent} (handoff: ${n.handoff.label})`] : [n.text]];
    });
  };

  const reviewer = (said: string): Parameters<MessagesApiServer['route']>[0][number] => ({
    name: `reviewer ${said}`,
    match: (req) => isChild(req) && systemText(req).includes('REVIEWER-BODY'),
    replies: [reply.text(said)],
  });

  it('send: true starts the named agent through the main agent; the other fills the prompt box, whose Send does the same', async () => {
    api.controller.newSession();
    since = server.messageRequests().length;
    server.route([
      { name: 'planner', match: (req) => isChild(req) && systemText(req).includes('PLANNER-BODY'), replies: [reply.text('Plan: a form, then a session cookie.')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { description: 'plan the login', prompt: 'Plan the login page.', subagent_type: 'planner' } }), reply.text('Planned.')] },
    ]);
    await vscode.commands.executeCommand('delegate.ask', 'Plan the login page.');
    server.assertAllConsumed();
    const planner = allTasks(api.controller.snapshot().state).find((t) => t.agentType === 'planner');
    assert.ok(planner?.agentId, 'the planner ran');
    assert.deepEqual(planner.handoffs?.map((h) => h.label), ['Review the plan', 'Implement it'], 'its node holds the handoffs');

    // send: true — the button sends at once: the main agent is asked to start the reviewer with the handoff's prompt.
    since = server.messageRequests().length;
    server.route([
      reviewer('Reviewed: add rate limiting.'),
      {
        name: 'parent',
        match: () => true,
        replies: [reply.toolUse({ name: 'task', input: { description: 'review the plan', prompt: 'Review the login plan for gaps. The plan: a form, then a session cookie.', subagent_type: 'reviewer' } }), reply.text('The reviewer says: add rate limiting.')],
      },
    ]);
    const filledBefore = api.view.posted.filter((t) => t === 'fill_prompt').length;
    await api.view.onMessage({ type: 'handoff', agentId: planner.agentId, index: 0 });
    server.assertAllConsumed();
    const asked = requests().find((r) => !isChild(r));
    assert.ok(asked);
    const last = asked.body.messages?.at(-1);
    const said = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content);
    assert.match(said, /Hand this over to the \\?"reviewer\\?" agent: start it with the task tool \(subagent_type \\?"reviewer\\?"\)/);
    assert.match(said, /Review the login plan for gaps\./);
    const review = allTasks(api.controller.snapshot().state).find((t) => t.agentType === 'reviewer');
    assert.equal(review?.status, 'completed', 'the reviewer ran');
    assert.equal(api.view.posted.filter((t) => t === 'fill_prompt').length, filledBefore, 'a sent handoff fills nothing');

    // Without send: the box is filled (nothing runs); the panel's Send names the agent.
    since = server.messageRequests().length;
    await api.view.onMessage({ type: 'handoff', agentId: planner.agentId, index: 1 });
    assert.equal(api.view.posted.filter((t) => t === 'fill_prompt').length, filledBefore + 1, 'the prompt box is filled');
    assert.equal(requests().length, 0, 'nothing was sent');
    server.route([
      reviewer('Matches the plan.'),
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { description: 'check it', prompt: 'Check the implementation against the plan (a form, a cookie).', subagent_type: 'reviewer' } }), reply.text('It matches.')] },
    ]);
    await api.view.onMessage({ type: 'prompt', text: 'Check the implementation against the plan.', handoff: { agent: 'reviewer', label: 'Implement it' } });
    server.assertAllConsumed();
    const sent = requests().find((r) => !isChild(r));
    assert.ok(sent && JSON.stringify(sent.body.messages?.at(-1)).includes('subagent_type \\"reviewer\\"'), 'the Send named the agent');
    assert.ok(requests().some((r) => isChild(r) && firstUserText(r).includes('Check the implementation against the plan')));

    // The prompt rows show what the user sent, with the agent it went to; the model got the written prompts above.
    const rows = [
      ['Plan the login page.'],
      ['Review the login plan for gaps.', '→ reviewer (handoff: Review the plan)'],
      ['Check the implementation against the plan.', '→ reviewer (handoff: Implement it)'],
    ];
    assert.deepEqual(promptRows(), rows);
    // Reopened from history (its transcript): the same rows.
    const id = api.controller.openSessionId;
    assert.ok(id);
    api.controller.newSession();
    assert.deepEqual(promptRows(), []);
    assert.ok(await api.controller.openSession(id));
    assert.deepEqual(promptRows(), rows, 'a reopened session shows the user\'s words too');
  });

  it('memory: project — the task node names the folder; the marker\'s press opens its MEMORY.md', async () => {
    api.controller.newSession();
    writeFileSync(join(workdir, '.claude', 'agents', 'scribe.md'), '---\nname: scribe\ndescription: Keeps notes.\nmemory: project\n---\nSCRIBE-BODY\n');
    const dir = join(workdir, '.claude', 'agent-memory', 'scribe');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'MEMORY.md'), '- SCRIBE-NOTE: the build is make all\n');
    server.route([
      { name: 'scribe', match: (req) => isChild(req) && systemText(req).includes('SCRIBE-BODY'), replies: [reply.text('noted')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { description: 'take notes', prompt: 'Note the build.', subagent_type: 'scribe' } }), reply.text('Done.')] },
    ]);
    await vscode.commands.executeCommand('delegate.ask', 'Take notes.');
    server.assertAllConsumed();
    const scribe = allTasks(api.controller.snapshot().state).find((t) => t.agentType === 'scribe');
    assert.deepEqual(scribe?.memory, { scope: 'project', dir });
    await api.view.onMessage({ type: 'open_file', path: join(dir, 'MEMORY.md') });
    const opened = vscode.window.activeTextEditor?.document;
    assert.equal(opened && realpathSync(opened.uri.fsPath), realpathSync(join(dir, 'MEMORY.md')));
    assert.match(opened?.getText() ?? '', /SCRIBE-NOTE/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
