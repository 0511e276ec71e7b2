/**
 * Where each row of the list (flat-list.ts) sits, in pixels, computed per segment: a run of one-line rows is
 * count × ROW_HEIGHT, any other row has its measured height (else an estimate by kind). So the list's height,
 * a row's offset and the row at an offset cost O(log segments), whatever the number of rows; a build is one
 * pass over the segments (a typed array of their starts), which a burst of new calls redoes each frame.
 *
 *   starts[s]   pixel offset of segment s (starts[S] = end of the last one)
 *   offsetOf(i) starts[s] + (i − s.start) × ROW_HEIGHT inside a run
 */
import type { FlatKind } from '../src/view-model/flat-rows';
import type { FlatList, Segment } from '../src/view-model/flat-list';

/** One-line rows are exactly this tall (styles.ts fixes it): placed without measuring. */
const ROW_HEIGHT = 22;
/** Kinds always ROW_HEIGHT tall; the others are measured once they are in the DOM. */
export const FIXED: ReadonlySet<FlatKind> = new Set(['tool', 'prompt', 'message', 'outcome', 'thinking', 'compaction', 'changes', 'change-file', 'change-command', 'change-note', 'fold']);
const ESTIMATE: Partial<Record<FlatKind, number>> = { task: 44, user: 56, text: 60, notice: 30, 'compaction-block': 30, detail: 160 };
const PAD_START = 6;
const PAD_END = 10;

export class RowLayout {
  private list: FlatList | null = null;
  private starts = new Float64Array(1);
  /** Measured heights of rows that are not FIXED, by row key (kept while the session is shown). */
  readonly measured = new Map<string, number>();

  /** Offsets for a new list (or the same one after a measured height changed). */
  build(list: FlatList): void {
    this.list = list;
    const segs = list.segments;
    if (this.starts.length < segs.length + 1) this.starts = new Float64Array(Math.max(segs.length + 1, this.starts.length * 2));
    let y = PAD_START;
    for (let s = 0; s < segs.length; s++) {
      this.starts[s] = y;
      y += this.segmentHeight(segs[s] as Segment);
    }
    this.starts[segs.length] = y;
  }

  private segmentHeight(seg: Segment): number {
    if (seg.run) return seg.count * ROW_HEIGHT;
    return this.rowHeight(seg.row.key, seg.row.kind);
  }

  private rowHeight(key: string, kind: FlatKind): number {
    if (FIXED.has(kind)) return ROW_HEIGHT;
    return this.measured.get(key) ?? ESTIMATE[kind] ?? ROW_HEIGHT;
  }

  get total(): number {
    return (this.list ? (this.starts[this.list.segments.length] as number) : PAD_START) + PAD_END;
  }

  offsetOf(i: number): number {
    const list = this.list;
    if (!list || list.length === 0) return PAD_START;
    const clamped = Math.max(0, Math.min(list.length - 1, i));
    const s = list.segmentAt(clamped);
    const seg = list.segments[s] as Segment;
    return (this.starts[s] as number) + (seg.run ? (clamped - seg.start) * ROW_HEIGHT : 0);
  }

  sizeOf(i: number): number {
    const list = this.list;
    if (!list || i < 0 || i >= list.length) return 0;
    const seg = list.segments[list.segmentAt(i)] as Segment;
    return seg.run ? ROW_HEIGHT : this.rowHeight(seg.row.key, seg.row.kind);
  }

  /** The row at pixel offset `y` (the first or last row beyond the ends). */
  indexAt(y: number): number {
    const list = this.list;
    if (!list || list.length === 0) return 0;
    const segs = list.segments;
    let lo = 0;
    let hi = segs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= y) lo = mid;
      else hi = mid - 1;
    }
    const seg = segs[lo] as Segment;
    if (!seg.run) return seg.start;
    const k = Math.floor((y - (this.starts[lo] as number)) / ROW_HEIGHT);
    return seg.start + Math.max(0, Math.min(seg.count - 1, k));
  }

  /** Records a row's measured height; true when it changed (the offsets then need a build). */
  measure(key: string, kind: FlatKind, height: number): boolean {
    if (FIXED.has(kind) || height <= 0) return false;
    const old = this.measured.get(key);
    if (old !== undefined && Math.abs(old - height) < 0.5) return false;
    this.measured.set(key, height);
    return old !== undefined || Math.abs((ESTIMATE[kind] ?? ROW_HEIGHT) - height) >= 0.5;
  }
}
