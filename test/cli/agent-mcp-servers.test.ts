/**
 * An agent file's `mcpServers` through the built CLI, as Claude Code documents it: an inline server is this agent's
 * alone (the parent never sees its tools), started when the agent starts and stopped when it finishes; a name refers
 * to a configured server (one the session lacks is a warning); a project agent file's server is the folder's
 * command, so it waits for the folder's trust as .mcp.json's servers do. The server is the real MCP reference
 * server (server-everything, from node_modules by path).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, lastToolResults, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { EVERYTHING, serverGroupsOf } from '../kit/mcp-servers';
import { must } from '../kit/must';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';
import { waitUntil } from '../kit/wait';

const toolNames = (req: RecordedRequest | undefined): string[] => req?.body.tools?.map((t) => t.name) ?? [];
const resultText = (req: RecordedRequest): string => lastToolResults(req).map((b) => (typeof b.content === 'string' ? b.content : JSON.stringify(b.content))).join('\n');

/** Claude Code's documented shape: a list of names and one-key {name: config} entries. */
function browserTester(workdir: string): void {
  mkdirSync(join(workdir, '.claude', 'agents'), { recursive: true });
  writeFileSync(
    join(workdir, '.claude', 'agents', 'echoer.md'),
    [
      '---',
      'name: echoer',
      'description: Echoes things through its own MCP server.',
      'tools: Read',
      'mcpServers:',
      '  # Inline definition: scoped to this subagent only',
      '  - everything:',
      '      type: stdio',
      `      command: ${JSON.stringify(process.execPath)}`,
      `      args: [${JSON.stringify(EVERYTHING)}]`,
      '  # Reference by name: reuses an already-configured server',
      '  - github',
      '---',
      'ECHOER-BODY',
      '',
    ].join('\n'),
  );
}

describe("delegate CLI: an agent file's mcpServers", function () {
  this.timeout(60_000);
  const cli = cliSuite();

  it('an inline server is started for that agent only, its tools are its alone (past its tools: Read), and it is stopped when the agent ends', async () => {
    browserTester(cli.dirs.workdir);
    // Server processes seen while the agent runs (its second request) and when the parent gets its result.
    const seen: Record<string, number> = {};
    const count = (when: string, r: RecordedRequest): boolean => ((seen[when] ??= lastToolResults(r).length ? serverGroupsOf(EVERYTHING).length : -1), true);
    cli.api.route([
      {
        name: 'echoer',
        match: (r) => isChild(r) && firstUserText(r).includes('JOB-E') && (lastToolResults(r).length === 0 || count('child', r)),
        replies: [reply.toolUse({ name: 'mcp__everything__echo', input: { message: 'from the agent' } }), reply.text('echoed')],
      },
      { name: 'parent', match: (r) => lastToolResults(r).length === 0 || count('parent', r), replies: [reply.toolUse({ name: 'task', input: { prompt: 'JOB-E: echo', subagent_type: 'echoer' } }), reply.text('done')] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--trust-folder', '--allowed-tools', 'mcp__everything__echo', '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    assert.match(run.stderr, /echoer\.md: agent "echoer" names the MCP server "github", which this session has not configured: it runs without it/);
    const parent = cli.api.messageRequests().filter((r) => !isChild(r));
    for (const req of parent) assert.ok(!toolNames(req).some((n) => n.startsWith('mcp__')), 'the parent never gets the agent\'s server');
    const child = cli.api.messageRequests().filter(isChild);
    const tools = toolNames(child[0]);
    assert.ok(tools.includes('read_file') && tools.includes('mcp__everything__echo'), tools.join(', '));
    assert.ok(!tools.includes('bash'), 'its tools: Read still holds for the rest');
    assert.match(resultText(must(child[1])), /Echo: from the agent/);
    assert.equal(lastJsonLine(run.stdout).result, 'done');
    assert.equal(seen.child, 1, 'its server runs while the agent does');
    assert.equal(seen.parent, 0, 'and is stopped before the parent gets the result');
    await waitUntil(() => serverGroupsOf(EVERYTHING).length === 0, 'no server process left', 3000);
  });

  it("a project agent's server waits for the folder's trust: not trusted, it is not started, one notice says why, and the agent runs without it", async () => {
    browserTester(cli.dirs.workdir);
    cli.api.route([
      { name: 'echoer', match: (r) => isChild(r) && firstUserText(r).includes('JOB-E'), replies: [reply.text('nothing to echo with')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'JOB-E: echo', subagent_type: 'echoer' } }), reply.text('done')] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    assert.match(run.stderr, /agent "echoer": MCP server "everything" was not started: this folder is not trusted, and the agent file is the folder's \(it runs .* outside the sandbox\): run with --trust-folder/);
    const child = must(cli.api.messageRequests().find(isChild));
    assert.ok(!toolNames(child).some((n) => n.startsWith('mcp__')), toolNames(child).join(', '));
    assert.deepEqual(serverGroupsOf(EVERYTHING), []);
  });
});
