/**
 * A project MCP server in the real extension host: `.mcp.json` in the workspace, the approval modal answered
 * through the injectable prompt (it shows the exact command), remembered per workspace, asked again when the
 * command changes; a declined server's tools are not offered. The server is the real server-everything from
 * the extension's node_modules.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import type { DelegateApi } from '../../src/vscode/extension';
import { modalPrompt, type ApprovalQuestion } from '../../src/vscode/approver';
import { approvalChoices, approvalText } from '../../src/vscode/approval-text';
import type { PermissionDecision } from '../../src/core/vocabulary';
import { must } from '../kit/must';
import { inputBoxPrompt, modalMcpPrompt, type McpServerQuestion } from '../../src/vscode/mcp-servers';
import type { McpInputSpec } from '../../src/core/session/ports';
import { lastToolResults, reply, startMessagesApiServer, type MessagesApiServer, type RecordedRequest } from '../fixtures/messages-api-server';
import { serverGroupsOf } from '../kit/mcp-servers';
import { waitUntil } from '../kit/wait';

describe('Delegate in the extension host: project MCP servers', () => {
  let api: DelegateApi;
  let server: MessagesApiServer;
  let workdir: string;
  let everything: string;
  const node = basename(process.execPath).startsWith('node') ? process.execPath : 'node';
  const writeConfig = (args: string[]): void => writeFileSync(join(workdir, '.mcp.json'), JSON.stringify({ mcpServers: { everything: { command: node, args } } }));

  before(async () => {
    const ext = vscode.extensions.getExtension<DelegateApi>('delegate-dev.delegate');
    assert.ok(ext);
    api = await ext.activate();
    everything = join(ext.extensionPath, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
    server = await startMessagesApiServer();
    workdir = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    assert.ok(workdir);
    assert.ok(vscode.workspace.isTrusted, 'the test workspace is trusted');
    process.env.ANTHROPIC_API_KEY = 'test-key';
    const config = vscode.workspace.getConfiguration('delegate');
    await config.update('baseUrl', server.baseURL, vscode.ConfigurationTarget.Global);
    await config.update('permissionMode', 'default', vscode.ConfigurationTarget.Global);
    api.approver.prompt = async () => 'allow';
  });

  after(async () => {
    api.approver.prompt = modalPrompt;
    api.mcpServers.prompt = modalMcpPrompt;
    rmSync(join(workdir, '.mcp.json'), { force: true });
    api.controller.newSession();
    await waitUntil(() => serverGroupsOf(everything).length === 0, 'no server left', 5000);
    await server.close();
  });

  it('asks once with the exact command, remembers it, asks again when it changes; declined: its tools are not offered', async () => {
    const questions: McpServerQuestion[] = [];
    let answer = true;
    api.mcpServers.prompt = async (q) => {
      questions.push(q);
      return answer;
    };
    writeConfig([everything]);
    const since = server.messageRequests().length;
    const requests = (): RecordedRequest[] => server.messageRequests().slice(since);

    api.controller.newSession();
    server.script(reply.toolUse({ name: 'mcp__everything__echo', input: { message: 'from the editor' } }), reply.text('echoed'));
    await api.controller.ask('echo');
    server.assertAllConsumed();
    assert.equal(questions.length, 1);
    assert.equal(questions[0]?.server, 'everything');
    assert.equal(questions[0]?.file, '.mcp.json');
    assert.equal(questions[0]?.runs, `${node} ${everything}`);
    assert.equal(lastToolResults(requests()[1] as RecordedRequest)[0]?.content, 'Echo: from the editor');

    // A new session: approved already, not asked again.
    api.controller.newSession();
    server.script(reply.toolUse({ name: 'mcp__everything__echo', input: { message: 'again' } }), reply.text('echoed again'));
    await api.controller.ask('echo again');
    server.assertAllConsumed();
    assert.equal(questions.length, 1, 'remembered for the workspace');
    assert.equal(lastToolResults(requests()[3] as RecordedRequest)[0]?.content, 'Echo: again');

    // The command changed: asked again; declined, the server does not start and its tools are not offered.
    writeConfig([everything, 'stdio']);
    answer = false;
    api.controller.newSession();
    await waitUntil(() => serverGroupsOf(everything).length === 0, 'the old session\'s server is gone', 5000);
    server.script(reply.text('no tools from it'));
    await api.controller.ask('anything?');
    server.assertAllConsumed();
    assert.equal(questions.length, 2);
    assert.equal(questions[1]?.runs, `${node} ${everything} stdio`);
    assert.ok(!(requests()[4]?.body.tools ?? []).some((t) => t.name.startsWith('mcp__')), 'a declined server offers no tools');
    assert.deepEqual(serverGroupsOf(everything), [], 'a declined server is not started');
  });

  it('plan mode: a read-only tool (readOnlyHint) is asked, the modal saying why; "Allow for this session" covers that tool, "Allow this server for this session" all of its server', async () => {
    writeConfig([everything]);
    api.mcpServers.prompt = async () => true;
    const asked: ApprovalQuestion[] = [];
    const answers: PermissionDecision[] = ['allow_session', 'allow_server'];
    api.approver.prompt = async (q) => {
      asked.push(q);
      return answers.shift() ?? 'deny';
    };
    const config = vscode.workspace.getConfiguration('delegate');
    await config.update('permissionMode', 'plan', vscode.ConfigurationTarget.Global);
    try {
      api.controller.newSession();
      const since = server.messageRequests().length;
      const call = (name: string, input: Record<string, unknown>) => reply.toolUse({ name: `mcp__everything__${name}`, input });
      server.script(call('echo', { message: 'one' }), call('echo', { message: 'two' }), call('get-sum', { a: 1, b: 2 }), call('get-tiny-image', {}), reply.text('done'));
      await api.controller.ask('use the server');
      server.assertAllConsumed();
      assert.deepEqual(asked.map((q) => q.toolName), ['mcp__everything__echo', 'mcp__everything__get-sum'], 'the session answer covers echo, the server answer every tool of it');
      assert.match(asked[0]?.reason ?? '', /^plan mode is read-only, but a read-only tool still sends its input to its server/);
      assert.match(approvalText(must(asked[0])).detail, /Plan mode is read-only, but a read-only tool still sends its input/);
      assert.ok(approvalChoices(must(asked[1])).some((c) => c.decision === 'allow_server' && c.label === 'Allow every tool of server "everything" for this session'));
      const result = (n: number) => lastToolResults(server.messageRequests()[since + n] as RecordedRequest)[0];
      assert.equal(result(1)?.content, 'Echo: one');
      assert.equal(result(2)?.content, 'Echo: two');
      assert.match(String(result(3)?.content), /The sum of 1 and 2 is 3/);
      assert.notEqual(result(4)?.is_error, true, JSON.stringify(result(4)));
    } finally {
      await config.update('permissionMode', 'default', vscode.ConfigurationTarget.Global);
      api.approver.prompt = async () => 'allow';
      rmSync(join(workdir, '.mcp.json'), { force: true });
    }
  });

  it('.vscode/mcp.json: ${input:…} is asked with an input box (password when the input says so) and reaches the server', async () => {
    rmSync(join(workdir, '.mcp.json'), { force: true });
    mkdirSync(join(workdir, '.vscode'), { recursive: true });
    const file = join(workdir, '.vscode', 'mcp.json');
    writeFileSync(
      file,
      `{
        // VS Code's format, with a comment
        "inputs": [{ "type": "promptString", "id": "token", "description": "The service token", "password": true }],
        "servers": { "ev": { "type": "stdio", "command": ${JSON.stringify(node)}, "args": [${JSON.stringify(everything)}], "env": { "MY_TOKEN": "\${input:token}" } } }
      }`,
    );
    const asked: McpInputSpec[] = [];
    api.mcpServers.prompt = async () => true;
    api.mcpServers.inputPrompt = async (input) => {
      asked.push(input);
      return 'tok-3f9a';
    };
    try {
      api.controller.newSession();
      const since = server.messageRequests().length;
      server.script(reply.toolUse({ name: 'mcp__ev__get-env', input: {} }), reply.text('seen'));
      await api.controller.ask('show the env');
      server.assertAllConsumed();
      assert.deepEqual(asked, [{ id: 'token', description: 'The service token', password: true }]);
      const result = lastToolResults(server.messageRequests()[since + 1] as RecordedRequest)[0];
      assert.match(String(result?.content), /"MY_TOKEN": "tok-3f9a"/);
    } finally {
      api.mcpServers.inputPrompt = inputBoxPrompt;
      rmSync(file, { force: true });
    }
  });
});
