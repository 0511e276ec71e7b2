/**
 * The one message union between the extension host and the webview; both builds import it.
 * The host keeps the state: on (re)load the webview gets one snapshot, then batches of events.
 */
import type { DelegateEvent } from './core/events';
import type { PermissionDecision, SessionStatus } from './core/vocabulary';
import type { SessionViewState, ToolCallNode } from './view-model/session-view';
import type { SetupAction, SetupProblem } from './view-model/setup-problem';

/** One row of the history list (a session of this workspace). */
export interface SessionListItem {
  id: string;
  title: string;
  startedAt: number;
  updatedAt: number;
  prompts: number;
  turns: number;
  tokens: number;
  status: SessionStatus | 'running';
  /** The last prompt's subagents that did not complete ("completed · 1 failed · 1 stopped"). */
  subagents?: { failed?: number; stopped?: number; limited?: number };
}

/**
 * An answer of a waiting permission request: the decision and what it allows ("Allow `npm test` for this session",
 * src/vscode/approval-text.ts; text in backticks is code). Allow and Deny are buttons, the others a menu beside Allow.
 */
export interface InboxChoice {
  label: string;
  decision: PermissionDecision;
}

export type FanoutAnswer = 'run' | 'run_capped' | 'cancel';

/** A fan-out card's content, worded by src/vscode/fanout-text.ts. */
export interface FanoutView {
  /** What every task shares, said once: "general-purpose · claude-sonnet-5-5 · every tool · mode default". */
  shared: string;
  /** Each task: its description, its prompt (shown on request) and only what differs from `shared`. */
  tasks: { description: string; prompt: string; own: string }[];
  /** One line per agent type, saying what it rests on ("from 12 past runs here: …", "no history yet …"). */
  forecast: string[];
  /** What the capped run stops each at; absent when no task has history (no capped run then). */
  caps?: string;
  /** Why the card shows (the setting that decides it). */
  why: string;
  /** Run, the capped run (with `caps`), Cancel. */
  choices: { choice: FanoutAnswer; label: string }[];
}

/** A question waiting in the panel's inbox (src/vscode/panel-inbox.ts keeps them): a subagent's, or a fan-out card. */
export interface InboxItem {
  id: string;
  kind: 'permission' | 'question' | 'fanout';
  agentId: string;
  /** "Subagent “find config”" (its task's description). */
  who: string;
  /** The subagent's agent definition ("general-purpose", "Explore"), when it has one. */
  agentType?: string;
  /** "wants to run a command", or the ask_user question itself. */
  title: string;
  /** The exact command, path(s) or MCP input the answer is about (empty for a question). */
  input: string;
  /** Why a permission is asked, when that needs saying (plan mode, an untrusted workspace, a private address); ''. */
  detail: string;
  /** A permission's answers: Allow, the wider ones (narrowest first), Deny. */
  choices: InboxChoice[];
  /** A question's answers to pick from (a typed answer is always possible). */
  options: string[];
  /** A fan-out card's tasks, forecast and answers. */
  fanout?: FanoutView;
  /** Asked by the main agent (a fan-out it starts), not a subagent. */
  main?: boolean;
}

/**
 * Who waits, for the inbox's heading and the view's badge: each subagent with a question (one may have several) and
 * the main agent (a fan-out card it shows). "2 subagents are waiting for you", "The main agent is waiting for you".
 */
export function waitingOf(items: readonly InboxItem[]): { count: number; line: string } {
  const subagents = new Set(items.filter((i) => !i.main).map((i) => i.agentId)).size;
  const main = items.some((i) => i.main === true);
  return { count: subagents + (main ? 1 : 0), line: waitingLine(subagents, main) };
}

function waitingLine(agents: number, main: boolean): string {
  const subagents = agents === 1 ? '1 subagent' : `${agents} subagents`;
  if (!main) return `${subagents} ${agents === 1 ? 'is' : 'are'} waiting for you`;
  return agents === 0 ? 'The main agent is waiting for you' : `The main agent and ${subagents} are waiting for you`;
}

export type HostToWebview =
  /**
   * The whole view state: an object (the tests' harness), or from the editor `packed`: one string to clone instead of
   * a graph of 100,000 objects, holding a slim copy (slim-snapshot.ts: calls' inputs and outputs come on request)
   * in a form that decodes fast (snapshot-codec.ts).
   */
  | ({ type: 'snapshot'; running: boolean } & ({ state: SessionViewState; packed?: undefined } | { packed: string; state?: undefined }))
  /** The whole node of a call a slim snapshot left the input and output of out (the answer to `node_detail`). */
  | { type: 'node_detail'; node: ToolCallNode }
  | { type: 'events'; events: DelegateEvent[] }
  | { type: 'status'; running: boolean }
  /** The kept bar's Resolve: the resolver started, is over (the events hold its kept changes), or failed and why. */
  | { type: 'kept_resolve'; agentId: string; state: 'running' | 'done' }
  | { type: 'kept_resolve'; agentId: string; state: 'failed'; reason: string }
  /** Absolute paths of the workspace folders: markdown links may open files inside them only. */
  | { type: 'workspace'; folders: string[] }
  /** Shows the history list (newest first); `currentId` is the session open in the panel. */
  | { type: 'history'; sessions: SessionListItem[]; currentId?: string }
  /** Opens, scrolls to and marks the task node of this subagent (the Chat view's "Show in Delegate panel"). */
  | { type: 'reveal'; agentId: string }
  /** Every subagent question waiting for the user, oldest first (the whole list: it is short). */
  | { type: 'inbox'; items: InboxItem[] }
  /** Ctrl/Cmd+F while the panel has focus (the editor's keybinding, `delegate.find`): open the panel's find bar. */
  | { type: 'find' }
  /** Whether a prompt can run now: a problem shows the empty panel's setup card (src/vscode/model-setup.ts). */
  | { type: 'setup'; problem?: SetupProblem }
  /** A prompt did not start (or the API refused the key): the line under the composer says why; `prompt` goes back as the draft. */
  | { type: 'cannot_run'; problem: SetupProblem; prompt?: string }
  /** Delegate: Set API Key stored a key: the panel confirms and offers to send the draft. */
  | { type: 'key_saved' }
  /** A handoff button (a task's `handoffs`): the prompt box gets its prompt and the agent it goes to, the user sends it. */
  | { type: 'fill_prompt'; text: string; handoff: PromptHandoff };

/** The agent a prompt is handed to (a handoff's): the main agent is asked to start it with the prompt (src/vscode/task-handoff.ts). */
export interface PromptHandoff {
  agent: string;
  /** The button's label: the prompt box's line names it. */
  label: string;
  model?: string;
}

export type WebviewToHost =
  | { type: 'ready' }
  /** `handoff`: the text goes to that agent (the prompt box was filled by a handoff button and still names it). */
  | { type: 'prompt'; text: string; handoff?: PromptHandoff }
  | { type: 'stop' }
  /** *Open in editor* on a task row: the subagent's whole record in an editor tab. */
  | { type: 'open_record'; agentId: string; description: string }
  | { type: 'message_agent'; agentId: string }
  /** A call's row was opened and the slim snapshot left its input and output out. */
  | { type: 'node_detail'; id: string }
  /** Stops one subagent (the task node's Stop action); the parent goes on. */
  | { type: 'stop_agent'; agentId: string }
  | { type: 'show_history' }
  /** A button on a task node whose result is held for review. */
  | { type: 'review'; agentId: string; action: 'accept' | 'edit' | 'rerun' }
  | { type: 'open_session'; id: string }
  | { type: 'new_session' }
  /** `line` is 1-based; the host reveals it. */
  | { type: 'open_file'; path: string; line?: number }
  /** An http(s) link in model text; the host checks the scheme again before opening it. */
  | { type: 'open_external'; url: string }
  | { type: 'open_diff'; agentId: string; toolUseId: string }
  /** A file of a task's Changes row: the diff of what the subagent did to it (or what changed since, after a refused revert). */
  | { type: 'open_change'; agentId: string; path: string }
  /** The Changes row's Revert action: the host confirms with a modal listing the files, then reverts (`includeShared`: the shared files the user checked). */
  | { type: 'revert_agent'; agentId: string; includeShared?: string[] }
  /**
   * The changes bar's Review: every file it shows in one multi-file diff (`path`: one file's diff); `kept`: the files
   * the user kept in the bar (run-changes.ts keptKey), which it no longer shows.
   */
  | { type: 'review_changes'; kept?: string[]; path?: string }
  /** The changes bar's Revert: these subagents' changes (one confirmation for all); `paths`: only these files (a file's Undo). */
  | { type: 'revert_agents'; agentIds: string[]; paths?: string[] }
  /**
   * The kept-in-worktrees bar (webview/kept-bar.ts): land (Apply, Apply all: the check first) or discard these isolated
   * subagents' kept changes, in this order.
   */
  | { type: 'land_agents'; agentIds: string[]; action: 'land' | 'discard' }
  /** The bar's file: the subagent's kept version of it beside the workspace's file, in the diff editor. */
  | { type: 'open_kept_diff'; agentId: string; path: string }
  /** The bar's Resolve (a child whose landing conflicted): its conflicts handed to a resolver subagent, its result kept. */
  | { type: 'resolve_agent'; agentId: string }
  /** Retry (or, `edit`, re-run with a prompt the user edits first) a task that failed, was stopped or hit a limit. */
  | { type: 'retry_task'; agentId: string; edit: boolean }
  /** History: name a session (an empty title goes back to its first prompt). */
  | { type: 'rename_session'; id: string; title: string }
  /** History: delete a session (the host confirms first); `title` names it in the question. */
  | { type: 'delete_session'; id: string; title: string }
  /** The inbox: a waiting permission request answered in place. */
  | { type: 'inbox_answer'; id: string; decision: PermissionDecision }
  /** The inbox: a fan-out card answered; `dontAsk`: "Don't ask again in this workspace" was checked. */
  | { type: 'inbox_fanout'; id: string; choice: FanoutAnswer; dontAsk: boolean }
  /** The inbox: a waiting ask_user question answered (an option picked or an answer typed). */
  | { type: 'inbox_reply'; id: string; text: string }
  /** The panel's document got or lost focus: the host keeps the `delegate.panelFocus` context for its keybindings. */
  | { type: 'focus'; focused: boolean }
  /** A button of the setup card or of the line under the composer (Set API Key, Use an editor model…). */
  | { type: 'setup_action'; action: SetupAction }
  /** A completed task's handoff button: the `index`th of its node's `handoffs` (the host reads it from its own state). */
  | { type: 'handoff'; agentId: string; index: number };
