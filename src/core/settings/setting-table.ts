/**
 * Every setting a session takes, by the names each host gives it: the CLI's flag (which `delegate acp` takes too
 * unless `acp` says otherwise), the environment variable, the editor's `delegate.*` setting, the ACP request that
 * carries it, the Action's input.
 *
 *   a host's flags / delegate.* settings / ACP params ─▶ SessionOverrides ─┐
 *   DELEGATE_*, ANTHROPIC_BASE_URL, MCP_*, XDG_DATA_HOME ─────────────────┼─▶ resolveSessionConfig ─▶ SessionConfig
 *   settings/defaults.ts ─────────────────────────────────────────────────┘
 *
 * Only names and types here. The table in docs/settings.md is made from it (settings-doc.ts; a test holds the doc,
 * `--help`, package.json and action.yml to it), and `SETTINGS` must have a row for every key of SessionOverrides,
 * so a new setting cannot be added without its names.
 */
import type { McpServerConfig } from '../mcp/config';
import type { IsolationMode, PermissionMode, SandboxMode, SettingSource, ThinkingSetting } from '../vocabulary';

/** What a host hands the resolver, already parsed; a key left out takes its variable, else its default. */
export interface SessionOverrides {
  model?: string;
  /** The Messages API's endpoint (another than Anthropic's: a proxy, a gateway). */
  baseUrl?: string;
  thinking?: ThinkingSetting;
  maxTokens?: number;
  contextWindow?: number;
  /** The share of the window at which compaction starts (0.3–0.95). */
  compactThreshold?: number;
  modelAliases?: Record<string, string>;
  /** Seconds: the longest retry-after waited for (a 429's, a 529's); a longer one ends the run. */
  maxRetryWait?: number;
  permissionMode?: PermissionMode;
  allowedTools?: string[];
  disallowedTools?: string[];
  sandbox?: SandboxMode;
  allowNetwork?: boolean;
  toolEnv?: string[];
  webSearch?: 'auto' | 'on' | 'off';
  /** Seconds: a bash command's timeout when the agent names none. */
  bashTimeout?: number;
  maxTurns?: number;
  subagentMaxTurns?: number;
  maxParallel?: number;
  maxDepth?: number;
  subagentMaxTokens?: number;
  /** Seconds of wall time per subagent. */
  subagentTimeout?: number;
  maxBudgetUsd?: number;
  /** The dearest model a task call's own `model` may name: `session` (its model), `none`, or an alias or id. */
  subagentModelCap?: string;
  /** $ per million tokens by model id or prefix, as the user wrote them (checked like DELEGATE_PRICES). */
  prices?: unknown;
  settingSources?: SettingSource[];
  /** False: no settings-file hooks at all. */
  hooks?: boolean;
  /** MCP config files (or inline JSON), after the folder's `.mcp.json`. */
  mcpConfigs?: string[];
  /** Only `mcpConfigs` (and the client's servers): the folder's `.mcp.json` is not read. */
  strictMcpConfig?: boolean;
  /** Servers the host was handed (an ACP client's): they win over the folder's of the same name. */
  mcpServers?: McpServerConfig[];
  /** Milliseconds an MCP server may take to start, and a call of its tools. */
  mcpTimeout?: number;
  mcpToolTimeout?: number;
  /** Where transcripts are kept (the editor's own storage; else the XDG data folder). */
  transcriptRoot?: string;
  /** Where a subagent works unless its call or agent file says: its own git worktree, or the shared folder. */
  isolation?: IsolationMode;
  /** The command run on isolated subagents' combined changes (a scratch worktree) before any lands. */
  landCheck?: string;
}

/** Who names a setting in a line: the CLI (and the Action, which runs it), `delegate acp`, the editor. */
export type SettingHost = 'cli' | 'acp' | 'editor';

export interface SettingRow {
  /** The CLI's flag; `delegate acp` takes the same unless `acp` says otherwise. */
  flag?: string;
  env?: string;
  /** The editor's setting. */
  editor?: string;
  /** How an ACP client sets it, when not by the flag (`false`: `delegate acp` has no such flag; its variable still applies). */
  acp?: string | false;
  /** The GitHub Action's input (it becomes the flag, or the variable). */
  action?: string;
  about: string;
}

export const SETTINGS: { readonly [K in keyof Required<SessionOverrides>]: SettingRow } = {
  model: { flag: '--model', env: 'DELEGATE_MODEL', editor: 'delegate.model', acp: '--model, then the model picker (session/set_config_option)', action: 'model', about: 'the model' },
  baseUrl: { env: 'ANTHROPIC_BASE_URL', editor: 'delegate.baseUrl', action: 'base-url', about: "the Messages API's endpoint" },
  thinking: { flag: '--thinking', acp: false, editor: 'delegate.thinking', about: 'extended thinking: off, low, medium, high or a budget in tokens' },
  maxTokens: { flag: '--max-tokens', acp: false, editor: 'delegate.maxTokens', about: 'max_tokens of each request' },
  contextWindow: { flag: '--context-window', acp: false, env: 'DELEGATE_CONTEXT_WINDOW', editor: 'delegate.contextWindow', about: "the model's context window in tokens" },
  compactThreshold: { editor: 'delegate.compactThreshold', about: 'the share of the window at which compaction starts' },
  modelAliases: { env: 'DELEGATE_MODEL_ALIASES', editor: 'delegate.modelAliases', about: "agent files' model: sonnet / opus / haiku → model ids" },
  maxRetryWait: { flag: '--max-retry-wait', acp: false, env: 'DELEGATE_MAX_RETRY_WAIT', editor: 'delegate.maxRetryWaitSeconds', about: 'the longest retry-after waited for, in seconds' },
  permissionMode: { flag: '--permission-mode', editor: 'delegate.permissionMode', acp: '--permission-mode, then the mode picker (session/set_mode, set_config_option)', action: 'permission-mode', about: 'default, acceptEdits, plan or bypassPermissions' },
  allowedTools: { flag: '--allowed-tools', acp: false, action: 'allowed-tools', about: 'tools whose calls are not asked about' },
  disallowedTools: { flag: '--disallowed-tools', acp: false, about: 'tools refused and not offered' },
  sandbox: { flag: '--sandbox', acp: false, editor: 'delegate.sandbox', about: "bash's confinement: auto, on or off" },
  allowNetwork: { flag: '--allow-network', acp: false, editor: 'delegate.allowNetwork', about: 'sandboxed commands get the network' },
  toolEnv: { flag: '--tool-env', editor: 'delegate.toolEnv', action: 'tool-env', about: 'variables commands get although they hold a credential' },
  webSearch: { flag: '--web-search', acp: false, editor: 'delegate.webSearch', about: "the Messages API's web search: auto, on or off" },
  bashTimeout: { editor: 'delegate.bashTimeoutSeconds', acp: false, about: "a bash command's timeout in seconds when the agent names none" },
  maxTurns: { flag: '--max-turns', acp: false, editor: 'delegate.maxTurns', action: 'max-turns', about: 'turn cap of the main agent' },
  subagentMaxTurns: { flag: '--subagent-max-turns', acp: false, editor: 'delegate.subagentMaxTurns', about: 'turn cap of each subagent' },
  maxParallel: { flag: '--max-parallel', acp: false, editor: 'delegate.maxParallelSubagents', about: 'task calls run at once' },
  maxDepth: { flag: '--max-depth', acp: false, editor: 'delegate.maxDepth', about: 'nesting depth of subagents' },
  subagentMaxTokens: { flag: '--subagent-max-tokens', acp: false, editor: 'delegate.subagentTokenBudget', action: 'subagent-max-tokens', about: "each subagent's token budget" },
  subagentTimeout: { flag: '--subagent-timeout', acp: false, editor: 'delegate.subagentTimeoutSeconds', about: "each subagent's wall-clock budget in seconds" },
  maxBudgetUsd: { flag: '--max-budget-usd', acp: false, editor: 'delegate.maxBudgetUsd', action: 'max-budget-usd', about: "the whole run's budget in dollars" },
  subagentModelCap: { flag: '--subagent-model-cap', acp: false, env: 'DELEGATE_SUBAGENT_MODEL_CAP', editor: 'delegate.subagentModelCap', about: "the dearest model a task call may pick for its subagent: session (the session's model), none, or an alias or id" },
  prices: { env: 'DELEGATE_PRICES', editor: 'delegate.prices', about: '$ per million tokens of models the built-in table lacks' },
  settingSources: { flag: '--setting-sources', acp: false, about: 'which of user, project, local settings and instruction files load' },
  hooks: { flag: '--no-hooks', acp: false, about: "the settings files' hooks run" },
  mcpConfigs: { flag: '--mcp-config', acp: false, about: 'MCP servers from these files (or inline JSON), besides the folder’s .mcp.json' },
  strictMcpConfig: { flag: '--strict-mcp-config', acp: false, about: "only those: the folder's .mcp.json is not read" },
  mcpServers: { acp: "session/new's and session/load's mcpServers", about: "the client's MCP servers (a name the folder's .mcp.json has too: the client's)" },
  mcpTimeout: { env: 'MCP_TIMEOUT', about: 'milliseconds an MCP server may take to start' },
  mcpToolTimeout: { env: 'MCP_TOOL_TIMEOUT', about: "milliseconds a call of an MCP server's tool may take" },
  isolation: { flag: '--isolation', acp: false, editor: 'delegate.isolation', about: "where a subagent works unless its call or agent file says: worktree (its own git worktree of the live tree) or shared" },
  landCheck: { flag: '--land-check', acp: false, editor: 'delegate.landCheck', about: "a command run on isolated subagents' combined changes before any lands (`delegate land`)" },
  transcriptRoot: { env: 'XDG_DATA_HOME', editor: "(the extension's storage)", about: 'where transcripts are kept ($XDG_DATA_HOME/delegate/sessions)' },
};

/** How a host names a setting in a one-line reason: its flag (ACP: when it takes it), its editor setting, else its variable. */
export function settingName(key: keyof SessionOverrides, host: SettingHost): string {
  const row = SETTINGS[key];
  const own = host === 'editor' ? row.editor : host === 'acp' && row.acp !== undefined ? undefined : row.flag;
  return own ?? row.env ?? key;
}
