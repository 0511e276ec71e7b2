import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, lastToolResults, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { lastJsonLine, runDelegate } from '../support/run-cli';
import { cliSuite } from '../support/cli-suite';
import { isChild } from '../support/is-child';

const childOf = (marker: string) => (req: RecordedRequest): boolean => isChild(req) && firstUserText(req).includes(marker);

describe('probe2', function () {
  this.timeout(60_000);
  const cli = cliSuite();

  it('R1 A creates (write_file), B deletes it later; revert A then B', async () => {
    cli.api.route([
      { name: 'A', match: childOf('CHILD-A'), replies: [reply.toolUse({ name: 'write_file', input: { path: 'f.txt', content: 'by A\n' } }), reply.text('A done.')] },
      { name: 'B', match: childOf('CHILD-B'), replies: [reply.toolUse({ name: 'bash', input: { command: 'sleep 1; rm f.txt' } }, { delayMs: 300 }), reply.text('B done.')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse([{ name: 'task', input: { prompt: 'CHILD-A: a', description: 'do a' } }, { name: 'task', input: { prompt: 'CHILD-B: b', description: 'do b' } }]), reply.text('Done.')] },
    ]);
    const r = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--permission-mode', 'bypassPermissions'], { env: cli.env() });
    const res = lastJsonLine(r.stdout);
    const subs = res.subagents as { id: string; description: string; changes?: unknown }[];
    const a = subs.find((s) => s.description === 'do a')!;
    const b = subs.find((s) => s.description === 'do b')!;
    console.log('R1 A', JSON.stringify(a.changes), '\nB', JSON.stringify(b.changes));
    const one = await runDelegate(['revert', '--session', String(res.session_id), '--agent', a.id], { env: cli.env() });
    console.log('R1 revert A', one.code, one.stdout, one.stderr, 'f exists', existsSync(join(cli.dirs.workdir, 'f.txt')));
    const two = await runDelegate(['revert', '--session', String(res.session_id), '--agent', b.id], { env: cli.env() });
    console.log('R1 revert B', two.code, two.stdout, two.stderr, 'f exists', existsSync(join(cli.dirs.workdir, 'f.txt')) && readFileSync(join(cli.dirs.workdir, 'f.txt'), 'utf8'));
  });

  it('T1 url MCP server of an untrusted folder', async () => {
    let hits = 0;
    const srv = createServer((req, res) => { hits++; res.writeHead(500); res.end(); });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    writeFileSync(join(cli.dirs.workdir, '.mcp.json'), JSON.stringify({ mcpServers: { web: { type: 'http', url: `http://127.0.0.1:${port}/mcp?leak=1` } } }));
    mkdirSync(join(cli.dirs.workdir, '.claude'), { recursive: true });
    writeFileSync(join(cli.dirs.workdir, '.claude', 'settings.local.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `echo x > ${cli.dirs.workdir}/local-hook-ran` }] }] } }));
    cli.api.script(reply.text('ok'));
    const r = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir], { env: cli.env({ MCP_TIMEOUT: '1500' }) });
    srv.close();
    console.log('T1', r.code, r.stderr, 'hits', hits, 'local hook ran', existsSync(join(cli.dirs.workdir, 'local-hook-ran')));
  });

  it('W1 retry-after as an HTTP date 5 minutes ahead; and a far date', async () => {
    const date = new Date(Date.now() + 300_000).toUTCString();
    cli.api.script(reply.httpError(429, 'rate_limit_error', 'slow down', { retryAfterMs: null, headers: { 'retry-after': date } }), reply.text('never'));
    const t = Date.now();
    const r = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir], { env: cli.env() });
    console.log('W1', r.code, Date.now() - t, r.stderr);
    cli.api.script(reply.httpError(529, 'overloaded_error', 'Overloaded', { retryAfterMs: null, headers: { 'retry-after': 'Wed, 01 Jan 2200 00:00:00 GMT' } }), reply.text('answered'));
    const r2 = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir], { env: cli.env() });
    console.log('W1b', r2.code, r2.stderr, r2.stdout);
  });

  it('B1 a lying usage: negative output tokens keep the budget from ever being reached', async () => {
    cli.api.script(
      reply.toolUse({ name: 'bash', input: { command: 'echo 1' } }, { usage: { input_tokens: 10, output_tokens: -100_000_000 } }),
      reply.toolUse({ name: 'bash', input: { command: 'echo 2' } }, { usage: { input_tokens: 1_000_000, output_tokens: 10 } }),
      reply.toolUse({ name: 'bash', input: { command: 'echo 3' } }, { usage: { input_tokens: 1_000_000, output_tokens: 10 } }),
      reply.text('done', { usage: { input_tokens: 1_000_000, output_tokens: 10 } }),
    );
    const r = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--max-budget-usd', '2', '--permission-mode', 'bypassPermissions', '--output-format', 'json'], { env: cli.env() });
    const res = lastJsonLine(r.stdout);
    console.log('B1', r.code, r.stderr, res.total_cost_usd, res.subtype, cli.api.messageRequests().length);
    const inf = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--max-budget-usd', 'Infinity'], { env: cli.env() });
    console.log('B1 inf', inf.code, inf.stderr);
    const hex = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--max-budget-usd', '1e999'], { env: cli.env() });
    console.log('B1 1e999', hex.code, hex.stderr);
  });

  it('N1 agent names', async () => {
    const dir = join(cli.dirs.workdir, '.claude', 'agents');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'emoji.md'), '---\nname: 🤖🤖\ndescription: Emoji agent.\n---\nYou are emoji.\n');
    writeFileSync(join(dir, 'spaces.md'), '---\nname: "   "\ndescription: Spaces agent.\n---\nYou are spaces.\n');
    writeFileSync(join(dir, 'dots.md'), '---\nname: ../x\ndescription: Dots agent.\n---\nYou are dots.\n');
    writeFileSync(join(dir, 'tabs.md'), '---\nname: tabbed\ndescription:\tTabbed: agent with a tab\ntools:\n\t- Read\n---\nYou are tabbed.\n');
    writeFileSync(join(dir, 'bom.md'), '\uFEFF---\r\nname: bom-crlf\r\ndescription: BOM and CRLF agent.\r\n---\r\nYou are bom.\r\n');
    writeFileSync(join(dir, 'trail.md'), '--- \nname: trailing\ndescription: Trailing spaces after the fence.\n---  \nYou are trailing.\n');
    writeFileSync(join(dir, 'cr.md'), '---\rname: lonecr\rdescription: Lone CR.\r---\rYou are lonecr.\r');
    cli.api.script(reply.text('ok'));
    const r = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir], { env: cli.env() });
    const tools = cli.api.messageRequests()[0]?.body.tools ?? [];
    const task = tools.find((t) => t.name === 'task') as { description?: string } | undefined;
    console.log('N1', r.code, r.stderr, '\n', task?.description?.split('\n').filter((l) => l.startsWith('- ')).join('\n'));
  });
});
