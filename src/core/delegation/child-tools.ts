/**
 * What the loop adds for addressable children (child-port.ts), kept out of loop.ts:
 *
 *   an agent that may delegate ─▶ send_message + read_subagent (beside task and task_output), when the session
 *                                 has a SubagentDirectory
 *   a running agent's inbox    ─▶ one user message before its next request (steering)
 *   a child resumed            ─▶ its summary merged into the one its first run left (subagents[] has it once)
 */
import type { MessageParam } from '../llm/types';
import type { AnyTool } from '../tools/types';
import type { RunningAgent } from '../loop/agent-registry';
import { createReadSubagentTool } from './read-subagent-tool';
import { createSendMessageTool, type SendMessageOptions } from './send-message-tool';
import type { RunPorts, SubagentSummary } from '../loop/types';
import { addUsage } from '../vocabulary';

export function delegationTools(ports: Pick<RunPorts, 'children' | 'agents'>, o: Omit<SendMessageOptions, 'directory' | 'post'>): AnyTool[] {
  const directory = ports.children;
  if (!directory) return [];
  return [createSendMessageTool({ ...o, directory, post: (id, text) => ports.agents.post(id, text) }), createReadSubagentTool(o.sender, directory)];
}

/** The messages sent to `live` since its last turn, as one user message (undefined when none). */
export function takeInbox(live: RunningAgent): MessageParam | undefined {
  const texts = live.inbox.splice(0);
  return texts.length ? { role: 'user', content: texts.map((text) => ({ type: 'text' as const, text })) } : undefined;
}

/** Adds `s` to `list`, or folds it into the entry of the same agent (a later segment: totals added, the rest the latest). */
export function mergeSummary(list: SubagentSummary[], s: SubagentSummary): void {
  const i = list.findIndex((e) => e.id === s.id);
  const prev = list[i];
  if (i < 0 || !prev) {
    list.push(s);
    return;
  }
  const usage = { ...prev.usage };
  addUsage(usage, s.usage);
  const cost = prev.cost_usd !== undefined || s.cost_usd !== undefined ? (prev.cost_usd ?? 0) + (s.cost_usd ?? 0) : undefined;
  list.splice(i, 1);
  list.push({
    ...s,
    description: prev.description,
    num_turns: prev.num_turns + s.num_turns,
    tool_calls: prev.tool_calls + s.tool_calls,
    duration_ms: prev.duration_ms + s.duration_ms,
    usage,
    ...(cost !== undefined ? { cost_usd: cost } : {}),
    segments: (prev.segments ?? 1) + 1,
  });
}
