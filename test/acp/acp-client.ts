/**
 * An ACP client as an editor is one: the official SDK's client app, talking to the BUILT `bin/delegate.js acp`
 * over its stdin/stdout (newline-delimited JSON-RPC). It records every session/update, and answers permission
 * requests and fs/* with the test's handlers.
 *
 *   const start = acpClients(() => cli.env());            in a describe: each client closed after its test
 *   const c = await start({ capabilities: { subagents: {} } });
 *   const { sessionId } = await c.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
 *   await c.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'hi' }] });
 *   c.updates   // every SessionNotification, in arrival order
 *   await c.close();
 */
import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk/unstable';
import { REPO } from '../kit/run-cli';
import { tempDir } from '../kit/temp-dirs';

export interface AcpClientOptions {
  env: Record<string, string>;
  capabilities?: acp.ClientCapabilities;
  args?: string[];
  permission?: (request: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;
  readTextFile?: (request: acp.ReadTextFileRequest) => string | Promise<string>;
  writeTextFile?: (request: acp.WriteTextFileRequest) => void | Promise<void>;
  elicit?: (request: acp.CreateElicitationRequest) => acp.CreateElicitationResponse | Promise<acp.CreateElicitationResponse>;
}

export interface AcpClient {
  agent: acp.ClientContext;
  initialize: acp.InitializeResponse;
  updates: acp.SessionNotification[];
  permissions: acp.RequestPermissionRequest[];
  stderr(): string;
  /** Resolves with the first update (already received or to come) that `test` accepts. */
  waitFor(test: (n: acp.SessionNotification) => boolean, what: string, timeoutMs?: number): Promise<acp.SessionNotification>;
  /** Closes stdin (the client going away) and waits for the agent to exit; its exit code. */
  close(): Promise<number | null>;
}

async function startAcpClient(options: AcpClientOptions): Promise<AcpClient> {
  // A fresh HOME: the developer's own ~/.claude must not reach the agent under test.
  const home = tempDir('delegate-acp-home-');
  const env = { PATH: process.env.PATH ?? '', HOME: home, ...(process.env.DELEGATE_CHUNK_LOG ? { DELEGATE_CHUNK_LOG: process.env.DELEGATE_CHUNK_LOG } : {}), ...options.env };
  const child = spawn(process.execPath, [join(REPO, 'bin', 'delegate.js'), 'acp', ...(options.args ?? [])], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const updates: acp.SessionNotification[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  const waiters: { test: (n: acp.SessionNotification) => boolean; resolve: (n: acp.SessionNotification) => void }[] = [];

  const app = acp
    .client({ name: 'delegate-test-client' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
      for (const w of [...waiters]) {
        if (w.test(params)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(params);
        }
      }
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      permissions.push(params);
      if (!options.permission) return { outcome: { outcome: 'cancelled' } };
      return options.permission(params);
    })
    .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
      if (!options.readTextFile) throw acp.RequestError.methodNotFound('fs/read_text_file');
      return { content: await options.readTextFile(params) };
    })
    .onRequest(acp.methods.client.elicitation.create, async ({ params }) => {
      if (!options.elicit) throw acp.RequestError.methodNotFound('elicitation/create');
      return options.elicit(params);
    })
    .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
      if (!options.writeTextFile) throw acp.RequestError.methodNotFound('fs/write_text_file');
      await options.writeTextFile(params);
      return {};
    });
  const connection = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  const initialize = await connection.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: options.capabilities ?? {},
    clientInfo: { name: 'delegate-test-client', version: '1.0.0' },
  });
  return {
    agent: connection.agent,
    initialize,
    updates,
    permissions,
    stderr: () => stderr,
    waitFor: (test, what, timeoutMs = 10_000) => {
      const seen = updates.find(test);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no update: ${what}\nstderr: ${stderr}`)), timeoutMs);
        waiters.push({ test, resolve: (n) => (clearTimeout(timer), resolve(n)) });
      });
    },
    close: async () => {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      connection.close();
      return code;
    },
  };
}

/** Options of a suite's client: the suite's environment, with `env` added over it. */
export type SuiteClientOptions = Omit<AcpClientOptions, 'env'> & { env?: Record<string, string> };

/** Inside a `describe`: starts clients over the suite's environment and closes every one after each test (closing twice is harmless). */
export function acpClients(suiteEnv: () => Record<string, string>): (options?: SuiteClientOptions) => Promise<AcpClient> {
  const clients: AcpClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  return async (options = {}) => {
    const client = await startAcpClient({ ...options, env: { ...suiteEnv(), ...options.env } });
    clients.push(client);
    return client;
  };
}

/** The updates of one session, of one kind. */
export function updatesOf<K extends acp.SessionUpdate['sessionUpdate']>(client: AcpClient, sessionId: string, kind: K): Extract<acp.SessionUpdate, { sessionUpdate: K }>[] {
  return client.updates.filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === kind).map((n) => n.update as Extract<acp.SessionUpdate, { sessionUpdate: K }>);
}

/** The text of one session's agent message chunks, joined. */
export function messageText(client: AcpClient, sessionId: string): string {
  return updatesOf(client, sessionId, 'agent_message_chunk')
    .map((u) => (u.content.type === 'text' ? u.content.text : ''))
    .join('');
}
