/**
 * The rows of the list that are in the DOM: those between two indexes (the view and its overscan), each
 * placed at its offset. Rows that left hand their elements to the rows that came (row-pool.ts); rows that are
 * not one line tall are watched by a ResizeObserver, whose reports (after layout, before paint) move the rows
 * after them in the same frame.
 *
 *   show(first, last) ─ release the rows outside ─ mount or update the rows inside ─ place ─ drain the pool
 */
import type { FlatList } from '../src/view-model/flat-list';
import type { FlatRow } from '../src/view-model/flat-rows';
import type { SessionViewState, TextNode } from '../src/view-model/session-view';
import { TextBlock } from './message-view';
import type { DetailActions } from './row-detail';
import { FIXED, type RowLayout } from './row-layout';
import { placeRow, RowPool } from './row-pool';
import { createRowView, poolKeyOf, type RowView } from './row-views';

interface Mounted {
  view: RowView;
  row: FlatRow;
  index: number;
}

/** A row in view and where it sits (the pinned header reads these). */
export interface VisibleItem {
  index: number;
  start: number;
  end: number;
}

/** What one `show` draws. */
export interface Frame {
  state: SessionViewState;
  list: FlatList;
  first: number;
  last: number;
  /** Nodes changed since the last frame: their rows in view update. */
  touched: ReadonlySet<string>;
  now: number;
  /** The row in the Tab order among these keys (roving focus). */
  focusKey(keys: string[]): string | undefined;
  revealedKey: string | null;
}

export class RowWindow {
  private readonly mounted = new Map<string, Mounted>();
  /** The main agent's text blocks outlive their rows (streamed markdown re-renders only what changed). */
  private readonly texts = new Map<string, TextBlock>();
  private readonly pool: RowPool;
  private readonly sizes: ResizeObserver;
  items: readonly VisibleItem[] = [];

  constructor(
    private readonly root: HTMLElement,
    private readonly layout: RowLayout,
    private readonly actions: DetailActions,
    /** A measured height changed the offsets (`anchor`: how much the rows above the view grew). */
    private readonly resized: (anchor: number) => void,
    /** Whether a row above the view that changes height should keep the view where it is. */
    private readonly anchored: () => number | null,
  ) {
    this.pool = new RowPool(root);
    this.sizes = new ResizeObserver((entries) => this.onResize(entries));
  }

  /** A new session: nothing kept. */
  clear(): void {
    for (const { view } of this.mounted.values()) view.element.remove();
    this.mounted.clear();
    this.texts.clear();
    this.sizes.disconnect();
  }

  elementOf(key: string): HTMLElement | undefined {
    return this.mounted.get(key)?.view.element;
  }

  viewOf(key: string): RowView | undefined {
    return this.mounted.get(key)?.view;
  }

  /** The rows in the DOM, in list order. */
  rows(): FlatRow[] {
    return this.inOrder().map((m) => m.row);
  }

  tick(now: number): void {
    for (const { view } of this.mounted.values()) view.tick?.(now);
  }

  show(f: Frame): void {
    const rows: FlatRow[] = [];
    const keep = new Set<string>();
    for (let i = f.first; i <= f.last; i++) {
      const row = f.list.at(i);
      if (!row) continue;
      rows.push(row);
      keep.add(row.key);
    }
    for (const [key, mounted] of this.mounted) {
      if (!keep.has(key)) this.release(key, mounted);
    }
    const focusKey = f.focusKey(rows.map((r) => r.key));
    const items: VisibleItem[] = [];
    let placed = false;
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k] as FlatRow;
      const index = f.first + k;
      let mounted = this.mounted.get(row.key);
      if (!mounted) {
        mounted = { view: this.mount(row, f.state), row, index };
        this.mounted.set(row.key, mounted);
        placed = true;
      } else {
        const old = mounted.row;
        mounted.row = row;
        mounted.index = index;
        if (old.expanded !== row.expanded || f.touched.has(row.nodeId)) mounted.view.update(f.state, row, f.now);
      }
      const start = this.layout.offsetOf(index);
      placeRow(mounted.view.element, row, index, start, row.key === focusKey, row.key === f.revealedKey);
      items.push({ index, start, end: start + this.layout.sizeOf(index) });
    }
    this.pool.drain();
    this.items = items;
    if (placed) this.pool.settle(() => this.inOrder().map((m) => m.view.element));
  }

  private inOrder(): Mounted[] {
    return [...this.mounted.values()].sort((a, b) => a.index - b.index);
  }

  private release(key: string, mounted: Mounted): void {
    this.mounted.delete(key);
    const element = mounted.view.element;
    if (!FIXED.has(mounted.row.kind)) this.sizes.unobserve(element);
    if (element.contains(document.activeElement)) {
      // The focused row scrolled out: keep focus in the list (on the container) rather than losing it to the body.
      this.root.focus({ preventScroll: true });
      element.remove();
    } else {
      this.pool.release(mounted.view);
    }
  }

  /** A view for a row coming into view: an element of the pool filled again, else a new one. */
  private mount(row: FlatRow, state: SessionViewState): RowView {
    const pooled = this.pool.take(poolKeyOf(row, state));
    if (pooled?.rebind) {
      pooled.rebind(row, state);
      return pooled;
    }
    const view = createRowView(row, state, { actions: this.actions, textBlock: this.textBlock });
    this.pool.attach(view);
    if (!FIXED.has(row.kind)) this.sizes.observe(view.element);
    return view;
  }

  private textBlock = (node: TextNode): TextBlock => {
    let block = this.texts.get(node.id);
    if (!block) {
      block = new TextBlock(node);
      this.texts.set(node.id, block);
    }
    return block;
  };

  /** Heights of rows that are not one line (first laid out, or grown): the offsets after them move. */
  private onResize(entries: ResizeObserverEntry[]): void {
    let moved = false;
    let anchor = 0;
    const top = this.anchored();
    for (const entry of entries) {
      const key = (entry.target as HTMLElement).dataset.id;
      const mounted = key === undefined ? undefined : this.mounted.get(key);
      if (!mounted || mounted.view.element !== entry.target) continue;
      const height = entry.borderBoxSize[0]?.blockSize ?? (entry.target as HTMLElement).offsetHeight;
      const before = this.layout.sizeOf(mounted.index);
      if (!this.layout.measure(mounted.row.key, mounted.row.kind, height)) continue;
      moved = true;
      // A row above the top grew or shrank: the rows in view keep their place on the screen.
      if (top !== null && this.layout.offsetOf(mounted.index) < top) anchor += height - before;
    }
    if (moved) this.resized(anchor);
  }
}
