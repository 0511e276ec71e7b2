/**
 * Which mounts hold the protected paths (policy/protected-paths.ts) read-only inside one sandboxed command, found
 * fresh for each command (a few lstat calls; a repository with submodules also lists .git/modules):
 *
 *   exists                ──▶ readOnly: `--ro-bind P P`
 *   missing, a placeholder ──▶ placeholders: made on the host just before (placeholders.ts), then bound like the rest
 *   missing, left         ──▶ nothing (the list says why that is safe)
 *   every folder between the workspace and a held path ──▶ pins: `--bind D D`, a mount point of its own, which
 *                           rename() and rmdir() refuse (EBUSY): without it `mv .git x && mkdir .git` would make a
 *                           fresh, writable .git/config in a moment
 *
 * Held: the workspace entries, every git folder inside the workspace (.git, the submodules' under .git/modules, the
 * linked worktrees' under .git/worktrees: their own files only), a core.hooksPath folder inside it, and a file in it
 * that a git config includes (an existing one: git skips a missing include, so it is left); `.git` as a
 * file (a linked worktree, a submodule checkout) is held itself, since it names the git folder. When HOME is inside
 * the workspace (Delegate opened on ~ or above it), HOME's dot-files and -folders are held too: outside that case
 * HOME is read-only whole.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { configValues, HOOKS_PATH, hooksPathsIn, PROTECTED_PATHS, type Placeholder } from '../policy/protected-paths';
import { isPlaceholder } from './placeholders';

export interface HeldPlaceholder {
  path: string;
  placeholder: Placeholder;
}

export interface ProtectionPlan {
  /** Folders bound onto themselves, writable: they cannot be renamed or removed. */
  pins: string[];
  /** Existing paths bound read-only onto themselves. */
  readOnly: string[];
  /** Missing paths (or placeholders left from before): a placeholder is made, then bound read-only. */
  placeholders: HeldPlaceholder[];
  /** core.hooksPath folders inside the workspace (held above; named in refusal notes). */
  hooksPaths?: string[];
}

/** More submodule git folders than this: .git/modules is held whole (git writes inside submodules then fail). */
const MAX_GIT_DIRS = 64;

/** Without throwing for a missing path: a thrown error costs ~35 µs, and most protected paths do not exist. */
function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined; // ENOTDIR: a file above it
  }
}

function listOrNone(dir: string): string[] {
  if (!lstatOrUndefined(dir)?.isDirectory()) return [];
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** What holds the protected paths of `workdir` (a real path) for one command. */
export function planProtection(workdir: string, home?: string): ProtectionPlan {
  const held = new Map<string, Placeholder | undefined>();

  const hold = (path: string, missing: Placeholder | 'left'): void => {
    const st = lstatOrUndefined(path);
    if (st?.isSymbolicLink()) {
      // The target is held where it lies in the workspace (a link can be replaced: docs/sandbox.md says so).
      try {
        const real = realpathSync(path);
        if (inside(workdir, real)) held.set(real, undefined);
      } catch {
        // Dangling: a write through it creates the target, which a placeholder cannot hold. Left.
      }
      return;
    }
    if (st) {
      // One of ours, left by a process that died (or held by another one now): held as a placeholder, removed after.
      const ours = isPlaceholder(path, st);
      held.set(path, ours ? (st.isDirectory() ? { kind: 'dir' } : { kind: 'file', content: '' }) : undefined);
      return;
    }
    if (missing === 'left') return;
    // The first missing component holds the place; one above the path itself is a folder.
    let first = path;
    for (let up = dirname(path); up !== workdir && inside(workdir, up); up = dirname(up)) {
      const above = lstatOrUndefined(up);
      if (above && !above.isDirectory()) return; // a file (or a link) above: nothing can be created below it
      if (above) break;
      first = up;
    }
    held.set(first, first === path ? missing : { kind: 'dir' });
  };

  for (const entry of PROTECTED_PATHS) {
    if (entry.in === 'workspace' && entry.sandbox) hold(join(workdir, entry.path), entry.missing);
  }
  const hooksPaths = hooksPathsIn(workdir, home);
  for (const hooks of hooksPaths) hold(hooks, HOOKS_PATH.missing);

  const dotGit = join(workdir, '.git');
  const git = lstatOrUndefined(dotGit);
  if (git?.isFile()) held.set(dotGit, undefined);
  else if (git?.isDirectory()) {
    for (const { dir, own } of gitDirs(dotGit, held)) {
      const config = readOrEmpty(join(dir, 'config'));
      const worktreeConfig = own && /^\s*worktreeconfig\s*=\s*(true|yes|on|1)\s*$/im.test(config);
      // A file the config includes is config too (`git config include.path ../.gitconfig`, a project's shared one).
      for (const included of [...configValues(config, 'include', 'path'), ...configValues(config, 'includeif', 'path')]) {
        const abs = included.startsWith('~/') ? join(home ?? '/', included.slice(2)) : resolve(dir, included);
        if (inside(workdir, abs)) hold(abs, 'left');
      }
      for (const entry of PROTECTED_PATHS) {
        if (entry.in !== 'git-dir') continue;
        const matters = own && (entry.missingMattersIf !== 'worktreeConfig' || worktreeConfig);
        hold(join(dir, entry.path), matters ? entry.missing : 'left');
      }
    }
  }

  if (home && inside(workdir, home)) {
    for (const name of listOrNone(home)) if (name.startsWith('.')) hold(join(home, name), 'left');
  }

  return { ...toPlan(workdir, held), hooksPaths };
}

/**
 * The git folders of a `.git` folder: itself, the submodules' (`modules/<name>`, a name may hold slashes, nested
 * submodules under their own `modules/`) and the linked worktrees' (`worktrees/<name>`: `own` false, since git reads
 * those hooks and config from the common folder; only what they have is held).
 */
function gitDirs(dotGit: string, held: Map<string, Placeholder | undefined>): { dir: string; own: boolean }[] {
  const found: { dir: string; own: boolean }[] = [{ dir: dotGit, own: true }];
  const modules: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > 6 || modules.length > MAX_GIT_DIRS) return;
    for (const name of listOrNone(dir)) {
      const sub = join(dir, name);
      if (!lstatOrUndefined(sub)?.isDirectory()) continue;
      if (lstatOrUndefined(join(sub, 'HEAD'))) {
        modules.push(sub);
        walk(join(sub, 'modules'), depth + 1);
      } else walk(sub, depth + 1);
    }
  };
  walk(join(dotGit, 'modules'), 0);
  if (modules.length > MAX_GIT_DIRS) held.set(join(dotGit, 'modules'), undefined);
  else found.push(...modules.map((dir) => ({ dir, own: true })));
  found.push(...listOrNone(join(dotGit, 'worktrees')).map((name) => ({ dir: join(dotGit, 'worktrees', name), own: false })));
  return found;
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Drops what a held folder already covers, and pins every folder between the workspace and what is left. */
function toPlan(workdir: string, held: Map<string, Placeholder | undefined>): Omit<ProtectionPlan, 'hooksPaths'> {
  const paths = [...held.keys()].sort();
  const kept = paths.filter((p) => !paths.some((q) => q !== p && inside(q, p) && isFolder(q, held.get(q))));
  const pins = new Set<string>();
  for (const p of kept) {
    for (let up = dirname(p); inside(workdir, up); up = dirname(up)) pins.add(up);
  }
  const plan = { pins: [...pins].sort(depthFirst), readOnly: [] as string[], placeholders: [] as HeldPlaceholder[] };
  for (const p of kept) {
    const placeholder = held.get(p);
    if (placeholder) plan.placeholders.push({ path: p, placeholder });
    else plan.readOnly.push(p);
  }
  return plan;
}

function isFolder(path: string, placeholder: Placeholder | undefined): boolean {
  return placeholder ? placeholder.kind === 'dir' : lstatOrUndefined(path)?.isDirectory() === true;
}

/** Shallow first: a folder's mount must come before the mounts inside it. */
export function depthFirst(a: string, b: string): number {
  return a.split(sep).length - b.split(sep).length || (a < b ? -1 : a > b ? 1 : 0);
}
