/**
 * A `kill -9` of the built CLI runs no handler of ours: whatever its commands started must still end, sandbox on or
 * off. Each test starts processes marked by a unique `sleep` argument, kills the CLI while they run, and looks for
 * the marker in every process's command line afterwards (pids inside the sandbox are not host pids).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../fixtures/messages-api-server';
import { runDelegate } from '../kit/run-cli';
import { cliSuite } from '../kit/cli-suite';
import { describePids, pidsWith } from '../kit/processes';
import { tempDir } from '../kit/temp-dirs';
import { waitUntil } from '../kit/wait';

let serial = 0;
/** A `sleep` argument no other process has: 300 s and a unique fraction. */
const newMarker = (): string => `300.${process.pid}${Date.now() % 100000}${serial++}`;

describe('delegate CLI: nothing runs on after a kill -9 of the CLI', function () {
  this.timeout(40_000);
  const cli = cliSuite();
  const leftovers: string[] = [];

  afterEach(() => {
    // A failed test must not leave its sleeps behind for the next one.
    for (const marker of leftovers.splice(0)) for (const pid of pidsWith(marker)) process.kill(pid, 'SIGKILL');
  });

  /**
   * Runs the CLI on `args`, kills it with SIGKILL once `ready()` holds, and returns how it ended. No handler runs on a
   * SIGKILL, so the sandbox's private /tmp stays: the CLI gets a TMPDIR of the test's, removed with it.
   */
  async function killWhen(args: string[], ready: () => boolean, env: Record<string, string> = cli.env()): Promise<{ signal: NodeJS.Signals | null; stderr: string }> {
    const run = await runDelegate(args, {
      env: { ...env, TMPDIR: tempDir('delegate-killed-cli-tmp-') },
      onSpawn: (child) => {
        void waitUntil(ready, 'the processes to kill run', 15_000).catch(() => undefined).then(() => child.kill('SIGKILL'));
      },
      timeoutMs: 30_000,
    });
    return run;
  }

  for (const sandbox of ['off', 'on'] as const) {
    const escapers = sandbox === 'on' ? ' (and, sandboxed, ones that left the group: setsid, a double fork)' : '';
    it(`sandbox ${sandbox}: a bash command's background, disowned and foreground sleeps all end${escapers}`, async () => {
      const marker = newMarker();
      leftovers.push(marker);
      // A background job, a disowned one, and the foreground command: all in the call's process group. Sandboxed, also
      // a new session and a daemon's double fork: outside the sandbox they leave the group and escape (sandbox.md).
      const leavers = sandbox === 'on' ? `setsid sleep ${marker} & ( ( sleep ${marker} & ) & ); ` : '';
      const command = `${leavers}sleep ${marker} & { sleep ${marker} & disown; }; sleep ${marker}`;
      cli.api.script(reply.toolUse({ name: 'bash', input: { command } }));
      const count = sandbox === 'on' ? 5 : 3;
      const run = await killWhen(['-p', 'go', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions', '--sandbox', sandbox], () => pidsWith(`sleep ${marker}`).length >= count);
      assert.equal(run.signal, 'SIGKILL', run.stderr);
      await waitUntil(() => pidsWith(marker).length === 0, () => `nothing runs on (left running: ${describePids(pidsWith(marker))})`, 5000);
    });
  }

  it("a hook's command that is running when the CLI dies ends too", async () => {
    const marker = newMarker();
    leftovers.push(marker);
    // The user's own hooks (~/.claude/settings.json): they run whatever folder is open.
    const home = join(cli.dirs.workdir, '..', 'home');
    mkdirSync(join(home, '.claude'), { recursive: true });
    const hook = { type: 'command', command: `sleep ${marker} & sleep ${marker}` };
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [hook] }] } }));
    cli.api.script(reply.toolUse({ name: 'bash', input: { command: 'echo never' } }));
    const run = await killWhen(['-p', 'go', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions', '--sandbox', 'off'], () => pidsWith(`sleep ${marker}`).length >= 2, cli.env({ HOME: home }));
    assert.equal(run.signal, 'SIGKILL', run.stderr);
    await waitUntil(() => pidsWith(marker).length === 0, () => `nothing runs on (left running: ${describePids(pidsWith(marker))})`, 5000);
  });

  it('an MCP server that ignores the end of its stdin, and what it started, end too', async () => {
    const marker = newMarker();
    leftovers.push(marker);
    // A server that keeps running whatever happens to its stdin, and a child of its own that never reads it.
    const server = join(cli.dirs.workdir, '..', 'stubborn-server.js');
    writeFileSync(server, `require('child_process').spawn('sleep', ['${marker}'], { stdio: 'ignore' }); process.stdin.on('data', () => {}); process.stdin.on('end', () => {}); setInterval(() => {}, 1000);\n`);
    const config = JSON.stringify({ mcpServers: { stubborn: { command: process.execPath, args: [server] } } });
    cli.api.script(reply.toolUse({ name: 'bash', input: { command: `sleep ${marker}` } }));
    const run = await killWhen(
      ['-p', 'go', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions', '--sandbox', 'off', '--mcp-config', config, '--strict-mcp-config'],
      () => pidsWith(`sleep ${marker}`).length >= 2,
      // It never answers `initialize`: the run stops waiting for it after a second.
      cli.env({ MCP_TIMEOUT: '1000' }),
    );
    assert.equal(run.signal, 'SIGKILL', run.stderr);
    await waitUntil(() => pidsWith(marker).length === 0 && pidsWith(server).length === 0, () => `nothing runs on (left running: ${describePids([...pidsWith(marker), ...pidsWith(server)])})`, 5000);
  });
});
