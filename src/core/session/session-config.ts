/**
 * What createSession takes (create-session.ts), grouped by what each part decides:
 *
 *   workdir       the folder every agent works in
 *   model         which model, how it answers (thinking, max_tokens), its window and aliases
 *   permissions   the mode, the workspace's trust, the tool rule lists
 *   tools         how bash runs (sandbox, timeout, environment), web search, MCP servers
 *   limits        turns, depth, parallel children, subagent budgets, the run's dollars and the prices they count in
 *   files         what the session read from the folder and home: agent definitions, instructions, hooks
 *   persistence   where the transcript goes, and the session it goes on from
 *   ports         what the host fills: model access, approver, questions, review, fan-out card, file ops…
 *
 * Every group but `ports` is data: core/settings/resolve-settings.ts makes it from the host's overrides and the
 * environment (the hosts call it), and the defaults it omits are settings/defaults.ts's, which createSession applies
 * too (a hand-built config: tests, the bench).
 */
import type { ModelPrice } from '../loop/budget';
import type { RunLimits } from '../loop/types';
import type { HookSettings } from '../hooks/hook-settings';
import type { ProjectInstructions } from '../instructions/project-instructions';
import type { HttpFetch } from '../llm/http-fetch';
import type { ModelPort } from '../llm/types';
import type { HookRegistry } from '../policy/hooks';
import type { Approver } from '../policy/types';
import type { SandboxSettings } from '../sandbox/sandbox';
import type { ToolEnv } from '../secrets/tool-env';
import type { UserQuestions } from '../tools/ask-user';
import type { FileOps } from '../tools/types';
import type { PermissionMode, ThinkingSetting } from '../vocabulary';
import type { FanoutPrompt, FanoutRule } from '../delegation/fanout-review';
import type { FolderTrust } from './folder-trust';
import type { SessionMcpConfig } from './mcp';
import type { ResumeState } from './replay';
import type { ReviewGate } from '../delegation/child-review';

export interface SessionConfig {
  workdir: string;
  model: ModelSettings;
  permissions: PermissionSettings;
  tools?: ToolSettings;
  limits?: LimitSettings;
  files?: FileSettings;
  persistence: PersistenceSettings;
  ports: SessionPorts;
}

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
}

export interface PersistenceSettings {
  transcriptRoot: string;
  sessionId?: string;
  /** Go on with a session rebuilt from its transcript (its id wins over `sessionId`). */
  resume?: ResumeState;
}

/** What only the host can give: how the model is reached and how the user is reached. */
export interface SessionPorts {
  model: ModelPort;
  approver: Approver;
  /** Shared by every agent of the session; a fresh registry when omitted. */
  hooks?: HookRegistry;
  /** Hold every finished subagent's result for the user's review (the editor's opt-in; never the CLI). */
  review?: ReviewGate;
  /** How `ask_user` reaches the user (the editor); without it the tool answers that nobody can, so the agent decides. */
  questions?: UserQuestions;
  /** The card before a fan-out (the editor; fanout-review.ts): its prompt, when to show it, the dollar threshold. */
  fanout?: { prompt: FanoutPrompt; rule: () => FanoutRule; confirmAboveUsd: () => number | undefined };
  /**
   * How the file tools read and write (paths already confined): node:fs unless the host gives its own (an ACP
   * client's buffers). The stale-write guard and the change journal work on what these return either way.
   */
  fileOps?: FileOps;
  /** web_fetch's HTTP client: http-fetch.ts's (HTTPS_PROXY…) unless the host gives its own (the editor's proxy). */
  fetch?: HttpFetch;
  /** The ripgrep binary for grep and glob (the editor passes the one VS Code ships); @vscode/ripgrep or PATH otherwise. */
  ripgrepPath?: string;
  /** The folder's own hooks and .mcp.json servers wait for this answer (folder-trust.ts); without it they run. */
  folderTrust?: FolderTrust;
}
