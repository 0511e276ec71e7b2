/**
 * What the runs the user has not settled yet changed, for the "N files changed" bar:
 *
 *   the conversation, cut into runs at each prompt
 *        ─▶ from the last run back, each run's tool rows with a `change` (any depth, through task children),
 *           stopping at a run whose files were all kept or reverted (the user settled it; earlier ones too)
 *        ─▶ per file, in run order: first `before`, last `after`, lines added/removed, who changed it;
 *           a file the user kept in a run starts again at its next change
 *        ─▶ the top-level subagents behind the files shown, which a revert can still put back
 *
 * So a run that changed nothing (a Retry that failed again, a question) does not drop the bar of the run
 * before it: the bar stays until the user chose Keep or Revert. Keep is remembered per file and run
 * (`keptKey`): a later change of a kept file shows it again.
 *
 * Only what Delegate's own file tools wrote counts (a command's effects are not known file by file). The
 * main agent's own writes are counted but cannot be reverted (revert-plan.ts reverts a subagent's subtree).
 */
import type { SessionViewState, TaskChangeFile, TaskNode, ToolCallNode } from './types';

export interface RunFile {
  path: string;
  /** Content before the first change shown (absent: it did not exist) and after the last (absent: deleted). */
  before?: string;
  after?: string;
  added: number;
  removed: number;
  /** What Keep remembers: the run that changed it last, and its path. */
  key: string;
  /** The top-level subagents that changed it, in the order of their first change (Undo reverts them, last first). */
  agents: string[];
  /** The main agent changed it itself: no revert puts it back. */
  byMain: boolean;
}

export interface RunChanges {
  /** The id of the last run's prompt item; '' before any prompt. */
  runId: string;
  files: RunFile[];
  /** Top-level subagents behind the files shown whose changes can still be reverted, in call order. */
  revertible: { agentId: string; description: string; files: number }[];
  /** Files shown that the main agent changed itself (no revert for these). */
  byMainAgent: number;
  /** Some file of these runs was kept on its own: a revert must name the files it puts back. */
  partial: boolean;
  /** How many runs the files shown come from (1: the last run's). */
  runs: number;
}

/** The key Keep remembers a file by: the run (its prompt's id and time: ids restart in each session) and the path. */
function keptKey(runKey: string, path: string): string {
  return `${runKey}\n${path}`;
}

/** One run's changes, before the runs are put together. */
interface RunPart {
  key: string;
  /** Per path, in first-change order. */
  files: Map<string, Omit<RunFile, 'key'>>;
  /** Paths a revert put back (the bar no longer counts them, unless the main agent changed them too). */
  undone: Set<string>;
  descriptions: Map<string, string>;
}

export function runChanges(state: SessionViewState, kept: ReadonlySet<string> = new Set()): RunChanges {
  const runs = splitRuns(state);
  const parts: RunPart[] = [];
  let partial = false;
  for (let r = runs.length - 1; r >= 0; r--) {
    const part = gather(state, runs[r] as { key: string; ids: readonly string[] });
    const open = [...part.files.values()].filter((f) => !part.undone.has(f.path) || f.byMain);
    const settled = part.files.size > 0 && open.every((f) => kept.has(keptKey(part.key, f.path)));
    if (settled) break;
    if (open.some((f) => kept.has(keptKey(part.key, f.path)))) partial = true;
    parts.unshift(part);
  }
  const merged = new Map<string, RunFile>();
  const descriptions = new Map<string, string>();
  for (const part of parts) {
    for (const [agentId, description] of part.descriptions) descriptions.set(agentId, description);
    for (const f of part.files.values()) {
      if (kept.has(keptKey(part.key, f.path)) || (part.undone.has(f.path) && !f.byMain)) {
        merged.delete(f.path);
        continue;
      }
      const had = merged.get(f.path);
      if (!had) {
        merged.set(f.path, { ...f, agents: [...f.agents], key: keptKey(part.key, f.path) });
        continue;
      }
      had.key = keptKey(part.key, f.path);
      if (f.after) had.after = f.after;
      else delete had.after;
      had.added += f.added;
      had.removed += f.removed;
      for (const a of f.agents) if (!had.agents.includes(a)) had.agents.push(a);
      had.byMain ||= f.byMain;
    }
  }
  // Created and deleted again: nothing to show.
  const files = [...merged.values()].filter((f) => f.before !== undefined || f.after !== undefined);
  const counts = new Map<string, number>();
  for (const f of files) for (const a of f.agents) counts.set(a, (counts.get(a) ?? 0) + 1);
  const revertible = [...counts].map(([agentId, n]) => ({ agentId, description: descriptions.get(agentId) ?? agentId, files: n }));
  const last = runs[runs.length - 1];
  const shown = new Set(files.map((f) => f.path));
  const from = parts.filter((p) => [...p.files.keys()].some((path) => shown.has(path) && !kept.has(keptKey(p.key, path)))).length;
  return { runId: last?.id ?? '', files, revertible, byMainAgent: files.filter((f) => f.byMain).length, partial, runs: from };
}

/** The conversation's runs: each prompt and the items after it ('' for items before any prompt). */
function splitRuns(state: SessionViewState): { id: string; key: string; ids: readonly string[] }[] {
  const runs: { id: string; key: string; ids: string[] }[] = [];
  let current: { id: string; key: string; ids: string[] } = { id: '', key: '', ids: [] };
  for (const id of state.items) {
    const node = state.nodes[id];
    if (node?.kind === 'user') {
      if (current.ids.length || current.id) runs.push(current);
      current = { id, key: `${id}@${node.time}`, ids: [] };
    } else current.ids.push(id);
  }
  if (current.ids.length || current.id) runs.push(current);
  return runs;
}

function gather(state: SessionViewState, run: { key: string; ids: readonly string[] }): RunPart {
  const part: RunPart = { key: run.key, files: new Map(), undone: new Set(), descriptions: new Map() };
  const visit = (id: string, topTask: TaskNode | null): void => {
    const node = state.nodes[id];
    if (node?.kind === 'tool' && node.change) note(part.files, node, topTask);
    else if (node?.kind === 'task') for (const child of node.children) visit(child, topTask ?? node);
  };
  for (const id of run.ids) {
    visit(id, null);
    const node = state.nodes[id];
    if (node?.kind === 'task' && node.agentId !== null && node.status !== 'running') {
      part.descriptions.set(node.agentId, node.description);
      // Refused and skipped (shared) files are still open: a later revert may put them back.
      const undone = (f: TaskChangeFile): boolean => f.revert !== undefined && f.revert.outcome !== 'refused' && f.revert.outcome !== 'skipped';
      for (const f of node.changes?.files ?? []) if (undone(f)) part.undone.add(f.path);
    }
  }
  // A file is revertible through the subagents that changed it only once they have finished.
  for (const f of part.files.values()) f.agents = f.agents.filter((a) => part.descriptions.has(a));
  return part;
}

function note(files: Map<string, Omit<RunFile, 'key'>>, tool: ToolCallNode, topTask: TaskNode | null): void {
  const change = tool.change;
  if (!change) return;
  const by = topTask?.agentId ?? null;
  const file = files.get(change.path);
  if (!file) {
    files.set(change.path, {
      path: change.path,
      ...(change.before ? { before: change.before } : {}),
      ...(change.after ? { after: change.after } : {}),
      added: change.added ?? 0,
      removed: change.removed ?? 0,
      agents: by ? [by] : [],
      byMain: topTask === null,
    });
    return;
  }
  if (change.after) file.after = change.after;
  else delete file.after;
  file.added += change.added ?? 0;
  file.removed += change.removed ?? 0;
  if (by && !file.agents.includes(by)) file.agents.push(by);
  if (topTask === null) file.byMain = true;
}

/** What a file's change is, for its icon and the multi-file diff: created, deleted or modified. */
export function runFileAction(file: Pick<RunFile, 'before' | 'after'>): 'created' | 'deleted' | 'modified' {
  return file.before === undefined ? 'created' : file.after === undefined ? 'deleted' : 'modified';
}
