import type { Usage } from '../vocabulary';
/**
 * Budgets: what a subagent (or the whole run) may spend before it must stop and report.
 *
 *   per agent   tokens (input, cache and output, as the panel counts them), wall seconds, dollars
 *   per run     dollars for every agent together (--max-budget-usd)
 *
 *   turn boundary: spent ≥ budget? ─▶ one last request with tools off ("budget reached: report what you have")
 *                                     ─▶ status budget_exceeded; the parent is told
 *   wall seconds run out mid-step  ─▶ the step (a model request or the tools) is aborted, then the same
 *
 * Dollars come from a price table ($ per million tokens) by model family, overridable in settings.
 */

export interface Budget {
  tokens?: number;
  seconds?: number;
  usd?: number;
}

export interface ModelPrice {
  /** $ per million tokens. */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Claude model families (longest matching prefix wins). Override with `delegate.prices` / DELEGATE_PRICES. */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-opus-4-1': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-opus-4-0': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-opus': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-haiku': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
};

export function priceFor(modelId: string, prices: Readonly<Record<string, ModelPrice>> = DEFAULT_PRICES): ModelPrice | undefined {
  const key = Object.keys(prices)
    .filter((prefix) => modelId.startsWith(prefix))
    .sort((a, b) => b.length - a.length)[0];
  return key === undefined ? undefined : prices[key];
}

/** Whether dollars can be counted for this model (the built-in table, with `prices` over it). */
export function hasPrice(modelId: string, prices?: Readonly<Record<string, ModelPrice>>): boolean {
  return priceFor(modelId, { ...DEFAULT_PRICES, ...prices }) !== undefined;
}

/**
 * Prices as a user writes them (DELEGATE_PRICES): `{"model-or-prefix": {"input": 3, "output": 15}}`, $ per million
 * tokens; cacheRead / cacheWrite default to the API's multipliers of `input` (0.1×, 1.25×). A one-line reason otherwise.
 */
export function parsePrices(text: string): Record<string, ModelPrice> | { error: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { error: 'not JSON: write {"model-id": {"input": 3, "output": 15}} ($ per million tokens)' };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { error: 'must be an object of model ids: {"model-id": {"input": 3, "output": 15}}' };
  const out: Record<string, ModelPrice> = {};
  for (const [model, value] of Object.entries(data as Record<string, unknown>)) {
    const p = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    const num = (key: string): number | undefined => (typeof p[key] === 'number' && (p[key] as number) >= 0 ? (p[key] as number) : undefined);
    const input = num('input');
    const output = num('output');
    if (input === undefined || output === undefined) return { error: `"${model}" needs "input" and "output" ($ per million tokens, numbers ≥ 0)` };
    out[model] = { input, output, cacheRead: num('cacheRead') ?? input * 0.1, cacheWrite: num('cacheWrite') ?? input * 1.25 };
  }
  return out;
}

/**
 * Why a budget in dollars cannot be kept on this model (it has no price, so nothing it spends would count), or
 * undefined. Said before the agent's first request: a budget is never silently unbounded.
 */
export function unpricedBudget(modelId: string, capUsd: number | undefined, prices: Readonly<Record<string, ModelPrice>> | undefined): string | undefined {
  if (capUsd === undefined || priceFor(modelId, prices) !== undefined) return undefined;
  const cap = capUsd;
  return `a budget of ${usd(cap)} cannot be kept: the model ${modelId} has no price. Give it one ($ per million tokens: DELEGATE_PRICES for the CLI, delegate.prices in the editor), use a Claude model id, or drop the budget`;
}

/** Dollars one response cost, or undefined when the model has no price. */
export function costOf(usage: Usage, modelId: string, prices?: Readonly<Record<string, ModelPrice>>): number | undefined {
  const p = priceFor(modelId, prices);
  if (!p) return undefined;
  return (usage.input_tokens * p.input + usage.output_tokens * p.output + usage.cache_read_input_tokens * p.cacheRead + usage.cache_creation_input_tokens * p.cacheWrite) / 1_000_000;
}

function tokensOf(usage: Usage): number {
  return usage.input_tokens + usage.output_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
}

const n = (v: number): string => v.toLocaleString('en-US');
const usd = (v: number): string => `$${v.toFixed(v < 1 ? 3 : 2)}`;

/** What the whole run has spent, shared by every agent (for --max-budget-usd). */
export class RunSpend {
  usd = 0;
  constructor(readonly capUsd?: number) {}

  add(cost: number | undefined): void {
    if (cost) this.usd += cost;
  }
}

/** Why an agent must stop now, or undefined. `usage` is its own plus its finished descendants'. */
export function budgetExceeded(budget: Budget | undefined, usage: Usage, costUsd: number, elapsedMs: number, run?: RunSpend): string | undefined {
  if (run?.capUsd !== undefined && run.usd >= run.capUsd) return `the run's budget of ${usd(run.capUsd)} is spent (${usd(run.usd)})`;
  if (!budget) return undefined;
  const tokens = tokensOf(usage);
  if (budget.tokens !== undefined && tokens >= budget.tokens) return `token budget of ${n(budget.tokens)} reached (${n(tokens)} used)`;
  if (budget.usd !== undefined && costUsd >= budget.usd) return `budget of ${usd(budget.usd)} reached (${usd(costUsd)} spent)`;
  if (budget.seconds !== undefined && elapsedMs >= budget.seconds * 1000) return `time budget of ${n(budget.seconds)} s reached`;
  return undefined;
}

export function budgetNote(reason: string): string {
  return `Budget reached: ${reason}. Do not call any more tools. Report what you have found and done so far, and say what is left undone.`;
}
