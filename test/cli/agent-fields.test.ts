/**
 * The agent-file fields beyond prompt, tools and model, through the built CLI, with real files from public
 * collections copied unchanged (test/fixtures/agent-collections/README.md): Copilot's `agents:` (which agents it may
 * start), Claude Code's `Agent(name)` rules (`--disallowed-tools`, as Claude Code writes them), Copilot's
 * `disable-model-invocation`, Claude Code's `background`, Copilot's `handoffs`, and a field neither tool documents.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, lastToolResults, reply, systemText, type RecordedRequest } from '../fixtures/messages-api-server';
import { must } from '../kit/must';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

const COPILOT = join(__dirname, '..', 'fixtures', 'agent-collections', 'awesome-copilot');

function copyCopilot(workdir: string, ...files: string[]): void {
  mkdirSync(join(workdir, '.github', 'agents'), { recursive: true });
  for (const file of files) cpSync(join(COPILOT, file), join(workdir, '.github', 'agents', file));
}

function writeAgent(workdir: string, path: string, text: string): void {
  mkdirSync(join(workdir, path, '..'), { recursive: true });
  writeFileSync(join(workdir, path), text);
}

const taskDescription = (req: RecordedRequest | undefined): string => String(req?.body.tools?.find((t) => t.name === 'task')?.description ?? '');
const resultText = (req: RecordedRequest): string => lastToolResults(req).map((b) => (typeof b.content === 'string' ? b.content : JSON.stringify(b.content))).join('\n');

describe('delegate CLI: agent-file fields (agents, Agent(name) rules, disable-model-invocation, background, handoffs)', function () {
  this.timeout(60_000);
  const cli = cliSuite();

  it("Copilot's agents: list (RUG, unchanged) is the only agents it may start; another is refused with the reason", async () => {
    copyCopilot(cli.dirs.workdir, 'rug-orchestrator.agent.md', 'swe-subagent.agent.md', 'qa-subagent.agent.md', 'critical-thinking.agent.md');
    cli.api.route([
      { name: 'swe', match: (r) => isChild(r) && firstUserText(r).includes('JOB-SWE'), replies: [reply.text('implemented')] },
      {
        name: 'rug',
        match: (r) => isChild(r) && firstUserText(r).includes('JOB-RUG'),
        replies: [
          reply.toolUse({ name: 'task', input: { prompt: 'JOB-CT: think', subagent_type: 'Critical Thinking Assistant' } }),
          reply.toolUse({ name: 'task', input: { prompt: 'JOB-SWE: build it', subagent_type: 'SWE' } }),
          reply.text('orchestrated'),
        ],
      },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'JOB-RUG: run it', subagent_type: 'RUG' } }), reply.text('done')] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--max-depth', '2', '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    assert.doesNotMatch(run.stderr, /: error: /, 'every file loads');
    // The root may start every agent.
    const root = taskDescription(cli.api.messageRequests()[0]);
    for (const id of ['RUG', 'SWE', 'QA', 'critical-thinking-assistant', 'general-purpose']) assert.match(root, new RegExp(`^- ${id}\\b`, 'm'));
    // RUG's own task tool offers SWE and QA only, and needs a subagent_type (general-purpose is not in its list).
    const rug = cli.api.messageRequests().filter((r) => isChild(r) && firstUserText(r).includes('JOB-RUG'));
    const offered = taskDescription(rug[0]);
    assert.match(offered, /subagent_type \(required\)/);
    assert.deepEqual([...offered.matchAll(/^- (\S+):/gm)].map((m) => m[1]), ['QA', 'SWE']);
    assert.match(resultText(must(rug[1])), /subagent_type "Critical Thinking Assistant" cannot be started here: this agent may start only SWE, QA \(its definition's agents list\); the agent types are: QA, SWE/);
    assert.ok(!cli.api.messageRequests().some((r) => firstUserText(r).includes('JOB-CT')), 'the refused agent never ran');
    const types = (lastJsonLine(run.stdout).subagents as Record<string, unknown>[]).map((s) => s.agent_type).sort();
    assert.deepEqual(types, ['RUG', 'SWE']);
  });

  it('--disallowed-tools "Agent(QA)" as Claude Code writes it: QA is offered to no agent and refused by name; every other agent and the task tool stay', async () => {
    copyCopilot(cli.dirs.workdir, 'rug-orchestrator.agent.md', 'swe-subagent.agent.md', 'qa-subagent.agent.md');
    cli.api.route([
      {
        name: 'parent',
        match: () => true,
        replies: [reply.toolUse({ name: 'task', input: { prompt: 'JOB-QA: test it', subagent_type: 'QA' } }), reply.text('done')],
      },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--disallowed-tools', 'Agent(QA)', '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    assert.doesNotMatch(run.stderr, /Agent\(QA\)|disallowed/, 'an Agent(name) rule is understood: no warning that it disallows all of task');
    const [first, second] = cli.api.messageRequests();
    const offered = taskDescription(first);
    assert.ok(offered, 'the task tool is still offered');
    assert.deepEqual([...offered.matchAll(/^- (\S+):/gm)].map((m) => m[1]).sort(), ['Explore', 'RUG', 'SWE', 'general-purpose']);
    assert.match(resultText(must(second)), /subagent_type "QA" cannot be started here: a rule of this session denies it \(Agent\(QA\)\)/);
    assert.ok(!cli.api.messageRequests().some(isChild), 'no subagent ran');
  });

  it('disable-model-invocation: true is offered to no agent; background: true always runs in the background; an unknown field is one warning and the agent loads', async () => {
    writeAgent(cli.dirs.workdir, '.github/agents/release.agent.md', "---\ndescription: Cuts a release.\ndisable-model-invocation: true\n---\nRELEASE-BODY\n");
    writeAgent(cli.dirs.workdir, '.claude/agents/indexer.md', '---\nname: indexer\ndescription: Indexes the repository.\nbackground: true\nprority: high\n---\nINDEXER-BODY\n');
    cli.api.route([
      { name: 'indexer', match: (r) => isChild(r) && systemText(r).includes('INDEXER-BODY'), replies: [reply.text('indexed')] },
      {
        name: 'parent',
        match: () => true,
        replies: [reply.toolUse({ name: 'task', input: { prompt: 'JOB-I: index', subagent_type: 'indexer' } }), reply.text('started'), reply.text('all done')],
      },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    // (The parent's last reply is taken only when the child's report arrives after its second turn: not asserted.)
    assert.ok(cli.api.messageRequests().some((r) => isChild(r) && systemText(r).includes('INDEXER-BODY')), 'the background child ran');
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0] ?? '', /^delegate: warning: .*indexer\.md: `prority`: not a field of Claude Code's or Copilot's agent files: ignored$/);
    const requests = cli.api.messageRequests().filter((r) => !isChild(r));
    const offered = taskDescription(requests[0]);
    assert.doesNotMatch(offered, /^- release\b/m);
    assert.match(offered, /^- indexer: Indexes the repository\./m);
    assert.match(resultText(must(requests[1])), /^Started subagent \S+ \("JOB-I: index"\) in the background\./, 'run_in_background was not asked for: its definition says background: true');
  });

  it("Copilot's handoffs (Context7-Expert, unchanged) ride on the agent's agent_finished in stream-json after its answer", async () => {
    copyCopilot(cli.dirs.workdir, 'context7.agent.md');
    cli.api.route([
      { name: 'context7', match: (r) => isChild(r) && firstUserText(r).includes('JOB-C7'), replies: [reply.text('the docs say so')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'JOB-C7: look it up', subagent_type: 'Context7-Expert' } }), reply.text('done')] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'stream-json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    const events = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const finished = events.filter((e) => e.type === 'agent_finished');
    const child = must(finished.find((e) => e.parentId !== null && e.parentId !== undefined));
    assert.deepEqual(child.handoffs, [{ label: 'Implement with Context7', agent: 'agent', prompt: 'Implement the solution using the Context7 best practices and documentation outlined above.' }]);
    assert.ok(finished.filter((e) => e !== child).every((e) => e.handoffs === undefined), 'only the agent whose file has them');
  });

  it("Claude Code's tools: Agent(worker, researcher) — the coordinator may start only those two, and keeps its other tools", async () => {
    // Claude Code's documented coordinator, with the two agents it names.
    writeAgent(cli.dirs.workdir, '.claude/agents/coordinator.md', '---\nname: coordinator\ndescription: Coordinates work across specialized agents\ntools: Agent(worker, researcher), Read, Bash\n---\nCOORDINATOR-BODY\n');
    writeAgent(cli.dirs.workdir, '.claude/agents/worker.md', '---\nname: worker\ndescription: Does the work.\n---\nWORKER-BODY\n');
    writeAgent(cli.dirs.workdir, '.claude/agents/researcher.md', '---\nname: researcher\ndescription: Finds things out.\n---\nRESEARCHER-BODY\n');
    writeAgent(cli.dirs.workdir, '.claude/agents/deployer.md', '---\nname: deployer\ndescription: Deploys.\n---\nDEPLOYER-BODY\n');
    cli.api.route([
      { name: 'coordinator', match: (r) => isChild(r) && systemText(r).includes('COORDINATOR-BODY'), replies: [reply.text('coordinated')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'JOB: coordinate', subagent_type: 'coordinator' } }), reply.text('done')] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--max-depth', '2', '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    assert.equal(run.stderr, '', 'Agent(worker, researcher) is one entry, not "researcher)" as an unknown tool');
    const child = must(cli.api.messageRequests().find(isChild));
    assert.deepEqual(child.body.tools?.map((t) => t.name).filter((n) => n !== 'task_output' && n !== 'send_message' && n !== 'read_subagent'), ['bash', 'read_file', 'task']);
    assert.deepEqual([...taskDescription(child).matchAll(/^- (\S+):/gm)].map((m) => m[1]), ['researcher', 'worker']);
  });

  it("Copilot's model lists: the first entry the Anthropic API runs (an alias, a Claude id); none (the real .NET Self-Learning Architect): the parent's model, never a Copilot name sent to the API", async () => {
    copyCopilot(cli.dirs.workdir, 'dotnet-self-learning-architect.agent.md');
    writeAgent(cli.dirs.workdir, '.github/agents/lister.agent.md', "---\ndescription: Lists models.\nmodel: ['GPT-5 (copilot)', 'Claude Sonnet 4.5 (copilot)', 'haiku', 'opus']\n---\nLISTER-BODY\n");
    cli.api.route([
      { name: 'lister', match: (r) => isChild(r) && firstUserText(r).includes('JOB-L'), replies: [reply.text('listed')] },
      { name: 'architect', match: (r) => isChild(r) && firstUserText(r).includes('JOB-A'), replies: [reply.text('designed')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse([
            { name: 'task', input: { prompt: 'JOB-L: list', subagent_type: 'lister' } },
            { name: 'task', input: { prompt: 'JOB-A: design', subagent_type: '.NET Self-Learning Architect' } },
          ]),
          reply.text('done'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--model', 'claude-parent-1', '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    const children = cli.api.messageRequests().filter(isChild);
    assert.equal(must(children.find((r) => firstUserText(r).includes('JOB-L'))).body.model, 'claude-haiku-5-5', 'the first entry this API runs: haiku');
    assert.equal(must(children.find((r) => firstUserText(r).includes('JOB-A'))).body.model, 'claude-parent-1', 'no entry this API runs: the parent\'s model');
  });
});
