/**
 * "Revert this subagent's changes" for both hosts, from a session's transcript:
 *
 *   readTranscript ─▶ planRevert ─▶ (host confirms) ─▶ applyRevert ─▶ `changes_reverted` event
 *
 * The event is recorded through the live session's bus when the session is open in this process (its seq
 * goes on, the panel hears it), else appended to the transcript after its last event, so the panel and a
 * reopened session show what was done; then the session's lock is held from before any file is touched
 * (a session another process is writing is refused: SessionBusyError).
 */
import { join } from 'node:path';
import { EventBus, type DelegateEvent } from '../events';
import { acquireSessionLock } from '../store/session-lock';
import { readTranscript } from '../store/transcript-reader';
import { createTranscriptStore } from '../store/transcript-store';
import { BlobStore, blobDirOf } from '../changes/blob-store';
import type { ChangeTracker } from '../changes/change-tracker';
import { applyRevert, type RevertChoices, type RevertReport } from '../changes/apply-revert';
import { planRevert, type RevertPlan } from '../changes/revert-plan';

export interface RevertTarget {
  transcriptRoot: string;
  sessionId: string;
  agentId: string;
}

/** The session open in this process, if it is the one being reverted: a host passes its Session as it is. */
export interface LiveSession {
  bus: EventBus;
  changes: ChangeTracker;
}

export async function loadRevertPlan(target: RevertTarget): Promise<RevertPlan | { error: string }> {
  const events = await readTranscript(target.transcriptRoot, target.sessionId);
  if (!events) return { error: `no session "${target.sessionId}" in ${target.transcriptRoot}` };
  return planRevert(events, target.agentId);
}

/** Reverts, then records it; `recorded` is the `changes_reverted` event as written. */
export async function revertSubagent(target: RevertTarget, plan: RevertPlan, live?: LiveSession, choices: RevertChoices = {}): Promise<RevertReport & { recorded: DelegateEvent }> {
  const lock = live ? undefined : acquireSessionLock(target.transcriptRoot, target.sessionId);
  try {
    return await revertAndRecord(target, plan, live, choices);
  } finally {
    lock?.release();
  }
}

async function revertAndRecord(target: RevertTarget, plan: RevertPlan, live: LiveSession | undefined, choices: RevertChoices): Promise<RevertReport & { recorded: DelegateEvent }> {
  const blobs = live?.changes.blobs ?? new BlobStore(blobDirOf(join(target.transcriptRoot, target.sessionId)));
  const deps = { blobs, ...(live ? { locks: live.changes.locks, onRestored: (absPath: string, hash: string | undefined) => live.changes.restored(absPath, hash) } : {}) };
  const report = await applyRevert(plan, deps, choices);
  const body = {
    type: 'changes_reverted' as const,
    target: plan.agentId,
    files: report.files.map(({ diff: _diff, ...file }) => file),
    commands: report.commands,
  };
  if (live) return { ...report, recorded: await live.bus.emit(plan.rootAgentId, null, body) };
  const events = (await readTranscript(target.transcriptRoot, target.sessionId)) ?? [];
  const store = await createTranscriptStore(target.transcriptRoot, target.sessionId, plan.rootAgentId);
  const bus = new EventBus(target.sessionId, events.reduce((max, e) => Math.max(max, e.seq), 0));
  bus.subscribe(store.listener);
  try {
    return { ...report, recorded: await bus.emit(plan.rootAgentId, null, body) };
  } finally {
    store.close();
  }
}
