/**
 * `delegate land` for any host, from a session's transcript: its isolated subagents' kept changes (`worktree_kept`)
 * landed into the session's folder, discarded, or (landed ones) reverted, and a `changes_landed` event appended:
 *
 *   readTranscript ─▶ the kept children in the order they ended (less those already landed / discarded)
 *                  ─▶ isolation/landing.ts (check on the combination first) or discardKept ─▶ `changes_landed`
 *
 * The session's lock is held throughout (a session another process is writing is refused: SessionBusyError); a host
 * that has the session open (`live`) records through its bus, so the live transcript's sequence goes on unbroken.
 * `keptVersion`: one file as a subagent's kept branch has it (the editor's *Open diff*), beside the tree's path.
 */
import { join } from 'node:path';
import { hardenedGit } from '../changes/git-workspace';
import { EventBus, type DelegateEvent, type LandOutcome } from '../events';
import { acquireSessionLock } from '../store/session-lock';
import { readTranscript } from '../store/transcript-reader';
import { createTranscriptStore } from '../store/transcript-store';
import { landChildren, type LandReport } from '../isolation/landing';
import { discardKept } from '../isolation/worktree';
import type { ToolEnv } from '../secrets/tool-env';
import { ROOT_AGENT_ID } from './session-face';

export interface LandRequest {
  action: 'land' | 'discard' | 'revert';
  /** These subagents only (in this order); every kept one when empty. */
  agents: string[];
  /** The check to run; undefined: the session's (recorded with its kept changes); '': none. */
  check?: string;
  env: ToolEnv;
}

interface Kept {
  agentId: string;
  branch: string;
  /** Every branch its runs kept (a resumed child's earlier ones too): a discard deletes them all. */
  branches: string[];
  commit: string;
  snapshot: string;
  patch?: string;
}

/** The session open in this process: its bus records the landing (see revert-subagent.ts's LiveSession). */
export interface LiveBus {
  bus: EventBus;
}

export async function landIsolated(transcriptRoot: string, sessionId: string, req: LandRequest, live?: LiveBus): Promise<(LandReport & { workdir: string; recorded: DelegateEvent }) | { error: string }> {
  const events = await readTranscript(transcriptRoot, sessionId);
  if (!events) return { error: `no session "${sessionId}" in ${transcriptRoot}` };
  const workdir = workdirOf(events);
  if (!workdir) return { error: 'the session does not record its workspace folder' };
  // An agent's latest kept changes hold its earlier ones (a resume goes on from them): the last one counts.
  const keptBy = new Map<string, Kept>();
  const settled = new Map<string, LandOutcome['outcome']>();
  let sessionCheck: string | undefined;
  for (const e of [...events].sort((a, b) => a.seq - b.seq)) {
    if (e.type === 'worktree_kept' && e.landCheck) sessionCheck = e.landCheck;
    if (e.type === 'worktree_kept' && e.branch && e.commit) {
      const earlier = keptBy.get(e.agentId)?.branches ?? [];
      keptBy.delete(e.agentId);
      keptBy.set(e.agentId, { agentId: e.agentId, branch: e.branch, branches: [...earlier, e.branch], commit: e.commit, snapshot: e.snapshot, ...(e.patch ? { patch: e.patch } : {}) });
    }
    if (e.type === 'changes_landed') for (const o of e.outcomes) if (o.outcome === 'landed' || o.outcome === 'discarded' || o.outcome === 'reverted') settled.set(o.agentId, o.outcome);
  }
  const kept = [...keptBy.values()];
  for (const id of req.agents) if (!kept.some((k) => k.agentId === id)) return { error: `the subagent ${id} kept no isolated changes in this session` };
  const chosen = req.agents.length ? req.agents.map((id) => kept.find((k) => k.agentId === id) as Kept) : kept;
  const open = chosen.filter((k) => (req.action === 'revert' ? settled.get(k.agentId) === 'landed' : !settled.has(k.agentId)));
  if (open.length === 0) return { error: req.action === 'revert' ? 'no landed subagent to revert' : 'nothing left to land: every kept change was landed or discarded already' };
  const lock = acquireSessionLock(transcriptRoot, sessionId);
  try {
    let report: LandReport;
    if (req.action === 'discard') {
      for (const k of open) for (const branch of k.branches) await discardKept(workdir, branch, branch === k.branch ? k.patch : undefined);
      report = { outcomes: open.map((k) => ({ agentId: k.agentId, outcome: 'discarded', files: [] })) };
    } else {
      report = await landChildren(open, {
        workdir,
        scratch: join(transcriptRoot, sessionId, 'worktrees'),
        ...((req.check ?? sessionCheck) && req.action === 'land' ? { check: { command: (req.check ?? sessionCheck) as string, env: req.env } } : {}),
        revert: req.action === 'revert',
      });
    }
    const body = { type: 'changes_landed' as const, action: req.action, outcomes: report.outcomes, ...(report.check ? { check: report.check } : {}) };
    const recorded = live ? await live.bus.emit(ROOT_AGENT_ID, null, body) : await record(transcriptRoot, sessionId, events, body);
    return { ...report, workdir, recorded };
  } finally {
    lock.release();
  }
}

const workdirOf = (events: readonly DelegateEvent[]): string | undefined =>
  events.find((e): e is Extract<DelegateEvent, { type: 'agent_started' }> => e.type === 'agent_started' && e.agentId === ROOT_AGENT_ID && e.cwd !== undefined)?.cwd;

/**
 * One file as subagent `agentId`'s latest kept branch has it (`content` undefined: it deleted the file, or never had
 * it), and `treePath`: where landing writes it (the repository's top folder + the kept path).
 */
export async function keptVersion(transcriptRoot: string, sessionId: string, agentId: string, path: string): Promise<{ content: Buffer | undefined; treePath: string } | { error: string }> {
  const events = await readTranscript(transcriptRoot, sessionId);
  const workdir = events && workdirOf(events);
  if (!events || !workdir) return { error: `no session "${sessionId}" with a workspace folder in ${transcriptRoot}` };
  const kept = events.filter((e): e is Extract<DelegateEvent, { type: 'worktree_kept' }> => e.type === 'worktree_kept' && e.agentId === agentId && e.commit !== undefined).at(-1);
  if (!kept?.commit || !kept.files.some((f) => f.path === path)) return { error: `the subagent ${agentId} kept no change to ${path}` };
  try {
    const top = (await hardenedGit(workdir, ['rev-parse', '--show-toplevel'])).toString('utf8').trim();
    const content = await hardenedGit(top, ['cat-file', 'blob', `${kept.commit}:${path}`]).catch(() => undefined);
    return { content, treePath: join(top, path) };
  } catch (err) {
    return { error: `cannot read the kept branch: ${err instanceof Error ? err.message : String(err)}` };
  }
}

async function record(root: string, sessionId: string, events: readonly DelegateEvent[], body: Extract<DelegateEvent, { type: 'changes_landed' }> extends infer E ? Omit<E, 'seq' | 'time' | 'sessionId' | 'agentId' | 'parentId'> : never): Promise<DelegateEvent> {
  const store = await createTranscriptStore(root, sessionId, ROOT_AGENT_ID);
  const bus = new EventBus(sessionId, events.reduce((max, e) => Math.max(max, e.seq), 0));
  bus.subscribe(store.listener);
  try {
    return await bus.emit(ROOT_AGENT_ID, null, body as never);
  } finally {
    store.close();
  }
}
