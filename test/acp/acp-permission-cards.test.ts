/**
 * Where a permission request goes and what it leaves behind, through the BUILT CLI's stdio with the ACP SDK's
 * client: the request is an update of a card the client knows (a folded child's goes on its `task` call, not on a
 * call the client was never told of), `pending` while it waits, and once answered the card is as it was — its own
 * title, not "… wants to: …". With and without the client's `subagents` capability.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { methods, type ClientCapabilities, type ContentBlock, type RequestPermissionRequest, type ToolCallUpdate } from '@agentclientprotocol/sdk/unstable';
import { reply } from '../fixtures/messages-api-server';
import { cliSuite } from '../kit/cli-suite';
import { isChild } from '../kit/is-child';
import { must } from '../kit/must';
import { acpClients, updatesOf, type AcpClient } from './acp-client';

const text = (t: string): ContentBlock[] => [{ type: 'text', text: t }];
type Card = Omit<ToolCallUpdate, 'toolCallId'>;

describe('delegate acp: permission requests on the cards the client shows', function () {
  this.timeout(40_000);
  const cli = cliSuite();
  const started = acpClients(() => cli.env());
  /** Each request, with how many updates the client had when it came (the order the client applied them in). */
  let asked: { request: RequestPermissionRequest; after: number }[] = [];
  const start = async (capabilities: ClientCapabilities, answer = 'allow_once'): Promise<AcpClient> => {
    asked = [];
    const client: AcpClient = await started({
      capabilities,
      permission: (request) => {
        asked.push({ request, after: client.updates.length });
        return { outcome: { outcome: 'selected', optionId: answer } };
      },
    });
    return client;
  };

  /** A card as the client holds it: every update on it, the permission requests included, applied in arrival order. */
  const cardHistory = (client: AcpClient, sessionId: string, toolCallId: string): Card[] => {
    const states: Card[] = [];
    let card: Card = {};
    const apply = (u: Card & { toolCallId: string }): void => {
      if (u.toolCallId !== toolCallId) return;
      card = { ...card, ...Object.fromEntries(Object.entries(u).filter(([k, v]) => k !== 'toolCallId' && k !== 'sessionUpdate' && v !== undefined && v !== null)) };
      states.push(card);
    };
    client.updates.forEach((n, i) => {
      for (const a of asked) if (a.after === i && a.request.sessionId === sessionId) apply(a.request.toolCall);
      if (n.sessionId === sessionId && (n.update.sessionUpdate === 'tool_call' || n.update.sessionUpdate === 'tool_call_update')) apply(n.update);
    });
    return states;
  };

  for (const answer of ['allow_once', 'reject_once']) {
    it(`the main agent's write (${answer}): asked as pending under "wants to", then the card has its own title again and goes on`, async () => {
      cli.api.script(reply.toolUse({ name: 'write_file', input: { path: 'a.txt', content: 'A\n' } }), reply.text('done'));
      const client = await start({}, answer);
      const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: cli.dirs.workdir, mcpServers: [] });
      await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('write a') });
      const { request } = must(asked[0]);
      assert.equal(request.toolCall.status, 'pending');
      assert.equal(request.toolCall.title, 'The main agent wants to: Write a.txt');
      const states = cardHistory(client, sessionId, request.toolCall.toolCallId);
      const atQuestion = states.findIndex((s) => s.title?.includes('wants to'));
      assert.ok(atQuestion > 0);
      assert.ok(states.slice(0, atQuestion + 1).every((s) => s.status === 'pending'), 'nothing runs before the answer');
      assert.equal(states[atQuestion + 1]?.title, 'Write a.txt', 'its title back as soon as it is answered');
      const last = must(states.at(-1));
      assert.equal(last.title, 'Write a.txt');
      assert.equal(last.kind, 'edit');
      assert.equal(last.status, answer === 'allow_once' ? 'completed' : 'failed');
    });
  }

  it('without subagent sessions: a child\'s request goes on its task call (no card the client was never told of), which then reads as before', async () => {
    writeFileSync(join(cli.dirs.workdir, 'notes.txt'), 'gamma notes\n');
    cli.api.route([
      { name: 'main', match: (r) => !isChild(r), replies: [reply.toolUse({ name: 'task', input: { description: 'gamma job', prompt: 'CHILD-C: note it' } }), reply.text('gamma is done')] },
      { name: 'C', match: isChild, replies: [reply.toolUse({ name: 'write_file', input: { path: 'seen.txt', content: 'seen\n' } }), reply.text('C noted it')] },
    ]);
    const client = await start({});
    const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: cli.dirs.workdir, mcpServers: [] });
    await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('delegate it') });
    const task = must(updatesOf(client, sessionId, 'tool_call').find((t) => t.title === 'Delegate: gamma job'));
    const { request } = must(asked[0]);
    assert.equal(request.sessionId, sessionId);
    assert.equal(request.toolCall.toolCallId, task.toolCallId, 'on the task call the client shows');
    assert.equal(request.toolCall.title, 'Subagent "gamma job" (general-purpose) wants to: Write seen.txt');
    assert.equal(request.toolCall.status, 'pending');
    const states = cardHistory(client, sessionId, task.toolCallId);
    const atQuestion = states.findIndex((s) => s.title?.includes('wants to'));
    const after = must(states[atQuestion + 1]);
    assert.equal(after.title, 'Delegate: gamma job');
    assert.equal(after.kind, 'think');
    assert.equal(after.status, 'in_progress');
    assert.deepEqual(after.rawInput, { description: 'gamma job', prompt: 'CHILD-C: note it' });
    assert.match(JSON.stringify(after.content), /gamma job\*\* \(general-purpose\) · running/);
    assert.equal(must(states.at(-1)).title, 'Delegate: gamma job');
  });

  it('with subagent sessions: a child\'s request goes on its own call in its own session, which then reads as before', async () => {
    cli.api.route([
      { name: 'main', match: (r) => !isChild(r), replies: [reply.toolUse({ name: 'task', input: { description: 'delta job', prompt: 'CHILD-D: note it' } }), reply.text('delta is done')] },
      { name: 'D', match: isChild, replies: [reply.toolUse({ name: 'write_file', input: { path: 'seen.txt', content: 'seen\n' } }), reply.text('D noted it')] },
    ]);
    const client = await start({ subagents: {} });
    const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: cli.dirs.workdir, mcpServers: [] });
    await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('delegate it') });
    const { request } = must(asked[0]);
    assert.notEqual(request.sessionId, sessionId);
    const own = must(updatesOf(client, request.sessionId, 'tool_call')[0]);
    assert.equal(request.toolCall.toolCallId, own.toolCallId);
    const states = cardHistory(client, request.sessionId, own.toolCallId);
    assert.equal(must(states.at(-1)).title, 'Write seen.txt');
    assert.equal(must(states.at(-1)).status, 'completed');
  });
});
