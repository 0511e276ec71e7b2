/**
 * The few git questions the command watch asks (workspace-scan.ts), each one `git` process:
 *
 *   open      rev-parse: is the workspace in a work tree, its prefix there, the object format (sha1/sha256)
 *   files     ls-files -co --exclude-standard [-- dirs]   tracked + untracked files git does not ignore
 *   oids      ls-files -s                                  the index's blob of each tracked file
 *   dirty     status --porcelain -uno                      tracked files that differ from the index now
 *   blobs     cat-file --batch                             the bytes of index blobs (a clean file's before)
 *
 * Paths are the workspace's (`/`-separated, relative to it), never the repository root's.
 * `--no-optional-locks` everywhere: a look must not take the index lock another git (the user's) may want.
 *
 * These git processes run outside the sandbox, in a repository that is not ours to trust (a cloned folder's
 * .git/config, or one a sandboxed command wrote), and git runs commands its config names: `core.fsmonitor` on
 * every read of the index (ls-files and status included), a filter driver's `clean` / `process` when status
 * re-reads a file. So every call turns the fsmonitor off, and status turns off the drivers the repository's own
 * config defines (the user's global ones, git-lfs's, stay) and does not recurse into submodules.
 * The isolation module (core/isolation/) runs its git through the same `hardenedGit` and `repositoryFilterOff`.
 */
import { execFile, spawn } from 'node:child_process';
import { ToolEnv } from '../secrets/tool-env';
import { createHash } from '../crypto-when-used';

export interface GitWorkspace {
  /** What the workspace is inside the repository ("" at its root, else "sub/dir/"). */
  prefix: string;
  objectFormat: 'sha1' | 'sha256';
}

const MAX_BUFFER = 256 * 1024 * 1024;
/** Should a command still run (a git config we did not foresee), it gets no credential either. */
const GIT_ENV = new ToolEnv();
/** Before every subcommand: no index read runs the repository's fsmonitor hook (git < 2.36 runs `false` as the hook). */
const GIT_OPTIONS = ['--no-optional-locks', '-c', 'core.fsmonitor=false'];

function git(cwd: string, args: string[]): Promise<Buffer> {
  return hardenedGit(cwd, args);
}

/**
 * One git process with the fsmonitor off and no credential in its environment (`env`: more variables, e.g. an
 * author for a commit); rejects with git's stderr in the error's message.
 */
export function hardenedGit(cwd: string, args: string[], env: Record<string, string> = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile('git', [...GIT_OPTIONS, ...args], { cwd, encoding: 'buffer', maxBuffer: MAX_BUFFER, env: GIT_ENV.build({ GIT_OPTIONAL_LOCKS: '0', ...env }) }, (err, stdout, stderr) => {
      if (err) {
        const said = stderr.toString('utf8').trim().split('\n').at(-1);
        if (said) err.message = said;
        // What it printed all the same (`git merge-file` exits with the number of conflicts).
        reject(Object.assign(err, { stdout }));
      } else resolve(stdout);
    });
  });
}

/**
 * `-c` options turning off every filter driver the repository's own config defines (clean, smudge, process), for a
 * git that reads or writes file contents; undefined when one cannot be turned off (a name holding '=').
 */
export async function repositoryFilterOff(workdir: string): Promise<string[] | undefined> {
  const drivers = await repositoryFilters(workdir);
  if (drivers.some((name) => name.includes('='))) return undefined;
  return drivers.flatMap((name) => ['-c', `filter.${name}.clean=`, '-c', `filter.${name}.smudge=`, '-c', `filter.${name}.process=`, '-c', `filter.${name}.required=false`]);
}

const zsplit = (out: Buffer): string[] => out.toString('utf8').split('\0').filter((s) => s !== '');

/** The workspace's repository, or undefined when it is not in a git work tree (or git is missing). */
export async function openGitWorkspace(workdir: string): Promise<GitWorkspace | undefined> {
  try {
    const [inside = '', prefix = '', format = 'sha1'] = (await git(workdir, ['rev-parse', '--is-inside-work-tree', '--show-prefix', '--show-object-format'])).toString('utf8').split('\n');
    if (inside.trim() !== 'true') return undefined;
    return { prefix: prefix.trim(), objectFormat: format.trim() === 'sha256' ? 'sha256' : 'sha1' };
  } catch {
    return undefined;
  }
}

/** Tracked and not-ignored untracked files under `dirs` (all of the workspace when omitted). */
export async function listFiles(workdir: string, dirs?: string[]): Promise<string[]> {
  const spec = dirs ? ['--', ...dirs.map((d) => (d === '' ? '.' : d))] : [];
  return [...new Set(zsplit(await git(workdir, ['ls-files', '-z', '-c', '-o', '--exclude-standard', ...spec])))];
}

/** The index's blob id of each tracked file (stage 0; submodules and conflicted entries left out). */
export async function indexOids(workdir: string): Promise<Map<string, string>> {
  const oids = new Map<string, string>();
  for (const line of zsplit(await git(workdir, ['ls-files', '-z', '-s']))) {
    // "<mode> <oid> <stage>\t<path>"
    const tab = line.indexOf('\t');
    const [mode, oid, stage] = line.slice(0, tab).split(' ');
    if (mode === '160000' || stage !== '0' || !oid) continue;
    oids.set(line.slice(tab + 1), oid);
  }
  return oids;
}

/** Tracked files whose working copy differs from the index (git refreshes stat data in memory to tell). */
export async function dirtyFiles(workdir: string, repo: GitWorkspace): Promise<Set<string>> {
  const drivers = await repositoryFilters(workdir);
  // `-c key=value` splits at the first '=': a driver so named cannot be turned off, so status does not run; every
  // listed file then counts as dirty (its content is copied now rather than taken from the index later).
  if (drivers.some((name) => name.includes('='))) return new Set(await listFiles(workdir));
  const noFilters = drivers.flatMap((name) => ['-c', `filter.${name}.clean=`, '-c', `filter.${name}.process=`, '-c', `filter.${name}.required=false`]);
  const out = zsplit(await git(workdir, [...noFilters, 'status', '--porcelain=v1', '-z', '--untracked-files=no', '--ignore-submodules=all', '--', '.']));
  const dirty = new Set<string>();
  for (let i = 0; i < out.length; i++) {
    const entry = out[i] as string;
    const xy = entry.slice(0, 2);
    // A rename or copy is followed by its source path as a separate field.
    if (xy.includes('R') || xy.includes('C')) i++;
    const path = entry.slice(3);
    // porcelain paths are the repository root's.
    if (path.startsWith(repo.prefix)) dirty.add(path.slice(repo.prefix.length));
  }
  return dirty;
}

/**
 * The filter drivers the repository's own config defines (`filter.<name>.clean` in .git/config, a file it
 * includes, the worktree's config). Where git cannot say a setting's scope (before 2.26), every driver counts.
 */
async function repositoryFilters(workdir: string): Promise<string[]> {
  const query = (scoped: boolean): Promise<Buffer> => git(workdir, ['config', '-z', ...(scoped ? ['--show-scope'] : []), '--get-regexp', '^filter\\.']);
  // `-z`: "scope\0key\nvalue\0" per setting (without --show-scope, "key\nvalue\0"); exit 1 when there is none.
  const none = (err: unknown): Buffer | undefined => ((err as { code?: unknown }).code === 1 ? Buffer.alloc(0) : undefined);
  let scoped = true;
  let out = await query(true).catch(none);
  if (!out) {
    scoped = false;
    out = (await query(false).catch(none)) ?? Buffer.alloc(0);
  }
  const fields = zsplit(out);
  const names = new Set<string>();
  for (let i = 0; i < fields.length; i += scoped ? 2 : 1) {
    const scope = scoped ? fields[i] : 'local';
    const key = (scoped ? fields[i + 1] : fields[i])?.split('\n')[0] ?? '';
    const m = /^filter\.(.+)\.[^.]+$/.exec(key);
    if (m && scope !== 'global' && scope !== 'system') names.add(m[1] as string);
  }
  return [...names];
}

/** What git would name `bytes` as a blob: tells a touched but unchanged clean file without asking git. */
export function blobOid(bytes: Uint8Array, format: GitWorkspace['objectFormat']): string {
  return createHash(format).update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** The bytes of each blob, one `git cat-file --batch` for all of them; a missing one is left out. */
export function readBlobs(workdir: string, oids: string[]): Promise<Map<string, Buffer>> {
  const wanted = [...new Set(oids)];
  if (wanted.length === 0) return Promise.resolve(new Map());
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...GIT_OPTIONS, 'cat-file', '--batch'], { cwd: workdir, env: GIT_ENV.build(), stdio: ['pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => chunks.push(b));
    child.on('error', reject);
    child.on('close', () => {
      const out = Buffer.concat(chunks);
      const blobs = new Map<string, Buffer>();
      let at = 0;
      for (const oid of wanted) {
        const nl = out.indexOf(0x0a, at);
        if (nl < 0) break;
        const header = out.subarray(at, nl).toString('utf8').split(' ');
        at = nl + 1;
        // "<oid> missing" has no body.
        if (header[1] !== 'blob') continue;
        const size = Number(header[2]);
        blobs.set(oid, out.subarray(at, at + size));
        at += size + 1;
      }
      resolve(blobs);
    });
    child.stdin.end(wanted.join('\n') + '\n');
  });
}
