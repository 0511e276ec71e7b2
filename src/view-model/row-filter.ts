/**
 * The panel's find/filter box: which calls and tasks of the whole session match what the user typed.
 *
 *   tool:grep  path:src/  status:error  console.log      (terms AND-ed; a bare word matches any text)
 *
 * `tool:` a call's tool name (a task matches `tool:task`), `path:` a path the call names, `status:` ok, error,
 * running, denied, stopped, failed, completed… (a task's status word too), bare words: the call's summary,
 * input and output, a task's description, prompt and result. Case-insensitive. Pure.
 */
import { TASK_STATUS_LABEL } from './format';
import type { SessionViewState, TaskNode, ToolCallNode, ViewNode } from './types';

export interface RowFilter {
  tool: string[];
  path: string[];
  status: string[];
  text: string[];
}

export function parseFilter(input: string): RowFilter | null {
  const filter: RowFilter = { tool: [], path: [], status: [], text: [] };
  for (const term of input.trim().toLowerCase().split(/\s+/)) {
    if (term === '') continue;
    const m = /^(tool|path|status):(.+)$/.exec(term);
    if (m) filter[m[1] as 'tool' | 'path' | 'status'].push(m[2] as string);
    else filter.text.push(term);
  }
  return filter.tool.length + filter.path.length + filter.status.length + filter.text.length === 0 ? null : filter;
}

const has = (hay: string | undefined, needle: string): boolean => hay !== undefined && hay.toLowerCase().includes(needle);

function toolStatusWords(n: ToolCallNode): string[] {
  const words: string[] = [n.status];
  if (n.status === 'cancelled') words.push('stopped');
  if (n.status === 'pending') words.push('waiting');
  if (n.status === 'error') words.push('failed');
  if (n.permission === 'denied') words.push('denied');
  if (n.permission === 'asked') words.push('approval');
  return words;
}

function taskStatusWords(n: TaskNode): string[] {
  return [n.status, TASK_STATUS_LABEL[n.status].toLowerCase(), ...(n.status === 'error' ? ['error'] : [])];
}

/** Whether one node (a call, a task, a thinking row) matches every term of the filter by itself. */
export function nodeMatches(node: ViewNode, f: RowFilter): boolean {
  if (node.kind === 'tool') {
    return (
      f.tool.every((t) => has(node.name, t)) &&
      f.path.every((p) => node.paths.some((x) => has(x, p)) || has(node.change?.path, p)) &&
      f.status.every((s) => toolStatusWords(node).some((w) => w.startsWith(s))) &&
      f.text.every((t) => has(node.summary, t) || has(node.inputJson, t) || has(node.output, t) || has(node.name, t))
    );
  }
  if (node.kind === 'task') {
    return (
      f.tool.every((t) => 'task'.includes(t)) &&
      f.path.every((p) => node.changes?.files.some((x) => has(x.path, p)) ?? false) &&
      f.status.every((s) => taskStatusWords(node).some((w) => w.startsWith(s))) &&
      f.text.every((t) => has(node.description, t) || has(node.prompt, t) || has(node.result, t) || has(node.error, t))
    );
  }
  if (node.kind === 'thinking') return f.tool.length + f.path.length + f.status.length === 0 && f.text.every((t) => has(node.text, t));
  return false;
}

/** A call or task that went wrong: "next error" stops at these. */
export function isErrorNode(node: ViewNode | undefined): boolean {
  if (node?.kind === 'tool') return node.status === 'error' || node.permission === 'denied';
  if (node?.kind === 'task') return node.status === 'error';
  return false;
}

/** The ids of every call and task of the session in the order the panel shows them (depth first). */
export function nodesInOrder(state: SessionViewState): string[] {
  const out: string[] = [];
  const walk = (ids: readonly string[], depth: number): void => {
    for (const id of ids) {
      const node = state.nodes[id];
      if (node?.kind === 'tool' || node?.kind === 'thinking') out.push(id);
      else if (node?.kind === 'task') {
        out.push(id);
        if (depth < 64) walk(node.children, depth + 1);
      }
    }
  };
  walk(state.items, 0);
  return out;
}
