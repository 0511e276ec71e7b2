/**
 * Hooks and project instructions through the built CLI, over the fixture repository with real-world-shaped
 * `.claude/settings.json` hooks, against the local Messages-API server. HOME is a fresh folder: the machine's
 * own ~/.claude never leaks into a test.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentText, lastToolResults, reply, systemText } from '../fixtures/messages-api-server';
import { fixtureRepo, readLog, type FixtureDirs } from '../kit/hooks-fixture';
import { runDelegate } from '../kit/run-cli';
import { cliSuiteWith } from '../kit/cli-suite';
import { isAlive } from '../kit/processes';
import { waitUntil } from '../kit/wait';


describe('delegate CLI: hooks and project instructions', function () {
  this.timeout(30_000);
  const cli = cliSuiteWith({ dirs: fixtureRepo, dataEnv: (d: FixtureDirs) => ({ XDG_DATA_HOME: join(d.home, '.local', 'share'), HOME: d.home }) });
  // The fixture's hooks are the folder's own: they run where it is trusted (folder-trust.test.ts has the rest).
  const bypass = () => ['--cwd', cli.dirs.workdir, '--permission-mode', 'bypassPermissions', '--trust-folder'];

  beforeEach(() => {
    mkdirSync(join(cli.dirs.workdir, 'build'));
    writeFileSync(join(cli.dirs.workdir, 'build', 'out.js'), 'x');
  });

  it('runs the project hooks: an exit-2 block reaches the model, file_path is logged, context and CLAUDE.md are sent; -v shows it', async () => {
    writeFileSync(join(cli.dirs.workdir, '.claude', 'settings.local.json'), '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "prompt", "prompt": "safe?"}]}]}}');
    cli.api.script(
      reply.toolUse([
        { name: 'bash', input: { command: 'rm -rf build' } },
        { name: 'write_file', input: { path: 'src/util.ts', content: 'export const util = 1;\n' } },
      ]),
      reply.text('Could not delete build; wrote util.ts.'),
    );
    const run = await runDelegate(['-p', 'clean up and add util.ts', ...bypass(), '-v'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    cli.api.assertAllConsumed();
    const [first, second] = cli.api.messageRequests();
    assert.ok(first && second);
    const system = systemText(first);
    assert.match(system, /Never commit to main directly \(AGENTS-MARKER-17\)/);
    assert.match(system, /Use tabs for indentation \(STYLE-MARKER-41\)/);
    assert.match(contentText(first.body.messages?.[0]?.content), /^clean up and add util\.ts\n<user-prompt-submit-hook>\nConventions: tabs/);
    const [rm, write] = lastToolResults(second);
    assert.equal(rm?.is_error, true);
    assert.match(JSON.stringify(rm?.content), /Blocked by block-rm\.sh: recursive deletes are not allowed/);
    assert.ok(write && write.is_error !== true, JSON.stringify(write));
    assert.ok(existsSync(join(cli.dirs.workdir, 'build', 'out.js')));
    assert.deepEqual(readLog(cli.dirs, 'edits.log'), [`PreToolUse Write ${join(cli.dirs.workdir, 'src/util.ts')}`, `PostToolUse Write ${join(cli.dirs.workdir, 'src/util.ts')} success=true`]);
    assert.match(run.stderr, /^delegate: warning: \.claude\/settings\.local\.json: hooks\.PreToolUse\[0\]\.hooks\[0\]: type "prompt" is not supported \(only "command"\); ignored$/m);
    assert.match(run.stderr, /^instructions: AGENTS\.md, CLAUDE\.md, docs\/style\.md \(\d+ characters\)$/m);
    assert.match(run.stderr, /^hook PreToolUse blocked \(.*block-rm\.sh\): bash: Blocked by block-rm\.sh/m);
  });

  it('--no-hooks runs none (instructions still load); --setting-sources user loads neither the project hooks nor its files', async () => {
    cli.api.script(reply.toolUse({ name: 'bash', input: { command: 'rm -rf build' } }), reply.text('deleted'));
    const off = await runDelegate(['-p', 'delete the build', ...bypass(), '--no-hooks'], { env: cli.env() });
    assert.equal(off.code, 0, off.stderr);
    assert.ok(!existsSync(join(cli.dirs.workdir, 'build')), 'nothing blocked the delete');
    const sent = cli.api.messageRequests()[0];
    assert.ok(sent);
    assert.match(systemText(sent), /AGENTS-MARKER-17/);
    assert.equal(contentText(sent.body.messages?.[0]?.content), 'delete the build', 'no prompt hook ran');

    mkdirSync(join(cli.dirs.workdir, 'build'));
    cli.api.script(reply.toolUse({ name: 'bash', input: { command: 'rm -rf build' } }), reply.text('deleted'));
    const userOnly = await runDelegate(['-p', 'delete it again', ...bypass(), '--setting-sources', 'user'], { env: cli.env() });
    assert.equal(userOnly.code, 0, userOnly.stderr);
    assert.ok(!existsSync(join(cli.dirs.workdir, 'build')));
    const third = cli.api.messageRequests()[2];
    assert.ok(third);
    assert.doesNotMatch(systemText(third), /AGENTS-MARKER-17/);
    const bad = await runDelegate(['-p', 'x', '--setting-sources', 'user,policy'], { env: cli.env() });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--setting-sources takes a list of user, project, local \(got "policy"\)/);
  });

  it('a prompt blocked by UserPromptSubmit never reaches the model: the reason on stderr, exit 1', async () => {
    const run = await runDelegate(['-p', 'use sk-live-0000 to deploy', ...bypass(), '--output-format', 'json'], { env: cli.env() });
    assert.equal(run.code, 1);
    assert.equal(cli.api.messageRequests().length, 0);
    assert.match(run.stderr, /delegate: the prompt was blocked by a UserPromptSubmit hook: That prompt contains what looks like a live API key/);
    const result = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    assert.equal(result.status, 'error');
  });

  it('stream-json: the prompt event comes first, before the hook ran; the transcript never holds a blocked prompt', async () => {
    const run = await runDelegate(['-p', 'use sk-live-0000 to deploy', ...bypass(), '--output-format', 'stream-json'], { env: cli.env() });
    assert.equal(run.code, 1);
    const lines = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(lines[0] && { type: lines[0].type, text: lines[0].text, agentId: lines[0].agentId, parentId: lines[0].parentId }, { type: 'prompt', text: 'use sk-live-0000 to deploy', agentId: 'main', parentId: null });
    assert.ok(lines.findIndex((e) => e.type === 'hook' && e.outcome === 'blocked') > 0);
    assert.equal(lines.some((e) => e.type === 'agent_started'), false);
    const transcript = readFileSync(String(lines.at(-1)?.transcript), 'utf8');
    assert.equal(transcript.includes('sk-live-0000'), false, 'a blocked prompt stays off the disk');
    assert.match(transcript, /"outcome":"blocked"/);

    // A prompt that goes through: prompt, then agent_started (which the transcript keeps, with the prompt).
    cli.api.script(reply.text('Deployed nothing.'));
    const ok = await runDelegate(['-p', 'say hello', ...bypass(), '--output-format', 'stream-json'], { env: cli.env() });
    assert.equal(ok.code, 0, ok.stderr);
    const types = ok.stdout.trim().split('\n').map((l) => (JSON.parse(l) as Record<string, unknown>).type);
    assert.equal(types[0], 'prompt');
    assert.ok(types.indexOf('agent_started') > 0);
  });

  it('Ctrl-C while a hook runs kills the hook with the run (no orphan)', async () => {
    writeFileSync(
      join(cli.dirs.workdir, '.claude', 'settings.local.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'sleep 300 & echo $! > "$CLAUDE_PROJECT_DIR/hook.pid"; wait', timeout: 600 }] }] } }),
    );
    cli.api.script(reply.toolUse({ name: 'read_file', input: { path: 'AGENTS.md' } }));
    const pidFile = join(cli.dirs.workdir, 'hook.pid');
    const run = await runDelegate(['-p', 'read it', ...bypass()], {
      env: cli.env(),
      onSpawn: (child) => {
        const timer = setInterval(() => {
          if (existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '') {
            clearInterval(timer);
            child.kill('SIGINT');
          }
        }, 20);
      },
    });
    assert.equal(run.code, 130, run.stderr);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await waitUntil(() => !isAlive(pid), 'the hook\'s sleep is gone', 2000);
  });
});
