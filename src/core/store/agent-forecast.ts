/**
 * What a subagent of a given type will likely cost, from this workspace's past runs of that type (the session
 * index's `subagentRuns`): median and p90 of tokens, dollars and wall time over the newest runs. A fan-out card
 * shows it before children start, and "Run, stopping each at its usual maximum" turns the p90 into budgets.
 *
 *   listSessions(root, {cwd}) ─▶ subagentRuns of every session, newest sessions first ─▶ per agent type, the
 *   newest MAX_RUNS finished runs (completed or limited; failed and stopped runs say little of a full run's cost)
 */
import { listSessions, type SubagentRun } from './session-index';

export interface Spread {
  median: number;
  p90: number;
}

export interface AgentForecast {
  agentType: string;
  /** How many past runs it is drawn from. */
  runs: number;
  tokens: Spread;
  /** Absent when none of the runs had a price. */
  costUsd?: Spread;
  durationMs: Spread;
}

const MAX_RUNS = 50;
const COUNTED: ReadonlySet<SubagentRun['status']> = new Set(['completed', 'max_turns', 'budget_exceeded']);

/** Nearest-rank percentile of an ascending list (p in 0..1). */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number;
}

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: percentile(sorted, 0.5), p90: percentile(sorted, 0.9) };
}

/** Forecasts from a list of runs, newest first (exported for the session's own runs and tests). */
export function forecastFrom(agentType: string, runs: readonly SubagentRun[]): AgentForecast | undefined {
  const used = runs.filter((r) => r.agentType === agentType && COUNTED.has(r.status)).slice(0, MAX_RUNS);
  if (used.length === 0) return undefined;
  const priced = used.filter((r) => r.costUsd !== undefined).map((r) => r.costUsd as number);
  return {
    agentType,
    runs: used.length,
    tokens: spread(used.map((r) => r.tokens)),
    ...(priced.length > 0 ? { costUsd: spread(priced) } : {}),
    durationMs: spread(used.map((r) => r.durationMs)),
  };
}

/** Each asked type's forecast from the sessions under `root` started in `cwd`; undefined: no history. */
export async function forecastAgents(root: string, cwd: string, agentTypes: readonly string[]): Promise<Map<string, AgentForecast | undefined>> {
  const sessions = await listSessions(root, { cwd });
  // A session's runs are in finishing order: newest last; sessions come newest first.
  const runs = sessions.flatMap((s) => [...(s.subagentRuns ?? [])].reverse());
  return new Map(agentTypes.map((t) => [t, forecastFrom(t, runs)]));
}
