/**
 * What a folded running task is doing now, for its row: its newest call ("grep console\.log in src") and
 * its nested subagents ("2 subagents, 1 running"). Pure; walks the task's children only (a few per level).
 */
import type { SessionViewState, TaskNode } from './types';

export interface TaskNow {
  /** The newest call of the task or of its newest running nested task: "name summary". */
  now?: string;
  /** "2 subagents, 1 running" ('' when it has none). */
  nested: string;
}

export function taskNow(state: SessionViewState, task: TaskNode): TaskNow {
  let total = 0;
  let running = 0;
  const walk = (t: TaskNode, depth: number): void => {
    if (depth > 32) return;
    for (const id of t.children) {
      const child = state.nodes[id];
      if (child?.kind !== 'task') continue;
      total += 1;
      if (child.status === 'running') running += 1;
      walk(child, depth + 1);
    }
  };
  walk(task, 0);
  const nested = total === 0 ? '' : `${total} subagent${total === 1 ? '' : 's'}${running > 0 ? `, ${running} running` : ''}`;
  return { now: newestCall(state, task, 0), nested };
}

/** The newest child: a call in flight or done ("grep console\.log in src"), or what its running nested task does. */
function newestCall(state: SessionViewState, task: TaskNode, depth: number): string | undefined {
  for (let i = task.children.length - 1; i >= 0 && depth < 32; i--) {
    const child = state.nodes[task.children[i] as string];
    // A call the reply holds but that has not started yet is not what the task does now.
    if (child?.kind === 'tool' && child.status === 'pending') continue;
    if (child?.kind === 'tool') return `${child.name} ${child.summary}`.trim();
    if (child?.kind === 'task') return child.status === 'running' ? newestCall(state, child, depth + 1) ?? `task ${child.description}` : `task ${child.description}`;
  }
  return undefined;
}
