/**
 * The merge steward: isolated subagents' kept changes (worktree.ts: snapshot..commit) landed into the parent's tree,
 * in order, each with a 3-way merge per file (base: the snapshot's, ours: the tree's now, theirs: the child's):
 *
 *   check? ─▶ scratch worktree of the live tree ─▶ land all there ─▶ run the check ─▶ fails: bisect over the order
 *            (the first prefix that fails names the child), nothing lands in the user's tree
 *   land   ─▶ per child: every file merged in memory ─▶ a conflict in any: none of its files written (`conflict`:
 *            file, hunks, whose changes meet there) ─▶ else all written (`landed`)
 *
 * Revert of a landed child is the same merge with its sides swapped (commit → snapshot): exact by construction.
 * No index is touched: files are written in the work tree as an editor would.
 *
 *   resolve ─▶ seedConflicts: a conflicting child's files merged into a resolver's worktree (of the live tree), each
 *              conflict left as diff3 markers (parent / base / subagent) ─▶ the resolver edits them ─▶ it lands like
 *              any child, refused while a marker is left in what it changed
 */
import { spawn } from 'node:child_process';
import { lstat, mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { LandCheck, LandConflict, LandOutcome } from '../events';
import { hardenedGit } from '../changes/git-workspace';
import type { ToolEnv } from '../secrets/tool-env';
import { createWorktree, removeWorktree } from './worktree';

export interface LandingChild {
  agentId: string;
  /** The tree it started from (base + copied changes) and the commit holding its changes. */
  snapshot: string;
  commit: string;
  /** A resolver's changes: they land only when no conflict marker is left in them. */
  resolver?: boolean;
}

export interface LandOptions {
  /** The parent's folder (in the repository the children's commits are in). */
  workdir: string;
  /** Where scratch worktrees for the check go (the session's folder). */
  scratch: string;
  check?: { command: string; env: ToolEnv; timeoutMs?: number };
  /** Swap the sides: put back what each child changed (a landed child reverted). */
  revert?: boolean;
}

export interface LandReport {
  outcomes: LandOutcome[];
  check?: LandCheck;
}

type Content = Buffer | undefined;

async function show(repo: string, rev: string, path: string): Promise<Content> {
  return hardenedGit(repo, ['cat-file', 'blob', `${rev}:${path}`]).catch(() => undefined);
}

async function repoOf(workdir: string): Promise<string> {
  return (await hardenedGit(workdir, ['rev-parse', '--show-toplevel'])).toString('utf8').trim();
}

/** The merged bytes of one file, or its conflict's hunks. */
async function mergeFile(base: Content, ours: Content, theirs: Content, diff3 = false): Promise<{ merged: Content } | { hunks: LandConflict['hunks']; marked?: Buffer }> {
  const same = (a: Content, b: Content): boolean => (a === undefined ? b === undefined : b !== undefined && a.equals(b));
  if (same(ours, theirs)) return { merged: ours };
  if (same(ours, base)) return { merged: theirs };
  if (same(theirs, base)) return { merged: ours };
  // Both changed it: only two texts merge; a deletion against a change, or binary bytes, is a conflict as a whole.
  if (!ours || !theirs || [base, ours, theirs].some((c) => c?.includes(0))) return { hunks: [{ line: 1, lines: 0 }] };
  const dir = await mkdtemp(join(tmpdir(), 'delegate-merge-'));
  try {
    const files = ['ours', 'base', 'theirs'].map((n) => join(dir, n));
    await Promise.all([writeFile(files[0] as string, ours), writeFile(files[1] as string, base ?? Buffer.alloc(0)), writeFile(files[2] as string, theirs)]);
    const out = await hardenedGit(dir, ['merge-file', '-p', ...(diff3 ? ['--diff3'] : []), '-L', 'parent', '-L', 'base', '-L', 'subagent', ...files]).then(
      (stdout) => ({ stdout, conflicts: 0 }),
      (err: { code?: number; stdout?: Buffer }) => ({ stdout: err.stdout ?? Buffer.alloc(0), conflicts: typeof err.code === 'number' && err.code > 0 ? err.code : -1 }),
    );
    if (out.conflicts < 0) return { hunks: [{ line: 1, lines: 0 }] };
    if (out.conflicts === 0) return { merged: out.stdout };
    return { hunks: conflictHunks(out.stdout.toString('utf8')), marked: out.stdout };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Where merge-file's conflict markers are (1-based line of `<<<<<<<`, lines up to `>>>>>>>`). */
function conflictHunks(text: string): LandConflict['hunks'] {
  const hunks: LandConflict['hunks'] = [];
  const lines = text.split('\n');
  let start = -1;
  lines.forEach((l, i) => {
    if (l.startsWith('<<<<<<< ')) start = i;
    else if (l.startsWith('>>>>>>> ') && start >= 0) {
      hunks.push({ line: start + 1, lines: i - start + 1 });
      start = -1;
    }
  });
  return hunks;
}

/** The 1-based line of the first merge-file conflict marker in `text`, if any (a resolver's that is left: not landed). */
export function markerLine(text: Content): number | undefined {
  if (!text || text.includes(0)) return undefined;
  const i = text.toString('utf8').split('\n').findIndex((l) => /^(<<<<<<< parent|>>>>>>> subagent|\|\|\|\|\|\|\| base)$/.test(l));
  return i < 0 ? undefined : i + 1;
}

/** A conflicting child's files as a resolver starts from them: what merged cleanly, and what did not. */
export interface SeededConflicts {
  /** Text conflicts left in the file as diff3 markers. */
  marked: string[];
  /** Whole-file conflicts (a deletion against a change, binary bytes): the file holds the tree's side. */
  whole: string[];
}

/**
 * Writes `child`'s changes into the worktree at `top` (a resolver's, made from the live tree): each file merged three
 * ways as landing would, a text conflict written with diff3 markers (`<<<<<<< parent`, `||||||| base`, `=======`,
 * `>>>>>>> subagent`) for the resolver to settle; a whole-file conflict keeps the tree's side.
 */
export async function seedConflicts(top: string, repo: string, child: LandingChild): Promise<SeededConflicts> {
  const paths = (await hardenedGit(repo, ['diff', '--no-ext-diff', '--no-textconv', '--name-only', '-z', '--no-renames', child.snapshot, child.commit])).toString('utf8').split('\0').filter(Boolean);
  const seeded: SeededConflicts = { marked: [], whole: [] };
  for (const path of paths) {
    const abs = join(top, path);
    if ((await lstat(abs).catch(() => undefined))?.isSymbolicLink()) {
      seeded.whole.push(path);
      continue;
    }
    const [base, theirs, ours] = await Promise.all([show(repo, child.snapshot, path), show(repo, child.commit, path), readFile(abs).catch(() => undefined)]);
    const merged = await mergeFile(base, ours, theirs, true);
    const bytes = 'merged' in merged ? merged.merged : merged.marked;
    if ('hunks' in merged) (merged.marked ? seeded.marked : seeded.whole).push(path);
    if ('hunks' in merged && !merged.marked) continue;
    if (bytes === undefined) await rm(abs, { force: true });
    else {
      await mkdir(dirname(abs), { recursive: true });
      await writeFile(abs, bytes);
    }
  }
  return seeded;
}

/** Lands `children` in order into the tree at `top` (a repository's top folder); `touched`: who changed what so far. */
async function landInto(top: string, repo: string, children: readonly LandingChild[], revert: boolean): Promise<LandOutcome[]> {
  const touched = new Map<string, string[]>();
  const outcomes: LandOutcome[] = [];
  for (const child of children) {
    const [from, to] = revert ? [child.commit, child.snapshot] : [child.snapshot, child.commit];
    let paths: string[];
    try {
      paths = (await hardenedGit(repo, ['diff', '--no-ext-diff', '--no-textconv', '--name-only', '-z', '--no-renames', from, to])).toString('utf8').split('\0').filter(Boolean);
    } catch (err) {
      outcomes.push({ agentId: child.agentId, outcome: 'failed', files: [], reason: `its commits are gone (${(err as Error).message})` });
      continue;
    }
    const writes: { path: string; merged: Content }[] = [];
    const conflicts: LandConflict[] = [];
    for (const path of paths) {
      // A link in the tree is never written through (its target may be anywhere): it is the user's to settle.
      if ((await lstat(join(top, path)).catch(() => undefined))?.isSymbolicLink()) {
        conflicts.push({ path, hunks: [{ line: 1, lines: 0 }], with: ['a symbolic link in the tree'] });
        continue;
      }
      const [base, theirs, ours] = await Promise.all([show(repo, from, path), show(repo, to, path), readFile(join(top, path)).catch(() => undefined)]);
      // A resolver that left a conflict marker has not resolved it: its text must not reach the user's tree.
      const marker = child.resolver && !revert ? markerLine(theirs) : undefined;
      if (marker) {
        conflicts.push({ path, hunks: [{ line: marker, lines: 1 }], with: ['a conflict marker the resolver left'] });
        continue;
      }
      const merged = await mergeFile(base, ours, theirs);
      if ('hunks' in merged) conflicts.push({ path, hunks: merged.hunks, with: touched.get(path) ?? ['the parent\'s tree'] });
      else writes.push({ path, merged: merged.merged });
    }
    if (conflicts.length) {
      outcomes.push({ agentId: child.agentId, outcome: 'conflict', files: paths, conflicts });
      continue;
    }
    for (const { path, merged } of writes) {
      const abs = join(top, path);
      if (merged === undefined) await rm(abs, { force: true });
      else {
        await mkdir(dirname(abs), { recursive: true });
        await writeFile(abs, merged);
      }
      touched.set(path, [...(touched.get(path) ?? []), child.agentId]);
    }
    outcomes.push({ agentId: child.agentId, outcome: revert ? 'reverted' : 'landed', files: paths });
  }
  return outcomes;
}

/** Runs the check in `cwd`: passed or not, and its output's end. */
function runCheck(check: NonNullable<LandOptions['check']>, cwd: string): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    const proc = spawn('/bin/sh', ['-c', check.command], { cwd, env: check.env.build(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    const keep = (b: Buffer): void => void (output = (output + b.toString('utf8')).slice(-4000));
    proc.stdout.on('data', keep);
    proc.stderr.on('data', keep);
    const timer = setTimeout(() => {
      try {
        process.kill(-(proc.pid as number), 'SIGKILL');
      } catch {
        // already gone
      }
    }, check.timeoutMs ?? 600_000);
    proc.on('error', (err) => resolve({ ok: false, output: err.message }));
    proc.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, output: output.trim() });
    });
  });
}

/** The check on the parent's live tree with the first `n` children landed, in a scratch worktree removed after. */
async function checkPrefix(o: LandOptions & { check: NonNullable<LandOptions['check']> }, repo: string, children: readonly LandingChild[], n: number): Promise<{ ok: boolean; output: string; outcomes: LandOutcome[] }> {
  const wt = await createWorktree(o.workdir, o.scratch, `land-check-${process.pid}-${Date.now()}-${n}`);
  try {
    const outcomes = await landInto(wt.dir, repo, children.slice(0, n), false);
    const ran = await runCheck(o.check, wt.workdir);
    return { ...ran, outcomes };
  } finally {
    await removeWorktree(wt.repo, wt.dir);
  }
}

/** Bisection stops being cheap past this many children (each probe is a worktree and a run of the check). */
const MAX_BISECT = 8;

/** Lands `children` in order into the parent's tree (after the check passes on all of them together, when there is one). */
export async function landChildren(children: readonly LandingChild[], o: LandOptions): Promise<LandReport> {
  const repo = await repoOf(o.workdir);
  if (o.check && !o.revert) {
    const check = o.check;
    const all = await checkPrefix({ ...o, check }, repo, children, children.length);
    if (!all.ok) {
      // The smallest prefix that fails names the child that broke it (0: the parent's tree fails already).
      let brokenBy: string | undefined;
      if (children.length <= MAX_BISECT) {
        let lo = 0;
        let hi = children.length;
        while (lo < hi) {
          const mid = Math.floor((lo + hi) / 2);
          if ((await checkPrefix({ ...o, check }, repo, children, mid)).ok) lo = mid + 1;
          else hi = mid;
        }
        brokenBy = lo === 0 ? "the parent's tree" : children[lo - 1]?.agentId;
      }
      const outcomes = children.map((c): LandOutcome => ({ agentId: c.agentId, outcome: 'check_failed', files: all.outcomes.find((x) => x.agentId === c.agentId)?.files ?? [] }));
      return { outcomes, check: { command: check.command, ok: false, output: all.output, ...(brokenBy ? { brokenBy } : {}) } };
    }
    const outcomes = await landInto(await repoOf(o.workdir), repo, children, false);
    return { outcomes, check: { command: check.command, ok: true, output: all.output } };
  }
  return { outcomes: await landInto(repo, repo, children, o.revert === true) };
}
