/**
 * What one agent run needs and returns: the ports the loop runs over (RunPorts: ModelAccess, Spend, Outputs,
 * RunConfig, ToolGate, Spawner, the bus and the agent registry). They are shared by the parent and every subagent,
 * built once by the session and never assigned into; each agent gets its own spec: identity, system prompt,
 * tool registry, turn cap and AbortController.
 */
import type { AgentMemoryNote, EventBus } from '../events';
import type { MessageParam, ModelPort } from '../llm/types';
import type { ToolGate } from './tool-gate';
import type { ToolRegistry, ToolResult } from '../tools/types';
import type { AgentRegistry } from './agent-registry';
import type { Budget, ModelPrice, RunSpend } from './budget';
import type { ContextSettings } from './compact-if-needed';
import type { AgentDefinition } from '../agent-files/agent-definition';
import type { ChangeManifest } from '../changes/types';
import type { UnverifiedClaim } from '../report/report-check';
import type { SubagentDirectory } from '../delegation/child-port';
import type { FanoutGate } from '../delegation/fanout-gate';
import type { ResolveTarget, Steward } from '../delegation/steward-port';
import type { AgentStatus, Usage, ThinkingSetting, AgentIdentity, RetryOf, HandoffOf, IsolationMode, Effort, PromptImage } from '../vocabulary';

export interface RunLimits {
  maxTurns: number;
  subagentMaxTurns: number;
  /** Concurrent `task` calls of one assistant message. */
  maxParallel: number;
  /** Agents at depth < maxDepth get `task` (root is depth 0; default 1: children have none). */
  maxDepth: number;
  maxOutputChars: number;
  /** What each subagent may spend unless its agent definition says otherwise. */
  subagentBudget?: Budget;
  /** The dearest model a `task` call's own `model` may name (delegation/model-cap.ts), and how the user set it. */
  subagentModelCap?: { cap: string; setting: string };
}

/** A request feature an endpoint may refuse (then it is off for the session). */
export type RunFeature = 'prompt_cache' | 'web_search';

export interface RunFeatures {
  has(feature: RunFeature): boolean;
  /** The endpoint refused it: off for every agent of the session from now on. */
  refuse(feature: RunFeature): void;
}

/*
 * The ports a run is made of, each a small object the session builds once (compact-if-needed.ts's CompactionDeps is the
 * pattern); a consumer takes the ports it reads, not the whole set:
 *
 *   runAgent(spec, RunPorts) ─▶ streamTurn(ModelAccess)   compactIfNeeded(CompactionDeps ⊂ ModelAccess + Outputs + context)
 *                            ─▶ executeToolCall(ToolGate, Outputs, limits)   task tool(Spawner)   budgets(Spend)
 *
 * What changes during a session (the model after setModel, the tools as MCP servers connect) is the session's own
 * state, read through a port's getter; nothing is assigned into a port after construction.
 */
/** The model an agent's requests go to, and how they are shaped. */
export interface ModelAccess {
  /** The session's model now (setModel changes it between prompts; the session owns that state). */
  readonly model: ModelPort;
  readonly modelId: string;
  /** max_tokens of a request to this model (`--max-tokens`, else the model family's default: llm/thinking.ts). */
  maxTokensFor(modelId: string): number;
  /** Extended thinking for agents whose definition sets none (`--thinking`, `delegate.thinking`). */
  readonly thinking?: ThinkingSetting;
  /** `sonnet` / `opus` / `haiku` → model ids, for agent definitions' `model`. */
  readonly modelAliases?: Readonly<Record<string, string>>;
  /** Prompt caching and server-side web search: on while `has` says so (off once the endpoint refuses one). */
  readonly features: RunFeatures;
}

/** What the run spends: prices for the cost shown and budgets in dollars, and the whole run's cap. */
export interface Spend {
  /** $ per million tokens by model family. */
  readonly prices?: Readonly<Record<string, ModelPrice>>;
  /** What the whole run has spent, and its cap (--max-budget-usd). */
  readonly runSpend?: RunSpend;
}

/** Where tool outputs too long for the model go (beside the transcript). */
export interface Outputs {
  /** Saves an output that was cut for the model; returns where. */
  saveFullOutput(toolUseId: string, content: string): Promise<string>;
  /** Where a tool may stream a full output too large for memory (same place saveFullOutput uses). */
  outputPathFor?(toolUseId: string): string;
}

/** The run's settings: its folder, caps, compaction window and the project's instructions. */
export interface RunConfig {
  readonly workdir: string;
  readonly limits: RunLimits;
  /** Window and threshold for compaction (every agent's context is measured against it; setModel changes the window). */
  readonly context: ContextSettings;
  /** AGENTS.md / CLAUDE.md and the like, as a system-prompt section for every agent (see instructions/). */
  readonly projectInstructions?: string;
}

/** What runAgent runs over: the session's ports, shared by the parent and every subagent. */
export interface RunPorts {
  readonly models: ModelAccess;
  readonly spend: Spend;
  readonly outputs: Outputs;
  readonly config: RunConfig;
  /** Hooks, permissions and the approver as one port (the session's ToolGate). */
  readonly gate: ToolGate;
  /** Runs a `task` call's child (the session's child runs): the task tool's only way to start one. */
  readonly spawner: Spawner;
  readonly bus: EventBus;
  /** The running agents and their controllers: the seam for cancelling one subagent. */
  readonly agents: AgentRegistry;
  /** The session's subagents by id and name, finished ones too (send_message, read_subagent): child-port.ts. */
  readonly children?: SubagentDirectory<AgentResult>;
  /** What a reply's `task` calls pass before they start: the user's look at a fan-out (fanout-gate.ts). */
  readonly fanout?: FanoutGate;
  /** Lands isolated subagents' kept changes in the session (the main agent's `land` tool: land-tool.ts). */
  readonly steward?: Steward;
}

/** Recorded on a fork's `agent_started`: whose conversation, and how many of its messages it started from. */
export interface ForkOrigin {
  agentId: string;
  messageCount: number;
}

export interface AgentSpec {
  identity: AgentIdentity;
  systemPrompt: string;
  /** Earlier conversation (the editor's follow-up prompts); empty for a subagent. */
  history: MessageParam[];
  prompt: string;
  tools: ToolRegistry;
  maxTurns: number;
  /** For a subagent: the parent's `task` tool_use id. */
  toolUseId?: string;
  /** Turns this agent already had in the session (the root's earlier prompts): event turn numbers continue after it. */
  turnBase?: number;
  /** False: no `task` tool whatever the depth (its agent definition does not list it). */
  canDelegate?: boolean;
  /** Its agent file's handoffs (Copilot): carried on its agent_finished after an answer, for a host to offer. */
  handoffs?: AgentDefinition['handoffs'];
  /** The agent types its task tool offers (its definition's `agents:` / `Agent(a, b)`), by id or name; undefined: every one. */
  spawnable?: readonly string[];
  /** How many of `tools` lead the request as shared with parent and children (prompt cache); default: all of them. A fork's own list holds its parent's `task` too. */
  sharedTools?: number;
  /** The model this agent runs on (an agent definition's `model`); the session's when omitted. */
  modelId?: string;
  /** Its own thinking (an agent definition's `thinking:` / `effort:`); the session's when omitted. */
  thinking?: ThinkingSetting;
  /** What this agent may spend before it must report (status budget_exceeded). */
  budget?: Budget;
  /** False: this agent does not get web search (its definition's tools leave it out). */
  webSearch?: boolean;
  /** The agent definition it runs (`general-purpose`, `Explore`, a file's name) and its colour. */
  agentType?: string;
  color?: string;
  /** Images the user attached to the root's prompt: sent after its text, in the same user message. */
  images?: readonly PromptImage[];
  /** What hooks added to the prompt (UserPromptSubmit, SessionStart): sent after it, in the same user message. */
  context?: string[];
  /** The first message when it is not the plain prompt (a fork's: results for the parent's open calls, then its task). */
  opening?: MessageParam;
  /** A fork (fork.ts): whose conversation it started from, and at which message. */
  fork?: ForkOrigin;
  /** Its name (task's `name`), recorded on agent_started. */
  name?: string;
  /** A resumed subagent (child-port.ts): its segment number (2, 3, …) and who sent the message. */
  segment?: { n: number; by: 'parent' | 'user' };
  /** The root's prompt is a Retry the host wrote for the user: recorded on agent_started. */
  retryOf?: RetryOf;
  /** The root's prompt is a handoff the host wrote for the user: recorded on agent_started. */
  handoff?: HandoffOf;
  /** What its task call chose (its own model and effort): recorded on agent_started for the views. */
  asked?: { model?: string; effort?: Effort };
  /** Its memory folder (an agent file's `memory`): recorded on agent_started for the views. */
  memory?: AgentMemoryNote;
  /** A typed return (report/typed-output.ts): its final message must give a value this accepts; asked again once. */
  output?: OutputCheck;
  /**
   * Its WORKDIR is still being made (an isolated subagent's worktree): its first request goes out meanwhile, but
   * nothing acts on a reply (tools, hooks) before this resolves. Rejecting, the request in flight is aborted and the
   * run ends as an `error` with its reason.
   */
  workdirReady?: Promise<void>;
}

/** What a typed agent's final message came to: the value and the report made of it, or the errors and the note that asks again. */
export type OutputVerdict = { ok: true; value: unknown; report: string } | { ok: false; errors: string; note: string };
export type OutputCheck = (finalMessage: string) => Promise<OutputVerdict>;

/** What a fork starts from: the parent as its latest request had it. */
export interface ForkBase {
  /** The parent's spec: system prompt, web search and whatever else shapes its requests. */
  spec: AgentSpec;
  /** The tools the parent sends, in its order (its `task` and `task_output` included). */
  tools: ToolRegistry;
  /** The parent's conversation as its context holds it, ending with the assistant message of the task call. */
  messages: readonly MessageParam[];
  /** The model the parent runs on (a cache is per model). */
  modelId: string;
}

/*
 * The Spawner: the `task` tool's one way to run a child, injected at run time (OpenCode's task tool gets its
 * "run a child" the same way). The session builds it (delegation/child-runs.ts); nothing in loop/ imports
 * the code that runs children, so no circle runs loop → task tool → child run → loop.
 *
 *   task{prompt, subagent_type?, fork?} ─▶ Spawner.run(call, firstId, signal) ─▶ SubagentStart ─▶ runAgent(child)
 *                                                                          ◀── result (reviewed, manifest footer) ◀┘
 */
/** One `task` call, as the tool hands it over. */
export interface ChildCall {
  parent: AgentIdentity;
  description: string;
  prompt: string;
  toolUseId: string;
  /** The agent definition asked for (checked against `agentTypes()`); the default type when omitted. */
  subagentType?: string;
  /** The model the parent runs on (what `model: inherit` means). */
  parentModel: string;
  /** A fork: it starts from this (the parent at the call) rather than from an agent definition. */
  fork?: ForkBase;
  /** The name the call gave it (already claimed in the session's SubagentDirectory). */
  name?: string;
  /** Where it works, as the call asked (`isolation` on the task input); else its agent file's, else the session's. */
  isolation?: IsolationMode;
  /** The call's own model (an alias or id, checked against the session's cap) and effort, over its agent definition's. */
  model?: string;
  effort?: Effort;
  /** The call's JSON Schema for the child's result (task's `output_schema`), over its agent definition's `output:`. */
  outputSchema?: Record<string, unknown>;
  /** A resolver (the land tool's `resolve`): its own worktree of the live tree with this child's conflicting changes merged in. */
  resolves?: ResolveTarget;
  /** Rolls the child's usage and summary up into the parent's result. */
  onChildFinished(child: AgentResult, description: string): void;
  /** What the parent's tool_result says about the child's end. */
  toToolResult(child: AgentResult, parentStopped: boolean): ToolResult;
}

export interface Spawner {
  /** The agent definitions a call can name (`subagent_type`), as the tool's description lists them. */
  agentTypes(): ReadonlyMap<string, AgentDefinition>;
  /** The type a call without `subagent_type` runs. */
  readonly defaultType: string;
  /** Why no agent may start this one (a session rule `Agent(name)` denies it), if so: it is not offered. */
  refuses?(def: AgentDefinition): string | undefined;
  /** An agent id unique in the session (the first child's, known before it runs: a background child's handle). */
  newAgentId(): string;
  /** Runs the child (again, while a review asks for a re-run); `firstId` is the first child's agent id. */
  run(call: ChildCall, firstId: string, signal: AbortSignal): Promise<ToolResult>;
}

export interface SubagentSummary {
  id: string;
  parentId: string | null;
  description: string;
  status: AgentStatus;
  num_turns: number;
  tool_calls: number;
  usage: Usage;
  result: string;
  duration_ms: number;
  agent_type: string;
  model: string;
  cost_usd?: number;
  /** What it and its descendants changed and ran (when the session tracks changes). */
  changes?: ChangeManifest;
  /** It was a fork of its parent (started from the parent's conversation). */
  fork?: boolean;
  /** Claims of its report that its record does not support (report/report-check.ts). */
  unverified?: UnverifiedClaim[];
  /** It was resumed (send_message): how many runs these totals add up. */
  segments?: number;
  /** A typed return's value (its schema validated it; its strings defanged like the report). */
  output?: unknown;
}

export interface AgentResult {
  agentId: string;
  status: AgentStatus;
  /** The final text (for a subagent: what goes back to the parent). */
  result: string;
  turns: number;
  toolCalls: number;
  /** Own usage plus every descendant's. */
  usage: Usage;
  durationMs: number;
  error?: string;
  /** The agent's whole conversation at the end (the root's is kept for follow-up prompts). */
  messages: MessageParam[];
  /** Every descendant that ran, in finishing order. */
  subagents: SubagentSummary[];
  /** The model it ran on, and its agent definition (a subagent's). */
  model: string;
  agentType?: string;
  /** Dollars spent by it and its descendants (when the models have prices). */
  costUsd?: number;
  /** A subagent's manifest (set by the task tool when the session tracks changes). */
  changes?: ChangeManifest;
  /** It ran as a fork of its parent. */
  fork?: boolean;
  /** A subagent's report claims its record does not support (set by the session's child runs). */
  unverified?: UnverifiedClaim[];
  /** A typed return's value, validated against its schema (the report guard's pass on its strings comes later). */
  output?: unknown;
}
