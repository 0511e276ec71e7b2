/**
 * The main agent lands its isolated subagents in the session (the `land` tool), and hands a conflict to a resolver
 * subagent (`resolve: true`), end to end through the built CLI against the local Messages-API server, in a real git
 * repository. Two isolated children rewrite line 1 of the same file differently:
 *   - land{resolve}: the first lands, the second conflicts; a resolver gets the live tree with the second's changes
 *     merged in (diff3 markers: the folder's side, the base, the subagent's), its resolution lands, the second is
 *     recorded `resolved` and `delegate land` has nothing left;
 *   - the session's land check runs on the resolver's result: failing, nothing of it lands;
 *   - a resolver that leaves a conflict marker lands nothing;
 *   - `delegate land --session ID --resolve`: the user hands the conflict to a resolver, the same way;
 *   - land is permission-checked like a write (the default mode asks; the headless CLI refuses);
 *   - land without resolve reports the conflict and says how to resolve it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, lastToolResults, reply, contentText, type RecordedRequest, type Reply } from '../fixtures/messages-api-server';
import { lastJsonLine, runDelegate } from '../kit/run-cli';
import { isChild } from '../kit/is-child';
import { cliSuite } from '../kit/cli-suite';

const childOf = (marker: string) => (req: RecordedRequest): boolean => isChild(req) && firstUserText(req).includes(marker);
const APP = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
const LIVE = APP.replace('seven', 'SEVEN');

describe('delegate CLI: the main agent lands isolated subagents, a resolver settles a conflict', function () {
  this.timeout(90_000);
  const cli = cliSuite();
  const ws = (rel: string): string => join(cli.dirs.workdir, rel);
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: cli.dirs.workdir, encoding: 'utf8' });

  function makeRepo(): void {
    git('init', '-q', '-b', 'main');
    writeFileSync(ws('app.txt'), APP);
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
    writeFileSync(ws('app.txt'), LIVE); // uncommitted: the children and the resolver start from the live tree
  }

  const editor = (first: string, delayMs: number): Reply[] => [
    reply.toolUse({ name: 'read_file', input: { path: 'app.txt' } }),
    reply.toolUse({ name: 'write_file', input: { path: 'app.txt', content: LIVE.replace('one', first) } }, { delayMs }),
    reply.text(`${first} done.`),
  ];
  /** A resolver that reads the marked file, then writes `content`. */
  const resolver = (content: string): Reply[] => [reply.toolUse({ name: 'read_file', input: { path: 'app.txt' } }), reply.toolUse({ name: 'write_file', input: { path: 'app.txt', content } }), reply.text('Kept both first lines.')];

  async function run(landInput: Record<string, unknown>, resolverReplies: Reply[] | undefined, extra: string[] = []): Promise<{ sessionId: string; ids: Record<string, string>; landResult: string }> {
    cli.api.route([
      { name: 'A', match: childOf('CHILD-A'), replies: editor('alpha', 0) },
      { name: 'B', match: childOf('CHILD-B'), replies: editor('beta', 400) },
      ...(resolverReplies ? [{ name: 'resolver', match: childOf('could not land'), replies: resolverReplies }] : []),
      {
        name: 'parent',
        match: () => true,
        replies: [
          reply.toolUse([
            { name: 'task', input: { prompt: 'CHILD-A: edit', description: 'edit a' } },
            { name: 'task', input: { prompt: 'CHILD-B: edit', description: 'edit b' } },
          ]),
          reply.toolUse({ name: 'land', input: landInput }),
          reply.text('Done.'),
        ],
      },
    ]);
    const mode = extra.includes('--permission-mode') ? [] : ['--permission-mode', 'bypassPermissions'];
    const r = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', ...mode, '--isolation', 'worktree', ...extra], { env: cli.env() });
    assert.equal(r.code, 0, r.stderr);
    cli.api.assertAllConsumed();
    const result = lastJsonLine(r.stdout);
    const ids = Object.fromEntries((result.subagents as { id: string; description: string }[]).map((s) => [s.description, s.id]));
    const parentResults = cli.api.requests.filter((q) => !isChild(q)).flatMap((q) => lastToolResults(q)).map((b) => contentText(b.content as string));
    return { sessionId: String(result.session_id), ids, landResult: parentResults[parentResults.length - 1] ?? '' };
  }

  const sessionEvents = (sessionId: string): Record<string, unknown>[] =>
    readFileSync(join(cli.dirs.dataHome, 'delegate', 'sessions', `${sessionId}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const worktrees = (): number => git('worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')).length;

  it('land{resolve}: the first lands, the second conflicts, a resolver settles it on the live tree and its result lands', async () => {
    makeRepo();
    const resolved = LIVE.replace('one', 'alpha+beta');
    const { sessionId, ids, landResult } = await run({ resolve: true }, resolver(resolved));
    const [a, b] = [ids['edit a'], ids['edit b']];
    const r = ids[`resolve ${b}'s conflicts`];
    assert.ok(a && b && r, JSON.stringify(ids));
    // The resolver read the file with both sides and the base marked, on the live tree with A landed.
    const read = cli.api.requests.filter(childOf('could not land')).flatMap((q) => lastToolResults(q)).map((x) => contentText(x.content as string))[0] ?? '';
    assert.match(read, /<<<<<<< parent\n.*alpha\n\|\|\|\|\|\|\| base\n.*one\n=======\n.*beta\n>>>>>>> subagent/, read);
    assert.match(read, /SEVEN/, 'the live tree (uncommitted change) is its base');
    const prompt = firstUserText(cli.api.requests.find(childOf('could not land')) as RecordedRequest);
    assert.match(prompt, new RegExp(`Subagent ${b}'s changes could not land`));
    assert.match(prompt, new RegExp(`^- app\\.txt: its changes meet ${a}'s$`, 'm'));
    // The parent's land result: A landed, B conflicted, the resolver's result landed, B resolved.
    assert.match(landResult, new RegExp(`^landed ${a}: app\\.txt$`, 'm'));
    assert.match(landResult, new RegExp(`^conflict ${b}: app\\.txt`, 'm'));
    assert.match(landResult, new RegExp(`^landed ${r}: app\\.txt$`, 'm'));
    assert.match(landResult, new RegExp(`^resolved ${b}: its conflicts settled by resolver ${r}`, 'm'));
    assert.equal(readFileSync(ws('app.txt'), 'utf8'), resolved);
    // Recorded: B resolved by R (a reopened session does not land B again), nothing left to land, no worktree left.
    const landed = sessionEvents(sessionId).filter((e) => e.type === 'changes_landed');
    assert.deepEqual(landed.flatMap((e) => (e.outcomes as { agentId: string; outcome: string; resolvedBy?: string }[]).map((o) => `${o.outcome} ${o.agentId}${o.resolvedBy ? ` by ${o.resolvedBy}` : ''}`)), [`landed ${a}`, `conflict ${b}`, `landed ${r}`, `resolved ${b} by ${r}`]);
    const again = await runDelegate(['land', '--session', sessionId], { env: cli.env() });
    assert.equal(again.code, 2, again.stdout);
    assert.match(again.stderr, /nothing left to land/);
    assert.equal(worktrees(), 1, 'no worktree left');
    // Reverting the resolver puts back its resolution exactly (A's line returns).
    const revert = await runDelegate(['land', '--session', sessionId, '--revert', '--agent', r], { env: cli.env() });
    assert.equal(revert.code, 0, revert.stderr);
    assert.equal(readFileSync(ws('app.txt'), 'utf8'), LIVE.replace('one', 'alpha'));
  });

  it("the session's land check runs on the resolver's result: failing, nothing of it lands", async () => {
    makeRepo();
    // Passes on A alone; fails on the resolver's "BROKEN" first line.
    const { ids, landResult, sessionId } = await run({ resolve: true }, resolver(LIVE.replace('one', 'BROKEN')), ['--land-check', '! grep -q BROKEN app.txt']);
    const b = ids['edit b'] as string;
    const r = ids[`resolve ${b}'s conflicts`] as string;
    assert.match(landResult, new RegExp(`^check_failed ${r}: app\\.txt$`, 'm'));
    assert.match(landResult, new RegExp(`failed on the combined changes; the first to break it: ${r}\\. Nothing landed`));
    assert.doesNotMatch(landResult, /^resolved /m);
    assert.equal(readFileSync(ws('app.txt'), 'utf8'), LIVE.replace('one', 'alpha'), "only A's change is in the folder");
    assert.equal(worktrees(), 1, 'no scratch worktree left');
    // The resolver's kept changes stand in for B's: B is not landed on its own; discarding the resolver frees it.
    const direct = await runDelegate(['land', '--session', sessionId, '--agent', b], { env: cli.env() });
    assert.equal(direct.code, 2);
    assert.match(direct.stderr, new RegExp(`handed to resolver ${r}, whose changes stand in for its own`));
    assert.equal((await runDelegate(['land', '--session', sessionId, '--discard', '--agent', r], { env: cli.env() })).code, 0);
    const freed = await runDelegate(['land', '--session', sessionId, '--agent', b, '--land-check', ''], { env: cli.env() });
    assert.equal(freed.code, 1, freed.stderr);
    assert.match(freed.stdout, new RegExp(`^conflict\\s+${b}`, 'm'));
  });

  it('a resolver that leaves a conflict marker lands nothing', async () => {
    makeRepo();
    const lazy: Reply[] = [reply.toolUse({ name: 'read_file', input: { path: 'app.txt' } }), reply.toolUse({ name: 'bash', input: { command: 'echo >> app.txt' } }), reply.text('Resolved.')];
    const { ids, landResult, sessionId } = await run({ resolve: true }, lazy);
    const b = ids['edit b'] as string;
    const r = ids[`resolve ${b}'s conflicts`] as string;
    assert.match(landResult, new RegExp(`^conflict ${r}: app\\.txt: lines 1-1 \\(with a conflict marker the resolver left\\)`, 'm'));
    assert.equal(readFileSync(ws('app.txt'), 'utf8'), LIVE.replace('one', 'alpha'));
    assert.doesNotMatch(readFileSync(ws('app.txt'), 'utf8'), /<<<<<<</);
    // The user tells the resolver to finish (a later process): it goes on in its kept work, still standing in for B.
    const resolved = LIVE.replace('one', 'alpha+beta');
    cli.api.route([{ name: 'resolver again', match: childOf('could not land'), replies: [reply.toolUse({ name: 'read_file', input: { path: 'app.txt' } }), reply.toolUse({ name: 'write_file', input: { path: 'app.txt', content: resolved } }), reply.text('Now resolved.')] }]);
    const resumed = await runDelegate(['--resume', sessionId, '--agent', r, '-p', 'Remove the markers.', '--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions'], { env: cli.env() });
    assert.equal(resumed.code, 0, resumed.stderr);
    const land = await runDelegate(['land', '--session', sessionId], { env: cli.env() });
    assert.equal(land.code, 0, land.stderr + land.stdout);
    assert.equal(land.stdout, `landed       ${r}  app.txt\nresolved     ${b}  by resolver ${r}\n`);
    assert.equal(readFileSync(ws('app.txt'), 'utf8'), resolved);
  });

  it('land is permission-checked like a write: where edits need approval (the headless CLI refuses), nothing lands', async () => {
    makeRepo();
    // The children may write (a rule allows write_file); land is a write the default mode asks about.
    const { landResult, sessionId } = await run({}, undefined, ['--permission-mode', 'default', '--allowed-tools', 'write_file']);
    assert.match(landResult, /acceptEdits/, landResult);
    assert.equal(readFileSync(ws('app.txt'), 'utf8'), LIVE);
    assert.deepEqual(sessionEvents(sessionId).filter((e) => e.type === 'changes_landed'), []);
  });

  it('delegate land --session ID --resolve: the user hands the conflict to a resolver; its result lands, the check on it', async () => {
    makeRepo();
    // The session: the main agent lands (B conflicts), nothing resolved.
    const { sessionId, ids } = await run({}, undefined, ['--land-check', 'grep -q SEVEN app.txt']);
    const resolved = LIVE.replace('one', 'alpha+beta');
    cli.api.route([{ name: 'resolver', match: childOf('could not land'), replies: resolver(resolved) }]);
    const land = await runDelegate(['land', '--session', sessionId, '--resolve', '--permission-mode', 'acceptEdits'], { env: cli.env() });
    assert.equal(land.code, 0, land.stderr + land.stdout);
    cli.api.assertAllConsumed();
    const b = ids['edit b'] as string;
    const resolverRun = cli.api.requests.find(childOf('could not land')) as RecordedRequest;
    assert.match(firstUserText(resolverRun), new RegExp(`Subagent ${b}'s changes could not land`));
    assert.match(land.stdout, new RegExp(`^conflict ${b}: app\\.txt`, 'm'));
    assert.match(land.stdout, /^landed [0-9a-f]{8}: app\.txt$/m);
    assert.match(land.stdout, new RegExp(`^resolved ${b}: its conflicts settled by resolver`, 'm'));
    assert.match(land.stdout, /The land check `grep -q SEVEN app\.txt` passed/);
    assert.equal(readFileSync(ws('app.txt'), 'utf8'), resolved);
    assert.equal(worktrees(), 1, 'no worktree left');
    // Nothing left: B is settled.
    const again = await runDelegate(['land', '--session', sessionId], { env: cli.env() });
    assert.equal(again.code, 2);
  });

  it('land without resolve: the conflict is reported, with how to hand it to a resolver; nothing of it written', async () => {
    makeRepo();
    const { ids, landResult, sessionId } = await run({}, undefined);
    assert.match(landResult, new RegExp(`^conflict ${ids['edit b']}: app\\.txt: lines 1-5 \\(with ${ids['edit a']}\\) — nothing of it written$`, 'm'));
    assert.match(landResult, /call land again with resolve: true/);
    assert.equal(readFileSync(ws('app.txt'), 'utf8'), LIVE.replace('one', 'alpha'));
    assert.deepEqual(readdirSync(join(cli.dirs.dataHome, 'delegate', 'sessions', sessionId, 'worktrees')).filter((f) => !f.endsWith('.patch')), []);
  });

  it('the land tool is offered to the main agent only where subagents may run isolated (not to a shared session, not to a subagent)', async () => {
    makeRepo();
    const toolsOf = (q: RecordedRequest): string[] => (q.body.tools ?? []).map((t) => t.name);
    const script = (): void =>
      cli.api.route([
        { name: 'child', match: isChild, replies: [reply.text('ok')] },
        { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'CHILD-X: nothing', description: 'x' } }), reply.text('Done.')] },
      ]);
    script();
    const shared = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json'], { env: cli.env() });
    assert.equal(shared.code, 0, shared.stderr);
    script();
    const isolated = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--isolation', 'worktree'], { env: cli.env() });
    assert.equal(isolated.code, 0, isolated.stderr);
    const [sharedRoot, isolatedRoot] = cli.api.requests.filter((q) => q.body.messages && !isChild(q) && (q.body.messages.length ?? 0) === 1);
    assert.ok(sharedRoot && isolatedRoot);
    assert.equal(toolsOf(sharedRoot).includes('land'), false);
    assert.equal(toolsOf(isolatedRoot).includes('land'), true);
    assert.ok(cli.api.requests.filter(isChild).every((q) => !toolsOf(q).includes('land')), 'no subagent has it');
  });

  it("the land tool leaves a child's change to a protected path (.claude/…) to the user unless the mode is bypassPermissions", async () => {
    makeRepo();
    cli.api.route([
      { name: 'child', match: isChild, replies: [reply.toolUse({ name: 'bash', input: { command: 'mkdir -p .claude && echo evil > .claude/settings.json' } }), reply.text('done')] },
      { name: 'parent', match: () => true, replies: [reply.toolUse({ name: 'task', input: { prompt: 'CHILD-P: settings', description: 'p' } }), reply.toolUse({ name: 'land', input: {} }), reply.text('Done.')] },
    ]);
    // acceptEdits lets land (a write) run; a rule lets the child's bash run, unsandboxed (the sandbox keeps .claude read-only).
    const r = await runDelegate(['-p', 'go', '--cwd', cli.dirs.workdir, '--output-format', 'json', '--isolation', 'worktree', '--permission-mode', 'acceptEdits', '--allowed-tools', 'bash', '--sandbox', 'off'], { env: cli.env() });
    assert.equal(r.code, 0, r.stderr);
    const sessionId = String(lastJsonLine(r.stdout).session_id);
    const parentResults = cli.api.requests.filter((q) => !isChild(q)).flatMap((q) => lastToolResults(q)).map((b) => contentText(b.content as string));
    assert.match(parentResults.at(-1) ?? '', /^failed [0-9a-f]{8}: \.claude\/settings\.json/m);
    assert.match(parentResults.at(-1) ?? '', /it changes \.claude .*the user lands it/);
    assert.equal(existsSync(ws('.claude/settings.json')), false);
    // The user can: delegate land writes it.
    const land = await runDelegate(['land', '--session', sessionId], { env: cli.env() });
    assert.equal(land.code, 0, land.stderr);
    assert.equal(readFileSync(ws('.claude/settings.json'), 'utf8'), 'evil\n');
  });
});
