// Section 3: do parallel subagents cost more than the slowest of them? Three children whose every model
// reply takes 300 / 500 / 700 ms (one read_file turn and a report: about 0.6 / 1.0 / 1.4 s each) are run
// from one parent message, beside a run of the slowest child alone, on the core in-process (scripted model)
// and on the CLI (local server; stream-json for the event times).
import { runCli } from './cli.mjs';
import { runCore, scriptedModel } from './core.mjs';
import { delegatePlan, readJobs } from './plans.mjs';
import { repeat } from './util.mjs';

const DELAYS = [300, 500, 700];
const REPS = 3;

/**
 * Within one run: from the parent's first task call starting to its last one finishing, and the
 * slowest child's own duration (its agent_finished.durationMs).
 */
function taskPhase(events) {
  const tasks = events.filter((e) => e.agentId === 'main' && e.name === 'task');
  const started = Math.min(...tasks.filter((e) => e.type === 'tool_started').map((e) => e.time));
  const finished = Math.max(...tasks.filter((e) => e.type === 'tool_finished').map((e) => e.time));
  const slowestChild = Math.max(...events.filter((e) => e.type === 'agent_finished' && e.agentId !== 'main').map((e) => e.durationMs));
  return { phaseMs: finished - started, slowestChild };
}

const withDuration = (run, pick) => ({ ...run, durationMs: pick(run) });

export async function benchParallel(report, server, scratch) {
  report.note(
    [
      `Children with ${DELAYS.join(' / ')} ms per model reply (1 read_file turn + report), parent replies instant.`,
      '"vs slowest alone" = the main agent\'s duration in the 3-child run / in the same run with only the slowest',
      'child (duration_ms of the result: from the agent\'s start to its answer, without process start and exit).',
      '"task phase" = first task call started → last task call finished (parent events), / the slowest',
      `child's own durationMs in that run. ${REPS} pairs each, runs alternating.`,
    ].join('\n'),
  );
  const jobs = readJobs(['JOB-A', 'JOB-B', 'JOB-C'], { delays: DELAYS, reads: 1 });
  const three = delegatePlan(jobs);
  const alone = delegatePlan([jobs[2]]);

  const hosts = [
    ['core (in-process, scripted model)', async (plan) => withDuration(await runCore(scriptedModel(plan), scratch), (r) => r.result.durationMs)],
    ['CLI (built bundle, local server)', async (plan) => withDuration(await runCli(server, scratch, plan, { format: 'stream-json' }), (r) => r.result.duration_ms)],
  ];
  for (const [host, run] of hosts) {
    const pairs = await repeat(REPS, async () => ({ three: await run(three), alone: await run(alone) }));
    const phases = pairs.map((p) => taskPhase(p.three.events));
    report.row(`${host}: 3 children, run wall time`, pairs.map((p) => p.three.wallMs), { digits: 0 });
    report.row('  slowest child alone, run wall time', pairs.map((p) => p.alone.wallMs), { digits: 0 });
    report.row('  3 children vs slowest alone (duration)', pairs.map((p) => p.three.durationMs / p.alone.durationMs), { unit: '×', digits: 3, max: 1.1 });
    report.row('  task phase vs slowest child (same run)', phases.map((p) => p.phaseMs / p.slowestChild), { unit: '×', digits: 3, max: 1.1 });
  }
}
