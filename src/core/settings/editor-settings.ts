/**
 * The editor's `delegate.*` settings, parsed by the core: the editor hands a reader (`get(key)` over its
 * configuration) and gets the SessionOverrides the resolver takes. The keys are the table's (setting-table.ts,
 * `editor`), so the editor holds no second list of names and no second parse.
 *
 *   vscode.workspace.getConfiguration().get ─▶ editorSettings(get) ─▶ EditorSettings ─▶ resolveSessionConfig
 *
 * No default here beyond the two the editor uses before a session exists (the mode, the retry cap): a setting the
 * user left alone has package.json's default, which test/core/settings/settings-doc.test.ts holds to the core's
 * (defaults.ts); a value that cannot be used is left out, so the core's default applies.
 */
import { FANOUT_RULES, type FanoutRule } from '../delegation/fanout-review';
import { OVERRIDE_DEFAULTS } from './defaults';
import { SETTINGS, type SessionOverrides } from './setting-table';
import { parseThinkingSetting, PERMISSION_MODES, SANDBOX_MODES, type PermissionMode, type SandboxMode } from '../vocabulary';

/** What the editor's settings set: the overrides, with the mode and the retry cap always there. */
export interface EditorSettings extends SessionOverrides {
  permissionMode: PermissionMode;
  /** Seconds. */
  maxRetryWait: number;
}

/** The editor's configuration by full key (`delegate.maxTurns`); undefined when unset. */
export type SettingReader = (key: string) => unknown;

export function editorSettings(get: SettingReader): EditorSettings {
  const read = (key: keyof SessionOverrides): unknown => {
    const name = SETTINGS[key].editor;
    return name?.startsWith('delegate.') ? get(name) : undefined;
  };
  const text = (key: keyof SessionOverrides): string | undefined => {
    const v = read(key);
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  };
  const number = (key: keyof SessionOverrides, min: number): number | undefined => {
    const n = read(key);
    return typeof n === 'number' && n >= min ? n : undefined;
  };
  const given = <K extends keyof SessionOverrides>(key: K, value: SessionOverrides[K] | undefined): Partial<SessionOverrides> => (value !== undefined ? { [key]: value } : {});
  const mode = read('permissionMode');
  const sandbox = read('sandbox');
  const webSearch = read('webSearch');
  const threshold = read('compactThreshold');
  const retryWait = read('maxRetryWait');
  const budget = read('maxBudgetUsd');
  const prices = read('prices');
  const aliases = Object.fromEntries(Object.entries(record(read('modelAliases'))).filter((kv): kv is [string, string] => typeof kv[1] === 'string' && kv[1].trim() !== ''));
  const toolEnv = Array.isArray(read('toolEnv')) ? (read('toolEnv') as unknown[]) : [];
  return {
    ...given('model', text('model')),
    ...given('baseUrl', text('baseUrl')),
    ...given('thinking', thinkingSetting(read('thinking'))),
    ...given('maxTokens', number('maxTokens', 1)),
    ...given('contextWindow', number('contextWindow', 1)),
    // A threshold outside 0.3–0.95 would compact all the time, or never: held inside it.
    ...given('compactThreshold', typeof threshold === 'number' ? Math.min(0.95, Math.max(0.3, threshold)) : undefined),
    ...(Object.keys(aliases).length ? { modelAliases: aliases } : {}),
    maxRetryWait: Math.max(0, typeof retryWait === 'number' ? retryWait : OVERRIDE_DEFAULTS.maxRetryWait),
    permissionMode: typeof mode === 'string' && PERMISSION_MODES.includes(mode as PermissionMode) ? (mode as PermissionMode) : OVERRIDE_DEFAULTS.permissionMode,
    // A mistyped value must not turn the sandbox off: it is left out, and the default (auto) applies.
    ...given('sandbox', typeof sandbox === 'string' && SANDBOX_MODES.includes(sandbox as SandboxMode) ? (sandbox as SandboxMode) : undefined),
    allowNetwork: read('allowNetwork') === true,
    toolEnv: toolEnv.filter((n): n is string => typeof n === 'string' && n.trim() !== '' && !n.includes('=')).map((n) => n.trim()),
    ...given('isolation', read('isolation') === 'worktree' || read('isolation') === 'shared' ? (read('isolation') as 'worktree' | 'shared') : undefined),
    ...given('landCheck', text('landCheck')),
    ...given('webSearch', webSearch === 'auto' || webSearch === 'on' || webSearch === 'off' ? webSearch : undefined),
    ...given('bashTimeout', number('bashTimeout', 1)),
    ...given('maxTurns', number('maxTurns', 1)),
    ...given('subagentMaxTurns', number('subagentMaxTurns', 1)),
    ...given('maxParallel', number('maxParallel', 1)),
    ...given('maxDepth', number('maxDepth', 0)),
    // 0: no budget.
    ...given('subagentMaxTokens', number('subagentMaxTokens', 1)),
    ...given('subagentTimeout', number('subagentTimeout', 1)),
    ...(typeof budget === 'number' && budget > 0 ? { maxBudgetUsd: budget } : {}),
    ...given('subagentModelCap', text('subagentModelCap')),
    // Checked by the resolver (a mistyped one is a clear error), as DELEGATE_PRICES.
    ...(typeof prices === 'object' && prices !== null && Object.keys(prices).length ? { prices } : {}),
  };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `delegate.thinking` (a string: the settings UI edits it as text); a value that does not parse is left out (the default, auto). */
function thinkingSetting(value: unknown): SessionOverrides['thinking'] {
  if (value === undefined) return undefined;
  const parsed = parseThinkingSetting(value);
  return typeof parsed === 'object' ? undefined : parsed;
}

/** The fan-out card's two settings, read at each fan-out (the session's ports.fanout). */
export interface EditorFanoutSettings {
  /** `delegate.confirmFanout`; a mistyped value means the default, auto. */
  rule: FanoutRule;
  /** `delegate.confirmAboveUsd`: 0 or less is off. */
  confirmAboveUsd: number | undefined;
}

export function editorFanoutSettings(get: SettingReader): EditorFanoutSettings {
  const rule = get('delegate.confirmFanout');
  const above = get('delegate.confirmAboveUsd');
  return {
    rule: typeof rule === 'string' && FANOUT_RULES.includes(rule as FanoutRule) ? (rule as FanoutRule) : 'auto',
    confirmAboveUsd: typeof above === 'number' && above > 0 ? above : undefined,
  };
}
