/**
 * The snapshot the editor posts to the panel, packed: the text of `slimSnapshot(state)` (slim-snapshot.ts) in a
 * form that is cheap to decode. A session's bulk is its finished calls, and as plain JSON each one repeats every key
 * and its agent, name and status (~300 bytes a call: a 50,000-call snapshot was 15 MB and `JSON.parse` took
 * 100–200 ms in the webview). Here they are a table: a few columns of strings and small numbers, plus one "shape"
 * per distinct (agent, name, kind, status, permission…) that many calls share; what follows from other fields (a
 * call's `kind`, its `toolUseId` from its id, `[summary]` as its paths) is not written at all. Everything else (the conversation, agents, totals, running calls,
 * every other node) stays plain JSON in the same document. Still one string: a string posts with one copy.
 * Figures: docs/benchmarks.md (the panel's snapshot).
 */
import { CallTable } from './call-table';
import { slimChange, slimTool } from './slim-snapshot';
import { isOpenCall, type SessionViewState, type TaskNode, type ToolCallNode, type ViewNode } from './types';

/** Bumped on any change of the layout below; `decodeSnapshot` refuses every other. */
const FORMAT = 1;

type Change = NonNullable<ToolCallNode['change']>;

/** What many finished calls have in common: a row names its shape by index. */
interface Shape {
  agentId: string;
  name: string;
  toolKind?: ToolCallNode['toolKind'];
  status: ToolCallNode['status'];
  permission?: ToolCallNode['permission'];
  outputTruncated?: boolean;
  /** `[]`, `[summary]` (a file tool's one path is its summary), or the row's entry of `Packed.paths`. */
  paths: 'none' | 'summary' | 'listed';
  /** The row has an entry in `Packed.durations` / `Packed.changes`. */
  duration?: true;
  change?: true;
}

/**
 * A list of node ids (the conversation, a task's children) with the ids of table rows written as row ranges: a
 * 50,000-call task's children are one `[0, 50000]`, not 50,000 strings to parse and keep twice.
 */
type PackedIds = (string | [first: number, count: number])[];

/** A node kept as it is, but a task's children packed. */
type WholeNode = Exclude<ViewNode, TaskNode> | (Omit<TaskNode, 'children'> & { children: PackedIds });

interface Packed {
  format: typeof FORMAT;
  /** The state less its nodes, with `items` packed. */
  state: Omit<SessionViewState, 'nodes' | 'items'> & { items: PackedIds };
  /** The order of `nodes`: run lengths, alternately of table rows and of whole nodes (the first run is of rows). */
  runs: number[];
  /** Nodes as they are (a task's `children` packed): every node but a finished call, and a call the table cannot hold. */
  whole: WholeNode[];
  shapes: Shape[];
  /** The table of finished calls, one entry a row; `start` is each `startedAt` less the previous row's. */
  rows: { id: string[]; summary: string[]; shape: number[]; start: number[] };
  /** Entries only for the rows whose shape says so, in row order. */
  paths: string[][];
  durations: number[];
  changes: Change[];
}

// Every field of a call and where a table row keeps it: a field added to ToolCallNode fails to compile here until
// the codec carries it (or decides the slim snapshot drops it, as slimTool must then too).
const _carried: Record<keyof ToolCallNode, string> = {
  kind: 'implied',
  id: 'rows.id',
  toolUseId: "rows.id less 'tool:'",
  agentId: 'shape',
  name: 'shape',
  summary: 'rows.summary',
  paths: 'shape, or Packed.paths',
  toolKind: 'shape',
  inputJson: "dropped: ''",
  status: 'shape',
  permission: 'shape',
  permissionReason: 'dropped',
  output: 'dropped',
  outputTruncated: 'shape',
  fullOutputPath: 'dropped',
  startedAt: 'rows.start, a delta',
  durationMs: 'Packed.durations',
  change: 'Packed.changes, without its hunks',
  detailOmitted: 'implied: true',
  refusal: 'none: a refused write is a whole node',
};

/** The text to post: decodes to a state deep-equal to `slimSnapshot(state)`. `state` is not changed. */
export function encodeSnapshot(state: SessionViewState): string {
  const { nodes, items, ...rest } = state;
  const whole: ViewNode[] = [];
  const packed: Packed = { format: FORMAT, state: { ...rest, items: [] }, runs: [], whole: [], shapes: [], rows: { id: [], summary: [], shape: [], start: [] }, paths: [], durations: [], changes: [] };
  const shapeIndex = new Map<string, number>();
  const rowOf = new Map<string, number>();
  let run = 0;
  let inTable = true;
  let lastStart = 0;
  for (const key of Object.keys(nodes)) {
    const node = nodes[key] as ViewNode;
    // A row must give back exactly this node: its id from its toolUseId, its start from the previous one's.
    const row = node.kind === 'tool' && !isOpenCall(node) && node.refusal === undefined && key === `tool:${node.toolUseId}` && node.id === key && lastStart + (node.startedAt - lastStart) === node.startedAt;
    if (row !== inTable) {
      packed.runs.push(run);
      run = 0;
      inTable = row;
    }
    run += 1;
    if (!row) {
      if (key !== node.id) throw new Error(`encodeSnapshot: node "${key}" has the id "${node.id}"`);
      whole.push(node.kind === 'tool' && !isOpenCall(node) ? slimTool(node) : node);
      continue;
    }
    const tool = node as ToolCallNode;
    const shape = shapeOf(tool);
    const shapeKey = keyOf(shape);
    let index = shapeIndex.get(shapeKey);
    if (index === undefined) {
      index = packed.shapes.push(shape) - 1;
      shapeIndex.set(shapeKey, index);
    }
    rowOf.set(key, packed.rows.id.length);
    packed.rows.id.push(key);
    packed.rows.summary.push(tool.summary);
    packed.rows.shape.push(index);
    packed.rows.start.push(tool.startedAt - lastStart);
    lastStart = tool.startedAt;
    if (shape.paths === 'listed') packed.paths.push(tool.paths);
    if (shape.duration) packed.durations.push(tool.durationMs as number);
    if (tool.change !== undefined) packed.changes.push(slimChange(tool.change));
  }
  packed.runs.push(run);
  // The id lists last: a task comes before its calls, whose rows are numbered only now.
  packed.state.items = packIds(items, rowOf);
  packed.whole = whole.map((node) => (node.kind === 'task' ? { ...node, children: packIds(node.children, rowOf) } : node));
  return JSON.stringify(packed);
}

function packIds(ids: readonly string[], rowOf: ReadonlyMap<string, number>): PackedIds {
  const out: PackedIds = [];
  let range: [number, number] | undefined;
  for (const id of ids) {
    const row = rowOf.get(id);
    if (row === undefined) {
      out.push(id);
      range = undefined;
    } else if (range && range[0] + range[1] === row) range[1] += 1;
    else out.push((range = [row, 1]));
  }
  return out;
}

function unpackIds(packed: PackedIds, rowIds: readonly string[]): string[] {
  return packed.map((entry) => (typeof entry === 'string' ? entry : rowIds.slice(entry[0], entry[0] + entry[1]))).flat();
}

/** One string per distinct shape: the two free strings length-prefixed, the rest from fixed vocabularies. */
function keyOf(s: Shape): string {
  return `${s.agentId.length}:${s.agentId}${s.name.length}:${s.name}|${s.toolKind}|${s.status}|${s.permission}|${s.outputTruncated}|${s.paths}|${s.duration}|${s.change}`;
}

function shapeOf(tool: ToolCallNode): Shape {
  const { paths, summary } = tool;
  const shape: Shape = {
    agentId: tool.agentId,
    name: tool.name,
    status: tool.status,
    paths: paths.length === 0 ? 'none' : paths.length === 1 && paths[0] === summary ? 'summary' : 'listed',
  };
  // Absent stays absent: an optional field is set on the shape only when the call has it.
  if (tool.toolKind !== undefined) shape.toolKind = tool.toolKind;
  if (tool.permission !== undefined) shape.permission = tool.permission;
  if (tool.outputTruncated !== undefined) shape.outputTruncated = tool.outputTruncated;
  if (tool.durationMs !== undefined) shape.duration = true;
  if (tool.change !== undefined) shape.change = true;
  return shape;
}

/**
 * The state `encodeSnapshot` packed (as `slimSnapshot` would give it); throws on text of another format. Its
 * finished calls become nodes when first read (call-table.ts): a 50,000-call session is drawn without making them.
 */
export function decodeSnapshot(text: string): SessionViewState {
  const packed = checked(JSON.parse(text));
  const { rows, whole, runs } = packed;
  const table = new CallTable({ ...packed, shapes: packed.shapes.map(template) });
  const record: Record<string, ViewNode> = {};
  for (const node of whole) record[node.id] = node.kind === 'task' ? { ...node, children: unpackIds(node.children, rows.id) } : node;
  let inRows = 0;
  let inWhole = 0;
  runs.forEach((n, r) => (r % 2 === 0 ? (inRows += n) : (inWhole += n)));
  if (inRows !== rows.id.length || inWhole !== whole.length) {
    throw new Error('decodeSnapshot: the runs and lists of the snapshot do not add up (a corrupt or truncated text)');
  }
  // The snapshot's node order: alternate runs of table rows and whole nodes.
  const order = (): string[] => {
    const ids: string[] = [];
    let row = 0;
    let next = 0;
    runs.forEach((n, r) => {
      for (let k = 0; k < n; k++) ids.push(r % 2 === 0 ? (rows.id[row++] as string) : (whole[next++] as WholeNode).id);
    });
    return ids;
  };
  return { ...packed.state, items: unpackIds(packed.state.items, rows.id), nodes: table.nodes(record, order) };
}

/** A shape with the node its rows start from: every field in place, those of the row with placeholders of their type. */
function template(shape: Shape): Shape & { node: ToolCallNode } {
  // Fields in the order a call's node gets them as its events come (JSON of the decoded state reads like the slim one).
  const node: Partial<ToolCallNode> = { kind: 'tool', id: '', toolUseId: '', agentId: shape.agentId, name: shape.name, summary: '', paths: [] };
  // Absent stays absent: the template has an optional field only when the shape has it.
  if (shape.toolKind !== undefined) node.toolKind = shape.toolKind;
  node.status = shape.status;
  node.startedAt = 0.5; // a double, as times are: the field is not generalized at the first row
  if (shape.permission !== undefined) node.permission = shape.permission;
  if (shape.change) node.change = { path: '' };
  if (shape.outputTruncated !== undefined) node.outputTruncated = shape.outputTruncated;
  if (shape.duration) node.durationMs = 0;
  node.inputJson = '';
  node.detailOmitted = true;
  return { ...shape, node: node as ToolCallNode };
}

/** The document's outline, checked once (not each row: that would cost what the format saves). */
function checked(doc: unknown): Packed {
  const format = (doc as { format?: unknown } | null)?.format;
  if (format !== FORMAT) throw new Error(`decodeSnapshot: a snapshot of format ${JSON.stringify(format)}, this panel reads format ${FORMAT}`);
  const p = doc as Packed;
  const arrays = [p.runs, p.whole, p.shapes, p.paths, p.durations, p.changes, p.rows?.id, p.rows?.summary, p.rows?.shape, p.rows?.start];
  if (typeof p.state !== 'object' || p.state === null || !arrays.every(Array.isArray)) throw new Error('decodeSnapshot: a snapshot without its state, runs or table');
  const n = p.rows.shape.length;
  if (p.rows.id.length !== n || p.rows.summary.length !== n || p.rows.start.length !== n) throw new Error('decodeSnapshot: the table\'s columns differ in length');
  return p;
}
