/**
 * MCP through the built CLI: --mcp-config and the folder's .mcp.json start the real reference server
 * (server-everything, by path from node_modules), --allowed-tools / --disallowed-tools, what cannot be used
 * said once on stderr (a server that never answers `initialize` too), and no server process left once the CLI has exited.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastToolResults, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { EVERYTHING, serverGroupsOf } from '../kit/mcp-servers';
import { waitUntil } from '../kit/wait';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { cliSuite } from '../kit/cli-suite';

const everything = { command: process.execPath, args: [EVERYTHING] };
const SILENT = join(__dirname, '..', 'fixtures', 'mcp-silent-server.mjs');
/** SIGKILLed before the CLI exits, a server may still be tearing down for a moment on a busy machine. */
const noServerLeft = () => waitUntil(() => serverGroupsOf(EVERYTHING).length === 0, 'no server process left', 3000);
const toolNames = (req: RecordedRequest | undefined): string[] => req?.body.tools?.map((t) => t.name) ?? [];

describe('delegate CLI: MCP servers', function () {
  this.timeout(40_000);
  const cli = cliSuite();


  it('--mcp-config FILE: the model calls mcp__everything__echo (allowed by --allowed-tools) and gets "Echo: …"; no server process is left', async () => {
    const file = join(cli.dirs.workdir, '..', 'servers.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { everything: everything } }));
    cli.api.script(reply.toolUse({ name: 'mcp__everything__echo', input: { message: 'from the CLI' } }), reply.text('It echoed.'));
    const run = await runDelegate(['-p', 'echo something', '--cwd', cli.dirs.workdir, '--mcp-config', file, '--allowed-tools', 'mcp__everything__echo', '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '', 'nothing to report');
    assert.equal(lastJsonLine(run.stdout).result, 'It echoed.');
    const [first, second] = cli.api.messageRequests();
    const echo = first?.body.tools?.find((t) => t.name === 'mcp__everything__echo');
    assert.ok(echo, `the first request offers the server's tools (${toolNames(first).join(', ')})`);
    assert.deepEqual((echo.input_schema as { required?: string[] } | undefined)?.required, ['message']);
    const [result] = lastToolResults(second as RecordedRequest);
    assert.equal(result?.content, 'Echo: from the CLI');
    assert.equal(result?.is_error, undefined);
    await noServerLeft();
  });

  it(".mcp.json in the folder: started where the folder is trusted (--trust-folder); in default mode the call is refused with the flag that would allow it", async () => {
    writeFileSync(join(cli.dirs.workdir, '.mcp.json'), JSON.stringify({ mcpServers: { everything } }));
    cli.api.script(reply.toolUse({ name: 'mcp__everything__echo', input: { message: 'x' } }), reply.text('Refused, as expected.'));
    const run = await runDelegate(['-p', 'echo', '--cwd', cli.dirs.workdir, '--trust-folder'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const [result] = lastToolResults(cli.api.messageRequests()[1] as RecordedRequest);
    assert.equal(result?.is_error, true);
    assert.match(String(result?.content), /--allowed-tools mcp__everything__echo \(or --allowed-tools mcp__everything for every tool of that server\)/);
    await noServerLeft();
  });

  it('plan mode: a read-only tool (readOnlyHint) is asked like web_fetch, so the headless run refuses it naming the rules; the tool or its server allowed, it runs; a tool that may change things stays refused', async () => {
    const file = join(cli.dirs.workdir, '..', 'servers.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { everything } }));
    const calls = [
      { name: 'mcp__everything__echo', input: { message: 'the .env says KEY=1' } },
      { name: 'mcp__everything__toggle-simulated-logging', input: {} },
    ];
    cli.api.script(reply.toolUse(calls), reply.text('Refused.'));
    const refused = await runDelegate(['-p', 'look around', '--cwd', cli.dirs.workdir, '--mcp-config', file, '--permission-mode', 'plan'], { env: cli.env() });
    assert.equal(refused.code, 0, refused.stderr);
    const [echo, toggle] = lastToolResults(cli.api.messageRequests()[1] as RecordedRequest);
    assert.equal(echo?.is_error, true);
    assert.match(String(echo?.content), /plan mode is read-only, but a read-only tool still sends its input to its server, which can carry what the agent read: mcp__everything__echo wants to send message: the \.env says KEY=1/);
    assert.match(String(echo?.content), /rerun with --allowed-tools mcp__everything__echo \(or --allowed-tools mcp__everything for every tool of that server\)/);
    assert.match(String(toggle?.content), /plan mode: mcp__everything__toggle-simulated-logging may change things outside the workspace/);

    for (const rule of ['mcp__everything__echo', 'mcp__everything']) {
      cli.api.script(reply.toolUse(calls), reply.text('Echoed.'));
      const allowed = await runDelegate(['-p', 'look around', '--cwd', cli.dirs.workdir, '--mcp-config', file, '--permission-mode', 'plan', '--allowed-tools', rule], { env: cli.env() });
      assert.equal(allowed.code, 0, allowed.stderr);
      const [ran, stillRefused] = lastToolResults(cli.api.messageRequests().at(-1) as RecordedRequest);
      assert.equal(ran?.content, 'Echo: the .env says KEY=1', rule);
      assert.match(String(stillRefused?.content), /plan mode: mcp__everything__toggle-simulated-logging may change things/, rule);
    }
    await noServerLeft();
  });

  it('what cannot be used is one stderr line each (file and why); the rest loads; -v says what connected', async () => {
    writeFileSync(join(cli.dirs.workdir, '.mcp.json'), '{ "mcpServers": { "half": ');
    const file = join(cli.dirs.workdir, '..', 'more.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          everything,
          unset: { command: 'x', env: { TOKEN: '${DELEGATE_TEST_UNSET_TOKEN}' } },
          crashing: { command: process.execPath, args: ['-e', 'console.error("no config here"); process.exit(2)'] },
        },
      }),
    );
    cli.api.script(reply.text('Fine.'));
    const run = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir, '--mcp-config', file, '--disallowed-tools', 'Bash,mcp__everything__get-env', '-v'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stderr.split('\n').filter((l) => l.includes('MCP'));
    assert.equal(lines.filter((l) => l.startsWith(`delegate: warning: ${join(cli.dirs.workdir, '.mcp.json')}: MCP config is not valid JSON`)).length, 1, run.stderr);
    assert.equal(lines.filter((l) => l.includes(`${file}: MCP server "unset": cannot start: the environment variable DELEGATE_TEST_UNSET_TOKEN is not set`)).length, 1, run.stderr);
    assert.equal(lines.filter((l) => /^delegate: error: .*more\.json: MCP server "crashing" failed: it exited with code 2; it said: no config here \(it was started 2 times\)/.test(l)).length, 1, run.stderr);
    assert.equal(lines.filter((l) => /^delegate: info: .*: MCP server "everything": connected \(stdio\), \d+ tools/.test(l)).length, 1, run.stderr);
    const offered = toolNames(cli.api.messageRequests()[0]);
    assert.ok(offered.includes('mcp__everything__echo'));
    assert.ok(!offered.includes('bash') && !offered.includes('mcp__everything__get-env'), `disallowed tools are not offered: ${offered.join(', ')}`);
  });

  it('inline --mcp-config JSON with --strict-mcp-config (the folder\'s broken .mcp.json is not read), --allowedTools in camelCase; a server needing ${input:…} and a content rule are reported', async () => {
    writeFileSync(join(cli.dirs.workdir, '.mcp.json'), '{ not json');
    const vscodeStyle = join(cli.dirs.workdir, '..', 'vscode-mcp.json');
    writeFileSync(vscodeStyle, JSON.stringify({ inputs: [{ type: 'promptString', id: 'token', description: 'Token' }], servers: { needy: { command: 'x', env: { T: '${input:token}' } } } }));
    cli.api.script(reply.toolUse({ name: 'mcp__inline__echo', input: { message: 'inline' } }), reply.text('done'));
    const inline = JSON.stringify({ mcpServers: { inline: everything } });
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--strict-mcp-config', '--mcp-config', inline, '--mcp-config', vscodeStyle, '--allowedTools', 'mcp__inline', '--disallowed-tools', 'Bash(rm:*)'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /\.mcp\.json/, 'the folder\'s file is not read');
    assert.match(run.stderr, /^delegate: warning: .*vscode-mcp\.json: MCP server "needy": it needs \$\{input:token\}, which only the editor can ask for$/m);
    assert.match(run.stderr, /^delegate: disallowed tool rule "Bash\(rm:\*\)": rules with content are not supported, so all of bash is disallowed$/m);
    assert.ok(!toolNames(cli.api.messageRequests()[0]).includes('bash'));
    assert.equal(lastToolResults(cli.api.messageRequests()[1] as RecordedRequest)[0]?.content, 'Echo: inline');
    await noServerLeft();
  });

  it('a server that never answers initialize: one stderr line (without -v) names it and the wait that expired; the run waits no longer and leaves no process', async () => {
    const file = join(cli.dirs.workdir, '..', 'silent.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { quiet: { command: process.execPath, args: [SILENT] } } }));
    cli.api.script(reply.text('Answered without it.'));
    const started = Date.now();
    const run = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir, '--mcp-config', file], { env: cli.env() });
    const took = Date.now() - started;
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, 'Answered without it.\n');
    const lines = run.stderr.split('\n').filter((l) => l.includes('MCP'));
    assert.deepEqual(lines, [
      `delegate: warning: ${file}: MCP server "quiet" has not answered "initialize" within 5 s: the first request goes without its tools (they join later if it answers; MCP_TIMEOUT gives it 30 s, and one restart)`,
    ]);
    assert.ok(took < 12_000, `the run took ${took} ms`);
    await waitUntil(() => serverGroupsOf(SILENT).length === 0, 'no silent server left', 3000);
  });

  it('MCP_TIMEOUT below the 5 s wait bounds it, and the line names MCP_TIMEOUT', async () => {
    const inline = JSON.stringify({ mcpServers: { quiet: { command: process.execPath, args: [SILENT] } } });
    cli.api.script(reply.text('ok'));
    const started = Date.now();
    const run = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir, '--mcp-config', inline], { env: { ...cli.env(), MCP_TIMEOUT: '1000' } });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^delegate: warning: --mcp-config \(inline JSON\): MCP server "quiet" has not answered "initialize" within 1 s \(MCP_TIMEOUT\): the first request goes without its tools/m);
    assert.ok(Date.now() - started < 4500, `the wait was bounded by MCP_TIMEOUT (${Date.now() - started} ms)`);
  });
});
