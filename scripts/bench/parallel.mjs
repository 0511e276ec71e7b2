// Section 3: do parallel subagents cost more than the slowest of them? 1, 2, 4 and 8 children (maxParallel 8)
// started from one parent message, each reading and editing its own file against a model whose every reply
// takes DELAY_MS: on the core in-process (scripted model) and on the CLI (local server; stream-json for the
// event times). Then the same 8 children with the session's change tracker (stale-write guard, journal, kept
// old contents) and without it, to show what it adds.
import { runCli } from './cli.mjs';
import { runCore, scriptedModel } from './core.mjs';
import { editJobsPlan } from './plans.mjs';
import { loadTs, repeat, stats } from './util.mjs';

const COUNTS = [1, 2, 4, 8];
const MAX_PARALLEL = 8;
const DELAY_MS = 300;
const REPS = 3;

const { runAgent } = loadTs('src/core/loop/loop.ts');
const { DEFAULT_LIMITS } = loadTs('src/core/loop/limits.ts');
const { EventBus } = loadTs('src/core/events.ts');
const { HookRegistry } = loadTs('src/core/policy/hooks.ts');
const { PermissionPolicy } = loadTs('src/core/policy/permission-policy.ts');
const { createBaseTools } = loadTs('src/core/tools/base-tools.ts');
const { AgentRegistry } = loadTs('src/core/loop/agent-registry.ts');
const { createChildRuns } = loadTs('src/core/delegation/child-runs.ts');
const { createRunFeatures } = loadTs('src/core/session/run-features.ts');
const { createToolGate } = loadTs('src/core/session/policy-gate.ts');
const { ChangeTracker } = loadTs('src/core/changes/change-tracker.ts');
const { BlobStore } = loadTs('src/core/changes/blob-store.ts');

/**
 * Within one run: from the parent's first task call starting to its last one finishing, the slowest child's
 * own duration (its agent_finished.durationMs), and the children's edit_file calls (their end patches' durationMs).
 */
function taskPhase(events) {
  const tasks = events.filter((e) => e.agentId === 'main' && e.name === 'task');
  const started = Math.min(...tasks.filter((e) => e.type === 'tool_started').map((e) => e.time));
  const finished = Math.max(...tasks.filter((e) => e.type === 'tool_finished').map((e) => e.time));
  const children = events.filter((e) => e.type === 'agent_finished' && e.agentId !== 'main');
  const edits = events.filter((e) => e.type === 'tool_finished' && e.name === 'edit_file' && e.agentId !== 'main');
  return { phaseMs: finished - started, slowestChild: Math.max(...children.map((e) => e.durationMs)), children: children.length, editMs: edits.map((e) => e.durationMs) };
}

/**
 * runAgent with its ports wired by hand, no transcripts, with or without a ChangeTracker (what a session
 * always has): the difference is what the guard and the journal cost.
 */
async function runBare(model, workdir, blobDir, withTracker) {
  const bus = new EventBus('bench');
  const changes = withTracker ? new ChangeTracker({ workdir, blobs: new BlobStore(blobDir), bus }) : undefined;
  let ids = 0;
  // The session's ports, built as session/create-session.ts builds them (no transcript store on the bus).
  const hooks = new HookRegistry();
  const config = { workdir, limits: { ...DEFAULT_LIMITS, maxParallel: MAX_PARALLEL }, context: { window: 200_000, threshold: 0.8 } };
  const baseTools = createBaseTools(workdir, { defaultTimeoutMs: 10_000, maxTimeoutMs: 10_000, maxOutputChars: 1_000_000, ...(changes ? { changes } : {}) });
  const ports = {
    models: { model, modelId: 'bench-model', maxTokensFor: () => 16_000, features: createRunFeatures(['prompt_cache']) },
    spend: {},
    outputs: { saveFullOutput: async () => '(not saved)' },
    config,
    gate: createToolGate({ hooks, permissions: new PermissionPolicy({ workdir, mode: 'acceptEdits', trusted: true }), approver: { ask: async () => ({ decision: 'deny', reason: 'benchmark' }) } }),
    spawner: createChildRuns({ run: (spec, signal) => runAgent(spec, ports, signal), bus, newAgentId: () => `child-${++ids}`, config, baseTools: () => baseTools, hooks, ...(changes ? { changes } : {}) }),
    bus,
    agents: new AgentRegistry(),
  };
  const events = [];
  bus.subscribe((e) => {
    // A call's record: `running` is when it starts (as tool_started was), its end patch when it finishes.
    const type = e.type === 'tool_call' ? (e.state === 'running' ? 'tool_started' : 'output' in e ? 'tool_finished' : undefined) : e.type === 'agent_finished' ? e.type : undefined;
    if (type) events.push({ type, agentId: e.agentId, name: e.name, durationMs: e.durationMs, time: performance.now() });
  });
  const spec = { identity: { agentId: 'main', parentId: null, depth: 0 }, systemPrompt: 'bench', history: [], prompt: 'Benchmark prompt.', tools: baseTools, maxTurns: 10 };
  const result = await runAgent(spec, ports, new AbortController().signal);
  if (result.status !== 'completed') throw new Error(`bare run ended "${result.status}": ${result.error ?? result.result}`);
  return { events };
}

const median = (values) => stats(values).median;

export async function benchParallel(report, server, scratch) {
  report.note(
    [
      `${COUNTS.join(' / ')} children from one parent message, maxParallel ${MAX_PARALLEL}. Each child reads its own ~2 KB file,`,
      `edits one line of it (edit_file: stale-write guard, journal, old contents kept) and reports: 3 model replies of`,
      `${DELAY_MS} ms each. The parent's replies are instant. "task phase / slowest child" = first task call started →`,
      'last task call finished (parent events), divided by the slowest child\'s own durationMs in the same run.',
      '"vs one child" = the run\'s duration (the main agent\'s, from its start to its answer) / the 1-child run\'s.',
      `${REPS} rounds, the counts alternating inside each round; a fresh workspace per run.`,
    ].join('\n'),
  );
  const plans = new Map(COUNTS.map((n) => [n, editJobsPlan(n, { delayMs: DELAY_MS })]));
  const hosts = [
    ['core (in-process, scripted model)', async (n) => {
      const run = await runCore(scriptedModel(plans.get(n)), scratch, { workdir: scratch.editWorkdir(n), mode: 'acceptEdits', maxParallel: MAX_PARALLEL });
      return { ...taskPhase(run.events), durationMs: run.result.durationMs, wallMs: run.wallMs };
    }],
    ['CLI (built bundle, local server)', async (n) => {
      const extraArgs = ['--max-parallel', String(MAX_PARALLEL), '--permission-mode', 'acceptEdits'];
      const run = await runCli(server, scratch, plans.get(n), { format: 'stream-json', cwd: scratch.editWorkdir(n), extraArgs });
      return { ...taskPhase(run.events), durationMs: run.result.duration_ms, wallMs: run.wallMs };
    }],
  ];
  for (const [host, run] of hosts) {
    await run(1);
    const rounds = await repeat(REPS, async () => {
      const byCount = new Map();
      for (const n of COUNTS) byCount.set(n, await run(n));
      return byCount;
    });
    report.note(`${host}:`);
    const oneChild = median(rounds.map((r) => r.get(1).durationMs));
    for (const n of COUNTS) {
      const runs = rounds.map((r) => r.get(n));
      if (runs.some((r) => r.children !== n)) throw new Error(`${host}: a run with ${n} children finished ${runs.map((r) => r.children).join('/')}`);
      report.row(`  ${n} ${n === 1 ? 'child: ' : 'children:'} task phase / slowest child`, runs.map((r) => r.phaseMs / r.slowestChild), { unit: '×', digits: 3, max: 1.1 });
      if (n > 1) report.row(`    run duration vs one child`, runs.map((r) => r.durationMs / oneChild), { unit: '×', digits: 3 });
    }
    report.row('  edit_file per call, 8 children at once', rounds.flatMap((r) => r.get(8).editMs), { digits: 2 });
    report.row('  run wall time, 8 children', rounds.map((r) => r.get(8).wallMs), { digits: 0 });
  }

  report.note('What the change tracker adds: 8 children, runAgent wired by hand (no transcripts), with and without it:');
  const plan = plans.get(8);
  const pairs = await repeat(REPS, async () => ({
    on: taskPhase((await runBare(scriptedModel(plan), scratch.editWorkdir(8), scratch.dataDir(), true)).events),
    off: taskPhase((await runBare(scriptedModel(plan), scratch.editWorkdir(8), scratch.dataDir(), false)).events),
  }));
  report.row('  task phase / slowest child, tracker on', pairs.map((p) => p.on.phaseMs / p.on.slowestChild), { unit: '×', digits: 3 });
  report.row('  task phase / slowest child, tracker off', pairs.map((p) => p.off.phaseMs / p.off.slowestChild), { unit: '×', digits: 3 });
  report.row('  task phase, on / off', pairs.map((p) => p.on.phaseMs / p.off.phaseMs), { unit: '×', digits: 3, max: 1.02 });
  report.row('  edit_file per call, tracker on', pairs.flatMap((p) => p.on.editMs), { digits: 2 });
  report.row('  edit_file per call, tracker off', pairs.flatMap((p) => p.off.editMs), { digits: 2 });
}
