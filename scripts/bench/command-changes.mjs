// Bench section 11, files changed by commands: what finding them costs each bash call on THIS repository
// (its dependencies installed: node_modules is in the tree, ignored by git), side by side in one run:
//
//   bash alone          createBashTool, a command that changes nothing (`exit 0`: not a look, so watched)
//   bash watched        the same tool through the session's ChangeTracker (stat pictures before and after)
//   added               watched − alone, per pair of calls run back to back (median and p95)
//
// Then the options the watch was chosen against: `git status` per scan, and a recursive fs.watch's setup
// (Node 20 on Linux walks the whole tree, node_modules included, one inotify watch per folder).
import { execFile } from 'node:child_process';
import { lstatSync, mkdtempSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { loadTs, repeat } from './util.mjs';

const { ChangeTracker } = loadTs('src/core/changes/change-tracker.ts');
const { BlobStore } = loadTs('src/core/changes/blob-store.ts');
const { createBashTool } = loadTs('src/core/tools/bash.ts');
const run = promisify(execFile);

// DELEGATE_BENCH_REPO: another checkout to measure (a worktree's node_modules is only a symlink).
const REPO = process.env.DELEGATE_BENCH_REPO ?? fileURLToPath(new URL('../..', import.meta.url));
const CALLS = 100;

const p95 = (values) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];

async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export async function benchCommandChanges(report) {
  const data = mkdtempSync(join(tmpdir(), 'delegate-bench-changes-'));
  try {
    const modules = lstatSync(join(REPO, 'node_modules'), { throwIfNoEntry: false });
    const tracked = (await run('git', ['ls-files'], { cwd: REPO, maxBuffer: 64 * 1024 * 1024 })).stdout.split('\n').filter(Boolean).length;
    report.note(`${REPO}: ${tracked} tracked files; node_modules ${modules ? (modules.isSymbolicLink() ? 'a symlink (a worktree): run in the main checkout for the real tree' : 'a real folder (ignored by git)') : 'absent'}.`);
    const opts = { defaultTimeoutMs: 10_000, maxTimeoutMs: 10_000, maxOutputChars: 10_000 };
    const plain = createBashTool(REPO, opts);
    const tracker = new ChangeTracker({ workdir: REPO, blobs: new BlobStore(join(data, 's', 'changes')) });
    // The bash call inside the watch, timed on its own: what the watch adds is the call's time less it.
    let inner = 0;
    let innerCpu = 0;
    const cpuMs = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
    const bash = createBashTool(REPO, opts);
    const watched = tracker.wrapCommands({
      ...bash,
      execute: async (input, ctx) => {
        const t0 = performance.now();
        const c0 = cpuMs();
        try {
          return await bash.execute(input, ctx);
        } finally {
          inner = performance.now() - t0;
          innerCpu = cpuMs() - c0;
        }
      },
    });
    let n = 0;
    const call = (tool) => tool.execute({ command: 'exit 0' }, { signal: new AbortController().signal, agentId: 'bench', toolUseId: `tu_${++n}` });
    report.row('first watched call (the picture, once a session)', await timed(() => call(watched)));
    const alone = [];
    const withWatch = [];
    const added = [];
    const addedCpu = [];
    for (let i = 0; i < CALLS; i++) {
      // Alternating, so load on the machine lands on both sides alike.
      alone.push(await timed(() => call(plain)));
      const c0 = cpuMs();
      const total = await timed(() => call(watched));
      withWatch.push(total);
      added.push(total - inner);
      addedCpu.push(cpuMs() - c0 - innerCpu);
    }
    report.row('bash call, no detection', alone);
    report.note(`  p95 ${p95(alone).toFixed(1)} ms`);
    report.row('bash call, changes detected', withWatch);
    report.note(`  p95 ${p95(withWatch).toFixed(1)} ms`);
    report.row('added per bash call: scans (median)', added, { max: 20 });
    report.row('added per bash call: scans (p95)', p95(added), { max: 20 });
    // CPU this process spent on it: what the scans cost without the machine's other work (wall p95 is load).
    report.row('  its CPU time (median)', addedCpu);
    report.note(`  its CPU time p95 ${p95(addedCpu).toFixed(1)} ms`);

    report.note('The options measured on the same tree (per bash call a watch needs a look before and after):');
    const status = await repeat(20, () => timed(() => run('git', ['--no-optional-locks', 'status', '--porcelain=v1', '-z', '--untracked-files=all'], { cwd: REPO, maxBuffer: 64 * 1024 * 1024 })));
    report.row('  git status --porcelain -uall (one look)', status);
    const setup = await timed(async () => {
      const w = watch(REPO, { recursive: true }, () => undefined);
      w.close();
    });
    report.row('  fs.watch recursive: setup (walks node_modules)', setup);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}
