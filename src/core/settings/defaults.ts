/**
 * Every setting's default, in one place: the resolver (resolve-settings.ts) fills them in for the hosts, createSession
 * falls back on them for a hand-built config (tests, the bench), and the settings table in docs/development.md
 * shows them (settings-doc.ts). Constants that belong to a mechanism stay there and are named here.
 */
import { DEFAULT_LIMITS } from '../loop/limits';
import { DEFAULT_COMPACT_THRESHOLD } from '../loop/context-size';
import { DEFAULT_MAX_RETRY_WAIT_MS } from '../llm/retry-wait';
import { DEFAULT_SANDBOX } from '../sandbox/types';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS } from '../mcp/mcp-manager';
import type { IsolationMode, PermissionMode, ThinkingSetting } from '../vocabulary';

export const SESSION_DEFAULTS = {
  /** The model when neither a flag, a setting nor DELEGATE_MODEL names one. */
  model: 'claude-sonnet-5-5',
  thinking: 'auto' as ThinkingSetting,
  compactThreshold: DEFAULT_COMPACT_THRESHOLD,
  maxRetryWaitMs: DEFAULT_MAX_RETRY_WAIT_MS,
  permissionMode: 'default' as PermissionMode,
  bashTimeoutMs: 120_000,
  sandbox: DEFAULT_SANDBOX,
  /** auto: on with Anthropic's own API, off with another endpoint (ANTHROPIC_BASE_URL) or another kind of model. */
  webSearch: 'auto' as const,
  limits: DEFAULT_LIMITS,
  /** shared until worktrees are measured against it (docs/isolation.md). */
  isolation: 'shared' as IsolationMode,
} as const;

/**
 * The same defaults in the units the hosts give them (seconds, the modes' words), by SessionOverrides' keys: what
 * the settings table in docs/settings.md says, and what package.json's `delegate.*` defaults are held to
 * (test/core/settings/settings-doc.test.ts). A key missing here has no value by default (from the model, none…).
 */
export const OVERRIDE_DEFAULTS = {
  model: SESSION_DEFAULTS.model,
  thinking: SESSION_DEFAULTS.thinking,
  compactThreshold: SESSION_DEFAULTS.compactThreshold,
  maxRetryWait: SESSION_DEFAULTS.maxRetryWaitMs / 1000,
  permissionMode: SESSION_DEFAULTS.permissionMode,
  sandbox: SESSION_DEFAULTS.sandbox.mode,
  allowNetwork: SESSION_DEFAULTS.sandbox.allowNetwork,
  webSearch: SESSION_DEFAULTS.webSearch,
  isolation: SESSION_DEFAULTS.isolation,
  bashTimeout: SESSION_DEFAULTS.bashTimeoutMs / 1000,
  maxTurns: SESSION_DEFAULTS.limits.maxTurns,
  subagentMaxTurns: SESSION_DEFAULTS.limits.subagentMaxTurns,
  maxParallel: SESSION_DEFAULTS.limits.maxParallel,
  maxDepth: SESSION_DEFAULTS.limits.maxDepth,
  subagentModelCap: 'session',
  /** Milliseconds, as MCP_TIMEOUT and MCP_TOOL_TIMEOUT take them (mcp-manager.ts's). */
  mcpTimeout: DEFAULT_CONNECT_TIMEOUT_MS,
  mcpToolTimeout: DEFAULT_TOOL_TIMEOUT_MS,
} as const;
