// Section 2, and the CLI runner the other sections share: spawns the built bundle (`node bin/delegate.js`)
// against the local server, times it from spawn to the first request and to exit, and follows its peak
// RSS by reading /proc/<pid>/status (VmHWM, the kernel's high-water mark) every few ms while it lives.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { delegatePlan, readJobs } from './plans.mjs';
import { cliEnv, repeat } from './util.mjs';
import { warmAgainstBareClient } from './warm-delegation.mjs';

const BIN = fileURLToPath(new URL('../../bin/delegate.js', import.meta.url));
/**
 * DELEGATE_BENCH_BASELINE=DIR: another build (a checkout or a copy holding bin/delegate.js, dist/cli and a
 * node_modules) that section 2 runs alternately with this one, so before and after share the machine's load.
 */
const BASELINE = process.env.DELEGATE_BENCH_BASELINE ? join(process.env.DELEGATE_BENCH_BASELINE, 'bin/delegate.js') : undefined;
const POLL_MS = 4;
const TIMEOUT_MS = 30_000;
export const PROMPT = 'Benchmark prompt: do as scripted.';

/**
 * One look at a live process: its peak RSS so far (VmHWM) and its main thread's time on a CPU and time
 * spent runnable but waiting for one (schedstat, ns). null once it is gone.
 */
function sample(pid) {
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    const [runNs, waitNs] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { at: Date.now(), peakKiB: hwm ? Number(hwm[1]) : 0, cpuMs: runNs / 1e6, waitMs: waitNs / 1e6 };
  } catch {
    return null;
  }
}

/** The last sample taken at or before `at` (Date.now() time). */
export const sampleAt = (samples, at) => samples.filter((s) => s.at <= at).at(-1) ?? { cpuMs: NaN, waitMs: NaN };

/** Runs `node ...args` to its exit: { code, stdout, stderr, spawnedAt (Date.now()), wallMs, peakMiB, samples }. */
export function runNode(args, env = { PATH: process.env.PATH, HOME: process.env.HOME }, timeoutMs = TIMEOUT_MS) {
  return new Promise((resolve, reject) => {
    const spawnedAt = Date.now();
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const samples = [];
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const poll = setInterval(() => {
      const s = sample(child.pid);
      if (s) samples.push(s);
    }, POLL_MS);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    let wallMs = 0;
    child.once('error', reject);
    child.once('exit', () => {
      wallMs = performance.now() - t0;
      clearInterval(poll);
      clearTimeout(timer);
    });
    // 'close' comes after 'exit', once the pipes are drained.
    child.once('close', (code, signal) => {
      const peakMiB = Math.max(0, ...samples.map((s) => s.peakKiB)) / 1024;
      resolve({ code: code ?? signal, stdout, stderr, spawnedAt, wallMs, peakMiB, samples });
    });
  });
}

/**
 * One CLI run answering `plan`. Fails unless it exits 0 with status completed and the server used up
 * the plan exactly. `events` are the stream-json lines (with format stream-json), `requests` the server's.
 */
export async function runCli(server, scratch, plan, { format = 'json', bodies = false, nodeArgs = [], extraArgs = [], env: moreEnv = {}, cwd = scratch.workdir, bin = BIN, allowLeftover, timeoutMs } = {}) {
  await server.plan(plan);
  const env = { ...cliEnv(server, scratch), ...moreEnv };
  const run = await runNode([...nodeArgs, bin, '-p', PROMPT, '--cwd', cwd, '--output-format', format, ...extraArgs], env, timeoutMs);
  const st = await server.stats({ bodies });
  if (run.code !== 0) throw new Error(`delegate exited ${run.code}: ${run.stderr.trim().slice(0, 500)}`);
  const lines = run.stdout.trim().split('\n').map((line) => JSON.parse(line));
  const result = lines.at(-1);
  if (result?.status !== 'completed') throw new Error(`delegate run ended "${result?.status}": ${result?.error ?? ''}`);
  // allowLeftover: replies a plan may leave unused (a pattern over the server's "route: n replies left" lines).
  const problems = st.problems.filter((p) => !allowLeftover?.test(p));
  if (problems.length) throw new Error(`server: ${problems.join('; ')}`);
  const firstAt = st.requests[0].receivedAt;
  const lastAt = st.requests.at(-1).receivedAt;
  return {
    ...run,
    firstRequestMs: firstAt - run.spawnedAt,
    /** The CLI's main thread by the first request: time on a CPU, and time waiting for one. */
    firstRequestCpu: sampleAt(run.samples, firstAt),
    /** From the last request's arrival to the process being gone (answer, output, exit). */
    exitMs: run.spawnedAt + run.wallMs - lastAt,
    result,
    events: lines.slice(0, -1),
    requests: st.requests,
  };
}

export async function benchCli(report, server, scratch) {
  report.note(
    [
      'The built bundle, spawned as `node bin/delegate.js -p … --output-format json`, local server latency 0.',
      'first request = spawn() to the request\'s arrival at the server (both Date.now(), ±1 ms). Peak RSS =',
      `VmHWM of the CLI process, read from /proc every ${POLL_MS} ms until it exits, with the main thread's CPU and`,
      'run-queue times (/proc/<pid>/schedstat): "waiting for a CPU" is what a busy machine adds. Environment:',
      'PATH, HOME, the API variables, XDG_DATA_HOME and XDG_CACHE_HOME (the code cache, in the scratch folder)',
      'only. Runs alternate; warm-up discarded (it writes the code cache).',
      'Subagent runs: the parent sends task call(s) in one message, each child reads 3 files (3 turns) and reports.',
    ].join('\n'),
  );
  const one = delegatePlan(readJobs(['JOB-A']));
  const three = delegatePlan(readJobs(['JOB-A', 'JOB-B', 'JOB-C']));
  // One MCP server (the reference server over stdio, from node_modules): what a config costs the first request.
  // In the scratch folder (removed at the end), outside the workspace (the CLI is told of it by --mcp-config).
  const mcpConfig = join(scratch.root, 'mcp.json');
  const everything = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
  writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything] } } }));
  const withMcp = ['--mcp-config', mcpConfig];
  await runCli(server, scratch, one);
  await runCli(server, scratch, one, { extraArgs: withMcp });
  const pairs = await repeat(5, async () => ({
    one: await runCli(server, scratch, one),
    three: await runCli(server, scratch, three),
    // What-if: the chunks compiled from source, as on a first run after an install or an upgrade.
    cold: await runCli(server, scratch, one, { env: { DELEGATE_CODE_CACHE: '0' } }),
    mcp: await runCli(server, scratch, one, { extraArgs: withMcp }),
  }));
  const all = pairs.flatMap((p) => [p.one, p.three]);

  const bare = await repeat(5, () => runNode(['-e', '0']));
  const version = await repeat(5, () => runNode([BIN, '--version'], { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CACHE_HOME: scratch.cacheDir }));
  report.row('node -e 0: wall time (Node\'s own start)', bare.map((r) => r.wallMs));
  report.row('delegate --version: wall time', version.map((r) => r.wallMs), { max: 50 });
  report.row('node -e 0: main-thread CPU', bare.map((r) => r.samples.at(-1)?.cpuMs ?? NaN), { digits: 0 });
  report.row('first request after spawn', all.map((r) => r.firstRequestMs), { digits: 0, max: 65 });
  report.row('  main-thread CPU by then', all.map((r) => r.firstRequestCpu.cpuMs), { digits: 0, max: 55 });
  report.row('  main thread waiting for a CPU by then', all.map((r) => r.firstRequestCpu.waitMs), { digits: 0 });
  report.row('first request, one MCP server (server-everything, stdio)', pairs.map((p) => p.mcp.firstRequestMs), { digits: 0 });
  report.row('  main-thread CPU by then', pairs.map((p) => p.mcp.firstRequestCpu.cpuMs), { digits: 0 });
  report.row('  peak RSS (the CLI alone, not the server)', pairs.map((p) => p.mcp.peakMiB), { unit: 'MiB' });
  report.row('wall time, one subagent', pairs.map((p) => p.one.wallMs), { digits: 0 });
  report.row('wall time, three parallel subagents', pairs.map((p) => p.three.wallMs), { digits: 0 });
  report.row('  last request → process gone', all.map((r) => r.exitMs), { digits: 0 });
  report.row('node -e 0: peak RSS', bare.map((r) => r.peakMiB), { unit: 'MiB' });
  report.row('delegate --version: peak RSS', version.map((r) => r.peakMiB), { unit: 'MiB' });
  report.row('peak RSS, one subagent', pairs.map((p) => p.one.peakMiB), { unit: 'MiB', max: 80 });
  report.row('peak RSS, three parallel subagents', pairs.map((p) => p.three.peakMiB), { unit: 'MiB', max: 80 });
  await againstBareClient(report, server, scratch, one);
  await warmAgainstBareClient(report, server, scratch, one, PROMPT);
  if (BASELINE) await sideBySide(report, server, scratch, one);
  report.note('what-if, DELEGATE_CODE_CACHE=0 (no V8 code cache: every chunk compiled from source, as on a first run):');
  report.row('  first request after spawn, no code cache', pairs.map((p) => p.cold.firstRequestMs), { digits: 0 });
  report.row('    main-thread CPU by then', pairs.map((p) => p.cold.firstRequestCpu.cpuMs), { digits: 0 });
}

/** This build and the baseline's, alternating: the first request, the CPU by then, `--version`, a delegation's gaps. */
async function sideBySide(report, server, scratch, plan) {
  const versionOf = (bin) => runNode([bin, '--version'], { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CACHE_HOME: scratch.cacheDir });
  await runCli(server, scratch, plan, { bin: BASELINE });
  await versionOf(BASELINE);
  const pairs = await repeat(9, async () => ({
    base: await runCli(server, scratch, plan, { bin: BASELINE }),
    now: await runCli(server, scratch, plan),
    baseVersion: await versionOf(BASELINE),
    nowVersion: await versionOf(BIN),
  }));
  report.note(`side by side with the baseline build (${process.env.DELEGATE_BENCH_BASELINE}), alternating, one subagent:`);
  report.row('  first request: baseline', pairs.map((p) => p.base.firstRequestMs), { digits: 0 });
  report.row('  first request: this build', pairs.map((p) => p.now.firstRequestMs), { digits: 0, max: 65 });
  report.row('  main-thread CPU by then: baseline', pairs.map((p) => p.base.firstRequestCpu.cpuMs), { digits: 0 });
  report.row('  main-thread CPU by then: this build', pairs.map((p) => p.now.firstRequestCpu.cpuMs), { digits: 0, max: 55 });
  report.row('  --version: baseline', pairs.map((p) => p.baseVersion.wallMs), { digits: 0 });
  report.row('  --version: this build', pairs.map((p) => p.nowVersion.wallMs), { digits: 0, max: 50 });
  report.row('  wall time, one subagent: baseline', pairs.map((p) => p.base.wallMs), { digits: 0 });
  report.row('  wall time, one subagent: this build', pairs.map((p) => p.now.wallMs), { digits: 0 });
  // Where a delegation's time goes after the first request: the gaps between the server's arrivals that hold the
  // harness's work (the child's set-up; its report checked and handed to the parent).
  const gap = (run, from, to) => (run.requests.at(to)?.receivedAt ?? NaN) - (run.requests.at(from)?.receivedAt ?? NaN);
  report.row("  parent's first request → the child's first: baseline", pairs.map((p) => gap(p.base, 0, 1)), { digits: 0 });
  report.row("  parent's first request → the child's first: this build", pairs.map((p) => gap(p.now, 0, 1)), { digits: 0 });
  report.row("  child's last request → the parent's next: baseline", pairs.map((p) => gap(p.base, -2, -1)), { digits: 0 });
  report.row("  child's last request → the parent's next: this build", pairs.map((p) => gap(p.now, -2, -1)), { digits: 0 });
}

/**
 * One delegation's wall time against a bare Node client (bare-client.mjs: node:http, no SDK, no harness) sending the
 * very request bodies the CLI sent, in the same order, to the same plan: spawn to exit both, alternating.
 */
async function againstBareClient(report, server, scratch, plan) {
  const recorded = await runCli(server, scratch, plan, { bodies: true });
  const bodiesFile = join(scratch.root, 'bare-bodies.json');
  writeFileSync(bodiesFile, JSON.stringify(recorded.requests.map((r) => ({ body: r.body, headers: r.headers }))));
  const bareClient = fileURLToPath(new URL('./bare-client.mjs', import.meta.url));
  const bare = async () => {
    await server.plan(plan);
    const run = await runNode([bareClient, bodiesFile, server.baseURL]);
    const st = await server.stats();
    if (run.code !== 0 || st.problems.length) throw new Error(`bare client: ${run.stderr.trim().slice(0, 300)} ${st.problems.join('; ')}`);
    return run.wallMs;
  };
  const pairs = await repeat(7, async () => ({ cli: (await runCli(server, scratch, plan)).wallMs, bare: await bare() }));
  report.note(`one delegation (${recorded.requests.length} requests) against a bare Node client sending the same bodies, alternating:`);
  report.row('  wall time, bare node:http client', pairs.map((p) => p.bare), { digits: 0 });
  report.row('  wall time, delegate', pairs.map((p) => p.cli), { digits: 0 });
  report.row('  delegate / bare client (pairs)', pairs.map((p) => p.cli / p.bare), { unit: '×', digits: 2, max: 1.5 });
}
