// Bench section 12, sandboxed bash calls: what one `bash` call costs inside bubblewrap, in a fresh git repository
// (the worst case for the protected paths: .claude, .vscode, .mcp.json and git's commondir do not exist, so each
// call holds their places) and in this repository.
//
//   sandboxed                createBashTool + Sandbox (mode on), `exit 0`, calls back to back
//   without protected paths  the same with the protection plan left empty (the sandbox before issue 24's last gap),
//                            alternating with the row above so load lands on both alike
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTs } from './util.mjs';

const { createBashTool } = loadTs('src/core/tools/bash.ts');
const { Sandbox } = loadTs('src/core/sandbox/sandbox.ts');
const { probeBubblewrap } = loadTs('src/core/sandbox/probe.ts');

const REPO = process.env.DELEGATE_BENCH_REPO ?? fileURLToPath(new URL('../..', import.meta.url));
const CALLS = 60;

const p95 = (values) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];

/** Wall time, and this process's CPU time (the placeholders and the plan are ours; bwrap's work is its own). */
async function timed(fn) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const c = process.cpuUsage(c0);
  return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
}

export async function benchSandboxCalls(report) {
  const probe = await probeBubblewrap();
  if (!probe.ok) return report.note(`skipped: ${probe.reason}`);
  const fresh = mkdtempSync(join(tmpdir(), 'delegate-bench-sbx-'));
  const sandboxes = [];
  try {
    execFileSync('git', ['init', '-q', fresh]);
    const opts = { defaultTimeoutMs: 10_000, maxTimeoutMs: 10_000, maxOutputChars: 10_000 };
    for (const [name, dir] of [['a fresh git repository', fresh], ['this repository', REPO]]) {
      const sandbox = new Sandbox({ mode: 'on', allowNetwork: false });
      // An empty plan: what a call cost before the protected paths (a port the tests use too).
      const bare = new Sandbox({ mode: 'on', allowNetwork: false }, { protect: () => ({ pins: [], readOnly: [], placeholders: [] }) });
      sandboxes.push(sandbox, bare);
      const held = createBashTool(dir, { ...opts, launcher: sandbox });
      const plain = createBashTool(dir, { ...opts, launcher: bare });
      let n = 0;
      const call = (tool) => tool.execute({ command: 'exit 0' }, { signal: new AbortController().signal, agentId: 'bench', toolUseId: `tu_${++n}` });
      await call(held);
      await call(plain);
      const withPaths = [];
      const without = [];
      for (let i = 0; i < CALLS; i++) {
        without.push(await timed(() => call(plain)));
        withPaths.push(await timed(() => call(held)));
      }
      const wall = (list) => list.map((t) => t.wall);
      report.note(`${name} (${dir}):`);
      report.row('  sandboxed bash call, protected paths held', wall(withPaths));
      report.note(`    p95 ${p95(wall(withPaths)).toFixed(1)} ms`);
      report.row('  sandboxed bash call, without them', wall(without));
      report.note(`    p95 ${p95(wall(without)).toFixed(1)} ms`);
      report.row('  added per call (pairs, median)', withPaths.map((t, i) => t.wall - without[i].wall), { max: 5 });
      // The main thread's share: planning, placeholders made and removed, the look at other sandboxes (synchronous).
      report.row('  added CPU of this process per call (pairs, median)', withPaths.map((t, i) => t.cpu - without[i].cpu), { max: 2 });
    }
  } finally {
    for (const s of sandboxes) s.removeTempFolder();
    rmSync(fresh, { recursive: true, force: true });
  }
}
