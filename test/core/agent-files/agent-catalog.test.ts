// Agent definitions as users keep them (.claude/agents, ~/.claude/agents, .github/agents): what loads,
// what is reported (file, line, reason), what wins, how tool names map, and a large real-world-shaped set.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAgentCatalog, resolveAgentModel } from '../../../src/core/agent-files/agent-catalog';
import { tempDir } from '../../kit/temp-dirs';

const FIXTURES = join(__dirname, '..', '..', 'fixtures');
const known = new Set(['bash', 'read_file', 'write_file', 'edit_file', 'glob', 'task']);

describe('agent catalog', () => {
  it('loads project, Copilot and user agents; the project wins; built-ins are there', async () => {
    const { agents, problems } = await loadAgentCatalog({ workdir: join(FIXTURES, 'agent-repo'), home: join(FIXTURES, 'agent-home'), knownTools: known });
    assert.deepEqual([...agents.keys()].sort(), ['Explore', 'broken-agent', 'code-reviewer', 'explainer', 'general-purpose', 'planner', 'test-runner']);
    const reviewer = agents.get('code-reviewer');
    assert.equal(reviewer?.scope, 'project', 'the project file wins over the user one');
    assert.match(reviewer?.prompt ?? '', /^You are a senior code reviewer/);
    assert.deepEqual(reviewer?.tools, ['read_file', 'glob'], 'Read, Glob mapped; Grep is not a tool here');
    assert.equal(reviewer?.model, 'sonnet');
    assert.equal(reviewer?.color, 'blue');
    const runner = agents.get('test-runner');
    assert.deepEqual(runner?.tools, ['bash', 'read_file']);
    assert.equal(runner?.maxTurns, 5);
    assert.equal(runner?.permissionMode, 'plan');
    const planner = agents.get('planner');
    assert.equal(planner?.scope, 'project');
    assert.deepEqual(planner?.tools, ['read_file', 'glob'], 'Copilot tool names mapped');
    assert.equal(planner?.model, 'Claude Sonnet 4');
    assert.equal(agents.get('explainer')?.scope, 'user');

    const byFile = (name: string) => problems.filter((p) => p.file.endsWith(name));
    const broken = byFile('broken.md');
    assert.equal(broken.length, 1);
    assert.equal(broken[0]?.severity, 'warning', 'invalid YAML is read line by line: the agent loads');
    assert.match(broken[0]?.reason ?? '', /invalid YAML \(.+\): read line by line/);
    assert.equal(broken[0]?.line, 4, 'the line in the file where the parser noticed');
    assert.equal(agents.get('broken-agent')?.description, '[this is: not valid', 'the value as written');
    assert.deepEqual(agents.get('broken-agent')?.tools, ['read_file']);
    assert.match(byFile('nameless.md')[0]?.reason ?? '', /no `name` field/);
    assert.deepEqual(byFile('test-runner.md').map((p) => [p.severity, p.reason]), [['warning', 'tools: Delegate has no tool "WebSearch": dropped from this agent']]);
    assert.equal(byFile('code-reviewer.md').filter((p) => /Grep/.test(p.reason)).length, 1, 'one warning per file');
    assert.match(byFile('planner.agent.md')[0]?.reason ?? '', /"usages"/);
  });

  it("reads each agent's own thinking: / effort:, and warns about values it cannot use", async () => {
    const workdir = tempDir('agents-thinking-');
    const dir = join(workdir, '.claude', 'agents');
    mkdirSync(dir, { recursive: true });
    const file = (name: string, extra: string) => writeFileSync(join(dir, `${name}.md`), `---\nname: ${name}\ndescription: d\n${extra}\n---\nbody\n`);
    file('deep', 'thinking: high');
    file('budgeted', 'thinking: 8192');
    file('quiet', 'thinking: false');
    file('quick', 'effort: LOW');
    file('odd', 'thinking: 100\neffort: huge');
    const { agents, problems } = await loadAgentCatalog({ workdir, knownTools: known });
    assert.equal(agents.get('deep')?.thinking, 'high');
    assert.equal(agents.get('budgeted')?.thinking, 8192);
    assert.equal(agents.get('quiet')?.thinking, 'off');
    assert.equal(agents.get('quick')?.effort, 'low');
    const odd = agents.get('odd');
    assert.ok(odd && odd.thinking === undefined && odd.effort === undefined, 'loaded, without the bad values');
    assert.deepEqual(problems.map((p) => p.severity), ['warning', 'warning']);
    assert.match(problems[0]?.reason ?? '', /`thinking`: a thinking budget is at least 1024 tokens.*: ignored/);
    assert.match(problems[1]?.reason ?? '', /`effort` must be one of low, medium, high, xhigh, max: ignored/);
  });

  it('reads no project files in an untrusted workspace', async () => {
    const { agents } = await loadAgentCatalog({ workdir: join(FIXTURES, 'agent-repo'), home: join(FIXTURES, 'agent-home'), knownTools: known, includeProject: false });
    assert.equal(agents.get('code-reviewer')?.scope, 'user');
    assert.equal(agents.has('test-runner'), false);
  });

  it('resolves model aliases and inherit', () => {
    assert.equal(resolveAgentModel('sonnet', 'parent-model'), 'claude-sonnet-5-5');
    assert.equal(resolveAgentModel('inherit', 'parent-model'), 'parent-model');
    assert.equal(resolveAgentModel(undefined, 'parent-model'), 'parent-model');
    assert.equal(resolveAgentModel('claude-opus-4-8', 'p'), 'claude-opus-4-8');
    assert.equal(resolveAgentModel('opus', 'p', { opus: 'my-opus' }), 'my-opus');
  });

  it('loads all 158 files of a large real-world-shaped collection, WebFetch/WebSearch and nonsense names included', async () => {
    const root = tempDir('delegate-agents-');
    const dir = join(root, '.claude', 'agents');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 158; i++) {
      const tools = i < 36 ? 'Read, Grep, Glob, WebFetch, WebSearch' : i < 40 ? 'Read, Write, TodoWrite, NotebookRead, mcp__github__search' : i % 2 ? 'Read, Edit, Bash' : '';
      const desc = `Use this agent when working on area ${i}: ${'it knows the conventions, the pitfalls and the tests of that area. '.repeat(4)}`;
      writeFileSync(join(dir, `agent-${i}.md`), `---\nname: agent-${i}\ndescription: "${desc}"\n${tools ? `tools: ${tools}\n` : ''}model: ${i % 3 === 0 ? 'opus' : 'inherit'}\n---\nYou are agent ${i}.\n`);
    }
    const { agents, problems } = await loadAgentCatalog({ workdir: root, knownTools: known });
    assert.equal(agents.size, 158 + 2);
    assert.equal(problems.filter((p) => p.severity === 'error').length, 0);
    assert.equal(problems.filter((p) => p.severity === 'warning').length, 40, 'one warning per file with unknown tools');
    assert.deepEqual(agents.get('agent-37')?.tools, ['read_file', 'write_file', 'mcp__github__search']);
  });
});
