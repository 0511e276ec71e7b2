// MCP servers in a core session, against the real reference server: its tools as ordinary registry entries,
// results as text, the permission rules, restart-once, and no process left behind.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DelegateEvent } from '../../../src/core/events';
import { ScriptedModel } from '../../kit/scripted-model';
import type { ToolResultBlockParam } from '../../../src/core/llm/types';
import type { McpServerConfig } from '../../../src/core/mcp/config';
import type { McpServerStatus } from '../../../src/core/mcp/server-connection';
import type { ToolCallRequest } from '../../../src/core/policy/types';
import type { Session } from '../../../src/core/session';
import type { ConfigPatch } from '../../kit/session-config';
import { EVERYTHING, groupMembers, serverGroupsOf, startHttpServer, stdioServer } from '../../kit/mcp-servers';
import { waitUntil } from '../../kit/wait';
import type { PermissionMode } from '../../../src/core/vocabulary';
import { testSession } from '../../kit/test-session';

interface Opened {
  session: Session;
  model: ScriptedModel;
  statuses: McpServerStatus[];
  asked: ToolCallRequest[];
  events: DelegateEvent[];
}

async function open(servers: McpServerConfig[], mode: PermissionMode, extra: ConfigPatch = {}, model = new ScriptedModel(), waitMs?: number): Promise<Opened> {
  const statuses: McpServerStatus[] = [];
  const asked: ToolCallRequest[] = [];
  const approver = { ask: async (request: ToolCallRequest) => (asked.push(request), { decision: 'deny' as const, reason: 'denied by the test' }) };
  const mcp = { servers, host: { onStatus: (s: McpServerStatus) => void statuses.push(s) }, ...(waitMs !== undefined ? { waitMs } : {}) };
  const { session, events } = await testSession({ model, mode, approver }, { tools: { sandbox: { mode: 'off', allowNetwork: false }, mcp }, ...extra });
  return { session, model, statuses, asked, events };
}

/** The tool results the model was sent in request `i`. */
function resultsOf(model: ScriptedModel, i: number): ToolResultBlockParam[] {
  const last = model.requests[i]?.request.messages.at(-1);
  assert.ok(last && Array.isArray(last.content), `request ${i} ends with tool results`);
  return (last.content as ToolResultBlockParam[]).filter((b) => b.type === 'tool_result');
}

const go = (s: Session, prompt = 'go') => s.run(prompt, new AbortController().signal);

describe('MCP servers in a session (server-everything)', function () {
  this.timeout(60_000);

  it('stdio: the model calls mcp__everything__echo and gets "Echo: …"; an image is a note; the env is the SDK default plus the config', async () => {
    process.env.DELEGATE_TEST_CANARY = 'canary-must-not-reach-the-server';
    const model = new ScriptedModel().script(
      'default',
      {
        toolUses: [
          { name: 'mcp__everything__echo', input: { message: 'hello there' } },
          { name: 'mcp__everything__get-tiny-image', input: {} },
          { name: 'mcp__everything__get-env', input: {} },
        ],
      },
      { text: 'done' },
    );
    const { session, statuses } = await open([stdioServer('everything', { env: { GIVEN_BY_CONFIG: 'yes' } })], 'bypassPermissions', {}, model);
    const result = await go(session);
    delete process.env.DELEGATE_TEST_CANARY;
    assert.equal(result.status, 'completed', result.error);
    const echo = model.requests[0]?.request.tools.find((t) => t.name === 'mcp__everything__echo');
    assert.ok(echo, 'the first request offers the server\'s tools');
    assert.deepEqual((echo.input_schema.properties as Record<string, unknown>).message, { type: 'string', description: 'Message to echo' });
    assert.equal(echo.description, 'Echoes back the input string');
    const [text, image, env] = resultsOf(model, 1);
    assert.equal(text?.content, 'Echo: hello there');
    assert.match(String(image?.content), /^Here's the image you requested:\n\n\[image: image\/png, \d\.\d KB\]\n\nThe image above is the MCP logo\.$/);
    assert.match(String(env?.content), /"GIVEN_BY_CONFIG": "yes"/);
    assert.doesNotMatch(String(env?.content), /canary-must-not-reach/);
    assert.deepEqual(statuses.map((s) => [s.server, s.state]), [['everything', 'connected']]);
    model.assertDone();
  });

  it('a long result is cut like any output, and the whole of it saved beside the transcript', async () => {
    const long = `${'0123456789'.repeat(7000)}THE-END`;
    const model = new ScriptedModel().script('default', { toolUses: [{ name: 'mcp__everything__echo', input: { message: long } }] }, { text: 'ok' });
    const { session, events } = await open([stdioServer('everything')], 'bypassPermissions', {}, model);
    await go(session);
    const sent = String(resultsOf(model, 1)[0]?.content);
    assert.ok(sent.length < long.length, 'the model gets a cut result');
    assert.match(sent, /characters cut here\. The full output was saved to /);
    assert.ok(sent.endsWith('THE-END'), 'with its tail');
    const finished = events.find((e) => e.type === 'tool_call' && (e.state === 'completed' || e.state === 'error'));
    const file = finished?.type === 'tool_call' && (finished.state === 'completed' || finished.state === 'error') ? finished.fullOutputPath : undefined;
    assert.ok(file, 'the full output was saved');
    assert.equal(readFileSync(file, 'utf8'), `Echo: ${long}`);
  });

  it('plan mode asks before a read-only tool (its input goes out) and refuses one that is not (toggle-simulated-logging)', async () => {
    const model = new ScriptedModel().script(
      'default',
      { toolUses: [{ name: 'mcp__everything__echo', input: { message: 'x' } }, { name: 'mcp__everything__toggle-simulated-logging', input: {} }] },
      { text: 'ok' },
    );
    const { session, asked } = await open([stdioServer('everything')], 'plan', {}, model);
    await go(session);
    const [echo, toggle] = resultsOf(model, 1);
    assert.deepEqual(asked.map((r) => r.toolName), ['mcp__everything__echo']);
    assert.match(String(echo?.content), /Permission denied: denied by the test/);
    assert.equal(toggle?.is_error, true);
    assert.match(String(toggle?.content), /plan mode: mcp__everything__toggle-simulated-logging .* does not declare itself read-only/);
  });

  it('default mode asks (the approval names the tool and its input); --allowed-tools skips the ask; disallowed is not offered', async () => {
    const asking = new ScriptedModel().script('default', { toolUses: [{ name: 'mcp__everything__echo', input: { message: 'ask me' } }] }, { text: 'ok' });
    const first = await open([stdioServer('everything')], 'default', {}, asking);
    await go(first.session);
    assert.equal(first.asked.length, 1);
    assert.equal(first.asked[0]?.toolName, 'mcp__everything__echo');
    assert.equal(first.asked[0]?.summary, 'message: ask me');
    assert.match(String(resultsOf(asking, 1)[0]?.content), /Permission denied: denied by the test/);

    const allowed = new ScriptedModel().script(
      'default',
      { toolUses: [{ name: 'mcp__everything__echo', input: { message: 'no question' } }, { name: 'mcp__everything__get-env', input: {} }] },
      { text: 'ok' },
    );
    const second = await open([stdioServer('everything')], 'default', { permissions: { allowedTools: ['mcp__everything__echo'], disallowedTools: ['mcp__everything__get-env'] } }, allowed);
    await go(second.session);
    assert.equal(second.asked.length, 0, 'an allowed tool is not asked about');
    const [echo, env] = resultsOf(allowed, 1);
    assert.equal(echo?.content, 'Echo: no question');
    assert.equal(env?.is_error, true);
    const offered = allowed.requests[0]?.request.tools.map((t) => t.name) ?? [];
    assert.ok(offered.includes('mcp__everything__echo'));
    assert.ok(!offered.includes('mcp__everything__get-env'), 'a disallowed tool is not offered');
  });

  it('a server that dies is restarted once; when it dies again its tool calls return an error naming it and why', async () => {
    const model = new ScriptedModel()
      .script('default', { toolUses: [{ name: 'mcp__everything__echo', input: { message: 'before' } }] }, { text: 'one' })
      .script('default', { toolUses: [{ name: 'mcp__everything__echo', input: { message: 'after restart' } }] }, { text: 'two' })
      .script('default', { toolUses: [{ name: 'mcp__everything__echo', input: { message: 'after death' } }] }, { text: 'three' });
    const { session, statuses } = await open([stdioServer('everything')], 'bypassPermissions', {}, model);
    await go(session);
    assert.equal(resultsOf(model, 1)[0]?.content, 'Echo: before');
    const killServer = (): void => {
      const [pgid] = serverGroupsOf(EVERYTHING);
      assert.ok(pgid, 'the server runs');
      process.kill(-pgid, 'SIGKILL');
    };
    killServer();
    await waitUntil(() => statuses.filter((s) => s.state === 'connected').length === 2, 'the restart', 15_000);
    assert.equal(statuses[1]?.state, 'restarting');
    assert.match(statuses[1]?.detail ?? '', /killed by SIGKILL/);
    await go(session);
    assert.equal(resultsOf(model, 3)[0]?.content, 'Echo: after restart');
    killServer();
    await waitUntil(() => statuses.some((s) => s.state === 'failed'), 'the failure', 15_000);
    assert.equal(statuses.filter((s) => s.state === 'failed').length, 1, 'reported once');
    await go(session);
    const dead = resultsOf(model, 5)[0];
    assert.equal(dead?.is_error, true);
    assert.match(String(dead?.content), /^MCP server "everything" is not available: was killed by SIGKILL.*after its restart/);
    model.assertDone();
  });

  it('a server that fails to start is tried twice, then reported once with its exit status and what it said', async () => {
    const broken = stdioServer('broken', { args: ['-e', 'process.stderr.write("cannot open the database\\n"); process.exit(3)'] });
    const model = new ScriptedModel().script('default', { text: 'fine without it' });
    const { session, statuses, events } = await open([broken], 'bypassPermissions', {}, model);
    const result = await go(session);
    assert.equal(result.status, 'completed');
    await waitUntil(() => statuses.length > 0, 'a status', 10_000);
    assert.deepEqual(statuses.map((s) => s.state), ['failed']);
    assert.match(statuses[0]?.detail ?? '', /exited with code 3; it said: cannot open the database \(it was started 2 times\)/);
    assert.ok(!model.requests[0]?.request.tools.some((t) => t.name.startsWith('mcp__')));
    // The failure is the session's notice too (the panel shows it, the CLI prints it).
    const notices = events.filter((e) => e.type === 'notice');
    assert.equal(notices.length, 1);
    assert.ok(notices[0]?.type === 'notice' && notices[0].level === 'error' && notices[0].source === 'test' && /MCP server "broken" failed: it exited with code 3/.test(notices[0].text));
  });

  for (const how of ['shutdown', 'shutdownNow', 'close'] as const) {
    it(`${how}: the server and every process it started are gone (its own process group)`, async () => {
      // A wrapper that starts the real server as its child: the group, not just the leader, must go.
      const wrapper = `require('child_process').spawn(process.execPath, [${JSON.stringify(EVERYTHING)}], { stdio: 'inherit' }).on('exit', (c) => process.exit(c ?? 1))`;
      const model = new ScriptedModel().script('default', { toolUses: [{ name: 'mcp__tree__echo', input: { message: 'x' } }] }, { text: 'ok' });
      const { session } = await open([stdioServer('tree', { args: ['-e', wrapper] })], 'bypassPermissions', {}, model);
      await go(session);
      assert.equal(resultsOf(model, 1)[0]?.content, 'Echo: x');
      const [pgid] = must1(session.mcp?.groups.alive());
      assert.equal(groupMembers(pgid).length, 2, 'the wrapper and the server');
      if (how === 'shutdown') await session.shutdown('test', 300);
      else if (how === 'shutdownNow') session.shutdownNow('test');
      else session.close();
      await waitUntil(() => groupMembers(pgid).length === 0, 'the group is gone', 5000);
      if (how !== 'shutdown') await session.shutdown('test', 100);
    });
  }

  it('a slow server does not hold the first request past the wait; its tools join for the next prompt', async () => {
    const slow = `setTimeout(() => require('child_process').spawn(process.execPath, [${JSON.stringify(EVERYTHING)}], { stdio: 'inherit' }).on('exit', (c) => process.exit(c ?? 1)), 2500)`;
    const model = new ScriptedModel().script('default', { text: 'first' }, { text: 'second' });
    const started = Date.now();
    const { session, statuses } = await open([stdioServer('slow', { args: ['-e', slow] })], 'bypassPermissions', {}, model, 300);
    await go(session);
    assert.ok(Date.now() - started < 2000, `the first prompt did not wait for the slow server (${Date.now() - started} ms)`);
    assert.ok(!model.requests[0]?.request.tools.some((t) => t.name.startsWith('mcp__slow__')));
    await waitUntil(() => statuses.some((s) => s.state === 'connected'), 'the slow server', 20_000);
    await go(session);
    assert.ok(model.requests[1]?.request.tools.some((t) => t.name === 'mcp__slow__echo'), 'the next prompt has its tools');
  });

  it('a tool the server adds later (tools/list_changed) joins the registry for agents started after it', async () => {
    const growing = stdioServer('growing', { args: [join(__dirname, '..', '..', 'fixtures', 'mcp-growing-server.mjs')] });
    const model = new ScriptedModel()
      .script('default', { toolUses: [{ name: 'mcp__growing__add-tool', input: { name: 'late' } }] }, { text: 'added' })
      .script('default', { toolUses: [{ name: 'mcp__growing__late', input: {} }] }, { text: 'ran it' });
    const { session } = await open([growing], 'bypassPermissions', {}, model);
    await go(session);
    assert.equal(resultsOf(model, 1)[0]?.content, 'added late');
    assert.ok(!model.requests[1]?.request.tools.some((t) => t.name === 'mcp__growing__late'), 'a running agent keeps the list it started with');
    // The SDK re-lists after its debounce (300 ms): the next prompt's agent has the new tool.
    await waitUntil(() => session.mcp?.statuses()[0]?.tools === 2, 'the re-listed tools', 5000);
    await go(session);
    assert.ok(model.requests[2]?.request.tools.some((t) => t.name === 'mcp__growing__late'));
    assert.equal(resultsOf(model, 3)[0]?.content, 'late ran');
  });

  it('streamable HTTP, and an SSE-only server reached through the fallback', async () => {
    const http = await startHttpServer('streamableHttp');
    const sse = await startHttpServer('sse');
    try {
      const servers: McpServerConfig[] = [
        { ...stdioServer('web'), transport: 'http', command: undefined, args: [], url: http.url },
        { ...stdioServer('old'), transport: 'http', command: undefined, args: [], url: sse.url },
      ];
      const model = new ScriptedModel().script(
        'default',
        { toolUses: [{ name: 'mcp__web__echo', input: { message: 'over http' } }, { name: 'mcp__old__get-sum', input: { a: 2, b: 3 } }] },
        { text: 'ok' },
      );
      const { session, statuses } = await open(servers, 'bypassPermissions', {}, model);
      await go(session);
      const [echo, sum] = resultsOf(model, 1);
      assert.equal(echo?.content, 'Echo: over http');
      assert.match(String(sum?.content), /\b5\b/);
      assert.deepEqual(
        statuses.map((s) => [s.server, s.detail]).sort(),
        [['old', 'sse (streamable HTTP failed)'], ['web', 'http']],
      );
    } finally {
      await http.stop();
      await sse.stop();
    }
  });
});

function must1(list: number[] | undefined): [number] {
  assert.ok(list && list.length === 1, `one server group (got ${JSON.stringify(list)})`);
  return list as [number];
}
