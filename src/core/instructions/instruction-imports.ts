/**
 * Claude Code's `@path` imports in CLAUDE.md: which paths a file names, and whether one may be read.
 *
 *   "See @docs/style.md and @~/.claude/me.md."   ─▶ docs/style.md (relative to the file), ~/.claude/me.md
 *   `@not/this` in code spans or ``` blocks ```, and a@b.c (no space before @) are not imports
 *
 * Where an import may point (after symlinks are resolved): a workspace file's imports stay in the workspace or
 * `~/.claude/` (Claude Code's documented home for personal per-project notes); the user's own ~/.claude/CLAUDE.md
 * may import from anywhere in HOME. So a cloned repository cannot pull `@~/.ssh/id_rsa` into the prompt.
 */
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** The import paths a file's text names, in order, each once. */
export function importPaths(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const prose = line.replace(/`[^`]*`/g, ' ');
    for (const m of prose.matchAll(/(?:^|\s)@([^\s`]+)/g)) {
      // Sentence punctuation after a path is not part of it.
      const path = (m[1] ?? '').replace(/[.,;:!?)\]]+$/, '');
      if (path && !out.includes(path)) out.push(path);
    }
  }
  return out;
}

/** The absolute path an import names, relative to the file that names it (`~/` is HOME). */
export function resolveImport(path: string, fromFile: string, home: string = homedir()): string {
  if (path === '~' || path.startsWith('~/')) return join(home, path.slice(1));
  return isAbsolute(path) ? path : resolve(dirname(fromFile), path);
}

export function isWithin(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`));
}
