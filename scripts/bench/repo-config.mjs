// Bench section 8, what the repository brings (agent files): loading a 158-file agent collection and what
// it adds to every request of the main agent (the task tool lists each agent: name + a trimmed description).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTs, repeat } from './util.mjs';

const { createSession } = loadTs('src/core/session/index.ts');
const { ScriptedModel } = loadTs('test/kit/scripted-model.ts');
const { loadAgentCatalog } = loadTs('src/core/agent-files/agent-catalog.ts');

const AGENTS = 158;

function collection() {
  const root = mkdtempSync(join(tmpdir(), 'delegate-bench-agents-'));
  const dir = join(root, '.claude', 'agents');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < AGENTS; i++) {
    const desc = `Use this agent when the task touches area ${i} of the system. ${'It knows the conventions, the pitfalls, the history and the tests of that area, and reviews changes to it. '.repeat(3)}`;
    const tools = i < 36 ? 'Read, Grep, Glob, WebFetch, WebSearch' : 'Read, Edit, Bash, Grep';
    writeFileSync(join(dir, `agent-${i}.md`), `---\nname: agent-${i}\ndescription: "${desc}"\ntools: ${tools}\nmodel: inherit\n---\nYou are agent ${i}. ${'Follow the house rules. '.repeat(40)}\n`);
  }
  return root;
}

async function firstRequest(workdir, withAgents, scratch) {
  const model = new ScriptedModel().script('default', { text: 'ok' });
  const session = await createSession({
    workdir, model: { id: 'claude-bench' }, permissions: { mode: 'default' }, persistence: { transcriptRoot: scratch.dataDir() },
    ports: { model, approver: { ask: async () => ({ decision: 'deny' }) } },
    ...(withAgents ? { files: { agentFiles: { includeProject: true } } } : {}),
  });
  await session.run('hi', new AbortController().signal);
  session.close();
  const req = model.requests[0].request;
  return JSON.stringify({ system: req.system, tools: req.tools, messages: req.messages }).length;
}

export async function benchRepoConfig(report, _server, scratch) {
  const root = collection();
  try {
    report.note(`${AGENTS} agent files (36 listing WebFetch/WebSearch), ~400-character descriptions.`);
    const loads = await repeat(5, async () => {
      const t0 = performance.now();
      const { agents } = await loadAgentCatalog({ workdir: root, knownTools: new Set(['bash', 'read_file', 'write_file', 'edit_file', 'glob', 'grep', 'web_fetch', 'task']) });
      if (agents.size !== AGENTS + 2) throw new Error(`loaded ${agents.size} agents`);
      return performance.now() - t0;
    });
    report.row(`load ${AGENTS} agent files`, loads, { max: 150 });
    const bare = await firstRequest(root, false, scratch);
    const full = await firstRequest(root, true, scratch);
    report.row('first request, built-in agents only', bare / 1000, { unit: 'KB', digits: 1 });
    report.row(`first request with ${AGENTS} agents`, full / 1000, { unit: 'KB', digits: 1 });
    report.row(`  what ${AGENTS} agents add (≈ tokens at 4 chars each)`, (full - bare) / 4, { unit: 'tokens', digits: 0, max: 8000 });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
