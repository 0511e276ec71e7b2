/**
 * What the last run (everything since the user's last prompt) changed, for the "N files changed" bar:
 *
 *   items after the last prompt ─▶ tool rows with a `change` (any depth, through task children)
 *                                ─▶ per file: first `before`, last `after`, lines added/removed, who changed it
 *                                ─▶ the run's top-level subagents with files a revert can still put back
 *
 * Only what Delegate's own file tools wrote counts (a command's effects are not known file by file). The
 * main agent's own writes are counted but cannot be reverted (revert-plan.ts reverts a subagent's subtree).
 */
import type { SessionViewState, TaskChangeFile, TaskNode, ToolCallNode } from './types';

export interface RunFile {
  path: string;
  /** Content before the run's first change of it (absent: it did not exist) and after its last. */
  before?: string;
  after?: string;
  added: number;
  removed: number;
}

export interface RunChanges {
  /** The id of the run's prompt item (the bar's Keep is remembered against it); '' before any prompt. */
  runId: string;
  files: RunFile[];
  /** Top-level subagents of the run whose changes can still be reverted, in call order. */
  revertible: { agentId: string; description: string; files: number }[];
  /** Files the main agent changed itself (no revert for these). */
  byMainAgent: number;
}

export function runChanges(state: SessionViewState): RunChanges {
  let start = state.items.length;
  while (start > 0 && state.nodes[state.items[start - 1] ?? '']?.kind !== 'user') start--;
  const runId = start > 0 ? (state.items[start - 1] ?? '') : '';
  const byPath = new Map<string, RunFile>();
  const mainPaths = new Set<string>();
  const revertible: RunChanges['revertible'] = [];
  /** Files a revert put back (the bar no longer counts them, unless the main agent changed them too). */
  const undone = new Set<string>();
  const visit = (id: string, topTask: TaskNode | null): void => {
    const node = state.nodes[id];
    if (node?.kind === 'tool' && node.change) {
      note(byPath, node);
      if (topTask === null) mainPaths.add(node.change.path);
    } else if (node?.kind === 'task') {
      for (const child of node.children) visit(child, topTask ?? node);
    }
  };
  for (const id of state.items.slice(start)) {
    visit(id, null);
    const node = state.nodes[id];
    if (node?.kind === 'task' && node.agentId !== null && node.status !== 'running') {
      // Refused and skipped (shared) files are still the run's: a later revert may put them back.
      const stillThere = (f: TaskChangeFile): boolean => !f.revert || f.revert.outcome === 'refused' || f.revert.outcome === 'skipped';
      const open = node.changes?.files.filter(stillThere).length ?? 0;
      if (open > 0) revertible.push({ agentId: node.agentId, description: node.description, files: open });
      for (const f of node.changes?.files ?? []) if (!stillThere(f)) undone.add(f.path);
    }
  }
  const files = [...byPath.values()].filter((f) => !undone.has(f.path) || mainPaths.has(f.path));
  return { runId, files, revertible, byMainAgent: mainPaths.size };
}

function note(byPath: Map<string, RunFile>, tool: ToolCallNode): void {
  const change = tool.change;
  if (!change) return;
  const file = byPath.get(change.path);
  if (!file) {
    byPath.set(change.path, {
      path: change.path,
      ...(change.before ? { before: change.before } : {}),
      ...(change.after ? { after: change.after } : {}),
      added: change.added ?? 0,
      removed: change.removed ?? 0,
    });
    return;
  }
  if (change.after) file.after = change.after;
  else delete file.after;
  file.added += change.added ?? 0;
  file.removed += change.removed ?? 0;
}
