/**
 * Rebuilds what a session needs to go on from its transcript's events (see store/transcript-reader.ts):
 *
 *   root `message` events, run by run ──▶ conversationAfterRun (same rule as a live run's end)
 *   root `compacted` events           ──▶ applyCompaction      (same function as the live compaction)
 *   root `tool_call` end outputs      ──▶ the content of the `message` results that refer to them (outputRefs)
 *   every event                       ──▶ next seq, agent ids in use, the root's turn count
 *
 * Only the parent's messages are rebuilt: a child's conversation never enters the parent's.
 * A run without an `agent_finished` (the process died) ends as interrupted, with a note saying so.
 */
import { applyCompaction } from '../loop/compaction-edits';
import { appendUserNote, conversationAfterRun } from '../loop/conversation';
import { FORCE_FINAL_NOTE } from '../loop/prompts';
import type { DelegateEvent, EventOf } from '../events';
import type { ContentBlockParam, MessageParam } from '../llm/types';
import type { AgentStatus } from '../vocabulary';
import { indexChildren, type ChildRecord } from '../delegation/child-records';

export interface ResumeState {
  sessionId: string;
  lastSeq: number;
  agentIds: Set<string>;
  /** Turns the root agent had (event turn numbers continue after it). */
  rootTurns: number;
  /** The root's conversation, as the next prompt must see it. */
  history: MessageParam[];
  /** The last run never recorded its end. */
  interrupted: boolean;
  /** Its subagents, finished ones too (send_message and read_subagent address them): child-records.ts. */
  children?: ChildRecord[];
}

export function replaySession(sessionId: string, events: readonly DelegateEvent[], rootAgentId: string): ResumeState {
  let history: MessageParam[] = [];
  let run: MessageParam[] | null = null;
  let lastSeq = 0;
  let rootTurns = 0;
  const agentIds = new Set<string>();
  // The root's tool outputs, by tool_use id: a message event refers to them instead of repeating them.
  const outputs = new Map<string, string>();
  const endRun = (status: AgentStatus, error?: string): void => {
    history = conversationAfterRun([...history, ...(run ?? [])], status, error, history.length);
    run = null;
  };

  for (const event of events) {
    lastSeq = Math.max(lastSeq, event.seq);
    agentIds.add(event.agentId);
    if (event.agentId !== rootAgentId) continue;
    switch (event.type) {
      case 'agent_started':
        if (run) endRun('cancelled', 'interrupted: the process ended before this request finished');
        run = [];
        break;
      case 'tool_call':
        if (event.state === 'completed' || event.state === 'error') outputs.set(event.id, event.output);
        break;
      case 'message':
        (run ??= []).push(withOutputs(event, outputs));
        break;
      case 'turn_started':
        rootTurns = Math.max(rootTurns, event.turn);
        // The loop adds the turn-limit note to the last user message without a message event of its own.
        if (event.forcedFinal && run) {
          const all: MessageParam[] = [...history, ...run];
          appendUserNote(all, FORCE_FINAL_NOTE);
          history = all.slice(0, history.length);
          run = all.slice(history.length);
        }
        break;
      case 'compacted':
        // Compaction replaces the agent's whole conversation: earlier prompts and this run's messages.
        history = applyCompaction([...history, ...(run ?? [])], event);
        if (run) run = [];
        break;
      case 'agent_finished':
        endRun(event.status, event.error);
        break;
      default:
        break;
    }
  }
  const interrupted = run !== null;
  if (interrupted) endRun('cancelled', 'interrupted: the process ended before this request finished');
  return { sessionId, lastSeq, agentIds, rootTurns, history, interrupted, children: indexChildren(events) };
}

/** The message as the model saw it: each result it refers to (outputRefs) gets its tool's output back, keys in the live order. */
function withOutputs(event: EventOf<'message'>, outputs: ReadonlyMap<string, string>): MessageParam {
  const refs = new Set(event.outputRefs ?? []);
  const { message } = event;
  if (refs.size === 0 || message.role !== 'user' || typeof message.content === 'string') return message;
  const content = message.content.map((block): ContentBlockParam => {
    if (block.type !== 'tool_result' || block.content !== undefined || !refs.has(block.tool_use_id)) return block;
    const { type, tool_use_id, ...rest } = block;
    return { type, tool_use_id, content: outputs.get(tool_use_id) ?? MISSING_OUTPUT, ...rest };
  });
  return { ...message, content };
}

const MISSING_OUTPUT = '(the output of this call is missing from the transcript)';
