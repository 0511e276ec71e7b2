/**
 * Inside the sandbox, git leaves the workspace root's placeholders alone. `git stash -u` and `git clean -fd` remove
 * untracked folders, empty ones too, and a placeholder (a mount point) refuses with EBUSY: both then warned and
 * exited 1, which broke `git stash -u && …`. Ignored paths they keep, so the sandbox's git gets an excludes file that
 * names the placeholders:
 *
 *   GIT_CONFIG_COUNT/KEY/VALUE (after any the user set) ─▶ core.excludesFile = /tmp/.delegate-git-excludes
 *   its text: the user's own global excludes (the setting replaces theirs, so their patterns are copied in first),
 *             then one anchored line per placeholder (`/.mcp.json/`)
 *
 * `git clean -x` removes ignored paths too: it still warns about them. The repository's .gitignore and
 * .git/info/exclude apply as before.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { coreSettings } from '../policy/protected-paths';

/** Where the file is inside the sandbox (the private /tmp). */
export const EXCLUDES_IN_SANDBOX = '/tmp/.delegate-git-excludes';

/** The excludes file's text for these placeholders (those directly in the workspace), or undefined when none is. */
export function gitExcludesText(workdir: string, placeholders: readonly string[], home: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const names = placeholders.filter((p) => dirname(p) === workdir).map((p) => `/${basename(p)}/`);
  if (names.length === 0) return undefined;
  const setting = coreSettings('excludesfile', workdir, home, env).at(-1);
  const own = setting ? (setting.startsWith('~/') ? join(home, setting.slice(2)) : setting) : join(env.XDG_CONFIG_HOME || join(home, '.config'), 'git', 'ignore');
  let theirs = '';
  try {
    if (existsSync(own)) theirs = readFileSync(own, 'utf8');
  } catch {
    // Unreadable: git could not read it either.
  }
  return `${theirs}${theirs === '' || theirs.endsWith('\n') ? '' : '\n'}# Delegate's sandbox: placeholders of protected paths\n${names.join('\n')}\n`;
}

/** The environment that points git at the file, after the GIT_CONFIG_* entries the environment already has. */
export function gitExcludesEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const count = Number.parseInt(env.GIT_CONFIG_COUNT ?? '', 10);
  const n = Number.isInteger(count) && count > 0 ? count : 0;
  return { GIT_CONFIG_COUNT: String(n + 1), [`GIT_CONFIG_KEY_${n}`]: 'core.excludesFile', [`GIT_CONFIG_VALUE_${n}`]: EXCLUDES_IN_SANDBOX };
}
