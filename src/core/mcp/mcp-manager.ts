/**
 * A session's MCP servers: started together, in the background, as soon as the session exists.
 *
 *   createSession ──start()──▶ every server at once: prepare (the host: approval, inputs) ─▶ connect ─▶ list tools
 *                                                                                              │
 *   run(prompt) ──start(wait)──▶ waits for servers still starting, up to `wait`   ◀── onTools ──┘ (registry grows)
 *
 * Why a bounded wait: a local stdio server is up in well under a second, and a first request without its tools
 * would make a one-shot `delegate -p` answer without them; but one that downloads itself first (`npx -y …`) can
 * take tens of seconds, and no prompt should pay that. So the first request waits while servers are still coming,
 * at most `wait`; a server that connects later joins the registry then, and every agent started after that
 * (the next prompt, the next subagent) has its tools. An agent keeps the tool list it started with: a list that
 * changed between two requests would also throw away the prompt cache. The wait is never longer than
 * MCP_TIMEOUT (a user who set it lower has said how long a start may take), and a server still starting when it
 * ends is reported (`onStillStarting`: its name, the step it is stuck at, the wait that expired), so a silent
 * server costs one visible line, not an unexplained pause.
 *
 * Every server process is in the manager's own process-group list; close() / killNow() end them all.
 */
import { errorText } from '../errors';
import type { ToolEnv } from '../secrets/tool-env';
import { ProcessGroups } from '../tools/process-groups';
import type { AnyTool, ToolResult } from '../tools/types';
import type { McpConfigProblem, McpServerConfig } from './config';
import { createMcpTool } from './mcp-tool';
import { McpServerConnection, type McpServerStatus, type McpStartPhase, type McpToolInfo } from './server-connection';

export interface McpHost {
  /**
   * Called before a server starts: the editor asks the user (and fills `${input:…}` values); the CLI starts
   * what it finds. Returns the config to start, or why it does not start (said once, through onStatus).
   */
  prepare?(server: McpServerConfig): Promise<McpServerConfig | { skipped: string }>;
  /** A server connected, restarted, failed or was skipped: hosts report failures once. */
  onStatus?(status: McpServerStatus): void;
}

/** What a session is given about MCP: the servers, what could not be used in the config files, the host's hooks and the waits. */
export interface SessionMcpConfig {
  servers: McpServerConfig[];
  /** What could not be used in the config files: said once, as warnings. */
  problems?: McpConfigProblem[];
  host?: McpHost;
  /** How long a prompt's first request waits for servers still starting (see mcp-manager.ts). Default 5 s. */
  waitMs?: number;
  connectTimeoutMs?: number;
  toolTimeoutMs?: number;
  clientVersion?: string;
}

export interface McpManagerOptions {
  workdir: string;
  /** The environment stdio servers inherit from (the session's: credentials withheld, what the user named passed). */
  toolEnv?: ToolEnv;
  host?: McpHost;
  /** Per start attempt (MCP_TIMEOUT in Claude Code). Default 30 s. */
  connectTimeoutMs?: number;
  /** Per tool call, reset by progress notifications (MCP_TOOL_TIMEOUT). Default 10 min. */
  toolTimeoutMs?: number;
  clientVersion?: string;
  /** New tools, whenever a server's list is read: the session adds them to its registry. */
  onTools(tools: AnyTool[]): void;
  /** A first request's wait ended with this server still starting (it goes on in the background). */
  onStillStarting?(info: { server: string; phase: McpStartPhase; waitedMs: number; connectTimeoutMs: number }): void;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_TOOL_TIMEOUT_MS = 600_000;

export class McpManager {
  readonly groups = new ProcessGroups();
  private readonly connections = new Map<string, McpServerConnection>();
  private readonly known = new Set<string>();
  private readonly skipped = new Map<string, string>();
  private starting: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly servers: McpServerConfig[],
    private readonly opts: McpManagerOptions,
  ) {}

  /**
   * Starts every server in parallel (again after close(): a closed session can run later). Resolves when each
   * one is prepared and then connected, failed, or `waitMs` past its preparation: what a first request waits for.
   */
  start(waitMs = 0): Promise<void> {
    if (this.closed) {
      this.closed = false;
      this.starting = undefined;
      this.connections.clear();
      this.skipped.clear();
    }
    this.starting ??= Promise.all(this.servers.map((server) => this.startOne(server, waitMs))).then(() => undefined);
    return this.starting;
  }

  statuses(): McpServerStatus[] {
    const live = [...this.connections.values()].map((c) => c.status());
    const skipped = [...this.skipped].map(([server, detail]): McpServerStatus => ({ server, state: 'closed', detail, tools: 0 }));
    return [...live, ...skipped];
  }

  private async startOne(config: McpServerConfig, waitMs: number): Promise<void> {
    let ready: McpServerConfig | { skipped: string };
    try {
      ready = this.opts.host?.prepare ? await this.opts.host.prepare(config) : config;
    } catch (err) {
      ready = { skipped: `its start could not be prepared: ${errorText(err)}` };
    }
    if (this.closed) return;
    if ('skipped' in ready) {
      this.skipped.set(config.name, ready.skipped);
      this.opts.host?.onStatus?.({ server: config.name, state: 'closed', detail: ready.skipped, tools: 0 });
      return;
    }
    const connection = new McpServerConnection(ready, {
      workdir: this.opts.workdir,
      groups: this.groups,
      ...(this.opts.toolEnv ? { toolEnv: this.opts.toolEnv } : {}),
      connectTimeoutMs: this.connectTimeoutMs,
      toolTimeoutMs: this.opts.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
      clientVersion: this.opts.clientVersion ?? '0.0.0',
      onStatus: (status) => this.opts.host?.onStatus?.(status),
      onTools: (server, tools) => this.addTools(server, tools),
    });
    this.connections.set(config.name, connection);
    // The wait starts once the host has prepared the server (a user reading an approval prompt is not "slow").
    const wait = Math.min(waitMs, this.connectTimeoutMs);
    let timer: NodeJS.Timeout | undefined;
    const waited = await Promise.race([connection.start().then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), wait)))]);
    clearTimeout(timer);
    if (waited && wait > 0 && connection.state === 'starting' && !this.closed) {
      this.opts.onStillStarting?.({ server: config.name, phase: connection.phase, waitedMs: wait, connectTimeoutMs: this.connectTimeoutMs });
    }
  }

  private get connectTimeoutMs(): number {
    return this.opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  }

  /** A call of one of a server's tools, through whichever connection the server has now. */
  private async call(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
    if (this.closed) return { content: `MCP server "${server}" is not running: the session was closed.`, isError: true };
    const connection = this.connections.get(server);
    if (!connection) {
      const why = this.skipped.get(server) ?? 'it has not started';
      return { content: `MCP server "${server}" is not available: ${why}.`, isError: true };
    }
    return connection.call(tool, args, signal);
  }

  /** Tools not seen before become registry entries (a restarted server's known tools keep theirs). */
  private addTools(server: string, tools: McpToolInfo[]): void {
    const fresh: AnyTool[] = [];
    const caller = { call: (tool: string, args: Record<string, unknown>, signal: AbortSignal) => this.call(server, tool, args, signal) };
    for (const info of tools) {
      const tool = createMcpTool(server, info, caller);
      // Two names that normalize alike (a.b and a_b): the first keeps it.
      if (this.known.has(tool.name)) continue;
      this.known.add(tool.name);
      fresh.push(tool);
    }
    if (fresh.length > 0) this.opts.onTools(fresh);
  }

  /** Ends every server (TERM, then KILL after the grace); no restart follows. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.connections.values()].map((c) => c.close()));
    this.groups.killAllNow();
  }

  /** The synchronous last resort (a process 'exit' handler): KILL every server's group. */
  killNow(): void {
    this.closed = true;
    for (const c of this.connections.values()) c.state = 'closed';
    this.groups.killAllNow();
  }
}
