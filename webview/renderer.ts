/**
 * Renders a SessionViewState as one virtualized list of rows with tree semantics: only the rows in view, plus
 * an overscan, exist in the DOM, whatever the session's size. The rows are segments (flat-list.ts: a task's
 * 50,000 folded calls are one run, made row by row only when in view), placed by row-layout.ts (one-line rows
 * are a fixed 22 px; others are measured by a ResizeObserver), scrolled by follow-scroll.ts.
 *
 *   .log (scrolls) ─ .conversation[role=tree] (as tall as the whole list)
 *                       └ .tree-row[role=treeitem] × the rows in view, absolutely placed (translateY)
 *
 * A render: rows for the target offset → the rows that left hand their elements to the rows that came
 * (row-pool.ts: calls re-use elements in place) → place → the list's height → the scroll write last (one
 * layout per frame). While the user is at the end (following), the newest row stays in view. Expansion: the
 * user's choices (click, keyboard) are saved (expansion.ts) and win over the defaults (a task is open while it runs).
 */
import { ContainerIndexes, FlatList } from '../src/view-model/flat-list';
import { filteredRows, taskOpenByDefault, type FlatRow } from '../src/view-model/flat-rows';
import { isErrorNode, nodeMatches, nodesInOrder, type RowFilter } from '../src/view-model/row-filter';
import type { SessionViewState } from '../src/view-model/session-view';
import type { Expansion } from './expansion';
import { FollowScroll } from './follow-scroll';
import type { DetailActions } from './row-detail';
import { RowLayout } from './row-layout';
import { RowWindow, type VisibleItem } from './row-window';
import { TreeKeys } from './tree-keys';

/** Rows built beyond the viewport on each side (cheap for one-line rows; a tall block above stays drawn too). */
const OVERSCAN = 12;
const NONE: ReadonlySet<string> = new Set();

export class ConversationRenderer {
  private state: SessionViewState | null = null;
  private indexes: ContainerIndexes | null = null;
  private list: FlatList = FlatList.empty;
  private readonly layout = new RowLayout();
  /** Nodes changed by the events of this frame, and the frame's time (renderPass updates their rows in view). */
  private touched: ReadonlySet<string> = NONE;
  private now = Date.now();
  private readonly window: RowWindow;
  private readonly keys: TreeKeys;
  private readonly scroll: FollowScroll;
  private rendering = false;
  private again = false;
  private filter: RowFilter | null = null;
  private revealedKey: string | null = null;
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
    this.scroll = new FollowScroll(scroller, () => this.layout.total, () => this.render());
    this.window = new RowWindow(root, this.layout, actions, (anchor) => this.resized(anchor), () => (this.following ? null : this.scroll.offset));
    this.keys = new TreeKeys(this, root);
    root.addEventListener('click', (ev) => this.onClick(ev));
  }

  /** The user is at the end: new rows scroll into view. */
  get following(): boolean {
    return this.scroll.following;
  }

  set following(on: boolean) {
    this.scroll.following = on;
  }

  /** Full render (snapshot: a new or reopened session, a reload), at the conversation's end. */
  reset(state: SessionViewState): void {
    this.state = state;
    this.scroll.following = true;
    this.indexes = new ContainerIndexes(state);
    this.window.clear();
    this.layout.measured.clear();
    this.relayout();
  }

  /** Incremental render after events were applied to the same state object. */
  update(state: SessionViewState, touched: Iterable<string>): void {
    if (this.state !== state) return this.reset(state);
    const touchedSet = touched instanceof Set ? (touched as Set<string>) : new Set(touched);
    this.keepReadTasksOpen(state, touchedSet);
    // The rows in view update as they are placed (renderPass): O(rows in view), not O(rows).
    this.touched = touchedSet;
    this.relayout();
    this.touched = NONE;
    if (!this.following && !this.scroll.arrivedBelow) this.noteArrivals(touchedSet);
  }

  /** Whether a changed node's row is below the view (the user, scrolled up, has something new to jump to). */
  private noteArrivals(touched: ReadonlySet<string>): void {
    const last = this.layout.indexAt(this.scroll.offset + this.scroll.viewport);
    let looked = 0;
    for (const id of touched) {
      if (this.list.indexOf(id) > last) {
        this.scroll.arrivedBelow = true;
        // The render has told the jump button already: tell it again.
        this.onRender();
        return;
      }
      // A burst touches thousands of calls; the first few hundred tell.
      if (++looked > 500) return;
    }
  }

  /** Rows arrived below the view since the user scrolled away from the end. */
  get arrivedBelow(): boolean {
    return this.scroll.arrivedBelow;
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
      const inView = this.window.rows().some((row) => row.key === id || this.isInside(row, id));
      if (inView) this.expansion.setChoice(id, true);
    }
  }

  /** Whether `row` is under the row `ancestor` (walking its parents). */
  private isInside(row: FlatRow, ancestor: string): boolean {
    for (let i = row.parentIndex, guard = 0; i >= 0 && guard < 64; guard++) {
      const parent = this.list.at(i);
      if (!parent) return false;
      if (parent.key === ancestor) return true;
      i = parent.parentIndex;
    }
    return false;
  }

  /** Refreshes the elapsed time of running tasks in view (called once a second). */
  tick(now: number): void {
    this.window.tick(now);
  }

  get rowCount(): number {
    return this.list.length;
  }

  rowAtIndex(i: number): FlatRow | undefined {
    return this.list.at(i);
  }

  indexOf(key: string): number {
    return this.list.indexOf(key);
  }

  rowAt(key: string): FlatRow | undefined {
    const i = this.list.indexOf(key);
    return i < 0 ? undefined : this.list.at(i);
  }

  get viewState(): SessionViewState | null {
    return this.state;
  }

  /** The element of a row in view. */
  elementOf(key: string): HTMLElement | undefined {
    return this.window.elementOf(key);
  }

  /** The rows in the DOM now, in list order. */
  mountedRows(): FlatRow[] {
    return this.window.rows();
  }

  /** The rows in view and their places, in list order (for the pinned header). */
  visibleItems(): readonly VisibleItem[] {
    return this.window.items;
  }

  /** The list's visible height (no layout once observed). */
  get viewportHeight(): number {
    return this.scroll.viewport;
  }

  /** Where the list is scrolled to, as the renderer placed it (no layout). */
  get scrollOffset(): number {
    return this.scroll.offset;
  }

  startAt(i: number): number | undefined {
    return i >= 0 && i < this.list.length ? this.layout.offsetOf(i) : undefined;
  }

  /** Opens or closes a row as the user asked (saved), and redraws. */
  setOpen(key: string, open: boolean): void {
    const row = this.rowAt(key);
    if (!row?.expandable || row.expanded === open) return;
    // Opening a long task's earlier calls is looking back: the fold row stays where it is, the end is not followed.
    if (open && row.kind === 'fold') this.scroll.following = false;
    this.expansion.setChoice(key, open);
    this.relayout();
  }

  toggle(key: string): void {
    const row = this.rowAt(key);
    if (row) this.setOpen(key, !row.expanded);
  }

  /** Enter on a row: its own action (Open diff), else it toggles. */
  enter(key: string): void {
    if (this.window.viewOf(key)?.enter?.()) return;
    this.toggle(key);
  }

  /** Brings row `i` into view (and renders it). */
  scrollToIndex(i: number, align: 'auto' | 'center' | 'start' | 'end' = 'auto'): void {
    if (i < 0 || i >= this.list.length) return;
    this.scroll.following = false;
    const start = this.layout.offsetOf(i);
    const size = this.layout.sizeOf(i);
    const view = this.scroll.viewport;
    const top = this.scroll.offset;
    let to = top;
    if (align === 'start' || (align === 'auto' && start < top)) to = start;
    else if (align === 'end' || (align === 'auto' && start + size > top + view)) to = start + size - view;
    else if (align === 'center') to = start + size / 2 - view / 2;
    this.scroll.scrollTo(Math.min(Math.max(0, to), this.scroll.max));
    this.render();
  }

  /** Back to the newest row, following again. */
  jumpToLatest(): void {
    this.scroll.following = true;
    this.render();
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
    // A long task's first calls are folded (flat-rows.ts foldedCount): open the folds around the node too.
    const folds = this.list.foldsAround(nodeId).filter((key) => !this.rowAt(key)?.expanded);
    if (folds.length > 0) {
      for (const key of folds) this.expansion.setChoice(key, true);
      this.relayout();
    }
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

  /** The rows again (the state or open state changed), then a render. */
  relayout(): void {
    this.list = this.buildList();
    this.layout.build(this.list);
    this.now = Date.now();
    this.render();
  }

  private buildList(): FlatList {
    const state = this.state;
    if (!state || !this.indexes) return FlatList.empty;
    const filter = this.filter;
    if (filter) return FlatList.fromRows(filteredRows(state, (node) => nodeMatches(node, filter), this.isOpen));
    return FlatList.build(this.indexes, this.isOpen, this.expansion.openKeys());
  }

  /** Shows only what matches (null: everything again); returns how many calls and tasks match. */
  setFilter(filter: RowFilter | null): number {
    this.filter = filter;
    this.scroll.following = filter === null && this.scroll.following;
    if (filter) this.scroll.scrollTo(0);
    this.relayout();
    const state = this.state;
    if (!filter || !state) return 0;
    let count = 0;
    for (let i = 0; i < this.list.length; i++) {
      const row = this.list.at(i) as FlatRow;
      const node = state.nodes[row.nodeId];
      if (row.kind !== 'detail' && node !== undefined && nodeMatches(node, filter)) count++;
    }
    return count;
  }

  /** Focuses the first row matching the filter after the focused one (Enter in the find box). */
  focusFirstMatch(): void {
    const filter = this.filter;
    const state = this.state;
    if (!filter || !state) return;
    const after = this.keys.focused === null ? -1 : this.indexOf(this.keys.focused);
    const n = this.list.length;
    for (let k = 1; k <= n; k++) {
      const i = (after + k) % n;
      const row = this.list.at(i) as FlatRow;
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

  /** Mounts the rows in view, drops the others, places them; re-entered when a measured height moved rows. */
  render(): void {
    if (!this.state) return;
    if (this.rendering) {
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
    const layout = this.layout;
    const top = this.scroll.target();
    this.window.show({
      state,
      list: this.list,
      first: Math.max(0, layout.indexAt(top) - OVERSCAN),
      last: Math.min(this.list.length - 1, layout.indexAt(top + this.scroll.viewport) + OVERSCAN),
      touched: this.touched,
      now: this.now,
      focusKey: (keys) => this.keys.focusKey(keys),
      revealedKey: this.revealedKey,
    });
    const height = `${layout.total}px`;
    if (this.root.style.height !== height) this.root.style.height = height;
    // Last: the one layout this write needs sees every row already placed.
    this.scroll.flush();
  }

  /** A row's measured height moved the rows after it (`anchor`: what the rows above the view added). */
  private resized(anchor: number): void {
    this.layout.build(this.list);
    if (anchor !== 0) this.scroll.scrollTo(this.scroll.offset + anchor);
    this.render();
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
