/**
 * What a host gives createSession (create-session.ts): the folder, the model, the permission mode and the ports a host
 * fills (approver, questions, the fan-out card, file ops, an HTTP client), plus the run's settings. Only data and
 * ports: building the session from it is create-session.ts's job.
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
  model: ModelPort;
  modelId: string;
  /** max_tokens of every request; undefined: the model family's default (llm/thinking.ts). */
  maxTokens?: number;
  /** Extended thinking for the main agent and every subagent whose definition sets none; default auto (on). */
  thinking?: ThinkingSetting;
  mode: PermissionMode;
  /** False in an untrusted editor workspace: agents are read-only. */
  trusted?: boolean;
  approver: Approver;
  /** Shared by every agent of the session; a fresh registry when omitted. */
  hooks?: HookRegistry;
  limits?: Partial<RunLimits>;
  bashTimeoutMs?: number;
  /** How `bash` is confined; auto (bubblewrap where it runs, network off) when omitted. */
  sandbox?: SandboxSettings;
  /** The environment of bash, hooks and MCP servers: the host's less its credentials, plus what the user named (secrets/tool-env.ts). */
  toolEnv?: ToolEnv;
  transcriptRoot: string;
  sessionId?: string;
  /** Go on with a session rebuilt from its transcript (its id wins over `sessionId`). */
  resume?: ResumeState;
  /**
   * Read agent definitions (.claude/agents, .github/agents, ~/.claude/agents) for `task`'s subagent_type;
   * files that cannot be used become notices. Without it only the built-in agents exist.
   */
  agentFiles?: { home?: string; includeProject: boolean };
  /** Hold every finished subagent's result for the user's review (the editor's opt-in; never the CLI). */
  review?: ReviewGate;
  /** A cap in dollars on the whole run (every agent together): --max-budget-usd. */
  maxBudgetUsd?: number;
  /** $ per million tokens by model family, over the built-in table. */
  prices?: Record<string, ModelPrice>;
  /** Offer the Messages API's server-side web search (where the endpoint rejects it, it turns itself off). */
  webSearch?: boolean;
  /** The ripgrep binary for grep and glob (the editor passes the one VS Code ships); @vscode/ripgrep or PATH otherwise. */
  ripgrepPath?: string;
  /** `sonnet` / `opus` / `haiku` → model ids (agent definitions' `model`). */
  modelAliases?: Record<string, string>;
  /** The model's context window (default: from the model table); compaction starts at `compactThreshold` of it. */
  contextWindow?: number;
  compactThreshold?: number;
  /** MCP servers, started with the session in the background; their tools join the registry as they connect. */
  mcp?: SessionMcpConfig;
  /** Tools whose calls are not asked about, and tools refused and not offered (see policy/tool-rules.ts). */
  allowedTools?: string[];
  disallowedTools?: string[];
  /** Command hooks from the settings files (hooks/hook-settings.ts); the host chose which files (trust, flags). */
  commandHooks?: HookSettings;
  /** The folder's own hooks and .mcp.json servers wait for this answer (folder-trust.ts); without it they run. */
  folderTrust?: FolderTrust;
  /** AGENTS.md, CLAUDE.md…: in every agent's system prompt (instructions/project-instructions.ts). */
  instructions?: ProjectInstructions;
  /** web_fetch's HTTP client: http-fetch.ts's (HTTPS_PROXY…) unless the host gives its own (the editor's proxy). */
  fetch?: HttpFetch;
  /** How `ask_user` reaches the user (the editor); without it the tool answers that nobody can, so the agent decides. */
  questions?: UserQuestions;
  /** The card before a fan-out (the editor; fanout-review.ts): its prompt, when to show it, the dollar threshold. */
  fanout?: { prompt: FanoutPrompt; rule: () => FanoutRule; confirmAboveUsd: () => number | undefined };
  /**
   * How the file tools read and write (paths already confined): node:fs unless the host gives its own (an ACP
   * client's buffers). The stale-write guard and the change journal work on what these return either way.
   */
  fileOps?: FileOps;
}

