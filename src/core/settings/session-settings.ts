/**
 * The data a session runs with, group by group (what resolve-settings.ts makes of the hosts' overrides and the
 * environment; session/session-config.ts adds where the transcript goes and the host's ports):
 *
 *   model         which model, how it answers (thinking, max_tokens), its window and aliases
 *   permissions   the mode, the workspace's trust, the tool rule lists
 *   tools         how bash runs (sandbox, timeout, environment), web search, MCP servers
 *   limits        turns, depth, parallel children, subagent budgets, the run's dollars and the prices they count in
 *   files         what the session read from the folder and home: agent definitions, instructions, hooks
 *
 * A field left out is settings/defaults.ts's default (createSession applies them).
 */
import type { ModelPrice } from '../loop/budget';
import type { RunLimits } from '../loop/types';
import type { HookSettings } from '../hooks/hook-settings';
import type { ProjectInstructions } from '../instructions/project-instructions';
import type { SessionMcpConfig } from '../mcp/mcp-manager';
import type { SandboxSettings } from '../sandbox/types';
import type { ToolEnv } from '../secrets/tool-env';
import type { IsolationMode, PermissionMode, ThinkingSetting } from '../vocabulary';
import type { SkillCatalog } from '../skills/skill-catalog';

export interface ModelSettings {
  /** The model of the root agent (and of every subagent whose definition names none). */
  id: string;
  /** max_tokens of every request; undefined: the model family's default (llm/thinking.ts). */
  maxTokens?: number;
  /** Extended thinking for the main agent and every subagent whose definition sets none; default auto (on). */
  thinking?: ThinkingSetting;
  /** `sonnet` / `opus` / `haiku` → model ids (agent definitions' `model`), over the built-in table. */
  aliases?: Record<string, string>;
  /** The model's context window (default: from the model table); compaction starts at `compactThreshold` of it. */
  contextWindow?: number;
  compactThreshold?: number;
}

export interface PermissionSettings {
  mode: PermissionMode;
  /** False in an untrusted editor workspace: agents are read-only. */
  trusted?: boolean;
  /** Tools whose calls are not asked about, and tools refused and not offered (see policy/tool-rules.ts). */
  allowedTools?: string[];
  disallowedTools?: string[];
}

export interface ToolSettings {
  bashTimeoutMs?: number;
  /** How `bash` is confined; auto (bubblewrap where it runs, network off) when omitted. */
  sandbox?: SandboxSettings;
  /** The environment of bash, hooks and MCP servers: the host's less its credentials, plus what the user named (secrets/tool-env.ts). */
  env?: ToolEnv;
  /** Offer the Messages API's server-side web search (where the endpoint rejects it, it turns itself off). */
  webSearch?: boolean;
  /** MCP servers, started with the session in the background; their tools join the registry as they connect. */
  mcp?: SessionMcpConfig;
}

/** The run's limits (loop/limits.ts's defaults under them), its cap in dollars and the prices it counts in. */
export interface LimitSettings extends Partial<RunLimits> {
  /** A cap in dollars on the whole run (every agent together): --max-budget-usd. */
  maxBudgetUsd?: number;
  /** $ per million tokens by model family, over the built-in table. */
  prices?: Record<string, ModelPrice>;
}

export interface FileSettings {
  /**
   * Read agent definitions (.claude/agents, .github/agents, ~/.claude/agents) for `task`'s subagent_type;
   * files that cannot be used become notices. Without it only the built-in agents exist.
   */
  agentFiles?: { home?: string; includeProject: boolean };
  /** AGENTS.md, CLAUDE.md…: in every agent's system prompt (instructions/project-instructions.ts). */
  instructions?: ProjectInstructions;
  /** Command hooks from the settings files (hooks/hook-settings.ts); the host chose which files (trust, flags). */
  commandHooks?: HookSettings;
  /** Agent Skills (skills/skill-catalog.ts): the `skill` tool lists them; files that cannot be used become notices. */
  skills?: SkillCatalog;
}

/** Where subagents work by default, and the check their combined changes pass before `delegate land` lands them. */
export interface IsolationSettings {
  mode: IsolationMode;
  landCheck?: string;
}
