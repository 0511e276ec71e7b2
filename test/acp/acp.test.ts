/**
 * `delegate acp` driven as an editor drives it: the ACP SDK's client app over the BUILT CLI's stdio
 * (acp-client.ts), against the local Messages-API server. Each test is one session or two, end to end.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { methods, type ContentBlock, type CreateElicitationRequest, type McpServer, type RequestPermissionRequest, type ToolCallContent } from '@agentclientprotocol/sdk/unstable';
import { firstUserText, lastToolResults, reply, contentText, type WireBlock } from '../fixtures/messages-api-server';
import { cliSuite } from '../kit/cli-suite';
import { isChild } from '../kit/is-child';
import { EVERYTHING } from '../kit/mcp-servers';
import { must } from '../kit/must';
import { acpClients, messageText, updatesOf } from './acp-client';

const text = (t: string): ContentBlock[] => [{ type: 'text', text: t }];
const choose = (optionId: string) => ({ outcome: { outcome: 'selected' as const, optionId } });
const contentTexts = (content: ToolCallContent[] | null | undefined): string =>
  (content ?? []).map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : '')).join('\n');
const resultText = (block: WireBlock | undefined): string => (typeof block?.content === 'string' ? block.content : contentText(block?.content as WireBlock[] | undefined));

describe('delegate acp (the ACP SDK client over stdio)', function () {
  this.timeout(40_000);
  const cli = cliSuite();
  const start = acpClients(() => cli.env());

  it('answers initialize, streams thought and message chunks, a read with its kind and location, usage; a later process lists and loads it', async () => {
    const { workdir } = cli.dirs;
    writeFileSync(join(workdir, 'notes.txt'), 'hello from the notes\n');
    cli.api.script(reply.toolUse({ name: 'read_file', input: { path: 'notes.txt' } }, { thinking: 'Let me look at the notes.' }), reply.text('The notes say hello.'));
    const client = await start();
    assert.equal(client.initialize.protocolVersion, 1);
    const caps = must(client.initialize.agentCapabilities);
    assert.equal(caps.loadSession, true);
    assert.deepEqual(caps.mcpCapabilities, { http: true, sse: true });
    assert.equal(caps.promptCapabilities?.embeddedContext, true);
    assert.ok(caps.sessionCapabilities?.list);

    const { sessionId, modes } = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    assert.equal(modes?.currentModeId, 'default');
    assert.deepEqual(modes?.availableModes.map((m) => m.id), ['default', 'acceptEdits', 'plan', 'bypassPermissions']);
    const done = await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('What do the notes say?') });
    assert.equal(done.stopReason, 'end_turn');
    assert.ok((done.usage?.totalTokens ?? 0) > 0);

    const thoughts = updatesOf(client, sessionId, 'agent_thought_chunk');
    assert.deepEqual(thoughts.map((t) => (t.content.type === 'text' ? t.content.text : '')), ['Let me look at the notes.']);
    const call = must(updatesOf(client, sessionId, 'tool_call')[0]);
    assert.equal(call.kind, 'read');
    assert.equal(call.title, 'Read notes.txt');
    assert.deepEqual(call.locations, [{ path: join(workdir, 'notes.txt') }]);
    const finished = must(updatesOf(client, sessionId, 'tool_call_update').find((u) => u.toolCallId === call.toolCallId && u.status === 'completed'));
    assert.match(contentTexts(finished.content), /hello from the notes/);
    assert.equal(messageText(client, sessionId), 'The notes say hello.');
    const usage = updatesOf(client, sessionId, 'usage_update');
    assert.ok(usage.length >= 2 && usage.every((u) => u.used > 0 && u.size > 0));
    assert.equal(usage.at(-1)?.cost?.currency, 'USD');
    assert.ok((usage.at(-1)?.cost?.amount ?? 0) > (usage[0]?.cost?.amount ?? 0), 'the session cost grows with each response');
    assert.equal(await client.close(), 0);

    // A new process, as when the editor restarts: the session is listed, and loads with its history.
    const again = await start();
    const listed = await again.agent.request(methods.agent.session.list, { cwd: workdir });
    const entry = must(listed.sessions.find((s) => s.sessionId === sessionId));
    assert.equal(entry.cwd, workdir);
    assert.match(entry.title ?? '', /What do the notes say/);
    await again.agent.request(methods.agent.session.load, { sessionId, cwd: workdir, mcpServers: [] });
    const replayed = again.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update.sessionUpdate);
    assert.deepEqual(replayed.filter((k) => k !== 'usage_update' && k !== 'tool_call_update'), ['user_message_chunk', 'agent_thought_chunk', 'tool_call', 'agent_message_chunk']);
    assert.equal(messageText(again, sessionId), 'The notes say hello.');
    cli.api.script(reply.text('Still hello.'));
    // Embedded context (a file the user attached) reaches the model with its uri.
    const attached: ContentBlock = { type: 'resource', resource: { uri: 'file:///elsewhere/spec.md', text: 'EMBEDDED SPEC' } };
    const next = await again.agent.request(methods.agent.session.prompt, { sessionId, prompt: [...text('And now?'), attached] });
    assert.equal(next.stopReason, 'end_turn');
    const last = must(cli.api.messageRequests().at(-1));
    assert.equal(firstUserText(last), 'What do the notes say?');
    assert.equal(last.body.messages?.length, 5);
    assert.match(contentText(last.body.messages?.at(-1)?.content), /And now\?\n\n<context uri="file:\/\/\/elsewhere\/spec\.md">\nEMBEDDED SPEC\n<\/context>/);
  });

  it('asks the client for every "ask": allow once writes, reject once and no answer do not; set_mode acceptEdits then asks nothing', async () => {
    const { workdir } = cli.dirs;
    cli.api.script(
      reply.toolUse({ name: 'write_file', input: { path: 'a.txt', content: 'A\n' } }),
      reply.toolUse({ name: 'write_file', input: { path: 'b.txt', content: 'B\n' } }),
      reply.toolUse({ name: 'write_file', input: { path: 'c.txt', content: 'C\n' } }),
      reply.text('wrote what I could'),
      reply.toolUse({ name: 'write_file', input: { path: 'd.txt', content: 'D\n' } }),
      reply.text('wrote d'),
    );
    const answers = ['allow_once', 'reject_once', 'cancelled'];
    const client = await start({ permission: (request: RequestPermissionRequest) => {
      const answer = must(answers[client.permissions.length - 1]);
      void request;
      return answer === 'cancelled' ? { outcome: { outcome: 'cancelled' } } : choose(answer);
    } });
    const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('write the files') });

    assert.equal(client.permissions.length, 3);
    const first = must(client.permissions[0]);
    assert.equal(first.sessionId, sessionId);
    assert.equal(first.toolCall.title, 'The main agent wants to: Write a.txt');
    assert.equal(first.toolCall.kind, 'edit');
    assert.deepEqual(first.options.map((o) => o.kind), ['allow_once', 'allow_always', 'reject_once', 'reject_always']);
    assert.equal(readFileSync(join(workdir, 'a.txt'), 'utf8'), 'A\n');
    assert.equal(existsSync(join(workdir, 'b.txt')), false);
    assert.equal(existsSync(join(workdir, 'c.txt')), false, 'no answer is not an allow');
    const results = cli.api.messageRequests().slice(1, 4).map((r) => resultText(lastToolResults(r)[0]));
    assert.match(must(results[1]), /rejected/);
    assert.match(must(results[2]), /no answer/);
    // The allowed write shows as a diff: no old text (a new file), the new text.
    const diff = updatesOf(client, sessionId, 'tool_call_update').flatMap((u) => u.content ?? []).find((c) => c.type === 'diff');
    assert.deepEqual(diff && { ...diff }, { type: 'diff', path: join(workdir, 'a.txt'), oldText: null, newText: 'A\n' });

    await client.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'acceptEdits' });
    assert.ok(updatesOf(client, sessionId, 'current_mode_update').some((u) => u.currentModeId === 'acceptEdits'));
    await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('and d') });
    assert.equal(client.permissions.length, 3);
    assert.equal(readFileSync(join(workdir, 'd.txt'), 'utf8'), 'D\n');
  });

  it('shows two parallel subagents as child sessions; cancelling one stops it alone and the parent goes on', async () => {
    const { workdir } = cli.dirs;
    let releaseB: () => void = () => undefined;
    const bMayAnswer = new Promise<void>((resolve) => (releaseB = resolve));
    cli.api.route([
      {
        name: 'main',
        match: (r) => !isChild(r),
        replies: [
          reply.toolUse([
            { name: 'task', input: { description: 'alpha job', prompt: 'CHILD-A: look at everything, slowly' } },
            { name: 'task', input: { description: 'beta job', prompt: 'CHILD-B: say hello' } },
          ]),
          reply.text('beta reported, alpha was stopped'),
        ],
      },
      // A never answers: only the cancel ends it (the client leaves the request).
      { name: 'A', match: (r) => isChild(r) && firstUserText(r).includes('CHILD-A'), replies: [reply.text('too late', { until: new Promise(() => undefined) })] },
      {
        name: 'B',
        match: (r) => isChild(r) && firstUserText(r).includes('CHILD-B'),
        replies: [reply.toolUse({ name: 'write_file', input: { path: 'beta.txt', content: 'beta\n' } }), reply.text('hello from beta', { until: bMayAnswer })],
      },
    ]);
    const client = await start({ capabilities: { subagents: {} }, permission: () => choose('allow_once') });
    const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    const prompt = client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('delegate both') });
    const announced = (title: string) => client.waitFor((n) => n.sessionId === sessionId && n.update.sessionUpdate === 'subagent_update' && n.update.title === title, `${title} announced`);
    const [a, b] = await Promise.all([announced('alpha job'), announced('beta job')]);
    const aId = a.update.sessionUpdate === 'subagent_update' ? a.update.sessionId : '';
    const bId = b.update.sessionUpdate === 'subagent_update' ? b.update.sessionId : '';
    assert.notEqual(aId, bId);
    for (const n of [a, b]) {
      assert.ok(n.update.sessionUpdate === 'subagent_update');
      assert.equal(n.update.description, 'general-purpose agent');
      assert.deepEqual(n.update.state, { state: 'running' });
      assert.deepEqual(n.update.capabilities, { cancel: {} });
    }
    // A child session is its parent's to drive: no prompt of the client's goes to it.
    await assert.rejects(client.agent.request(methods.agent.session.prompt, { sessionId: aId, prompt: text('hi') }), /subagent's session takes no prompts/);
    await client.agent.notify(methods.agent.session.cancel, { sessionId: aId });
    const idle = (id: string) => client.waitFor((n) => n.update.sessionUpdate === 'subagent_update' && n.update.sessionId === id && n.update.state?.state === 'idle', `${id} idle`);
    const aIdle = await idle(aId);
    releaseB();
    const done = await prompt;
    assert.equal(done.stopReason, 'end_turn');
    const bIdle = await idle(bId);
    assert.ok(aIdle.update.sessionUpdate === 'subagent_update' && bIdle.update.sessionUpdate === 'subagent_update');
    assert.equal((aIdle.update.state as { stopReason?: string }).stopReason, 'cancelled');
    assert.equal((bIdle.update.state as { stopReason?: string }).stopReason, 'end_turn');

    // Each child's own traffic is under its own session id; the parent's text under the parent's.
    assert.match(contentTexts(updatesOf(client, bId, 'user_message_chunk').map((u) => ({ type: 'content' as const, content: u.content }))), /CHILD-B/);
    assert.equal(messageText(client, bId), 'hello from beta');
    // B's own call and its question are in B's session, naming B.
    assert.deepEqual(updatesOf(client, bId, 'tool_call').map((t) => [t.kind, t.title]), [['edit', 'Write beta.txt']]);
    assert.deepEqual(client.permissions.map((p) => [p.sessionId, p.toolCall.title]), [[bId, 'Subagent "beta job" (general-purpose) wants to: Write beta.txt']]);
    assert.equal(readFileSync(join(workdir, 'beta.txt'), 'utf8'), 'beta\n');
    assert.equal(messageText(client, sessionId), 'beta reported, alpha was stopped');
    assert.ok(!messageText(client, sessionId).includes('hello from beta'));
    const tasks = updatesOf(client, sessionId, 'tool_call');
    assert.deepEqual(tasks.map((t) => [t.kind, t.title]), [['think', 'Delegate: alpha job'], ['think', 'Delegate: beta job']]);
    // The parent's next request got B's result and A's cancellation.
    const results = lastToolResults(must(cli.api.messageRequests().filter((r) => !isChild(r)).at(-1))).map(resultText);
    assert.equal(results.length, 2);
    assert.match(must(results.find((r) => /hello from beta/.test(r))), /hello from beta/);
    assert.ok(results.some((r) => /The user stopped this subagent/.test(r)), results.join('\n---\n'));
  });

  it('without subagent sessions, a task is one tool call whose content follows the child live; a child\'s permission request names it', async () => {
    const { workdir } = cli.dirs;
    writeFileSync(join(workdir, 'notes.txt'), 'gamma notes\n');
    cli.api.route([
      { name: 'main', match: (r) => !isChild(r), replies: [reply.toolUse({ name: 'task', input: { description: 'gamma job', prompt: 'CHILD-C: read and note' } }), reply.text('gamma is done')] },
      {
        name: 'C',
        match: isChild,
        replies: [
          reply.toolUse({ name: 'read_file', input: { path: 'notes.txt' } }),
          reply.toolUse({ name: 'write_file', input: { path: 'seen.txt', content: 'seen\n' } }),
          reply.text('C read the notes and noted it'),
        ],
      },
    ]);
    const client = await start({ permission: () => choose('allow_once') });
    const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    const done = await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('delegate it') });
    assert.equal(done.stopReason, 'end_turn');
    assert.ok(client.updates.every((n) => n.sessionId === sessionId));
    assert.equal(updatesOf(client, sessionId, 'subagent_update').length, 0);
    const task = must(updatesOf(client, sessionId, 'tool_call').find((t) => t.title === 'Delegate: gamma job'));
    assert.equal(task.kind, 'think');
    // Only the task call is shown: the child's own calls are lines of its content.
    assert.equal(updatesOf(client, sessionId, 'tool_call').length, 1);
    const contents = updatesOf(client, sessionId, 'tool_call_update').filter((u) => u.toolCallId === task.toolCallId && u.content).map((u) => contentTexts(u.content));
    assert.ok(contents.some((c) => /\*\*gamma job\*\* \(general-purpose\) · running\n- Read notes\.txt/.test(c)), contents.join('\n---\n'));
    assert.match(must(contents.at(-1)), /· completed/);
    assert.match(must(contents.at(-1)), /C read the notes and noted it/);
    const permission = must(client.permissions[0]);
    assert.equal(permission.sessionId, sessionId);
    assert.equal(permission.toolCall.title, 'Subagent "gamma job" (general-purpose) wants to: Write seen.txt');
    assert.equal(readFileSync(join(workdir, 'seen.txt'), 'utf8'), 'seen\n');
  });

  it('reads and writes through the client when it offers fs: the unsaved buffer is what the agent reads, and the edit goes to the client', async () => {
    const { workdir } = cli.dirs;
    const file = join(workdir, 'draft.md');
    writeFileSync(file, 'on disk\n');
    cli.api.script(
      reply.toolUse({ name: 'read_file', input: { path: 'draft.md' } }),
      reply.toolUse({ name: 'edit_file', input: { path: 'draft.md', old_text: 'unsaved', new_text: 'edited' } }),
      reply.text('edited the draft'),
    );
    const writes: { path: string; content: string }[] = [];
    let buffer = 'unsaved buffer text\n';
    const client = await start({
      args: ['--permission-mode', 'acceptEdits'],
      capabilities: { fs: { readTextFile: true, writeTextFile: true } },
      readTextFile: (r) => (r.path === file ? buffer : readFileSync(r.path, 'utf8')),
      writeTextFile: (r) => {
        writes.push({ path: r.path, content: r.content });
        buffer = r.content;
      },
    });
    const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('fix the draft') });
    const afterRead = must(cli.api.messageRequests()[1]);
    assert.match(resultText(lastToolResults(afterRead)[0]), /unsaved buffer text/);
    assert.doesNotMatch(resultText(lastToolResults(afterRead)[0]), /on disk/);
    assert.deepEqual(writes, [{ path: file, content: 'edited buffer text\n' }]);
    assert.equal(readFileSync(file, 'utf8'), 'on disk\n', 'the client owns the write');
    assert.equal(client.permissions.length, 0);
  });

  it("asks ask_user's question as the client's form elicitation, naming the agent; the answer reaches the model", async () => {
    cli.api.script(reply.toolUse({ name: 'ask_user', input: { question: 'Which colour for the button?', options: ['red', 'blue'] } }), reply.text('blue it is'));
    const asked: CreateElicitationRequest[] = [];
    const client = await start({
      capabilities: { elicitation: { form: {} } },
      elicit: (request) => {
        asked.push(request);
        return { action: 'accept', content: { answer: 'blue' } };
      },
    });
    const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: cli.dirs.workdir, mcpServers: [] });
    await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('style the button') });
    const question = must(asked[0]);
    assert.equal(question.mode, 'form');
    assert.equal((question as { sessionId?: string }).sessionId, sessionId);
    assert.equal(question.message, 'The main agent asks: Which colour for the button?');
    const schema = (question as { requestedSchema: { properties?: Record<string, { oneOf?: { const: string }[] }> } }).requestedSchema;
    assert.deepEqual(schema.properties?.answer?.oneOf?.map((o) => o.const), ['red', 'blue']);
    assert.equal(resultText(lastToolResults(must(cli.api.messageRequests()[1]))[0]), 'The user answered: blue');
  });

  it("says the session's notices as notice updates where the client shows them (a folder's .mcp.json that cannot be used)", async () => {
    writeFileSync(join(cli.dirs.workdir, '.mcp.json'), '{ not json');
    cli.api.script(reply.text('ok'));
    const client = await start({ capabilities: { session: { notices: {} } } });
    const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: cli.dirs.workdir, mcpServers: [] });
    await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('hi') });
    const notice = must(updatesOf(client, sessionId, 'notice')[0]);
    assert.equal(notice.severity, 'warning');
    assert.match(notice.description ?? '', /\.mcp\.json/);
    assert.match(client.stderr(), /delegate acp: warning: /);
  });

  it("a folder's own hooks and .mcp.json server wait for its trust: the client is asked at the first prompt before any runs; a rejection skips them with a notice, \"Trust this folder\" runs them and is remembered", async () => {
    const { workdir, dataHome } = cli.dirs;
    const marker = join(dirname(workdir), 'ran.log');
    mkdirSync(join(workdir, '.claude'));
    writeFileSync(join(workdir, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `echo hook >> '${marker}'` }] }] } }));
    writeFileSync(join(workdir, '.mcp.json'), JSON.stringify({ mcpServers: { evil: { command: 'sh', args: ['-c', `echo server >> '${marker}'; exec curl -s http://127.0.0.1:9/`] } } }));
    const marks = (): string[] => (existsSync(marker) ? readFileSync(marker, 'utf8').trim().split('\n') : []);
    const isTrustQuestion = (r: RequestPermissionRequest): boolean => r.toolCall.toolCallId.startsWith('delegate-trust-folder');
    let answer = 'skip';
    const client = await start({ capabilities: { session: { notices: {} } }, permission: (r) => (isTrustQuestion(r) ? choose(answer) : { outcome: { outcome: 'cancelled' } }) });

    cli.api.script(reply.text('Answered.'));
    const first = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(marks(), [], 'nothing of the folder runs before the question is answered');
    assert.equal(client.permissions.length, 0, 'not asked at session/new: the client does not know the session yet');
    await client.agent.request(methods.agent.session.prompt, { sessionId: first.sessionId, prompt: text('hi') });
    const question = must(client.permissions[0]);
    assert.equal(question.sessionId, first.sessionId);
    assert.deepEqual(question.options.map((o) => [o.optionId, o.kind]), [['trust_folder', 'allow_always'], ['skip', 'reject_once']]);
    assert.match(contentTexts(question.toolCall.content), /\.claude\/settings\.json: SessionStart hook: echo hook >> /);
    assert.match(contentTexts(question.toolCall.content), /\.mcp\.json: MCP server "evil": sh -c /);
    assert.ok(updatesOf(client, first.sessionId, 'tool_call').some((c) => c.toolCallId === question.toolCall.toolCallId), 'the question is a tool call the client shows');
    assert.deepEqual(marks(), []);
    const notice = must(updatesOf(client, first.sessionId, 'notice').find((n) => n.severity === 'warning'));
    assert.match(notice.title, /^this folder is not trusted, so 1 hook of \.claude\/settings\.json and the MCP server "evil" of \.mcp\.json did not run .*: choose "Trust this folder" when a new session asks/);
    assert.equal(existsSync(join(dataHome, 'delegate', 'trusted-folders.json')), false);

    answer = 'trust_folder';
    cli.api.script(reply.text('Answered.'), reply.text('Again.'));
    const second = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    await client.agent.request(methods.agent.session.prompt, { sessionId: second.sessionId, prompt: text('hi') });
    assert.equal(client.permissions.length, 2);
    assert.ok(marks().includes('hook') && marks().includes('server'), marks().join(','));
    assert.deepEqual(Object.keys((JSON.parse(readFileSync(join(dataHome, 'delegate', 'trusted-folders.json'), 'utf8')) as { folders: object }).folders), [realpathSync(workdir)]);

    const third = await client.agent.request(methods.agent.session.new, { cwd: workdir, mcpServers: [] });
    await client.agent.request(methods.agent.session.prompt, { sessionId: third.sessionId, prompt: text('hi') });
    assert.equal(client.permissions.length, 2, 'a remembered yes is not asked again');
    assert.equal(marks().filter((m) => m === 'hook').length, 2);

    // `delegate acp --trust-folder`: another folder's hooks run without a question.
    const other = join(dirname(workdir), 'other');
    mkdirSync(join(other, '.claude'), { recursive: true });
    writeFileSync(join(other, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `echo flagged >> '${marker}'` }] }] } }));
    const flagged = await start({ args: ['--trust-folder'], permission: () => choose('skip') });
    cli.api.script(reply.text('Answered.'));
    const fourth = await flagged.agent.request(methods.agent.session.new, { cwd: other, mcpServers: [] });
    await flagged.agent.request(methods.agent.session.prompt, { sessionId: fourth.sessionId, prompt: text('hi') });
    assert.equal(flagged.permissions.length, 0);
    assert.ok(marks().includes('flagged'));
  });

  it('plan mode: a read-only MCP tool is asked; its question also offers the whole server, and that answer covers the server\'s other tools', async () => {
    const everything: McpServer = { name: 'everything', command: process.execPath, args: [EVERYTHING], env: [] };
    const client = await start({ permission: (r) => choose(r.options.some((o) => o.optionId === 'allow_server') ? 'allow_server' : 'reject_once') });
    const { sessionId } = await client.agent.request(methods.agent.session.new, { cwd: cli.dirs.workdir, mcpServers: [everything] });
    await client.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'plan' });
    const call = (name: string, input: Record<string, unknown>) => reply.toolUse({ name: `mcp__everything__${name}`, input });
    cli.api.script(call('echo', { message: 'one' }), call('get-sum', { a: 1, b: 2 }), reply.text('done'));
    await client.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('use the server') });
    assert.equal(client.permissions.length, 1, 'one question: the server answer covers get-sum');
    const question = must(client.permissions[0]);
    assert.deepEqual(question.options.map((o) => [o.optionId, o.kind]), [['allow_once', 'allow_once'], ['allow_always', 'allow_always'], ['allow_server', 'allow_always'], ['reject_once', 'reject_once'], ['reject_always', 'reject_always']]);
    assert.equal(question.options[2]?.name, 'Allow every tool of "everything" for this session');
    assert.match(contentTexts(question.toolCall.content), /^plan mode is read-only, but a read-only tool still sends its input to its server/);
    assert.equal(resultText(lastToolResults(must(cli.api.messageRequests()[1]))[0]), 'Echo: one');
    assert.match(resultText(lastToolResults(must(cli.api.messageRequests()[2]))[0]), /The sum of 1 and 2 is 3/);
  });

  it('without a key, says how to set one (initialize lists the method; session/new asks to authenticate)', async () => {
    const client = await start({ env: { ANTHROPIC_API_KEY: '' } });
    assert.match(must(client.initialize.authMethods?.[0]).description ?? '', /ANTHROPIC_API_KEY/);
    await assert.rejects(client.agent.request(methods.agent.session.new, { cwd: cli.dirs.workdir, mcpServers: [] }), (err: { code?: number; message?: string }) => err.code === -32000 && /ANTHROPIC_API_KEY/.test(err.message ?? ''));
    await assert.rejects(client.agent.request(methods.agent.authenticate, { methodId: 'anthropic-api-key' }), /ANTHROPIC_API_KEY/);
  });
});
