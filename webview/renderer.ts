/**
 * Renders a SessionViewState into the conversation element, incrementally: new conversation
 * items are appended, and only the nodes named in the touched set are updated in place.
 * Consecutive tool calls / tasks of the conversation share one `<vscode-tree>`.
 *
 * Expansion: a MutationObserver on the `open` attribute tells user toggles (which are saved)
 * apart from the renderer's own changes (recorded before they are made).
 */
import type { VscodeTree } from '@vscode-elements/elements/dist/vscode-tree/vscode-tree.js';
import type { VscodeTreeItem } from '@vscode-elements/elements/dist/vscode-tree-item/vscode-tree-item.js';
import type { SessionViewState, TaskNode, ViewNode } from '../src/view-model/session-view';
import { el } from './dom';
import type { Expansion } from './expansion';
import { compactionBlock, compactionRow } from './compaction-view';
import { noticeBlock, TextBlock, userBlock } from './message-view';
import type { ChangesRow } from './changes-row';
import { TaskRow } from './task-row';
import { endedEarly } from './task-outcome';
import { thinkingRow } from './thinking-row';
import { ToolRow, TextRow, type RowActions } from './tree-rows';

type Row = TaskRow | ToolRow | TextRow | ChangesRow;

/**
 * Row building is time-boxed per frame. A vscode-tree-item costs ~0.2-1 ms to create, connect,
 * render (lit, in a microtask after our code) and lay out, so a large batch, snapshot or "show
 * earlier calls" is spread over frames in chunks instead of freezing the panel. The budget
 * covers our synchronous part only; lit's render and layout roughly double it.
 */
const FRAME_BUDGET_MS = 6;
/** "Show earlier calls" is a bulk load the user asked for: a larger box, fewer frames. */
const BULK_FRAME_BUDGET_MS = 14;
const ROW_CHUNK = 16;

export class ConversationRenderer {
  private state: SessionViewState | null = null;
  private readonly rows = new Map<string, Row>();
  private readonly texts = new Map<string, TextBlock>();
  private readonly notices = new Map<string, HTMLElement>();
  /** Programmatic open state per row id, to tell user toggles apart. */
  private readonly setOpen = new Map<string, boolean>();
  private readonly running = new Set<TaskRow>();
  /** Task rows with rows still to build (budget ran out, or revealing earlier calls). */
  private deferred = new Set<TaskRow>();
  private frameStart = 0;
  private granted = 0;
  private renderedItems = 0;
  private currentTree: VscodeTree | null = null;
  private readonly observer: MutationObserver;

  constructor(
    private readonly root: HTMLElement,
    private readonly expansion: Expansion,
    private readonly actions: RowActions,
    /** Called when deferred rows need another frame. */
    private readonly requestFrame: () => void,
  ) {
    this.observer = new MutationObserver((records) => this.onOpenMutations(records));
    this.observer.observe(root, { subtree: true, attributes: true, attributeFilter: ['open'] });
  }

  /** Full render (snapshot). */
  reset(state: SessionViewState): void {
    // Toggles the observer has not delivered yet still count as the user's choices.
    this.onOpenMutations(this.observer.takeRecords());
    this.state = state;
    this.rows.clear();
    this.texts.clear();
    this.notices.clear();
    this.setOpen.clear();
    this.running.clear();
    this.deferred.clear();
    this.startFrame();
    this.renderedItems = 0;
    this.currentTree = null;
    this.root.replaceChildren();
    this.appendNewItems();
  }

  /** Incremental render after events were applied to the same state object. */
  update(state: SessionViewState, touched: Iterable<string>): void {
    if (this.state !== state) {
      this.reset(state);
      return;
    }
    this.startFrame();
    const again = this.deferred;
    this.deferred = new Set();
    for (const row of again) row.sync();
    const created = this.appendNewItems();
    const now = Date.now();
    for (const id of touched) {
      if (created.has(id)) continue;
      const node = state.nodes[id];
      if (node) this.updateNode(node, now);
    }
  }

  /** Refreshes the elapsed time of running tasks (called once a second). */
  /** Opens a task row and the task rows around it, scrolls it into view and marks it for a moment. */
  reveal(nodeId: string): boolean {
    const state = this.state;
    if (!state) return false;
    const chain: string[] = [];
    for (let node = state.nodes[nodeId]; node?.kind === 'task'; ) {
      chain.unshift(node.id);
      const parentAgent = node.parentAgentId;
      node = Object.values(state.nodes).find((n) => n.kind === 'task' && n.agentId === parentAgent);
    }
    // Outermost first: opening a row builds the rows inside it. The user's choice, as if clicked (kept).
    for (const id of chain) {
      const row = this.rows.get(id);
      if (!row) continue;
      this.expansion.setChoice(id, true);
      this.applyOpen(id, row.item, true, () => row.materialize());
    }
    const item = this.rows.get(nodeId)?.item;
    if (!item) return false;
    item.scrollIntoView({ block: 'center' });
    item.classList.add('revealed');
    setTimeout(() => item.classList.remove('revealed'), 2500);
    return true;
  }

  tick(now: number): void {
    for (const row of this.running) row.updateMeta(now);
  }

  get itemCount(): number {
    return this.renderedItems;
  }

  private updateNode(node: ViewNode, now: number): void {
    if (node.kind === 'text') {
      this.texts.get(node.id)?.update(node);
      return;
    }
    if (node.kind === 'notice') {
      // A notice that changes in place ("waiting for the API: 20 s", then "answered after 30 s").
      const old = this.notices.get(node.id);
      if (old) {
        const fresh = noticeBlock(node);
        old.replaceWith(fresh);
        this.notices.set(node.id, fresh);
      }
      return;
    }
    const row = this.rows.get(node.id);
    if (!row) return;
    if (node.kind === 'task' && row instanceof TaskRow) {
      row.update(node, now);
      if (row.running) this.running.add(row);
      else this.running.delete(row);
      this.applyOpen(node.id, row.item, openByDefault(node), () => row.materialize());
    } else if (node.kind === 'tool' && row instanceof ToolRow) {
      row.update(node);
    }
  }

  private appendNewItems(): Set<string> {
    const created = new Set<string>();
    const state = this.state;
    if (!state) return created;
    const fragment = document.createDocumentFragment();
    let treeFragment: DocumentFragment | null = null;
    const flushTree = (): void => {
      if (treeFragment && this.currentTree) this.currentTree.append(treeFragment);
      treeFragment = null;
    };
    for (; this.renderedItems < state.items.length; this.renderedItems++) {
      const id = state.items[this.renderedItems];
      const node = id === undefined ? undefined : state.nodes[id];
      if (!node || id === undefined) continue;
      created.add(id);
      if (node.kind === 'task' || node.kind === 'tool' || node.kind === 'thinking') {
        if (!this.currentTree) {
          this.currentTree = document.createElement('vscode-tree');
          this.currentTree.className = 'activity';
          this.currentTree.indentGuides = 'always';
          fragment.append(this.currentTree);
        }
        const item = this.createChild(id);
        if (item) (treeFragment ??= document.createDocumentFragment()).append(item);
        continue;
      }
      flushTree();
      this.currentTree = null;
      if (node.kind === 'user') fragment.append(userBlock(node));
      else if (node.kind === 'notice') {
        const block = noticeBlock(node);
        this.notices.set(id, block);
        fragment.append(block);
      }
      else if (node.kind === 'compaction') fragment.append(compactionBlock(node));
      else {
        const block = new TextBlock(node);
        this.texts.set(id, block);
        fragment.append(block.element);
      }
    }
    flushTree();
    if (fragment.childNodes.length > 0) this.root.append(fragment);
    return created;
  }

  /** Creates the row of a task or tool node (and registers it). */
  createChild(id: string): VscodeTreeItem | null {
    const node = this.state?.nodes[id];
    if (!node) return null;
    if (node.kind === 'tool') {
      const row = new ToolRow(node, this.actions);
      this.rows.set(id, row);
      this.applyOpen(id, row.item, false, () => row.materialize());
      return row.item;
    }
    if (node.kind === 'compaction') return compactionRow(node);
    if (node.kind === 'thinking') {
      const row = thinkingRow(node);
      this.registerTextRow(row);
      return row.item;
    }
    if (node.kind === 'task') {
      const row = new TaskRow(node, {
        stopAgent: (agentId) => this.actions.stopAgent(agentId),
        review: (agentId, action) => this.actions.review(agentId, action),
        retryTask: (agentId, edit) => this.actions.retryTask(agentId, edit),
        createChild: (childId) => this.createChild(childId),
        registerTextRow: (textRow) => this.registerTextRow(textRow),
        changeActions: this.actions,
        takeBudget: (wanted, bulk) => this.takeBudget(wanted, bulk),
        defer: (deferredRow) => {
          this.deferred.add(deferredRow);
          this.requestFrame();
        },
      });
      this.rows.set(id, row);
      if (row.running) this.running.add(row);
      this.applyOpen(id, row.item, openByDefault(node), () => row.materialize());
      return row.item;
    }
    return null;
  }

  private startFrame(): void {
    this.frameStart = performance.now();
    this.granted = 0;
  }

  /** Up to ROW_CHUNK rows while the frame's time box lasts (always one chunk per frame: progress). */
  private takeBudget(wanted: number, bulk = false): number {
    const box = bulk ? BULK_FRAME_BUDGET_MS : FRAME_BUDGET_MS;
    if (this.granted > 0 && performance.now() - this.frameStart > box) return 0;
    const n = Math.min(wanted, ROW_CHUNK);
    this.granted += n;
    return n;
  }

  private registerTextRow(row: TextRow | ChangesRow): void {
    this.rows.set(row.id, row);
    this.applyOpen(row.id, row.item, false, () => row.materialize());
  }

  /** Opens/closes a row per user choice or default; builds its children before opening. */
  private applyOpen(id: string, item: VscodeTreeItem, byDefault: boolean, materialize: () => void): void {
    const open = this.expansion.isOpen(id, byDefault);
    if (open) materialize();
    if (this.setOpen.get(id) === open && item.open === open) return;
    this.setOpen.set(id, open);
    item.open = open;
  }

  private onOpenMutations(records: MutationRecord[]): void {
    for (const record of records) {
      const item = record.target as VscodeTreeItem;
      const id = item.dataset.id;
      if (id === undefined) continue;
      const open = item.hasAttribute('open');
      if (this.setOpen.get(id) === open) continue;
      // A user toggle (click, keyboard).
      this.setOpen.set(id, open);
      this.expansion.setChoice(id, open);
      if (open) {
        const row = this.rows.get(id);
        row?.materialize();
      }
    }
  }
}

/** A task is open while it runs, and stays open when it ended early (failed, stopped, at a limit). */
function openByDefault(node: TaskNode): boolean {
  return node.status === 'running' || endedEarly(node);
}

export function emptyHint(): HTMLElement {
  const hint = el('div', 'empty-hint');
  hint.append(
    el('div', 'empty-title', 'Delegate'),
    el('div', '', 'Describe a job. The agent hands self-contained parts of it to subagents; each one shows up here as a task you can expand to follow its tool calls live.'),
  );
  return hint;
}
