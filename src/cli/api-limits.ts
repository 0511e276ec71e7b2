/**
 * What the API may cost and how long it may make a run wait, from flags and environment:
 *
 *   --max-retry-wait S | DELEGATE_MAX_RETRY_WAIT   the longest retry-after (429, 529…) waited for; default 60 s
 *   DELEGATE_PRICES (JSON)                         prices of models the built-in table lacks ($ per million tokens)
 *   --max-budget-usd X                             refused, before anything runs, on a model without a price
 */
import type { CliOptions } from './args';
import { hasPrice, parsePrices } from '../core/session';

type Prices = Exclude<ReturnType<typeof parsePrices>, { error: string }>;

export interface ApiLimits {
  retryWait: { maxMs: number; setting: string };
  prices?: Prices;
}

/** The limits, or the one line saying which setting is wrong (a usage error). */
export function apiLimits(options: CliOptions, env: NodeJS.ProcessEnv, modelId: string): ApiLimits | string {
  const rawWait = env.DELEGATE_MAX_RETRY_WAIT?.trim();
  const envWait = rawWait ? Number(rawWait) : undefined;
  if (envWait !== undefined && !(Number.isInteger(envWait) && envWait >= 0)) return `DELEGATE_MAX_RETRY_WAIT must be a whole number of seconds ≥ 0 (got "${rawWait}")`;
  const retryWait =
    options.maxRetryWait !== undefined ? { maxMs: options.maxRetryWait * 1000, setting: '--max-retry-wait' }
    : envWait !== undefined ? { maxMs: envWait * 1000, setting: 'DELEGATE_MAX_RETRY_WAIT' }
    : { maxMs: 60_000, setting: '--max-retry-wait' };
  let prices: Prices | undefined;
  if (env.DELEGATE_PRICES?.trim()) {
    const parsed = parsePrices(env.DELEGATE_PRICES);
    if ('error' in parsed) return `DELEGATE_PRICES: ${parsed.error}`;
    prices = parsed;
  }
  if (options.maxBudgetUsd !== undefined && !hasPrice(modelId, prices)) {
    return `--max-budget-usd ${options.maxBudgetUsd} cannot be kept: the model ${modelId} has no price. Give it one in DELEGATE_PRICES ('{"${modelId}": {"input": 3, "output": 15}}', $ per million tokens) or use a Claude model id (claude-sonnet-5-5, claude-opus-5-5, claude-haiku-5-5)`;
  }
  return { retryWait, ...(prices ? { prices } : {}) };
}
