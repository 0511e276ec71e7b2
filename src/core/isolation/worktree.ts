/**
 * A child's own git worktree: made from the parent's LIVE tree, verified before the child runs, and afterwards
 * either kept as a branch + patch or removed. The one module that makes, checks and removes worktrees:
 *
 *   create  rev-parse (repo, prefix, HEAD) ─▶ refuse: no git, not a repo, no commit, submodules, a filter we can't stop
 *           status (the parent's uncommitted + untracked files) ─▶ read each once, hash them (the stamp)
 *           worktree add --detach <session>/worktrees/<agent> HEAD ─▶ write the read bytes, delete what is deleted
 *   verify  the worktree's HEAD is the base commit and its changed files hash to the stamp again
 *           ─▶ commit them there (the snapshot: what the child starts from, base + live changes)
 *   finish  add -A, commit ─▶ nothing differs from the snapshot: worktree removed, nothing kept
 *                           ─▶ else branch delegate/<session>/<agent> + <agent>.patch (snapshot..commit), worktree removed
 *   prune   worktrees of sessions no process holds (a kill -9): their changes committed to a `-salvaged` branch, removed
 *
 * Fails closed: any failure throws IsolationError with a one-line reason, and what was half made is removed.
 * Every git runs hardened (changes/git-workspace.ts): fsmonitor off, no hooks (core.hooksPath to an empty path), the
 * repository's own filter drivers off, no credential in its environment, a fixed author for the commits.
 */
import { createHash } from '../crypto-when-used';
import { lstat, mkdir, readFile, readlink, rm, symlink, writeFile, chmod, readdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { hardenedGit, repositoryFilterOff } from '../changes/git-workspace';

export class IsolationError extends Error {
  override name = 'IsolationError';
}

/** What the child's tree was made from: the parent's HEAD and a hash of the uncommitted/untracked files copied on it. */
export interface BaseStamp {
  commit: string;
  /** sha256 over the copied changes (path, mode, content or deletion), sorted by path. */
  changes: string;
  /** How many files were copied or deleted. */
  files: number;
}

export interface ChildWorktree {
  /** The worktree's top folder (under the session's folder). */
  dir: string;
  /** The child's WORKDIR: the worktree's folder at the parent's place in the repository. */
  workdir: string;
  /** The parent's repository top folder. */
  repo: string;
  base: BaseStamp;
  /** The commit on the base holding the copied changes: what the child's changes are measured from. */
  snapshot: string;
}

export interface KeptChanges {
  branch: string;
  commit: string;
  snapshot: string;
  patch: string;
  /** Paths (the repository's) the child added (A), modified (M) or deleted (D). */
  files: { path: string; status: string }[];
}

/** A commit made here has this author: no user config is read for it. */
const AUTHOR = { GIT_AUTHOR_NAME: 'Delegate', GIT_AUTHOR_EMAIL: 'delegate@localhost', GIT_COMMITTER_NAME: 'Delegate', GIT_COMMITTER_EMAIL: 'delegate@localhost' };
/** No hook of the repository runs (post-checkout on `worktree add`, pre-commit…), nor signing, nor a GC. */
const NO_HOOKS = ['-c', 'core.hooksPath=/dev/null', '-c', 'commit.gpgSign=false', '-c', 'gc.auto=0', '-c', 'core.autocrlf=false'];
/**
 * `worktree add` writes the files with two workers (git ≥ 2.32; older ones ignore it; below 100 files git writes them
 * itself): a 100k-file checkout took 3–7 s against 25–55 s in one process on this bench's busy disk; no
 * difference on this repository's 700 files (docs/benchmarks.md section 14).
 */
const CHECKOUT = ['-c', 'checkout.workers=2'];

interface Change {
  path: string;
  /** Undefined: deleted in the parent's tree. */
  bytes?: Buffer;
  mode?: number;
  link?: string;
}

const z = (out: Buffer): string[] => out.toString('utf8').split('\0').filter((s) => s !== '');

/** The filter-off options per repository folder, asked once: every git spawn costs 20–80 ms on a loaded machine. */
const filtersOf = new Map<string, Promise<string[] | undefined>>();

async function gitOf(repo: string): Promise<(args: string[], env?: Record<string, string>) => Promise<Buffer>> {
  let asked = filtersOf.get(repo);
  if (!asked) filtersOf.set(repo, (asked = repositoryFilterOff(repo)));
  const filters = await asked;
  if (!filters) throw new IsolationError('the repository defines a filter driver whose name cannot be turned off');
  return (args, env) => hardenedGit(repo, [...NO_HOOKS, ...filters, ...args], env ? { ...AUTHOR, ...env } : AUTHOR);
}

/** The repository holding `workdir`: top folder, the workdir's prefix in it, HEAD. Throws IsolationError saying why not. */
async function openRepo(workdir: string): Promise<{ repo: string; prefix: string; head: string }> {
  // One git for the usual case; the questions one by one only to say what is wrong.
  const all = await hardenedGit(workdir, ['rev-parse', '--show-toplevel', '--show-prefix', '--verify', 'HEAD^{commit}']).catch(() => undefined);
  const lines = all?.toString('utf8').split('\n');
  if (lines && lines.length >= 3 && /^[0-9a-f]{40,64}$/.test(lines[2] ?? '')) return { repo: lines[0] ?? '', prefix: (lines[1] ?? '').trim(), head: lines[2] ?? '' };
  let out: string;
  try {
    out = (await hardenedGit(workdir, ['rev-parse', '--show-toplevel', '--show-prefix'])).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new IsolationError('git is not installed (no `git` on PATH)');
    throw new IsolationError(`${workdir} is not in a git repository`);
  }
  const [repo = '', prefix = ''] = out.split('\n');
  let head: string;
  try {
    head = (await hardenedGit(repo, ['rev-parse', '--verify', '-q', 'HEAD^{commit}'])).toString('utf8').trim();
  } catch {
    throw new IsolationError('the repository has no commit yet');
  }
  return { repo, prefix: prefix.trim(), head };
}

/** The parent's uncommitted and untracked (not ignored) files, read once: their bytes are both hashed and copied. */
async function liveChanges(repo: string, git: (args: string[]) => Promise<Buffer>): Promise<Change[]> {
  const listed = z(await git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=none', '--no-renames']));
  const paths = [...new Set(listed.map((entry) => entry.slice(3)))].sort();
  const changes: Change[] = [];
  for (const path of paths) {
    const abs = join(repo, path);
    const st = await lstat(abs).catch(() => undefined);
    if (!st) changes.push({ path });
    else if (st.isSymbolicLink()) changes.push({ path, link: await readlink(abs), mode: 0o120000 });
    else if (st.isFile()) changes.push({ path, bytes: await readFile(abs), mode: st.mode & 0o111 ? 0o755 : 0o644 });
    else throw new IsolationError(`${path} changed in a way a worktree cannot copy (not a file or a link: a submodule?)`);
  }
  return changes;
}

function stampOf(changes: readonly Change[]): string {
  const hash = createHash('sha256');
  for (const c of changes) {
    hash.update(`${c.path}\0`);
    if (c.link !== undefined) hash.update(`L${c.link}\0`);
    else if (c.bytes) hash.update(`F${c.mode}\0`).update(createHash('sha256').update(c.bytes).digest('hex'));
    else hash.update('D\0');
  }
  return hash.digest('hex');
}

/** The same files read back from the worktree, for the stamp. */
async function readBack(dir: string, changes: readonly Change[]): Promise<Change[]> {
  const back: Change[] = [];
  for (const { path } of changes) {
    const abs = join(dir, path);
    const st = await lstat(abs).catch(() => undefined);
    if (!st) back.push({ path });
    else if (st.isSymbolicLink()) back.push({ path, link: await readlink(abs), mode: 0o120000 });
    else back.push({ path, bytes: await readFile(abs), mode: st.mode & 0o111 ? 0o755 : 0o644 });
  }
  return back;
}

/**
 * What is known before any checkout: the cheap refusals passed (git missing, not a repository, no commit, submodules,
 * a filter that cannot be turned off, the session's folder inside the repository) and where the worktree will be, so
 * the child's WORKDIR is known while its checkout (makeWorktree) still runs.
 */
export interface WorktreePlan {
  repo: string;
  /** The workdir's folder in the repository ("" at its top, else "sub/dir"). */
  prefix: string;
  /** The parent's HEAD when planned: the worktree's base. */
  head: string;
  /** The worktree's top folder (under the session's folder), and the child's WORKDIR in it. */
  dir: string;
  workdir: string;
}

/** Plans `name`'s worktree under `under` for `workdir`'s repository; throws IsolationError saying why there can be none. */
export async function planWorktree(workdir: string, under: string, name: string): Promise<WorktreePlan> {
  // The filter drivers asked beside rev-parse (the same repository's config): each git spawn is 3–10 ms more before
  // the child's first request goes out.
  const filters = filtersOf.get(workdir) ?? repositoryFilterOff(workdir);
  filtersOf.set(workdir, filters);
  const { repo, prefix, head } = await openRepo(workdir);
  if (!filtersOf.has(repo)) filtersOf.set(repo, filters);
  await gitOf(repo); // a filter driver that cannot be turned off refuses here
  // A worktree does not check submodules out: the child would see empty folders where its code is.
  if (await lstat(join(repo, '.gitmodules')).catch(() => undefined)) throw new IsolationError("the repository has submodules (.gitmodules), which a child's worktree does not check out");
  const dir = join(under, name);
  if (isInside(repo, dir)) throw new IsolationError(`the session's folder ${under} is inside the repository: a worktree there would be part of the workspace`);
  return { repo, prefix, head, dir, workdir: prefix ? join(dir, prefix) : dir };
}

/** Each step of makeWorktree and its milliseconds, for the bench (docs/benchmarks.md section 14). */
export type PhaseTimer = (phase: string, ms: number) => void;

/** Makes `name`'s worktree under `under` from `workdir`'s live tree, verified and snapshotted. Throws IsolationError. */
export async function createWorktree(workdir: string, under: string, name: string, phases?: PhaseTimer): Promise<ChildWorktree> {
  const t0 = performance.now();
  const plan = await planWorktree(workdir, under, name);
  phases?.('plan (rev-parse, filters, .gitmodules)', performance.now() - t0);
  return makeWorktree(plan, phases);
}

/** The planned worktree made: the live changes read and stamped, checked out, copied, verified, snapshotted. */
export async function makeWorktree(plan: WorktreePlan, phases?: PhaseTimer): Promise<ChildWorktree> {
  const { repo, head, dir } = plan;
  const git = await gitOf(repo);
  let t = performance.now();
  const lap = (phase: string): void => {
    const now = performance.now();
    phases?.(phase, now - t);
    t = now;
  };
  const changes = await liveChanges(repo, git);
  const base: BaseStamp = { commit: head, changes: stampOf(changes), files: changes.length };
  lap(`status and read the live changes (${changes.length} files)`);
  await mkdir(dirname(dir), { recursive: true });
  try {
    await git([...CHECKOUT, 'worktree', 'add', '--detach', '--quiet', dir, head]);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw new IsolationError(`git worktree add failed: ${(err as Error).message}`);
  }
  lap('git worktree add (the checkout)');
  try {
    for (const c of changes) await writeChange(dir, c);
    lap('write the live changes');
    const wt: ChildWorktree = { dir, workdir: plan.workdir, repo, base, snapshot: '' };
    return { ...wt, snapshot: await verifyAndSnapshot(wt, changes, lap) };
  } catch (err) {
    await removeWorktree(repo, dir);
    throw err instanceof IsolationError ? err : new IsolationError(`the worktree could not be made: ${(err as Error).message}`);
  }
}

/**
 * A resumed child's worktree again, at the commit its changes were kept in: it goes on from its own work, and what it
 * keeps next is measured from the same snapshot (its whole work, the earlier run's included).
 */
export async function reopenWorktree(plan: WorktreePlan, kept: Pick<ChildWorktree, 'base' | 'snapshot'> & { commit: string }): Promise<ChildWorktree> {
  const { repo, dir } = plan;
  const git = await gitOf(repo);
  await mkdir(dirname(dir), { recursive: true });
  try {
    await git([...CHECKOUT, 'worktree', 'add', '--detach', '--quiet', dir, kept.commit]);
    const head = (await (await gitOf(dir))(['rev-parse', 'HEAD'])).toString('utf8').trim();
    if (head !== kept.commit) throw new IsolationError(`the worktree is on ${head.slice(0, 12)}, not the kept ${kept.commit.slice(0, 12)}`);
  } catch (err) {
    await removeWorktree(repo, dir);
    throw err instanceof IsolationError ? err : new IsolationError(`its kept worktree could not be made again: ${(err as Error).message}`);
  }
  return { dir, workdir: plan.workdir, repo, base: kept.base, snapshot: kept.snapshot };
}

async function writeChange(dir: string, c: Change): Promise<void> {
  const abs = join(dir, c.path);
  await rm(abs, { recursive: true, force: true });
  if (!c.bytes && c.link === undefined) return;
  await mkdir(dirname(abs), { recursive: true });
  if (c.link !== undefined) return symlink(c.link, abs);
  await writeFile(abs, c.bytes as Buffer);
  await chmod(abs, c.mode ?? 0o644);
}

/** The worktree is on the base commit and holds exactly the stamped changes; then they are committed as the snapshot. */
async function verifyAndSnapshot(wt: ChildWorktree, changes: readonly Change[], lap: (phase: string) => void): Promise<string> {
  const git = await gitOf(wt.dir);
  const head = (await git(['rev-parse', 'HEAD'])).toString('utf8').trim();
  if (head !== wt.base.commit) throw new IsolationError(`the worktree is on ${head.slice(0, 12)}, not the parent's ${wt.base.commit.slice(0, 12)}`);
  const again = stampOf(await readBack(wt.dir, changes));
  if (again !== wt.base.changes) throw new IsolationError("the worktree's copy of the uncommitted changes does not match the parent's (a file changed while it was copied?)");
  lap('verify (HEAD, the stamp read back)');
  // A clean parent: the base commit is the snapshot (three git spawns fewer).
  if (changes.length === 0) return head;
  await git(['add', '-A', '--', ...changes.map((c) => c.path)]);
  await git(['commit', '--no-verify', '--allow-empty', '-q', '-m', `delegate: the parent's tree (${wt.base.files} uncommitted files on ${wt.base.commit.slice(0, 12)})`]);
  const snapshot = (await git(['rev-parse', 'HEAD'])).toString('utf8').trim();
  lap('snapshot commit (add, commit, rev-parse)');
  return snapshot;
}

/**
 * The child's changes, after it ran: none → the worktree is removed, undefined; some → committed on the snapshot,
 * kept as `branch` and as a patch file, and the worktree removed (the branch holds them).
 */
export async function finishWorktree(wt: ChildWorktree, keep: { branch: string; patch: string; message: string }): Promise<KeptChanges | undefined> {
  const git = await gitOf(wt.dir);
  await git(['add', '-A']);
  const status = z(await git(['diff', '--no-ext-diff', '--no-textconv', '--cached', '-z', '--no-renames', '--name-status', wt.snapshot]));
  if (status.length === 0) {
    await removeWorktree(wt.repo, wt.dir);
    return undefined;
  }
  // A resumed child that added nothing to what it kept before: its commit is that one.
  const added = z(await git(['diff', '--no-ext-diff', '--no-textconv', '--cached', '-z', '--name-only', 'HEAD'])).length > 0;
  if (added) await git(['commit', '--no-verify', '-q', '-m', keep.message]);
  const commit = (await git(['rev-parse', 'HEAD'])).toString('utf8').trim();
  const branch = await freeBranch(git, keep.branch);
  await git(['branch', branch, commit]);
  await writeFile(keep.patch, await git(['diff', '--no-ext-diff', '--no-textconv', '--binary', '--no-renames', wt.snapshot, commit]));
  const files: KeptChanges['files'] = [];
  for (let i = 0; i + 1 < status.length; i += 2) files.push({ status: (status[i] as string).slice(0, 1), path: status[i + 1] as string });
  await removeWorktree(wt.repo, wt.dir);
  return { branch, commit, snapshot: wt.snapshot, patch: keep.patch, files };
}

/** `name`, or `name-2`, `name-3`… when a branch of that name exists (a resumed child's second run). */
async function freeBranch(git: (args: string[]) => Promise<Buffer>, name: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${name}-${n}`;
    const exists = await git(['rev-parse', '--verify', '-q', `refs/heads/${candidate}`]).then(
      () => true,
      () => false,
    );
    if (!exists) return candidate;
  }
}

/** Removes a worktree's folder and git's record of it; never throws (the folder is gone either way). */
export async function removeWorktree(repo: string, dir: string): Promise<void> {
  await hardenedGit(repo, [...NO_HOOKS, 'worktree', 'remove', '--force', '--force', dir]).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
  await hardenedGit(repo, ['worktree', 'prune']).catch(() => undefined);
}

export interface PruneReport {
  removed: string[];
  /** Branches made of a dead child's uncommitted work before its worktree was removed. */
  salvaged: string[];
}

/**
 * Removes the worktrees under `root` (`<root>/<session>/worktrees/<agent>`) of sessions `isLive` says no process
 * holds: the leftovers of a kill -9. A kept branch is never touched; a dead child's changes become a
 * `<branchOf(session, agent)>-salvaged` branch first. Nothing happens outside a git repository.
 */
export async function pruneWorktrees(workdir: string, root: string, isLive: (sessionId: string) => boolean, branchOf: (sessionId: string, agentId: string) => string): Promise<PruneReport> {
  const report: PruneReport = { removed: [], salvaged: [] };
  let repo: string;
  try {
    repo = (await openRepo(workdir)).repo;
  } catch {
    return report;
  }
  // The filter drivers asked now (in the background at the session's start): a child's planWorktree is then one git
  // spawn, not two.
  const filters = filtersOf.get(repo) ?? repositoryFilterOff(repo);
  filtersOf.set(repo, filters);
  if (!filtersOf.has(workdir)) filtersOf.set(workdir, filters);
  const listed = z(await hardenedGit(repo, ['worktree', 'list', '--porcelain', '-z']).catch(() => Buffer.alloc(0)))
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice('worktree '.length));
  const ours = new Set<string>();
  for (const dir of listed) {
    const where = relative(root, dir).split(sep);
    if (where.length !== 3 || where[1] !== 'worktrees' || where[0]?.startsWith('..')) continue;
    const [sessionId = '', , agentId = ''] = where;
    ours.add(dir);
    if (isLive(sessionId)) continue;
    const salvaged = await salvage(dir, `${branchOf(sessionId, agentId)}-salvaged`).catch(() => undefined);
    if (salvaged) report.salvaged.push(salvaged);
    await removeWorktree(repo, dir);
    report.removed.push(dir);
  }
  // A folder git never made a worktree of (killed during `worktree add`) is removed too; another repository's
  // worktree (it has its `.git` file) is left to a session started there, which can salvage it.
  for (const session of await readdir(root).catch(() => [] as string[])) {
    if (isLive(session)) continue;
    for (const agent of await readdir(join(root, session, 'worktrees')).catch(() => [] as string[])) {
      const dir = join(root, session, 'worktrees', agent);
      if (ours.has(dir) || agent.endsWith('.patch') || (await lstat(join(dir, '.git')).catch(() => undefined))) continue;
      await rm(dir, { recursive: true, force: true });
      report.removed.push(dir);
    }
  }
  return report;
}

/** A dead child's uncommitted work as a branch (its last commit is the snapshot), or undefined when it has none. */
async function salvage(dir: string, branch: string): Promise<string | undefined> {
  const git = await gitOf(dir);
  await git(['add', '-A']);
  if (z(await git(['diff', '--no-ext-diff', '--no-textconv', '--cached', '--name-only', '-z', 'HEAD'])).length === 0) return undefined;
  await git(['commit', '--no-verify', '-q', '-m', 'delegate: salvaged from a child whose session died']);
  const name = await freeBranch(git, branch);
  await git(['branch', name, 'HEAD']);
  return name;
}

function isInside(parent: string, path: string): boolean {
  const rel = relative(parent, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..');
}

/** Drops a kept child's changes: its branch deleted, its patch removed. */
export async function discardKept(workdir: string, branch: string, patch: string | undefined): Promise<void> {
  const { repo } = await openRepo(workdir);
  await hardenedGit(repo, [...NO_HOOKS, 'branch', '-D', '--quiet', branch]).catch(() => undefined);
  if (patch) await rm(patch, { force: true });
}
