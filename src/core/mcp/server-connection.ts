/**
 * One MCP server for the life of a session: connect, list its tools, call them, and what happens when it
 * goes wrong. Each server gets two starts at most:
 *
 *   start ──ok──▶ connected ──process exits / connection closes──▶ restarting ──ok──▶ connected
 *     │                                                                │
 *     └─fails─▶ one more start ──fails──▶ failed                        └─fails / exits again──▶ failed
 *
 * `failed` is final for the session: the host reports it once, and a call of one of its tools returns an error
 * result naming the server and why. HTTP servers try streamable HTTP first and fall back to the older SSE
 * transport when that fails (as the SDK's docs advise); `type: "sse"` goes straight to SSE.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { errorText } from '../errors';
import type { ProcessGroups } from '../tools/process-groups';
import type { ToolEnv } from '../secrets/tool-env';
import type { ToolResult } from '../tools/types';
import { describeServer, type McpServerConfig } from './config';
import { mcpResultToToolResult } from './mcp-result';
import { loadMcpSdk } from './sdk';
import { GroupStdioTransport } from './stdio-transport';

export type McpServerState = 'starting' | 'connected' | 'restarting' | 'failed' | 'closed';

/** What a server declares about one tool (the part Delegate uses). */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean };
}

export interface McpServerStatus {
  server: string;
  state: McpServerState;
  /** Why it failed or restarted; the transport used when connected. */
  detail?: string;
  tools: number;
}

export interface ConnectionOptions {
  workdir: string;
  groups: ProcessGroups;
  /** The environment stdio servers inherit from (credentials withheld). */
  toolEnv?: ToolEnv;
  connectTimeoutMs: number;
  toolTimeoutMs: number;
  clientVersion: string;
  onStatus(status: McpServerStatus): void;
  /** The server's tool list, each time it is (re)read. */
  onTools(server: string, tools: McpToolInfo[]): void;
}

const MAX_STARTS = 2;

/** What a start is waiting for: the process to spawn, the `initialize` handshake, or the tool list. */
export type McpStartPhase = 'spawn' | 'initialize' | 'tools/list';

export class McpServerConnection {
  state: McpServerState = 'starting';
  failure: string | undefined;
  /** The step the current start is at (what a notice about a slow start names). */
  phase: McpStartPhase = 'spawn';
  private client: Client | undefined;
  private transport: Transport | undefined;
  private starts = 0;
  /** Settles when the current start (first or restart) has succeeded or failed for good. */
  private pending: Promise<void> | undefined;
  private toolCount = 0;

  constructor(
    readonly config: McpServerConfig,
    private readonly opts: ConnectionOptions,
  ) {}

  /** Starts the server (with its one retry); resolves when it is connected or has failed. Never rejects. */
  start(): Promise<void> {
    this.pending ??= this.startWithRetry();
    return this.pending;
  }

  /** Resolves once the server is connected or has failed (at once when it already has). */
  settled(): Promise<void> {
    return this.pending ?? Promise.resolve();
  }

  private async startWithRetry(): Promise<void> {
    while (this.state !== 'closed') {
      try {
        await this.open();
        return;
      } catch (err) {
        const why = errorText(err);
        if (this.is('closed')) return;
        if (this.starts >= MAX_STARTS) return this.fail(this.starts > 1 ? `${why} (it was started ${this.starts} times)` : why);
      }
    }
  }

  private async open(): Promise<void> {
    // `phase` is not reset for a restart: until it gets further, it is stuck where the last start was.
    this.starts++;
    const config = this.config;
    // A stdio server is spawned before the SDK is loaded: its boot and the load overlap.
    const stdio =
      config.transport === 'stdio'
        ? new GroupStdioTransport({ command: config.command ?? '', args: config.args, env: config.env, cwd: config.cwd ?? this.opts.workdir, label: config.name, ...(this.opts.toolEnv ? { toolEnv: this.opts.toolEnv } : {}) }, this.opts.groups)
        : undefined;
    const spawned = stdio?.start().then(
      () => undefined,
      (err: unknown) => err,
    );
    const sdk = await loadMcpSdk();
    // A server that adds tools later says so (tools/list_changed): the SDK re-lists them, new ones join the registry.
    const onChanged = (error: Error | null, tools: McpToolInfo[] | null): void => {
      if (!error && tools && this.is('connected')) {
        this.toolCount = tools.length;
        this.opts.onTools(config.name, tools);
      }
    };
    const makeClient = (): Client =>
      new sdk.Client(
        { name: 'delegate', version: this.opts.clientVersion },
        { capabilities: {}, listChanged: { tools: { onChanged: (error, tools) => onChanged(error, tools as McpToolInfo[] | null) } } },
      );
    const timeout = this.opts.connectTimeoutMs;
    let client = makeClient();
    let transport: Transport;
    let via: string = config.transport;
    if (stdio) {
      const failed = await spawned;
      if (failed !== undefined) throw failed;
      stdio.useFraming(sdk);
      transport = stdio;
      this.phase = 'initialize';
      await connectWithin(client, stdio, timeout, () => stdio.exitReason);
    } else {
      const url = new URL(config.url ?? '');
      const requestInit = { headers: config.headers };
      this.phase = 'initialize';
      if (config.transport === 'http') {
        transport = new sdk.StreamableHTTPClientTransport(url, { requestInit });
        try {
          await connectWithin(client, transport, timeout);
        } catch (err) {
          // An older server speaks only the 2024-11 SSE transport: try that before giving up.
          client = makeClient();
          transport = new sdk.SSEClientTransport(url, { requestInit, eventSourceInit: { fetch: withHeaders(config.headers) } });
          via = 'sse (streamable HTTP failed)';
          await connectWithin(client, transport, timeout).catch((sseErr: unknown) => {
            throw new Error(`streamable HTTP: ${errorText(err)}; SSE: ${errorText(sseErr)}`);
          });
        }
      } else {
        transport = new sdk.SSEClientTransport(url, { requestInit, eventSourceInit: { fetch: withHeaders(config.headers) } });
        await connectWithin(client, transport, timeout);
      }
    }
    if (this.state === 'closed') {
      await client.close().catch(() => undefined);
      return;
    }
    let tools: McpToolInfo[];
    this.phase = 'tools/list';
    try {
      tools = await this.listTools(client);
    } catch (err) {
      await client.close().catch(() => undefined);
      throw new Error(`its tool list could not be read: ${errorText(err)}`);
    }
    if (this.is('closed')) {
      await client.close().catch(() => undefined);
      return;
    }
    this.client = client;
    this.transport = transport;
    client.onclose = () => this.onClosed(client);
    this.toolCount = tools.length;
    this.opts.onTools(config.name, tools);
    this.state = 'connected';
    this.failure = undefined;
    this.opts.onStatus({ server: config.name, state: 'connected', detail: via, tools: tools.length });
  }

  private async listTools(client: Client): Promise<McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.opts.connectTimeoutMs });
      tools.push(...(page.tools as McpToolInfo[]));
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  /** The connection went away. Expected on close; otherwise the server died: one restart, if it has one left. */
  private onClosed(client: Client): void {
    if (client !== this.client || this.state === 'closed') return;
    this.client = undefined;
    const why = this.transport instanceof GroupStdioTransport ? this.transport.exitReason : 'the connection closed';
    this.transport = undefined;
    if (this.starts >= MAX_STARTS) {
      this.fail(`${why} (after its restart)`);
      return;
    }
    this.state = 'restarting';
    this.failure = why;
    this.opts.onStatus({ server: this.config.name, state: 'restarting', detail: why, tools: this.toolCount });
    this.pending = this.startWithRetry();
  }

  private fail(why: string): void {
    this.state = 'failed';
    this.failure = why;
    this.opts.onStatus({ server: this.config.name, state: 'failed', detail: why, tools: this.toolCount });
  }

  /** Calls one tool; every failure is an error result that names the server. */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
    const name = this.config.name;
    if (this.state === 'starting' || this.state === 'restarting') await raceAbort(this.settled(), signal);
    if (signal.aborted) return { content: 'Not run: the run was cancelled.', isError: true };
    const client = this.client;
    if (this.state !== 'connected' || !client) {
      return { content: `MCP server "${name}" is not available: ${this.failure ?? this.state}. Continue without its tools.`, isError: true };
    }
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout: this.opts.toolTimeoutMs,
        // A server that reports progress is alive: its long operation is not timed out while it does.
        resetTimeoutOnProgress: true,
        onprogress: () => undefined,
      });
      return mcpResultToToolResult(result);
    } catch (err) {
      if (signal.aborted) return { content: `The call to MCP server "${name}" was cancelled.`, isError: true };
      if (client !== this.client) {
        const next = this.is('restarting') ? ' It is being restarted once; you may try again.' : '';
        return { content: `MCP server "${name}" stopped during the call: ${this.failure ?? 'the connection closed'}.${next}`, isError: true };
      }
      return { content: `MCP server "${name}": ${errorText(err)}`, isError: true };
    }
  }

  /** The state now (a check after an await, which TypeScript's narrowing does not see changing). */
  private is(state: McpServerState): boolean {
    return this.state === state;
  }

  status(): McpServerStatus {
    return { server: this.config.name, state: this.state, tools: this.toolCount, ...(this.failure ? { detail: this.failure } : {}) };
  }

  describe(): string {
    return describeServer(this.config);
  }

  /** Ends the server for good (the session is closing): no restart follows. */
  async close(): Promise<void> {
    this.state = 'closed';
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }
}

/** client.connect with a deadline; a timed-out or failed start leaves no process behind. */
async function connectWithin(client: Client, transport: Transport, ms: number, why?: () => string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const silent = `it did not answer "initialize" within ${seconds(ms)} (MCP_TIMEOUT)`;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(silent)), ms);
  });
  try {
    await Promise.race([client.connect(transport, { timeout: ms }), deadline]);
  } catch (err) {
    await transport.close().catch(() => undefined);
    // A process that died during the handshake says more than "Connection closed".
    const detail = why?.();
    const text = errorText(err);
    // The SDK's own timeout (-32001 "Request timed out") and ours say the same thing: which step, and how long.
    if (text === silent || /^MCP error -32001\b/.test(text)) throw new Error(silent);
    throw new Error(detail && /closed/i.test(text) ? `it ${detail}` : text.replace(/^MCP error -?\d+: /, ''));
  } finally {
    clearTimeout(timer);
  }
}

/** "5 s", "0.5 s": timeouts as a notice names them. */
export function seconds(ms: number): string {
  return `${ms >= 10_000 ? Math.round(ms / 1000) : Math.round(ms / 100) / 10} s`;
}

/** SSE's event stream is opened by its own fetch: the config's headers must go there too. */
function withHeaders(headers: Record<string, string>): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return (url, init) => fetch(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), ...headers } });
}

function raceAbort(promise: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      resolve();
    };
    signal.addEventListener('abort', done, { once: true });
    void promise.then(done);
  });
}
