/**
 * No agent tool sees the credentials, in the real extension host. scripts/test-vscode.mjs starts the editor with a
 * fake ANTHROPIC_API_KEY and a copy of the key the test then stores with Delegate: Set API Key, so the extension
 * host's initial environment block holds both. bash (sandbox off and on) prints its environment and the extension
 * host's /proc/<pid>/environ; neither key may reach any request the model gets. `delegate.toolEnv` lets one through.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { DelegateApi } from '../../src/vscode/extension';
import { lastToolResults, reply, startMessagesApiServer, type MessagesApiServer, type RecordedRequest } from '../fixtures/messages-api-server';
import fakeKeys from './fake-keys.json';
import { waitUntil } from '../kit/wait';

const EXTENSION_ID = 'delegate-dev.delegate';
const ENV_KEY = fakeKeys.envKey;
const STORED_KEY = fakeKeys.storedKey;

/** Its environment, then the extension host's (bash's parent) as the kernel shows it. */
const SNOOP = "env; echo '--- parent'; tr '\\0' '\\n' < /proc/$PPID/environ; echo '--- end'";

describe('Delegate in the extension host: no agent tool sees the credentials', () => {
  let api: DelegateApi;
  let server: MessagesApiServer;
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('delegate');

  before(async () => {
    api = (await vscode.extensions.getExtension<DelegateApi>(EXTENSION_ID)?.activate()) as DelegateApi;
    server = await startMessagesApiServer();
    await config().update('baseUrl', server.baseURL, vscode.ConfigurationTarget.Global);
    await config().update('permissionMode', 'bypassPermissions', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await vscode.commands.executeCommand('delegate.setApiKey', '');
    for (const key of ['permissionMode', 'sandbox', 'toolEnv']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  /** One bash call of SNOOP in a new session; returns what the model was told. */
  async function snoop(): Promise<{ out: string; requests: RecordedRequest[] }> {
    api.controller.newSession();
    const since = server.messageRequests().length;
    server.script(reply.toolUse({ name: 'bash', input: { command: SNOOP } }), reply.text('looked'));
    await api.controller.ask('look around');
    server.assertAllConsumed();
    const requests = server.messageRequests().slice(since);
    return { out: String(lastToolResults(requests[1] as RecordedRequest)[0]?.content ?? ''), requests };
  }

  function assertNoKey(requests: RecordedRequest[]): void {
    for (const req of requests) {
      const body = JSON.stringify(req.body);
      for (const key of [ENV_KEY, STORED_KEY]) assert.ok(!body.includes(key), `request #${req.index} carries ${key}`);
    }
  }

  it("the extension host's /proc/<pid>/environ holds no key; process.env still has them for other extensions", () => {
    assert.equal(process.env.DELEGATE_TEST_KEY_COPY, STORED_KEY, 'the editor was started with the test keys (scripts/test-vscode.mjs)');
    const environ = readFileSync(`/proc/${process.pid}/environ`, 'latin1');
    assert.ok(environ.includes('VSCODE'), 'the block was read');
    assert.ok(!environ.includes(ENV_KEY), "ANTHROPIC_API_KEY's value is out of the environment block");
  });

  for (const sandbox of ['off', 'on'] as const) {
    it(`sandbox ${sandbox}: bash sees neither the SecretStorage key (nor a variable holding a copy) nor ANTHROPIC_API_KEY`, async () => {
      await config().update('sandbox', sandbox, vscode.ConfigurationTarget.Global);
      // The key from the secret storage is the one in use.
      await vscode.commands.executeCommand('delegate.setApiKey', STORED_KEY);
      const stored = await snoop();
      assertNoKey(stored.requests);
      assert.match(stored.out, /^PATH=/m, 'env ran');
      assert.match(stored.out, /--- end/);
      if (sandbox === 'off') assert.match(stored.out, /--- parent\n[^]*VSCODE/, "the extension host's environ was read");
      // Its copy left the extension host's environment block once the key was known.
      assert.ok(!readFileSync(`/proc/${process.pid}/environ`, 'latin1').includes(STORED_KEY));
      // Without a stored key, ANTHROPIC_API_KEY is the one in use.
      await vscode.commands.executeCommand('delegate.setApiKey', '');
      process.env.ANTHROPIC_API_KEY = ENV_KEY;
      const fromEnv = await snoop();
      assertNoKey(fromEnv.requests);
      assert.match(fromEnv.out, /^PATH=/m);
    });
  }

  it("a workspace's own .vscode/settings.json cannot name one in delegate.toolEnv: only the user's settings count", async () => {
    await config().update('sandbox', 'off', vscode.ConfigurationTarget.Global);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath as string;
    const file = join(folder, '.vscode', 'settings.json');
    const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    mkdirSync(dirname(file), { recursive: true });
    // What a cloned repository can hold: trusted or not, the key must not reach its commands this way.
    // maxTurns beside it says when the editor has read the file (a machine-scoped value never shows as the workspace's).
    writeFileSync(file, JSON.stringify({ 'delegate.toolEnv': ['ANTHROPIC_API_KEY'], 'delegate.maxTurns': 77 }));
    try {
      await waitUntil(() => config().inspect<number>('maxTurns')?.workspaceValue === 77, 'the workspace settings file to be read', 5000);
      assert.deepEqual(config().get('toolEnv'), [], 'a machine-scoped setting takes no workspace value');
      process.env.ANTHROPIC_API_KEY = ENV_KEY;
      const { out, requests } = await snoop();
      assert.match(out, /^PATH=/m, 'env ran');
      assertNoKey(requests);
    } finally {
      if (before === undefined) rmSync(file);
      else writeFileSync(file, before);
    }
  });

  it('delegate.toolEnv names a variable commands get all the same', async () => {
    await config().update('sandbox', 'off', vscode.ConfigurationTarget.Global);
    await config().update('toolEnv', ['ANTHROPIC_API_KEY'], vscode.ConfigurationTarget.Global);
    process.env.ANTHROPIC_API_KEY = ENV_KEY;
    const { out } = await snoop();
    assert.match(out, new RegExp(`^ANTHROPIC_API_KEY=${ENV_KEY}$`, 'm'));
    assert.ok(!out.includes(STORED_KEY));
  });
});

