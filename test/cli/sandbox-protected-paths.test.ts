/**
 * The built CLI's sandbox against a command that plants something another program runs later, outside the
 * sandbox: a git hook, core.fsmonitor, .claude/settings.json hooks, .mcp.json servers, .vscode tasks. Each write
 * fails with its error and a [sandbox] line saying why, nothing reaches the host, ordinary git (commit, branch,
 * status) still works, and no placeholder is left in the user's tree after a normal end, a timeout or a kill -9 of
 * the CLI. The file tools: in acceptEdits mode a write to such a path is asked about (refused headless).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeBubblewrap } from '../../src/core/sandbox/probe';
import { lastToolResults, reply, type MessagesApiServer, type RecordedRequest } from '../fixtures/messages-api-server';
import { runDelegate } from '../kit/run-cli';
import { cliSuite } from '../kit/cli-suite';
import { pidsWith } from '../kit/processes';
import { tempDir } from '../kit/temp-dirs';
import { waitUntil } from '../kit/wait';

const toolOutput = (api: MessagesApiServer, i = 1): string => String(lastToolResults(api.messageRequests()[i] as RecordedRequest)[0]?.content);
const git = (cwd: string, ...args: string[]): string => execFileSync('git', ['-c', 'user.email=t@e.st', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });
/** A CLI process's entry in the registry of processes holding placeholders (sandbox/placeholders.ts). */
const registered = (pid: number, tmp = tmpdir()): string => join(tmp, `delegate-placeholders-${process.getuid?.() ?? 'user'}`, String(pid));
/** Every name in the workspace and in its .git folder: what a placeholder left behind would show up in. */
const tree = (ws: string): string[] => [...readdirSync(ws).map((n) => n), ...readdirSync(join(ws, '.git')).map((n) => `.git/${n}`)].sort();

describe('delegate CLI: paths other programs run later stay out of a sandboxed command\'s reach', function () {
  this.timeout(40_000);
  const cli = cliSuite();
  let ws: string;

  beforeEach(() => {
    ws = cli.dirs.workdir;
    git(ws, 'init', '-q', '.');
    writeFileSync(join(ws, 'README.md'), 'hello\n');
    git(ws, 'add', '-A');
    git(ws, 'commit', '-qm', 'first');
  });

  describe('bash in the sandbox', () => {
    before(async function () {
      const probe = await probeBubblewrap();
      if (!probe.ok) {
        console.log(`    (skipped: ${probe.reason})`);
        this.skip();
      }
    });

    it('each planting fails (read-only, with a [sandbox] line), nothing reaches the host, git still commits and branches', async () => {
      mkdirSync(join(ws, '.vscode'));
      writeFileSync(join(ws, '.vscode', 'settings.json'), '{}\n');
      git(ws, 'add', '-A');
      git(ws, 'commit', '-qm', 'editor settings');
      const before = tree(ws);
      const command = [
        'exec 2>&1', // one pipe: each error before its status line
        'echo "#!/bin/sh" > .git/hooks/pre-commit; echo "hook:$?"',
        "git config core.fsmonitor 'touch /tmp/pwned'; echo \"fsmonitor:$?\"",
        'mkdir -p .claude && echo {} > .claude/settings.json; echo "claude:$?"',
        'echo {} > .mcp.json; echo "mcp:$?"',
        'echo {} > .vscode/tasks.json; echo "tasks:$?"',
        'mv .git .git-old; echo "mv:$?"',
        'echo .. > .git/commondir; echo "commondir:$?"',
        'git config user.name x; echo "name:$?"',
        'echo work > work.txt && git add -A && git -c user.email=t@e.st -c user.name=t commit -qm work && git branch topic && git status --short && echo "git:$?"',
      ].join('\n');
      cli.api.script(reply.toolUse({ name: 'bash', input: { command } }), reply.text('tried'));
      const run = await runDelegate(['-p', 'go', '--cwd', ws, '--permission-mode', 'bypassPermissions', '--sandbox', 'on'], { env: cli.env() });
      assert.equal(run.code, 0, run.stderr);
      const out = toolOutput(cli.api);
      assert.match(out, /\.git\/hooks\/pre-commit: Read-only file system\nhook:1\n/, out);
      assert.match(out, /could not write config file .*\.git\/config: Device or resource busy\nfsmonitor:[1-9]/, out);
      assert.match(out, /\.claude\/settings\.json: Read-only file system\nclaude:1\n/, out);
      assert.match(out, /\.mcp\.json: Is a directory\nmcp:1\n/, out);
      assert.match(out, /\.vscode\/tasks\.json: Read-only file system\ntasks:1\n/, out);
      assert.match(out, /cannot move '\.git' to '\.git-old': Device or resource busy\nmv:1\n/, out);
      assert.match(out, /\.git\/commondir: Read-only file system\ncommondir:1\n/, out);
      assert.match(out, /name:[1-9]\n/, out);
      assert.match(out, /\ngit:0\n/, out);
      // Why, once per path, and what to do: ask the user.
      for (const name of ['.git/hooks', '.git/config', '.claude', '.mcp.json', '.vscode', '.git/commondir']) {
        assert.match(out, new RegExp(`\\[sandbox\\] ${name.replace(/\./g, '\\.')} is read-only in the sandbox \\(.+\\)\\. If this change is needed, ask the user to make it outside Delegate\\.`), `${name}: ${out}`);
      }
      // Nothing planted on the host; git's work done; no placeholder left in the tree, nor committed.
      assert.equal(existsSync(join(ws, '.git', 'hooks', 'pre-commit')), false);
      assert.doesNotMatch(readFileSync(join(ws, '.git', 'config'), 'utf8'), /fsmonitor|name = x/);
      assert.equal(readFileSync(join(ws, '.vscode', 'settings.json'), 'utf8'), '{}\n');
      assert.deepEqual(tree(ws), [...before, 'work.txt'].sort());
      assert.equal(git(ws, 'log', '--format=%s', 'topic'), 'work\neditor settings\nfirst\n');
      assert.equal(git(ws, 'show', '--name-only', '--format=', 'HEAD'), 'work.txt\n');
    });

    it('a command that times out leaves no placeholder behind, nor the process\'s entry in the registry', async () => {
      const before = tree(ws);
      let pid = 0;
      cli.api.script(reply.toolUse({ name: 'bash', input: { command: 'ls -d .mcp.json .claude && sleep 30', timeout: 800 } }), reply.text('slow'));
      const run = await runDelegate(['-p', 'go', '--cwd', ws, '--permission-mode', 'bypassPermissions', '--sandbox', 'on'], { env: cli.env(), onSpawn: (child) => (pid = child.pid ?? 0) });
      assert.equal(run.code, 0, run.stderr);
      assert.match(toolOutput(cli.api), /^\.claude\n\.mcp\.json\n[\s\S]*Command timed out after 800 ms/);
      assert.deepEqual(tree(ws), before);
      assert.ok(pid > 0 && !existsSync(registered(pid)), 'registry entry removed at exit');
    });

    it('a kill -9 of the CLI mid-command: the watchdog removes the placeholders once the command is gone', async () => {
      const before = tree(ws);
      const marker = `300.${Date.now() % 100000}3`;
      cli.api.script(reply.toolUse({ name: 'bash', input: { command: `sleep ${marker}` } }));
      let held = false;
      let killed = 0;
      // Nothing can clean up after a SIGKILL: the private /tmp stays, in a TMPDIR of the test's (removed with it).
      const tmp = tempDir('delegate-killed-cli-tmp-');
      const run = await runDelegate(['-p', 'go', '--cwd', ws, '--permission-mode', 'bypassPermissions', '--sandbox', 'on'], {
        env: cli.env({ TMPDIR: tmp }),
        onSpawn: (child) => {
          killed = child.pid ?? 0;
          void waitUntil(() => pidsWith(`sleep ${marker}`).length > 0, 'the command runs', 10_000).catch(() => undefined).then(() => {
            held = existsSync(join(ws, '.mcp.json')) && existsSync(join(ws, '.git', 'commondir')) && existsSync(registered(killed, tmp));
            child.kill('SIGKILL');
          });
        },
      });
      assert.equal(run.signal, 'SIGKILL', `exit ${run.code}: ${run.stderr}`);
      assert.ok(held, 'the placeholders were there while the command ran');
      await waitUntil(() => pidsWith(`sleep ${marker}`).length === 0, 'the command was killed', 5000);
      await waitUntil(() => tree(ws).join() === before.join(), () => `nothing left behind (left: ${tree(ws).filter((n) => !before.includes(n)).join(', ')})`, 5000);
      await waitUntil(() => !existsSync(registered(killed, tmp)), 'the watchdog removed its registry entry', 5000);
    });
  });

  it('acceptEdits: write_file to .claude/settings.json or .git/hooks is asked about (refused headless, naming bypassPermissions); other files are not', async () => {
    cli.api.script(
      reply.toolUse([
        { name: 'write_file', input: { path: '.claude/settings.json', content: '{"hooks":{}}' } },
        { name: 'write_file', input: { path: '.git/hooks/pre-commit', content: '#!/bin/sh\n' } },
        { name: 'edit_file', input: { path: '.mcp.json', old_text: 'x', new_text: 'y' } },
        { name: 'write_file', input: { path: 'src/app.ts', content: 'ok\n' } },
      ]),
      reply.text('done'),
    );
    const run = await runDelegate(['-p', 'go', '--cwd', ws, '--permission-mode', 'acceptEdits'], { env: cli.env() });
    assert.equal(run.code, 0, run.stderr);
    const results = lastToolResults(cli.api.messageRequests()[1] as RecordedRequest);
    for (const [i, path] of ['.claude/settings.json', '.git/hooks/pre-commit', '.mcp.json'].entries()) {
      assert.equal(results[i]?.is_error, true, path);
      assert.match(String(results[i]?.content), new RegExp(`wants to change ${path.replace(/\./g, '\\.')}, a protected path.*rerun with --permission-mode bypassPermissions to allow it`), String(results[i]?.content));
    }
    assert.notEqual(results[3]?.is_error, true, String(results[3]?.content));
    assert.equal(existsSync(join(ws, '.claude')), false);
    assert.equal(existsSync(join(ws, '.git', 'hooks', 'pre-commit')), false);
    assert.equal(readFileSync(join(ws, 'src', 'app.ts'), 'utf8'), 'ok\n');
  });
});
