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
 * Every group but `ports` is data (the first five are settings/session-settings.ts's): core/settings/resolve-settings.ts
 * makes them from the host's overrides and the environment (the hosts call it); a field left out is
 * settings/defaults.ts's default, which createSession applies (a hand-built config: tests, the bench).
 */
import type { AgentChoice } from '../llm/http-fetch';
import type { ModelPort } from '../llm/types';
import type { HookRegistry } from '../policy/hooks';
import type { Approver } from '../policy/types';
import type { UserQuestions } from '../tools/ask-user';
import type { FileOps } from '../tools/types';
import type { FanoutPrompt, FanoutRule } from '../delegation/fanout-review';
import type { FolderTrust } from './folder-trust';
import type { ResumeState } from './replay';
import type { ReviewGate } from '../delegation/child-review';
import type { FileSettings, IsolationSettings, LimitSettings, ModelSettings, PermissionSettings, ToolSettings } from '../settings/session-settings';

export type { FileSettings, LimitSettings, ModelSettings, PermissionSettings, ToolSettings } from '../settings/session-settings';

export interface SessionConfig {
  workdir: string;
  model: ModelSettings;
  permissions: PermissionSettings;
  tools?: ToolSettings;
  limits?: LimitSettings;
  files?: FileSettings;
  /** Subagents' own worktrees (docs/isolation.md); shared when omitted. */
  isolation?: IsolationSettings;
  persistence: PersistenceSettings;
  ports: SessionPorts;
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
  /** web_fetch's sockets (http-fetch.ts): `own` (HTTPS_PROXY…) unless the host says `host` (the editor: VS Code's proxy settings). */
  httpAgents?: AgentChoice;
  /** Ripgrep binaries to try first for grep and glob (the editor's: the one VS Code ships); @vscode/ripgrep or PATH otherwise. */
  ripgrepCandidates?: readonly string[];
  /** The folder's own hooks and .mcp.json servers wait for this answer (folder-trust.ts); without it they run. */
  folderTrust?: FolderTrust;
}

