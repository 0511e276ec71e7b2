/**
 * One view per kind of flat row (flat-rows.ts): builds the row's element when it comes into view and
 * updates it while it stays there. The virtual list (renderer.ts) drops a view when its row scrolls out,
 * except the main agent's text blocks, kept (`texts`) so streaming markdown re-renders incrementally.
 */
import type { FlatRow } from '../src/view-model/flat-rows';
import type { SessionViewState, TextNode } from '../src/view-model/session-view';
import { agentLabel } from '../src/view-model/changes';
import { changeCommandRow, changeFileRow, changeNoteRow, ChangesRow } from './changes-row';
import { compactionBlock, compactionRow } from './compaction-view';
import { el } from './dom';
import { noticeBlock, TextBlock, userBlock } from './message-view';
import { DetailRow, type DetailActions } from './row-detail';
import { TaskRow } from './task-row';
import { TASK_STATUS_LABEL } from '../src/view-model/format';
import { thinkingRow } from './thinking-row';
import { TextRow, ToolRow } from './tree-rows';
import { isFileChangeTool } from './icons';
import { outcomeReason, stoppedByUser } from './task-outcome';

export interface RowView {
  readonly element: HTMLElement;
  /** The row's node changed (or the row's place: `row` is its current flat row). */
  update(state: SessionViewState, row: FlatRow, now: number): void;
  /** Once a second while it runs (elapsed time). */
  tick?(now: number): void;
  /** Enter on the row, before it toggles: true when the row did something of its own (Open diff). */
  enter?(): boolean;
  /** Rows that can show another row (calls): the pool their element goes back to when it scrolls out. */
  readonly poolKey?: string;
  /** Shows `row` in this element instead (a row of the same pool). */
  rebind?(row: FlatRow, state: SessionViewState): void;
}

/** The pool of elements a row can re-use (poolKey), if any: calls, apart for those of a change (their row has more). */
export function poolKeyOf(row: FlatRow, state: SessionViewState): string | undefined {
  const node = state.nodes[row.nodeId];
  if (row.kind !== 'tool' || node?.kind !== 'tool') return undefined;
  return isFileChangeTool(node.name) ? 'tool-change' : 'tool';
}

export interface RowViewContext {
  readonly actions: DetailActions;
  /** The kept text block of a text node. */
  textBlock(node: TextNode): TextBlock;
}

/** A conversation block (prompt, text, notice) as a row: a wrapper holding the block. */
function blockRow(row: FlatRow, build: () => HTMLElement): RowView {
  const element = el('div', `tree-row block-row block-${row.kind}`);
  element.dataset.id = row.key;
  let inner: HTMLElement | null = null;
  const fill = (): void => {
    const fresh = build();
    delete fresh.dataset.id;
    if (inner) inner.replaceWith(fresh);
    else element.append(fresh);
    inner = fresh;
  };
  fill();
  return { element, update: fill };
}

export function createRowView(row: FlatRow, state: SessionViewState, ctx: RowViewContext): RowView {
  const node = state.nodes[row.nodeId];
  switch (row.kind) {
    case 'user':
      return node?.kind === 'user' ? blockRow(row, () => userBlock(node)) : emptyRow(row);
    case 'notice':
      return blockRow(row, () => {
        const n = state.nodes[row.nodeId];
        return n?.kind === 'notice' ? noticeBlock(n) : el('div');
      });
    case 'compaction-block':
      return node?.kind === 'compaction' ? blockRow(row, () => compactionBlock(node)) : emptyRow(row);
    case 'text': {
      if (node?.kind !== 'text') return emptyRow(row);
      const block = ctx.textBlock(node);
      const element = el('div', 'tree-row block-row block-text');
      element.dataset.id = row.key;
      delete block.element.dataset.id;
      element.append(block.element);
      return { element, update: (s) => {
        const n = s.nodes[row.nodeId];
        if (n?.kind === 'text') block.update(n);
      } };
    }
    case 'task': {
      if (node?.kind !== 'task') return emptyRow(row);
      const view = new TaskRow(node, ctx.actions);
      view.update(node, Date.now(), state, row.expanded);
      return {
        element: view.item,
        update: (s, r, now) => {
          const n = s.nodes[r.nodeId];
          if (n?.kind === 'task') view.update(n, now, s, r.expanded);
        },
        tick: (now) => {
          if (view.running) view.updateMeta(now);
        },
      };
    }
    case 'tool': {
      if (node?.kind !== 'tool') return emptyRow(row);
      const view = new ToolRow(node, ctx.actions);
      let id = row.nodeId;
      return {
        element: view.item,
        poolKey: poolKeyOf(row, state),
        rebind: (r, s) => {
          const n = s.nodes[r.nodeId];
          if (n?.kind !== 'tool' || !view.fits(n)) return;
          id = r.nodeId;
          view.bind(n);
        },
        update: (s) => {
          const n = s.nodes[id];
          if (n?.kind === 'tool') view.update(n);
        },
        enter: () => view.openDiff(),
      };
    }
    case 'thinking':
      return node?.kind === 'thinking' ? staticRow(thinkingRow(node).item) : emptyRow(row);
    case 'compaction':
      return node?.kind === 'compaction' ? staticRow(compactionRow(node)) : emptyRow(row);
    case 'prompt':
    case 'message':
    case 'outcome': {
      const view = new TextRow(row.key, row.kind === 'prompt' ? 'prompt-row' : row.kind === 'message' ? 'message-row' : 'outcome-row');
      const fill = (s: SessionViewState): void => {
        const task = s.nodes[row.nodeId];
        if (task?.kind !== 'task') return;
        if (row.kind === 'prompt') return view.set('comment', 'tone-muted', 'Prompt', task.prompt || task.description);
        if (row.kind === 'message') return view.set('comment-discussion', 'tone-muted', `Message · run ${task.segments ?? 2}`, task.lastMessage ?? '');
        // The task row says why it ended (task-outcome.ts): this row does not say it again, it holds the whole text.
        const said = outcomeReason(task) !== '';
        if (task.status === 'cancelled') {
          const why = [stoppedByUser(task.error) || said ? undefined : task.error, task.result].filter(Boolean).join('\n\n');
          if (why) return view.set('circle-slash', 'tone-muted', TASK_STATUS_LABEL.cancelled, why, true);
          return view.set('circle-slash', 'tone-muted', TASK_STATUS_LABEL.cancelled, said ? 'the full message' : 'before it reported anything', false, true);
        }
        if (task.error !== undefined) return said ? view.set('error', 'tone-error', 'Error', 'the full message', false, true) : view.set('error', 'tone-error', 'Error', task.error);
        view.set('reply', 'tone-ok', 'Result', task.result ?? '', true);
      };
      fill(state);
      return { element: view.item, update: fill };
    }
    case 'changes': {
      if (node?.kind !== 'task') return emptyRow(row);
      const view = new ChangesRow(node, ctx.actions);
      return { element: view.item, update: (s) => {
        const n = s.nodes[row.nodeId];
        if (n?.kind === 'task') view.update(n);
      } };
    }
    case 'change-file':
    case 'change-command':
    case 'change-note':
      return rebuiltRow(row, state, ctx);
    case 'fold': {
      const view = new TextRow(row.key, 'fold-row');
      const fill = (s: SessionViewState, r: FlatRow): void => {
        const task = s.nodes[r.nodeId];
        if (task?.kind !== 'task') return;
        const words = foldWords(task.children.slice(0, r.index ?? 0));
        view.set('ellipsis', 'tone-muted', words.title, words.more, false, true);
        view.item.title = `${words.title}${words.more ? ` (${words.more})` : ''}, before the last ones: open to see them`;
      };
      fill(state, row);
      return { element: view.item, update: fill };
    }
    case 'detail': {
      const owner = row.parent === null ? undefined : ownerRow(row);
      if (!owner) return emptyRow(row);
      const view = new DetailRow(owner, ctx.actions);
      view.update(state);
      return { element: view.item, update: (s) => view.update(s) };
    }
  }
}

/** "312 earlier calls", and what else the fold holds ("2 subagents · 3 other rows"). */
function foldWords(ids: readonly string[]): { title: string; more: string } {
  let calls = 0;
  let tasks = 0;
  for (const id of ids) {
    if (id.startsWith('tool:')) calls++;
    else if (id.startsWith('task:')) tasks++;
  }
  const other = ids.length - calls - tasks;
  const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
  const more = [tasks ? plural(tasks, 'subagent') : '', other ? plural(other, 'other row') : ''].filter(Boolean).join(' · ');
  return { title: `${plural(calls, 'earlier call')}`, more };
}

/** The owner of a detail row, rebuilt from the detail's key (`detail:<owner key>`). */
function ownerRow(row: FlatRow): FlatRow {
  const key = row.key.slice('detail:'.length);
  const kind = key.startsWith('prompt:') ? 'prompt' : key.startsWith('message:') ? 'message' : key.startsWith('outcome:') ? 'outcome' : key.startsWith('thinking:') ? 'thinking' : 'tool';
  return { ...row, key, kind, level: row.level - 1 };
}

/** Rows of a manifest: small, redrawn whole when the task changes (a revert marks its files). */
function rebuiltRow(row: FlatRow, state: SessionViewState, ctx: RowViewContext): RowView {
  const build = (s: SessionViewState): HTMLElement => {
    const task = s.nodes[row.nodeId];
    if (task?.kind !== 'task') return el('div', 'tree-row');
    if (row.kind === 'change-file') return changeFileRow(row.key, task, row.index ?? 0, ctx.actions, (agentId) => agentLabel(s, agentId));
    if (row.kind === 'change-command') return changeCommandRow(row.key, task, row.index ?? 0);
    return changeNoteRow(row.key);
  };
  const view: { element: HTMLElement; update(s: SessionViewState): void } = {
    element: build(state),
    update(s) {
      const fresh = build(s);
      // Keep the element (its place, size and focus belong to the list): move the new content in.
      this.element.replaceChildren(...fresh.childNodes);
      for (const name of ['data-file', 'data-revert', 'title']) {
        const v = fresh.getAttribute(name);
        if (v === null) this.element.removeAttribute(name);
        else this.element.setAttribute(name, v);
      }
    },
  };
  return view;
}

function staticRow(element: HTMLElement): RowView {
  return { element, update: () => undefined };
}

function emptyRow(row: FlatRow): RowView {
  const element = el('div', 'tree-row');
  element.dataset.id = row.key;
  return staticRow(element);
}
