/**
 * Agent definitions through the built CLI, in both formats users keep them: Claude Code's `.claude/agents/*.md`
 * and Copilot's `.github/agents/*.agent.md` (VS Code's namespaced tool names, tool sets, `server/tool` of an MCP
 * server). The regression this guards: any folder with agent files crashed the bundle ("s is not a function")
 * while every source-level test passed. Each agent must be offered to the model and run with its own tools.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, reply, systemText, type RecordedRequest } from '../fixtures/messages-api-server';
import { EVERYTHING } from '../kit/mcp-servers';
import { must } from '../kit/must';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

/** Real files from public collections (their licenses beside them). */
const COLLECTIONS = join(__dirname, '..', 'fixtures', 'agent-collections');

const toolNames = (req: RecordedRequest | undefined): string[] => req?.body.tools?.map((t) => t.name) ?? [];

function writeAgent(workdir: string, path: string, text: string): void {
  mkdirSync(join(workdir, path, '..'), { recursive: true });
  writeFileSync(join(workdir, path), text);
}

describe('delegate CLI: agent definitions', function () {
  this.timeout(40_000);
  const cli = cliSuite();


  it('a Claude Code agent and a Copilot agent are offered in the task tool, and each runs with its own prompt and tools', async () => {
    writeAgent(
      cli.dirs.workdir,
      '.claude/agents/reviewer.md',
      '---\nname: reviewer\ndescription: Reviews diffs for bugs.\ntools: Read, Grep\nmodel: inherit\n---\nREVIEWER-BODY: you review code.\n',
    );
    writeFileSync(join(cli.dirs.workdir, 'AGENTS.md'), 'Run the linter before you report (AGENTS-MARKER-9).\n');
    writeAgent(cli.dirs.workdir, '.github/agents/planner.agent.md', "---\ndescription: Plans features.\ntools: ['search', 'read/readFile']\n---\nPLANNER-BODY: you plan.\n");
    cli.api.route([
      { name: 'reviewer', match: (r) => isChild(r) && firstUserText(r).includes('JOB-R'), replies: [reply.text('reviewed')] },
      { name: 'planner', match: (r) => isChild(r) && firstUserText(r).includes('JOB-P'), replies: [reply.text('planned')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse([
            { name: 'task', input: { prompt: 'JOB-R: review', subagent_type: 'reviewer' } },
            { name: 'task', input: { prompt: 'JOB-P: plan', subagent_type: 'planner' } },
          ]),
          reply.text('both done'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    assert.equal(run.stderr, '', 'both files load without a word');
    const result = lastJsonLine(run.stdout);
    assert.equal(result.result, 'both done');
    const task = must(cli.api.messageRequests()[0]?.body.tools?.find((t) => t.name === 'task'));
    assert.match(String(task.description), /- reviewer: Reviews diffs for bugs\./);
    assert.match(String(task.description), /- planner: Plans features\./);

    const children = cli.api.messageRequests().filter(isChild);
    const reviewer = must(children.find((r) => firstUserText(r).includes('JOB-R')));
    const planner = must(children.find((r) => firstUserText(r).includes('JOB-P')));
    assert.match(systemText(reviewer), /REVIEWER-BODY/);
    assert.match(systemText(planner), /PLANNER-BODY/);
    for (const child of [reviewer, planner]) assert.match(systemText(child), /AGENTS-MARKER-9/, 'the project instructions reach each custom agent');
    assert.deepEqual(toolNames(reviewer), ['read_file', 'grep']);
    assert.deepEqual(toolNames(planner), ['read_file', 'glob', 'grep'], 'search (glob, grep) and read/readFile');
    const types = (result.subagents as Record<string, unknown>[]).map((s) => [s.status, s.agent_type ?? s.subagent_type]);
    assert.equal(types.length, 2);
    assert.ok(types.every(([status]) => status === 'completed'), JSON.stringify(types));
  });

  it('a Copilot agent written with VS Code’s namespaced names gets the mapped tools and its MCP server’s tool; VS Code-only names are one notice', async () => {
    const mcp = join(cli.dirs.workdir, '..', 'servers.json');
    writeFileSync(mcp, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } }));
    writeAgent(
      cli.dirs.workdir,
      '.github/agents/builder.agent.md',
      [
        '---',
        'description: Builds and checks features.',
        'tools:',
        '  - search/fileSearch',
        '  - read/readFile',
        '  - edit/editFiles',
        '  - execute/runInTerminal',
        '  - web/fetch',
        '  - everything/echo',
        '  - read/problems',
        '  - todos',
        '---',
        'BUILDER-BODY',
        '',
      ].join('\n'),
    );
    cli.api.route([
      { name: 'builder', match: isChild, replies: [reply.text('built')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'build it', subagent_type: 'builder' } }), reply.text('ok')] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--mcp-config', mcp, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    const child = must(cli.api.messageRequests().find(isChild));
    assert.match(systemText(child), /BUILDER-BODY/);
    assert.deepEqual(toolNames(child), ['bash', 'read_file', 'write_file', 'edit_file', 'glob', 'web_fetch', 'mcp__everything__echo']);
    const notices = run.stderr.trim().split('\n');
    assert.equal(notices.length, 1, run.stderr);
    assert.match(notices[0] ?? '', /builder\.agent\.md: tools: read\/problems, todos: VS Code's own, with no counterpart in Delegate: left out/);
  });

  it('real collections load: Copilot names with spaces get an id (unique, and the model may use either), VoltAgent front matter that is not YAML is read line by line with one warning each', async () => {
    for (const file of ['critical-thinking.agent.md', 'se-security-reviewer.agent.md', 'expert-cpp-software-engineer.agent.md']) {
      cpSync(join(COLLECTIONS, 'awesome-copilot', file), join(cli.dirs.workdir, '.github', 'agents', file));
    }
    for (const file of ['cohort-analysis.md', 'growth-loops.md']) cpSync(join(COLLECTIONS, 'voltagent', file), join(cli.dirs.workdir, '.claude', 'agents', file));
    // An id the user wrote owns it: the Copilot agent whose slug it is gets the next one.
    writeAgent(cli.dirs.workdir, '.claude/agents/mine.md', '---\nname: critical-thinking-assistant\ndescription: The user\'s own.\n---\nMINE-BODY\n');
    cli.api.route([
      { name: 'thinker', match: (r) => isChild(r) && firstUserText(r).includes('JOB-T'), replies: [reply.text('asked why')] },
      { name: 'security', match: (r) => isChild(r) && firstUserText(r).includes('JOB-S'), replies: [reply.text('reviewed')] },
      { name: 'cohorts', match: (r) => isChild(r) && firstUserText(r).includes('JOB-C'), replies: [reply.text('cohorts done')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse([
            { name: 'task', input: { prompt: 'JOB-T: question it', subagent_type: 'Critical Thinking Assistant' } },
            { name: 'task', input: { prompt: 'JOB-S: review it', subagent_type: 'se-security' } },
            { name: 'task', input: { prompt: 'JOB-C: retention', subagent_type: 'cohort-analysis' } },
          ]),
          reply.text('all done'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    const lines = run.stderr.trim().split('\n');
    assert.deepEqual(lines.filter((l) => /: error: /.test(l)), [], 'no file is refused');
    const yamlWarnings = lines.filter((l) => /invalid YAML/.test(l));
    assert.equal(yamlWarnings.length, 2, run.stderr);
    assert.match(yamlWarnings[0] ?? '', /^delegate: warning: .*cohort-analysis\.md:3: invalid YAML \(Nested mappings are not allowed in compact mappings\): read line by line instead/);
    assert.match(yamlWarnings[1] ?? '', /growth-loops\.md:3: invalid YAML/);
    assert.ok(lines.some((l) => /critical-thinking\.agent\.md: the id "critical-thinking-assistant" of "Critical Thinking Assistant" is taken by .*mine\.md: its id is "critical-thinking-assistant-2"/.test(l)), run.stderr);

    const task = String(must(cli.api.messageRequests()[0]?.body.tools?.find((t) => t.name === 'task')).description);
    assert.match(task, /^- critical-thinking-assistant-2 \("Critical Thinking Assistant"\): Challenge assumptions/m);
    assert.match(task, /^- critical-thinking-assistant: The user's own\./m);
    assert.match(task, /^- se-security \("SE: Security"\): Security-focused code review/m);
    assert.match(task, /^- cpp-expert \("C\+\+ Expert"\): Provide expert C\+\+/m);
    assert.match(task, /^- cohort-analysis: Use when the user wants to analyze retention, cohort behavior, engagement trends/m);
    assert.match(task, /^- growth-loops: /m);

    const children = cli.api.messageRequests().filter(isChild);
    const child = (job: string) => must(children.find((r) => firstUserText(r).includes(job)));
    assert.match(systemText(child('JOB-T')), /# Critical thinking mode instructions/);
    assert.doesNotMatch(systemText(child('JOB-T')), /MINE-BODY/);
    assert.match(systemText(child('JOB-S')), /Security/);
    assert.match(systemText(child('JOB-C')), /You are an expert product analyst specializing in cohort analysis/);
    assert.deepEqual(toolNames(child('JOB-C')), ['read_file', 'glob', 'grep', 'web_fetch'], "VoltAgent's tools line (Read, Grep, Glob, WebFetch, WebSearch: no web search here)");
    const types = (lastJsonLine(run.stdout).subagents as Record<string, unknown>[]).map((s) => s.agent_type).sort();
    assert.deepEqual(types, ['cohort-analysis', 'critical-thinking-assistant-2', 'se-security']);
  });

  it('hand-written files load: spaces after a --- fence, lone-CR line ends, a name of only emoji (the file name is its id), a name that is a path', async () => {
    writeAgent(cli.dirs.workdir, '.claude/agents/trailing.md', '--- \nname: trailing\ndescription: Fences with a space after them.\n---  \nTRAILING-BODY\n');
    writeAgent(cli.dirs.workdir, '.claude/agents/classic-mac.md', '---\rname: classic-mac\rdescription: Lone CR line ends.\r---\rMAC-BODY\r');
    writeAgent(cli.dirs.workdir, '.claude/agents/robots.md', '---\nname: 🤖🤖\ndescription: A name of only emoji.\n---\nROBOT-BODY\n');
    writeAgent(cli.dirs.workdir, '.claude/agents/dots.md', '---\nname: ../x\ndescription: A name that is a path.\n---\nDOTS-BODY\n');
    cli.api.route([
      { name: 'robots', match: (r) => isChild(r) && systemText(r).includes('ROBOT-BODY'), replies: [reply.text('beep')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'go', subagent_type: '🤖🤖' } }), reply.text('done')] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    assert.equal(run.stderr, '', 'every file loads, without a warning');
    const task = String(must(cli.api.messageRequests()[0]?.body.tools?.find((t) => t.name === 'task')).description);
    assert.match(task, /^- trailing: Fences with a space after them\.$/m);
    assert.match(task, /^- classic-mac: Lone CR line ends\.$/m);
    assert.match(task, /^- robots \("🤖🤖"\): A name of only emoji\.$/m);
    assert.match(task, /^- x \("\.\.\/x"\): A name that is a path\.$/m);
    assert.deepEqual((lastJsonLine(run.stdout).subagents as Record<string, unknown>[]).map((s) => s.agent_type), ['robots']);
  });

  it("an agent's body is cut at 40,000 characters as CLAUDE.md is, with the same note and one warning", async () => {
    const body = `HEAD-OF-BODY\n${'You review code with care. '.repeat(2000)}\nTAIL-OF-BODY\n`;
    writeAgent(cli.dirs.workdir, '.claude/agents/huge.md', `---\nname: huge\ndescription: A very long prompt.\n---\n${body}`);
    cli.api.route([
      { name: 'huge', match: isChild, replies: [reply.text('ok')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'go', subagent_type: 'huge' } }), reply.text('done')] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr.trim(), /^delegate: warning: .*huge\.md: its body is 54,026 characters: cut at 40,000, as CLAUDE\.md is$/);
    const system = systemText(must(cli.api.messageRequests().find(isChild)));
    assert.match(system, /HEAD-OF-BODY/);
    assert.doesNotMatch(system, /TAIL-OF-BODY/);
    assert.match(system, /\[Instructions cut at 40,000 characters: the rest of .*huge\.md left out\. Read the file itself if you need the rest\.\]/);
  });
});
