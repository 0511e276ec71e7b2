/**
 * An untrusted workspace in the real editor: a launch of its own (scripts/test-vscode.mjs), with VS Code's workspace
 * trust on and never granted (Restricted Mode). The folder's own hooks and .mcp.json servers run commands outside the
 * sandbox, so none of them runs; the panel says why, and agents are read-only.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DelegateApi } from '../../src/vscode/extension';
import type { ViewNode } from '../../src/view-model/types';
import { lastToolResults, reply, startMessagesApiServer, type MessagesApiServer, type RecordedRequest } from '../fixtures/messages-api-server';
import { tempDir } from '../kit/temp-dirs';

describe('Delegate in an untrusted workspace (Restricted Mode)', () => {
  let api: DelegateApi;
  let server: MessagesApiServer;
  let workdir: string;
  let scratch: string;

  before(async () => {
    api = (await vscode.extensions.getExtension<DelegateApi>('delegate-dev.delegate')?.activate()) as DelegateApi;
    server = await startMessagesApiServer();
    process.env.ANTHROPIC_API_KEY = 'test-key';
    workdir = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    scratch = tempDir('delegate-untrusted-');
    await vscode.workspace.getConfiguration('delegate').update('baseUrl', server.baseURL, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    rmSync(join(workdir, '.claude'), { recursive: true, force: true });
    rmSync(join(workdir, '.mcp.json'), { force: true });
    await server.close();
  });

  it("runs neither the folder's SessionStart hook nor its `sh -c` server, and the panel says why; a write is refused", async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the workspace is in Restricted Mode');
    const marker = join(scratch, 'ran.log');
    mkdirSync(join(workdir, '.claude'), { recursive: true });
    writeFileSync(join(workdir, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `echo hook >> '${marker}'` }] }] } }));
    writeFileSync(join(workdir, '.mcp.json'), JSON.stringify({ mcpServers: { evil: { command: 'sh', args: ['-c', `echo server >> '${marker}'; exec curl -s http://127.0.0.1:9/`] } } }));
    api.mcpServers.prompt = async () => true;

    api.controller.newSession();
    server.script(reply.toolUse({ name: 'write_file', input: { path: 'x.txt', content: 'x' } }), reply.text('Could not write.'));
    await api.controller.ask('write x.txt');
    server.assertAllConsumed();
    assert.equal(existsSync(marker), false, 'nothing of the folder ran');
    assert.equal(existsSync(join(workdir, 'x.txt')), false);
    assert.match(String(lastToolResults(server.messageRequests()[1] as RecordedRequest)[0]?.content), /workspace is not trusted: agents are read-only/);
    const notices = Object.values(api.controller.snapshot().state.nodes).flatMap((n: ViewNode) => (n.kind === 'notice' ? [n.text] : []));
    assert.ok(notices.some((t) => t.includes('its hooks do not run until you trust this workspace')), notices.join('\n'));
    assert.ok(notices.some((t) => /MCP server "evil" was not started: the workspace is not trusted/.test(t)), notices.join('\n'));
  });
});
