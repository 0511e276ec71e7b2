/**
 * The history face: what a host does with the sessions on disk, apart from running one (core/session/index.ts).
 * One object per transcript folder, so a host never reaches the store, the blob store or the revert machinery:
 *
 *   history(root) ─┬─ list / read / rename / delete     the sessions (store/)
 *                  ├─ resume / replay                   a session's state to continue it (the root's replay)
 *                  ├─ blob                              a file's recorded content (changes/blob-store.ts)
 *                  ├─ revertPlan ─▶ (host confirms) ─▶ revert   a subagent's changes undone (revert-subagent.ts)
 *                  ├─ land                              isolated subagents' kept changes landed / discarded (land-isolated.ts)
 *                  └─ keptVersion                       a file as a subagent's kept branch has it (the editor's Open diff)
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DelegateEvent } from '../events';
import { blobDirOf, isContentHash } from '../changes/blob-store';
import type { RevertChoices, RevertReport } from '../changes/apply-revert';
import type { RevertPlan } from '../changes/revert-plan';
import { listSessions, type SessionSummary } from '../store/session-index';
import { deleteSession, renameSession } from '../store/session-admin';
import { isValidSessionId, readTranscript } from '../store/transcript-reader';
import { defaultTranscriptRoot } from '../store/transcript-store';
import { replaySession, type ResumeState } from './replay';
import { resumeState } from './resume';
import { loadRevertPlan, revertSubagent, type LiveSession } from './revert-subagent';
import { ROOT_AGENT_ID } from './session-face';
import { keptVersion, landIsolated, type LandRequest, type LiveBus } from './land-isolated';
export { ToolEnv } from '../secrets/tool-env';

export { isRootEvent } from './resume';
export { sharedReason } from '../changes/apply-revert';
export { SessionBusyError } from '../store/session-lock';
export type { ResumeState, RevertPlan, RevertReport, SessionSummary };

export interface SessionHistory {
  /** The transcript folder this history reads. */
  readonly root: string;
  /** The sessions, newest first; `cwd`: only those started in that folder. */
  list(filter?: { cwd?: string }): Promise<SessionSummary[]>;
  /** A session's events, or undefined when there is no such session. */
  read(id: string): Promise<DelegateEvent[] | undefined>;
  rename(id: string, title: string): Promise<void>;
  delete(id: string): Promise<void>;
  /** What a session continued from disk starts from (the root's conversation, its subagents); undefined: no such session. */
  resume(id: string): Promise<ResumeState | undefined>;
  /** The same, from events a host already read (ACP replays them to its client first). */
  replay(id: string, events: readonly DelegateEvent[]): ResumeState;
  /** The bytes a change recorded (a content hash of session `id`), or undefined when there are none. */
  blob(id: string, hash: unknown): Promise<Buffer | undefined>;
  /** What reverting a subagent's changes would do, or why it cannot. */
  revertPlan(sessionId: string, agentId: string): Promise<RevertPlan | { error: string }>;
  /**
   * Reverts the plan and records it (`recorded`: the `changes_reverted` event as written); `live`: the Session open
   * in this process if it is that session (its bus and change locks are used). SessionBusyError: another process holds it.
   */
  revert(sessionId: string, plan: RevertPlan, live?: LiveSession, choices?: RevertChoices): Promise<RevertReport & { recorded: DelegateEvent }>;
  /** Lands (after the check), discards or reverts isolated subagents' kept changes; SessionBusyError: another process holds it. */
  land(sessionId: string, request: LandRequest, live?: LiveBus): ReturnType<typeof landIsolated>;
  /** One file as a subagent's kept branch has it, and the tree's path landing writes (the editor's *Open diff*). */
  keptVersion(sessionId: string, agentId: string, path: string): ReturnType<typeof keptVersion>;
}

/** A session id as the store names them (a host checks a user's before using it). */
export const isSessionId = isValidSessionId;

/** The history in `root`; without one, the default transcript folder (DELEGATE_TRANSCRIPT_DIR or under `home`). */
export function history(root: string | { env: NodeJS.ProcessEnv; home: string }): SessionHistory {
  const dir = typeof root === 'string' ? root : defaultTranscriptRoot(root.env, root.home);
  return {
    root: dir,
    list: (filter = {}) => listSessions(dir, filter),
    read: (id) => readTranscript(dir, id),
    rename: (id, title) => renameSession(dir, id, title),
    delete: (id) => deleteSession(dir, id),
    resume: (id) => resumeState(dir, id),
    replay: (id, events) => replaySession(id, events, ROOT_AGENT_ID),
    blob: async (id, hash) => {
      if (!isValidSessionId(id) || !isContentHash(hash)) return undefined;
      return readFile(join(blobDirOf(join(dir, id)), hash)).catch(() => undefined);
    },
    revertPlan: (sessionId, agentId) => loadRevertPlan({ transcriptRoot: dir, sessionId, agentId }),
    land: (sessionId, request, live) => landIsolated(dir, sessionId, request, live),
    keptVersion: (sessionId, agentId, path) => keptVersion(dir, sessionId, agentId, path),
    revert: (sessionId, plan, live, choices = {}) => revertSubagent({ transcriptRoot: dir, sessionId, agentId: plan.agentId }, plan, live, choices),
  };
}
