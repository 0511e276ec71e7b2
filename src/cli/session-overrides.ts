/**
 * What the CLI's flags set, as the settings resolver takes it (core/settings/resolve-settings.ts): only what was
 * given; the environment (DELEGATE_*, ANTHROPIC_BASE_URL…) and the defaults are the resolver's, the same for every
 * host. The GitHub Action's inputs become these flags (src/action/inputs.ts).
 */
import { SESSION_FLAGS, type CliOptions } from './args';
import { hasPrice, type SessionOverrides } from '../core/session';

export function cliOverrides(options: CliOptions): SessionOverrides {
  const given: Record<string, unknown> = {};
  for (const key of SESSION_FLAGS) if (options[key] !== undefined) given[key] = options[key];
  return given as SessionOverrides;
}

/** --max-budget-usd on a model without a price: refused before anything runs (the editor says it at the first request). */
export function unkeptBudget(maxBudgetUsd: number | undefined, modelId: string, prices: Parameters<typeof hasPrice>[1]): string | undefined {
  if (maxBudgetUsd === undefined || hasPrice(modelId, prices)) return undefined;
  return `--max-budget-usd ${maxBudgetUsd} cannot be kept: the model ${modelId} has no price. Give it one in DELEGATE_PRICES ('{"${modelId}": {"input": 3, "output": 15}}', $ per million tokens) or use a Claude model id (claude-sonnet-5-5, claude-opus-5-5, claude-haiku-5-5)`;
}
