/**
 * Renders a SessionViewState as one virtualized list of rows with tree semantics (flat-rows.ts): only
 * the rows in view, plus an overscan, exist in the DOM, whatever the session's size. @tanstack/virtual-core
 * places them (measured heights, keyed by row key so a row keeps its size when rows are added above it).
 *
 *   .log (scrolls) ─ .conversation[role=tree] (as tall as the whole list)
 *                       └ .tree-row[role=treeitem] × the rows in view, absolutely placed
 *
 * While the user is at the end (following), the newest row stays in view. Expansion: the user's choices
 * (click, keyboard) are saved (expansion.ts) and win over the defaults (a task is open while it runs).
 */
import { Virtualizer, elementScroll, observeElementOffset, observeElementRect, measureElement, type VirtualItem } from '@tanstack/virtual-core';
import { filteredRows, flattenRows, taskOpenByDefault, type FlatRow } from '../src/view-model/flat-rows';
import { isErrorNode, nodeMatches, nodesInOrder, type RowFilter } from '../src/view-model/row-filter';
import type { SessionViewState, TextNode } from '../src/view-model/session-view';
import { el, setAttr } from './dom';
import type { Expansion } from './expansion';
import { TextBlock } from './message-view';
import type { DetailActions } from './row-detail';
import { createRowView, type RowView } from './row-views';
import { TreeKeys } from './tree-keys';

interface Mounted {
  view: RowView;
  row: FlatRow;
}

const ESTIMATE: Partial<Record<FlatRow['kind'], number>> = { task: 44, user: 56, text: 60, notice: 30, 'compaction-block': 30, detail: 160 };
/**
 * One-line rows are exactly ROW_HEIGHT px (styles.ts fixes it): never measured, so a frame that mounts a burst
 * of new calls forces no layout of its own (measuring was a third of the frame's script time).
 */
const ROW_HEIGHT = 22;
const FIXED: ReadonlySet<FlatRow['kind']> = new Set(['tool', 'prompt', 'message', 'outcome', 'thinking', 'compaction', 'changes', 'change-file', 'change-command', 'change-note']);
/** Rows built beyond the viewport on each side (cheap: ~22 px each). */
const OVERSCAN = 12;
/** Within this many pixels of the end the panel follows new rows. */
const FOLLOW_SLACK = 40;
const NONE: ReadonlySet<string> = new Set();

export class ConversationRenderer {
  private state: SessionViewState | null = null;
  private rows: FlatRow[] = [];
  private indexed: Map<string, number> | null = null;
  /** Nodes changed by the events of this frame, and the frame's time (renderPass updates their rows in view). */
  private touched: ReadonlySet<string> = NONE;
  private now = Date.now();
  private readonly mounted = new Map<string, Mounted>();
  private readonly texts = new Map<string, TextBlock>();
  private readonly virtualizer: Virtualizer<HTMLElement, HTMLElement>;
  private readonly keys: TreeKeys;
  private rendering = false;
  private again = false;
  private userScrollAt = 0;
  private filter: RowFilter | null = null;
  private reportOffset: ((offset: number, isScrolling: boolean) => void) | null = null;
  private revealedKey: string | null = null;
  /** The user is at the end: new rows scroll into view. */
  following = true;
  /** Called after each render (the pinned task header, the jump button). */
  onRender: () => void = () => undefined;

  constructor(
    readonly scroller: HTMLElement,
    readonly root: HTMLElement,
    private readonly expansion: Expansion,
    private readonly actions: DetailActions,
  ) {
    root.setAttribute('role', 'tree');
    root.tabIndex = -1;
    root.setAttribute('aria-label', 'Conversation');
    this.virtualizer = new Virtualizer<HTMLElement, HTMLElement>({
      count: 0,
      getScrollElement: () => scroller,
      estimateSize: (i) => ESTIMATE[this.rows[i]?.kind ?? 'tool'] ?? ROW_HEIGHT,
      getItemKey: (i) => this.rows[i]?.key ?? i,
      overscan: OVERSCAN,
      paddingStart: 6,
      paddingEnd: 10,
      scrollToFn: elementScroll,
      observeElementRect,
      // The offset callback is kept: a follow writes scrollTop and reports it at once, so the rows for the
      // new position render in the same frame (not on the scroll event, a frame later).
      observeElementOffset: (instance, cb) => {
        this.reportOffset = cb;
        return observeElementOffset(instance, cb);
      },
      measureElement,
      onChange: () => this.render(),
    });
    this.virtualizer._didMount();
    this.keys = new TreeKeys(this, root);
    // Following stops only when the user scrolls away (rows growing under a programmatic scroll do not count).
    for (const type of ['wheel', 'pointerdown', 'touchstart', 'keydown']) {
      scroller.addEventListener(type, () => (this.userScrollAt = performance.now()), { passive: true, capture: true });
    }
    scroller.addEventListener('scroll', () => {
      const atEnd = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < FOLLOW_SLACK;
      if (atEnd) this.following = true;
      else if (performance.now() - this.userScrollAt < 1000) this.following = false;
    }, { passive: true });
    root.addEventListener('click', (ev) => this.onClick(ev));
  }

  /** Full render (snapshot). */
  reset(state: SessionViewState): void {
    this.state = state;
    for (const { view } of this.mounted.values()) view.element.remove();
    this.mounted.clear();
    this.texts.clear();
    this.relayout();
  }

  /** Incremental render after events were applied to the same state object. */
  update(state: SessionViewState, touched: Iterable<string>): void {
    if (this.state !== state) return this.reset(state);
    const now = Date.now();
    const touchedSet = touched instanceof Set ? (touched as Set<string>) : new Set(touched);
    this.keepReadTasksOpen(state, touchedSet);
    this.rows = this.flatten(state);
    this.reindex();
    // The rows in view update as they are placed (renderPass): O(rows in view), not O(rows).
    this.touched = touchedSet;
    this.now = now;
    this.render();
    this.touched = NONE;
  }

  /**
   * A task that ends while the user reads inside it (scrolled away from the end, its rows in view) stays open:
   * its default turns to closed when it completes, so the user's reading becomes a choice to keep it open.
   */
  private keepReadTasksOpen(state: SessionViewState, touched: Set<string>): void {
    if (this.following) return;
    for (const id of touched) {
      const node = state.nodes[id];
      if (node?.kind !== 'task' || taskOpenByDefault(node) || this.expansion.hasChoice(id)) continue;
      if (!this.rowAt(id)?.expanded) continue;
      const inView = [...this.mounted.values()].some(({ row }) => row.key === id || this.isInside(row, id));
      if (inView) this.expansion.setChoice(id, true);
    }
  }

  /** Whether `row` is under the row `ancestor` (walking its parents). */
  private isInside(row: FlatRow, ancestor: string): boolean {
    for (let key = row.parent, guard = 0; key !== null && guard < 64; guard++) {
      if (key === ancestor) return true;
      key = this.rowAt(key)?.parent ?? null;
    }
    return false;
  }

  /** Refreshes the elapsed time of running tasks in view (called once a second). */
  tick(now: number): void {
    for (const { view } of this.mounted.values()) view.tick?.(now);
  }

  get rowCount(): number {
    return this.rows.length;
  }

  rowAtIndex(i: number): FlatRow | undefined {
    return this.rows[i];
  }

  indexOf(key: string): number {
    return this.index.get(key) ?? -1;
  }

  rowAt(key: string): FlatRow | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.rows[i];
  }

  get viewState(): SessionViewState | null {
    return this.state;
  }

  /** The element of a row in view. */
  elementOf(key: string): HTMLElement | undefined {
    return this.mounted.get(key)?.view.element;
  }

  /** The rows in the DOM now. */
  mountedRows(): FlatRow[] {
    return [...this.mounted.values()].map((m) => m.row).sort((a, b) => this.indexOf(a.key) - this.indexOf(b.key));
  }

  /** The virtual items in view (their offsets), for the pinned header. */
  visibleItems(): VirtualItem[] {
    return this.virtualizer.getVirtualItems();
  }

  /** Where the list is scrolled to, as the virtualizer last read it (no layout). */
  get scrollOffset(): number {
    return this.virtualizer.scrollOffset ?? 0;
  }

  startAt(i: number): number | undefined {
    return this.virtualizer.measurementsCache[i]?.start;
  }

  startOf(key: string): number | undefined {
    const i = this.index.get(key);
    return i === undefined ? undefined : this.virtualizer.measurementsCache[i]?.start;
  }

  /** Opens or closes a row as the user asked (saved), and redraws. */
  setOpen(key: string, open: boolean): void {
    const row = this.rowAt(key);
    if (!row?.expandable || row.expanded === open) return;
    this.expansion.setChoice(key, open);
    this.relayout();
  }

  toggle(key: string): void {
    const row = this.rowAt(key);
    if (row) this.setOpen(key, !row.expanded);
  }

  /** Enter on a row: its own action (Open diff), else it toggles. */
  enter(key: string): void {
    if (this.mounted.get(key)?.view.enter?.()) return;
    this.toggle(key);
  }

  /** Brings row `i` into view (and renders it). */
  scrollToIndex(i: number, align: 'auto' | 'center' | 'start' | 'end' = 'auto'): void {
    this.following = false;
    this.virtualizer.scrollToIndex(i, { align });
    this.render();
  }

  /** Back to the newest row, following again. */
  jumpToLatest(): void {
    this.following = true;
    this.scrollToEnd();
  }

  /** Opens the task rows around a row (and a task row itself), scrolls it into view and marks it for a moment; `focus` moves focus to it. */
  reveal(nodeId: string, focus = false): boolean {
    const state = this.state;
    if (!state) return false;
    const target = state.nodes[nodeId];
    if (target?.kind === 'task') this.expansion.setChoice(nodeId, true);
    const owner = target && 'agentId' in target && target.kind !== 'task' ? target.agentId : target?.kind === 'task' ? target.parentAgentId : null;
    for (let taskId = owner ? state.agents[owner]?.taskId : null, guard = 0; taskId && guard < 64; guard++) {
      this.expansion.setChoice(taskId, true);
      const task = state.nodes[taskId];
      taskId = task?.kind === 'task' ? state.agents[task.parentAgentId]?.taskId : null;
    }
    this.relayout();
    const i = this.indexOf(nodeId);
    if (i < 0) return false;
    this.revealedKey = nodeId;
    setTimeout(() => {
      if (this.revealedKey === nodeId) this.revealedKey = null;
      this.elementOf(nodeId)?.classList.remove('revealed');
    }, 2500);
    this.scrollToIndex(i, 'center');
    if (focus) this.keys.focusIndex(i);
    return true;
  }

  readonly isOpen = (key: string, byDefault: boolean): boolean => {
    const node = this.state?.nodes[key];
    return this.expansion.isOpen(key, node?.kind === 'task' ? taskOpenByDefault(node) : byDefault);
  };

  /** The rows again (open state changed), then a render. */
  relayout(): void {
    this.rows = this.state ? this.flatten(this.state) : [];
    this.reindex();
    this.now = Date.now();
    this.render();
  }

  private flatten(state: SessionViewState): FlatRow[] {
    const filter = this.filter;
    return filter ? filteredRows(state, (node) => nodeMatches(node, filter), this.isOpen) : flattenRows(state, this.isOpen);
  }

  /** Shows only what matches (null: everything again); returns how many calls and tasks match. */
  setFilter(filter: RowFilter | null): number {
    this.filter = filter;
    this.following = filter === null && this.following;
    this.relayout();
    if (filter) this.virtualizer.scrollToOffset(0);
    const state = this.state;
    if (!filter || !state) return 0;
    return this.rows.filter((r) => {
      const node = state.nodes[r.nodeId];
      return r.kind !== 'detail' && node !== undefined && nodeMatches(node, filter);
    }).length;
  }

  /** Focuses the first row matching the filter (Enter in the find box). */
  focusFirstMatch(): void {
    const filter = this.filter;
    const state = this.state;
    if (!filter || !state) return;
    const after = this.keys.focused === null ? -1 : this.indexOf(this.keys.focused);
    const n = this.rows.length;
    for (let k = 1; k <= n; k++) {
      const i = (after + k) % n;
      const row = this.rows[i] as FlatRow;
      const node = state.nodes[row.nodeId];
      if (row.kind !== 'detail' && node && nodeMatches(node, filter)) return this.keys.focusIndex(i);
    }
  }

  /** Moves to the next failed call or task after the focused row (wrapping), opening the tasks around it. */
  nextError(): boolean {
    const state = this.state;
    if (!state) return false;
    const order = nodesInOrder(state);
    const from = this.keys.focused === null ? -1 : order.indexOf(this.rowAt(this.keys.focused)?.nodeId ?? '');
    for (let k = 1; k <= order.length; k++) {
      const id = order[(from + k + order.length) % order.length] as string;
      if (isErrorNode(state.nodes[id]) && this.reveal(id, true)) return true;
    }
    return false;
  }

  /** The key → index map is built when first asked for after the rows changed (most frames never ask). */
  private reindex(): void {
    this.indexed = null;
  }

  private get index(): Map<string, number> {
    if (this.indexed) return this.indexed;
    const index = new Map<string, number>();
    for (let i = 0; i < this.rows.length; i++) index.set((this.rows[i] as FlatRow).key, i);
    return (this.indexed = index);
  }

  private textBlock = (node: TextNode): TextBlock => {
    let block = this.texts.get(node.id);
    if (!block) {
      block = new TextBlock(node);
      this.texts.set(node.id, block);
    }
    return block;
  };

  /** To the end of the list now (the sizer has its height), and the virtualizer told at once. */
  private scrollToEnd(): void {
    const end = Math.max(0, this.scroller.scrollHeight - this.scroller.clientHeight);
    if (Math.abs(this.scroller.scrollTop - end) <= 1) return;
    this.scroller.scrollTop = end;
    this.reportOffset?.(this.scroller.scrollTop, false);
  }

  /** Mounts the rows in view, drops the others, places them; re-entered by the virtualizer's onChange. */
  render(): void {
    if (!this.state) return;
    if (this.rendering) {
      // Measuring the rows just mounted moved the ones after them: once more when this pass ends.
      this.again = true;
      return;
    }
    this.rendering = true;
    try {
      for (let pass = 0; pass < 4; pass++) {
        this.again = false;
        this.renderPass();
        if (!this.again) break;
      }
    } finally {
      this.rendering = false;
    }
    this.keys.afterRender();
    this.onRender();
  }

  private renderPass(): void {
    const state = this.state;
    if (!state) return;
    {
      const v = this.virtualizer;
      v.setOptions({ ...v.options, count: this.rows.length });
      v._willUpdate();
      const height = `${v.getTotalSize()}px`;
      if (this.root.style.height !== height) this.root.style.height = height;
      if (this.following) this.scrollToEnd();
      const items = v.getVirtualItems();
      const keep = new Set<string>();
      const fresh: HTMLElement[] = [];
      const focusKey = this.keys.focusKey(items.map((it) => this.rows[it.index]?.key ?? ''));
      for (const item of items) {
        const row = this.rows[item.index];
        if (!row) continue;
        keep.add(row.key);
        let mounted = this.mounted.get(row.key);
        if (!mounted) {
          mounted = { view: createRowView(row, state, { actions: this.actions, textBlock: this.textBlock }), row };
          this.mounted.set(row.key, mounted);
          this.root.append(mounted.view.element);
          if (!FIXED.has(row.kind)) fresh.push(mounted.view.element);
        }
        const old = mounted.row;
        mounted.row = row;
        if (old !== row && (old.expanded !== row.expanded || old.setSize !== row.setSize || this.touched.has(row.nodeId))) mounted.view.update(state, row, this.now);
        this.place(mounted.view.element, row, item, row.key === focusKey);
      }
      for (const [key, mounted] of this.mounted) {
        if (keep.has(key)) continue;
        // The focused row scrolled out: keep focus in the list (on the container) rather than losing it to the body.
        if (mounted.view.element.contains(document.activeElement)) this.root.focus({ preventScroll: true });
        mounted.view.element.remove();
        this.mounted.delete(key);
      }
      for (const element of fresh) v.measureElement(element);
    }
  }

  private place(element: HTMLElement, row: FlatRow, item: VirtualItem, focusable: boolean): void {
    setAttr(element, 'data-index', String(item.index));
    const transform = `translateY(${item.start}px)`;
    if (element.style.transform !== transform) element.style.transform = transform;
    setAttr(element, 'role', 'treeitem');
    setAttr(element, 'aria-level', String(row.level));
    setAttr(element, 'aria-setsize', String(row.setSize));
    setAttr(element, 'aria-posinset', String(row.posInSet));
    setAttr(element, 'aria-expanded', row.expandable ? String(row.expanded) : null);
    setAttr(element, 'data-parent', row.parent);
    setAttr(element, 'tabindex', focusable ? '0' : '-1');
    const level = String(row.level);
    if (element.style.getPropertyValue('--level') !== level) element.style.setProperty('--level', level);
    element.classList.toggle('revealed', row.key === this.revealedKey);
  }

  /** A click on a row toggles it (buttons, links and details stop their clicks before this). */
  private onClick(ev: MouseEvent): void {
    const target = ev.target as HTMLElement;
    const rowEl = target.closest<HTMLElement>('.tree-row');
    const key = rowEl?.dataset.id;
    if (!rowEl || key === undefined) return;
    if (target.closest('button, a, input, textarea, .path-link, .row-action')) return;
    // Selecting text is not a click on the row.
    if (document.getSelection()?.type === 'Range') return;
    this.keys.setFocus(key);
    this.toggle(key);
  }
}

export function emptyHint(): HTMLElement {
  const hint = el('div', 'empty-hint');
  hint.append(
    el('div', 'empty-title', 'Delegate'),
    el('div', '', 'Describe a job. The agent hands self-contained parts of it to subagents; each one shows up here as a task you can expand to follow its tool calls live.'),
  );
  return hint;
}
