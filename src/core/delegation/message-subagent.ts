/**
 * The user talking to a subagent directly (the panel's *Send a message…*, the CLI's `--resume S --agent ID`):
 *
 *   running  ─▶ its inbox: it reads the message at its next turn ('queued')
 *   finished ─▶ resume (subagent-directory.ts, child-runs.ts): its whole history + the message, the same tree node, a new segment
 *
 * The user may resume a child the user stopped: asking is the explicit request.
 */
import { toToolResult } from './task-tool';
import type { AgentResult, RunPorts } from '../loop/types';

export async function messageSubagent(ports: Pick<RunPorts, 'children' | 'agents' | 'config'>, ref: string, message: string, signal: AbortSignal): Promise<AgentResult | 'queued'> {
  const directory = ports.children;
  const entry = directory?.find(ref);
  if (!directory || !entry) throw new Error(`no subagent "${ref}" in this session`);
  if (message.trim() === '') throw new Error('the message is empty');
  if (entry.status === 'running') {
    if (ports.agents.post(entry.id, `[A message from the user while you work:]\n${message}`)) return 'queued';
    throw new Error(`the subagent ${entry.id} is ending: send the message again once it has finished`);
  }
  const { child } = await directory.resume({ id: entry.id, message, by: 'user', toToolResult: (c, stopped) => toToolResult(c, ports.config.limits.subagentMaxTurns, stopped) }, signal);
  return child;
}
