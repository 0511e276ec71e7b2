/**
 * The tool contract. A tool is made by a factory over ports (file ops, process runner), so the
 * editor host and tests can swap the ports; failures come back as `isError` results, never throws.
 */
import type { ToolSchema } from '../llm/types';
import type { PrivateRange } from './private-address';

/** Shared input check: a plain object (extra fields are tolerated). */
export function asRecord(raw: unknown): Record<string, unknown> | undefined {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
}

/**
 * What a call can touch, which is what permission modes reason about (and the tree's icons and summaries
 * follow): `read` the workspace, `write` it, `exec` commands, `delegate` to a subagent, `external` reaches
 * outside Delegate (an MCP server, the web).
 */
export type ToolKind = 'read' | 'write' | 'exec' | 'delegate' | 'external';

export interface ToolResult {
  content: string;
  isError?: boolean;
  /**
   * The tool kept only part of a huge output in `content` and saved the whole: where, how much, and where
   * in `content` the unsaved-in-memory gap is (`gapChars` characters were left out at index `gapAt`).
   */
  fullOutput?: { path: string; totalChars: number; savedChars: number; gapAt: number; gapChars: number };
  /** A command that ran: its exit code, null when it did not exit by itself (timed out, cancelled, killed). */
  exitCode?: number | null;
}

export interface ToolContext {
  signal: AbortSignal;
  agentId: string;
  toolUseId: string;
  /** Where this call may save a full output too large to keep in memory (beside the transcript). */
  outputPath?: string;
  /**
   * A destination on this machine or a private network (web_fetch, after DNS, at any redirect hop) needs its own
   * permission, in every mode: the pipeline asks for it. Resolves to why it was refused, or undefined when allowed.
   * Without it (a tool run outside the pipeline) private destinations are refused.
   */
  allowPrivateDestination?(destination: PrivateDestination): Promise<string | undefined>;
  /** The call's output as it comes (bash's stdout and stderr, decoded), for a host to show live; the result still holds it. */
  onOutput?(text: string): void;
}

/** Where a private fetch goes: what its permission prompt names. */
export interface PrivateDestination {
  /** The URL's host as written (no IPv6 brackets): what a rule or a session answer names. */
  host: string;
  port: string;
  /** The address it resolved to, which is in `range`. */
  address: string;
  range: PrivateRange;
  url: string;
}

/** A call in its tool's words. */
export interface CallDescription {
  /**
   * The command, the path, the pattern…: what a permission prompt shows in full; the call's record keeps its first
   * line (shown-text.ts oneLine).
   */
  summary: string;
  /** Files the call reads or writes, as the model gave them: confined to the workspace by the permission check, links in the hosts. */
  paths: string[];
}

/**
 * A call described by its input alone, `key: value, key: value` on one line, no paths: for a tool with no words of
 * its own (an MCP server's), or a call whose tool is unknown or whose input does not parse. Paths are never taken
 * from such an input: the permission check confines paths, and an MCP tool's `path` may name anything.
 */
export function describeInput(input: unknown): CallDescription {
  const record = asRecord(input);
  if (!record) return { summary: input === undefined ? '' : typeof input === 'string' ? input : (JSON.stringify(input) ?? ''), paths: [] };
  const parts = Object.entries(record).map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
  const line = parts.join(', ').replace(/\s+/g, ' ');
  return { summary: line.length > GENERIC_SUMMARY ? `${line.slice(0, GENERIC_SUMMARY - 1)}…` : line, paths: [] };
}

const GENERIC_SUMMARY = 160;

export type ParseResult<I> = { ok: true; input: I } | { ok: false; error: string };

export interface Tool<I = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ToolSchema['input_schema'];
  readonly kind: ToolKind;
  /** An `external` tool that declares it changes nothing (an MCP read-only hint): allowed in plan mode. */
  readonly readOnly?: boolean;
  /**
   * Offered in requests only once this says so (send_message and the like: once the agent has a subagent), so an
   * agent that never delegates is not billed for them on every request. Callable by name either way.
   */
  readonly offered?: () => boolean;
  /** Checks the model's raw input; a clear message on failure goes back to the model as an error result. */
  parse(raw: unknown): ParseResult<I>;
  /**
   * What this call is, in the tool's own words: the one place a call's summary and paths come from. The loop asks
   * once, when it reads the model's tool_use (loop/call-records.ts); permissions, hooks and every host read that.
   */
  describe(input: I): CallDescription;
  /**
   * A refusal the tool can tell before it runs (write_file's read-before-write guard): checked after the PreToolUse
   * hooks and before the permission question, so nobody is asked about a call that would be refused anyway.
   */
  precheck?(input: I, ctx: ToolContext): Promise<string | undefined>;
  execute(input: I, ctx: ToolContext): Promise<ToolResult>;
}

/** Erases the input type so differently-typed tools share one registry. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- variance: a registry holds tools of many input types
export type AnyTool = Tool<any>;

/** One registry per agent: the child gets a filtered copy (no `task` past max depth). */
export class ToolRegistry {
  private readonly byName = new Map<string, AnyTool>();
  /** The names the last schemas() offered (a fork offers what its parent's last request did: same bytes, same cache). */
  private lastOffered: ReadonlySet<string> | undefined;

  constructor(tools: Iterable<AnyTool> = []) {
    for (const tool of tools) this.add(tool);
  }

  add(tool: AnyTool): this {
    if (this.byName.has(tool.name)) throw new Error(`duplicate tool: ${tool.name}`);
    this.byName.set(tool.name, tool);
    return this;
  }

  get(name: string): AnyTool | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  /** What a request offers: every tool but those not offered yet (Tool.offered). */
  schemas(): ToolSchema[] {
    const offered = [...this.byName.values()].filter((t) => t.offered?.() !== false);
    this.lastOffered = new Set(offered.map((t) => t.name));
    return offered.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
  }

  /** Whether the last request offered `name` (before any request: whether one would now). */
  wasOffered(name: string): boolean {
    return this.lastOffered ? this.lastOffered.has(name) : this.byName.get(name)?.offered?.() !== false;
  }

  /** A new registry with the tools whose names pass `keep`. */
  filter(keep: (name: string) => boolean): ToolRegistry {
    return new ToolRegistry([...this.byName.values()].filter((t) => keep(t.name)));
  }

  /** A new registry with the same tools plus `extra`. */
  with(...extra: AnyTool[]): ToolRegistry {
    return new ToolRegistry([...this.byName.values(), ...extra]);
  }
}

export interface FileInfo {
  type: 'file' | 'directory' | 'fifo' | 'socket' | 'character device' | 'block device' | 'other';
  size: number;
  /** Permission bits (st_mode & 0o7777). */
  mode: number;
}

/** File access port; paths are absolute and already confined by the caller. */
export interface FileOps {
  /**
   * Reads a regular file. Never blocks on a FIFO or a device: anything that is not a regular file is
   * refused with NotRegularFileError before a byte is read. Aborts (ABORT_ERR) when `signal` fires.
   */
  readFile(absPath: string, signal?: AbortSignal): Promise<Buffer>;
  /** What is at the path (symlinks followed), or undefined when nothing is; never opens it. */
  stat(absPath: string): Promise<FileInfo | undefined>;
  /** Atomic: write to a temp file beside the target, then rename. Creates parent folders; keeps the mode. */
  writeFileAtomic(absPath: string, content: string | Uint8Array): Promise<void>;
  exists(absPath: string): Promise<boolean>;
}
