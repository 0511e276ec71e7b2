/**
 * The panel's conversation as one flat list of rows carrying tree semantics (the way VS Code's own trees
 * are virtualized): the webview renders only the rows in view, and keyboard, ARIA and scrolling work on
 * this list. Pure: built from the view state and the open/closed state of each row, no DOM.
 *
 *   level 1   you: "Fix the build"                         block (user prompt, text, notice)
 *   level 1   ▾ Upgrade esbuild          (task)            parent: null
 *   level 2       ▸ Prompt                                 parent: task:tu-up
 *   level 2       ▾ bash  npm run build                    (tool)
 *   level 3           detail                               the input/output of the call
 *   level 2       ▸ Result
 *
 * A task's children: its Prompt row, its calls and nested tasks in call order, its Changes row once it
 * finished with a manifest (the files and commands under it), and its Result/Error row. flat-list.ts builds
 * the list (as segments); this file has the row's shape, the open-by-default rule and the filtered rows.
 */
import type { SessionViewState, TaskNode, ViewNode } from './types';

export type FlatKind =
  | 'user'
  | 'text'
  | 'notice'
  | 'compaction-block'
  | 'task'
  | 'tool'
  | 'thinking'
  | 'compaction'
  | 'prompt'
  | 'message'
  | 'outcome'
  | 'changes'
  | 'change-file'
  | 'change-command'
  | 'change-note'
  | 'fold'
  | 'detail';

export interface FlatRow {
  /** Unique and stable: the node id, or `prompt:<task>`, `outcome:<task>`, `changes:<task>`, `fold:<task>`, `detail:<row>`, `changes:<task>#<i>`. */
  key: string;
  kind: FlatKind;
  /** The view node the row shows (the task of a prompt/outcome/changes row). */
  nodeId: string;
  /** aria-level, 1 at the conversation's top. */
  level: number;
  /** The key of the parent row; null at the top. */
  parent: string | null;
  /** The parent row's index in the list (-1 at the top). */
  parentIndex: number;
  setSize: number;
  posInSet: number;
  expandable: boolean;
  expanded: boolean;
  /** For change-file / change-command rows: the index in the manifest's files / commands; for a fold row: how many children it folds. */
  index?: number;
}

/** Whether a row is open: the user's choice for `key`, else `byDefault`. */
export type IsOpen = (key: string, byDefault: boolean) => boolean;

/** A task is open while it runs, and stays open when it ended early (failed, stopped, at a limit). */
export function taskOpenByDefault(node: TaskNode): boolean {
  return node.status === 'running' || node.status === 'error' || node.status === 'cancelled' || node.status === 'max_turns' || node.status === 'budget_exceeded';
}

/** A task with this many children or more folds all but its last FOLD_KEEP into one "N earlier calls" row. */
const FOLD_AT = 40;
const FOLD_KEEP = 10;

/**
 * How many of a task's first children its "N earlier calls" row folds (0: none): a long subagent's finished calls,
 * as Copilot collapses a subagent's calls, so its newest ones and what follows stay in sight. A nested subagent
 * still running is never folded (nor anything after it). `breaks`: the positions of the children that are not
 * calls, thinking or compaction rows (flat-list.ts ContainerIndex), ascending.
 */
export function foldedCount(state: SessionViewState, task: TaskNode, breaks: readonly number[]): number {
  const n = task.children.length;
  if (n < FOLD_AT) return 0;
  let fold = n - FOLD_KEEP;
  for (const p of breaks) {
    if (p >= fold) break;
    const child = state.nodes[task.children[p] as string];
    if (child?.kind === 'task' && child.status === 'running') {
      fold = p;
      break;
    }
  }
  return fold >= FOLD_KEEP ? fold : 0;
}

/** The text of a task's Result/Error row ('' when it has none yet). */
export function outcomeText(task: TaskNode): string {
  return task.error ?? (task.status === 'running' ? '' : task.result ?? '');
}

/**
 * The rows that match a filter (row-filter.ts), with the tasks around them: a task shows when it or something
 * under it matches, open on its matches; blocks, prompt and result rows are left out. Positions count the
 * rows shown.
 */
export function filteredRows(state: SessionViewState, matches: (node: ViewNode) => boolean, isOpen: IsOpen): FlatRow[] {
  const out: FlatRow[] = [];
  const level = (ids: readonly string[], depth: number, parent: string | null): FlatRow[][] => {
    const groups: FlatRow[][] = [];
    for (const id of ids) {
      const node = state.nodes[id];
      if (!node || (node.kind !== 'tool' && node.kind !== 'task' && node.kind !== 'thinking')) continue;
      const base = { key: id, nodeId: id, level: depth, parent, parentIndex: -1, setSize: 0, posInSet: 0, expanded: false };
      if (node.kind === 'task') {
        const inner = depth < 64 ? level(node.children, depth + 1, id) : [];
        if (inner.length === 0 && !matches(node)) continue;
        const row: FlatRow = { ...base, kind: 'task', expandable: inner.length > 0, expanded: inner.length > 0 };
        groups.push([row, ...inner.flat()]);
      } else if (matches(node)) {
        const row: FlatRow = { ...base, kind: node.kind, expandable: node.kind === 'tool' || node.text.trim() !== '' };
        row.expanded = row.expandable && isOpen(row.key, false);
        const group = [row];
        if (row.expanded) group.push({ key: `detail:${id}`, kind: 'detail', nodeId: id, level: depth + 1, parent: id, parentIndex: -1, setSize: 1, posInSet: 1, expandable: false, expanded: false });
        groups.push(group);
      }
    }
    groups.forEach((group, i) => {
      const head = group[0] as FlatRow;
      head.setSize = groups.length;
      head.posInSet = i + 1;
    });
    return groups;
  };
  for (const group of level(state.items, 1, null)) out.push(...group);
  const at = new Map<string, number>();
  out.forEach((r, i) => {
    r.parentIndex = r.parent === null ? -1 : at.get(r.parent) ?? -1;
    at.set(r.key, i);
  });
  return out;
}
