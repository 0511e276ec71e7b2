// Section 13: what a turn costs as a session grows (issue 30, target 3). The built CLI reads the 20 scratch files in
// rotation for 20, 100 and 200 turns against the local server's caching rules, with a 30,000-token context window so
// compaction happens inside the runs (each read adds ~800 tokens; compaction at 80 %). Per run: billed input per
// turn (input + 0.1 × cache reads + 1.25 × cache writes, over every request, compaction's included), the context
// (each request's estimated tokens: their mean, and the last), and the wall time per request. The check: billed
// input per turn grows no faster than the mean context per request does, from 20 turns to 200.
import { runCli } from './cli.mjs';
import { GROWTH_FILES } from './util.mjs';

const WINDOW = 30_000;
const billed = (u) => u.input_tokens + 0.1 * u.cache_read_input_tokens + 1.25 * u.cache_creation_input_tokens;

function readLoopPlan(turns) {
  const parent = Array.from({ length: turns }, (_, i) => ({ tools: [{ name: 'read_file', input: { path: GROWTH_FILES[i % GROWTH_FILES.length] } }] }));
  parent.push({ text: 'All read.' });
  // More summaries than any run needs: the server's stats list what a run left (not a failure here).
  const summary = Array.from({ length: 40 }, (_, i) => ({ text: `Summary ${i + 1}: read files/f01..f20 in rotation; every file holds numbered lorem-ipsum lines and its canary.` }));
  return { parent, children: {}, summary };
}

export async function benchGrowthCurve(report, server, scratch) {
  report.note(
    [
      'The built CLI, one read_file a turn (3 KB files in rotation), --context-window 30000: compaction inside the runs.',
      'Billed input per turn = all requests\' input + 0.1 × cache reads + 1.25 × cache writes, ÷ turns. Context = each',
      'request\'s estimated tokens (characters / 4): their mean, and the last. One run each (deterministic but the wall time).',
    ].join('\n'),
  );
  const rows = [];
  for (const turns of [20, 100, 200]) {
    const plan = readLoopPlan(turns);
    const run = await runCli(server, scratch, plan, { extraArgs: ['--context-window', String(WINDOW), '--max-turns', String(turns + 10)], allowLeftover: /^summary: / });
    const parentReqs = run.requests.filter((r) => r.route === 'parent');
    const perTurn = run.requests.reduce((n, r) => n + billed(r.cache), 0) / turns;
    const meanContext = parentReqs.reduce((n, r) => n + r.tokens, 0) / parentReqs.length;
    rows.push({ turns, perTurn, meanContext, context: parentReqs.at(-1).tokens, compactions: run.requests.length - parentReqs.length, msPerRequest: run.wallMs / run.requests.length });
  }
  for (const r of rows) {
    report.row(`${r.turns} turns: billed input per turn`, r.perTurn, { unit: 'tokens', digits: 0 });
    report.row('  context per request, mean', r.meanContext, { unit: 'tokens', digits: 0 });
    report.row(`  context at the end (${r.compactions} compactions)`, r.context, { unit: 'tokens', digits: 0 });
    report.row('  wall time per request (spawn to exit)', r.msPerRequest, { digits: 1 });
  }
  const [first, , last] = rows;
  const costGrowth = last.perTurn / first.perTurn;
  const contextGrowth = last.meanContext / first.meanContext;
  report.check('billed per turn grows no faster than the context (20 → 200 turns)', costGrowth <= contextGrowth * 1.05,
    `cost per turn ×${costGrowth.toFixed(2)}, context ×${contextGrowth.toFixed(2)}`);
}
