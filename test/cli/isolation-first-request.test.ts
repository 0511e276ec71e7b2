/**
 * An isolated child's first request does not wait for its worktree (issue 27: ≤ 2× the shared mode's), through the
 * built CLI against the local Messages-API server, in a real git repository:
 *   - the cheap refusals are checked before the child starts; the checkout then runs while its first request is in
 *     flight: the request reaches the server before `worktree_created` (the room verified), and its SubagentStart hook
 *     and its tools run only in the verified worktree (they see the parent's uncommitted change);
 *   - a checkout that fails after the request went out (`.git/worktrees` is a file: `git worktree add` fails after the
 *     preflight) aborts that request, runs no tool, ends with IsolationRefused's one line for the parent, leaves
 *     nothing in the session's worktrees folder, and the session takes the next prompt.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, lastToolResults, reply, contentText, type RecordedRequest } from '../fixtures/messages-api-server';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

const childOf = (marker: string) => (req: RecordedRequest): boolean => isChild(req) && firstUserText(req).includes(marker);

describe("delegate CLI: an isolated child's first request while its worktree is made", function () {
  this.timeout(90_000);
  const cli = cliSuite();
  const ws = (rel: string): string => join(cli.dirs.workdir, rel);
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: cli.dirs.workdir, encoding: 'utf8' });
  const sessionFolder = (sessionId: string): string => join(cli.dirs.dataHome, 'delegate', 'sessions', sessionId);

  /** A repository of `files` tracked files (a checkout that takes a while), with one uncommitted change. */
  function makeRepo(files: number): void {
    git('init', '-q', '-b', 'main');
    for (let d = 0; d < files / 100; d++) {
      mkdirSync(ws(`src/d${d}`), { recursive: true });
      for (let f = 0; f < 100; f++) writeFileSync(ws(`src/d${d}/f${f}.txt`), `file ${d}/${f}\n`.repeat(20));
    }
    writeFileSync(ws('app.txt'), 'committed\n');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
    writeFileSync(ws('app.txt'), 'UNCOMMITTED\n');
  }

  it('the first request reaches the server before the worktree is verified; its hook and tools run in the verified worktree', async () => {
    makeRepo(3000);
    const log = join(cli.dirs.dataHome, '..', 'subagent-start.log');
    mkdirSync(ws('.claude'));
    writeFileSync(ws('.claude/settings.local.json'), JSON.stringify({ hooks: { SubagentStart: [{ hooks: [{ type: 'command', command: `echo "$(pwd)|$(cat app.txt)|$(date +%s%3N)" >> ${JSON.stringify(log)}` }] }] } }));
    cli.api.route([
      { name: 'A', match: childOf('CHILD-A'), replies: [reply.toolUse({ name: 'bash', input: { command: 'pwd && cat app.txt' } }), reply.text('Looked.')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'CHILD-A: look', description: 'look' } }), reply.text('Done.')] },
    ]);
    const r = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'stream-json', '--permission-mode', 'bypassPermissions', '--isolation', 'worktree', '--trust-folder'], { env: cli.env(), timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stderr);
    cli.api.assertAllConsumed();
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const created = lines.find((e) => e.type === 'worktree_created');
    assert.ok(created, 'worktree_created');
    const tree = String(created.workdir);
    const first = cli.api.requests.find(childOf('CHILD-A'));
    assert.ok(first, "the child's first request");
    assert.ok(first.receivedAt < Number(created.time), `the child's first request (${first.receivedAt}) came before its worktree was verified (${String(created.time)})`);
    // Its SubagentStart hook ran in the verified worktree (after worktree_created), its bash there too.
    const [hook = ''] = readFileSync(log, 'utf8').trim().split('\n');
    const [cwd, seen, at] = hook.split('|');
    assert.deepEqual([cwd, seen], [tree, 'UNCOMMITTED'], hook);
    assert.ok(Number(at) >= Number(created.time), 'the hook ran once the worktree was verified');
    const results = cli.api.requests.filter(childOf('CHILD-A')).flatMap((q) => lastToolResults(q)).map((b) => ({ text: contentText(b.content as string), isError: b.is_error === true }));
    assert.equal(results.length, 1);
    assert.equal(results[0]?.isError, false);
    assert.match(results[0]?.text ?? '', new RegExp(`^${tree}\\s+UNCOMMITTED`), 'its bash ran in the worktree, which held the live change');
  });

  it('a checkout failing after the request went out: the request aborted, no tool ran, one refusal line, nothing left, the session goes on', async () => {
    makeRepo(100);
    // `git worktree add` needs .git/worktrees/<name>: the preflight (rev-parse, filters, .gitmodules) passes, the checkout fails.
    writeFileSync(ws('.git/worktrees'), 'not a folder\n');
    const marker = ws('ran.txt');
    cli.api.route([
      // The reply would take 20 s: the request is in flight when the checkout fails.
      { name: 'A', match: childOf('CHILD-A'), replies: [reply.toolUse({ name: 'bash', input: { command: `echo ran > ${JSON.stringify(marker)}` } }, { delayMs: 20_000 }), reply.text('never')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'CHILD-A: work', description: 'work' } }), reply.text('Done.')] },
    ]);
    const started = Date.now();
    const r = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--permission-mode', 'bypassPermissions', '--isolation', 'worktree'], { env: cli.env(), timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stderr);
    const childRequests = cli.api.requests.filter(childOf('CHILD-A'));
    assert.equal(childRequests.length, 1, 'its first request went out, and no other');
    assert.ok(childRequests[0]?.abandonedAt !== undefined, 'the request in flight was aborted');
    assert.ok(Date.now() - started < 15_000, 'the run did not wait for the reply');
    assert.equal(existsSync(marker), false, 'no tool ran');
    // The parent's tool_result: IsolationRefused's one line.
    const parentLast = cli.api.requests.filter((q) => !isChild(q)).at(-1) as RecordedRequest;
    const [result] = lastToolResults(parentLast);
    assert.equal(result?.is_error, true);
    const text = contentText(result?.content as string);
    assert.equal(text.split('\n').length, 1, text);
    assert.match(text, /^The subagent did not start: isolation "worktree" was asked, and git worktree add failed: .*Nothing ran\. .*isolation: "shared"\.$/);
    // Nothing left: no worktree folder, no registered worktree, no branch.
    const sessionId = String(lastJsonLine(r.stdout).session_id);
    const worktrees = join(sessionFolder(sessionId), 'worktrees');
    assert.deepEqual(existsSync(worktrees) ? readdirSync(worktrees) : [], []);
    assert.equal(git('branch', '--list', 'delegate/*').trim(), '');
    // The session takes the next prompt (its transcript holds the refusal).
    cli.api.route([{ name: 'next', match: () => true, replies: [reply.text('Next done.')] }]);
    const next = await runDelegate(['-p', 'next', '--resume', sessionId, '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(next.code, 0, next.stderr);
    assert.equal(lastJsonLine(next.stdout).result, 'Next done.');
    const resumed = cli.api.requests.at(-1) as RecordedRequest;
    assert.match(JSON.stringify(resumed.body.messages), /The subagent did not start: isolation/);
  });
});
