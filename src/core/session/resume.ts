/**
 * Resuming, for both hosts: the session's transcript read and replayed for its root agent, so that neither
 * host reads events or names the root's agent id itself (issue 14: one face).
 *
 *   readTranscript(root, id) ─▶ replaySession(id, events, ROOT_AGENT_ID) ─▶ SessionConfig.resume
 */
import type { DelegateEvent } from '../events';
import { readTranscript } from '../store/transcript-reader';
import { ROOT_AGENT_ID } from './session-face';
import { replaySession, type ResumeState } from './replay';

/** What `createSession({ resume })` needs to go on with session `id`; undefined when there is no such transcript. */
export async function resumeState(transcriptRoot: string, id: string): Promise<ResumeState | undefined> {
  const events = await readTranscript(transcriptRoot, id);
  return events ? replaySession(id, events, ROOT_AGENT_ID) : undefined;
}

/** The event is the root agent's own (not one of a subagent's). */
export function isRootEvent(event: Pick<DelegateEvent, 'agentId'>): boolean {
  return event.agentId === ROOT_AGENT_ID;
}
