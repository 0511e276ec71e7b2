/**
 * The finished calls of a packed snapshot (snapshot-codec.ts), made into nodes when they are first asked for.
 * A 50,000-call session opens with the few dozen calls in view: making all 50,000 objects up front (and the
 * garbage collections that copy them) was most of what a snapshot cost before it was painted.
 *
 *   state.nodes  a Proxy over a plain record: the whole nodes are in it from the start; a finished call's
 *                id that is not in it yet is made from its table row on `get`, `in` answers from the table,
 *                and listing the keys (Object.keys/values/entries, for…in, JSON) makes every row first, in
 *                the snapshot's node order. Writes go to the record as on any object.
 */
import type { ToolCallNode, ViewNode } from './types';

type Change = NonNullable<ToolCallNode['change']>;

/** What a table row needs from the packed document (see snapshot-codec.ts `Packed`). */
export interface TableSource {
  shapes: { node: ToolCallNode; paths: 'none' | 'summary' | 'listed'; duration?: true; change?: true }[];
  rows: { id: string[]; summary: string[]; shape: number[]; start: number[] };
  paths: string[][];
  durations: number[];
  changes: Change[];
}

export class CallTable {
  /** Rows by id, filled from the last row up as ids are looked for (a view that follows the end asks for the last). */
  private readonly rowOf = new Map<string, number>();
  /** Rows below this one are in `rowOf`. */
  private unindexed: number;
  private readonly started: Float64Array;
  /** Per row: its entry in `paths`, `durations`, `changes` (-1: none). */
  private readonly listed: Int32Array;
  private readonly timed: Int32Array;
  private readonly changed: Int32Array;

  constructor(private readonly src: TableSource) {
    const { rows, shapes } = src;
    const n = rows.id.length;
    this.unindexed = n;
    this.started = new Float64Array(n);
    this.listed = new Int32Array(n).fill(-1);
    this.timed = new Int32Array(n).fill(-1);
    this.changed = new Int32Array(n).fill(-1);
    let start = 0;
    let listed = 0;
    let timed = 0;
    let changed = 0;
    for (let row = 0; row < n; row++) {
      const shape = shapes[rows.shape[row] as number];
      if (!shape) throw new Error(`decodeSnapshot: row ${row} names shape ${rows.shape[row]}, of ${shapes.length}`);
      start += rows.start[row] as number;
      this.started[row] = start;
      if (shape.paths === 'listed') this.listed[row] = listed++;
      if (shape.duration) this.timed[row] = timed++;
      if (shape.change) this.changed[row] = changed++;
    }
    if (listed !== src.paths.length || timed !== src.durations.length || changed !== src.changes.length) {
      throw new Error('decodeSnapshot: the table and its lists do not add up (a corrupt or truncated text)');
    }
  }

  has(id: string): boolean {
    return this.rowOfId(id) !== undefined;
  }

  /**
   * The row of `id`. Indexing 50,000 ids up front cost 20 ms before the first paint: the index grows from the end
   * as far as a lookup needs (an id not in the table indexes every row, once).
   */
  private rowOfId(id: string): number | undefined {
    // Every row's id is `tool:` + its toolUseId (the encoder checks): other keys (`prompt:…`, toJSON) are not looked for.
    if (!id.startsWith('tool:')) return undefined;
    const hit = this.rowOf.get(id);
    if (hit !== undefined || this.unindexed === 0) return hit;
    const ids = this.src.rows.id;
    while (this.unindexed > 0) {
      const row = --this.unindexed;
      const at = ids[row] as string;
      this.rowOf.set(at, row);
      if (at === id) return row;
    }
    return undefined;
  }

  /** The node of the row of `id` (a new object), if the table has one. */
  make(id: string): ToolCallNode | undefined {
    const row = this.rowOfId(id);
    if (row === undefined) return undefined;
    const { rows, shapes } = this.src;
    const shape = shapes[rows.shape[row] as number] as TableSource['shapes'][number];
    const summary = rows.summary[row] as string;
    // A copy of the shape's template, then the row's own values: the nodes of a shape share one hidden class.
    const node: ToolCallNode = { ...shape.node };
    node.id = id;
    node.toolUseId = id.slice(5);
    node.summary = summary;
    node.paths = shape.paths === 'none' ? [] : shape.paths === 'summary' ? [summary] : (this.src.paths[this.listed[row] as number] as string[]);
    node.startedAt = this.started[row] as number;
    if (shape.duration) node.durationMs = this.src.durations[this.timed[row] as number] as number;
    if (shape.change) node.change = this.src.changes[this.changed[row] as number] as Change;
    return node;
  }

  /**
   * `record` (the whole nodes) as the state's `nodes`, the table's calls made on first use. `order` lists every
   * id of the snapshot in its order: listing the keys puts them in it (the nodes added since, after them).
   */
  nodes(record: Record<string, ViewNode>, order: () => string[]): Record<string, ViewNode> {
    let complete = false;
    const fill = (t: Record<string, ViewNode>, id: string): ViewNode | undefined => {
      const node = this.make(id);
      if (node) t[id] = node;
      return node;
    };
    const fillAll = (t: Record<string, ViewNode>): void => {
      if (complete) return;
      complete = true;
      const after = Object.keys(t);
      const ordered: [string, ViewNode][] = [];
      const seen = new Set<string>();
      for (const id of order()) {
        const node = Object.hasOwn(t, id) ? t[id] : this.make(id);
        if (node) ordered.push([id, node]);
        seen.add(id);
      }
      for (const id of after) if (!seen.has(id)) ordered.push([id, t[id] as ViewNode]);
      for (const id of after) Reflect.deleteProperty(t, id);
      for (const [id, node] of ordered) t[id] = node;
    };
    return new Proxy(record, {
      get: (t, key, receiver) => {
        const value: unknown = Reflect.get(t, key, receiver);
        return value !== undefined || typeof key !== 'string' || complete ? value : fill(t, key);
      },
      has: (t, key) => Reflect.has(t, key) || (typeof key === 'string' && !complete && this.has(key)),
      ownKeys: (t) => {
        fillAll(t);
        return Reflect.ownKeys(t);
      },
      getOwnPropertyDescriptor: (t, key) => {
        if (typeof key === 'string' && !complete && !Object.hasOwn(t, key)) fill(t, key);
        return Reflect.getOwnPropertyDescriptor(t, key);
      },
    });
  }
}
