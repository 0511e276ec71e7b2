/** The `delegate.*` settings, read into one typed object. */
import * as vscode from 'vscode';
import type { VscodeModelSetting } from './lm-catalog';
import { parseThinkingSetting, type ThinkingSetting, PERMISSION_MODES, type PermissionMode, SANDBOX_MODES, type SandboxMode } from '../core/vocabulary';
import type { RunLimits, SandboxSettings } from '../core/session';

export interface DelegateSettings {
  model: string;
  baseUrl: string | undefined;
  permissionMode: PermissionMode;
  limits: Partial<RunLimits>;
  bashTimeoutMs: number;
  sandbox: SandboxSettings;
  /** Tokens; undefined = from the model table. */
  contextWindow: number | undefined;
  /** Extended thinking with Anthropic's API (the editor's Language Model API has no thinking control). */
  thinking: ThinkingSetting;
  /** max_tokens of each request; undefined = from the model family. */
  maxTokens: number | undefined;
  compactThreshold: number;
  /** Hold each finished subagent's result for Accept / Edit / Re-run before its parent sees it. */
  reviewSubagentResults: boolean;
  /** The whole run's cap in dollars (0: none). */
  maxBudgetUsd: number;
  /** The longest wait before a retry the API may ask for (a 429's retry-after); longer ends the run. */
  maxRetryWaitMs: number;
  /** $ per million tokens by model family, over the built-in table. */
  prices: Record<string, { input: number; output: number; cacheRead: number; cacheWrite: number }>;
  /** Offer the Messages API's web search (auto: with Anthropic's own API only). */
  webSearch: boolean;
  /** Agent definitions' `model: sonnet|opus|haiku` → model ids (over the built-in table). */
  modelAliases: Record<string, string>;
  /** Variables commands get although they hold a credential (secrets/tool-env.ts withholds them otherwise). */
  toolEnv: string[];
  /** Where the model is: auto = anthropic when an API key is set, else the editor's language models. */
  provider: 'auto' | 'anthropic' | 'vscode';
  /** Which of the editor's language models (lm-catalog.ts); empty: the first that can call tools. */
  vscodeModel: VscodeModelSetting;
}

export function readSettings(): DelegateSettings {
  const c = vscode.workspace.getConfiguration('delegate');
  const mode = c.get<string>('permissionMode', 'default');
  const sandbox = c.get<string>('sandbox', 'auto');
  const baseUrl = c.get<string>('baseUrl', '').trim() || process.env.ANTHROPIC_BASE_URL?.trim() || undefined;
  return {
    model: c.get<string>('model', 'claude-sonnet-5-5').trim() || 'claude-sonnet-5-5',
    baseUrl,
    permissionMode: (PERMISSION_MODES as readonly string[]).includes(mode) ? (mode as PermissionMode) : 'default',
    limits: {
      maxTurns: c.get<number>('maxTurns', 50),
      subagentMaxTurns: c.get<number>('subagentMaxTurns', 30),
      maxParallel: c.get<number>('maxParallelSubagents', 4),
      maxDepth: c.get<number>('maxDepth', 1),
      ...subagentBudget(c),
    },
    bashTimeoutMs: c.get<number>('bashTimeoutSeconds', 120) * 1000,
    sandbox: {
      // A mistyped value must not turn the sandbox off: it means the default, auto.
      mode: (SANDBOX_MODES as readonly string[]).includes(sandbox) ? (sandbox as SandboxMode) : 'auto',
      allowNetwork: c.get<boolean>('allowNetwork', false) === true,
    },
    contextWindow: c.get<number>('contextWindow', 0) || undefined,
    thinking: thinkingSetting(c.get<unknown>('thinking', 'auto')),
    maxTokens: c.get<number>('maxTokens', 0) || undefined,
    compactThreshold: Math.min(0.95, Math.max(0.3, c.get<number>('compactThreshold', 0.8))),
    maxBudgetUsd: Math.max(0, c.get<number>('maxBudgetUsd', 0)),
    maxRetryWaitMs: Math.max(0, c.get<number>('maxRetryWaitSeconds', 60)) * 1000,
    reviewSubagentResults: c.get<boolean>('reviewSubagentResults', false),
    prices: c.get<DelegateSettings['prices']>('prices', {}) ?? {},
    webSearch: c.get<string>('webSearch', 'auto') === 'on' || (c.get<string>('webSearch', 'auto') === 'auto' && !baseUrl),
    toolEnv: (c.get<unknown[]>('toolEnv', []) ?? []).filter((n): n is string => typeof n === 'string' && n.trim() !== '' && !n.includes('=')).map((n) => n.trim()),
    provider: (['anthropic', 'vscode'] as const).find((p) => p === c.get<string>('provider', 'auto')) ?? 'auto',
    vscodeModel: modelSetting(c.get<unknown>('vscodeModel', {})),
    modelAliases: Object.fromEntries(Object.entries(c.get<Record<string, unknown>>('modelAliases', {}) ?? {}).filter((kv): kv is [string, string] => typeof kv[1] === 'string' && kv[1].trim() !== '')),
  };
}

/** `delegate.thinking` (a string: the settings UI edits it as text); a value that does not parse means auto. */
function thinkingSetting(value: unknown): ThinkingSetting {
  const parsed = parseThinkingSetting(value);
  return typeof parsed === 'object' ? 'auto' : parsed;
}

/** Only the string fields of `delegate.vscodeModel`; anything else in it is ignored. */
function modelSetting(value: unknown): VscodeModelSetting {
  if (typeof value !== 'object' || value === null) return {};
  const v = value as Record<string, unknown>;
  const out: VscodeModelSetting = {};
  for (const key of ['vendor', 'family', 'id'] as const) {
    const field = v[key];
    if (typeof field === 'string' && field.trim()) out[key] = field.trim();
  }
  return out;
}

/** delegate.subagentTokenBudget / subagentTimeoutSeconds (0: none) as the limits' default subagent budget. */
function subagentBudget(c: vscode.WorkspaceConfiguration): { subagentBudget?: { tokens?: number; seconds?: number } } {
  const tokens = c.get<number>('subagentTokenBudget', 0);
  const seconds = c.get<number>('subagentTimeoutSeconds', 0);
  if (!(tokens > 0) && !(seconds > 0)) return {};
  return { subagentBudget: { ...(tokens > 0 ? { tokens } : {}), ...(seconds > 0 ? { seconds } : {}) } };
}
