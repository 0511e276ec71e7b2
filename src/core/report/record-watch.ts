/**
 * What a subagent did, as the harness saw it: its tool calls and those of its descendants, each with its input,
 * whether it failed and its output (bash's ends with `[exit code N]`), taken from the run's events while the
 * child runs. report-check.ts holds the child's report to it.
 *
 *   bus ─ agent_started (whose child?) ─ tool_call patches (one record a call: name, input; its end) ─▶ calls
 */
import { patchToolCall, type EventBus, type ToolCallRecord } from '../events';
import type { RecordedCall } from './report-check';

export interface RecordWatch {
  /** Stops watching; the calls finished so far, in finishing order. */
  stop(): RecordedCall[];
}

export function watchChildRecord(bus: EventBus, agentId: string): RecordWatch {
  const subtree = new Set([agentId]);
  const open = new Map<string, ToolCallRecord>();
  const calls: RecordedCall[] = [];
  const unsubscribe = bus.subscribe((e) => {
    if (e.type === 'agent_started' && e.parentId !== null && subtree.has(e.parentId)) subtree.add(e.agentId);
    if (!subtree.has(e.agentId) || e.type !== 'tool_call') return;
    const key = `${e.agentId}\n${e.id}`;
    const record = patchToolCall(open.get(key), e.agentId, e);
    if (e.state !== 'completed' && e.state !== 'error') {
      open.set(key, record);
      return;
    }
    open.delete(key);
    // What ran: the input as a PreToolUse hook left it.
    calls.push({ name: record.name, input: record.input ?? null, isError: e.state === 'error', output: e.output });
  });
  return {
    stop: () => {
      unsubscribe();
      return calls;
    },
  };
}
