/**
 * What a subagent did, as the harness saw it: its tool calls and those of its descendants, each with its input,
 * whether it failed and its output (bash's ends with `[exit code N]`), taken from the run's events while the
 * child runs. report-check.ts holds the child's report to it.
 *
 *   bus ─ agent_started (whose child?) ─ tool_started (name, input) ─ tool_finished (isError, output) ─▶ calls
 */
import type { EventBus } from '../events';
import type { RecordedCall } from './report-check';

export interface RecordWatch {
  /** Stops watching; the calls finished so far, in finishing order. */
  stop(): RecordedCall[];
}

export function watchChildRecord(bus: EventBus, agentId: string): RecordWatch {
  const subtree = new Set([agentId]);
  const started = new Map<string, { name: string; input: unknown }>();
  const calls: RecordedCall[] = [];
  const unsubscribe = bus.subscribe((e) => {
    if (e.type === 'agent_started' && e.parentId !== null && subtree.has(e.parentId)) subtree.add(e.agentId);
    if (!subtree.has(e.agentId)) return;
    if (e.type === 'tool_started') started.set(`${e.agentId}\n${e.toolUseId}`, { name: e.name, input: e.input });
    else if (e.type === 'tool_finished') {
      const key = `${e.agentId}\n${e.toolUseId}`;
      const call = started.get(key);
      started.delete(key);
      calls.push({ name: call?.name ?? e.name, input: call?.input ?? null, isError: e.isError, output: e.output });
    }
  });
  return {
    stop: () => {
      unsubscribe();
      return calls;
    },
  };
}
