/**
 * The CLI's three output formats, all built from the core's event stream and run result:
 *   text         the final answer on stdout (progress on stderr with --verbose)
 *   json         one result object as the last stdout line
 *   stream-json  one event per line (stream-json-line.ts), then that result object
 */
import type { DelegateEvent } from '../core/events';
import { oneLine } from '../view-model/summarize';
import type { OutputFormat } from './args';
import { streamJsonLine } from './stream-json-line';
import type { Usage } from '../core/vocabulary';
import { type AgentResult, formatManifest, type SandboxStatus } from '../core/session';

export interface ResultObject {
  type: 'result';
  status: AgentResult['status'];
  result: string;
  num_turns: number;
  usage: Usage;
  /** Dollars the run cost (Claude prices built in; absent for a model without a price). */
  total_cost_usd?: number;
  duration_ms: number;
  session_id: string;
  transcript: string;
  /** What confined the run's bash commands. */
  sandbox: 'bubblewrap' | 'none';
  /** A typed run's value (`--output-schema`), validated against the schema. */
  structured_output?: unknown;
  subagents: {
    id: string;
    /** The agent that ran it: the main agent's id (not itself in the list) or another subagent's. */
    parent_id: string | null;
    description: string;
    agent_type: string;
    model: string;
    status: string;
    num_turns: number;
    tool_calls: number;
    usage: Usage;
    cost_usd?: number;
    result: string;
    /** A typed return's value (task's output_schema, an agent file's output:), validated, its strings defanged. */
    output?: unknown;
    /** Resumed by send_message or --agent: how many runs its figures add up. */
    segments?: number;
    /** What it and its descendants changed (files) and ran (commands). */
    changes?: {
      /**
       * `by`: the bash commands / MCP calls that made a change (several: calls overlapped, none or several named the
       * file, any could have); `shared`: some of them are another subagent's (`delegate revert` skips it unless
       * --include-shared); `lost`: why it cannot be reverted.
       */
      files: { path: string; action: string; added: number; removed: number; by?: { tool: string; command: string; agent_id: string }[]; overlapping?: true; shared?: true; lost?: string }[];
      commands: { command: string; exit_code: number | null }[];
    };
    /** A fork: it started from its parent's conversation (task{fork: true}). */
    fork?: true;
    /** Claims of its report that its record does not support (the `[unverified]` lines its parent read). */
    unverified?: { claim: string; reason: string }[];
  }[];
  error?: string;
}

export function resultObject(result: AgentResult, sessionId: string, transcript: string, sandbox: SandboxStatus): ResultObject {
  return {
    type: 'result',
    status: result.status,
    result: result.result,
    ...(result.output !== undefined ? { structured_output: result.output } : {}),
    num_turns: result.turns,
    usage: result.usage,
    ...(result.costUsd !== undefined ? { total_cost_usd: Number(result.costUsd.toFixed(6)) } : {}),
    duration_ms: result.durationMs,
    session_id: sessionId,
    transcript,
    sandbox: sandbox.kind === 'bubblewrap' ? 'bubblewrap' : 'none',
    subagents: result.subagents.map((s) => ({
      id: s.id,
      parent_id: s.parentId,
      description: s.description,
      agent_type: s.agent_type,
      ...(s.fork ? { fork: true as const } : {}),
      ...(s.segments ? { segments: s.segments } : {}),
      model: s.model,
      ...(s.cost_usd !== undefined ? { cost_usd: Number(s.cost_usd.toFixed(6)) } : {}),
      status: s.status,
      num_turns: s.num_turns,
      tool_calls: s.tool_calls,
      usage: s.usage,
      result: s.result,
      ...(s.output !== undefined ? { output: s.output } : {}),
      ...(s.changes
        ? {
            changes: {
              files: s.changes.files.map(({ path, action, added, removed, by, sharedWith, lost }) => ({
                path,
                action,
                added,
                removed,
                ...(by ? { by: by.map((c) => ({ tool: c.tool, command: c.command, agent_id: c.agentId })) } : {}),
                ...(by && by.length > 1 ? { overlapping: true as const } : {}),
                ...(sharedWith?.length ? { shared: true as const } : {}),
                ...(lost ? { lost } : {}),
              })),
              commands: s.changes.commands,
            },
          }
        : {}),
      ...(s.unverified ? { unverified: s.unverified.map(({ claim, reason }) => ({ claim, reason })) } : {}),
    })),
    ...(result.error ? { error: result.error } : {}),
  };
}

export interface Writers {
  stdout(text: string): Promise<void>;
  stderr(text: string): void;
}

/** Returns the bus listener for the chosen format. */
export function eventPrinter(format: OutputFormat, verbose: boolean, out: Writers): (event: DelegateEvent) => Promise<void> | void {
  // Setup problems (an agent file, a hook, an MCP config) are one stderr line each, whatever the format.
  // So is each wait before a retry the API asked for (429, 529…): a run never sits silent through it.
  const notice = (event: DelegateEvent): void => {
    if (event.type === 'notice' && (event.level !== 'info' || verbose)) out.stderr(`delegate: ${event.level}: ${event.source ? `${event.source}: ` : ''}${event.text}\n`);
    if (event.type === 'waiting' && event.retry) out.stderr(`delegate: ${retryLine(event.retry, event.attempt)}${event.parentId === null ? '' : ` (subagent ${event.agentId})`}\n`);
  };
  if (format === 'stream-json') {
    return (event) => {
      notice(event);
      // A command's output travels once: in its tool_finished line (the live pieces are for ACP's cards).
      if (event.type === 'tool_output') return;
      return out.stdout(streamJsonLine(event));
    };
  }
  if (!verbose) return notice;
  // Parallel subagents interleave: every line names the agent it belongs to.
  const labels = new Map<string, string>();
  const label = (agentId: string): string => labels.get(agentId) ?? agentId;
  return (event) => {
    const who = event.parentId === null ? '' : `[${label(event.agentId)}] `;
    switch (event.type) {
      case 'agent_started':
        if (event.parentId !== null) {
          labels.set(event.agentId, event.description ?? event.agentId);
          if (event.segment) out.stderr(`[${label(event.agentId)}] resumed by ${event.resumedBy === 'user' ? 'the user' : 'its parent'} (subagent ${event.agentId}, segment ${event.segment})\n`);
          else out.stderr(`[${label(event.agentId)}] started (${event.forkedFrom ? 'fork' : 'subagent'} ${event.agentId}${event.name ? ` "${event.name}"` : ''}, depth ${event.depth})\n`);
        }
        break;
      case 'tool_call':
        // A call's line when the model asks for it: its record's summary, as its tool said it.
        if (event.state === 'pending') out.stderr(`${who}${event.name} ${event.summary}\n`);
        else if (event.state === 'error') out.stderr(`${who}  ✗ ${oneLine(event.output, 160)}\n`);
        break;
      case 'agent_finished':
        if (event.parentId !== null) {
          const u = event.usage;
          const input = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
          // The cache hit share: cache reads ÷ all input (uncached, read and written).
          const cached = input > 0 ? ` (${Math.round((u.cache_read_input_tokens / input) * 100)}% cached)` : '';
          out.stderr(`${who}${event.status} · ${event.turns} turns · ${event.toolCalls} tool calls · ${input + u.output_tokens} tokens${cached} · ${(event.durationMs / 1000).toFixed(1)}s\n`);
        }
        break;
      case 'error':
        out.stderr(`${who}! ${event.message}\n`);
        break;
      case 'thinking':
        out.stderr(`${who}thinking${event.text ? `: ${oneLine(event.text, 160)}` : event.redacted ? ' (redacted)' : ''}\n`);
        break;
      case 'hook':
        out.stderr(`${who}hook ${event.hookEvent} ${event.outcome}${event.command ? ` (${oneLine(event.command, 80)})` : ''}: ${oneLine(event.message, 300)}\n`);
        break;
      case 'instructions_loaded':
        out.stderr(`instructions: ${event.files.join(', ')} (${event.chars.toLocaleString('en-US')} characters${event.cut ? ', cut' : ''})${event.skipped?.length ? `; not taken: ${event.skipped.join('; ')}` : ''}\n`);
        break;
      case 'notice':
        notice(event);
        break;
      case 'waiting':
        if (event.retry) notice(event);
        else out.stderr(`${who}… no answer from the API yet: ${Math.round(event.waitedMs / 1000)} s (attempt ${event.attempt})\n`);
        break;
      case 'change_manifest':
        out.stderr(`${who}${formatManifest(event)}\n`);
        break;
      case 'report_checked':
        for (const u of event.unverified) out.stderr(`${who}[unverified] "${oneLine(u.claim, 160)}": ${u.reason}\n`);
        if (event.defanged.length) out.stderr(`${who}[harness] instruction-shaped text defanged in the report: ${event.defanged.join(', ')}\n`);
        break;
      case 'compacted':
        out.stderr(`${who}compacted (${event.trigger}): ${event.tokensBefore.toLocaleString('en-US')} → ${event.tokensAfter.toLocaleString('en-US')} tokens\n`);
        break;
      default:
        break;
    }
  };
}

/** A wait before a retry, in one line: `the API asked to wait 30 s (rate limited, 429): attempt 2 then`. */
function retryLine(retry: { status: number; reason: string; waitMs: number; asked: boolean }, attempt: number): string {
  const wait = `${Math.ceil(retry.waitMs / 1000)} s`;
  const why = `${retry.reason}, ${retry.status}`;
  return retry.asked ? `the API asked to wait ${wait} (${why}): attempt ${attempt + 1} then` : `the API refused the request (${why}): attempt ${attempt + 1} in ${wait}`;
}
