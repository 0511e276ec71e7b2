/**
 * An agent file's `memory` through the built CLI, where Claude Code puts it: `project` in .claude/agent-memory/<name>/,
 * `user` in ~/.claude/agent-memory/<name>/. Its MEMORY.md head (200 lines) is in the agent's system prompt, and the
 * agent reads and writes that folder — and only that folder — with memory_read / memory_write / memory_edit, without
 * a question (the CLI cannot ask), whatever its `tools:` list says.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, lastToolResults, reply, systemText, type RecordedRequest } from '../fixtures/messages-api-server';
import { must } from '../kit/must';
import { runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

const toolNames = (req: RecordedRequest | undefined): string[] => req?.body.tools?.map((t) => t.name) ?? [];
const results = (req: RecordedRequest): { text: string; isError: boolean }[] =>
  lastToolResults(req).map((b) => ({ text: typeof b.content === 'string' ? b.content : JSON.stringify(b.content), isError: b.is_error === true }));

describe("delegate CLI: an agent file's memory", function () {
  this.timeout(60_000);
  const cli = cliSuite();

  it('memory: project — MEMORY.md head in its prompt; its memory tools write there, past its tools: Read; a path out of the folder is refused', async () => {
    const dir = join(cli.dirs.workdir, '.claude', 'agent-memory', 'code-reviewer');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'MEMORY.md'), `${Array.from({ length: 250 }, (_, i) => `- note ${i + 1}`).join('\n')}\n`);
    mkdirSync(join(cli.dirs.workdir, '.claude', 'agents'), { recursive: true });
    // Claude Code's documented example, with project scope.
    writeFileSync(
      join(cli.dirs.workdir, '.claude', 'agents', 'code-reviewer.md'),
      '---\nname: code-reviewer\ndescription: Reviews code for quality and best practices\ntools: Read\nmemory: project\n---\n\nYou are a code reviewer. As you review code, update your agent memory with\npatterns, conventions, and recurring issues you discover.\n',
    );
    cli.api.route([
      {
        name: 'reviewer',
        match: (r) => isChild(r) && firstUserText(r).includes('JOB-R'),
        replies: [
          reply.toolUse([
            { name: 'memory_write', input: { path: 'patterns.md', content: 'Errors are returned, never thrown.\n' } },
            { name: 'memory_edit', input: { path: 'MEMORY.md', old_text: '- note 1\n', new_text: '- note 1\n- see patterns.md\n' } },
            { name: 'memory_write', input: { path: '../../../escaped.md', content: 'out' } },
          ]),
          reply.text('reviewed'),
        ],
      },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'JOB-R: review', subagent_type: 'code-reviewer' } }), reply.text('done')] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    const child = cli.api.messageRequests().filter(isChild);
    const system = systemText(must(child[0]));
    assert.match(system, new RegExp(`persistent memory folder, ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(project scope\\)`));
    assert.match(system, /- note 1\n/);
    assert.match(system, /- note 200\n/);
    assert.doesNotMatch(system, /- note 201\b/);
    assert.match(system, /MEMORY\.md goes on past here \(251 lines\)/);
    assert.deepEqual(toolNames(child[0]), ['read_file', 'memory_read', 'memory_write', 'memory_edit']);
    const [write, edit, escape] = results(must(child[1]));
    assert.equal(write?.isError, false, write?.text);
    assert.equal(edit?.isError, false, edit?.text);
    assert.equal(escape?.isError, true, 'a path that leaves the folder is refused');
    assert.equal(readFileSync(join(dir, 'patterns.md'), 'utf8'), 'Errors are returned, never thrown.\n');
    assert.match(readFileSync(join(dir, 'MEMORY.md'), 'utf8'), /^- note 1\n- see patterns\.md\n- note 2\n/);
    assert.ok(!existsSync(join(cli.dirs.workdir, 'escaped.md')) && !existsSync(join(cli.dirs.workdir, '..', 'escaped.md')));
    assert.ok(!toolNames(cli.api.messageRequests().find((r) => !isChild(r))).some((n) => n.startsWith('memory_')), 'the parent has no memory tools');
  });

  it('memory: user — the folder is ~/.claude/agent-memory/<name>/, made at the first run; the next run reads what the first wrote', async () => {
    const home = join(cli.dirs.dataHome, 'home');
    mkdirSync(join(home, '.claude', 'agents'), { recursive: true });
    writeFileSync(join(home, '.claude', 'agents', 'learner.md'), '---\nname: learner\ndescription: Learns across projects.\nmemory: user\n---\nLEARNER-BODY\n');
    const job = (replies: ReturnType<typeof reply.text>[]) => [
      { name: 'learner', match: (r: RecordedRequest) => isChild(r) && firstUserText(r).includes('JOB-L'), replies },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'JOB-L: learn', subagent_type: 'learner' } }), reply.text('done')] },
    ];
    cli.api.route(job([reply.toolUse({ name: 'memory_write', input: { path: 'MEMORY.md', content: '- the build is `make all`\n' } }), reply.text('learned')]));
    const first = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env({ HOME: home }) });
    assert.equal(first.code, 0, first.stderr);
    cli.api.assertAllConsumed();
    assert.equal(readFileSync(join(home, '.claude', 'agent-memory', 'learner', 'MEMORY.md'), 'utf8'), '- the build is `make all`\n');
    const before = cli.api.messageRequests().length;
    cli.api.route(job([reply.text('I remember')]));
    const second = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env({ HOME: home }) });
    assert.equal(second.code, 0, second.stderr);
    const child = must(cli.api.messageRequests().slice(before).find(isChild));
    assert.match(systemText(child), /## MEMORY\.md\n- the build is `make all`/);
  });

  it('a project memory folder that is a link out of the workspace (a hostile repository) gets no memory tools, and the agent is told', async () => {
    const outside = join(cli.dirs.dataHome, 'outside');
    mkdirSync(outside, { recursive: true });
    mkdirSync(join(cli.dirs.workdir, '.claude', 'agent-memory'), { recursive: true });
    symlinkSync(outside, join(cli.dirs.workdir, '.claude', 'agent-memory', 'keeper'));
    mkdirSync(join(cli.dirs.workdir, '.claude', 'agents'), { recursive: true });
    writeFileSync(join(cli.dirs.workdir, '.claude', 'agents', 'keeper.md'), '---\nname: keeper\ndescription: Keeps notes.\nmemory: project\n---\nKEEPER-BODY\n');
    cli.api.route([
      { name: 'keeper', match: (r) => isChild(r) && firstUserText(r).includes('JOB-K'), replies: [reply.toolUse({ name: 'memory_write', input: { path: 'authorized_keys', content: 'ssh-rsa AAAA' } }), reply.text('no memory')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'JOB-K: keep', subagent_type: 'keeper' } }), reply.text('done')] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const child = cli.api.messageRequests().filter(isChild);
    assert.match(systemText(must(child[0])), /is not usable: it leads out of the workspace/);
    assert.ok(!toolNames(child[0]).some((n) => n.startsWith('memory_')), toolNames(child[0]).join(', '));
    assert.ok(!existsSync(join(outside, 'authorized_keys')));
  });

  it('stream-json: a memory agent\'s agent_started names its scope and folder (refused: a folder that leads out); other agents none', async () => {
    const outside = join(cli.dirs.dataHome, 'outside-2');
    mkdirSync(outside, { recursive: true });
    mkdirSync(join(cli.dirs.workdir, '.claude', 'agent-memory-local'), { recursive: true });
    symlinkSync(outside, join(cli.dirs.workdir, '.claude', 'agent-memory-local', 'hoarder'));
    mkdirSync(join(cli.dirs.workdir, '.claude', 'agents'), { recursive: true });
    writeFileSync(join(cli.dirs.workdir, '.claude', 'agents', 'scribe.md'), '---\nname: scribe\ndescription: Writes notes.\nmemory: project\n---\nSCRIBE-BODY\n');
    writeFileSync(join(cli.dirs.workdir, '.claude', 'agents', 'hoarder.md'), '---\nname: hoarder\ndescription: Hoards notes.\nmemory: local\n---\nHOARDER-BODY\n');
    cli.api.route([
      { name: 'scribe', match: (r) => isChild(r) && firstUserText(r).includes('JOB-S'), replies: [reply.text('noted')] },
      { name: 'hoarder', match: (r) => isChild(r) && firstUserText(r).includes('JOB-H'), replies: [reply.text('no memory')] },
      { name: 'plain', match: (r) => isChild(r) && firstUserText(r).includes('JOB-P'), replies: [reply.text('plain')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse([
            { name: 'task', input: { prompt: 'JOB-S: note', subagent_type: 'scribe' } },
            { name: 'task', input: { prompt: 'JOB-H: hoard', subagent_type: 'hoarder' } },
            { name: 'task', input: { prompt: 'JOB-P: plain' } },
          ]),
          reply.text('done'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'stream-json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    const started = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.type === 'agent_started' && e.parentId !== null);
    const of = (type: string): Record<string, unknown> => must(started.find((e) => e.agentType === type));
    assert.deepEqual(of('scribe').memory, { scope: 'project', dir: join(cli.dirs.workdir, '.claude', 'agent-memory', 'scribe') });
    assert.deepEqual(of('hoarder').memory, { scope: 'local', dir: join(cli.dirs.workdir, '.claude', 'agent-memory-local', 'hoarder'), refused: true });
    assert.equal(of('general-purpose').memory, undefined);
  });
});
