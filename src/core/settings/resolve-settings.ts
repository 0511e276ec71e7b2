/**
 * The one settings resolver: every host (the CLI — and the Action through it —, `delegate acp`, the editor) hands
 * in only what its user set (its flags, its `delegate.*` settings, an ACP client's servers) as SessionOverrides;
 * the environment and the defaults are read here, the same way for all of them.
 *
 *   overrides (a host's flags / settings) ─┐  a key set wins
 *   env (DELEGATE_*, ANTHROPIC_BASE_URL…) ──┼─▶ resolveSettingValues ─▶ model id, aliases, window, prices, retry cap
 *   settings/defaults.ts ──────────────────┘        │                  (a bad variable: one line naming it)
 *   cwd, home, trusted ─▶ the folder's files (hooks, AGENTS.md…), MCP configs ─▶ resolveSessionConfig
 *                                                          └─▶ SessionConfig's data groups + the API's settings
 *
 * What stays the host's: its ports (model access, approver, questions, review, fan-out card, folder trust), where
 * a session goes on from (resume), and how it says a line (`notes`, `error`).
 */
import { homedir } from 'node:os';
import { parsePrices, type ModelPrice } from '../loop/budget';
import { thinkingNote } from '../llm/thinking';
import type { RetryWaitCap } from '../llm/retry-wait';
import type { McpServerGate } from './mcp-gate';
import { ToolEnv } from '../secrets/tool-env';
import { defaultTranscriptRoot } from '../store/transcript-store';
import { OVERRIDE_DEFAULTS, SESSION_DEFAULTS } from './defaults';
import { loadSessionMcp } from './mcp-settings';
import type { FileSettings, IsolationSettings, LimitSettings, ModelSettings, PermissionSettings, ToolSettings } from './session-settings';
import { settingName, type SessionOverrides, type SettingHost } from './setting-table';
import { loadWorkspaceFiles } from './workspace-files';
import { loadSkillCatalog } from '../skills/skill-catalog';

type Env = Readonly<Record<string, string | undefined>>;

/** What a setting's value comes to before any file is read: checked, so a bad variable stops a host at its start. */
export interface SettingValues {
  modelId: string;
  /** The Messages API's endpoint when not Anthropic's (a flag/setting, else ANTHROPIC_BASE_URL). */
  baseUrl?: string;
  /** ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN, trimmed; empty when neither is set. */
  credentials: { apiKey?: string; authToken?: string };
  /** The longest retry-after waited for, and the setting that raises it, as this host names it. */
  retryWait: RetryWaitCap;
  aliases?: Record<string, string>;
  contextWindow?: number;
  prices?: Record<string, ModelPrice>;
}

/** The model, the endpoint, the key, the retry cap and the prices: the one line naming a bad variable otherwise. */
export function resolveSettingValues(env: Env, overrides: SessionOverrides, host: SettingHost): SettingValues | { error: string } {
  const apiKey = env.ANTHROPIC_API_KEY?.trim();
  const authToken = env.ANTHROPIC_AUTH_TOKEN?.trim();
  const baseUrl = overrides.baseUrl?.trim() || env.ANTHROPIC_BASE_URL?.trim() || undefined;
  const contextWindow = overrides.contextWindow ?? envInteger(env.DELEGATE_CONTEXT_WINDOW, 1000);
  if (contextWindow === null) return { error: `DELEGATE_CONTEXT_WINDOW must be an integer ≥ 1000 (got "${env.DELEGATE_CONTEXT_WINDOW}")` };
  const envWait = envInteger(env.DELEGATE_MAX_RETRY_WAIT, 0);
  if (envWait === null) return { error: `DELEGATE_MAX_RETRY_WAIT must be a whole number of seconds ≥ 0 (got "${env.DELEGATE_MAX_RETRY_WAIT?.trim()}")` };
  const retryWait =
    overrides.maxRetryWait !== undefined ? { maxMs: overrides.maxRetryWait * 1000, setting: settingName('maxRetryWait', host) }
    : envWait !== undefined ? { maxMs: envWait * 1000, setting: 'DELEGATE_MAX_RETRY_WAIT' }
    : { maxMs: SESSION_DEFAULTS.maxRetryWaitMs, setting: settingName('maxRetryWait', host) };
  const priced = resolvePrices(env, overrides, host);
  if ('error' in priced) return priced;
  const { prices } = priced;
  const aliasText = env.DELEGATE_MODEL_ALIASES;
  const aliases = overrides.modelAliases ?? (aliasText ? parseAliases(aliasText) : undefined);
  return {
    modelId: modelIdOf(overrides.model, env),
    ...(baseUrl ? { baseUrl } : {}),
    credentials: { ...(apiKey ? { apiKey } : {}), ...(authToken ? { authToken } : {}) },
    retryWait,
    ...(aliases && Object.keys(aliases).length ? { aliases } : {}),
    ...(contextWindow !== undefined ? { contextWindow } : {}),
    ...(prices ? { prices } : {}),
  };
}

/** The model a host's setting names, else DELEGATE_MODEL, else the default (the editor asks it before a session). */
export function modelIdOf(model: string | undefined, env: Env): string {
  return model?.trim() || env.DELEGATE_MODEL?.trim() || SESSION_DEFAULTS.model;
}

export interface ResolveInput {
  /** The session's folder. */
  cwd: string;
  env: Env;
  /** What the host's user set; a key left out takes its variable, else its default. */
  overrides: SessionOverrides;
  /** False (an untrusted editor workspace): agents are read-only, the folder's hooks and agent files wait. */
  trusted: boolean;
  /** How the host names its settings in a line (retry cap, --tool-env notes). */
  host: SettingHost;
  /** Default: the user's home. */
  home?: string;
  /** Credentials' values commands never see (the editor's stored key); default: the env's Anthropic key and token. */
  secrets?: () => readonly string[];
  /** How the model is reached: `other` (the editor's language models) has no server-side web search. */
  provider?: 'anthropic' | 'other';
  /** The host approves each of the workspace's MCP servers (the editor: mcp-gate.ts); otherwise the folder's .mcp.json and mcpConfigs start as configured. */
  mcpGate?: McpServerGate;
}

/** SessionConfig's data (core/session/session-config.ts adds where the transcript goes on from, and the ports). */
export interface ResolvedSession {
  workdir: string;
  model: ModelSettings;
  permissions: PermissionSettings;
  tools: ToolSettings;
  limits: LimitSettings;
  files: FileSettings;
  isolation: IsolationSettings;
  transcriptRoot: string;
  /** What the host's model access is built from (the CLI's and ACP's Anthropic client). */
  api: Pick<SettingValues, 'baseUrl' | 'credentials' | 'retryWait'>;
  /** Lines for the user, said by the host its own way: a --tool-env name not set, a thinking setting not sent. */
  notes: string[];
}

export async function resolveSessionConfig(input: ResolveInput): Promise<ResolvedSession | { error: string }> {
  const { cwd, env, overrides: o, trusted, host } = input;
  const values = resolveSettingValues(env, o, host);
  if ('error' in values) return values;
  const home = input.home ?? homedir();
  const fromEnv = Object.values(values.credentials);
  // What bash, hooks and MCP servers get: this environment less the credentials, plus what the user named.
  const toolEnv = new ToolEnv({ pass: o.toolEnv ?? [], secrets: input.secrets ?? (() => fromEnv), source: () => ({ ...env }) });
  const [workspaceFiles, mcp, skills] = await Promise.all([
    loadWorkspaceFiles({ workdir: cwd, home, trusted, ...(o.settingSources ? { sources: o.settingSources } : {}), ...(o.hooks !== undefined ? { hooks: o.hooks } : {}) }),
    loadSessionMcp({ cwd, home, env, toolEnv, overrides: o, ...(input.mcpGate ? { gate: input.mcpGate } : {}) }),
    // Skills as agent files: the user's always, the folder's only where it is trusted.
    loadSkillCatalog({ workdir: cwd, home, includeProject: trusted }),
  ]);
  const webSearch = o.webSearch ?? SESSION_DEFAULTS.webSearch;
  const notes = [
    ...(o.toolEnv ?? []).filter((name) => env[name] === undefined).map((name) => `${settingName('toolEnv', host)} ${name}: not set in the environment, nothing to pass`),
    ...[thinkingNote(values.modelId, o.thinking)].filter((n): n is string => n !== undefined),
  ];
  return {
    workdir: cwd,
    model: {
      id: values.modelId,
      ...(o.thinking !== undefined ? { thinking: o.thinking } : {}),
      ...(o.maxTokens !== undefined ? { maxTokens: o.maxTokens } : {}),
      ...(values.aliases ? { aliases: values.aliases } : {}),
      ...(values.contextWindow !== undefined ? { contextWindow: values.contextWindow } : {}),
      ...(o.compactThreshold !== undefined ? { compactThreshold: o.compactThreshold } : {}),
    },
    permissions: { mode: o.permissionMode ?? SESSION_DEFAULTS.permissionMode, trusted, allowedTools: o.allowedTools ?? [], disallowedTools: o.disallowedTools ?? [] },
    tools: {
      sandbox: { mode: o.sandbox ?? SESSION_DEFAULTS.sandbox.mode, allowNetwork: o.allowNetwork ?? SESSION_DEFAULTS.sandbox.allowNetwork },
      env: toolEnv,
      ...(mcp ? { mcp } : {}),
      // auto: Anthropic's own API only (another endpoint may not run the server-side tool); never another kind of model.
      webSearch: input.provider !== 'other' && (webSearch === 'on' || (webSearch === 'auto' && !values.baseUrl)),
      ...(o.bashTimeout !== undefined ? { bashTimeoutMs: o.bashTimeout * 1000 } : {}),
    },
    limits: limitSettings(o, values.prices, env, host),
    isolation: { mode: o.isolation ?? SESSION_DEFAULTS.isolation, ...(o.landCheck?.trim() ? { landCheck: o.landCheck.trim() } : {}) },
    // Agent files: the user's always; the folder's only where it is trusted.
    files: { ...workspaceFiles, agentFiles: { home, includeProject: trusted }, ...(skills.skills.size || skills.problems.length ? { skills } : {}) },
    transcriptRoot: o.transcriptRoot ?? defaultTranscriptRoot({ ...env }, home),
    api: { ...(values.baseUrl ? { baseUrl: values.baseUrl } : {}), credentials: values.credentials, retryWait: values.retryWait },
    notes,
  };
}

function limitSettings(o: SessionOverrides, prices: Record<string, ModelPrice> | undefined, env: Env, host: SettingHost): LimitSettings {
  // A task call's own model is held to this (delegation/model-cap.ts); the refusal names how the user set it.
  const given = o.subagentModelCap?.trim();
  const fromEnv = env.DELEGATE_SUBAGENT_MODEL_CAP?.trim();
  const cap = given ? { cap: given, setting: settingName('subagentModelCap', host) } : fromEnv ? { cap: fromEnv, setting: 'DELEGATE_SUBAGENT_MODEL_CAP' } : { cap: OVERRIDE_DEFAULTS.subagentModelCap, setting: settingName('subagentModelCap', host) };
  const budget = { ...(o.subagentMaxTokens !== undefined ? { tokens: o.subagentMaxTokens } : {}), ...(o.subagentTimeout !== undefined ? { seconds: o.subagentTimeout } : {}) };
  return {
    ...(o.maxTurns !== undefined ? { maxTurns: o.maxTurns } : {}),
    ...(o.subagentMaxTurns !== undefined ? { subagentMaxTurns: o.subagentMaxTurns } : {}),
    ...(o.maxParallel !== undefined ? { maxParallel: o.maxParallel } : {}),
    ...(o.maxDepth !== undefined ? { maxDepth: o.maxDepth } : {}),
    ...(Object.keys(budget).length ? { subagentBudget: budget } : {}),
    ...(o.maxBudgetUsd !== undefined ? { maxBudgetUsd: o.maxBudgetUsd } : {}),
    ...(prices ? { prices } : {}),
    subagentModelCap: cap,
  };
}

/** The host's prices (the editor's delegate.prices), else DELEGATE_PRICES: checked the same way either way. */
function resolvePrices(env: Env, overrides: SessionOverrides, host: SettingHost): { prices?: Record<string, ModelPrice> } | { error: string } {
  const given = overrides.prices !== undefined;
  const text = given ? JSON.stringify(overrides.prices) : env.DELEGATE_PRICES?.trim();
  if (!text) return {};
  const parsed = parsePrices(text);
  // parsePrices' error is a string, a model's price an object: a model named "error" is still a price.
  return typeof parsed.error === 'string' ? { error: `${given ? settingName('prices', host) : 'DELEGATE_PRICES'}: ${parsed.error}` } : { prices: parsed as Record<string, ModelPrice> };
}

/** DELEGATE_MODEL_ALIASES="sonnet=claude-sonnet-5-5,opus=…": agent definitions' `model` aliases. */
function parseAliases(raw: string): Record<string, string> {
  return Object.fromEntries(
    raw
      .split(',')
      .map((pair) => pair.split('=').map((s) => s.trim()))
      .filter((kv): kv is [string, string] => kv.length === 2 && kv[0] !== '' && kv[1] !== ''),
  );
}

/** An integer ≥ min, undefined when unset, null when it is not one. */
function envInteger(raw: string | undefined, min: number): number | undefined | null {
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isInteger(n) && n >= min ? n : null;
}
