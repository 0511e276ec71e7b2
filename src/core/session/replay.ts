/**
 * Rebuilds what a session needs to go on from its transcript's events (see store/transcript-reader.ts):
 *
 *   root `message` events, run by run ──▶ conversationAfterRun (same rule as a live run's end)
 *   root `compacted` events           ──▶ applyCompaction      (same function as the live compaction)
 *   every event                       ──▶ next seq, agent ids in use, the root's turn count
 *
 * Only the parent's messages are rebuilt: a child's conversation never enters the parent's.
 * A run without an `agent_finished` (the process died) ends as interrupted, with a note saying so.
 */
import { applyCompaction } from '../agent/compaction';
import { appendUserNote, conversationAfterRun } from '../agent/conversation';
import { FORCE_FINAL_NOTE } from '../agent/prompts';
import type { DelegateEvent } from '../events';
import type { MessageParam } from '../llm/types';
import type { AgentStatus } from '../vocabulary';

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
}

export function replaySession(sessionId: string, events: readonly DelegateEvent[], rootAgentId: string): ResumeState {
  let history: MessageParam[] = [];
  let run: MessageParam[] | null = null;
  let lastSeq = 0;
  let rootTurns = 0;
  const agentIds = new Set<string>();
  const endRun = (status: AgentStatus, error?: string): void => {
    history = conversationAfterRun([...history, ...(run ?? [])], status, error);
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
      case 'message':
        (run ??= []).push(event.message);
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
  return { sessionId, lastSeq, agentIds, rootTurns, history, interrupted };
}
