/**
 * The built CLI's sandbox, end to end (real SDK, local Messages-API server, real bwrap): which sandbox is in
 * force and how it is said (stderr line, `sandbox` result field), `--sandbox on` where bubblewrap cannot run
 * (exit 2, nothing run), auto's one-line fallback, what a sandboxed command cannot touch, `--allow-network`,
 * and that even a SIGKILL of the CLI takes the sandboxed command down.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { probeBubblewrap } from '../../src/core/sandbox/probe';
import { lastToolResults, reply, type MessagesApiServer, type RecordedRequest } from '../fixtures/messages-api-server';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { cliSuite } from '../kit/cli-suite';
import { pidsWith } from '../kit/processes';
import { waitUntil } from '../kit/wait';
import { tempDir } from '../kit/temp-dirs';

/** Private /tmp folders of sandboxes that ran commands in `workdir` (bwrap leaves the workspace's mount point in them). */
function sandboxTemps(workdir: string): string[] {
  return readdirSync(tmpdir())
    .filter((n) => n.startsWith('delegate-sandbox-'))
    .map((n) => join(tmpdir(), n))
    .filter((d) => existsSync(join(d, relative('/tmp', workdir))));
}

const toolOutput = (api: MessagesApiServer, i = 1): string => String(lastToolResults(api.messageRequests()[i] as RecordedRequest)[0]?.content);

describe('delegate CLI: the bash sandbox', function () {
  this.timeout(30_000);
  const cli = cliSuite();
  let scratch: string;

  beforeEach(async () => {
    scratch = tempDir('delegate-cli-sbx-');
  });

  /** A PATH whose `bwrap` is installed but refused, as under Ubuntu's AppArmor rule for user namespaces. */
  const refusingBwrapPath = (): string => {
    const bin = join(scratch, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n');
    chmodSync(join(bin, 'bwrap'), 0o755);
    return `${bin}:/usr/bin:/bin`;
  };

  it('--sandbox on where bubblewrap is missing: one line, exit 2, nothing sent or run', async () => {
    cli.api.script(reply.toolUse({ name: 'bash', input: { command: 'touch ran' } }), reply.text('ran'));
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--sandbox', 'on'], { env: cli.env({ PATH: join(scratch, 'empty') }) });
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stderr, 'delegate: --sandbox on, but bubblewrap (bwrap) is not installed; nothing was run (install bubblewrap, or choose --sandbox auto or off)\n');
    assert.equal(cli.api.messageRequests().length, 0);
    assert.equal(existsSync(join(cli.dirs.workdir, 'ran')), false);
  });

  it('auto where bwrap is refused: says so once on stderr, runs unconfined, and the result says sandbox "none"', async () => {
    cli.api.script(reply.toolUse({ name: 'bash', input: { command: 'echo one > a.txt' } }), reply.toolUse({ name: 'bash', input: { command: 'echo two > b.txt' } }), reply.text('done'));
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions', '--output-format', 'json'], { env: cli.env({ PATH: refusingBwrapPath() }) });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stderr,
      'delegate: no sandbox: bwrap cannot create a sandbox here (bwrap: setting up uid map: Permission denied), so bash commands run unconfined (the deny list still applies); install bubblewrap, or pass --sandbox off to silence this\n',
    );
    assert.equal(lastJsonLine(run.stdout).sandbox, 'none');
    assert.equal(readFileSync(join(cli.dirs.workdir, 'b.txt'), 'utf8'), 'two\n');
    // A run that never calls bash still hears it once (the probe waits for the model's first reply, not for bash).
    cli.api.script(reply.text('just text'));
    const quiet = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir], { env: cli.env({ PATH: refusingBwrapPath() }) });
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.stdout, 'just text\n');
    assert.equal(quiet.stderr.split('\n').filter((l) => l.startsWith('delegate: no sandbox:')).length, 1, quiet.stderr);
  });

  it('--sandbox off: no line unless -v, and the result says "none"', async () => {
    cli.api.script(reply.text('hi'), reply.text('hi'));
    const quiet = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--sandbox', 'off', '--output-format', 'json'], { env: cli.env() });
    assert.equal(quiet.stderr, '');
    assert.equal(lastJsonLine(quiet.stdout).sandbox, 'none');
    const verbose = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--sandbox', 'off', '-v'], { env: cli.env() });
    assert.match(verbose.stderr, /^delegate: sandbox: none \(turned off\)\n/);
  });

  it('rejects an unknown --sandbox value with exit 2', async () => {
    const run = await runDelegate(['-p', 'go', '--sandbox', 'maybe']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--sandbox must be one of auto, on, off \(got "maybe"\)/);
  });

  describe('where bubblewrap runs', () => {
    before(async function () {
      const probe = await probeBubblewrap();
      if (!probe.ok) {
        console.log(`    (skipped: ${probe.reason}${probe.reason.includes('not installed') ? '; install it with: apt-get install bubblewrap' : ''})`);
        this.skip();
      }
    });

    it('by default (auto) bash is sandboxed: HOME and the system are read-only, the workspace is not; -v and the result say so', async () => {
      const home = mkdtempSync('/var/tmp/delegate-cli-home-');
      try {
        cli.api.script(
          reply.toolUse({ name: 'bash', input: { command: 'echo x > "$HOME/planted"; touch /usr/local/delegate-cli-probe; echo ok > in-ws.txt; echo "done:$?"' } }),
          reply.text('tried'),
        );
        const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions', '--output-format', 'stream-json', '-v'], { env: cli.env({ HOME: home }) });
        assert.equal(run.code, 0, run.stderr);
        assert.equal(run.stderr.split('\n')[0], 'delegate: sandbox: bubblewrap (writable: the workspace and a private /tmp; network: off)');
        assert.equal(lastJsonLine(run.stdout).sandbox, 'bubblewrap');
        const out = toolOutput(cli.api);
        assert.match(out, new RegExp(`${home}/planted: Read-only file system`));
        assert.match(out, /delegate-cli-probe': Read-only file system/);
        assert.match(out, /done:0\n\[exit code 0\]$/);
        assert.equal(existsSync(join(home, 'planted')), false);
        assert.equal(existsSync('/usr/local/delegate-cli-probe'), false);
        assert.equal(readFileSync(join(cli.dirs.workdir, 'in-ws.txt'), 'utf8'), 'ok\n');
        assert.deepEqual(sandboxTemps(cli.dirs.workdir), [], 'the private /tmp is removed when the CLI ends');
      } finally {
        rmSync(home, { recursive: true, force: true });
      }
    });

    it('the network is off unless --allow-network (the local API server on 127.0.0.1 is the test target)', async () => {
      const port = new URL(cli.api.baseURL).port;
      const connect = { name: 'bash', input: { command: `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected` } };
      cli.api.script(reply.toolUse(connect), reply.text('a'), reply.toolUse(connect), reply.text('b'));
      const off = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions'], { env: cli.env() });
      assert.equal(off.code, 0, off.stderr);
      assert.match(toolOutput(cli.api, 1), /Connection refused\n\[exit code 1\]$/);
      const on = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions', '--allow-network', '-v'], { env: cli.env() });
      assert.equal(on.code, 0, on.stderr);
      assert.match(on.stderr, /network: allowed, all hosts/);
      assert.equal(toolOutput(cli.api, 3), 'connected\n[exit code 0]');
    });

    it('a SIGKILL of the CLI (no exit handler runs) still ends the sandboxed command', async () => {
      const marker = `300.${Date.now() % 100000}7`;
      cli.api.script(reply.toolUse({ name: 'bash', input: { command: `(setsid sleep ${marker} &); sleep ${marker}` } }));
      // Nothing can clean up after a SIGKILL: the private /tmp stays, in a TMPDIR of the test's (removed with it).
      const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions'], {
        env: cli.env({ TMPDIR: tempDir('delegate-killed-cli-tmp-') }),
        onSpawn: (child) => {
          void waitUntil(() => pidsWith(`sleep ${marker}`).length >= 2, 'both sleeps run', 10_000).catch(() => undefined).then(() => child.kill('SIGKILL'));
        },
      });
      assert.equal(run.signal, 'SIGKILL', `exit ${run.code}: ${run.stderr}`);
      await waitUntil(() => pidsWith(`sleep ${marker}`).length === 0, () => `the sleeps end (left running: ${pidsWith(`sleep ${marker}`).join(', ')})`, 5000);
    });
  });
});
