/**
 * The CLI's three output formats, all built from the core's event stream and run result:
 *   text         the final answer on stdout (progress on stderr with --verbose)
 *   json         one result object as the last stdout line
 *   stream-json  one event per line, then that result object
 */
import type { AgentResult } from '../core/agent/types';
import type { DelegateEvent, Usage } from '../core/events';
import type { OutputFormat } from './args';

export interface ResultObject {
  type: 'result';
  status: AgentResult['status'];
  result: string;
  num_turns: number;
  usage: Usage;
  duration_ms: number;
  session_id: string;
  transcript: string;
  subagents: { id: string; description: string; status: string; num_turns: number; tool_calls: number; usage: Usage; result: string }[];
  error?: string;
}

export function resultObject(result: AgentResult, sessionId: string, transcript: string): ResultObject {
  return {
    type: 'result',
    status: result.status,
    result: result.result,
    num_turns: result.turns,
    usage: result.usage,
    duration_ms: result.durationMs,
    session_id: sessionId,
    transcript,
    subagents: result.subagents.map((s) => ({
      id: s.id,
      description: s.description,
      status: s.status,
      num_turns: s.num_turns,
      tool_calls: s.tool_calls,
      usage: s.usage,
      result: s.result,
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
  if (format === 'stream-json') return (event) => out.stdout(JSON.stringify(event) + '\n');
  if (!verbose) return () => {};
  return (event) => {
    const indent = event.parentId === null ? '' : '  '.repeat(depthOf(event));
    switch (event.type) {
      case 'agent_started':
        if (event.parentId !== null) out.stderr(`${indent}▸ task ${event.description ?? ''} [${event.agentId}]\n`);
        break;
      case 'tool_started':
        out.stderr(`${indent}  ${event.name} ${brief(event.input)}\n`);
        break;
      case 'tool_finished':
        if (event.isError) out.stderr(`${indent}    ✗ ${event.output.split('\n')[0]?.slice(0, 160) ?? ''}\n`);
        break;
      case 'agent_finished':
        if (event.parentId !== null) out.stderr(`${indent}◂ ${event.status} in ${event.turns} turns, ${event.toolCalls} tool calls\n`);
        break;
      case 'error':
        out.stderr(`${indent}! ${event.message}\n`);
        break;
      default:
        break;
    }
  };
}

const depths = new Map<string, number>();
function depthOf(event: DelegateEvent): number {
  if (event.type === 'agent_started') depths.set(event.agentId, event.depth);
  return depths.get(event.agentId) ?? 1;
}

function brief(input: unknown): string {
  const text = JSON.stringify(input) ?? '';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
