/**
 * The segment list (src/view-model/flat-list.ts) against the plain flattening it replaced (kept here as the
 * oracle): for random sessions — root calls, nested tasks, thinking and compaction rows, finished tasks with
 * changes, resumed ones — and random open/closed choices, every row, `indexOf` of every key and of keys not
 * shown, and a build extended by new events all agree. Pure (no browser).
 */
import assert from 'node:assert/strict';
import { ContainerIndexes, FlatList } from '../../src/view-model/flat-list';
import { foldedCount, outcomeText, taskOpenByDefault, type FlatKind, type FlatRow, type IsOpen } from '../../src/view-model/flat-rows';
import { applyEvents, createSessionView, type SessionViewState } from '../../src/view-model/session-view';
import type { TaskNode, ViewNode } from '../../src/view-model/types';
import { bigSession, finishedSession, ROOT, runningSession, Script } from './fixtures';

/** The flattening of one array of rows, as the panel did it before segments (the oracle). */
function oracle(state: SessionViewState, isOpen: IsOpen): FlatRow[] {
  const out: FlatRow[] = [];
  const row = (key: string, kind: FlatKind, nodeId: string, level: number, parent: string | null, parentIndex: number, setSize: number, posInSet: number, expandable: boolean): FlatRow => ({ key, kind, nodeId, level, parent, parentIndex, setSize, posInSet, expandable, expanded: false });
  const push = (r: FlatRow, byDefault = false): boolean => {
    r.expanded = r.expandable && isOpen(r.key, byDefault);
    out.push(r);
    return r.expanded;
  };
  const detail = (owner: FlatRow): void => {
    out.push(row(`detail:${owner.key}`, 'detail', owner.nodeId, owner.level + 1, owner.key, out.length - 1, 1, 1, false));
  };
  const addNode = (node: ViewNode, level: number, parent: string | null, parentIndex: number, setSize: number, pos: number): void => {
    const id = node.id;
    if (node.kind === 'tool' || node.kind === 'thinking') {
      const r = row(id, node.kind, id, level, parent, parentIndex, setSize, pos, node.kind === 'tool' || node.text.trim() !== '');
      if (push(r)) detail(r);
    } else if (node.kind === 'compaction') {
      out.push(row(id, 'compaction', id, level, parent, parentIndex, setSize, pos, false));
    } else if (node.kind === 'task') {
      const at = out.length;
      if (push(row(id, 'task', id, level, parent, parentIndex, setSize, pos, true), taskOpenByDefault(node))) addTask(node, level + 1, at);
    }
  };
  const addTask = (task: TaskNode, level: number, at: number): void => {
    const showChanges = task.changes !== undefined && task.status !== 'running';
    const outcome = outcomeText(task) !== '';
    const message = (task.segments ?? 1) > 1 && task.lastMessage ? 1 : 0;
    // A long task folds its first children into one row (flat-rows.ts foldedCount).
    const leaf = (id: string): boolean => id.startsWith('tool:') || id.startsWith('thinking:') || id.startsWith('compaction:');
    const breaks = task.children.flatMap((id, i) => (leaf(id) ? [] : [i]));
    const fold = foldedCount(state, task, breaks);
    const size = 1 + message + task.children.length - fold + (fold > 0 ? 1 : 0) + (showChanges ? 1 : 0) + (outcome ? 1 : 0);
    const prompt = row(`prompt:${task.id}`, 'prompt', task.id, level, task.id, at, size, 1, true);
    if (push(prompt)) detail(prompt);
    if (message) {
      const m = row(`message:${task.id}`, 'message', task.id, level, task.id, at, size, 2, true);
      if (push(m)) detail(m);
    }
    let pos = 2 + message;
    if (fold > 0) {
      const f = row(`fold:${task.id}`, 'fold', task.id, level, task.id, at, size, pos++, true);
      f.index = fold;
      const fAt = out.length;
      if (push(f)) {
        task.children.slice(0, fold).forEach((id, i) => {
          const child = state.nodes[id];
          if (child) addNode(child, level + 1, f.key, fAt, fold, i + 1);
        });
      }
    }
    task.children.slice(fold).forEach((id, i) => {
      const child = state.nodes[id];
      if (child) addNode(child, level, task.id, at, size, pos + i);
    });
    let n = pos + task.children.length - fold;
    if (showChanges && task.changes) {
      const changes = task.changes;
      const count = changes.files.length + changes.commands.length;
      const r = row(`changes:${task.id}`, 'changes', task.id, level, task.id, at, size, n++, count > 0);
      const rAt = out.length;
      if (push(r)) {
        const inner = count + (changes.commands.length > 0 ? 1 : 0);
        const sub = (key: string, kind: FlatKind, i: number, index?: number): void => {
          const c = row(key, kind, task.id, level + 1, r.key, rAt, inner, i + 1, false);
          if (index !== undefined) c.index = index;
          out.push(c);
        };
        changes.files.forEach((_, i) => sub(`${r.key}#f${i}`, 'change-file', i, i));
        changes.commands.forEach((_, i) => sub(`${r.key}#c${i}`, 'change-command', changes.files.length + i, i));
        if (changes.commands.length > 0) sub(`${r.key}#note`, 'change-note', count);
      }
    }
    if (outcome) {
      const r = row(`outcome:${task.id}`, 'outcome', task.id, level, task.id, at, size, n, true);
      if (push(r)) detail(r);
    }
  };
  const blocks: Partial<Record<ViewNode['kind'], FlatKind>> = { user: 'user', text: 'text', notice: 'notice', compaction: 'compaction-block' };
  state.items.forEach((id, i) => {
    const node = state.nodes[id];
    if (!node) return;
    const block = blocks[node.kind];
    if (block) out.push(row(id, block, id, 1, null, -1, state.items.length, i + 1, false));
    else addNode(node, 1, null, -1, state.items.length, i + 1);
  });
  return out;
}

/** A small deterministic random generator (the same cases on every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A random session: root calls, text and thinking; tasks (nested one level), some finished with changes, one resumed. */
function randomSession(rand: () => number, script = new Script()): Script {
  const s = script;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  s.rootStart('Do a random job.');
  s.turn(ROOT, null, 1);
  const agents: { id: string; parent: string | null; grand: string | null; depth: number }[] = [{ id: ROOT, parent: null, grand: null, depth: 0 }];
  const steps = 20 + Math.floor(rand() * 60);
  let n = 0;
  for (let k = 0; k < steps; k++) {
    const a = pick(agents);
    const r = rand();
    n += 1;
    if (r < 0.55) s.tool(a.id, a.parent, `c${n}`, pick(['bash', 'read_file', 'grep']), { command: `echo ${n}` }, `out ${n}`, rand() < 0.1);
    else if (r < 0.65) s.emit(a.id, a.parent, { type: 'thinking', turn: 1, text: rand() < 0.3 ? '' : `Thinking ${n}` });
    else if (r < 0.7 && a.id !== ROOT) s.emit(a.id, a.parent, { type: 'compacted', trigger: 'auto', tokensBefore: 1000, tokensAfter: 100, stubs: {} });
    else if (r < 0.85 && a.depth < 2) {
      const child = `agent-${n}`;
      s.taskStart(a.id, a.parent, `t${n}`, child, `Task ${n}`, a.depth + 1);
      s.turn(child, a.id, 1);
      agents.push({ id: child, parent: a.id, grand: a.parent, depth: a.depth + 1 });
    } else if (a.id !== ROOT && rand() < 0.5) {
      if (rand() < 0.5) s.emit(a.id, a.parent, { type: 'change_manifest', files: [{ path: `src/f${n}.ts`, kind: 'modified', added: 2, removed: 1 } as never], commands: rand() < 0.5 ? [{ command: 'npm i', exitCode: 0 } as never] : [] });
      const status = pick(['completed', 'error', 'cancelled', 'max_turns'] as const);
      s.childFinish(a.id, a.parent as string, status, 2, 3, [100, 10], status === 'completed' ? `Done ${n}` : '', status === 'error' ? 'boom' : undefined);
      const task = `t${a.id.slice('agent-'.length)}`;
      s.taskEnd(a.parent as string, a.grand, task, `Done ${n}`, status === 'error');
      agents.splice(agents.indexOf(a), 1);
    } else {
      s.rootText(2 + k, `Text ${n}`);
    }
  }
  return s;
}

/** Random choices over every key the rows can have (`opened` ones are open, the rest closed by choice or default). */
function randomChoices(state: SessionViewState, rand: () => number): Map<string, boolean> {
  const choices = new Map<string, boolean>();
  for (const id of Object.keys(state.nodes)) {
    for (const key of [id, `prompt:${id}`, `outcome:${id}`, `changes:${id}`, `message:${id}`, `fold:${id}`]) {
      const r = rand();
      if (r < 0.2) choices.set(key, true);
      else if (r < 0.3) choices.set(key, false);
    }
  }
  return choices;
}

function check(state: SessionViewState, choices: Map<string, boolean>, indexes = new ContainerIndexes(state)): void {
  const isOpen: IsOpen = (key, byDefault) => {
    const node = state.nodes[key];
    return choices.get(key) ?? (node?.kind === 'task' ? taskOpenByDefault(node) : byDefault);
  };
  const openKeys = [...choices].filter(([, open]) => open).map(([key]) => key);
  const expected = oracle(state, isOpen);
  const list = FlatList.build(indexes, isOpen, openKeys);
  assert.equal(list.length, expected.length);
  assert.deepEqual(list.toArray(), expected);
  expected.forEach((row, i) => {
    assert.equal(list.indexOf(row.key), i, row.key);
    assert.equal(list.kindAt(i), row.kind);
  });
  const shown = new Set(expected.map((r) => r.key));
  for (const id of Object.keys(state.nodes)) if (!shown.has(id)) assert.equal(list.indexOf(id), -1, id);
}

describe('the panel rows as segments (flat-list.ts)', () => {
  it('agrees with the plain flattening on the fixture sessions, every choice closed, default and open', () => {
    for (const script of [finishedSession(), runningSession(), bigSession(300), bigSession(300, true)]) {
      const state = createSessionView();
      applyEvents(state, script.events);
      check(state, new Map());
      const all = new Map<string, boolean>();
      for (const id of Object.keys(state.nodes)) for (const key of [id, `prompt:${id}`, `outcome:${id}`, `changes:${id}`, `fold:${id}`]) all.set(key, true);
      check(state, all);
      check(state, new Map([...all].map(([k]) => [k, false])));
    }
  });

  it('agrees on 200 random sessions with random choices, and when a kept build grows with new events', () => {
    const rand = random(42);
    for (let k = 0; k < 200; k++) {
      const script = randomSession(rand);
      const events = script.take();
      const state = createSessionView();
      const cut = Math.floor(rand() * events.length);
      applyEvents(state, events.slice(0, cut));
      const indexes = new ContainerIndexes(state);
      check(state, randomChoices(state, rand), indexes);
      applyEvents(state, events.slice(cut));
      check(state, randomChoices(state, rand), indexes);
    }
  });

  it('agrees on 50 long tasks that fold their first calls: a nested subagent inside the fold, or running (never folded)', () => {
    const rand = random(7);
    for (let k = 0; k < 50; k++) {
      const s = new Script();
      s.rootStart('A long job.');
      s.turn(ROOT, null, 1);
      s.taskStart(ROOT, null, 'tu-long', 'agent-long', 'Long job', 1);
      const n = 30 + Math.floor(rand() * 40);
      const nestedAt = Math.floor(rand() * n);
      const nestedRuns = rand() < 0.5;
      for (let i = 0; i < n; i++) {
        if (i === nestedAt) {
          s.taskStart('agent-long', ROOT, 'tu-nested', 'agent-nested', 'Nested', 2);
          s.tool('agent-nested', 'agent-long', 'n1', 'grep', { pattern: 'x' }, 'out');
          if (!nestedRuns) {
            s.childFinish('agent-nested', 'agent-long', 'completed', 1, 1, [10, 1], 'ok');
            s.taskEnd('agent-long', ROOT, 'tu-nested', 'ok');
          }
        } else if (rand() < 0.1) s.emit('agent-long', ROOT, { type: 'thinking', turn: 1, text: `t${i}` });
        else s.tool('agent-long', ROOT, `l${i}`, 'bash', { command: `echo ${i}` }, `out ${i}`);
      }
      if (!nestedRuns && rand() < 0.5) {
        s.childFinish('agent-long', ROOT, rand() < 0.5 ? 'error' : 'completed', 9, n, [100, 10], 'done', 'boom');
        s.taskEnd(ROOT, null, 'tu-long', 'done');
      }
      const state = createSessionView();
      applyEvents(state, s.events);
      check(state, randomChoices(state, rand));
      const fold = foldedCount(state, state.nodes['task:tu-long'] as TaskNode, [state.nodes['task:tu-long']?.kind === 'task' ? (state.nodes['task:tu-long'] as TaskNode).children.indexOf('task:tu-nested') : -1]);
      if (nestedRuns) assert.ok(fold <= nestedAt, 'a running subagent is not folded');
    }
  });

  it('makes a 50,000-call task one run: few segments, rows made on demand; folded, its last 10 calls in sight', () => {
    const state = createSessionView();
    applyEvents(state, bigSession(50_000).events);
    const indexes = new ContainerIndexes(state);
    const folded = FlatList.build(indexes, (key, byDefault) => byDefault, []);
    assert.deepEqual(folded.toArray().map((r) => r.key), ['user:1', 'task:tu-big', 'prompt:task:tu-big', 'fold:task:tu-big', ...Array.from({ length: 10 }, (_, i) => `tool:big-${49_990 + i}`)]);
    assert.equal(folded.at(3)?.index, 49_990, 'the fold row says how many it holds');
    assert.deepEqual(folded.foldsAround('tool:big-30000'), ['fold:task:tu-big']);
    assert.deepEqual(folded.foldsAround('tool:big-49995'), []);
    const list = FlatList.build(indexes, (key, byDefault) => (key === 'fold:task:tu-big' ? true : byDefault), []);
    assert.equal(list.length, 2 + 1 + 1 + 50_000);
    assert.ok(list.segments.length <= 6, `${list.segments.length} segments`);
    assert.equal(list.at(30_004)?.key, 'tool:big-30000');
    assert.equal(list.at(30_004)?.level, 3, 'under the fold row');
    assert.equal(list.indexOf('tool:big-49999'), 50_003);
    assert.equal(list.at(50_003)?.level, 2);
  });
});
