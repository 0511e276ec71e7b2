/**
 * `delegate acp`'s features a Zed or JetBrains user expects of an agent (issue 29's Features), each driven through
 * the BUILT CLI with the official SDK's client (acp-client.ts) against the local Messages-API server: the mode and
 * model selectors, slash commands, images, live command output, session resume and close.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { methods, type ContentBlock, type SessionConfigOption } from '@agentclientprotocol/sdk/unstable';
import { reply, type WireBlock } from '../fixtures/messages-api-server';
import { cliSuite } from '../kit/cli-suite';
import { isChild } from '../kit/is-child';
import { must } from '../kit/must';
import { acpClients, updatesOf } from './acp-client';

const text = (t: string): ContentBlock[] => [{ type: 'text', text: t }];
const optionOf = (options: SessionConfigOption[] | null | undefined, id: string): SessionConfigOption => must((options ?? []).find((o) => o.id === id));
const rejected = async (p: Promise<unknown>): Promise<{ code: number; message: string }> => {
  try {
    await p;
  } catch (err) {
    const e = err as { code?: number; message?: string };
    return { code: e.code ?? 0, message: e.message ?? String(err) };
  }
  assert.fail('expected the request to be refused');
};

describe('delegate acp: the features of the reference adapters', function () {
  this.timeout(40_000);
  const cli = cliSuite();
  const start = acpClients(() => cli.env());

  describe('mode and model selectors', () => {
    it('offers the mode and the models as config options; a picked model (an alias too) runs the next prompts, a reopened session too; set_model, set_mode follow', async () => {
      const { workdir } = cli.dirs;
      const client = await start({ env: { DELEGATE_MODEL_ALIASES: 'fast=claude-fast-1' } });
      const created = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
      const { sessionId } = created;
      const model = optionOf(created.configOptions, 'model');
      assert.equal(model.type, 'select');
      assert.equal(model.category, 'model');
      assert.equal(model.currentValue, 'claude-sonnet-5-5');
      const values = model.type === 'select' ? model.options.flatMap((o) => ('value' in o ? [o.value] : o.options.map((x) => x.value))) : [];
      assert.deepEqual(values, ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5', 'claude-fast-1']);
      assert.equal(optionOf(created.configOptions, 'mode').currentValue, 'default');

      // The picker: an alias names its model; the answer and the update carry the whole set.
      const set = await client.agent.request(methods.agent.session.setConfigOption, { sessionId, configId: 'model', value: 'haiku' });
      assert.equal(optionOf(set.configOptions, 'model').currentValue, 'claude-haiku-5-5');
      await client.waitFor((n) => n.update.sessionUpdate === 'config_option_update', 'config_option_update after the model pick');
      cli.api.script(reply.text('on haiku'));
      await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('hi') });
      assert.equal(cli.api.messageRequests().at(-1)?.body.model, 'claude-haiku-5-5');

      // The older session/set_model.
      await client.agent.request('session/set_model', { sessionId, modelId: 'claude-fast-1' });
      cli.api.script(reply.text('on fast'));
      await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('again') });
      assert.equal(cli.api.messageRequests().at(-1)?.body.model, 'claude-fast-1');

      // The mode as a config option: current_mode_update too (clients that show only modes).
      const mode = await client.agent.request(methods.agent.session.setConfigOption, { sessionId, configId: 'mode', value: 'plan' });
      assert.equal(optionOf(mode.configOptions, 'mode').currentValue, 'plan');
      assert.ok(updatesOf(client, sessionId, 'current_mode_update').some((u) => u.currentModeId === 'plan'));
      await client.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'acceptEdits' });
      const last = must(updatesOf(client, sessionId, 'config_option_update').at(-1));
      assert.equal(optionOf(last.configOptions, 'mode').currentValue, 'acceptEdits');
      assert.equal(optionOf(last.configOptions, 'model').currentValue, 'claude-fast-1');

      // Bad values: one clear line each, nothing changed.
      const unknownModel = await rejected(client.agent.request(methods.agent.session.setConfigOption, { sessionId, configId: 'model', value: 'gpt-9' }));
      assert.equal(unknownModel.code, -32602);
      assert.match(unknownModel.message, /unknown model "gpt-9": one of claude-sonnet-5-5 \(sonnet\)/);
      const unknownOption = await rejected(client.agent.request(methods.agent.session.setConfigOption, { sessionId, configId: 'temperature', value: 'hot' }));
      assert.equal(unknownOption.code, -32602);
      const badModelParams = await rejected(client.agent.request('session/set_model', { sessionId }));
      assert.equal(badModelParams.code, -32602);
      cli.api.script(reply.text('still fast'));
      await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('and again') });
      assert.equal(cli.api.messageRequests().at(-1)?.body.model, 'claude-fast-1');

      // The pick is the session's: reopened (resume, as after an editor restart), it goes on with it.
      await client.agent.request(methods.agent.session.close, { sessionId });
      const reopened = await client.agent.request(methods.agent.session.resume, { sessionId, cwd: workdir });
      assert.equal(optionOf(reopened.configOptions, 'model').currentValue, 'claude-fast-1');
      cli.api.script(reply.text('fast after the restart'));
      await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('after a restart') });
      assert.equal(cli.api.messageRequests().at(-1)?.body.model, 'claude-fast-1');
    });
  });

  describe('slash commands', () => {
    it('offers compact, agents, history and revert; /agents lists a subagent, /revert undoes its file, /history lists the session, /compact compacts; the model sees none of them', async () => {
      const { workdir } = cli.dirs;
      cli.api.route([
        { name: 'main', match: (r) => !isChild(r), replies: [reply.toolUse({ name: 'task', input: { description: 'write job', prompt: 'CHILD: write it' } }), reply.text('the child wrote it'), reply.text('SUMMARY of the talk')] },
        { name: 'child', match: isChild, replies: [reply.toolUse({ name: 'write_file', input: { path: 'made.txt', content: 'made\n' } }), reply.text('wrote made.txt')] },
      ]);
      const client = await start({ permission: () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }) });
      const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
      const offered = await client.waitFor((n) => n.sessionId === sessionId && n.update.sessionUpdate === 'available_commands_update', 'the commands offered');
      assert.ok(offered.update.sessionUpdate === 'available_commands_update');
      assert.deepEqual(offered.update.availableCommands.map((c) => c.name), ['compact', 'agents', 'history', 'revert']);
      assert.ok(offered.update.availableCommands.find((c) => c.name === 'revert')?.input);

      await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('delegate the write') });
      assert.equal(readFileSync(join(workdir, 'made.txt'), 'utf8'), 'made\n');
      const requests = cli.api.messageRequests().length;
      const said = async (prompt: string): Promise<string> => {
        const before = updatesOf(client, sessionId, 'agent_message_chunk').length;
        const done = await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text(prompt) });
        assert.equal(done.stopReason, 'end_turn');
        return updatesOf(client, sessionId, 'agent_message_chunk').slice(before).map((u) => (u.content.type === 'text' ? u.content.text : '')).join('');
      };
      const agents = await said('/agents');
      const childId = must(/^- `([^`]+)`[^\n]*write job — completed/m.exec(agents), agents)[1];
      assert.match(await said('/history'), new RegExp(`delegate the write — \`${sessionId}\`.*\\(this one\\)`));
      assert.equal(cli.api.messageRequests().length, requests, 'no command reached the model');
      assert.match(await said('/revert'), /Name the subagent/);
      assert.match(await said('/revert nobody'), /^Cannot revert: /);
      assert.match(await said(`/revert ${childId}`), /Reverted the changes of .*\n- deleted `made\.txt`/);
      assert.equal(existsSync(join(workdir, 'made.txt')), false);
      assert.equal(cli.api.messageRequests().length, requests);
      // /compact asks the model for the summary (its one request), and says it compacted.
      assert.match(await said('/compact'), /Compacted the conversation/);
      assert.equal(cli.api.messageRequests().length, requests + 1);
      // A /word that is not ours is a prompt like any other.
      cli.api.script(reply.text('a path, then'));
      await said('/usr/bin is where?');
      assert.match(JSON.stringify(cli.api.messageRequests().at(-1)?.body.messages?.at(-1)), /\/usr\/bin is where\?/);
    });
  });

  describe('images', () => {
    const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const lastUserContent = (): WireBlock[] => {
      const content = must(cli.api.messageRequests().at(-1)?.body.messages?.at(-1)).content;
      // The prompt cache's breakpoint is not what is checked here.
      return typeof content === 'string' ? [{ type: 'text', text: content }] : content.map(({ cache_control: _cache, ...block }) => block as WireBlock);
    };
    it('takes image blocks (and embedded image blobs) to the model as base64 image blocks, its real type read from the bytes; a bad one is -32602 and the session goes on', async () => {
      const { workdir } = cli.dirs;
      const client = await start();
      assert.equal(client.initialize.agentCapabilities?.promptCapabilities?.image, true);
      const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
      cli.api.script(reply.text('a red dot'), reply.text('still a dot'), reply.text('two dots'));
      const image = (mimeType: string, data = PNG): ContentBlock => ({ type: 'image', mimeType, data });

      assert.equal((await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: [...text('What is this?'), image('image/png')] })).stopReason, 'end_turn');
      assert.deepEqual(lastUserContent(), [{ type: 'text', text: 'What is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }]);

      // An image alone (no text block: the API refuses an empty one), labelled wrong by the client: sent as what it is.
      assert.equal((await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: [image('image/jpeg')] })).stopReason, 'end_turn');
      assert.deepEqual(lastUserContent(), [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }]);

      // An attached image file (an embedded resource's blob) is an image too, not "binary content not included".
      const attached: ContentBlock = { type: 'resource', resource: { uri: 'file:///shots/dot.png', mimeType: 'image/png', blob: PNG } };
      await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: [...text('and this one'), attached] });
      assert.deepEqual(lastUserContent().map((b) => b.type), ['text', 'image']);
      assert.equal(lastUserContent()[0]?.text, 'and this one');

      // Bad images never reach the model nor the conversation: one clear line, and the next prompt works.
      const sent = cli.api.messageRequests().length;
      const notAnImage = await rejected(client.agent.request(methods.agent.session.prompt, { sessionId, prompt: [...text('look'), image('image/png', Buffer.from('hello, not a picture').toString('base64'))] }));
      assert.equal(notAnImage.code, -32602);
      assert.match(notAnImage.message, /not an image the model reads \(PNG, JPEG, GIF or WebP\)/);
      const notBase64 = await rejected(client.agent.request(methods.agent.session.prompt, { sessionId, prompt: [image('image/png', '%%% not base64 %%%')] }));
      assert.match(notBase64.message, /not base64/);
      const huge = Buffer.concat([Buffer.from(PNG, 'base64'), Buffer.alloc(5 * 1024 * 1024)]).toString('base64');
      const tooBig = await rejected(client.agent.request(methods.agent.session.prompt, { sessionId, prompt: [image('image/png', huge)] }));
      assert.match(tooBig.message, /over the model's 5 MB limit per image/);
      assert.equal(cli.api.messageRequests().length, sent);
      cli.api.script(reply.text('fine'));
      assert.equal((await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('and now?') })).stopReason, 'end_turn');
      const messages = must(cli.api.messageRequests().at(-1)?.body.messages);
      assert.equal(messages.length, 7, 'three exchanges before, the refused prompts left nothing');
    });
  });

  describe('live command output', () => {
    it("streams a running command's output into its card (in_progress updates as it prints), then the result; nothing after the end", async () => {
      const { workdir } = cli.dirs;
      cli.api.script(reply.toolUse({ name: 'bash', input: { command: 'echo first-line; sleep 1.5; echo second-line' } }), reply.text('ran it'));
      const client = await start({ permission: () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }) });
      const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
      const prompt = client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('run it') });
      const liveText = (n: { update: { sessionUpdate: string } }): string => {
        const u = n.update as { sessionUpdate: string; status?: string | null; content?: { type: string; content?: { type: string; text?: string } }[] | null };
        return u.sessionUpdate === 'tool_call_update' && u.status === 'in_progress' ? (u.content ?? []).map((c) => c.content?.text ?? '').join('') : '';
      };
      const first = await client.waitFor((n) => n.sessionId === sessionId && liveText(n).includes('first-line'), 'the first line, live');
      // Seen while the command still runs: the second line is not out yet.
      assert.ok(!liveText(first).includes('second-line'));
      assert.ok(!updatesOf(client, sessionId, 'tool_call_update').some((u) => u.status === 'completed'));
      assert.equal((await prompt).stopReason, 'end_turn');
      const updates = updatesOf(client, sessionId, 'tool_call_update');
      const end = updates.findIndex((u) => u.status === 'completed');
      assert.ok(end > 0);
      assert.match(JSON.stringify(updates[end]?.content), /first-line\\nsecond-line/);
      assert.ok(updates.slice(end + 1).every((u) => u.status !== 'in_progress' || !u.content), 'no live output after the result');
    });
  });

  describe('session lifecycle', () => {
    it('advertises resume and close; close cancels a running prompt and frees the session; resume opens it again without replaying it, its conversation kept', async () => {
      const { workdir } = cli.dirs;
      const client = await start();
      const caps = must(client.initialize.agentCapabilities?.sessionCapabilities);
      assert.ok(caps.resume && caps.close);
      const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
      cli.api.script(reply.text('noted: blue'), reply.text('never sent', { until: new Promise(() => undefined) }));
      await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('remember: blue') });
      const hanging = client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('think forever') });
      while (cli.api.messageRequests().length < 2) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(await client.agent.request(methods.agent.session.close, { sessionId }), {});
      assert.equal((await hanging).stopReason, 'cancelled');
      // Closed: it takes no prompt; closing it again is no error (the same end state, as ACP recommends).
      const gone = await rejected(client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('hello?') }));
      assert.equal(gone.code, -32002);
      assert.deepEqual(await client.agent.request(methods.agent.session.close, { sessionId }), {});

      const before = client.updates.length;
      const resumed = await client.agent.request(methods.agent.session.resume, { sessionId, cwd: workdir, mcpServers: [] });
      assert.equal(resumed.modes?.currentModeId, 'default');
      assert.ok(optionOf(resumed.configOptions, 'model'));
      await client.waitFor((n) => n.sessionId === sessionId && n.update.sessionUpdate === 'available_commands_update' && client.updates.indexOf(n) >= before, 'commands after resume');
      assert.deepEqual(client.updates.slice(before).map((n) => n.update.sessionUpdate), ['available_commands_update'], 'nothing replayed');
      cli.api.script(reply.text('blue it was'));
      assert.equal((await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('what did I say?') })).stopReason, 'end_turn');
      const messages = must(cli.api.messageRequests().at(-1)?.body.messages);
      assert.match(JSON.stringify(messages[0]), /remember: blue/);
      assert.match(JSON.stringify(messages.at(-1)), /what did I say\?/);
      // Resuming a session open here gives it as it is.
      const again = await client.agent.request(methods.agent.session.resume, { sessionId, cwd: workdir });
      assert.equal(again.modes?.currentModeId, 'default');
      const bad = await rejected(client.agent.request(methods.agent.session.resume, { sessionId: '../etc', cwd: workdir }));
      assert.equal(bad.code, -32602);
    });
  });

  describe('the fan-out card', () => {
    const three = (tag: string) =>
      reply.toolUse(['one', 'two', 'three'].map((n) => ({ name: 'task', input: { description: `${tag} ${n}`, prompt: `CHILD ${tag} ${n}: report` } })));
    it('asks before 3 subagents start, listing them on a card of its own; cancel starts none, run starts them; --confirm-fanout never asks nothing', async () => {
      const { workdir } = cli.dirs;
      cli.api.route([
        { name: 'main', match: (r) => !isChild(r), replies: [three('alpha'), reply.text('they were cancelled'), three('beta'), reply.text('they ran')] },
        { name: 'children', match: isChild, replies: [reply.text('done 1'), reply.text('done 2'), reply.text('done 3')] },
      ]);
      const answers = ['cancel', 'run'];
      const client = await start({ permission: () => ({ outcome: { outcome: 'selected', optionId: must(answers[client.permissions.length - 1]) } }) });
      const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
      await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('fan out') });
      const card = must(client.permissions[0]);
      assert.equal(card.sessionId, sessionId);
      assert.equal(card.toolCall.title, 'The main agent wants to start 3 subagents');
      assert.deepEqual(card.options.map((o) => [o.optionId, o.kind]), [['run', 'allow_once'], ['cancel', 'reject_once']]);
      const listed = JSON.stringify(card.toolCall.content);
      for (const n of ['one', 'two', 'three']) assert.match(listed, new RegExp(`\\*\\*alpha ${n}\\*\\* — general-purpose on claude-sonnet-5-5, default mode`));
      // The card was a call the client knew before the request, and ends failed (none started).
      const announced = must(updatesOf(client, sessionId, 'tool_call').find((t) => t.toolCallId === card.toolCall.toolCallId));
      assert.equal(announced.status, 'pending');
      assert.ok(updatesOf(client, sessionId, 'tool_call_update').some((u) => u.toolCallId === card.toolCall.toolCallId && u.status === 'failed'));
      assert.equal(cli.api.messageRequests().filter(isChild).length, 0, 'no child started');
      assert.match(JSON.stringify(cli.api.messageRequests().at(-1)?.body.messages?.at(-1)), /cancel/i);

      await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('fan out again') });
      assert.equal(client.permissions.length, 2);
      assert.equal(cli.api.messageRequests().filter(isChild).length, 3);
      assert.ok(updatesOf(client, sessionId, 'tool_call_update').some((u) => u.toolCallId === client.permissions[1]?.toolCall.toolCallId && u.status === 'completed'));

      const never = await start({ args: ['--confirm-fanout', 'never'], permission: () => ({ outcome: { outcome: 'cancelled' } }) });
      cli.api.route([
        { name: 'main', match: (r) => !isChild(r), replies: [three('gamma'), reply.text('ran unasked')] },
        { name: 'children', match: isChild, replies: [reply.text('done 1'), reply.text('done 2'), reply.text('done 3')] },
      ]);
      const other = await never.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
      await never.agent.request(methods.agent.session.prompt, { sessionId: other.sessionId, prompt: text('fan out unasked') });
      assert.equal(never.permissions.length, 0);
      assert.equal(cli.api.messageRequests().filter(isChild).length, 6);
    });
  });

  describe('live command output in a child session', () => {
    it("with subagent sessions, a child's command streams into its card in the child's own session", async () => {
      const { workdir } = cli.dirs;
      cli.api.route([
        { name: 'main', match: (r) => !isChild(r), replies: [reply.toolUse({ name: 'task', input: { description: 'runner', prompt: 'CHILD: run it' } }), reply.text('the child ran it')] },
        { name: 'child', match: isChild, replies: [reply.toolUse({ name: 'bash', input: { command: 'echo child-first; sleep 1.5; echo child-second' } }), reply.text('ran')] },
      ]);
      const client = await start({ capabilities: { subagents: {} }, permission: () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } }) });
      const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
      const prompt = client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('delegate the run') });
      const live = await client.waitFor((n) => {
        const u = n.update as { sessionUpdate: string; status?: string | null; content?: { content?: { text?: string } }[] | null };
        return u.sessionUpdate === 'tool_call_update' && u.status === 'in_progress' && (u.content ?? []).some((c) => c.content?.text?.includes('child-first'));
      }, "the child's first line, live");
      assert.notEqual(live.sessionId, sessionId, "in the child's session");
      assert.ok(live.sessionId.startsWith(`${sessionId}/`));
      assert.ok(!JSON.stringify(live.update).includes('child-second'));
      assert.equal((await prompt).stopReason, 'end_turn');
    });
  });
});
