/**
 * What the deny list protects and how a command reaches it: paths resolved against the folder the line has
 * cd'd to (`cd ~ && rm -rf .` is `rm -rf ~`), the folders that must never be deleted wholesale (/, HOME, system
 * folders and their direct children), `find` walks that delete everything under such a folder, and signals
 * sent to every process (`kill -9 -1`).
 *
 *   "~/a/../.." ─resolve(cwd, home)─▶ "~/.."  (above HOME) ─▶ critical
 *   "lib" after `cd /usr`           ─▶ "/usr/lib" (a system folder's child) ─▶ critical
 */
import { posix } from 'node:path';

/** Where a line stands: its current folder (undefined: unknown) and the user's home folder (if known). */
export interface Place {
  cwd: string | undefined;
  home: string | undefined;
}

const SYSTEM_DIRS = new Set(
  ['bin', 'boot', 'dev', 'etc', 'home', 'lib', 'lib32', 'lib64', 'libx32', 'media', 'mnt', 'opt', 'proc', 'root', 'run', 'sbin', 'srv', 'sys', 'usr', 'var',
    'Users', 'System', 'Library', 'Applications', 'Volumes', 'private'].map((d) => `/${d}`),
);
/** /root is root's HOME: its children are like ~/projects, deletable. */
const CHILDREN_DELETABLE = new Set(['/root']);

/**
 * An argument as an absolute path (`/…`), a home-relative one (`~`, `~/…`, `~/..` for "above HOME", `~user`),
 * or undefined when it is relative to a folder we do not know. A trailing `*` / `.*` counts as the folder itself.
 */
function resolvePath(arg: string, place: Place): string | undefined {
  let path = arg;
  if (/^~[^/]/.test(path)) return path.replace(/\/+(\.|\*)?$/, '');
  if (path === '~' || path.startsWith('~/')) path = (place.home ?? '~') + path.slice(1);
  else if (!path.startsWith('/')) {
    if (place.cwd === undefined) return undefined;
    path = `${place.cwd}/${path}`;
  }
  const root = path.startsWith('~') ? '~' : '/';
  const segments: string[] = [];
  for (const s of path.slice(1).split('/')) {
    if (s === '' || s === '.') continue;
    if (s !== '..') segments.push(s);
    else if (segments.length > 0) segments.pop();
    else if (root === '~') return '~/..';
  }
  while (segments.length > 0 && ['*', '.*', '{*,.*}', '.[!.]*'].includes(segments.at(-1) ?? '')) segments.pop();
  if (root === '~') return segments.length ? `~/${segments.join('/')}` : '~';
  return `/${segments.join('/')}`;
}

/** /, HOME (or above it), another user's home, a system folder or a direct child of one. */
function isCriticalPath(path: string, place: Place): boolean {
  if (path === '/' || path === '~' || path === '~/..' || /^~[a-z_][\w.-]*$/i.test(path)) return true;
  const home = place.home?.replace(/\/+$/, '');
  if (home && (path === home || home.startsWith(`${path}/`))) return true;
  if (path.startsWith('~')) return false;
  const parent = posix.dirname(path);
  return SYSTEM_DIRS.has(path) || (SYSTEM_DIRS.has(parent) && !CHILDREN_DELETABLE.has(parent));
}

/** The first argument that resolves to a critical folder, as written (and what it resolved to, when that differs). */
export function criticalArg(args: string[], place: Place): string | undefined {
  for (const arg of args) {
    const path = resolvePath(arg, place);
    if (path !== undefined && isCriticalPath(path, place)) return path === arg || path === arg.replace(/\/+$/, '') ? arg : `${arg} (${path})`;
  }
  return undefined;
}

/** Where `cd`/`pushd` with these arguments lands: a folder, or undefined when it cannot be known. */
export function cdTarget(args: string[], place: Place): string | undefined {
  const operands = args.filter((a) => !/^-[LPe@]+$/.test(a));
  if (operands[0] === '--') operands.shift();
  const to = operands[0];
  if (to === undefined) return place.home ?? '~';
  if (to === '-' || to.includes('$')) return undefined;
  return resolvePath(to, place);
}

/** Tests that pick some files out of a walk; without one, `find X` lists X and everything under it. */
const NARROWING = new Set(['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname', '-newer', '-anewer', '-cnewer',
  '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-size', '-user', '-uid', '-group', '-gid', '-perm', '-inum', '-samefile', '-links', '-nouser', '-nogroup', '-empty']);
const MATCH_ALL = /^(\*|\.\*|\*\*)$/;

/** The critical folder a `find` walks without narrowing it down (so it lists everything under it), if any. */
export function findWalksEverything(args: string[], place: Place): string | undefined {
  let i = 0;
  while (/^-[HLP]$|^-D$|^-O\d*$/.test(args[i] ?? '')) i += args[i] === '-D' ? 2 : 1;
  const starts: string[] = [];
  for (; i < args.length && !/^[-(!]/.test(args[i] ?? ''); i++) starts.push(args[i] ?? '');
  const expression = args.slice(i);
  const narrowed = expression.some((a, k) => NARROWING.has(a) && !MATCH_ALL.test(expression[k + 1] ?? ''));
  if (narrowed) return undefined;
  return criticalArg(starts.length ? starts : ['.'], place);
}

/** Commands that, run on every file of a walk, destroy it. */
export const DESTRUCTIVE = new Set(['rm', 'unlink', 'shred', 'chmod', 'chown', 'chgrp', 'truncate', 'mv']);

/** Why `find` with these arguments deletes everything under a critical folder, or undefined. */
export function findDeletesEverything(args: string[], place: Place): string | undefined {
  const root = findWalksEverything(args, place);
  if (root === undefined) return undefined;
  if (args.includes('-delete')) return `find ${root} -delete deletes everything under ${root}`;
  for (let k = 0; k < args.length; k++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[k] ?? '')) continue;
    const name = posix.basename(args[k + 1] ?? '');
    if (DESTRUCTIVE.has(name)) return `find ${root} ${args[k]} ${name} deletes everything under ${root}`;
  }
  return undefined;
}

/** Patterns that match every process name. */
const ANY_PROCESS = /^(|\.|\.\*|\.\+|\^|\^\.\*\$?|\.\*\$|\^\.\+\$?)$/;
const PKILL_VALUE = new Set(['-u', '-U', '-g', '-G', '-P', '-s', '-t', '-F', '--signal', '--euid', '--uid', '--pgroup', '--group', '--parent', '--session', '--terminal', '--pidfile', '--ns', '--nslist']);
const SELECTORS = new Set(['-u', '-U', '-g', '-G', '-s', '-t', '--euid', '--uid', '--pgroup', '--group', '--session', '--terminal', '--user']);

/** Why this kill / pkill / killall signals every process (pid -1, a match-all pattern, a whole user), or undefined. */
export function killsEverything(name: string, args: string[]): string | undefined {
  if (name === 'killall5') return 'killall5 signals every process on the machine';
  if (name === 'kill') {
    const operands: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i] ?? '';
      if (a === '--') {
        operands.push(...args.slice(i + 1));
        break;
      }
      if (a === '-s' || a === '-n' || a === '--signal') i++;
      else if (!(i === 0 && a.startsWith('-') && a !== '-1')) operands.push(a);
    }
    // `kill -1` alone is a signal with no target to bash, but "all processes" to the reader: refused either way.
    if (operands.includes('-1') || (args.length === 1 && args[0] === '-1')) return `kill ${args.join(' ')} signals every process you can reach`;
    return undefined;
  }
  if (name !== 'pkill' && name !== 'killall') return undefined;
  const operands: string[] = [];
  let selector = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '-1') return `${name} ${args.join(' ')} signals every process you can reach`;
    if (SELECTORS.has(a) || /^--(user|uid|euid)=/.test(a)) selector = true;
    if (PKILL_VALUE.has(a) || a === '--user') i++;
    else if (!a.startsWith('-')) operands.push(a);
  }
  if (operands.some((p) => ANY_PROCESS.test(p)) || (operands.length === 0 && selector)) {
    return `${name} ${args.join(' ')} signals every process of the user (or all of them), this editor and agent included`;
  }
  return undefined;
}
