/**
 * Subagents in worktrees of their own (`--isolation worktree`, `isolation` on the task input), end to end through the
 * built CLI against the local Messages-API server, in a real git repository:
 *   - two parallel children read and rewrite the same file differently and both write the same build output: no
 *     stale-write refusal, each sees the parent's uncommitted and untracked files, the parent's folder is untouched,
 *     each child's changes are kept on its branch, no worktree is left;
 *   - `delegate land`: the first lands, the second is reported as a conflict (file, hunk, which children), exit 1;
 *   - a land check failing on the combination lands nothing and names the child that broke it;
 *   - a child that changed nothing leaves no worktree and no branch;
 *   - a non-git folder refuses isolation: the child never starts, the parent gets one line saying why and how;
 *   - kill -9 mid-run leaves a worktree that the next start removes, its work salvaged to a branch.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, lastToolResults, reply, contentText, type RecordedRequest, type Reply } from '../fixtures/messages-api-server';
import { lastJsonLine, runDelegate, REPO } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

const childOf = (marker: string) => (req: RecordedRequest): boolean => isChild(req) && firstUserText(req).includes(marker);
const APP = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';

describe('delegate CLI: subagents in worktrees of their own', function () {
  this.timeout(90_000);
  const cli = cliSuite();
  const ws = (rel: string): string => join(cli.dirs.workdir, rel);
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: cli.dirs.workdir, encoding: 'utf8' });

  function makeRepo(): void {
    git('init', '-q', '-b', 'main');
    writeFileSync(ws('app.txt'), APP);
    writeFileSync(ws('.gitignore'), 'build/\n');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
    // The live tree: an uncommitted change and an untracked file the children must see.
    writeFileSync(ws('app.txt'), APP.replace('seven', 'SEVEN'));
    writeFileSync(ws('notes.txt'), 'untracked notes\n');
  }

  /** A child that reads app.txt, writes `first` as its first line, and writes build/out.txt. */
  const editor = (first: string, delayMs: number): Reply[] => [
    reply.toolUse({ name: 'read_file', input: { path: 'app.txt' } }, { delayMs }),
    reply.toolUse({ name: 'write_file', input: { path: 'app.txt', content: APP.replace('one', first).replace('seven', 'SEVEN') } }, { delayMs }),
    reply.toolUse({ name: 'bash', input: { command: `cat notes.txt; mkdir -p build && echo ${first} > build/out.txt && cat build/out.txt` } }),
    reply.text(`${first} done.`),
  ];

  async function runTwo(a: Reply[], b: Reply[], extra: string[] = []): Promise<{ sessionId: string; ids: Record<string, string> }> {
    cli.api.route([
      { name: 'A', match: childOf('CHILD-A'), replies: a },
      { name: 'B', match: childOf('CHILD-B'), replies: b },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse([
            { name: 'task', input: { prompt: 'CHILD-A: edit', description: 'edit a' } },
            { name: 'task', input: { prompt: 'CHILD-B: edit', description: 'edit b' } },
          ]),
          reply.text('Done.'),
        ],
      },
    ]);
    const r = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--permission-mode', 'bypassPermissions', '--isolation', 'worktree', ...extra], { env: cli.env() });
    assert.equal(r.code, 0, r.stderr);
    cli.api.assertAllConsumed();
    const result = lastJsonLine(r.stdout);
    const subagents = result.subagents as { id: string; description: string }[];
    const ids = Object.fromEntries(subagents.map((s) => [s.description, s.id]));
    return { sessionId: String(result.session_id), ids };
  }

  const sessionFolder = (sessionId: string): string => join(cli.dirs.dataHome, 'delegate', 'sessions', sessionId);
  const childResults = (marker: string): WireResult[] =>
    cli.api.requests.filter((q) => q.body.messages && childOf(marker)(q)).flatMap((q) => lastToolResults(q).map((b) => ({ text: contentText(b.content as string), isError: b.is_error === true })));
  type WireResult = { text: string; isError: boolean };

  it('two children rewrite the same file and the same build output: no refusal, nothing shared, both kept on branches, nothing left', async () => {
    makeRepo();
    const { sessionId, ids } = await runTwo(editor('ONE', 0), editor('UNO', 150));
    for (const marker of ['CHILD-A', 'CHILD-B']) {
      const results = childResults(marker);
      assert.equal(results.length, 3, `${marker}: three tool results`);
      assert.deepEqual(results.filter((r) => r.isError), [], `${marker}: no call refused (no stale write)`);
      assert.match(results[2]?.text ?? '', /untracked notes/, `${marker} saw the untracked file`);
      assert.match(results[0]?.text ?? '', /SEVEN/, `${marker} saw the uncommitted change`);
    }
    assert.match(childResults('CHILD-A')[2]?.text ?? '', /ONE\s*$/m);
    assert.match(childResults('CHILD-B')[2]?.text ?? '', /UNO\s*$/m, "B's build output is its own");
    // The parent's folder: untouched, no build output.
    assert.equal(readFileSync(ws('app.txt'), 'utf8'), APP.replace('seven', 'SEVEN'));
    assert.equal(existsSync(ws('build')), false, 'no shared build output');
    // The parent was told where the changes are.
    const parentResults = cli.api.requests.filter((q) => !isChild(q)).flatMap((q) => lastToolResults(q)).map((b) => contentText(b.content as string));
    assert.equal(parentResults.filter((t) => /kept on branch delegate\//.test(t)).length, 2, parentResults.join('\n---\n'));
    // Branches kept, worktrees gone (only the patches stay in the session's folder).
    const branches = git('branch', '--list', 'delegate/*').split('\n').map((l) => l.trim()).filter(Boolean).sort();
    assert.deepEqual(branches, [`delegate/${sessionId.slice(0, 8)}/${ids['edit a']}`, `delegate/${sessionId.slice(0, 8)}/${ids['edit b']}`].sort());
    assert.equal(git('worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')).length, 1, 'no worktree left');
    assert.deepEqual(readdirSync(join(sessionFolder(sessionId), 'worktrees')).sort(), [`${ids['edit a']}.patch`, `${ids['edit b']}.patch`].sort());
    // The transcript records the base stamp and what is kept.
    const events = readdirSync(join(sessionFolder(sessionId), 'subagents')).flatMap((f) => readFileSync(join(sessionFolder(sessionId), 'subagents', f), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>));
    const kept = events.filter((e) => e.type === 'worktree_kept');
    assert.equal(kept.length, 2);
    for (const e of kept) assert.deepEqual(e.files, [{ status: 'M', path: 'app.txt' }]);
    const created = events.filter((e) => e.type === 'worktree_created');
    assert.equal(created.length, 2);
    for (const e of created) assert.equal((e.base as { files: number }).files, 2, 'the stamp counts the two uncommitted files');
  });

  it('delegate land: the first child lands, the second is reported as a conflict (file, lines, with whom) and writes nothing', async () => {
    makeRepo();
    const { sessionId, ids } = await runTwo(editor('ONE', 0), editor('UNO', 150));
    const land = await runDelegate(['land', '--session', sessionId], { env: cli.env() });
    assert.equal(land.code, 1, land.stderr);
    const [first, second] = land.stdout.trim().split('\n');
    assert.equal(first, `landed       ${ids['edit a']}  app.txt`);
    assert.equal(second, `conflict     ${ids['edit b']}  app.txt: lines 1-5 (with ${ids['edit a']})  — nothing of it written`);
    assert.equal(readFileSync(ws('app.txt'), 'utf8'), APP.replace('one', 'ONE').replace('seven', 'SEVEN'), "A's change landed on the live tree, B's did not");
    // Landed once: a second land has only B left; --revert puts A's change back exactly.
    const revert = await runDelegate(['land', '--session', sessionId, '--revert'], { env: cli.env() });
    assert.equal(revert.code, 0, revert.stderr);
    assert.equal(revert.stdout, `reverted     ${ids['edit a']}  app.txt\n`);
    assert.equal(readFileSync(ws('app.txt'), 'utf8'), APP.replace('seven', 'SEVEN'));
  });

  it('a land check failing on the combination lands nothing and names the child that broke it', async () => {
    makeRepo();
    const writer = (name: string, delayMs: number): Reply[] => [reply.toolUse({ name: 'write_file', input: { path: `${name}.txt`, content: `${name}\n` } }, { delayMs }), reply.text('done')];
    // The session's check (--land-check on the run), recorded for `delegate land`: passes with either file alone, fails with both.
    const { sessionId, ids } = await runTwo(writer('a', 0), writer('b', 300), ['--land-check', 'test ! -f a.txt || test ! -f b.txt']);
    const land = await runDelegate(['land', '--session', sessionId], { env: cli.env() });
    assert.equal(land.code, 1, land.stderr);
    assert.deepEqual(land.stdout.trim().split('\n').map((l) => l.split(/\s+/).slice(0, 2).join(' ')).sort(), [`check_failed ${ids['edit a']}`, `check_failed ${ids['edit b']}`].sort());
    assert.match(land.stderr, new RegExp(`failed on the combined changes; the first to break it: ${ids['edit b']}\\. Nothing landed\\.`));
    assert.equal(existsSync(ws('a.txt')), false);
    assert.equal(existsSync(ws('b.txt')), false);
    assert.equal(git('worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')).length, 1, 'no scratch worktree left');
    const ok = await runDelegate(['land', '--session', sessionId, '--land-check', 'true'], { env: cli.env() });
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(readFileSync(ws('a.txt'), 'utf8'), 'a\n');
    assert.equal(readFileSync(ws('b.txt'), 'utf8'), 'b\n');
  });

  it("an isolated child's hooks run in its worktree (cwd, CLAUDE_PROJECT_DIR), the parent's in the folder", async () => {
    makeRepo();
    const log = join(cli.dirs.dataHome, '..', 'hooks.log');
    mkdirSync(ws('.claude'));
    writeFileSync(ws('.claude/settings.local.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `echo "$CLAUDE_PROJECT_DIR|$(pwd)" >> ${JSON.stringify(log)}` }] }] } }));
    cli.api.route([
      { name: 'A', match: childOf('CHILD-A'), replies: [reply.toolUse({ name: 'bash', input: { command: 'pwd' } }), reply.text('Looked.')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'CHILD-A: look', description: 'look', isolation: 'worktree' } }), reply.text('Done.')] },
    ]);
    const r = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--permission-mode', 'bypassPermissions', '--trust-folder'], { env: cli.env() });
    assert.equal(r.code, 0, r.stderr);
    const result = lastJsonLine(r.stdout);
    const child = (result.subagents as { id: string }[])[0]?.id ?? '';
    const tree = join(sessionFolder(String(result.session_id)), 'worktrees', child);
    assert.deepEqual(readFileSync(log, 'utf8').trim().split('\n'), [`${cli.dirs.workdir}|${cli.dirs.workdir}`, `${tree}|${tree}`]);
    assert.match(childResults('CHILD-A')[0]?.text ?? '', new RegExp(`${tree}`), "the child's bash ran in its worktree");
  });

  it('send_message to an isolated child resumes it in its own kept work; landing lands its whole work once', async () => {
    makeRepo();
    cli.api.route([
      {
        name: 'A',
        match: childOf('CHILD-A'),
        replies: [
          reply.toolUse({ name: 'write_file', input: { path: 'log.txt', content: '1\n' } }),
          reply.text('first'),
          reply.toolUse({ name: 'read_file', input: { path: 'log.txt' } }),
          reply.toolUse({ name: 'write_file', input: { path: 'log.txt', content: '1\n2\n' } }),
          reply.text('second'),
        ],
      },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse({ name: 'task', input: { prompt: 'CHILD-A: log', description: 'logger', name: 'logger', isolation: 'worktree' } }),
          reply.toolUse({ name: 'send_message', input: { to: 'logger', message: 'and a second line' } }),
          reply.text('Done.'),
        ],
      },
    ]);
    const r = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--permission-mode', 'bypassPermissions'], { env: cli.env() });
    assert.equal(r.code, 0, r.stderr);
    cli.api.assertAllConsumed();
    const sessionId = String(lastJsonLine(r.stdout).session_id);
    const results = childResults('CHILD-A');
    assert.equal(results.length, 3, JSON.stringify(results));
    assert.deepEqual(results.map((x) => x.isError), [false, false, false], JSON.stringify(results));
    assert.match(results[1]?.text ?? '', /1/, 'the resumed child read its own earlier write');
    assert.equal(existsSync(ws('log.txt')), false, 'nothing in the parent folder yet');
    const land = await runDelegate(['land', '--session', sessionId], { env: cli.env() });
    assert.equal(land.code, 0, land.stderr);
    assert.equal(land.stdout.trim().split('\n').length, 1, land.stdout);
    assert.equal(readFileSync(ws('log.txt'), 'utf8'), '1\n2\n');
    const discard = await runDelegate(['land', '--session', sessionId, '--discard'], { env: cli.env() });
    assert.equal(discard.code, 2, 'nothing left: landed already');
  });

  it("bash's sandbox binds the isolated child's worktree, not the parent's folder", async () => {
    makeRepo();
    const escape = `echo mine > mine.txt && echo escaped > ${JSON.stringify(ws('escape.txt'))}`;
    cli.api.route([
      { name: 'A', match: childOf('CHILD-A'), replies: [reply.toolUse({ name: 'bash', input: { command: escape } }), reply.text('tried')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'CHILD-A: try', description: 'try', isolation: 'worktree' } }), reply.text('Done.')] },
    ]);
    const r = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--permission-mode', 'bypassPermissions', '--sandbox', 'on'], { env: cli.env() });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(existsSync(ws('escape.txt')), false, "the parent's folder is read-only to it");
    assert.match(childResults('CHILD-A')[0]?.text ?? '', /Read-only file system|Permission denied|No such file or directory/);
    const sessionId = String(lastJsonLine(r.stdout).session_id);
    // Its own worktree was writable: mine.txt is kept on its branch.
    assert.equal(git('show', `delegate/${sessionId.slice(0, 8)}/${String((lastJsonLine(r.stdout).subagents as { id: string }[])[0]?.id)}:mine.txt`), 'mine\n');
  });

  it('--resume S --agent ID in a later process: the isolated child goes on in what it kept', async () => {
    makeRepo();
    cli.api.route([
      { name: 'A', match: childOf('CHILD-A'), replies: [reply.toolUse({ name: 'write_file', input: { path: 'log.txt', content: '1\n' } }), reply.text('first')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'CHILD-A: log', description: 'logger', isolation: 'worktree' } }), reply.text('Done.')] },
    ]);
    const first = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--permission-mode', 'bypassPermissions'], { env: cli.env() });
    assert.equal(first.code, 0, first.stderr);
    const result = lastJsonLine(first.stdout);
    const sessionId = String(result.session_id);
    const child = String((result.subagents as { id: string }[])[0]?.id);
    cli.api.route([
      {
        name: 'A again',
        match: childOf('CHILD-A'),
        replies: [reply.toolUse({ name: 'read_file', input: { path: 'log.txt' } }), reply.toolUse({ name: 'write_file', input: { path: 'log.txt', content: '1\n2\n' } }), reply.text('second')],
      },
    ]);
    const again = await runDelegate(['-p', 'and a second line', '--resume', sessionId, '--agent', child, '--cwd', cli.dirs.workdir, '--output-format', 'json', '--permission-mode', 'bypassPermissions'], { env: cli.env() });
    assert.equal(again.code, 0, again.stderr);
    cli.api.assertAllConsumed();
    const results = childResults('CHILD-A');
    // Both runs' calls: the first write, then (resumed) the read of its own file and the second write.
    assert.deepEqual(results.map((x) => x.isError), [false, false, false], JSON.stringify(results));
    assert.equal(existsSync(ws('log.txt')), false);
    const land = await runDelegate(['land', '--session', sessionId], { env: cli.env() });
    assert.equal(land.code, 0, land.stderr);
    assert.equal(readFileSync(ws('log.txt'), 'utf8'), '1\n2\n');
  });

  it("an agent file's `isolation: worktree` isolates its runs; the call's `isolation: shared` overrides it", async () => {
    makeRepo();
    mkdirSync(ws('.claude/agents'), { recursive: true });
    writeFileSync(ws('.claude/agents/builder.md'), '---\nname: builder\ndescription: builds things\nisolation: worktree\n---\nYou build.\n');
    cli.api.route([
      { name: 'A', match: childOf('CHILD-A'), replies: [reply.toolUse({ name: 'write_file', input: { path: 'a.txt', content: 'a\n' } }), reply.text('done')] },
      { name: 'B', match: childOf('CHILD-B'), replies: [reply.toolUse({ name: 'write_file', input: { path: 'b.txt', content: 'b\n' } }), reply.text('done')] },
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse({ name: 'task', input: { prompt: 'CHILD-A: build', description: 'isolated', subagent_type: 'builder' } }),
          reply.toolUse({ name: 'task', input: { prompt: 'CHILD-B: build', description: 'shared', subagent_type: 'builder', isolation: 'shared' } }),
          reply.text('Done.'),
        ],
      },
    ]);
    const r = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--permission-mode', 'bypassPermissions'], { env: cli.env() });
    assert.equal(r.code, 0, r.stderr);
    cli.api.assertAllConsumed();
    assert.equal(existsSync(ws('a.txt')), false, "the agent file's worktree kept A's file out of the folder");
    assert.equal(readFileSync(ws('b.txt'), 'utf8'), 'b\n', "the call's shared wrote B's in the folder");
    assert.equal(git('branch', '--list', 'delegate/*').trim().split('\n').length, 1);
  });

  it('a child that changed nothing leaves no worktree, no branch, no patch', async () => {
    makeRepo();
    cli.api.route([
      { name: 'A', match: childOf('CHILD-A'), replies: [reply.toolUse({ name: 'bash', input: { command: 'cat notes.txt' } }), reply.text('Looked.')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'CHILD-A: look', description: 'look', isolation: 'worktree' } }), reply.text('Done.')] },
    ]);
    const r = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'stream-json', '--permission-mode', 'bypassPermissions'], { env: cli.env() });
    assert.equal(r.code, 0, r.stderr);
    const sessionId = String(lastJsonLine(r.stdout).session_id);
    // stream-json carries the typed events: the stamp when it starts, and that nothing was kept when it ends.
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const created = lines.find((e) => e.type === 'worktree_created');
    assert.equal((created?.base as { files: number } | undefined)?.files, 2);
    assert.match(String(created?.workdir), /\/worktrees\/[0-9a-f]{8}$/);
    assert.deepEqual(lines.filter((e) => e.type === 'worktree_kept').map((e) => e.files), [[]]);
    assert.equal(git('branch', '--list', 'delegate/*').trim(), '');
    assert.deepEqual(readdirSync(join(sessionFolder(sessionId), 'worktrees')), []);
    assert.equal(git('worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')).length, 1);
  });

  it('a non-git folder refuses isolation: the child never starts, the parent gets one line saying why and how to run it shared', async () => {
    writeFileSync(ws('app.txt'), APP);
    cli.api.route([{ name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'CHILD-A: edit', description: 'edit' } }), reply.text('Done.')] }]);
    const r = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--permission-mode', 'bypassPermissions', '--isolation', 'worktree'], { env: cli.env() });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(cli.api.requests.filter((q) => q.body.messages && isChild(q)).length, 0, 'the child never ran');
    const [result] = lastToolResults(cli.api.requests.at(-1) as RecordedRequest);
    assert.equal(result?.is_error, true);
    const text = contentText(result?.content as string);
    assert.equal(text.split('\n').length, 1, text);
    assert.match(text, /^The subagent did not start: isolation "worktree" was asked, and .* is not in a git repository\. .*isolation: "shared"/);
  });

  it('kill -9 mid-run: the next start removes the worktree, the dead child\'s work salvaged on a branch', async () => {
    makeRepo();
    cli.api.route([
      { name: 'A', match: childOf('CHILD-A'), replies: [reply.toolUse({ name: 'bash', input: { command: 'echo half > half.txt && sleep 4' } }), reply.text('never')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'CHILD-A: work', description: 'work' } }), reply.text('Done.')] },
    ]);
    const child = spawn(process.execPath, [join(REPO, 'bin', 'delegate.js'), '-p', 'go', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions', '--isolation', 'worktree', '--sandbox', 'off'], { env: { ...process.env, ...cli.env() }, stdio: 'ignore' });
    const sessions = join(cli.dirs.dataHome, 'delegate', 'sessions');
    const deadline = Date.now() + 20_000;
    const worktree = (): string | undefined => {
      for (const s of existsSync(sessions) ? readdirSync(sessions) : []) {
        const dir = join(sessions, s, 'worktrees');
        for (const a of existsSync(dir) ? readdirSync(dir) : []) if (existsSync(join(dir, a, 'half.txt'))) return join(dir, a);
      }
      return undefined;
    };
    while (!worktree() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const dir = worktree();
    assert.ok(dir, 'the child wrote in its worktree');
    process.kill(child.pid as number, 'SIGKILL');
    await new Promise((r) => child.once('exit', r));
    assert.ok(existsSync(dir), 'left behind by kill -9');
    // The next start (another session, same folder) prunes it.
    cli.api.route([{ name: 'next', match: () => true, replies: [reply.text('hi')] }]);
    const next = await runDelegate(['-p', 'hi', '--cwd', cli.dirs.workdir], { env: cli.env() });
    assert.equal(next.code, 0, next.stderr);
    const gone = Date.now() + 10_000;
    while (existsSync(dir) && Date.now() < gone) await new Promise((r) => setTimeout(r, 100));
    assert.equal(existsSync(dir), false, 'the stale worktree is removed');
    assert.equal(git('worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')).length, 1);
    const salvaged = git('branch', '--list', 'delegate/*').trim();
    assert.match(salvaged, /-salvaged$/);
    assert.equal(git('show', `${salvaged}:half.txt`), 'half\n');
  });
});
