/**
 * What the CLI's flags set, as the settings resolver takes it (core/settings/resolve-settings.ts): only what was
 * given; the environment (DELEGATE_*, ANTHROPIC_BASE_URL…) and the defaults are the resolver's, the same for every
 * host. The GitHub Action's inputs become these flags (src/action/inputs.ts).
 */
import type { CliOptions } from './args';
import { hasPrice, type SessionOverrides } from '../core/session';

export function cliOverrides(options: CliOptions): SessionOverrides {
  const given = <K extends keyof SessionOverrides>(key: K, value: SessionOverrides[K] | undefined): Partial<SessionOverrides> => (value !== undefined ? { [key]: value } : {});
  return {
    ...given('model', options.model),
    ...given('thinking', options.thinking),
    ...given('maxTokens', options.maxTokens),
    ...given('contextWindow', options.contextWindow),
    ...given('maxRetryWait', options.maxRetryWait),
    ...given('permissionMode', options.permissionMode),
    allowedTools: options.allowedTools,
    disallowedTools: options.disallowedTools,
    ...given('sandbox', options.sandbox),
    ...given('isolation', options.isolation),
    ...given('landCheck', options.landCheck),
    allowNetwork: options.allowNetwork,
    toolEnv: options.toolEnv,
    ...given('webSearch', options.webSearch),
    ...given('maxTurns', options.maxTurns),
    ...given('subagentMaxTurns', options.subagentMaxTurns),
    ...given('maxParallel', options.maxParallel),
    ...given('maxDepth', options.maxDepth),
    ...given('subagentMaxTokens', options.subagentMaxTokens),
    ...given('subagentTimeout', options.subagentTimeout),
    ...given('maxBudgetUsd', options.maxBudgetUsd),
    ...given('subagentModelCap', options.subagentModelCap),
    ...given('settingSources', options.settingSources),
    hooks: options.hooks,
    mcpConfigs: options.mcpConfigs,
    strictMcpConfig: options.strictMcpConfig,
  };
}

/** --max-budget-usd on a model without a price: refused before anything runs (the editor says it at the first request). */
export function unkeptBudget(maxBudgetUsd: number | undefined, modelId: string, prices: Parameters<typeof hasPrice>[1]): string | undefined {
  if (maxBudgetUsd === undefined || hasPrice(modelId, prices)) return undefined;
  return `--max-budget-usd ${maxBudgetUsd} cannot be kept: the model ${modelId} has no price. Give it one in DELEGATE_PRICES ('{"${modelId}": {"input": 3, "output": 15}}', $ per million tokens) or use a Claude model id (claude-sonnet-5-5, claude-opus-5-5, claude-haiku-5-5)`;
}
