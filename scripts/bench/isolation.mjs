// Bench section 14, subagents in worktrees of their own (issue 27), beside the shared mode, on a clone of THIS
// repository (a clone: the bench never adds worktrees to the checkout it runs from) with one uncommitted and one
// untracked file, so the live tree is copied as it is for users; then on a generated 100k-file tree
// (isolation-large.mjs; opt-in, DELEGATE_BENCH_100K=1: its checkouts take from seconds to minutes on a busy disk):
//
//   child's first request   CLI: from the parent's first request to its child's first request, shared vs worktree
//                           (target: the worktree's ≤ 2× the shared mode's; the checkout runs meanwhile)
//   make a worktree         isolation/worktree.ts createWorktree (stamp, worktree add, copy, verify, snapshot), each
//                           phase timed; the shared mode makes nothing (0)
//   land N children         isolation/landing.ts landChildren of N kept children (one file each) into the live tree,
//                           without a check and with `true` as the check (a scratch worktree + the run)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from './cli.mjs';
import { loadTs, repeat } from './util.mjs';
import { benchLargeTree } from './isolation-large.mjs';

const { createWorktree, finishWorktree, removeWorktree } = loadTs('src/core/isolation/worktree.ts');
const { landChildren } = loadTs('src/core/isolation/landing.ts');
const { ToolEnv } = loadTs('src/core/secrets/tool-env.ts');

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const RUNS = 5;
const LAND_COUNTS = [1, 4];

async function timed(fn) {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

const childPlan = () => ({ parent: [{ tools: [{ name: 'task', input: { prompt: 'ISO-CHILD: answer at once.', description: 'iso child' } }] }, { text: 'Done.' }], children: { 'ISO-CHILD': [{ text: 'Nothing to do.' }] } });

export async function benchIsolation(report, server, scratch) {
  const root = mkdtempSync(join(tmpdir(), 'delegate-bench-iso-'));
  try {
    const clone = join(root, 'repo');
    execFileSync('git', ['clone', '-q', REPO, clone]);
    const files = execFileSync('git', ['ls-files'], { cwd: clone, encoding: 'utf8', maxBuffer: 64 << 20 }).split('\n').filter(Boolean).length;
    appendFileSync(join(clone, 'README.md'), '\nAn uncommitted line.\n');
    writeFileSync(join(clone, 'untracked.txt'), 'untracked\n');
    report.note(`a clone of this repository: ${files} tracked files, 1 uncommitted and 1 untracked file`);

    // The CLI, a parent and one child: what isolation adds before the child's first request.
    // (A 100k-file worktree's checkout and removal can take minutes on a loaded disk: no 30 s cap there.)
    const firstChild = async (cwd, extraArgs) => {
      const run = await runCli(server, scratch, childPlan(), { cwd, extraArgs: ['--permission-mode', 'bypassPermissions', ...extraArgs], timeoutMs: 300_000 });
      const parent = run.requests.find((r) => r.route === 'parent');
      const child = run.requests.find((r) => r.route === 'ISO-CHILD');
      return child.receivedAt - parent.receivedAt;
    };
    await firstChild(clone, []); // warm-up (the code cache)
    const shared = [];
    const isolated = [];
    for (let i = 0; i < RUNS; i++) {
      shared.push(await firstChild(clone, []));
      isolated.push(await firstChild(clone, ['--isolation', 'worktree']));
    }
    const s = report.row("child's first request after the parent's: shared", shared);
    report.row("child's first request after the parent's: worktree", isolated, { max: Math.round(2 * s.median) });

    const under = join(root, 'worktrees');
    const phases = {};
    const made = await repeat(RUNS, async (i) => {
      const { ms, value } = await timed(() => createWorktree(clone, under, `bench-${i}`, (phase, took) => (phases[phase] ??= []).push(took)));
      await removeWorktree(value.repo, value.dir);
      return ms;
    });
    report.row('make a worktree (stamp, add, copy, verify, snapshot)', made);
    for (const [phase, values] of Object.entries(phases)) report.row(`  ${phase}`, values);
    report.row('make a worktree: shared mode', 0);

    for (const n of LAND_COUNTS) {
      const kept = [];
      for (let i = 0; i < n; i++) {
        const wt = await createWorktree(clone, under, `land-${n}-${i}`);
        writeFileSync(join(wt.dir, `child-${i}.txt`), `child ${i}\n`);
        const k = await finishWorktree(wt, { branch: `bench/land-${n}-${i}`, patch: join(under, `land-${n}-${i}.patch`), message: 'bench' });
        kept.push({ agentId: `child-${i}`, snapshot: k.snapshot, commit: k.commit });
      }
      const land = await timed(() => landChildren(kept, { workdir: clone, scratch: under }));
      for (let i = 0; i < n; i++) rmSync(join(clone, `child-${i}.txt`), { force: true });
      const checked = await timed(() => landChildren(kept, { workdir: clone, scratch: under, check: { command: 'true', env: new ToolEnv() } }));
      for (let i = 0; i < n; i++) rmSync(join(clone, `child-${i}.txt`), { force: true });
      const ok = land.value.outcomes.every((o) => o.outcome === 'landed') && checked.value.check?.ok === true;
      report.row(`land ${n} child${n === 1 ? '' : 'ren'} (3-way, no check)${ok ? '' : ' FAILED'}`, land.ms);
      report.row(`land ${n} child${n === 1 ? '' : 'ren'} with a check (\`true\`)`, checked.ms);
    }
    // Opt-in: on this machine's shared disk the 100k tree's checkouts took 3 s to over 2 minutes each (docs/benchmarks.md).
    if (process.env.DELEGATE_BENCH_100K === '1') await benchLargeTree(report, firstChild);
    else report.note('the 100k-file tree: DELEGATE_BENCH_100K=1 adds it (a minute or more)');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
