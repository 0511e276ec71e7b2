/**
 * The stdio transport for an MCP server, in a process group of its own. The SDK's StdioClientTransport spawns
 * the server in ours, and kills only that one process: a server started through `npx`, `uvx` or a shell
 * script is a tree (npm → sh → node), and its leaves would outlive the session. Here:
 *
 *   spawn(command, args, detached) ──▶ groups.add(pid)   the session's exit paths KILL the group, even from 'exit'
 *   stdout ──ReadBuffer──▶ onmessage                      newline-delimited JSON-RPC (the SDK's framing)
 *   stderr ──▶ last lines kept                            "why it died" for the error results
 *   close() ──▶ stdin end, TERM the group, ≤ grace, KILL ──▶ groups.remove
 *
 * The environment is the SDK's default (HOME, LOGNAME, PATH, SHELL, TERM, USER…) plus what the user named in the tool
 * environment (--tool-env, delegate.toolEnv), both through secrets/tool-env.ts, plus the config's `env`: the
 * session's own secrets (ANTHROPIC_API_KEY) are not handed to a third-party server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ProcessGroups } from '../tools/process-groups';
import { ToolEnv } from '../secrets/tool-env';

/** The part of the SDK's shared/stdio module this needs (loaded lazily with the rest of the SDK). */
export interface StdioFraming {
  ReadBuffer: new () => { append(chunk: Buffer): void; readMessage(): JSONRPCMessage | null; clear(): void };
  serializeMessage(message: JSONRPCMessage): string;
}

export interface StdioServerParams {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** A label for the group list (diagnostics). */
  label: string;
  /** The session's command environment; the defaults when omitted. */
  toolEnv?: ToolEnv;
}

const INHERITED = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'TMPDIR'];
const STDERR_KEEP = 4000;
const DEFAULT_ENV = new ToolEnv();

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private spawned: Promise<void> | undefined;
  private framing: StdioFraming | undefined;
  private buffer: InstanceType<StdioFraming['ReadBuffer']> | undefined;
  /** Output that came before the framing (the SDK) was loaded. */
  private early: Buffer[] = [];
  private stderrTail = '';
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  constructor(
    private readonly params: StdioServerParams,
    private readonly groups: ProcessGroups,
    private readonly graceMs = 1000,
  ) {}

  /**
   * The SDK's framing, once loaded. The process may be spawned before: its boot (hundreds of ms for a Node
   * server) then overlaps the SDK's load instead of following it.
   */
  useFraming(framing: StdioFraming): void {
    this.framing = framing;
    this.buffer = new framing.ReadBuffer();
    for (const chunk of this.early.splice(0)) this.onData(chunk);
  }

  /** Why the process ended, for messages: its exit status and the last lines it wrote on stderr. */
  get exitReason(): string {
    const status = this.exit ? (this.exit.signal ? `was killed by ${this.exit.signal}` : `exited with code ${this.exit.code}`) : 'closed its output';
    const last = this.stderrTail.trim().split('\n').slice(-3).join(' | ').trim();
    return last ? `${status}; it said: ${last.length > 300 ? `…${last.slice(-299)}` : last}` : status;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Spawns the process (once: the client's connect() calls this again, and gets the same spawn). */
  start(): Promise<void> {
    this.spawned ??= this.spawn();
    return this.spawned;
  }

  private spawn(): Promise<void> {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries((this.params.toolEnv ?? DEFAULT_ENV).pick(INHERITED))) {
      // Exported shell functions ("() { …") are skipped, as the SDK does.
      if (!value.startsWith('()')) env[key] = value;
    }
    return new Promise((resolve, reject) => {
      this.groups.beforeSpawn();
      const child = spawn(this.params.command, this.params.args, {
        cwd: this.params.cwd,
        env: { ...env, ...this.params.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
      this.child = child;
      // Listed at once (a pid means it was forked), not at 'spawn': a kill -9 of ours in between would miss it.
      if (child.pid !== undefined) this.groups.add(child.pid, `mcp ${this.params.label}`);
      child.once('spawn', () => resolve());
      child.once('error', (err) => {
        // ENOENT and the like: no process, so no group to remember.
        reject(err);
        this.onerror?.(err);
      });
      child.once('close', (code, signal) => {
        this.exit = { code, signal };
        if (child.pid !== undefined) {
          // Whatever the leader left in its group goes with it (a group id is not reused while members live).
          this.groups.signal(child.pid, 'SIGKILL');
          this.groups.remove(child.pid);
        }
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('data', (chunk: Buffer) => this.onData(chunk));
      child.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_KEEP);
      });
    });
  }

  private onData(chunk: Buffer): void {
    const buffer = this.buffer;
    if (!buffer) return void this.early.push(chunk);
    buffer.append(chunk);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = buffer.readMessage();
      } catch (err) {
        // A line that is not JSON-RPC (a server logging to stdout): skip it, as the SDK does.
        this.onerror?.(err instanceof Error ? err : new Error(String(err)));
        continue;
      }
      if (message === null) break;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) return reject(new Error('the server process is not running'));
      if (!this.framing) return reject(new Error('the transport has no framing yet'));
      if (stdin.write(this.framing.serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends the server and everything it started: stdin closed, TERM to the group, KILL after the grace. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || child.pid === undefined) return;
    const pid = child.pid;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    child.stdin?.end();
    this.groups.signal(pid, 'SIGTERM');
    const timer = new Promise<void>((resolve) => setTimeout(resolve, this.graceMs).unref());
    await Promise.race([closed, timer]);
    // The leader may be gone while its children linger: the group is what must go.
    this.groups.signal(pid, 'SIGKILL');
    this.groups.remove(pid);
    await Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, 200).unref())]);
    this.buffer?.clear();
  }
}
