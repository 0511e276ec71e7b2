/**
 * An agent file's `hooks` through the built CLI, as Claude Code documents them: settings.json's shape in the front
 * matter, run only while that agent runs (its own calls, its end: a frontmatter Stop is SubagentStop), removed when
 * it finishes; a project agent file's hooks are the folder's commands and wait for its trust. The agent is Claude
 * Code's documented `db-reader` example, with the validation script the docs give (grep instead of jq).
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentText, firstUserText, lastToolResults, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { must } from '../kit/must';
import { runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

const resultText = (req: RecordedRequest): string => lastToolResults(req).map((b) => (typeof b.content === 'string' ? b.content : JSON.stringify(b.content))).join('\n');
const lastUserText = (req: RecordedRequest): string => contentText(req.body.messages?.at(-1)?.content);

function dbReader(workdir: string): void {
  mkdirSync(join(workdir, '.claude', 'agents'), { recursive: true });
  mkdirSync(join(workdir, 'scripts'), { recursive: true });
  const script = join(workdir, 'scripts', 'validate-readonly-query.sh');
  writeFileSync(
    script,
    [
      '#!/bin/bash',
      'INPUT=$(cat)',
      "if echo \"$INPUT\" | grep -iqE '\\b(INSERT|UPDATE|DELETE|DROP|CREATE|ALTER|TRUNCATE)\\b'; then",
      '  echo "Blocked: Only SELECT queries are allowed" >&2',
      '  exit 2',
      'fi',
      'exit 0',
      '',
    ].join('\n'),
  );
  chmodSync(script, 0o755);
  writeFileSync(
    join(workdir, '.claude', 'agents', 'db-reader.md'),
    [
      '---',
      'name: db-reader',
      'description: Execute read-only database queries',
      'tools: Bash',
      'hooks:',
      '  PreToolUse:',
      '    - matcher: "Bash"',
      '      hooks:',
      '        - type: command',
      '          command: "./scripts/validate-readonly-query.sh"',
      '  Stop:',
      '    - hooks:',
      '        - type: command',
      '          command: "test -f .stopped-once || { touch .stopped-once; echo \\"say which queries you ran\\" >&2; exit 2; }"',
      '---',
      'DB-READER-BODY',
      '',
    ].join('\n'),
  );
}

describe("delegate CLI: an agent file's hooks", function () {
  this.timeout(60_000);
  const cli = cliSuite();

  it("its PreToolUse hook blocks that agent's call, its Stop runs as SubagentStop, and neither touches the parent's calls", async () => {
    dbReader(cli.dirs.workdir);
    cli.api.route([
      {
        name: 'db-reader',
        match: (r) => isChild(r) && firstUserText(r).includes('JOB-DB'),
        replies: [reply.toolUse({ name: 'bash', input: { command: 'echo DROP TABLE users' } }), reply.text('could not drop'), reply.text('I ran no query')],
      },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse({ name: 'task', input: { prompt: 'JOB-DB: clean up', subagent_type: 'db-reader' } }),
          reply.toolUse({ name: 'bash', input: { command: 'echo DROP TABLE parent-side' } }),
          reply.text('done'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--trust-folder', '--allowed-tools', 'Bash', '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    const child = cli.api.messageRequests().filter((r) => isChild(r) && firstUserText(r).includes('JOB-DB'));
    assert.equal(child.length, 3, 'a call, an answer the Stop hook sent back, the final answer');
    assert.match(resultText(must(child[1])), /Blocked: Only SELECT queries are allowed/);
    assert.match(lastUserText(must(child[2])), /say which queries you ran/);
    assert.ok(existsSync(join(cli.dirs.workdir, '.stopped-once')));
    const parent = cli.api.messageRequests().filter((r) => !isChild(r));
    const parentBash = resultText(must(parent[2]));
    assert.match(parentBash, /DROP TABLE parent-side/, 'the parent\'s own call is not the agent\'s: its hook is gone');
    assert.doesNotMatch(parentBash, /Blocked/);
  });

  it("a project agent file's hooks wait for the folder's trust: not trusted, they do not run, and one notice says why", async () => {
    dbReader(cli.dirs.workdir);
    cli.api.route([
      {
        name: 'db-reader',
        match: (r) => isChild(r) && firstUserText(r).includes('JOB-DB'),
        replies: [reply.toolUse({ name: 'bash', input: { command: 'echo DROP TABLE users' } }), reply.text('dropped')],
      },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'JOB-DB: clean up', subagent_type: 'db-reader' } }), reply.text('done')] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--allowed-tools', 'Bash', '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    assert.match(run.stderr, /agent "db-reader": its hooks did not run: this folder is not trusted, and the agent file is the folder's \(hooks run commands outside the sandbox\): run with --trust-folder/);
    const child = cli.api.messageRequests().filter((r) => isChild(r));
    assert.match(resultText(must(child[1])), /DROP TABLE users/);
    assert.ok(!existsSync(join(cli.dirs.workdir, '.stopped-once')), 'its Stop hook did not run either');
  });
});
