/**
 * The line added to a sandboxed command's output when it shows a write to a protected path failing, so the model
 * reads why (not "a bug to work around") and what to do: ask the user. Each tool says it its own way, and none
 * says "protected":
 *
 *   echo x > .git/hooks/pre-commit   .git/hooks/pre-commit: Read-only file system
 *   git config user.name x           could not write config file .git/config: Device or resource busy
 *   echo {} > .mcp.json              .mcp.json: Is a directory          (the placeholder is a folder)
 *   rm -rf .claude                   cannot remove '.claude': Device or resource busy
 */
import { relative } from 'node:path';
import { HOOKS_PATH, PROTECTED_PATHS, type ProtectedPath } from '../policy/protected-paths';

const FAILED = /Read-only file system|Device or resource busy|Is a directory|Permission denied|Operation not permitted/;

/** What each protected path is called in messages, longest first (`.git/config.worktree` before `.git/config`). */
const NAMES: { name: string; entry: ProtectedPath }[] = PROTECTED_PATHS.filter((p) => p.sandbox)
  .map((entry) => ({ name: entry.in === 'git-dir' ? `.git/${entry.path}` : entry.path, entry }))
  .sort((a, b) => b.name.length - a.name.length);

/** One line per protected path an error line of `output` names, or undefined. */
export function refusalNote(output: string, workdir: string, hooksPaths: readonly string[] = []): string | undefined {
  const names = [...NAMES, ...hooksPaths.map((p) => ({ name: relative(workdir, p), entry: HOOKS_PATH }))];
  const named = new Map<string, ProtectedPath>();
  for (const line of output.split('\n')) {
    if (!FAILED.test(line)) continue;
    const hit = names.find(({ name }) => line.includes(name));
    if (hit) named.set(hit.name, hit.entry);
  }
  if (named.size === 0) return undefined;
  return [...named]
    .map(([name, entry]) => `[sandbox] ${name} is read-only in the sandbox (${entry.reason}). If this change is needed, ask the user to make it outside Delegate.`)
    .join('\n');
}
