/**
 * The one event union of the core. Every host reads the run through it:
 *
 *   loop / task tool / tool executor ──emit──▶ EventBus ──▶ transcript store (awaited JSONL)
 *                                                      ├──▶ CLI stream-json / text printer
 *                                                      └──▶ VS Code view (tree reducer)
 *
 * Each event names the agent it belongs to and that agent's parent, and carries a
 * session-wide sequence number so interleaved events of parallel subagents stay ordered.
 */
import type { ChangeCause, ChangedFile, CommandRun, ContentHash, FileAction, RevertedFile } from './changes/types';
import type { MessageParam, RetryInfo } from './llm/types';
import type { ToolCallPatch } from './tool-call-record';

export { describesCall, endsCall, opensCall, patchToolCall } from './tool-call-record';
export type { ToolCallDescription, ToolCallEnd, ToolCallPatch, ToolCallRecord } from './tool-call-record';

import type { AgentStatus, Effort, HandoffOf, PermissionDecision, PermissionMode, RetryOf, Usage } from './vocabulary';

import type { KeptFile, LandCheck, LandOutcome, WorktreeBase } from './isolation/types';

export type { KeptFile, LandCheck, LandConflict, LandOutcome, WorktreeBase } from './isolation/types';

/** Event payloads, without the envelope the bus adds. */
export type EventBody =
  /**
   * The user's prompt as the session received it, before any hook saw it: the first event of every root run, sent
   * before anything is awaited, so a panel shows it at once (the prompt's one way into a view). `agent_started`
   * follows, unless a UserPromptSubmit hook blocked the prompt. Live only: the transcript does not keep it
   * (agent_started holds the prompt; a blocked one stays off the disk).
   */
  | {
      type: 'prompt';
      text: string;
      /** The prompt is a Retry the host wrote for the user (`text` is what the model gets). */
      retryOf?: RetryOf;
      /** The prompt is a handoff the host wrote for the user (`text` is what the model gets, `handoff.text` what the user sent). */
      handoff?: HandoffOf;
    }
  | {
      type: 'agent_started';
      /** Prompt the agent starts from (the user's prompt for the root, the task prompt for a child). */
      prompt: string;
      description?: string;
      depth: number;
      model: string;
      /** For a subagent: the id of the parent's `task` tool_use that spawned it. */
      toolUseId?: string;
      /**
       * A fork: it started from this agent's conversation (its parent's), the first `messageCount` messages as that
       * agent's context held them (after any compaction); the last of them holds the task call `toolUseId`.
       */
      forkedFrom?: { agentId: string; messageCount: number };
      /** For the root agent: the folder it works in (lists sessions per folder, `--continue`). */
      cwd?: string;
      /** A subagent's agent definition (`general-purpose`, `Explore`, a file's name) and its colour. */
      agentType?: string;
      color?: string;
      /** What this agent may spend before it must report (tokens, wall seconds, dollars). */
      budget?: { tokens?: number; seconds?: number; usd?: number };
      /** A subagent's name (task's `name`, unique in the session): send_message and read_subagent take it. */
      name?: string;
      /**
       * A subagent's own mode, stricter than the session's (its parent's, narrowed by its agent file's
       * permissionMode): a resume runs it under this one again, whoever sends the message.
       */
      mode?: PermissionMode;
      /** A subagent's tools when it started (`task`, `web_search` included when it had them): a resume never has more. */
      tools?: string[];
      /**
       * A finished or stopped subagent resumed with a message (send_message, the user's): segment 2, 3, … of the
       * same agent and tree node; `prompt` is the message. Absent on an agent's first start.
       */
      segment?: number;
      /** Who sent the message that resumed it (with `segment`). */
      resumedBy?: 'parent' | 'user';
      /** The root's prompt is a Retry the host wrote for the user (the `prompt` event's; the transcript keeps this one). */
      retryOf?: RetryOf;
      /** The root's prompt is a handoff the host wrote for the user (the `prompt` event's; the transcript keeps this one). */
      handoff?: HandoffOf;
      /** What the parent's task call chose for this child: its own model (as written) and effort. */
      asked?: { model?: string; effort?: Effort };
      /** Its agent file's `memory` (agent-memory.ts): the scope and the folder; `refused` when the folder leads out of the workspace. */
      memory?: AgentMemoryNote;
    }
  | {
      type: 'agent_finished';
      status: AgentStatus;
      result: string;
      /** Copilot's handoffs of its agent file, after an answer (completed): next steps a host may offer as buttons. */
      handoffs?: { label: string; agent: string; prompt?: string; send?: boolean; model?: string }[];
      turns: number;
      toolCalls: number;
      /** This agent's usage plus every descendant's. */
      usage: Usage;
      /** Dollars, this agent's and every descendant's (absent when no model had a price). */
      costUsd?: number;
      /** A typed return's value, as the agent gave it (validated against its schema; the parent reads it defanged). */
      output?: unknown;
      durationMs: number;
      error?: string;
    }
  /**
   * A message appended to this agent's own conversation (what the model will see next turn). A tool's output
   * travels once: a tool_result block whose id is in `outputRefs` has no `content` here, its content is the
   * `output` of this agent's last `tool_call` end patch of that id (which came before). Older transcripts have no
   * `outputRefs` and every content inline; replay (session/replay.ts) puts the content back.
   */
  | { type: 'message'; message: MessageParam; outputRefs?: string[] }
  | { type: 'text_delta'; turn: number; text: string }
  /**
   * A running call's output as it comes (bash; its first 256 KB): live only, like text_delta; the call's end holds
   * the whole of it.
   */
  | { type: 'tool_output'; id: string; text: string }
  /**
   * One of this agent's thinking blocks finished streaming: its text, '' when the API omits it (display omitted)
   * or it is `redacted`. The blocks themselves, signatures included, are in the assistant `message` event; they
   * stay in this agent's own conversation (a parent gets only its child's result).
   */
  | { type: 'thinking'; turn: number; text: string; redacted?: boolean }
  | { type: 'turn_started'; turn: number; forcedFinal: boolean }
  /** A patch of one tool call's record (tool-call-record.ts): pending, running, then completed or error. */
  | ({ type: 'tool_call' } & ToolCallPatch)
  | {
      type: 'permission_asked';
      toolUseId: string;
      name: string;
      input: unknown;
      reason: string;
    }
  | {
      type: 'permission_answered';
      toolUseId: string;
      name: string;
      decision: PermissionDecision;
      reason?: string;
    }
  | { type: 'usage'; turn: number; usage: Usage; /** What this response cost, when the model has a price. */ costUsd?: number }
  /**
   * The agent's conversation was compacted before its next request: old tool results were replaced by
   * `stubs` (by tool_use id) and, with `summary`, all but the last `keptMessages` messages by a summary.
   * The transcript keeps the originals; replaying this on them gives the compacted conversation.
   */
  | {
      type: 'compacted';
      trigger: 'auto' | 'manual' | 'overflow';
      tokensBefore: number;
      tokensAfter: number;
      stubs: Record<string, string>;
      summary?: string;
      keptMessages?: number;
    }
  | { type: 'error'; message: string; retrying: boolean }
  /**
   * A hook did something the user should see (routine allows and non-matches make no event): a command failed or
   * timed out (`error`, never blocking), blocked a call or a prompt, rewrote an input, added context, made an agent
   * go on (`continued`), or said something to the user (`message`, Claude Code's `systemMessage`).
   */
  | {
      type: 'hook';
      hookEvent: string;
      outcome: 'error' | 'blocked' | 'rewrote' | 'context' | 'continued' | 'message';
      message: string;
      /** The command, for a settings-file hook; where it was configured. */
      command?: string;
      source?: string;
    }
  /** Project instructions (AGENTS.md, CLAUDE.md, …) went into every agent's system prompt: which, how much, cut or not. */
  | { type: 'instructions_loaded'; files: string[]; chars: number; cut: boolean; skipped?: string[] }
  /**
   * Something the user should know about the session's setup (an agent file, a hook or an MCP config that
   * could not be used, which instruction files were loaded): the panel shows a notice, the CLI a stderr line.
   */
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; text: string; source?: string }
  /**
   * A reply's `task` calls wait for the user's look before any starts (the editor's fan-out card,
   * delegation/fanout-review.ts): a view shows them as pending tasks. `fanout_answered` follows with the user's choice;
   * then each call runs, or ends in error (a cancelled one's output says why it never ran).
   */
  | { type: 'fanout_asked'; calls: { toolUseId: string; input: unknown; agentType: string }[] }
  | { type: 'fanout_answered'; choice: 'run' | 'run_capped' | 'cancel'; toolUseIds: string[] }
  /** A finished subagent's result waits for the user's review (Accept, Edit result, Re-run) before its parent sees it. */
  | { type: 'review_requested'; result: string }
  | { type: 'review_resolved'; action: 'accept' | 'edit' | 'rerun' }
  /**
   * The model request has had no answer yet (not even headers) for `waitedMs`; `attempt` counts HTTP attempts. With
   * `retry`, attempt `attempt` was refused (429 rate limited, 529 overloaded…) and the next one starts after `retry.waitMs`.
   */
  | { type: 'waiting'; turn: number; attempt: number; waitedMs: number; retry?: RetryInfo }
  /**
   * write_file / edit_file changed a file, or a bash command / MCP call did (the journal a revert works from; see changes/): `path` relative to
   * the workspace, the contents before and after by hash (kept in the session folder), its own line counts, and its hunks
   * (line-diff.ts changeDiff, cut; absent when the lines are the same) for the panel's inline diff.
   */
  | {
      type: 'file_changed';
      toolUseId: string;
      path: string;
      action: FileAction;
      before?: ContentHash;
      after?: ContentHash;
      added: number;
      removed: number;
      diff?: string;
      /** Found around a bash command or MCP call: every call that could have made it (the event is the first's). */
      causes?: ChangeCause[];
      /** Why it cannot be reverted (its content before was not kept). */
      lost?: string;
    }
  /** A subagent finished: what it and its descendants changed and ran (the footer of its task result). */
  | { type: 'change_manifest'; files: ChangedFile[]; commands: CommandRun[] }
  /** A finished subagent's report held to its record (report/child-report.ts): claims it does not support, text defanged. */
  | { type: 'report_checked'; unverified: { claim: string; reason: string }[]; defanged: string[] }
  /** The user reverted subagent `target`'s changes (and its descendants'): what happened to each file. */
  | { type: 'changes_reverted'; target: string; files: RevertedFile[]; commands: string[] }
  /** The subagent's own git worktree was made from the parent's live tree and verified (`isolation: worktree`). */
  | { type: 'worktree_created'; workdir: string; base: WorktreeBase }
  /**
   * The isolated subagent ended: its changes (`files`) kept on `branch` and in `patch` (from `snapshot`, the base plus the
   * copied uncommitted files, to `commit`), not in the parent's tree; none: the worktree is gone and nothing is kept.
   * `landCheck`: the session's check (`delegate.landCheck`, `--land-check`), what `delegate land` runs unless told another.
   * `resolves`: this subagent was a resolver of that subagent's conflicts: its changes stand in for that one's.
   */
  | { type: 'worktree_kept'; base: WorktreeBase; snapshot: string; files: KeptFile[]; branch?: string; commit?: string; patch?: string; landCheck?: string; resolves?: string }
  /** Isolated subagents' changes landed into the parent's tree (or discarded, or reverted): `delegate land` (isolation/landing.ts). */
  | { type: 'changes_landed'; action: 'land' | 'discard' | 'revert'; outcomes: LandOutcome[]; check?: LandCheck };

export interface EventEnvelope {
  seq: number;
  time: number;
  sessionId: string;
  agentId: string;
  /** null for the root agent. */
  parentId: string | null;
}

export type DelegateEvent = EventEnvelope & EventBody;

/** A memory agent's folder as its agent_started records it (the panel's marker, stream-json). */
export interface AgentMemoryNote {
  scope: 'user' | 'project' | 'local';
  dir: string;
  refused?: true;
}

export type EventOf<T extends DelegateEvent['type']> = Extract<DelegateEvent, { type: T }>;

export type EventListener = (event: DelegateEvent) => void | Promise<void>;

/**
 * Assigns sequence numbers and fans each event out to every listener, in sequence order (parallel
 * subagents emit concurrently; an async listener must still not see seq 2 before seq 1). When
 * `emit` resolves, every listener has handled the event: the transcript line is written.
 */
export class EventBus {
  private seq = 0;
  private readonly listeners: EventListener[] = [];
  private readonly outputs = new OutputsCarriedOnce();
  /** Deliveries run one after another, so every listener sees events in sequence order, even async ones. */
  private delivery: Promise<void> = Promise.resolve();

  /** `lastSeq`: the highest seq already in the session's transcript (a resumed session goes on after it). */
  constructor(
    readonly sessionId: string,
    lastSeq = 0,
  ) {
    this.seq = lastSeq;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  async emit(agentId: string, parentId: string | null, body: EventBody): Promise<DelegateEvent> {
    const event = { seq: ++this.seq, time: Date.now(), sessionId: this.sessionId, agentId, parentId, ...this.outputs.carry(agentId, body) } as DelegateEvent;
    const delivered = this.delivery.then(async () => {
      for (const listener of this.listeners) await listener(event);
    });
    // A failing listener fails this emit (its caller reports it) but must not block later events.
    this.delivery = delivered.catch(() => undefined);
    await delivered;
    return event;
  }

  /**
   * Delivers at once and synchronously, ahead of queued deliveries: for the last records of a process
   * that is about to die (the transcript writer is synchronous, so the line is on disk when this returns).
   */
  emitNow(agentId: string, parentId: string | null, body: EventBody): DelegateEvent {
    const event = { seq: ++this.seq, time: Date.now(), sessionId: this.sessionId, agentId, parentId, ...this.outputs.carry(agentId, body) } as DelegateEvent;
    for (const listener of this.listeners) {
      try {
        const pending = listener(event);
        if (pending) pending.catch(() => undefined);
      } catch {
        // A dying process keeps writing what it can.
      }
    }
    return event;
  }
}

/**
 * Each agent's tool outputs since its last message (from `tool_call` end patches): the `message` that hands them to the
 * model refers to them (`outputRefs`) instead of repeating them, in the transcript, on stream-json and to the panel.
 * Only a result whose content is exactly that output is referred to (a duplicate id's earlier result, an edited
 * one, a fork's placeholder stay inline), so replay rebuilds the same message byte for byte.
 */
class OutputsCarriedOnce {
  private readonly byAgent = new Map<string, Map<string, string>>();

  carry(agentId: string, body: EventBody): EventBody {
    if (body.type === 'tool_call') {
      if (body.state !== 'completed' && body.state !== 'error') return body;
      let outputs = this.byAgent.get(agentId);
      if (!outputs) this.byAgent.set(agentId, (outputs = new Map()));
      outputs.set(body.id, body.output);
      return body;
    }
    if (body.type === 'agent_finished') this.byAgent.delete(agentId);
    const outputs = this.byAgent.get(agentId);
    if (body.type !== 'message' || !outputs || body.message.role !== 'user' || typeof body.message.content === 'string') return body;
    const refs: string[] = [];
    const content = body.message.content.map((block) => {
      if (block.type !== 'tool_result' || typeof block.content !== 'string' || outputs.get(block.tool_use_id) !== block.content) return block;
      refs.push(block.tool_use_id);
      const { content: _carried, ...rest } = block;
      return rest;
    });
    if (refs.length === 0) return body;
    for (const id of refs) outputs.delete(id);
    return { type: 'message', message: { ...body.message, content }, outputRefs: refs };
  }
}

/** The emitter an agent uses: bound to its own id and its parent's. */
export type AgentEmit = (body: EventBody) => Promise<void>;

export function agentEmitter(bus: EventBus, agentId: string, parentId: string | null): AgentEmit {
  return async (body) => {
    await bus.emit(agentId, parentId, body);
  };
}
