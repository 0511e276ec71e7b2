/**
 * The workspace's files whose contents other programs run later, outside the sandbox and without asking: git
 * (hooks, config), the next agent session opened here (.claude, .mcp.json), the editor (.vscode), direnv. One
 * list, used twice:
 *
 *   bash in the sandbox ──▶ each path held read-only (sandbox/protected-mounts.ts), even one that does not exist
 *                           yet where that matters (a placeholder holds its place while the command runs)
 *   write_file/edit_file ──▶ a write at or under one is asked about in default and acceptEdits modes, whatever was
 *                            allowed for all writes (permissions.ts), as Claude Code's "protected paths" are
 *
 * Every entry says why. What is not here (package.json scripts, a Makefile, tests: code the user runs on purpose)
 * is in docs/sandbox.md, "What a command can still leave behind".
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** What stands in for a path that does not exist yet while a sandboxed command runs. */
export type Placeholder =
  /** An empty folder: git lists no empty folder, so neither `git status` nor `git add -A` sees it. */
  | { kind: 'dir' }
  /** A file with this content, read as the file's absence (inside .git, where git status never looks). */
  | { kind: 'file'; content: string };

export interface ProtectedPath {
  /** Relative to the workspace (`in: 'workspace'`) or to each git folder in it (`in: 'git-dir'`). */
  path: string;
  type: 'dir' | 'file';
  in: 'workspace' | 'git-dir';
  /** When it does not exist: a placeholder holds its place, or nothing does (the reason says why that is safe). */
  missing: Placeholder | 'left';
  /** The placeholder only where git would read the file: its git folder's config turns extensions.worktreeConfig on. */
  missingMattersIf?: 'worktreeConfig';
  /** False: only the file tools ask; commands in the sandbox may write it (the reason says why they must). */
  sandbox: boolean;
  reason: string;
}

export const PROTECTED_PATHS: readonly ProtectedPath[] = [
  {
    path: 'hooks',
    type: 'dir',
    in: 'git-dir',
    missing: { kind: 'dir' },
    sandbox: true,
    reason: 'git runs its scripts on commit, merge, checkout, rebase and push',
  },
  {
    path: 'config',
    type: 'file',
    in: 'git-dir',
    missing: { kind: 'file', content: '' },
    sandbox: true,
    reason:
      'git runs commands it names: core.fsmonitor on every git status (the editor\'s too), core.hooksPath, core.sshCommand, core.pager, "!" aliases, filter and diff drivers, credential helpers',
  },
  {
    path: 'commondir',
    type: 'file',
    in: 'git-dir',
    // "." is git's own default (the git folder is its own common folder); an empty commondir is a fatal error to git.
    missing: { kind: 'file', content: '.\n' },
    sandbox: true,
    reason: "it sends git to another folder's config and hooks",
  },
  {
    path: 'config.worktree',
    type: 'file',
    in: 'git-dir',
    missing: { kind: 'file', content: '' },
    missingMattersIf: 'worktreeConfig',
    sandbox: true,
    reason: 'git reads it as config where extensions.worktreeConfig is on',
  },
  {
    path: '.claude',
    type: 'dir',
    in: 'workspace',
    missing: { kind: 'dir' },
    sandbox: true,
    reason:
      'the hooks of .claude/settings.json and settings.local.json are commands the next session opened here runs (Delegate\'s and Claude Code\'s); its agents, commands and skills are instructions that session follows',
  },
  {
    path: '.mcp.json',
    type: 'file',
    in: 'workspace',
    // A folder, not a file: an empty .mcp.json would be listed by git status and committed by `git add -A`.
    missing: { kind: 'dir' },
    sandbox: true,
    reason: 'its MCP servers are commands the next session opened here starts',
  },
  {
    path: '.vscode',
    type: 'dir',
    in: 'workspace',
    missing: { kind: 'dir' },
    sandbox: true,
    reason: 'the editor runs its tasks and launch configurations, and its settings name programs that extensions start',
  },
  {
    path: '.envrc',
    type: 'file',
    in: 'workspace',
    missing: 'left',
    sandbox: true,
    reason: 'direnv runs it when you enter the folder (a new or changed .envrc waits for `direnv allow`, so a missing one needs no placeholder)',
  },
  {
    path: '.husky',
    type: 'dir',
    in: 'workspace',
    missing: 'left',
    sandbox: true,
    reason: 'husky\'s hook scripts, which git runs on commit through core.hooksPath (a missing one is held when core.hooksPath points into it)',
  },
  {
    path: '.idea',
    type: 'dir',
    in: 'workspace',
    missing: 'left',
    sandbox: true,
    reason: 'JetBrains IDEs run its run configurations and external tools (only a project that has one is opened as such)',
  },
  {
    path: '.git',
    type: 'dir',
    in: 'workspace',
    missing: 'left',
    sandbox: false,
    reason:
      "git's own data; commands in the sandbox must commit and branch (only hooks, config, commondir and config.worktree are held there), but a file tool has no business in it",
  },
];

const WORKSPACE_ENTRIES = PROTECTED_PATHS.filter((p) => p.in === 'workspace');

/** Says, in a permission question, that no mode but bypassPermissions answers it (hosts name their own way out). */
export const PROTECTED_WHY = 'a protected path, asked about in every mode but bypassPermissions';

/**
 * The entry a write to `absPath` (a real path inside `workdir`) touches, with the path as shown: any segment named
 * like a workspace entry, at any depth (a package's own `.claude` or `.git`), compared without case (macOS and
 * Windows file systems ignore it), and a core.hooksPath folder inside the workspace.
 */
export function protectedTarget(workdir: string, absPath: string, hooksPaths: readonly string[] = hooksPathsIn(workdir)): { shown: string; entry: ProtectedPath } | undefined {
  const rel = relative(workdir, absPath);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  const segments = rel.split(sep);
  for (let i = 0; i < segments.length; i++) {
    const name = segments[i]?.toLowerCase();
    const entry = WORKSPACE_ENTRIES.find((p) => p.path.toLowerCase() === name);
    if (entry) return { shown: segments.slice(0, i + 1).join('/'), entry };
  }
  for (const hooks of hooksPaths) {
    const under = relative(hooks, absPath);
    if (under === '' || (!under.startsWith('..') && !isAbsolute(under))) return { shown: relative(workdir, hooks) || '.', entry: HOOKS_PATH };
  }
  return undefined;
}

/** A core.hooksPath folder: held like the git folder's own hooks (found by hooksPathsIn, not listed above). */
export const HOOKS_PATH: ProtectedPath = {
  path: 'core.hooksPath',
  type: 'dir',
  in: 'workspace',
  missing: { kind: 'dir' },
  sandbox: true,
  reason: 'core.hooksPath names it: git runs its scripts on commit, merge, checkout, rebase and push',
};

/**
 * The folders inside `workdir` that a `core.hooksPath` setting names (the system's, the user's, the repository's
 * config): git runs hooks from there instead of .git/hooks. Every value counts, not only the one git would use (a
 * setting may be removed between now and the next git). A relative value is relative to the work tree, as git takes it.
 */
export function hooksPathsIn(workdir: string, home: string = homedir(), env: NodeJS.ProcessEnv = process.env): string[] {
  const found = new Set<string>();
  for (const value of coreSettings('hookspath', workdir, home, env)) {
    const abs = value === '~' || value.startsWith('~/') ? join(home, value.slice(1)) : resolve(workdir, value);
    const rel = relative(workdir, abs);
    if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) found.add(abs);
  }
  return [...found];
}

/**
 * The values of `core.<key>` (lower case) in git's config files, least precedence first (system, the user's XDG
 * file, ~/.gitconfig, the repository's): read with a small scan, not `git config` (a process per bash call).
 */
export function coreSettings(key: string, workdir: string, home: string = homedir(), env: NodeJS.ProcessEnv = process.env): string[] {
  const files = ['/etc/gitconfig', join(env.XDG_CONFIG_HOME || join(home, '.config'), 'git', 'config'), join(home, '.gitconfig'), join(workdir, '.git', 'config')];
  const values: string[] = [];
  for (const file of files) {
    try {
      // Most of these do not exist: a failed read costs a thrown error (~35 µs), a failed existsSync does not.
      if (existsSync(file)) values.push(...configValues(readFileSync(file, 'utf8'), 'core', key));
    } catch {
      // Unreadable: git cannot read it either.
    }
  }
  return values;
}

/**
 * The values of `key` (lower case) in a git config text's sections named `section` (lower case; `[includeIf "…"]`
 * is named includeif): keys and section names are compared without case, as git does.
 */
export function configValues(text: string, section: string, key: string): string[] {
  const values: string[] = [];
  let inSection = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const header = /^\[\s*([^\]\s"]+)[^\]]*\]\s*(.*)$/.exec(line);
    let rest = line;
    if (header) {
      inSection = header[1]?.toLowerCase() === section;
      rest = header[2] ?? '';
    }
    const m = /^([\w-]+)\s*=\s*(.*)$/.exec(rest);
    if (!inSection || !m || m[1]?.toLowerCase() !== key) continue;
    let value = (m[2] ?? '').replace(/\s[#;].*$/, '').trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (value !== '') values.push(value);
  }
  return values;
}
