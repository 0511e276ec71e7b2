// Bench section 8, what the repository brings (agent files, skills): loading a 158-file agent collection and a
// 60-skill collection, and what each adds to every request of the main agent (the task tool lists each agent, the
// skill tool each skill: name + a trimmed description; a skill's body is sent only when it is loaded).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTs, repeat } from './util.mjs';

const { createSession } = loadTs('src/core/session/index.ts');
const { ScriptedModel } = loadTs('test/kit/scripted-model.ts');
const { loadAgentCatalog } = loadTs('src/core/agent-files/agent-catalog.ts');
const { loadSkillCatalog } = loadTs('src/core/skills/skill-catalog.ts');

const AGENTS = 158;
const SKILLS = 60;

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

/** SKILLS skill folders in .claude/skills, each a SKILL.md with a ~410-character description (awesome-copilot's p50 is 226, p90 518) and a 6 KB body. */
function skillCollection() {
  const root = mkdtempSync(join(tmpdir(), 'delegate-bench-skills-'));
  for (let i = 0; i < SKILLS; i++) {
    const dir = join(root, '.claude', 'skills', `skill-${i}`);
    mkdirSync(dir, { recursive: true });
    const desc = `Use this skill when the task involves format ${i}: reading, writing, converting and validating it. ${'It knows the tools, the pitfalls and the checks for that format. '.repeat(5)}`;
    writeFileSync(join(dir, 'SKILL.md'), `---\nname: skill-${i}\ndescription: "${desc}"\nallowed-tools: Read, Grep\n---\n# Skill ${i}\n${'Follow these steps carefully. '.repeat(200)}\n`);
  }
  return root;
}

async function firstRequest(workdir, withAgents, scratch, skills) {
  const model = new ScriptedModel().script('default', { text: 'ok' });
  const session = await createSession({
    workdir, model: { id: 'claude-bench' }, permissions: { mode: 'default' }, persistence: { transcriptRoot: scratch.dataDir() },
    ports: { model, approver: { ask: async () => ({ decision: 'deny' }) } },
    ...(withAgents ? { files: { agentFiles: { includeProject: true } } } : skills ? { files: { skills } } : {}),
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
  const skillRoot = skillCollection();
  try {
    report.note(`${SKILLS} skills in .claude/skills, ~410-character descriptions, 6 KB bodies (only the list is sent).`);
    const loads = await repeat(5, async () => {
      const t0 = performance.now();
      const { skills } = await loadSkillCatalog({ workdir: skillRoot });
      if (skills.size !== SKILLS) throw new Error(`loaded ${skills.size} skills`);
      return performance.now() - t0;
    });
    report.row(`load ${SKILLS} skills`, loads, { max: 150 });
    const catalog = await loadSkillCatalog({ workdir: skillRoot });
    const bare = await firstRequest(skillRoot, false, scratch);
    const full = await firstRequest(skillRoot, false, scratch, catalog);
    report.row(`first request with ${SKILLS} skills`, full / 1000, { unit: 'KB', digits: 1 });
    report.row(`  what ${SKILLS} skills add (≈ tokens at 4 chars each)`, (full - bare) / 4, { unit: 'tokens', digits: 0, max: 8000 });
    report.row('  per skill line', (full - bare) / 4 / SKILLS, { unit: 'tokens', digits: 1, max: 150 });
  } finally {
    rmSync(skillRoot, { recursive: true, force: true });
  }
}
