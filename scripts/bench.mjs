// `npm run bench` (= build, then this): the harness's speed and memory figures, each printed beside its
// target. A benchmark, not a test: it exits 0 when every scenario ran (targets missed or not), 1 when a
// scenario crashed. Everything is measured side by side in one run, repeated, as median [min–max].
//
//   1. harness time per turn       core in-process: scripted model; real SDK → local server (0 and 50 ms)
//   2. CLI                         first request after spawn, wall time, peak RSS (1 and 3 subagents)
//   3. parallel subagents          3 children vs the slowest alone (core and CLI)
//   4. parent context growth       20 tool calls inline vs the same calls in one subagent
//   5. the panel                   5,000-call snapshot, event-to-DOM under a 1,000-event burst (headless Chromium)
//   6. extension activation        inside the real VS Code (code-server's, installed into .tools/), and the
//                                  Language Model API path's harness time per turn (a test-only model provider)
//   7. sessions that last          reopen a 5,000-call session, stop one subagent, a 200-turn child compacting
//   8. what the repository brings  a 158-file agent collection: load time, what it adds to each request
//   9. prompt caching              billed input against the floor (30 turns; a parent and 4 children), a
//                                  20-turn read loop against uncached; the fixed prefix per tool
//  10. subagent reports checked    a corpus of child runs: invented claims flagged, truthful ones flagged
//  11. files changed by commands   what finding them adds to each bash call on this repository (median, p95)
//  12. sandboxed bash calls        what holding the protected paths read-only adds to each call
//  13. cost per turn as it grows   billed input and wall time per turn at 20, 100 and 200 turns, compaction included
//  14. worktrees (issue 27)        a child's first request shared vs isolated, making a worktree, landing N children
//
// The model is the project's local Messages-API server (test/fixtures), on 127.0.0.1 in a child process
// (scripts/bench/server-process.mjs). Details and the latest figures: docs/benchmarks.md.
// `node scripts/bench.mjs 2 4` runs only sections 2 and 4.
import { existsSync, statSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchCli } from './bench/cli.mjs';
import { benchActivation, benchPanel } from './bench/editor.mjs';
import { benchGrowth } from './bench/growth.mjs';
import { benchParallel } from './bench/parallel.mjs';
import { startServerProcess } from './bench/server-client.mjs';
import { makeScratch, Report } from './bench/util.mjs';

const bundle = fileURLToPath(new URL('../dist/cli/main.cjs', import.meta.url));
if (!existsSync(bundle)) {
  console.error('dist/cli/main.cjs is missing: run `npm run build` first (or `npm run bench`, which builds)');
  process.exit(1);
}

const started = performance.now();
const builtAt = () => statSync(bundle).mtime;
const bundleTime = builtAt();
const report = new Report();
report.write(`Delegate benchmark — ${new Date().toISOString()}`);
report.write(`node ${process.version}, ${process.platform} ${process.arch}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'})`);
report.write(`CLI bundle: dist/cli/main.cjs, ${statSync(bundle).size} bytes, built ${bundleTime.toISOString()}`);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
report.write(`load average ${load()} (other work on the machine inflates wall times: see the CPU and "waiting" rows)`);
report.write('Figures: median [min–max, n runs]; targets apply to the median.');

// Loading the core through tsx takes a second or so: import it after the header is out.
const { benchHarness } = await import('./bench/core.mjs');

const scratch = makeScratch();
const server = await startServerProcess();
const sections = [
  ['1. Harness time per turn', benchHarness],
  ['2. CLI: time to first request, wall time, peak RSS', benchCli],
  ['3. Parallel subagents', benchParallel],
  ['4. Parent context growth per delegated task', benchGrowth],
  ['5. The panel (headless Chromium)', benchPanel],
  ['6. Extension activation and the Language Model API path (real VS Code)', benchActivation],
  ['7. Sessions that last', (report, srv, scr) => import('./bench/sessions.mjs').then((m) => m.benchSessions(report, srv, scr))],
  ['8. What the repository brings', (report, srv, scr) => import('./bench/repo-config.mjs').then((m) => m.benchRepoConfig(report, srv, scr))],
  ['9. Prompt caching', (report, srv, scr) => import('./bench/caching.mjs').then((m) => m.benchCaching(report, srv, scr))],
  ['10. Subagent reports checked against their records', (report) => import('./bench/report-checks.mjs').then((m) => m.benchReportChecks(report))],
  ['11. Files changed by commands (bash calls on this repository)', (report) => import('./bench/command-changes.mjs').then((m) => m.benchCommandChanges(report))],
  ['12. Sandboxed bash calls (the protected paths held read-only)', (report) => import('./bench/sandbox-calls.mjs').then((m) => m.benchSandboxCalls(report))],
  ['13. What a turn costs as the session grows (20, 100, 200 turns)', (report, srv, scr) => import('./bench/growth-curve.mjs').then((m) => m.benchGrowthCurve(report, srv, scr))],
  ['14. Subagents in worktrees of their own (a clone of this repository)', (report, srv, scr) => import('./bench/isolation.mjs').then((m) => m.benchIsolation(report, srv, scr))],
];
const only = process.argv.slice(2).map(Number);
const crashed = [];
try {
  for (const [title, run] of sections.filter((_, i) => only.length === 0 || only.includes(i + 1))) {
    report.section(title);
    try {
      await run(report, server, scratch);
    } catch (err) {
      crashed.push(title);
      report.note(`CRASHED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
  }
} finally {
  await server.close();
  scratch.remove();
}

report.section(`Summary (${((performance.now() - started) / 1000).toFixed(0)} s; load average now ${load()})`);
report.note(`targets met: ${report.met.length}, missed: ${report.missed.length}${crashed.length ? `, scenarios crashed: ${crashed.length}` : ''}`);
for (const miss of report.missed) report.note(`missed: ${miss}`);
for (const title of crashed) report.note(`crashed: ${title}`);
if (builtAt().getTime() !== bundleTime.getTime()) report.note('WARNING: dist/cli was rebuilt during the run (a concurrent build?): CLI figures may mix two builds.');
process.exitCode = crashed.length ? 1 : 0;
