/**
 * The run-wide words every layer speaks: hosts, the session, the loop and each mechanism import them from here.
 *
 *   hosts ─┐
 *   session ├─▶ vocabulary.ts   (imports nothing: it sits below events.ts and every mechanism,
 *   agent  ─┤                    so no circle can pass through it)
 *   mechanisms ┘
 *
 * Only words with no behaviour of their own belong here: token usage, how an agent ended, permission modes and
 * decisions, who is acting, which settings files load, the sandbox and thinking settings a user writes.
 */

export type AgentStatus = 'completed' | 'max_turns' | 'budget_exceeded' | 'error' | 'cancelled';
/** How a session's last run ended, as its list shows it (`interrupted`: the process died mid-run). */
export type SessionStatus = AgentStatus | 'interrupted';

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export const emptyUsage = (): Usage => ({
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
});

export function addUsage(into: Usage, add: Usage): Usage {
  into.input_tokens += add.input_tokens;
  into.output_tokens += add.output_tokens;
  into.cache_creation_input_tokens += add.cache_creation_input_tokens;
  into.cache_read_input_tokens += add.cache_read_input_tokens;
  return into;
}

/**
 * allow_agent / allow_task: "for this subagent" / "for this task's subagents" (policy/agent-grants.ts); allow_server:
 * every tool of the asking MCP tool's server, for the session.
 */
export type PermissionDecision = 'allow' | 'allow_session' | 'allow_server' | 'allow_agent' | 'allow_task' | 'deny';

export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypassPermissions';
export const PERMISSION_MODES: readonly PermissionMode[] = ['default', 'acceptEdits', 'plan', 'bypassPermissions'];

const STRICTNESS: Record<PermissionMode, number> = { bypassPermissions: 0, acceptEdits: 1, default: 2, plan: 3 };

/** The stricter of two modes: an agent file can narrow what its parent may do, never widen it. */
export function narrowMode(parent: PermissionMode | undefined, own: PermissionMode | undefined): PermissionMode | undefined {
  if (!parent) return own;
  if (!own) return parent;
  return STRICTNESS[own] > STRICTNESS[parent] ? own : parent;
}

/** Who is acting: hooks and approval prompts name the agent. */
export interface AgentIdentity {
  agentId: string;
  parentId: string | null;
  depth: number;
  /** The task description for a subagent; undefined for the root agent. */
  description?: string;
  /** A mode narrower than the session's (an agent definition's permissionMode): the stricter one applies. */
  mode?: PermissionMode;
  /** A subagent's agent definition (`general-purpose`, `Explore`, a file's name): hooks get it as `agent_type`. */
  agentType?: string;
}

/** Where bash runs (`--sandbox`, `delegate.sandbox`): bubblewrap when it can (auto), always (on), never (off). */
export type SandboxMode = 'auto' | 'on' | 'off';
export const SANDBOX_MODES: readonly SandboxMode[] = ['auto', 'on', 'off'];

/** Where a subagent works: its own git worktree of the parent's live tree, or the parent's tree itself (docs/isolation.md). */
export type IsolationMode = 'worktree' | 'shared';
export const ISOLATION_MODES: readonly IsolationMode[] = ['worktree', 'shared'];

/** Which files load (Claude Code's `--setting-sources`): user = ~/.claude, project = the workspace's, local = *.local.*. */
export type SettingSource = 'user' | 'project' | 'local';
export const SETTING_SOURCES: readonly SettingSource[] = ['user', 'project', 'local'];

export const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export type Effort = (typeof EFFORTS)[number];
/** `auto`: on where the model thinks, at its default effort (or the medium budget). */
export type ThinkingSetting = 'auto' | 'off' | Effort | number;
/** The Messages API's smallest thinking budget. */
export const MIN_BUDGET = 1024;

/** `off`, `auto`, a level, or a budget (an integer ≥ 1024; 0 is off). A string: what is wrong with it. */
export function parseThinkingSetting(raw: unknown): ThinkingSetting | { error: string } {
  const expected = 'expected off, low, medium, high (or xhigh, max, auto) or a budget in tokens (at least 1024)';
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (text === 'auto' || text === 'on' || text === 'default') return 'auto';
  if (text === 'off' || text === 'none' || text === 'false' || text === '0') return 'off';
  if ((EFFORTS as readonly string[]).includes(text)) return text as Effort;
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    if (n < MIN_BUDGET) return { error: `a thinking budget is at least ${MIN_BUDGET} tokens (got ${n}); use off to turn thinking off` };
    return n;
  }
  return { error: `${JSON.stringify(raw)}: ${expected}` };
}

/**
 * A root prompt the host wrote for the user: Retry (or a re-run with an edited prompt) of a subagent's task that
 * ended early. The model gets the written prompt; the hosts show what the user did ("Retry: <description>").
 */
export interface RetryOf {
  /** The subagent whose task is run again. */
  agentId: string;
  description: string;
  /** The user edited the task's prompt first. */
  edited?: boolean;
}

/**
 * A root prompt the host wrote for a handoff (a subagent's `handoffs` button, Copilot's agent-file field): the model
 * gets the written prompt, which asks the main agent to start `agent` with the task tool; the hosts show `text`, what
 * the user sent, marked "→ agent (handoff: label)".
 */
export interface HandoffOf {
  /** The agent it is handed to (the handoff's `agent`, as subagent_type takes it). */
  agent: string;
  /** The handoff's button label. */
  label: string;
  /** What the user sent: the handoff's prompt, as pressed or as edited in the prompt box (may be empty). */
  text: string;
}

/** The image types the Messages API reads (a prompt's attachments; anything else it refuses). */
export const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

/** An image the user attached to a root prompt (an ACP client's paste): base64, sent after the prompt's text. */
export interface PromptImage {
  mediaType: ImageMediaType;
  data: string;
}
