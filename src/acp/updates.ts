/**
 * The core's events as ACP `session/update` notifications, for one Delegate session (live, or its transcript
 * replayed on session/load):
 *
 *   text_delta (live) / assistant message (replay) ─▶ agent_message_chunk     thinking ─▶ agent_thought_chunk
 *   a call's record: pending ─▶ tool_call (kind, title, locations)   running ─▶ in_progress   file_changed ─▶ its diff
 *                    completed / error ─▶ status, output
 *   usage ─▶ usage_update (context used of the window, the session's cost)
 *   a subagent, when the client has subagent sessions:  subagent_update on its parent's session (title = the task's
 *        description, its agent type, running → idle with how it ended), then its own updates under its own id
 *   a subagent otherwise: folded into its `task` call's content (task-summary.ts), rewritten as it works
 *   an isolated subagent's worktree_kept ─▶ a note under its `task` call (where its changes wait, how to land them)
 *   changes_landed, worktree_kept ─▶ a `notice` on the root's session, where the client shows notices (isolation-notes.ts)
 *
 * Which ACP session an agent's updates go to is decided here; permission-requests.ts and cancel ask the same map.
 */
import { describesCall, endsCall, opensCall, type DelegateEvent, type EventOf, type ToolCallEnd } from '../core/events';
import type { AgentStatus, Usage } from '../core/vocabulary';
import type { SessionUpdate, StopReason, ToolCallContent } from '@agentclientprotocol/sdk/unstable';
import { newSummary, renderSummary, type ChildSummary } from './task-summary';
import { locationsOf, toolKindOf, toolTitle } from './tool-kinds';
import { keptNote, landedNote } from './isolation-notes';

export type SendUpdate = (sessionId: string, update: SessionUpdate) => Promise<void>;

export interface UpdateOptions {
  /** The root agent's ACP session (the Delegate session's id). */
  sessionId: string;
  rootAgentId: string;
  workdir: string;
  /** A file content the change journal kept, by hash (the diffs' old and new text). */
  readBlob(hash: string): Promise<string | undefined>;
  /** The client advertised `subagents`: children become sessions of their own. */
  subagentSessions: boolean;
  contextWindow(): number;
  send: SendUpdate;
  /** The client shows `notice` updates (session.notices). */
  notices?: boolean;
}

interface AgentView {
  parentId: string | null;
  description?: string;
  agentType?: string;
  /** Its own ACP session (the root's, or a child session); undefined when folded into a task call. */
  sessionId?: string;
  /** Folded: the summary it writes into, and the visible call that shows it. */
  summary?: ChildSummary;
  shownIn?: { sessionId: string; toolCallId: string; root: ChildSummary };
  /** The parent's `task` call that started it (where its worktree note goes). */
  toolUseId?: string;
  costUsd: number;
}

/** A tool's output shown in the client is cut here (the model got it whole, or as the tool cut it). */
const MAX_OUTPUT_CHARS = 20_000;

export class SessionUpdates {
  private readonly agents = new Map<string, AgentView>();
  /** Calls that showed a diff: their output is not shown over it. */
  private readonly diffed = new Set<string>();
  /** Isolated subagents' notes (where their changes wait) by the task call that shows them. */
  private readonly keptNotes = new Map<string, string[]>();

  constructor(private readonly o: UpdateOptions) {
    this.agents.set(o.rootAgentId, { parentId: null, sessionId: o.sessionId, costUsd: 0 });
  }

  /** The ACP session where this agent's permission requests and updates belong (its top visible ancestor's, folded). */
  sessionOf(agentId: string): string {
    const view = this.agents.get(agentId);
    return view?.sessionId ?? view?.shownIn?.sessionId ?? this.o.sessionId;
  }

  /**
   * The card a call's permission request goes on: the call's own, or, for a child folded into its task call (no
   * subagent sessions), that task call — the client was never told of the child's calls.
   */
  cardOf(agentId: string, toolUseId: string): { sessionId: string; toolCallId: string } {
    const shown = this.agents.get(agentId)?.shownIn;
    if (shown && this.agents.get(agentId)?.sessionId === undefined) return { sessionId: shown.sessionId, toolCallId: shown.toolCallId };
    return { sessionId: this.sessionOf(agentId), toolCallId: toolUseId };
  }

  /** The agent a child session stands for (session/cancel on it stops that child only). */
  agentOfSession(sessionId: string): string | undefined {
    for (const [agentId, view] of this.agents) if (view.sessionId === sessionId && agentId !== this.o.rootAgentId) return agentId;
    return undefined;
  }

  /** "the main agent", or `subagent "find the config" (Explore)`: who asks, in permission requests. */
  describeAgent(agentId: string): string {
    const view = this.agents.get(agentId);
    if (!view || view.parentId === null) return 'the main agent';
    return `subagent "${view.description ?? agentId}"${view.agentType ? ` (${view.agentType})` : ''}`;
  }

  async handle(e: DelegateEvent, replay = false): Promise<void> {
    if (e.type === 'agent_started') return this.started(e, replay);
    const view = this.agents.get(e.agentId);
    if (!view) return;
    if (e.type === 'worktree_kept' || e.type === 'changes_landed') return this.isolation(view, e);
    if (view.sessionId === undefined) {
      // A folded child's spend still counts in the session's cost.
      if (e.type === 'usage') this.addCost(e.costUsd);
      return this.fold(view, e);
    }
    const sid = view.sessionId;
    switch (e.type) {
      case 'text_delta':
        if (!replay && e.text) await this.o.send(sid, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: e.text } });
        return;
      case 'message':
        if (!replay || e.message.role !== 'assistant' || typeof e.message.content === 'string') return;
        for (const block of e.message.content) {
          if (block.type === 'text' && block.text) await this.o.send(sid, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: block.text } });
        }
        return;
      case 'thinking':
        if (e.text) await this.o.send(sid, { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: e.text } });
        return;
      case 'tool_call':
        if (endsCall(e)) return this.finished(sid, e);
        // The record's first patch (a transcript before records opens it running).
        if (opensCall(e)) {
          return this.o.send(sid, {
            sessionUpdate: 'tool_call',
            toolCallId: e.id,
            title: toolTitle(e.name, e.summary),
            kind: toolKindOf(e.name, e.input),
            status: e.state === 'pending' ? 'pending' : 'in_progress',
            locations: locationsOf(this.o.workdir, e.paths),
            rawInput: e.input,
          });
        }
        // Running; after a PreToolUse hook's rewrite, with what runs.
        return this.o.send(sid, {
          sessionUpdate: 'tool_call_update',
          toolCallId: e.id,
          status: 'in_progress',
          ...(describesCall(e) ? { title: toolTitle(e.name, e.summary), locations: locationsOf(this.o.workdir, e.paths), rawInput: e.input } : {}),
        });
      case 'file_changed':
        return this.diff(sid, e);
      case 'usage':
        return this.usage(view, sid, e);
      case 'agent_finished':
        if (view.parentId === null) return;
        return this.o.send(this.parentSession(view), {
          sessionUpdate: 'subagent_update',
          sessionId: sid,
          state: { state: 'idle', ...stopOf(e.status, e.error), usage: acpUsage(e.usage) },
          // Done: nothing left to cancel.
          capabilities: null,
        });
      default:
        return;
    }
  }

  private async started(e: EventOf<'agent_started'>, replay: boolean): Promise<void> {
    if (e.agentId === this.o.rootAgentId) {
      // Live, the client sent the prompt itself; a replayed session shows it.
      if (replay) await this.o.send(this.o.sessionId, { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: e.prompt } });
      return;
    }
    const parent = this.agents.get(e.parentId ?? this.o.rootAgentId);
    const description = e.description ?? 'subagent';
    const view: AgentView = { parentId: e.parentId, description, ...(e.agentType ? { agentType: e.agentType } : {}), ...(e.toolUseId ? { toolUseId: e.toolUseId } : {}), costUsd: 0 };
    this.agents.set(e.agentId, view);
    if (!parent) return;
    if (this.o.subagentSessions && parent.sessionId !== undefined) {
      view.sessionId = `${this.o.sessionId}/${e.agentId}`;
      await this.o.send(parent.sessionId, {
        sessionUpdate: 'subagent_update',
        sessionId: view.sessionId,
        title: description,
        description: e.agentType ? `${e.agentType} agent` : null,
        state: { state: 'running' },
        capabilities: replay ? null : { cancel: {} },
        cwd: this.o.workdir,
        _meta: { delegate: { agentId: e.agentId, agentType: e.agentType ?? null, depth: e.depth, model: e.model, toolCallId: e.toolUseId ?? null } },
      });
      await this.o.send(view.sessionId, { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: e.prompt } });
      return;
    }
    // Folded: into the parent's task call when the parent is visible, else into the parent's own summary.
    view.summary = newSummary(description, e.agentType);
    if (parent.sessionId !== undefined && e.toolUseId) {
      view.shownIn = { sessionId: parent.sessionId, toolCallId: e.toolUseId, root: view.summary };
    } else if (parent.summary && parent.shownIn) {
      parent.summary.children.push(view.summary);
      view.shownIn = parent.shownIn;
    }
    await this.showSummary(view);
  }

  private async fold(view: AgentView, e: DelegateEvent): Promise<void> {
    const summary = view.summary;
    if (!summary) return;
    switch (e.type) {
      case 'tool_call': {
        const step = summary.steps.find((s) => s.id === e.id);
        if (opensCall(e)) {
          summary.steps.push({ id: e.id, title: toolTitle(e.name, e.summary) });
          break;
        }
        if (!step) return;
        // A PreToolUse hook's rewrite: the step says what runs.
        if (describesCall(e)) step.title = toolTitle(e.name, e.summary);
        else if (e.state === 'error') step.failed = true;
        else return;
        break;
      }
      case 'message': {
        if (e.message.role !== 'assistant' || typeof e.message.content === 'string') return;
        const text = e.message.content.map((b) => (b.type === 'text' ? b.text : '')).join('').trim();
        if (!text) return;
        summary.lastText = text;
        break;
      }
      case 'agent_finished':
        summary.state = e.status;
        if (e.result) summary.lastText = e.result;
        else if (e.error) summary.lastText = e.error;
        break;
      default:
        return;
    }
    await this.showSummary(view);
  }

  private async showSummary(view: AgentView, report?: string): Promise<void> {
    const shown = view.shownIn;
    if (!shown) return;
    const text = renderSummary(shown.root, 0, report === undefined ? undefined : cutOutput(report));
    await this.o.send(shown.sessionId, { sessionUpdate: 'tool_call_update', toolCallId: shown.toolCallId, content: [textContent(text), ...this.notesOf(shown.toolCallId)] });
  }

  private notesOf(toolCallId: string): ToolCallContent[] {
    return (this.keptNotes.get(toolCallId) ?? []).map(textContent);
  }

  /**
   * Where an isolated child's changes wait (a note under the task call that started it, kept there when the call
   * ends), and what a landing did; both as a notice too where the client shows notices.
   */
  private async isolation(view: AgentView, e: EventOf<'worktree_kept'> | EventOf<'changes_landed'>): Promise<void> {
    const note = e.type === 'worktree_kept' ? { severity: 'info' as const, text: keptNote(e, this.o.sessionId) } : landedNote(e, this.o.sessionId);
    if (this.o.notices) await this.o.send(this.o.sessionId, { sessionUpdate: 'notice', severity: note.severity, title: note.text, description: 'isolated subagents' });
    if (e.type !== 'worktree_kept') return;
    const callId = view.shownIn?.toolCallId ?? view.toolUseId;
    if (!callId) return;
    this.keptNotes.set(callId, [...(this.keptNotes.get(callId) ?? []), note.text]);
    if (view.shownIn) return this.showSummary(view);
    await this.o.send(this.parentSession(view), { sessionUpdate: 'tool_call_update', toolCallId: callId, content: this.notesOf(callId) });
  }

  private async diff(sid: string, e: EventOf<'file_changed'>): Promise<void> {
    const [before, after] = await Promise.all([this.text(e.before), this.text(e.after)]);
    this.diffed.add(e.toolUseId);
    await this.o.send(sid, {
      sessionUpdate: 'tool_call_update',
      toolCallId: e.toolUseId,
      content: [{ type: 'diff', path: locationsOf(this.o.workdir, [e.path])[0]?.path ?? e.path, oldText: before ?? null, newText: after ?? '' }],
    });
  }

  private text(hash: string | undefined): Promise<string | undefined> {
    return hash ? this.o.readBlob(hash) : Promise.resolve(undefined);
  }

  private async finished(sid: string, e: EventOf<'tool_call'> & ToolCallEnd): Promise<void> {
    const failed = e.state === 'error';
    const status = failed ? 'failed' : 'completed';
    // A folded child's task call keeps its summary, the result under it.
    const child = [...this.agents.values()].find((v) => v.shownIn?.toolCallId === e.id && v.summary === v.shownIn.root);
    if (child) {
      // The child's own final words, once; the task's output adds the harness's notes to the model ([changes] …).
      await this.showSummary(child, child.summary?.state !== 'running' ? (child.summary?.lastText ?? '') : withoutHarnessNotes(e.output));
      return this.o.send(sid, { sessionUpdate: 'tool_call_update', toolCallId: e.id, status });
    }
    const keepDiff = this.diffed.delete(e.id) && !failed;
    await this.o.send(sid, {
      sessionUpdate: 'tool_call_update',
      toolCallId: e.id,
      status,
      ...(keepDiff ? {} : { content: [textContent(shownOutput(e.name, e.output)), ...this.notesOf(e.id)] }),
    });
  }

  private async usage(view: AgentView, sid: string, e: EventOf<'usage'>): Promise<void> {
    const u = e.usage;
    if (view.parentId !== null) view.costUsd += e.costUsd ?? 0;
    this.addCost(e.costUsd);
    await this.o.send(sid, {
      sessionUpdate: 'usage_update',
      used: u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens,
      size: this.o.contextWindow(),
      ...(view.costUsd > 0 ? { cost: { amount: round(view.costUsd), currency: 'USD' } } : {}),
    });
  }

  /** The whole session's spend goes on the root's session, every agent's included. */
  private addCost(usd: number | undefined): void {
    const root = this.agents.get(this.o.rootAgentId);
    if (root) root.costUsd += usd ?? 0;
  }

  private parentSession(view: AgentView): string {
    return this.agents.get(view.parentId ?? this.o.rootAgentId)?.sessionId ?? this.o.sessionId;
  }
}

/** How an agent's end reads as an ACP stop reason. */
export function stopReasonOf(status: AgentStatus): StopReason {
  switch (status) {
    case 'completed':
      return 'end_turn';
    case 'max_turns':
      return 'max_turn_requests';
    case 'budget_exceeded':
      return 'max_tokens';
    case 'cancelled':
      return 'cancelled';
    case 'error':
      return 'end_turn';
  }
}

function stopOf(status: AgentStatus, error: string | undefined): { stopReason: string; error?: { code: number; message: string } } {
  return status === 'error' ? { stopReason: 'error', error: { code: -32603, message: error ?? 'the subagent failed' } } : { stopReason: stopReasonOf(status) };
}

export function acpUsage(u: Usage): { totalTokens: number; inputTokens: number; outputTokens: number; cachedReadTokens: number; cachedWriteTokens: number } {
  const input = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
  return { totalTokens: input + u.output_tokens, inputTokens: input, outputTokens: u.output_tokens, cachedReadTokens: u.cache_read_input_tokens, cachedWriteTokens: u.cache_creation_input_tokens };
}

function textContent(text: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text } };
}

function cutOutput(text: string): string {
  return text.length <= MAX_OUTPUT_CHARS ? text : `${text.slice(0, MAX_OUTPUT_CHARS)}\n… (${text.length - MAX_OUTPUT_CHARS} more characters)`;
}

/** A call's output as its card shows it: a command's fenced, a task's without the harness's notes to the model. */
function shownOutput(tool: string, output: string): string {
  if (tool === 'bash') return fence(cutOutput(output));
  return cutOutput(tool === 'task' ? withoutHarnessNotes(output) : output);
}

/** A task's output less the lines the harness writes for the model (report-guard.ts names them). */
function withoutHarnessNotes(output: string): string {
  return output
    .split('\n')
    .filter((line) => !/^\[(changes|unverified|deliverables|harness|subagent )/.test(line))
    .join('\n')
    .trim();
}

function fence(text: string): string {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}\n${text}\n${ticks}`;
}

const round = (usd: number): number => Math.round(usd * 1e6) / 1e6;
