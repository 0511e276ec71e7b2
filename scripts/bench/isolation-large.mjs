// Bench section 14's 100k-file tree (issue 27): a git repository of 100,000 small files made in a temp folder by
// `git fast-import` (4 commits of 25,000 files; ~3 s) and checked out once (`git reset --hard`, two workers), with an uncommitted
// and an untracked file. Measured beside the shared mode:
//
//   make a worktree         createWorktree's phases (status, `git worktree add`, copy, verify, snapshot) and its removal
//   checkout alternatives   `git worktree add` with checkout.workers=1 (git's default) and 2 (createWorktree's), and
//                           whether `cp --reflink=always` works on this filesystem (a copy-on-write clone of the tree)
//   child's first request   CLI: from the parent's first request to its child's, shared vs worktree (target ≤ 2×)
//
// The temp folder is removed at the end, whatever happens.
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTs } from './util.mjs';

const { createWorktree, removeWorktree } = loadTs('src/core/isolation/worktree.ts');

const FILES = 100_000;
const COMMITS = 4;
const RUNS = 3;

/** A fast-import stream of FILES small files in COMMITS commits on main. */
function* importStream() {
  const per = FILES / COMMITS;
  const when = Math.floor(Date.now() / 1000);
  for (let c = 0; c < COMMITS; c++) {
    yield `commit refs/heads/main\ncommitter Bench <bench@localhost> ${when} +0000\ndata 6\nbatch\n`;
    const lines = [];
    for (let i = c * per; i < (c + 1) * per; i++) {
      const body = `export const v${i} = ${i};\n`;
      lines.push(`M 100644 inline src/d${Math.floor(i / 1000)}/f${i}.ts\ndata ${Buffer.byteLength(body)}\n${body}\n`);
    }
    yield lines.join('');
  }
}

function fastImport(repo) {
  return new Promise((resolve, reject) => {
    const git = spawn('git', ['fast-import', '--quiet'], { cwd: repo, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    git.stderr.on('data', (d) => (err += d));
    git.on('error', reject);
    git.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import exited ${code}: ${err}`))));
    for (const chunk of importStream()) git.stdin.write(chunk);
    git.stdin.end();
  });
}

const ms = (t0) => performance.now() - t0;

/** `git worktree add` alone, with these options, then removed: ms. */
function rawAdd(repo, dir, options) {
  const t0 = performance.now();
  execFileSync('git', [...options, 'worktree', 'add', '-q', '--detach', dir, 'HEAD'], { cwd: repo });
  const took = ms(t0);
  execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: repo });
  return took;
}

/** Whether `cp --reflink=always` clones here (a copy-on-write filesystem: btrfs, XFS with reflink, APFS's `cp -c`). */
function reflinks(root) {
  const a = join(root, 'reflink-probe');
  writeFileSync(a, 'probe\n');
  try {
    execFileSync('cp', ['--reflink=always', a, `${a}.copy`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `firstChild(cwd, extraArgs)`: ms from the parent's first request to its child's (section 14's CLI run). */
export async function benchLargeTree(report, firstChild) {
  const root = mkdtempSync(join(tmpdir(), 'delegate-bench-100k-'));
  try {
    const repo = join(root, 'repo');
    execFileSync('git', ['init', '-q', '-b', 'main', repo]);
    let t0 = performance.now();
    await fastImport(repo);
    const imported = ms(t0);
    t0 = performance.now();
    execFileSync('git', ['-c', 'checkout.workers=2', 'reset', '-q', '--hard'], { cwd: repo });
    const checkedOut = ms(t0);
    appendFileSync(join(repo, 'src/d0/f0.ts'), '// an uncommitted line\n');
    writeFileSync(join(repo, 'untracked.ts'), 'export const untracked = 1;\n');
    const fs = execFileSync('df', ['--output=fstype', root], { encoding: 'utf8' }).trim().split('\n').at(-1);
    report.note(`a generated tree: ${FILES.toLocaleString('en')} files in ${COMMITS} commits (fast-import ${(imported / 1000).toFixed(1)} s, checkout ${(checkedOut / 1000).toFixed(1)} s), 1 uncommitted and 1 untracked file; filesystem ${fs}`);

    const under = join(root, 'worktrees');
    const phases = {};
    const made = [];
    const removed = [];
    for (let i = 0; i < RUNS; i++) {
      t0 = performance.now();
      const wt = await createWorktree(repo, under, `big-${i}`, (phase, took) => (phases[phase] ??= []).push(took));
      made.push(ms(t0));
      t0 = performance.now();
      await removeWorktree(wt.repo, wt.dir);
      removed.push(ms(t0));
    }
    report.row('100k: make a worktree (stamp, add, copy, verify, snapshot)', made);
    for (const [phase, values] of Object.entries(phases)) report.row(`  100k: ${phase}`, values);
    report.row('100k: remove a worktree (a child that changed nothing)', removed);
    report.row('100k: make a worktree: shared mode', 0);
    // Plain `git worktree add` (one process writes the files) against the two workers createWorktree uses, interleaved.
    const one = [];
    const two = [];
    for (let i = 0; i < 2; i++) {
      one.push(rawAdd(repo, join(root, `one-${i}`), ['-c', 'checkout.workers=1']));
      two.push(rawAdd(repo, join(root, `two-${i}`), ['-c', 'checkout.workers=2']));
    }
    report.row('100k: git worktree add, checkout.workers=1', one);
    report.row('100k: git worktree add, checkout.workers=2', two);
    report.note(`cp --reflink=always here: ${reflinks(root) ? 'works (a copy-on-write clone of the tree is possible)' : `refused (${fs} has no reflinks: a "copy-on-write" copy would be a full copy)`}`);

    const shared = [];
    const isolated = [];
    for (let i = 0; i < RUNS; i++) {
      shared.push(await firstChild(repo, []));
      isolated.push(await firstChild(repo, ['--isolation', 'worktree']));
    }
    const s = report.row("100k: child's first request after the parent's: shared", shared);
    report.row("100k: child's first request after the parent's: worktree", isolated, { max: Math.round(2 * s.median) });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
