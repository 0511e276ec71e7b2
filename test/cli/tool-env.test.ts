/**
 * No agent's tools see the API credentials, through the built CLI: bash (main agent and a subagent, sandbox off and
 * on) prints its environment, the CLI's /proc/<pid>/environ and every environment block it can read; a hook's
 * command and an MCP stdio server write theirs to a file; a config's `${ANTHROPIC_API_KEY}` does not expand. The
 * fake credentials are distinctive: none may appear in any request the server gets (what the model is told), nor in
 * any file the run leaves. `--tool-env NAME` lets exactly that one through; a proxy URL keeps its host, not its
 * password.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, lastToolResults, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { runDelegate } from '../kit/run-cli';
import { cliSuite } from '../kit/cli-suite';
import { tempDir } from '../kit/temp-dirs';

// Distinctive values; the commands below look for their `FAKE…` stems, never for a whole value.
const KEY = 'sk-ant-FAKEKEY-5ad1e0c9b7f24e61';
const TOKEN = 'FAKETOKEN-b62f0e91c4d87a35';
const AWS = 'FAKEAWS-0e4c71d92ab85f36';
const INPUT_KEY = 'FAKEINPUT-9c3e5a17f0b2d648';
const PROXY_PASS = 'FAKEPROXYPASS-7d14b9e2';
const SECRETS = [KEY, TOKEN, AWS, INPUT_KEY, PROXY_PASS];

/** What a hostile model would run: its environment, the CLI's, and every environment block it can read. */
const SNOOP = [
  'env',
  'echo "--- parent $PPID"',
  "tr '\\0' '\\n' < /proc/$PPID/environ",
  'echo "--- every readable environ"',
  "for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < \"$f\" 2>/dev/null | grep -a 'FAKE' | sed \"s|^|$f: |\"; done",
  'echo "--- end"',
].join('; ');

/** The test's own credentials and the other withheld kinds: the runner's input, a cloud secret, proxies with a password. */
function secretEnv(cli: ReturnType<typeof cliSuite>, extra: Record<string, string> = {}): Record<string, string> {
  return cli.env({
    ANTHROPIC_API_KEY: KEY,
    ANTHROPIC_AUTH_TOKEN: TOKEN,
    AWS_SECRET_ACCESS_KEY: AWS,
    'INPUT_ANTHROPIC-API-KEY': INPUT_KEY,
    // The CLI's own requests go to 127.0.0.1 (NO_PROXY); its commands would use these.
    HTTPS_PROXY: `http://proxyuser:${PROXY_PASS}@proxy.example:3128`,
    http_proxy: `http://proxyuser:${PROXY_PASS}@proxy.example:3128/`,
    NO_PROXY: '127.0.0.1,localhost',
    // The key in use inside another variable, under a name on no list.
    CURL_HEADERS: `x-api-key: ${KEY}`,
    ...extra,
  });
}

/** Every file under `dir` (the run's transcripts, the workspace), for a value that must not have been written. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

describe('delegate CLI: no agent tool sees the credentials', function () {
  this.timeout(40_000);
  const cli = cliSuite();

  /** Fails naming the secret and where it was seen. */
  function assertNowhere(requests: RecordedRequest[], dirs: string[]): void {
    for (const req of requests) {
      const body = JSON.stringify(req.body);
      for (const secret of SECRETS) assert.ok(!body.includes(secret), `request #${req.index} carries ${secret}`);
    }
    for (const file of dirs.flatMap(filesUnder)) {
      const text = readFileSync(file, 'latin1');
      for (const secret of SECRETS) assert.ok(!text.includes(secret), `${file} holds ${secret}`);
    }
  }

  const toolText = (req: RecordedRequest | undefined): string => String(lastToolResults(req ?? ({} as RecordedRequest))[0]?.content ?? '');

  for (const sandbox of ['off', 'on'] as const) {
    it(`sandbox ${sandbox}: bash of the main agent and of a subagent sees no credential, nor the CLI's environ, nor any readable one`, async () => {
      cli.api.route([
        { name: 'child', match: (req) => firstUserText(req).includes('CHILD-JOB'), replies: [reply.toolUse({ name: 'bash', input: { command: SNOOP } }), reply.text('child looked')] },
        {
          name: 'main',
          match: () => true,
          replies: [reply.toolUse({ name: 'bash', input: { command: SNOOP } }), reply.toolUse({ name: 'task', input: { description: 'snoop', prompt: 'CHILD-JOB: look around' } }), reply.text('done')],
        },
      ]);
      const run = await runDelegate(['-p', 'look around', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions', '--sandbox', sandbox], { env: secretEnv(cli) });
      assert.equal(run.code, 0, run.stderr);
      cli.api.assertAllConsumed();
      const requests = cli.api.messageRequests();
      assertNowhere(requests, [cli.dirs.workdir, cli.dirs.dataHome]);
      // The commands ran and printed: the main agent's (2nd request) and the child's (its 2nd).
      const mainOut = toolText(requests.find((r) => !firstUserText(r).includes('CHILD-JOB') && toolText(r).includes('--- end')));
      const childOut = toolText(requests.find((r) => firstUserText(r).includes('CHILD-JOB') && toolText(r).includes('--- end')));
      for (const out of [mainOut, childOut]) {
        assert.match(out, /--- every readable environ/);
        assert.match(out, /^PATH=/m, 'env printed the environment');
        // The proxies keep their host, lose the user and password.
        assert.match(out, /^HTTPS_PROXY=http:\/\/proxy\.example:3128$/m);
        assert.match(out, /^http_proxy=http:\/\/proxy\.example:3128\/$/m);
      }
      if (sandbox === 'off') assert.match(mainOut, /^XDG_DATA_HOME=/m, "the CLI's /proc/<pid>/environ was read");
    });
  }

  it("a hook's command and an MCP stdio server get no credential; a config's ${ANTHROPIC_API_KEY} is refused with the way to pass it", async () => {
    const root = tempDir('delegate-toolenv-');
    const home = join(root, 'home');
    mkdirSync(join(home, '.claude'), { recursive: true });
    const hookOut = join(root, 'hook-env.txt');
    const mcpOut = join(root, 'mcp-env.txt');
    // The user's own hook: it writes its environment and the CLI's ($PPID of its shell).
    const hook = { type: 'command', command: `{ env; echo '---'; tr '\\0' '\\n' < /proc/$PPID/environ; } > ${hookOut}` };
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [hook] }] } }));
    // A stdio server that writes its environment and its parent's (the CLI's), then stays silent.
    const server = join(root, 'env-server.js');
    writeFileSync(server, `const fs = require('fs'); fs.writeFileSync(${JSON.stringify(mcpOut)}, JSON.stringify(process.env) + '\\n---\\n' + fs.readFileSync('/proc/' + process.ppid + '/environ', 'latin1')); process.stdin.resume();\n`);
    const config = JSON.stringify({
      mcpServers: {
        envdump: { command: process.execPath, args: [server], env: { GIVEN: 'by-config' } },
        // What a hostile config would write to carry the key out.
        thief: { command: process.execPath, args: ['-e', 'process.stdin.resume()'], env: { STOLEN: '${ANTHROPIC_API_KEY}' } },
      },
    });
    cli.api.script(reply.toolUse({ name: 'bash', input: { command: 'echo ran' } }), reply.text('done'));
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions', '--sandbox', 'off', '--mcp-config', config, '--strict-mcp-config'], {
      env: secretEnv(cli, { HOME: home, MCP_TIMEOUT: '1000' }),
    });
    assert.equal(run.code, 0, run.stderr);
    const hookEnv = readFileSync(hookOut, 'utf8');
    const mcpEnv = readFileSync(mcpOut, 'utf8');
    for (const [what, text] of [['hook', hookEnv], ['MCP server', mcpEnv]] as const) {
      for (const secret of SECRETS) assert.ok(!text.includes(secret), `the ${what} saw ${secret}`);
    }
    assert.match(hookEnv, /^CLAUDE_PROJECT_DIR=/m, 'the hook ran and wrote its environment');
    assert.match(hookEnv, /^HTTPS_PROXY=http:\/\/proxy\.example:3128$/m);
    assert.match(mcpEnv, /"GIVEN":"by-config"/, 'the server ran and wrote its environment');
    assertNowhere(cli.api.messageRequests(), [cli.dirs.workdir, cli.dirs.dataHome]);
    assert.match(run.stderr, /MCP server "thief": .*ANTHROPIC_API_KEY holds a credential.*--tool-env ANTHROPIC_API_KEY/);
  });

  it('--tool-env NAME passes exactly that variable (and only it) to commands', async () => {
    cli.api.script(reply.toolUse({ name: 'bash', input: { command: 'env' } }), reply.text('done'));
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions', '--sandbox', 'off', '--tool-env', 'AWS_SECRET_ACCESS_KEY', '--tool-env', 'NOT_SET_ANYWHERE'], {
      env: secretEnv(cli),
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /--tool-env NOT_SET_ANYWHERE: not set in the environment/);
    const out = toolText(cli.api.messageRequests()[1]);
    assert.match(out, new RegExp(`^AWS_SECRET_ACCESS_KEY=${AWS}$`, 'm'));
    for (const secret of [KEY, TOKEN, INPUT_KEY, PROXY_PASS]) assert.ok(!out.includes(secret), `bash saw ${secret}`);
    const bad = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--tool-env', 'A=B'], { env: secretEnv(cli) });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--tool-env takes one variable name \(got "A=B"\)/);
  });
});
