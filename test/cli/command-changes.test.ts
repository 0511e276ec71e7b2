/**
 * Files a subagent changes through bash, end to end through the built CLI and the real SDK against the local
 * Messages-API server: `sed -i`, a created and a deleted file in a git work tree are in the task result's
 * `[changes]` footer and the JSON manifest with the command that made them, and `delegate revert` puts them
 * back; two parallel children whose commands overlap are both named (shared) when neither names the file; a
 * folder outside git works the same; an MCP tool's write is found and reverted the same way.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, lastToolResults, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

const WRITER = join(__dirname, '..', 'fixtures', 'mcp-writer-server.mjs');
const childOf = (marker: string) => (req: RecordedRequest): boolean => isChild(req) && firstUserText(req).includes(marker);
const CONFIG = 'export const retries = 3;\nexport const delay = 10;\n';
const B_CMD = "sleep 0.3; sh -c 'echo b > b.txt'";
const SED = "sed -i 's/retries = 3/retries = 5/' config.ts && printf 'a\\nb\\n' > gen.ts && rm old.ts";

interface Subagent {
  id: string;
  description: string;
  changes?: { files: { path: string; action: string; added: number; removed: number; by?: { tool: string; command: string; agent_id: string }[]; overlapping?: true; shared?: true }[] };
}

describe('delegate CLI: files changed through bash and MCP', function () {
  this.timeout(30_000);
  const cli = cliSuite();

  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: cli.dirs.workdir, stdio: 'ignore' });
  const write = (rel: string, text: string): void => writeFileSync(join(cli.dirs.workdir, rel), text);
  const read = (rel: string): string => readFileSync(join(cli.dirs.workdir, rel), 'utf8');
  const parentFooters = (): string[] => lastToolResults(cli.api.messageRequests().filter((r) => !isChild(r)).at(-1) as RecordedRequest).map((r) => String(r.content));

  async function sedChild(): Promise<{ sessionId: string; child: Subagent }> {
    cli.api.route([
      { name: 'child', match: isChild, replies: [reply.toolUse({ name: 'bash', input: { command: SED } }), reply.text('Raised.')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'Raise the retries.', description: 'raise retries' } }), reply.text('ok')] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--permission-mode', 'bypassPermissions'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    const result = lastJsonLine(run.stdout);
    return { sessionId: String(result.session_id), child: (result.subagents as Subagent[])[0] as Subagent };
  }

  for (const kind of ['a git work tree', 'a folder outside git'] as const) {
    it(`in ${kind}: sed -i, a created and a deleted file are in [changes] and the JSON manifest by that command; delegate revert puts them back`, async () => {
      write('config.ts', CONFIG);
      write('old.ts', 'legacy\n');
      if (kind === 'a git work tree') {
        git('init', '-q');
        git('add', '.');
        git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
      }
      const { sessionId, child } = await sedChild();
      assert.equal(read('config.ts'), 'export const retries = 5;\nexport const delay = 10;\n');
      const by = [{ tool: 'bash', command: SED, agent_id: child.id }];
      assert.deepEqual(
        [...(child.changes?.files ?? [])].sort((x, y) => x.path.localeCompare(y.path)),
        [
          { path: 'config.ts', action: 'modified', added: 1, removed: 1, by },
          { path: 'gen.ts', action: 'created', added: 2, removed: 0, by },
          { path: 'old.ts', action: 'deleted', added: 0, removed: 1, by },
        ],
      );
      const [footer] = parentFooters();
      assert.equal(
        footer,
        "Raised.\n\n[changes] modified config.ts (+1 -1), deleted old.ts (-1), created gen.ts (+2) by `sed -i 's/retries = 3/retries = 5/' config.ts && printf 'a\\…`; " +
          "ran `sed -i 's/retries = 3/retries = 5/' config.ts && printf 'a\\nb\\n' > gen.ts && rm…` (exit 0)\n" +
          `[subagent ${child.id}: send_message and read_subagent reach it]`,
      );

      const revert = await runDelegate(['revert', '--session', sessionId, '--agent', child.id], { env: cli.env() });
      assert.equal(revert.code, 0, revert.stderr);
      assert.deepEqual(revert.stdout.trim().split('\n').sort(), ['deleted   gen.ts', 'recreated old.ts', 'restored  config.ts']);
      assert.equal(read('config.ts'), CONFIG);
      assert.equal(read('old.ts'), 'legacy\n');
      assert.equal(existsSync(join(cli.dirs.workdir, 'gen.ts')), false);
      if (kind === 'a git work tree') assert.equal(execFileSync('git', ['status', '--porcelain'], { cwd: cli.dirs.workdir }).toString(), '', 'the work tree is clean again');
    });
  }

  it('a file already dirty before the command is put back to its dirty content, not the committed one', async () => {
    write('config.ts', CONFIG);
    write('old.ts', 'legacy\n');
    git('init', '-q');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
    write('config.ts', `${CONFIG}// mine, not committed\n`);
    const { sessionId, child } = await sedChild();
    assert.deepEqual(child.changes?.files.find((f) => f.path === 'config.ts'), { path: 'config.ts', action: 'modified', added: 1, removed: 1, by: [{ tool: 'bash', command: SED, agent_id: child.id }] });
    const revert = await runDelegate(['revert', '--session', sessionId, '--agent', child.id], { env: cli.env() });
    assert.equal(revert.code, 0, revert.stderr);
    assert.equal(read('config.ts'), `${CONFIG}// mine, not committed\n`);
  });

  it('an MCP tool that writes a file: in [changes] by that call, reverted by delegate revert', async () => {
    write('config.ts', CONFIG);
    const servers = join(cli.dirs.workdir, '..', 'servers.json');
    writeFileSync(servers, JSON.stringify({ mcpServers: { writer: { command: process.execPath, args: [WRITER] } } }));
    cli.api.route([
      {
        name: 'child',
        match: isChild,
        replies: [
          reply.toolUse([
            { name: 'mcp__writer__write', input: { path: 'config.ts', text: 'export const retries = 9;\n' } },
            { name: 'mcp__writer__peek', input: { path: 'config.ts' } },
          ]),
          reply.text('Written through MCP.'),
        ],
      },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'Write it.', description: 'mcp write' } }), reply.text('ok')] },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--mcp-config', servers, '--output-format', 'json', '--permission-mode', 'bypassPermissions'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    const result = lastJsonLine(run.stdout);
    const child = (result.subagents as Subagent[])[0] as Subagent;
    const command = 'mcp__writer__write path: config.ts, text: export const retries = 9;';
    assert.deepEqual(child.changes?.files, [{ path: 'config.ts', action: 'modified', added: 1, removed: 2, by: [{ tool: 'mcp__writer__write', command, agent_id: child.id }] }]);
    assert.deepEqual(parentFooters(), [`Written through MCP.\n\n[changes] modified config.ts (+1 -2) by \`mcp__writer__write path: config.ts, text: export const retr…\`\n[subagent ${child.id}: send_message and read_subagent reach it]`]);
    const revert = await runDelegate(['revert', '--session', String(result.session_id), '--agent', child.id], { env: cli.env() });
    assert.equal(revert.code, 0, revert.stderr);
    assert.equal(read('config.ts'), CONFIG);
  });

  it('two parallel children whose commands overlap: a change found while both ran that neither command names names both, shared in each manifest', async () => {
    write('config.ts', CONFIG);
    cli.api.route([
      // A's command is still running when B's ends: B's file could be A's doing as far as anyone can tell.
      { name: 'A', match: childOf('CHILD-A'), replies: [reply.toolUse({ name: 'bash', input: { command: 'sleep 2.5; echo a > a.txt' } }), reply.text('A done.')] },
      // B writes b.txt through a script in a string: its command does not name the file either (see revert-overlap.test.ts).
      { name: 'B', match: childOf('CHILD-B'), replies: [reply.toolUse({ name: 'bash', input: { command: B_CMD } }, { delayMs: 300 }), reply.text('B done.')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse([
            { name: 'task', input: { prompt: 'CHILD-A: write a', description: 'write a' } },
            { name: 'task', input: { prompt: 'CHILD-B: write b', description: 'write b' } },
          ]),
          reply.text('Done.'),
        ],
      },
    ]);
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--permission-mode', 'bypassPermissions'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const subagents = lastJsonLine(run.stdout).subagents as Subagent[];
    const a = subagents.find((s) => s.description === 'write a') as Subagent;
    const b = subagents.find((s) => s.description === 'write b') as Subagent;
    const both = [
      { tool: 'bash', command: 'sleep 2.5; echo a > a.txt', agent_id: a.id },
      { tool: 'bash', command: B_CMD, agent_id: b.id },
    ];
    // B's file appeared while A's command ran too; A's appeared after B's had ended: A's alone.
    assert.deepEqual(b.changes?.files, [{ path: 'b.txt', action: 'created', added: 1, removed: 0, by: both, overlapping: true, shared: true }]);
    assert.deepEqual(a.changes?.files.map((f) => `${f.path} ${f.by?.map((c) => c.agent_id).join(',')}`).sort(), [`a.txt ${a.id}`, `b.txt ${a.id},${b.id}`]);
    assert.deepEqual(parentFooters(), [
      `A done.\n\n[changes] created b.txt (+1) by \`sleep 2.5; echo a > a.txt\` or \`${B_CMD}\` (calls overlapped); created a.txt (+1) by \`sleep 2.5; echo a > a.txt\`; ran \`sleep 2.5; echo a > a.txt\` (exit 0)\n[subagent ${a.id}: send_message and read_subagent reach it]`,
      `B done.\n\n[changes] created b.txt (+1) by \`sleep 2.5; echo a > a.txt\` or \`${B_CMD}\` (calls overlapped); ran \`${B_CMD}\` (exit 0)\n[subagent ${b.id}: send_message and read_subagent reach it]`,
    ]);
  });
});
