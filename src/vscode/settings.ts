/** The `delegate.*` settings, read into one typed object. */
import * as vscode from 'vscode';
import type { VscodeModelSetting } from './lm-catalog';
import { parseThinkingSetting, type ThinkingSetting, PERMISSION_MODES, type PermissionMode, SANDBOX_MODES, type SandboxMode } from '../core/vocabulary';
import { OVERRIDE_DEFAULTS, type SessionOverrides } from '../core/session';

export interface DelegateSettings {
  /** `delegate.model`; empty: the resolver's (DELEGATE_MODEL, else the default model). */
  model: string | undefined;
  baseUrl: string | undefined;
  permissionMode: PermissionMode;
  /** Tokens; undefined = from the model table. */
  contextWindow: number | undefined;
  /** Hold each finished subagent's result for Accept / Edit / Re-run before its parent sees it. */
  reviewSubagentResults: boolean;
  /** The longest wait before a retry the API may ask for (a 429's retry-after); longer ends the run. */
  maxRetryWaitMs: number;
  /** Variables commands get although they hold a credential (secrets/tool-env.ts withholds them otherwise). */
  toolEnv: string[];
  /** Where the model is: auto = anthropic when an API key is set, else the editor's language models. */
  provider: 'auto' | 'anthropic' | 'vscode';
  /** Which of the editor's language models (lm-catalog.ts); empty: the first that can call tools. */
  vscodeModel: VscodeModelSetting;
}

/*
 * No default here: a setting the user left alone has package.json's default, which test/core/settings/settings-doc.test.ts
 * holds to the core's (core/settings/defaults.ts); a value that cannot be used is left out, so the core's default applies.
 */
export function readSettings(): DelegateSettings {
  const c = vscode.workspace.getConfiguration('delegate');
  const mode = c.get<string>('permissionMode');
  const baseUrl = c.get<string>('baseUrl')?.trim() || process.env.ANTHROPIC_BASE_URL?.trim() || undefined;
  return {
    model: c.get<string>('model')?.trim() || undefined,
    baseUrl,
    permissionMode: mode !== undefined && (PERMISSION_MODES as readonly string[]).includes(mode) ? (mode as PermissionMode) : OVERRIDE_DEFAULTS.permissionMode,
    contextWindow: c.get<number>('contextWindow') || undefined,
    maxRetryWaitMs: Math.max(0, c.get<number>('maxRetryWaitSeconds') ?? OVERRIDE_DEFAULTS.maxRetryWait) * 1000,
    reviewSubagentResults: c.get<boolean>('reviewSubagentResults') === true,
    toolEnv: (c.get<unknown[]>('toolEnv') ?? []).filter((n): n is string => typeof n === 'string' && n.trim() !== '' && !n.includes('=')).map((n) => n.trim()),
    provider: (['anthropic', 'vscode'] as const).find((p) => p === c.get<string>('provider')) ?? 'auto',
    vscodeModel: modelSetting(c.get<unknown>('vscodeModel')),
  };
}

/** What the `delegate.*` settings set of a session, as the core's settings resolver takes it. */
export function sessionOverrides(settings: DelegateSettings): SessionOverrides {
  const c = vscode.workspace.getConfiguration('delegate');
  const sandbox = c.get<string>('sandbox');
  const webSearch = c.get<string>('webSearch');
  const threshold = c.get<number>('compactThreshold');
  const budget = c.get<number>('maxBudgetUsd') ?? 0;
  const prices = c.get<Record<string, unknown>>('prices') ?? {};
  const aliases = Object.fromEntries(Object.entries(c.get<Record<string, unknown>>('modelAliases') ?? {}).filter((kv): kv is [string, string] => typeof kv[1] === 'string' && kv[1].trim() !== ''));
  const number = (key: string, min: number): number | undefined => {
    const n = c.get<number>(key);
    return typeof n === 'number' && n >= min ? n : undefined;
  };
  const given = <K extends keyof SessionOverrides>(key: K, value: SessionOverrides[K] | undefined): Partial<SessionOverrides> => (value !== undefined ? { [key]: value } : {});
  return {
    ...given('model', settings.model),
    ...given('baseUrl', settings.baseUrl),
    ...given('thinking', thinkingSetting(c.get<unknown>('thinking'))),
    ...given('maxTokens', number('maxTokens', 1)),
    ...given('contextWindow', settings.contextWindow),
    // A threshold outside 0.3–0.95 would compact all the time, or never: held inside it.
    ...given('compactThreshold', typeof threshold === 'number' ? Math.min(0.95, Math.max(0.3, threshold)) : undefined),
    ...(Object.keys(aliases).length ? { modelAliases: aliases } : {}),
    maxRetryWait: settings.maxRetryWaitMs / 1000,
    permissionMode: settings.permissionMode,
    // A mistyped value must not turn the sandbox off: it is left out, and the default (auto) applies.
    ...given('sandbox', sandbox !== undefined && (SANDBOX_MODES as readonly string[]).includes(sandbox) ? (sandbox as SandboxMode) : undefined),
    allowNetwork: c.get<boolean>('allowNetwork') === true,
    toolEnv: settings.toolEnv,
    ...given('webSearch', webSearch === 'auto' || webSearch === 'on' || webSearch === 'off' ? webSearch : undefined),
    ...given('bashTimeout', number('bashTimeoutSeconds', 1)),
    ...given('maxTurns', number('maxTurns', 1)),
    ...given('subagentMaxTurns', number('subagentMaxTurns', 1)),
    ...given('maxParallel', number('maxParallelSubagents', 1)),
    ...given('maxDepth', number('maxDepth', 0)),
    // 0: no budget.
    ...given('subagentMaxTokens', number('subagentTokenBudget', 1)),
    ...given('subagentTimeout', number('subagentTimeoutSeconds', 1)),
    ...(budget > 0 ? { maxBudgetUsd: budget } : {}),
    ...(Object.keys(prices).length ? { prices } : {}),
  };
}

/** `delegate.thinking` (a string: the settings UI edits it as text); a value that does not parse is left out (the default, auto). */
function thinkingSetting(value: unknown): ThinkingSetting | undefined {
  if (value === undefined) return undefined;
  const parsed = parseThinkingSetting(value);
  return typeof parsed === 'object' ? undefined : parsed;
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
