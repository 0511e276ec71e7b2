// The protected paths as bwrap mounts (which are read-only, which get a placeholder, which folders are pinned, in
// what order), placeholders (shared, marked, removed only when no one holds them), the [sandbox] note, and the same
// list in the permission policy: a write to a protected path is asked in acceptEdits too.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PermissionPolicy } from '../../../src/core/policy/permission-policy';
import { hooksPathsIn, protectedTarget } from '../../../src/core/policy/protected-paths';
import type { ToolCallRequest } from '../../../src/core/policy/types';
import type { AgentIdentity } from '../../../src/core/vocabulary';
import { ToolRules } from '../../../src/core/policy/tool-rules';
import { bubblewrapArgs } from '../../../src/core/sandbox/bubblewrap';
import { gitExcludesEnv, gitExcludesText } from '../../../src/core/sandbox/git-excludes';
import { otherSandboxMounts, othersHold, Placeholders } from '../../../src/core/sandbox/placeholders';
import { probeBubblewrap } from '../../../src/core/sandbox/probe';
import { planProtection } from '../../../src/core/sandbox/protected-mounts';
import { refusalNote } from '../../../src/core/sandbox/refusal-note';
import { tempDir } from '../../kit/temp-dirs';
import { waitUntil } from '../../kit/wait';

const noWatch = { watchPath: () => undefined, unwatchPath: () => undefined };

describe('protected paths in the sandbox', () => {
  let ws: string;
  const home = '/nonexistent-home';
  beforeEach(() => {
    ws = realpathSync(tempDir('delegate-protect-'));
  });
  const at = (...names: string[]): string[] => names.map((n) => join(ws, n));

  it('a fresh repository: hooks and config read-only, .git pinned, placeholders for what is missing', () => {
    execFileSync('git', ['init', '-q', ws]);
    const plan = planProtection(ws, home);
    assert.deepEqual(plan.pins, at('.git'));
    assert.deepEqual(plan.readOnly, at('.git/config', '.git/hooks'));
    assert.deepEqual(plan.placeholders, [
      { path: join(ws, '.claude'), placeholder: { kind: 'dir' } },
      { path: join(ws, '.git/commondir'), placeholder: { kind: 'file', content: '.\n' } },
      { path: join(ws, '.mcp.json'), placeholder: { kind: 'dir' } },
      { path: join(ws, '.vscode'), placeholder: { kind: 'dir' } },
    ]);
    // config.worktree only where git would read it.
    execFileSync('git', ['config', 'extensions.worktreeConfig', 'true'], { cwd: ws });
    assert.deepEqual(planProtection(ws, home).placeholders[2], { path: join(ws, '.git/config.worktree'), placeholder: { kind: 'file', content: '' } });
  });

  it('existing entries are bound read-only whole; a .git file (a linked worktree) is held itself; no git, no git entries', () => {
    mkdirSync(join(ws, '.claude', 'agents'), { recursive: true });
    writeFileSync(join(ws, '.mcp.json'), '{}');
    writeFileSync(join(ws, '.envrc'), 'export X=1');
    writeFileSync(join(ws, '.git'), 'gitdir: /elsewhere/.git/worktrees/x\n');
    const plan = planProtection(ws, home);
    assert.deepEqual(plan.readOnly, at('.claude', '.envrc', '.git', '.mcp.json'));
    assert.deepEqual(plan.placeholders.map((p) => p.path), at('.vscode'));
    assert.deepEqual(plan.pins, []);
  });

  it('a file the repository config includes is held (git config include.path ../.gitconfig)', () => {
    execFileSync('git', ['init', '-q', ws]);
    writeFileSync(join(ws, '.gitconfig'), '[alias]\n\tst = status\n');
    execFileSync('git', ['config', 'include.path', '../.gitconfig'], { cwd: ws });
    execFileSync('git', ['config', 'includeIf.onbranch:main.path', '../missing.cfg'], { cwd: ws });
    const plan = planProtection(ws, home);
    assert.ok(plan.readOnly.includes(join(ws, '.gitconfig')), plan.readOnly.join());
    assert.equal(plan.placeholders.some((p) => p.path.endsWith('missing.cfg')), false);
  });

  it('submodule git folders and a core.hooksPath inside the workspace are held, their parents pinned', () => {
    execFileSync('git', ['init', '-q', ws]);
    const sub = join(ws, '.git', 'modules', 'lib', 'a');
    mkdirSync(join(sub, 'hooks'), { recursive: true });
    writeFileSync(join(sub, 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(sub, 'config'), '[core]\n');
    execFileSync('git', ['config', 'core.hooksPath', 'tools/hooks'], { cwd: ws });
    assert.deepEqual(hooksPathsIn(ws, home), at('tools/hooks'));
    const plan = planProtection(ws, home);
    assert.deepEqual(plan.pins, at('.git', '.git/modules', '.git/modules/lib', '.git/modules/lib/a'));
    assert.ok(plan.readOnly.includes(join(sub, 'config')) && plan.readOnly.includes(join(sub, 'hooks')));
    assert.deepEqual(
      plan.placeholders.filter((p) => p.path.startsWith(sub) || p.path.includes('tools')),
      [
        { path: join(sub, 'commondir'), placeholder: { kind: 'file', content: '.\n' } },
        // The first missing component holds the place of tools/hooks.
        { path: join(ws, 'tools'), placeholder: { kind: 'dir' } },
      ],
    );
  });

  it('HOME inside the workspace: its dot-files are held; a symlinked entry holds its target in the workspace', () => {
    const inner = join(ws, 'me');
    mkdirSync(join(inner, '.ssh'), { recursive: true });
    writeFileSync(join(inner, '.bashrc'), '# mine');
    writeFileSync(join(inner, 'notes.txt'), '');
    mkdirSync(join(ws, 'dotfiles-claude'));
    symlinkSync(join(ws, 'dotfiles-claude'), join(ws, '.claude'));
    const plan = planProtection(ws, inner);
    assert.deepEqual(plan.readOnly, at('dotfiles-claude', 'me/.bashrc', 'me/.ssh'));
    assert.deepEqual(plan.pins, at('me'));
  });

  it('bwrap arguments: after the workspace, shallow first, pins writable, the rest read-only', () => {
    const args = bubblewrapArgs(
      { workdir: '/w', tmpdir: '/t', network: false, protect: { pins: ['/w/.git'], readOnly: ['/w/.git/hooks', '/w/.mcp.json', '/elsewhere/x'] } },
      'ls',
    );
    const mounts = args.slice(args.indexOf('/w') - 1, args.indexOf('--chdir'));
    assert.deepEqual(mounts, ['--bind', '/w', '/w', '--bind', '/w/.git', '/w/.git', '--ro-bind', '/w/.mcp.json', '/w/.mcp.json', '--ro-bind', '/w/.git/hooks', '/w/.git/hooks']);
  });

  it('placeholders: made and marked, shared by overlapping commands, removed when the last lets go', () => {
    const holds = new Placeholders(noWatch, () => new Set(), null);
    const list = [
      { path: join(ws, '.mcp.json'), placeholder: { kind: 'dir' as const } },
      { path: join(ws, 'commondir'), placeholder: { kind: 'file' as const, content: '.\n' } },
    ];
    const a = holds.hold(list);
    const b = holds.hold(list);
    assert.deepEqual(a.paths, at('.mcp.json', 'commondir'));
    assert.equal(readFileSync(join(ws, 'commondir'), 'utf8'), '.\n');
    a.release();
    a.release(); // twice is once
    assert.ok(existsSync(join(ws, '.mcp.json')), 'still held by b');
    b.release();
    assert.equal(existsSync(join(ws, '.mcp.json')), false);
    assert.equal(existsSync(join(ws, 'commondir')), false);
  });

  it('placeholders: one a crash left is taken and removed; what the user put there is theirs; one mounted elsewhere stays', () => {
    const holds = new Placeholders(noWatch, () => new Set(), null);
    const left = holds.hold([{ path: join(ws, '.vscode'), placeholder: { kind: 'dir' } }]);
    // A second process (or a restart) finds it: marked, so it is taken and removed after its command.
    const restart = new Placeholders(noWatch, () => new Set(), null);
    assert.deepEqual(planProtection(ws, home).placeholders.find((p) => p.path.endsWith('.vscode')), { path: join(ws, '.vscode'), placeholder: { kind: 'dir' } });
    restart.hold([{ path: join(ws, '.vscode'), placeholder: { kind: 'dir' } }]).release();
    assert.equal(existsSync(join(ws, '.vscode')), false);
    left.release();
    // The user's own folder (made since the plan looked) is held as it is, and left after.
    mkdirSync(join(ws, '.claude'));
    const theirs = holds.hold([{ path: join(ws, '.claude'), placeholder: { kind: 'dir' } }]);
    assert.deepEqual(theirs.paths, at('.claude'));
    theirs.release();
    assert.ok(existsSync(join(ws, '.claude')));
    // A user's read-only two-byte file is not a placeholder, whatever its mode.
    writeFileSync(join(ws, 'commondir'), '{}', { mode: 0o444 });
    const file = holds.hold([{ path: join(ws, 'commondir'), placeholder: { kind: 'file', content: '.\n' } }]);
    file.release();
    assert.equal(readFileSync(join(ws, 'commondir'), 'utf8'), '{}');
    // Another process's sandbox has it mounted: left for that process to remove.
    const shared = new Placeholders(noWatch, () => new Set([join(ws, '.mcp.json')]), null);
    shared.hold([{ path: join(ws, '.mcp.json'), placeholder: { kind: 'dir' } }]).release();
    assert.ok(existsSync(join(ws, '.mcp.json')));
  });

  it('the registry: another live process with placeholders makes a release look at other sandboxes; a dead one does not', () => {
    const registry = join(ws, 'registry');
    assert.equal(othersHold(registry), true, 'unknown: look');
    const holds = new Placeholders(noWatch, () => new Set(), registry);
    holds.hold([{ path: join(ws, '.vscode'), placeholder: { kind: 'dir' } }]).release();
    assert.deepEqual(readdirSync(registry), [String(process.pid)]);
    assert.equal(othersHold(registry), false, 'only this process');
    const other = spawn('sleep', ['5'], { stdio: 'ignore' });
    try {
      writeFileSync(join(registry, String(other.pid)), '');
      assert.equal(othersHold(registry), true);
    } finally {
      other.kill('SIGKILL');
    }
    writeFileSync(join(registry, '999999999'), '');
    rmSync(join(registry, String(other.pid)));
    assert.equal(othersHold(registry), false, 'a dead pid');
  });

  it("git's excludes: the placeholders at the root, after the user's own excludes file; GIT_CONFIG_* entries appended", () => {
    const home = join(ws, 'home');
    mkdirSync(home);
    writeFileSync(join(home, '.gitconfig'), '[core]\n\texcludesFile = ~/my-ignore\n');
    writeFileSync(join(home, 'my-ignore'), '*.swp');
    const text = gitExcludesText(ws, [join(ws, '.mcp.json'), join(ws, '.git', 'commondir'), join(ws, '.claude')], home, {});
    assert.equal(text, "*.swp\n# Delegate's sandbox: placeholders of protected paths\n/.mcp.json/\n/.claude/\n");
    assert.equal(gitExcludesText(ws, [join(ws, '.git', 'commondir')], home, {}), undefined);
    assert.deepEqual(gitExcludesEnv({}), { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.excludesFile', GIT_CONFIG_VALUE_0: '/tmp/.delegate-git-excludes' });
    assert.deepEqual(gitExcludesEnv({ GIT_CONFIG_COUNT: '2' }), { GIT_CONFIG_COUNT: '3', GIT_CONFIG_KEY_2: 'core.excludesFile', GIT_CONFIG_VALUE_2: '/tmp/.delegate-git-excludes' });
  });

  it('the [sandbox] note: one line per protected path an error names, nothing for other errors', () => {
    const out = 'x\n.git/hooks/pre-commit: Read-only file system\nerror: could not write config file /w/.git/config: Device or resource busy\nerror: could not write config file /w/.git/config: Device or resource busy\nsrc/a.ts: Permission denied\n';
    const note = refusalNote(out, '/w') ?? '';
    assert.deepEqual(note.split('\n').map((l) => l.slice(0, 40)), ['[sandbox] .git/hooks is read-only in the', '[sandbox] .git/config is read-only in th']);
    assert.match(note, /ask the user to make it outside Delegate\.$/);
    assert.equal(refusalNote('touch: src/a.ts: Read-only file system\n.claude mentioned in passing\n', '/w'), undefined);
    assert.match(refusalNote('tools/hooks/pre-commit: Read-only file system', '/w', ['/w/tools/hooks']) ?? '', /^\[sandbox\] tools\/hooks is read-only in the sandbox \(core\.hooksPath names it/);
  });

  describe('with bubblewrap', () => {
    before(async function () {
      if (!(await probeBubblewrap()).ok) this.skip();
    });

    it('another process\'s sandbox is seen in its mount table (ours are not)', async () => {
      mkdirSync(join(ws, 'held'));
      // No --die-with-parent: its parent, the shell, exits at once (and killed it, in one run of three).
      const args = ['--unshare-user', '--unshare-pid', '--ro-bind', '/', '/', '--ro-bind', join(ws, 'held'), join(ws, 'held'), '--', '/bin/sleep', '30'];
      // Started through a shell that exits at once: bwrap's parent is then not this process. Its own group, to kill.
      const sh = spawn('/bin/sh', ['-c', `bwrap ${args.map((a) => `'${a}'`).join(' ')} >/dev/null 2>&1 &`], { stdio: 'ignore', detached: true });
      // Ours: started by this process, it is covered by the count instead.
      mkdirSync(join(ws, 'own'));
      const own = spawn('bwrap', [...args.slice(0, 5), '--ro-bind', join(ws, 'own'), join(ws, 'own'), '--', '/bin/sleep', '30'], { stdio: 'ignore', detached: true });
      try {
        await waitUntil(() => otherSandboxMounts().has(join(ws, 'held')), 'the other sandbox is found', 5000);
        // Seen by any other process (no pid is NaN's child), not by this one.
        await waitUntil(() => otherSandboxMounts(Number.NaN).has(join(ws, 'own')), 'ours is up', 5000);
        assert.equal(otherSandboxMounts().has(join(ws, 'own')), false);
      } finally {
        if (sh.pid) process.kill(-sh.pid, 'SIGKILL');
        if (own.pid) process.kill(-own.pid, 'SIGKILL');
      }
    });
  });
});

describe('protected paths in the permission policy', () => {
  let ws: string;
  const agent: AgentIdentity = { agentId: 'root', parentId: null, depth: 0 };
  const child: AgentIdentity = { agentId: 'c1', parentId: 'root', depth: 1 };
  const write = (p: string, who: AgentIdentity = agent): ToolCallRequest => ({ agent: who, toolUseId: 't', toolName: 'write_file', kind: 'write', input: { path: p }, summary: p, paths: [p] });
  beforeEach(() => {
    ws = realpathSync(tempDir('delegate-protect-perm-'));
  });

  it('what counts: any .git/.claude/.vscode segment at any depth, without case; .mcp.json and .envrc; a hooksPath folder', () => {
    const shown = (p: string, hooks: string[] = []): string | undefined => protectedTarget(ws, join(ws, p), hooks)?.shown;
    assert.equal(shown('.claude/settings.json'), '.claude');
    assert.equal(shown('packages/x/.GIT/hooks/pre-commit'), 'packages/x/.GIT');
    assert.equal(shown('.mcp.json'), '.mcp.json');
    assert.equal(shown('src/.envrc'), 'src/.envrc');
    assert.equal(shown('tools/hooks/pre-push', [join(ws, 'tools/hooks')]), 'tools/hooks');
    assert.equal(shown('src/claude.ts'), undefined);
    assert.equal(shown('.github/workflows/ci.yml'), undefined);
  });

  it('acceptEdits asks; an answer for all writes or a whole-tool rule does not lift it; an answer for the path does; bypassPermissions allows', async () => {
    const policy = new PermissionPolicy({ workdir: ws, mode: 'acceptEdits' });
    assert.equal((await policy.check(write('src/a.ts'))).behavior, 'allow');
    const hook = write('.git/hooks/pre-commit');
    const asked = await policy.check(hook);
    assert.equal(asked.behavior, 'ask');
    assert.match(asked.behavior === 'ask' ? asked.reason : '', /^write_file wants to change \.git\/hooks\/pre-commit, a protected path, asked about in every mode but bypassPermissions \(\.git: /);
    // "Allow for this session" to an ordinary write in default mode covers all writes, not this one.
    const plain = new PermissionPolicy({ workdir: ws, mode: 'default', rules: new ToolRules({ allowed: ['write_file'] }) });
    const ordinary = write('src/b.ts');
    await plain.check(ordinary);
    plain.rememberForSession(ordinary);
    assert.equal((await plain.check(write('.claude/settings.json'))).behavior, 'ask');
    // An answer for that path, for the session: that path only.
    const settings = write('.claude/settings.json');
    await policy.check(settings);
    policy.rememberForSession(settings);
    assert.equal((await policy.check(write('.claude/settings.json'))).behavior, 'allow');
    assert.equal((await policy.check(write('.claude/settings.local.json'))).behavior, 'ask');
    // For a subagent: that path, that agent.
    const sub = write('.vscode/tasks.json', child);
    await policy.check(sub);
    policy.rememberForAgent(sub, 'agent');
    assert.equal((await policy.check(write('.vscode/tasks.json', child))).behavior, 'allow');
    assert.equal((await policy.check(write('.vscode/launch.json', child))).behavior, 'ask');
    assert.equal((await new PermissionPolicy({ workdir: ws, mode: 'bypassPermissions' }).check(hook)).behavior, 'allow');
    assert.equal((await new PermissionPolicy({ workdir: ws, mode: 'plan' }).check(hook)).behavior, 'deny');
  });

  it('a link in the workspace that leads to a protected path is judged by where it leads', async () => {
    mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
    symlinkSync(join(ws, '.git', 'hooks'), join(ws, 'innocent'));
    const verdict = await new PermissionPolicy({ workdir: ws, mode: 'acceptEdits' }).check(write('innocent/pre-commit'));
    assert.equal(verdict.behavior, 'ask');
  });
});
