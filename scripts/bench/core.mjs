// Section 1, and the in-process runner the other sections share: the core (src/ through tsx) driven by
// createSession, with the scripted model or with the real SDK client (createAnthropicModel) pointed at
// the local server. Every model is wrapped to time what happens inside model.stream().
import { readFileSync } from 'node:fs';
import { turnsPlan } from './plans.mjs';
import { loadTs, repeat } from './util.mjs';

const { createSession } = loadTs('src/core/session/index.ts');
const { runAgent } = loadTs('src/core/loop/loop.ts');
const { DEFAULT_LIMITS } = loadTs('src/core/loop/limits.ts');
const { EventBus } = loadTs('src/core/events.ts');
const { HookRegistry } = loadTs('src/core/policy/hooks.ts');
const { PermissionPolicy } = loadTs('src/core/policy/permission-policy.ts');
const { createBaseTools } = loadTs('src/core/tools/base-tools.ts');
const { checkBashCommand } = loadTs('src/core/policy/bash-deny-list.ts');
const { AgentRegistry } = loadTs('src/core/loop/agent-registry.ts');
const { createChildRuns } = loadTs('src/core/delegation/child-runs.ts');
const { createRunFeatures } = loadTs('src/core/session/run-features.ts');
const { createToolGate } = loadTs('src/core/session/policy-gate.ts');
const { ScriptedModel, firstUserText } = loadTs('test/kit/scripted-model.ts');
const { createAnthropicModel } = loadTs('src/core/llm/anthropic-model.ts');

const TURNS = 50;
const denyAll = { ask: async () => ({ decision: 'deny', reason: 'benchmark' }) };

/** This process's main thread: ms spent runnable but waiting for a CPU (what a busy machine adds). */
const waitingMs = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;

const cpuMs = (since) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

/** Wraps a ModelPort; `time.ms` / `time.cpuMs` add up the wall / process CPU time spent inside stream(). */
export function timed(inner) {
  const time = { ms: 0, cpuMs: 0, calls: 0 };
  const model = {
    async stream(request, signal, callbacks) {
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      try {
        return await inner.stream(request, signal, callbacks);
      } finally {
        time.ms += performance.now() - t0;
        time.cpuMs += cpuMs(cpu0);
        time.calls++;
      }
    },
  };
  return { model, time };
}

/** A ScriptedModel answering a plan (plans.mjs); children are routed by the tag in their task prompt. */
export function scriptedModel(plan) {
  const tags = Object.keys(plan.children);
  const model = new ScriptedModel((req) => tags.find((tag) => firstUserText(req).includes(tag)) ?? 'parent');
  const step = (s) => ({
    ...(s.text !== undefined ? { text: s.text } : {}),
    ...(s.tools ? { toolUses: s.tools } : {}),
    ...(s.delayMs ? { delayMs: s.delayMs } : {}),
  });
  model.script('parent', ...plan.parent.map(step));
  for (const tag of tags) model.script(tag, ...plan.children[tag].map(step));
  return model;
}

export const sdkModel = (baseURL) => createAnthropicModel({ apiKey: 'bench-key', baseURL });

/**
 * One session.run() of the core in this process. Returns its wall time and the tool/agent events
 * (same shape as the CLI's stream-json lines, `time` from performance.now()).
 */
export async function runCore(model, scratch, { maxTurns = TURNS + 10, workdir = scratch.workdir, mode = 'default', maxParallel } = {}) {
  const session = await createSession({
    workdir,
    model: { id: 'bench-model' },
    permissions: { mode },
    limits: { maxTurns, subagentMaxTurns: maxTurns, ...(maxParallel ? { maxParallel } : {}) },
    persistence: { transcriptRoot: scratch.dataDir() },
    ports: { model, approver: denyAll },
  });
  const events = [];
  session.bus.subscribe((e) => {
    // A call's record: `running` is when it starts (as tool_started was), its end patch when it finishes.
    const type = e.type === 'tool_call' ? (e.state === 'running' ? 'tool_started' : 'output' in e ? 'tool_finished' : undefined) : e.type === 'agent_finished' ? e.type : undefined;
    if (type) events.push({ type, agentId: e.agentId, name: e.name, durationMs: e.durationMs, time: performance.now() });
  });
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const wait0 = waitingMs();
  const result = await session.run('Benchmark prompt: do as scripted.', new AbortController().signal);
  const wallMs = performance.now() - t0;
  const runCpuMs = cpuMs(cpu0);
  const runWaitMs = waitingMs() - wait0;
  if (result.status !== 'completed') throw new Error(`core run ended "${result.status}": ${result.error ?? result.result}`);
  return { result, wallMs, cpuMs: runCpuMs, waitMs: runWaitMs, events };
}

/**
 * The same loop as runCore, through runAgent with its ports wired by hand and nothing listening on the
 * bus: no transcript writes. The difference to runCore is what the transcript store costs.
 */
async function runBareLoop(model, scratch) {
  const { workdir } = scratch;
  // The session's ports, built as session/create-session.ts builds them (no transcript store on the bus).
  const hooks = new HookRegistry();
  const config = { workdir, limits: { ...DEFAULT_LIMITS, maxTurns: TURNS + 10 }, context: { window: 200_000, threshold: 0.8 } };
  const baseTools = createBaseTools(workdir, { defaultTimeoutMs: 10_000, maxTimeoutMs: 10_000, maxOutputChars: 1_000_000 });
  const bus = new EventBus('bench');
  const ports = {
    models: { model, modelId: 'bench-model', maxTokensFor: () => 16_000, features: createRunFeatures(['prompt_cache']) },
    spend: {},
    outputs: { saveFullOutput: async () => '(not saved)' },
    config,
    gate: createToolGate({ hooks, permissions: new PermissionPolicy({ workdir, mode: 'default', trusted: true }), approver: denyAll }),
    spawner: createChildRuns({ run: (spec, signal) => runAgent(spec, ports, signal), bus, newAgentId: () => 'child', config, baseTools: () => baseTools, hooks }),
    bus,
    agents: new AgentRegistry(),
  };
  const identity = { agentId: 'main', parentId: null, depth: 0 };
  const spec = { identity, systemPrompt: 'bench', history: [], prompt: 'Benchmark prompt.', tools: baseTools, maxTurns: TURNS + 10 };
  const t0 = performance.now();
  const result = await runAgent(spec, ports, new AbortController().signal);
  if (result.status !== 'completed') throw new Error(`bare loop ended "${result.status}": ${result.error ?? result.result}`);
  return { result, wallMs: performance.now() - t0 };
}

const toolMs = (events) => events.filter((e) => e.type === 'tool_finished').reduce((sum, e) => sum + e.durationMs, 0);

export async function benchHarness(report, server, scratch) {
  report.note(
    [
      `${TURNS} turns of one read_file call (a 200-byte file), then a final answer: ${TURNS + 1} model calls per run.`,
      'harness/turn = (run wall time − model time) / model calls. Scripted: model time = wall time inside model.stream().',
      'SDK: model time = latency the server really slept + the server process\'s CPU time (its parse/serialize work);',
      'the SDK client, HTTP and SSE parsing stay in the figure ("SDK + HTTP" row); the loop, tools and awaited',
      'transcript writes are the "loop" row (wall time outside model.stream()). "CPU" rows: this process\'s CPU time',
      '(all threads) per call, less sensitive to a busy machine than wall time. Warm-up run discarded.',
    ].join('\n'),
  );

  const scriptedRun = (tool) => async () => {
    const { model, time } = timed(scriptedModel(turnsPlan(TURNS, { tool })));
    const run = await runCore(model, scratch);
    const calls = run.result.turns;
    return {
      wall: (run.wallMs - time.ms) / calls,
      cpu: (run.cpuMs - time.cpuMs) / calls,
      wait: run.waitMs / calls,
      tools: toolMs(run.events) / calls,
    };
  };
  const bareRun = async () => {
    const { model, time } = timed(scriptedModel(turnsPlan(TURNS)));
    const run = await runBareLoop(model, scratch);
    return (run.wallMs - time.ms) / run.result.turns;
  };
  await scriptedRun('read_file')();
  await bareRun();
  const pairs = await repeat(8, async () => ({
    read: await scriptedRun('read_file')(),
    bare: await bareRun(),
    glob: await scriptedRun('glob')(),
  }));
  const scripted = pairs.map((p) => p.read);
  report.row('scripted model (in-process): harness/turn', scripted.map((r) => r.wall), { digits: 2, max: 2 });
  report.row('  harness CPU/turn', scripted.map((r) => r.cpu), { digits: 2 });
  report.row('  main thread waiting for a CPU, per turn', scripted.map((r) => r.wait), { digits: 2 });
  report.row('  of which tool execution (the calls\' durationMs)', scripted.map((r) => r.tools), { digits: 2 });
  report.row('  same without transcripts (bare runAgent)', pairs.map((p) => p.bare), { digits: 2 });
  report.row('  same with glob `*.md` instead of read_file', pairs.map((p) => p.glob.wall), { digits: 2 });
  report.row('    of which tool execution (the calls\' durationMs)', pairs.map((p) => p.glob.tools), { digits: 2 });

  // The permission check parses every bash command: a model writing a 64 KB file through a heredoc or a
  // long quoted string must not wait seconds for it (a backtracking regex once made it quadratic).
  const big = [`printf '%s' "${'x'.repeat(64_000)}"`, `cat > notes.md <<'EOF'\n${'a line (of) text; '.repeat(3500)}\nEOF`];
  const checks = await repeat(5, () => {
    const t0 = performance.now();
    for (const command of big) checkBashCommand(command);
    return (performance.now() - t0) / big.length;
  });
  report.row('bash deny-list check of a 64 KB command', checks, { max: 50 });

  const inner = sdkModel(server.baseURL);
  for (const [delayMs, reps] of [[0, 7], [50, 3]]) {
    const sdkRun = async () => {
      const { model, time } = timed(inner);
      await server.plan(turnsPlan(TURNS, { delayMs }));
      const run = await runCore(model, scratch);
      const st = await server.stats();
      if (st.problems.length) throw new Error(st.problems.join('; '));
      const calls = run.result.turns;
      const loop = (run.wallMs - time.ms) / calls;
      const client = (time.ms - st.sleptMs - st.cpuMs) / calls;
      return { total: loop + client, loop, client, cpu: run.cpuMs / calls, wait: run.waitMs / calls, server: st.cpuMs / calls, wall: run.wallMs };
    };
    await sdkRun();
    const runs = await repeat(reps, sdkRun);
    report.row(`SDK → local server, latency ${delayMs} ms: harness/turn`, runs.map((r) => r.total), { digits: 2, max: 2 });
    report.row('  harness CPU/turn (loop + SDK)', runs.map((r) => r.cpu), { digits: 2 });
    report.row('  main thread waiting for a CPU, per turn', runs.map((r) => r.wait), { digits: 2 });
    report.row('  loop, tools, transcripts (outside stream)', runs.map((r) => r.loop), { digits: 2 });
    report.row('  SDK + HTTP (inside stream − server time)', runs.map((r) => r.client), { digits: 2 });
    report.row('  server CPU per request (subtracted)', runs.map((r) => r.server), { digits: 2 });
    report.row(`  run wall time (${TURNS + 1} calls)`, runs.map((r) => r.wall), { digits: 0 });
  }
}
