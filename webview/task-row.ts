/**
 * A task node as a tree-item: status icon + description, the meta line
 * (turns · tools · tokens · duration) as the item description, a status word as decoration,
 * and children — a "Prompt" row, the subagent's calls (tool rows and nested tasks, created by
 * the renderer) and a "Result"/"Error" row once there is one. Children are created only when
 * the task is first expanded; after that new calls are appended as they arrive.
 */
import type { VscodeTreeItem } from '@vscode-elements/elements/dist/vscode-tree-item/vscode-tree-item.js';
import { TASK_STATUS_LABEL, taskMeta } from '../src/view-model/format';
import type { TaskNode } from '../src/view-model/session-view';
import { codicon, el, setAttr, setClassName, setCodicon, setHidden, setText } from './dom';
import { TASK_STATUS_ICON } from './icons';
import { TextRow, treeItem } from './tree-rows';

export interface TaskRowHost {
  /** Creates (and registers) the row of a child node; null for an unknown id. */
  createChild(id: string): VscodeTreeItem | null;
  /** Registers a prompt/result row so expanding it can fill its detail. */
  registerTextRow(row: TextRow): void;
}

const STATUS_TONE: Record<TaskNode['status'], string> = {
  running: 'tone-running',
  completed: 'tone-ok',
  max_turns: 'tone-warn',
  error: 'tone-error',
  cancelled: 'tone-muted',
};

export class TaskRow {
  readonly item: VscodeTreeItem;
  private readonly icon: HTMLSpanElement;
  private readonly title: HTMLSpanElement;
  private readonly meta: HTMLSpanElement;
  private readonly statusWord: HTMLSpanElement;
  private readonly warning: HTMLSpanElement;
  private outcome: TextRow | null = null;
  private renderedChildren = 0;
  materialized = false;
  node: TaskNode;

  constructor(node: TaskNode, private readonly host: TaskRowHost) {
    this.node = node;
    this.item = treeItem(node.id, 'task-row');
    this.icon = codicon('loading', 'row-icon');
    this.title = el('span', 'task-title');
    this.meta = el('span', 'task-meta');
    this.meta.slot = 'description';
    const deco = el('span', 'row-deco');
    deco.slot = 'decoration';
    this.warning = codicon('warning', 'tone-warn');
    this.statusWord = el('span', 'row-state');
    deco.append(this.warning, this.statusWord);
    this.item.append(this.icon, this.title, this.meta, deco);
    this.update(node, Date.now());
  }

  get running(): boolean {
    return this.node.status === 'running';
  }

  update(node: TaskNode, now: number): void {
    this.node = node;
    const status = TASK_STATUS_ICON[node.status];
    const tone = STATUS_TONE[node.status];
    setAttr(this.item, 'data-status', node.status);
    setCodicon(this.icon, status.icon, `${status.extra} row-icon ${tone}`.replace(/^ /, ''));
    setText(this.title, node.description);
    this.title.title = node.prompt ? `${node.description}\n\n${node.prompt}` : node.description;
    this.updateMeta(now);
    const word = node.status === 'running' || node.status === 'completed' ? '' : TASK_STATUS_LABEL[node.status].toLowerCase();
    setText(this.statusWord, word);
    setClassName(this.statusWord, `row-state ${tone}`);
    setHidden(this.statusWord, word === '');
    setHidden(this.warning, !(node.status === 'running' && node.warning));
    this.warning.title = node.warning ? `Retrying: ${node.warning}` : '';
    if (this.materialized) {
      this.syncChildren();
      this.syncOutcome();
    }
  }

  updateMeta(now: number): void {
    setText(this.meta, taskMeta(this.node, now));
  }

  /** Builds the children (first expand). */
  materialize(): void {
    if (this.materialized) return;
    this.materialized = true;
    const prompt = new TextRow(`prompt:${this.node.id}`, 'prompt-row');
    prompt.set('comment', 'tone-muted', 'Prompt', this.node.prompt || this.node.description);
    prompt.item.slot = 'children';
    this.host.registerTextRow(prompt);
    this.item.append(prompt.item);
    this.syncChildren();
    this.syncOutcome();
  }

  /** Appends rows for children added since the last call (before the outcome row). */
  private syncChildren(): void {
    const ids = this.node.children;
    if (this.renderedChildren >= ids.length) return;
    const fragment = document.createDocumentFragment();
    for (let i = this.renderedChildren; i < ids.length; i++) {
      const id = ids[i];
      const child = id === undefined ? null : this.host.createChild(id);
      if (!child) continue;
      child.slot = 'children';
      fragment.append(child);
    }
    this.renderedChildren = ids.length;
    this.item.insertBefore(fragment, this.outcome?.item ?? null);
  }

  private syncOutcome(): void {
    const n = this.node;
    const text = n.error ?? (n.status === 'running' ? undefined : n.result);
    if (text === undefined || text === '') return;
    if (!this.outcome) {
      this.outcome = new TextRow(`outcome:${n.id}`, 'outcome-row');
      this.outcome.item.slot = 'children';
      this.host.registerTextRow(this.outcome);
      this.item.append(this.outcome.item);
    }
    if (n.error !== undefined) this.outcome.set('error', 'tone-error', 'Error', n.error);
    else this.outcome.set('reply', 'tone-ok', 'Result', text);
  }
}
