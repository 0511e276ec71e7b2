/**
 * Line diffs for the change manifest (added/removed counts) and for revert refusals (a unified diff).
 *
 *   old ─┐ common prefix/suffix trimmed ─▶ Myers O(ND) on the middle ─▶ edit script ─▶ counts │ hunks
 *   new ─┘                                 (past MAX_D edits: every middle line counted as removed + added)
 *
 * The fallback keeps a rewrite of a huge file cheap; its counts are then an upper bound, never a guess low.
 */

type Op = { kind: ' ' | '-' | '+'; line: string };

/** Beyond this many line edits the middle is not diffed line by line (time and memory grow with D²). */
const MAX_D = 1000;

/** Lines of text; a final newline does not make an empty last line. */
export function textLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function diffCounts(before: string, after: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const op of diffLines(textLines(before), textLines(after))) {
    if (op.kind === '+') added++;
    else if (op.kind === '-') removed++;
  }
  return { added, removed };
}

/** Most hunk lines a `file_changed` event carries (the panel's inline diff); past it, the diff editor. */
const CHANGE_DIFF_LINES = 120;
/** Longest hunk line kept (a minified file's one line would otherwise fill the event). */
const CHANGE_DIFF_LINE_CHARS = 400;

/**
 * One diff for a change: its line counts and its hunks ("@@ …" headers and " ", "-", "+" lines, 3 lines of
 * context, no file headers), cut after `maxLines` lines with a last "… N more diff lines" line.
 */
export function changeDiff(before: string, after: string, maxLines = CHANGE_DIFF_LINES): { added: number; removed: number; hunks: string } {
  const ops = diffLines(textLines(before), textLines(after));
  let added = 0;
  let removed = 0;
  for (const op of ops) {
    if (op.kind === '+') added++;
    else if (op.kind === '-') removed++;
  }
  const lines = toHunks(ops, 3).flat();
  const kept = lines.slice(0, maxLines).map((l) => (l.length > CHANGE_DIFF_LINE_CHARS ? `${l.slice(0, CHANGE_DIFF_LINE_CHARS)}…` : l));
  if (lines.length > maxLines) kept.push(`… ${lines.length - maxLines} more diff lines`);
  return { added, removed, hunks: kept.join('\n') };
}

/** A unified diff (3 lines of context), cut after `maxLines` lines; empty when the texts have the same lines. */
export function unifiedDiff(before: string, after: string, labels: { from: string; to: string }, maxLines = 200): string {
  const ops = diffLines(textLines(before), textLines(after));
  const hunks = toHunks(ops, 3);
  if (hunks.length === 0) return '';
  const out = [`--- ${labels.from}`, `+++ ${labels.to}`, ...hunks.flat()];
  if (out.length <= maxLines) return out.join('\n');
  return [...out.slice(0, maxLines), `… ${out.length - maxLines} more diff lines`].join('\n');
}

function diffLines(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const same = (from: number, to: number): Op[] => a.slice(from, to).map((line) => ({ kind: ' ', line }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const middle = myers(midA, midB) ?? [...midA.map((line): Op => ({ kind: '-', line })), ...midB.map((line): Op => ({ kind: '+', line }))];
  return [...same(0, start), ...middle, ...same(endA, a.length)];
}

/** Myers' shortest edit script, or undefined past MAX_D edits. `trace[d]` holds x for k in [-d, d] at index k + d. */
function myers(a: string[], b: string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const trace: Int32Array[] = [];
  const at = (d: number, k: number): number => (trace[d] as Int32Array)[k + d] as number;
  for (let d = 0; d <= Math.min(MAX_D, n + m); d++) {
    const row = new Int32Array(2 * d + 1);
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (d === 0) x = 0;
      else if (k === -d || (k !== d && at(d - 1, k - 1) < at(d - 1, k + 1))) x = at(d - 1, k + 1);
      else x = at(d - 1, k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      row[k + d] = x;
      if (x >= n && y >= m) {
        trace.push(row);
        return backtrack(trace, a, b);
      }
    }
    trace.push(row);
  }
  return undefined;
}

function backtrack(trace: Int32Array[], a: string[], b: string[]): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  const at = (d: number, k: number): number => (trace[d] as Int32Array)[k + d] as number;
  for (let d = trace.length - 1; d > 0; d--) {
    const k = x - y;
    const down = k === -d || (k !== d && at(d - 1, k - 1) < at(d - 1, k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(d - 1, prevK);
    const prevY = prevX - prevK;
    for (; x > prevX && y > prevY; y--) ops.push({ kind: ' ', line: a[--x] as string });
    if (down) ops.push({ kind: '+', line: b[--y] as string });
    else ops.push({ kind: '-', line: a[--x] as string });
  }
  for (; x > 0 && y > 0; y--) ops.push({ kind: ' ', line: a[--x] as string });
  return ops.reverse();
}

/** Groups an edit script into unified-diff hunks, each a header line and its lines. */
function toHunks(ops: Op[], context: number): string[][] {
  const changed = ops.map((op, i) => (op.kind === ' ' ? -1 : i)).filter((i) => i >= 0);
  if (changed.length === 0) return [];
  const hunks: string[][] = [];
  let i = 0;
  // Line numbers: the old and new lines before the hunk, counted on from the last hunk (one pass in all).
  let counted = 0;
  let oldLine = 1;
  let newLine = 1;
  while (i < changed.length) {
    const from = Math.max(0, (changed[i] as number) - context);
    let last = changed[i] as number;
    while (i + 1 < changed.length && (changed[i + 1] as number) - last <= 2 * context) last = changed[++i] as number;
    i++;
    const to = Math.min(ops.length, last + context + 1);
    for (; counted < from; counted++) {
      const op = ops[counted] as Op;
      if (op.kind !== '+') oldLine++;
      if (op.kind !== '-') newLine++;
    }
    const body = ops.slice(from, to);
    const oldCount = body.filter((op) => op.kind !== '+').length;
    const newCount = body.filter((op) => op.kind !== '-').length;
    hunks.push([`@@ -${oldCount ? oldLine : oldLine - 1},${oldCount} +${newCount ? newLine : newLine - 1},${newCount} @@`, ...body.map((op) => `${op.kind}${op.line}`)]);
  }
  return hunks;
}
