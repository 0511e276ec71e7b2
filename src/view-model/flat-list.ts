/**
 * The panel's rows (flat-rows.ts) held as segments, so that building them costs what the tree's shape costs,
 * not what its size costs: a task of 50,000 folded calls is one *run* segment, whose rows are made only when
 * asked for (`at`), e.g. the few dozen in view.
 *
 *   segments   [task row][Prompt row][run: children 0‥4211][task row (nested)][…its rows…][run: 4213‥49999][Result row]
 *   folded     [task row][Prompt row][fold row "49,990 earlier calls"][run: children 49990‥49999][Result row]
 *              (flat-rows.ts foldedCount: a long task's first children go under one row, open on demand)
 *   a run      consecutive leaf children of one container (folded calls, thinking and compaction rows): one
 *              22 px row each, same level and parent, posInSet = posBase + position
 *
 * Containers (the conversation's items, each task's children) only grow at their end, so what a build needs
 * to know of them (which children break a run: nested tasks, blocks; where each child sits) is kept per
 * container and extended with the new children only (`ContainerIndex`). A build is then O(tasks + opened
 * rows + segments + new children); `at(i)` and `indexOf(key)` are O(log segments).
 */
import { foldedCount, outcomeText, taskOpenByDefault, type FlatKind, type FlatRow, type IsOpen } from './flat-rows';
import type { SessionViewState, TaskNode, ViewNode } from './types';

interface Run {
  readonly ids: readonly string[];
  /** The position in `ids` of the run's first row. */
  readonly from: number;
  readonly level: number;
  readonly parent: string | null;
  readonly parentIndex: number;
  readonly setSize: number;
  /** posInSet of the child at position p is posBase + p. */
  readonly posBase: number;
}

export type Segment = { readonly start: number; readonly count: number } & ({ readonly row: FlatRow; readonly run?: undefined } | { readonly run: Run; readonly row?: undefined });

const BLOCK_KIND: Partial<Record<ViewNode['kind'], FlatKind>> = { user: 'user', text: 'text', notice: 'notice', compaction: 'compaction-block' };
const LEAF_KIND: Partial<Record<ViewNode['kind'], FlatKind>> = { tool: 'tool', thinking: 'thinking', compaction: 'compaction' };

/**
 * A leaf: one fixed-height row that never has rows of its own but its detail (calls, thinking; compaction rows
 * in a task). Told by the id, whose prefix names the kind (types.ts: `tool:`, `thinking:`, `compaction:`): a
 * 50,000-call snapshot is scanned without a lookup per child.
 */
function isLeafId(id: string, top: boolean): boolean {
  return id.startsWith('tool:') || id.startsWith('thinking:') || (!top && id.startsWith('compaction:'));
}

function expandable(node: ViewNode | undefined): boolean {
  return node?.kind === 'tool' || (node?.kind === 'thinking' && node.text.trim() !== '');
}

/** What a build needs to know of one container, extended as children are added (they are never removed or moved). */
class ContainerIndex {
  private scanned = 0;
  private positions: Map<string, number> | null = null;
  /** Positions of the children that break a run (nested tasks, conversation blocks), ascending. */
  readonly breaks: number[] = [];

  constructor(readonly ids: readonly string[], private readonly top: boolean) {}

  extend(): this {
    const ids = this.ids;
    for (let i = this.scanned; i < ids.length; i++) if (!isLeafId(ids[i] as string, this.top)) this.breaks.push(i);
    this.scanned = ids.length;
    return this;
  }

  /** Where a child sits (made on first use: most builds never ask). */
  position(id: string): number | undefined {
    const ids = this.ids;
    const map = (this.positions ??= new Map());
    for (let i = map.size; i < ids.length; i++) map.set(ids[i] as string, i);
    return map.get(id);
  }
}

/** Container indexes of one session view state, kept across builds (the renderer keeps one per state). */
export class ContainerIndexes {
  private readonly byKey = new Map<string, ContainerIndex>();

  constructor(readonly state: SessionViewState) {}

  /** The index of the conversation (key '') or of a task's children, brought up to date. */
  of(key: string, ids: readonly string[]): ContainerIndex {
    let index = this.byKey.get(key);
    // A container's array is replaced only by a new state (a snapshot), which comes with new indexes.
    if (!index || index.ids !== ids) {
      index = new ContainerIndex(ids, key === '');
      this.byKey.set(key, index);
    }
    return index.extend();
  }

  /** The container a node is a child of ('' for the conversation), as the reducer placed it (store.ts placeNode). */
  containerOf(node: ViewNode): TaskNode | null {
    const agentId = node.kind === 'task' ? node.parentAgentId : 'agentId' in node ? node.agentId : null;
    const taskId = agentId === null ? null : this.state.agents[agentId]?.taskId;
    const task = taskId ? this.state.nodes[taskId] : undefined;
    return task?.kind === 'task' ? task : null;
  }
}

export class FlatList {
  private constructor(
    readonly segments: readonly Segment[],
    readonly length: number,
    private readonly singles: ReadonlyMap<string, number>,
    private readonly runsOf: ReadonlyMap<string, readonly Segment[]>,
    private readonly indexes: ContainerIndexes | null,
  ) {}

  static readonly empty = new FlatList([], 0, new Map(), new Map(), null);

  /** A list of rows made elsewhere (the filtered rows), one segment each. */
  static fromRows(rows: readonly FlatRow[]): FlatList {
    const singles = new Map<string, number>();
    const segments = rows.map((row, i) => {
      singles.set(row.key, i);
      return { start: i, count: 1, row };
    });
    return new FlatList(segments, rows.length, singles, new Map(), null);
  }

  /**
   * The rows of `indexes.state`: `isOpen` says whether a row is open; `openKeys` are the keys the user opened
   * (a call or thinking row is open only when the user opened it, so only these can split a run).
   */
  static build(indexes: ContainerIndexes, isOpen: IsOpen, openKeys: Iterable<string>): FlatList {
    const b = new Builder(indexes, isOpen, openKeys).build();
    return new FlatList(b.segments, b.n, b.singles, b.runsOf, indexes);
  }

  /** The segment holding row `i` (binary search). */
  segmentAt(i: number): number {
    const segs = this.segments;
    let lo = 0;
    let hi = segs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((segs[mid] as Segment).start <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Row `i`, made on demand for a run's rows (a new object each call). */
  at(i: number): FlatRow | undefined {
    if (i < 0 || i >= this.length) return undefined;
    const seg = this.segments[this.segmentAt(i)] as Segment;
    if (seg.row) return seg.row;
    const run = seg.run;
    const p = run.from + (i - seg.start);
    const id = run.ids[p] as string;
    const node = this.indexes?.state.nodes[id];
    return {
      key: id,
      kind: (node && LEAF_KIND[node.kind]) ?? 'tool',
      nodeId: id,
      level: run.level,
      parent: run.parent,
      parentIndex: run.parentIndex,
      setSize: run.setSize,
      posInSet: run.posBase + p,
      expandable: expandable(node),
      expanded: false,
    };
  }

  /** The kind of row `i` without making the row. */
  kindAt(i: number): FlatKind | undefined {
    if (i < 0 || i >= this.length) return undefined;
    const seg = this.segments[this.segmentAt(i)] as Segment;
    if (seg.row) return seg.row.kind;
    const node = this.indexes?.state.nodes[seg.run.ids[seg.run.from + (i - seg.start)] as string];
    return (node && LEAF_KIND[node.kind]) ?? 'tool';
  }

  indexOf(key: string): number {
    const single = this.singles.get(key);
    if (single !== undefined) return single;
    const indexes = this.indexes;
    const node = indexes?.state.nodes[key];
    if (!indexes || !node) return -1;
    const task = indexes.containerOf(node);
    const container = task ? indexes.of(task.id, task.children) : indexes.of('', indexes.state.items);
    const p = container.position(key);
    const runs = this.runsOf.get(task?.id ?? '');
    if (p === undefined || !runs) return -1;
    for (const seg of runs) {
      const run = seg.run as Run;
      if (p >= run.from && p < run.from + seg.count) return seg.start + (p - run.from);
    }
    return -1;
  }

  /**
   * The fold rows that hide a node (flat-rows.ts foldedCount), innermost first: what to open to show it (a reveal,
   * the next error). Empty when no fold hides it.
   */
  foldsAround(nodeId: string): string[] {
    const indexes = this.indexes;
    const out: string[] = [];
    let node = indexes?.state.nodes[nodeId];
    for (let guard = 0; indexes && node && guard < 64; guard++) {
      const task = indexes.containerOf(node);
      if (!task) break;
      const index = indexes.of(task.id, task.children);
      const p = index.position(node.id);
      if (p !== undefined && p < foldedCount(indexes.state, task, index.breaks)) out.push(`fold:${task.id}`);
      node = task;
    }
    return out;
  }

  /** Every row, made (tests, and callers that walk them all). */
  toArray(): FlatRow[] {
    const out: FlatRow[] = [];
    for (let i = 0; i < this.length; i++) out.push(this.at(i) as FlatRow);
    return out;
  }
}

class Builder {
  readonly segments: Segment[] = [];
  readonly singles = new Map<string, number>();
  readonly runsOf = new Map<string, Segment[]>();
  /** Per container key, the positions of children the user opened (calls, thinking rows with text). */
  private readonly opened = new Map<string, number[]>();
  n = 0;

  constructor(
    private readonly indexes: ContainerIndexes,
    private readonly isOpen: IsOpen,
    openKeys: Iterable<string>,
  ) {
    const nodes = indexes.state.nodes;
    for (const key of openKeys) {
      const node = nodes[key];
      if (!node || !expandable(node)) continue;
      const task = indexes.containerOf(node);
      const container = task ? indexes.of(task.id, task.children) : indexes.of('', indexes.state.items);
      const p = container.position(key);
      if (p === undefined) continue;
      const list = this.opened.get(task?.id ?? '') ?? [];
      list.push(p);
      this.opened.set(task?.id ?? '', list);
    }
    for (const list of this.opened.values()) list.sort((a, b) => a - b);
  }

  build(): this {
    const items = this.indexes.state.items;
    this.container('', items, 1, null, -1, items.length, 1);
    return this;
  }

  private push(key: string, kind: FlatKind, nodeId: string, level: number, parent: string | null, parentIndex: number, setSize: number, posInSet: number, canOpen: boolean, byDefault = false): FlatRow {
    const row: FlatRow = { key, kind, nodeId, level, parent, parentIndex, setSize, posInSet, expandable: canOpen, expanded: canOpen && this.isOpen(key, byDefault) };
    this.singles.set(key, this.n);
    this.segments.push({ start: this.n++, count: 1, row });
    return row;
  }

  /** A row, and its detail row under it when open. */
  private withDetail(row: FlatRow): void {
    if (row.expanded) this.push(`detail:${row.key}`, 'detail', row.nodeId, row.level + 1, row.key, this.n - 1, 1, 1, false);
  }

  /**
   * The rows of a container's children `lo`‥`hi` (all by default): runs of leaves between the children that break
   * them or are open.
   */
  private container(key: string, ids: readonly string[], level: number, parent: string | null, parentIndex: number, setSize: number, posBase: number, lo = 0, hi = ids.length): void {
    const index = this.indexes.of(key, ids);
    const breaks = mergeSorted(index.breaks, this.opened.get(key)).filter((p) => p >= lo && p < hi);
    let from = lo;
    const run = (to: number): void => {
      if (to <= from) return;
      const seg: Segment = { start: this.n, count: to - from, run: { ids, from, level, parent, parentIndex, setSize, posBase } };
      this.segments.push(seg);
      const runs = this.runsOf.get(key) ?? [];
      runs.push(seg);
      this.runsOf.set(key, runs);
      this.n += to - from;
    };
    for (const p of breaks) {
      run(p);
      this.child(key === '', ids[p] as string, level, parent, parentIndex, setSize, posBase + p);
      from = p + 1;
    }
    run(hi);
  }

  private child(top: boolean, id: string, level: number, parent: string | null, parentIndex: number, setSize: number, posInSet: number): void {
    const node = this.indexes.state.nodes[id];
    if (!node) return;
    const block = top ? BLOCK_KIND[node.kind] : undefined;
    if (block) {
      this.push(id, block, id, level, parent, parentIndex, setSize, posInSet, false);
    } else if (node.kind === 'task') {
      const at = this.n;
      const row = this.push(id, 'task', id, level, parent, parentIndex, setSize, posInSet, true, taskOpenByDefault(node));
      if (row.expanded) this.taskChildren(node, level + 1, at);
    } else {
      const kind = LEAF_KIND[node.kind];
      if (!kind) return;
      this.withDetail(this.push(id, kind, id, level, parent, parentIndex, setSize, posInSet, expandable(node)));
    }
  }

  /**
   * A task's Prompt row (and Message row of a resumed one), its children (a long task's first ones under its fold
   * row), its Changes rows and its Result row.
   */
  private taskChildren(task: TaskNode, level: number, taskIndex: number): void {
    const showChanges = task.changes !== undefined && task.status !== 'running';
    const outcome = outcomeText(task) !== '';
    const message = (task.segments ?? 1) > 1 && task.lastMessage ? 1 : 0;
    const id = task.id;
    const fold = foldedCount(this.indexes.state, task, this.indexes.of(id, task.children).breaks);
    const shown = task.children.length - fold + (fold > 0 ? 1 : 0);
    const size = 1 + message + shown + (showChanges ? 1 : 0) + (outcome ? 1 : 0);
    this.withDetail(this.push(`prompt:${id}`, 'prompt', id, level, id, taskIndex, size, 1, true));
    if (message) this.withDetail(this.push(`message:${id}`, 'message', id, level, id, taskIndex, size, 2, true));
    let pos = 2 + message;
    if (fold > 0) {
      const at = this.n;
      const row = this.push(`fold:${id}`, 'fold', id, level, id, taskIndex, size, pos++, true);
      row.index = fold;
      if (row.expanded) this.container(id, task.children, level + 1, row.key, at, fold, 1, 0, fold);
    }
    this.container(id, task.children, level, id, taskIndex, size, pos - fold, fold);
    let n = pos + task.children.length - fold;
    if (showChanges && task.changes) {
      const changes = task.changes;
      const count = changes.files.length + changes.commands.length;
      const at = this.n;
      const row = this.push(`changes:${id}`, 'changes', id, level, id, taskIndex, size, n++, count > 0);
      if (row.expanded) {
        const inner = count + (changes.commands.length > 0 ? 1 : 0);
        const sub = (key: string, kind: FlatKind, i: number, index?: number): void => {
          const r = this.push(key, kind, id, level + 1, row.key, at, inner, i + 1, false);
          if (index !== undefined) r.index = index;
        };
        changes.files.forEach((_, i) => sub(`${row.key}#f${i}`, 'change-file', i, i));
        changes.commands.forEach((_, i) => sub(`${row.key}#c${i}`, 'change-command', changes.files.length + i, i));
        if (changes.commands.length > 0) sub(`${row.key}#note`, 'change-note', count);
      }
    }
    if (outcome) this.withDetail(this.push(`outcome:${id}`, 'outcome', id, level, id, taskIndex, size, n, true));
  }
}

/** The union of two ascending lists, ascending, without repeats. */
function mergeSorted(a: readonly number[], b: readonly number[] | undefined): readonly number[] {
  if (!b || b.length === 0) return a;
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = i < a.length ? (a[i] as number) : Infinity;
    const y = j < b.length ? (b[j] as number) : Infinity;
    const v = Math.min(x, y);
    if (out[out.length - 1] !== v) out.push(v);
    if (x === v) i++;
    if (y === v) j++;
  }
  return out;
}
