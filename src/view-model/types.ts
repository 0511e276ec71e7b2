/**
 * The session view state: what the side panel shows, built only from the core's events.
 *
 * It is a normalised, JSON-serialisable store — the extension host keeps one and sends it whole
 * as the `snapshot` on (re)load; the webview keeps its own copy and folds event batches into it.
 * Every node lives once in `nodes` (keyed by a stable id) and is referenced by id from
 * `items` (the conversation, in order) and from `TaskNode.children`, so lookups are O(1) and
 * `JSON.parse(JSON.stringify(state))` round-trips without losing identity.
 *
 * Node ids: `user:<n>`, `text:<agentId>:<turn>`, `tool:<toolUseId>`, `task:<toolUseId>`,
 * `notice:<n>`, `compaction:<seq>`, `thinking:<seq>`. Turn numbers, agent ids and seq are unique for the life of a
 * session (the core continues them across prompts and resumes), so no id is ever reused.
 */
import type { ChangedFile, CommandRun, RevertOutcome } from '../core/changes/types';
import type { ToolKind } from '../core/tools/types';
import type { AgentStatus, HandoffOf, RetryOf } from '../core/vocabulary';
import type { AgentMemoryNote, EventOf, KeptFile, LandCheck, LandConflict, LandOutcome } from '../core/events';

export const VIEW_STATE_VERSION = 2;

/** Cut applied to tool output, tool input JSON and task results kept in the state. */
export const PREVIEW_LIMIT = 2048;
/** Cut applied to a change's hunks kept on its row (about 60 lines of code; the diff editor has the rest). */
export const DIFF_PREVIEW_LIMIT = 4096;

/** `pending`: a fan-out's task waiting for the user's Run (the card in the panel); it has not started. */
export type TaskStatus = 'pending' | 'running' | AgentStatus;
/**
 * Its record's state (events.ts ToolCallState: `ok` is completed), and `cancelled`: the agent finished (stopped,
 * errored) while the call was still open. `pending`: read from the reply, not running yet (its turn, a question).
 */
export type ToolCallStatus = 'pending' | 'running' | 'ok' | 'error' | 'cancelled';

/** A call not ended yet (pending or running). */
export function isOpenCall(node: ToolCallNode): boolean {
  return node.status === 'pending' || node.status === 'running';
}
/** Permission state of a call: shown as a row state ("waiting for approval" / "denied"). */
export type PermissionState = 'asked' | 'allowed' | 'denied';

export interface TokenCount {
  /** input_tokens + cache_creation_input_tokens + cache_read_input_tokens */
  input: number;
  output: number;
  /** The part of `input` read from the prompt cache (cache_read_input_tokens). */
  cacheRead?: number;
}

export interface UserPromptNode {
  kind: 'user';
  id: string;
  /** What the model got (a Retry's prompt is written by the host). */
  text: string;
  time: number;
  /** A Retry of a task the user asked for: shown as what they did, not as the written prompt. */
  retryOf?: RetryOf;
  /** A handoff the user sent: shown as their own words (`handoff.text`) marked with the agent, not as the written prompt. */
  handoff?: HandoffOf;
}

/** The root agent's text for one turn: text_delta accumulates, the `message` event finalises. */
export interface TextNode {
  kind: 'text';
  id: string;
  agentId: string;
  turn: number;
  text: string;
  final: boolean;
}

/** A root-level error or stop notice (a subagent's errors are shown on its task node). */
export interface NoticeNode {
  kind: 'notice';
  id: string;
  level: 'error' | 'warning' | 'info';
  text: string;
  time: number;
  /** A "waiting for the API" notice: how long so far (it is updated in place, not repeated). */
  waitedMs?: number;
}

export interface ToolCallNode {
  kind: 'tool';
  id: string;
  toolUseId: string;
  /** The agent that made the call. */
  agentId: string;
  name: string;
  /** One line: the command, the path, the pattern… as the tool said it (its record's). */
  summary: string;
  /** Files the call names, as the tool said them (clickable: `open_file`). */
  paths: string[];
  /** What the tool declared it touches (read, write, exec, external…); none for an unknown tool. */
  toolKind?: ToolKind;
  /** Pretty-printed input, cut to PREVIEW_LIMIT. */
  inputJson: string;
  status: ToolCallStatus;
  permission?: PermissionState;
  permissionReason?: string;
  /** Output preview, cut to PREVIEW_LIMIT. */
  output?: string;
  outputTruncated?: boolean;
  fullOutputPath?: string;
  startedAt: number;
  durationMs?: number;
  /**
   * The file this call changed, as kept in the session folder (content hashes; none = absent): its diff. `added`
   * and `removed` count its lines, `diff` holds its hunks (cut to DIFF_PREVIEW_LIMIT) for the row's inline diff.
   */
  change?: { path: string; before?: string; after?: string; added?: number; removed?: number; diff?: string; diffTruncated?: boolean };
  /** A slim snapshot left the input, output and hunks out (slim-snapshot.ts): the panel asks for them on open. */
  detailOmitted?: boolean;
  /** A write the stale-write guard refused: the file changed since the agent read it, or it never read it. */
  refusal?: 'stale' | 'unread';
}

export interface TaskNode {
  kind: 'task';
  id: string;
  /** The parent's `task` tool_use id. */
  toolUseId: string;
  /** The subagent's id; null until its `agent_started` arrives. */
  agentId: string | null;
  /** The agent that called `task`. */
  parentAgentId: string;
  depth: number;
  description: string;
  prompt: string;
  model?: string;
  /** What the parent's task call chose for it: its own model (as written) and effort. */
  asked?: { model?: string; effort?: string };
  /** The agent definition it runs (`Explore`, a file's name); its colour when the file sets one. */
  agentType?: string;
  color?: string;
  status: TaskStatus;
  turns: number;
  toolCalls: number;
  /** Live sum of this agent's and its descendants' usage; the final figure from `agent_finished`. */
  tokens: TokenCount;
  /** Dollars so far (when the model has a price), live like `tokens`. */
  costUsd?: number;
  /** Held for the user's review (`pending`: the result waits on the node), or how the review ended. */
  review?: 'pending' | 'accepted' | 'edited' | 'rerun';
  /** Started with run_in_background: its parent went on while it works. */
  background?: boolean;
  /** A fork: it started from its parent's conversation so far (task{fork: true}). */
  fork?: boolean;
  /** Its name (task's `name`: send_message and read_subagent take it). */
  name?: string;
  /** Resumed with a message (send_message, the user's): how many runs the node holds (2, 3, …), and the last message. */
  segments?: number;
  /** What the earlier segments of a resumed subagent added up to: the node's figures are these plus the current one's. */
  earlier?: { turns: number; toolCalls: number; tokens: TokenCount; costUsd?: number; durationMs: number };
  lastMessage?: string;
  /** What it may spend: shown against what it spent while it runs. */
  budget?: { tokens?: number; seconds?: number; usd?: number };
  startedAt: number;
  durationMs?: number;
  /** Result preview, cut to PREVIEW_LIMIT. */
  result?: string;
  error?: string;
  /** Last retryable error (cleared by the next turn). */
  warning?: string;
  permission?: PermissionState;
  /** Ids of this subagent's tool calls and nested task nodes, in call order. */
  children: string[];
  /** What it and its descendants changed and ran (its manifest, when it finished), and what reverts did. */
  changes?: TaskChanges;
  /** The user retried it: the Retry's prompt row, and the task that runs it again once the main agent delegated it. */
  retriedBy?: { promptId: string; taskId?: string };
  /** Claims of its report that its record does not support, and instruction-shaped text defanged in it (`report_checked`). */
  unverified?: { claim: string; reason: string }[];
  defanged?: string[];
  /** Isolated (its own worktree): the work it kept on a branch, and what landing did to it (kept-work.ts). */
  kept?: KeptWork;
  /** Its agent file's `memory`: the scope and the folder it keeps across sessions (the row's marker). */
  memory?: AgentMemoryNote;
  /** Its agent file's handoffs (Copilot), after its last completed answer: buttons that fill the prompt box for the next agent. */
  handoffs?: TaskHandoff[];
}

/** One of Copilot's handoffs: `label` on the button; `agent` gets `prompt` (sent at once with `send`), on `model` if set. */
export type TaskHandoff = NonNullable<EventOf<'agent_finished'>['handoffs']>[number];

/** What an isolated subagent kept, and what landing it did so far. */
export interface KeptWork {
  branch: string;
  files: KeptFile[];
  /** When it was kept (the order landing takes them in). */
  seq: number;
  /** The session's land check (`delegate.landCheck`), run on the combination before anything lands. */
  landCheck?: string;
  /** A resolver's: the subagent whose conflicts it settled (its changes stand in for that one's). */
  resolves?: string;
  /** The last landing, discard or revert that took it: its word for this child. */
  outcome?: LandOutcome['outcome'];
  conflicts?: LandConflict[];
  reason?: string;
  /** That landing's check on the combined changes (and its seq: the bar shows the newest). */
  check?: LandCheck & { seq: number };
}

/** A manifest file on a task node, with what a revert did to it (the latest revert's word). */
export interface TaskChangeFile extends ChangedFile {
  revert?: { outcome: RevertOutcome; reason?: string; expected?: string };
}

export interface TaskChanges {
  files: TaskChangeFile[];
  commands: CommandRun[];
  /** A revert of this task's changes was made (it may have refused some files). */
  reverted?: boolean;
}

/** An agent's context was compacted before its next request (a row in its container). */
export interface CompactionNode {
  kind: 'compaction';
  id: string;
  agentId: string;
  trigger: 'auto' | 'manual' | 'overflow';
  tokensBefore: number;
  tokensAfter: number;
  /** Tool outputs replaced by a stub, and whether the earlier part was summarized. */
  stubbed: number;
  summarized: boolean;
  time: number;
}

/** One thinking block of an agent: a collapsed "Thinking" row in its container (text '' when the API omits it). */
export interface ThinkingNode {
  kind: 'thinking';
  id: string;
  agentId: string;
  turn: number;
  text: string;
  redacted: boolean;
}

export type ViewNode = UserPromptNode | TextNode | NoticeNode | ToolCallNode | TaskNode | CompactionNode | ThinkingNode;

export interface AgentEntry {
  parentId: string | null;
  depth: number;
  /** Node id of the agent's task node; null for a root agent. */
  taskId: string | null;
  turn: number;
  running: boolean;
}

export interface SessionViewState {
  version: number;
  /** Conversation order: node ids of user prompts, root text, root tool calls, tasks, notices. */
  items: string[];
  nodes: Record<string, ViewNode>;
  agents: Record<string, AgentEntry>;
  /** Highest seq applied, per session id: replayed events (snapshot + overlapping batch) are skipped. */
  lastSeq: Record<string, number>;
  totals: { tokens: TokenCount; toolCalls: number; tasks: number; costUsd?: number };
  /** A root agent is running. */
  running: boolean;
  /** Counter for user/notice ids. */
  nextLocalId: number;
  /** The last root prompt came as a `prompt` event: the `agent_started` that follows does not add it again. */
  promptShown?: boolean;
  /** A Retry runs: the retried task, until the main agent's new task for it starts (or the run ends). */
  retrying?: { taskId: string; description: string; candidate?: string };
}

/** Key added to the touched set when session totals or the running flag changed. */
export const TOTALS_KEY = '#totals';
