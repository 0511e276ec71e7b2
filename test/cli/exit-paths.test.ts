/**
 * Hostile runs of the built CLI (real SDK, local Messages-API server, real processes and signals):
 * parallel children editing one file, a FIFO in the folder, commands that ignore SIGTERM, a second
 * Ctrl-C, SIGHUP, a reader that closes stdout. Nothing may be lost, hang, or be left running.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, lastToolResults, reply, type RecordedRequest } from '../fixtures/messages-api-server';
import { readJsonl, runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';
import { waitUntil } from '../kit/wait';
import { isAlive } from '../kit/processes';

/** True while a process with this pid exists and is not a zombie. */


const readPid = (file: string): number => Number(readFileSync(file, 'utf8').trim());

/** For commands that write `$!` for the test to watch: a host pid only outside the sandbox's pid namespace (sandbox.test.ts covers it). */
const NO_SANDBOX = ['--sandbox', 'off'];

describe('delegate CLI: hostile runs', function () {
  this.timeout(30_000);
  const cli = cliSuite();
  const pids: number[] = [];

  afterEach(async () => {
    for (const pid of pids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  });

  /** Every tool result a child request carries (its whole conversation so far). */
  const childResults = (req: RecordedRequest): string[] =>
    (req.body.messages ?? []).flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((b) => b.type === 'tool_result').map((b) => String(b.content))));

  it('four parallel children editing different lines of one file: stale edits are refused, read again and redone; every edit is on disk', async () => {
    writeFileSync(join(cli.dirs.workdir, 'config.ini'), ['[a]', 'one=1', '[b]', 'two=2', '[c]', 'three=3', '[d]', 'four=4', ''].join('\n'));
    const edits = new Map([['one=1', 'one=ONE'], ['two=2', 'two=TWO'], ['three=3', 'three=THREE'], ['four=4', 'four=FOUR']]);
    // Each child reads, edits, and on a stale refusal reads again and edits again, as a model would.
    cli.api.setResponder((req) => {
      const task = /EDIT (\S+)/.exec(firstUserText(req))?.[1];
      if (task === undefined) {
        return req.body.messages?.length === 1 ? reply.toolUse([...edits.keys()].map((from) => ({ name: 'task', input: { prompt: `EDIT ${from}` } }))) : reply.text('all edited');
      }
      const last = String(lastToolResults(req)[0]?.content ?? '');
      if (last.startsWith('Edited')) return reply.text(`changed ${task}`);
      if (last === '' || last.startsWith('Refused')) return reply.toolUse({ name: 'read_file', input: { path: 'config.ini' } });
      // The first edits wait a little, so every child has read the file before any of them edits it.
      const first = !childResults(req).some((c) => c.startsWith('Refused'));
      return reply.toolUse({ name: 'edit_file', input: { path: 'config.ini', old_text: task, new_text: edits.get(task) ?? '' } }, first ? { delayMs: 300 } : {});
    });
    const run = await runDelegate(['-p', 'edit', '--cwd', cli.dirs.workdir, '--permission-mode', 'acceptEdits'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const results = cli.api.messageRequests().filter(isChild).flatMap((r) => lastToolResults(r)).map((r) => String(r.content));
    assert.equal(results.filter((c) => c.startsWith('Edited config.ini')).length, 4, results.join('\n'));
    // All four read the first version: the first edit lands, the other three are refused as stale.
    const refusals = results.filter((c) => c.startsWith('Refused'));
    assert.ok(refusals.length >= 3, results.join('\n'));
    for (const refusal of refusals) assert.match(refusal, /^Refused: config\.ini changed since you last read it: the subagent "EDIT \S+" \(\w+\) changed it\./);
    assert.equal(readFileSync(join(cli.dirs.workdir, 'config.ini'), 'utf8'), ['[a]', 'one=ONE', '[b]', 'two=TWO', '[c]', 'three=THREE', '[d]', 'four=FOUR', ''].join('\n'));
  });

  it('read_file on a FIFO is refused at once and the run ends normally', async () => {
    execFileSync('mkfifo', [join(cli.dirs.workdir, 'queue')]);
    cli.api.script(reply.toolUse({ name: 'read_file', input: { path: 'queue' } }), reply.text('it is a pipe'));
    const t0 = Date.now();
    const run = await runDelegate(['-p', 'read the queue', '--cwd', cli.dirs.workdir], { env: cli.env(), timeoutMs: 10_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(Date.now() - t0 < 5000);
    assert.match(String(lastToolResults(cli.api.messageRequests()[1] as RecordedRequest)[0]?.content), /queue is a named pipe \(FIFO\), not a regular file/);
  });

  it('a second Ctrl-C while a command ignores SIGTERM ends within 2 s, kills its process group and records the interruption', async () => {
    const pidFile = join(cli.dirs.workdir, 'stubborn.pid');
    cli.api.script(reply.toolUse({ name: 'bash', input: { command: `trap '' TERM; sleep 300 & echo $! > stubborn.pid; wait` } }));
    let secondAt = 0;
    const run = await runDelegate(['-p', 'run it', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions', '--output-format', 'json', ...NO_SANDBOX], {
      env: cli.env(),
      onSpawn: (child) => {
        const started = (): boolean => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '';
        void waitUntil(started, 'the command writes its pid', 10_000).then(
          () => {
            pids.push(readPid(pidFile));
            child.kill('SIGINT');
            setTimeout(() => {
              secondAt = Date.now();
              child.kill('SIGINT');
            }, 50);
          },
          () => child.kill('SIGKILL'),
        );
      },
    });
    const endedAfter = Date.now() - secondAt;
    assert.ok(run.code === 130 || run.signal === 'SIGINT', `exit ${run.code} / ${run.signal}: ${run.stderr}`);
    assert.ok(endedAfter < 2500, `ended ${endedAfter} ms after the second Ctrl-C`);
    const sleeper = readPid(pidFile);
    await waitUntil(() => !isAlive(sleeper), `the sleep (pid ${sleeper}) that ignored SIGTERM is killed`, 1000);
    const transcript = readJsonl(sessionFile(cli.dirs.dataHome));
    const end = transcript.filter((l) => l.type === 'agent_finished').at(-1);
    assert.equal(end?.status, 'cancelled', JSON.stringify(transcript.at(-1)));
  });

  it('SIGHUP (terminal closed) cancels, kills a process group that ignores SIGTERM, records it, and exits', async () => {
    const pidFile = join(cli.dirs.workdir, 'hup.pid');
    cli.api.script(reply.toolUse({ name: 'bash', input: { command: `trap '' TERM HUP; sleep 300 & echo $! > hup.pid; wait` } }));
    const run = await runDelegate(['-p', 'run it', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions', '--output-format', 'json', ...NO_SANDBOX], {
      env: cli.env(),
      onSpawn: (child) => {
        const started = (): boolean => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '';
        void waitUntil(started, 'the command writes its pid', 10_000).then(
          () => {
            pids.push(readPid(pidFile));
            child.kill('SIGHUP');
          },
          () => child.kill('SIGKILL'),
        );
      },
    });
    assert.ok(run.code === 130 || run.signal === 'SIGHUP', `exit ${run.code} / ${run.signal}: ${run.stderr}`);
    await waitUntil(() => !isAlive(readPid(pidFile)), 'the sleep that ignored SIGTERM and SIGHUP is killed', 1000);
    const lines = readJsonl(sessionFile(cli.dirs.dataHome));
    assert.equal(lines.filter((l) => l.type === 'agent_finished').at(-1)?.status, 'cancelled');
  });

  it('a finished command’s background child that ignores SIGTERM does not outlive the CLI', async () => {
    cli.api.script(
      reply.toolUse({ name: 'bash', input: { command: `(trap '' TERM; exec sleep 300) >/dev/null 2>&1 & echo $! > bg.pid` } }),
      reply.text('started it'),
    );
    const run = await runDelegate(['-p', 'start a daemon', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions', ...NO_SANDBOX], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const pid = readPid(join(cli.dirs.workdir, 'bg.pid'));
    pids.push(pid);
    await waitUntil(() => !isAlive(pid), `background sleep ${pid} is killed with its group`, 1500);
  });

  it('stream-json into a reader that closes after one line ends quietly, without a stack trace', async () => {
    cli.api.script(reply.toolUse({ name: 'glob', input: { pattern: '*' } }), reply.text('done', { delayMs: 300 }));
    let firstLine = '';
    const run = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'stream-json'], {
      env: cli.env(),
      onSpawn: (child) => {
        child.stdout?.once('data', (d: Buffer) => {
          firstLine = d.toString().split('\n')[0] ?? '';
          child.stdout?.destroy(); // like `head -n1` exiting
        });
      },
    });
    assert.match(firstLine, /"type":"prompt"/);
    assert.ok(run.code === 0 || run.code === 130, `exit ${run.code}: ${run.stderr}`);
    assert.doesNotMatch(run.stderr, /EPIPE|\n\s+at /, run.stderr);
  });
});

/** The one session transcript under a data home. */
function sessionFile(dataHome: string): string {
  const dir = join(dataHome, 'delegate', 'sessions');
  const name = execFileSync('ls', [dir], { encoding: 'utf8' }).split('\n').find((f) => f.endsWith('.jsonl'));
  if (!name) throw new Error(`no transcript in ${dir}`);
  return join(dir, name);
}
