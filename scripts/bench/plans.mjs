// What the "model" answers in each scenario, as plain data, so the same plan drives both the in-process
// ScriptedModel (core figures) and the local Messages-API server in its own process (SDK and CLI figures).
//
//   plan = { parent: Step[], children: { TAG: Step[] } }      a child is recognised by TAG in its task prompt
//   Step = { tools?: [{ name, input }], text?: string, delayMs?: number }   delayMs = model latency of that reply
import { GROWTH_FILES } from './util.mjs';

const readFile = (path) => ({ name: 'read_file', input: { path } });

/** `turns` turns of one cheap tool call each (read_file of a 200-byte file, or glob `*.md`), then a final answer. */
export function turnsPlan(turns, { delayMs = 0, tool = 'read_file' } = {}) {
  const call = tool === 'glob' ? { name: 'glob', input: { pattern: '*.md' } } : readFile('small.txt');
  const parent = Array.from({ length: turns }, () => ({ tools: [call], delayMs }));
  parent.push({ text: 'Done.', delayMs });
  return { parent, children: {} };
}

export const summaryOf = (tag) => `Conclusion (${tag}): the files hold numbered lorem-ipsum lines. Evidence: read them all. Changes: none.`;

/**
 * The parent sends one message with a task call per child (they run in parallel), then answers.
 * Each child reads `files` one call per turn, then reports its summary; every child reply takes `delayMs`.
 */
export function delegatePlan(children, { parentDelayMs = 0 } = {}) {
  const plan = { parent: [], children: {} };
  plan.parent.push({
    tools: children.map((c) => ({ name: 'task', input: { prompt: `${c.tag}: read ${c.files.join(', ')} and summarise them.`, description: `read files ${c.tag}` } })),
    delayMs: parentDelayMs,
  });
  plan.parent.push({ text: 'All tasks are done.', delayMs: parentDelayMs });
  for (const c of children) {
    plan.children[c.tag] = [...c.files.map((f) => ({ tools: [readFile(f)], delayMs: c.delayMs ?? 0 })), { text: summaryOf(c.tag), delayMs: c.delayMs ?? 0 }];
  }
  return plan;
}

/** Growth scenario A: the parent itself reads the 20 files, one call per turn, then answers. */
export function inlineGrowthPlan() {
  return { parent: [...GROWTH_FILES.map((f) => ({ tools: [readFile(f)] })), { text: 'All tasks are done.' }], children: {} };
}

/** Growth scenario B: the same 20 calls, made by one subagent. */
export function delegatedGrowthPlan() {
  return delegatePlan([{ tag: 'JOB-G', files: GROWTH_FILES }]);
}

/** Read jobs for subagents: `reads` files each (different ones per job), every reply taking delays[i] ms. */
export function readJobs(tags, { delays = [], reads = 3 } = {}) {
  return tags.map((tag, i) => ({ tag, files: GROWTH_FILES.slice(i * reads, i * reads + reads), delayMs: delays[i] ?? 0 }));
}

/** The file child `tag` edits in the parallel scenario (util.mjs makeEditWorkspace writes them). */
export const editFileOf = (tag) => `edits/${tag}.txt`;
export const editTags = (n) => Array.from({ length: n }, (_, i) => `JOB-E${i + 1}`);

/**
 * The parent starts `n` children in one message; each reads its own file, edits one line of it and reports,
 * every child reply taking `delayMs` (3 replies). The parent's replies are instant.
 */
export function editJobsPlan(n, { delayMs }) {
  const tags = editTags(n);
  const plan = {
    parent: [
      { tools: tags.map((tag) => ({ name: 'task', input: { prompt: `${tag}: update the status line of ${editFileOf(tag)}.`, description: `edit ${tag}` } })) },
      { text: 'All tasks are done.' },
    ],
    children: {},
  };
  for (const tag of tags) {
    plan.children[tag] = [
      { tools: [readFile(editFileOf(tag))], delayMs },
      { tools: [{ name: 'edit_file', input: { path: editFileOf(tag), old_text: 'status: draft', new_text: `status: edited by ${tag}` } }], delayMs },
      { text: summaryOf(tag), delayMs },
    ];
  }
  return plan;
}
