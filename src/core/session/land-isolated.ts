/**
 * `delegate land` for any host, from a session's transcript: its isolated subagents' kept changes (`worktree_kept`)
 * landed into the session's folder, discarded, or (landed ones) reverted, and a `changes_landed` event appended:
 *
 *   readTranscript ─▶ the kept children in the order they ended (less those already landed / discarded)
 *                  ─▶ isolation/landing.ts (check on the combination first) or discardKept ─▶ `changes_landed`
 *
 * The session's lock is held throughout (a session another process is writing is refused: SessionBusyError); a host
 * that has the session open (`live`: the editor, the main agent's `land` tool) records through its bus, so the live
 * transcript's sequence goes on unbroken. `keptVersion`: one file as a subagent's kept branch has it (the editor's
 * *Open diff*), beside the tree's path.
 *
 * A resolver's kept changes (`worktree_kept.resolves`: the land tool's `resolve`) stand in for the child whose
 * conflicts it settled: that child is not landed itself while they are kept, and when they land it is `resolved`.
 */
import { join } from 'node:path';
import { hardenedGit } from '../changes/git-workspace';
import { EventBus, type DelegateEvent, type LandOutcome } from '../events';
import { acquireSessionLock } from '../store/session-lock';
import { readTranscript } from '../store/transcript-reader';
import { createTranscriptStore } from '../store/transcript-store';
import { landChildren, markerLine, type LandReport } from '../isolation/landing';
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
  /** Why a file (the repository's path) may not land this way (the main agent's tool: a protected path), if so. */
  refuse?: (path: string) => string | undefined;
}

/** What `changes_landed` holds, less what the bus stamps. */
export type LandedBody = Omit<Extract<DelegateEvent, { type: 'changes_landed' }>, 'seq' | 'time' | 'sessionId' | 'agentId' | 'parentId'>;

/** The result: the report, the folder, and each conflicting child's kept commits (what a resolver starts from). */
export type LandResult = (LandReport & { workdir: string; recorded: DelegateEvent; kept: Record<string, Pick<Kept, 'agentId' | 'snapshot' | 'commit'>> }) | { error: string };

interface Kept {
  agentId: string;
  branch: string;
  /** Every branch its runs kept (a resumed child's earlier ones too): a discard deletes them all. */
  branches: string[];
  commit: string;
  snapshot: string;
  patch?: string;
  /** A resolver: the child whose conflicts it settled. */
  resolves?: string;
  /** The files it changed (the repository's paths). */
  files: string[];
}

/** The session open in this process: its bus records the landing (see revert-subagent.ts's LiveSession). */
export interface LiveBus {
  bus: EventBus;
}

export async function landIsolated(transcriptRoot: string, sessionId: string, req: LandRequest, live?: LiveBus): Promise<LandResult> {
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
      keptBy.set(e.agentId, { agentId: e.agentId, branch: e.branch, branches: [...earlier, e.branch], commit: e.commit, snapshot: e.snapshot, files: e.files.map((f) => f.path), ...(e.patch ? { patch: e.patch } : {}), ...(e.resolves ? { resolves: e.resolves } : {}) });
    }
    if (e.type === 'changes_landed') for (const o of e.outcomes) if (o.outcome === 'landed' || o.outcome === 'discarded' || o.outcome === 'reverted' || o.outcome === 'resolved') settled.set(o.agentId, o.outcome);
  }
  // A child a kept, not discarded resolver stands in for is not landed (or discarded) itself.
  const standIns = new Set([...keptBy.values()].filter((k) => k.resolves && settled.get(k.agentId) !== 'discarded').map((k) => k.resolves as string));
  const kept = [...keptBy.values()].filter((k) => !(standIns.has(k.agentId) && req.action !== 'revert'));
  for (const id of req.agents) {
    const resolver = standIns.has(id) && req.action !== 'revert' ? [...keptBy.values()].find((k) => k.resolves === id)?.agentId : undefined;
    if (resolver) return { error: `the subagent ${id}'s conflicts were handed to resolver ${resolver}, whose changes stand in for its own: land or discard ${resolver} (discarding it makes ${id} landable again)` };
    if (!kept.some((k) => k.agentId === id)) return { error: `the subagent ${id} kept no isolated changes in this session` };
  }
  const chosen = req.agents.length ? req.agents.map((id) => kept.find((k) => k.agentId === id) as Kept) : kept;
  const open = chosen.filter((k) => (req.action === 'revert' ? settled.get(k.agentId) === 'landed' : !settled.has(k.agentId)));
  if (keptBy.size === 0) return { error: 'no subagent of this session kept isolated changes (none ran with isolation: worktree and changed a file)' };
  if (open.length === 0) return { error: req.action === 'revert' ? 'no landed subagent to revert' : 'nothing left to land: every kept change was landed or discarded already' };
  const lock = acquireSessionLock(transcriptRoot, sessionId);
  try {
    let report: LandReport;
    if (req.action === 'discard') {
      for (const k of open) for (const branch of k.branches) await discardKept(workdir, branch, branch === k.branch ? k.patch : undefined);
      report = { outcomes: open.map((k) => ({ agentId: k.agentId, outcome: 'discarded', files: [] })) };
    } else {
      // A child changing a file this landing may not write is left whole to the user (`failed`, the reason).
      const refusedOf = (k: Kept): string | undefined => (req.action === 'land' && req.refuse ? k.files.map((f) => req.refuse?.(f)).find((r) => r !== undefined) : undefined);
      const refused: LandOutcome[] = open.flatMap((k) => {
        const reason = refusedOf(k);
        return reason ? [{ agentId: k.agentId, outcome: 'failed' as const, files: k.files, reason }] : [];
      });
      const landing = open.filter((k) => !refused.some((r) => r.agentId === k.agentId));
      report = landing.length === 0 ? { outcomes: [] } : await landChildren(landing.map((k) => ({ agentId: k.agentId, snapshot: k.snapshot, commit: k.commit, ...(k.resolves ? { resolver: true } : {}) })), {
        workdir,
        scratch: join(transcriptRoot, sessionId, 'worktrees'),
        ...((req.check ?? sessionCheck) && req.action === 'land' ? { check: { command: (req.check ?? sessionCheck) as string, env: req.env } } : {}),
        revert: req.action === 'revert',
      });
      report.outcomes.push(...refused);
    }
    // A resolver that landed settles the child it stood in for.
    for (const o of [...report.outcomes]) {
      const target = o.outcome === 'landed' ? keptBy.get(o.agentId)?.resolves : undefined;
      if (target) report.outcomes.push({ agentId: target, outcome: 'resolved', files: [], resolvedBy: o.agentId });
    }
    const body: LandedBody = { type: 'changes_landed', action: req.action, outcomes: report.outcomes, ...(report.check ? { check: report.check } : {}) };
    const recorded = live ? await live.bus.emit(ROOT_AGENT_ID, null, body) : await record(transcriptRoot, sessionId, events, body);
    const conflicted = report.outcomes.filter((o) => o.outcome === 'conflict').map((o) => keptBy.get(o.agentId)).filter((k): k is Kept => k !== undefined);
    return { ...report, workdir, recorded, kept: Object.fromEntries(conflicted.map((k) => [k.agentId, { agentId: k.agentId, snapshot: k.snapshot, commit: k.commit }])) };
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

/**
 * The files of subagent `agentId`'s latest kept changes that still hold a conflict marker (`<<<<<<< parent`…): a
 * resolver's that landing would refuse. The editor's Resolve keeps a resolver's result only when there are none.
 */
export async function markersLeft(transcriptRoot: string, sessionId: string, agentId: string): Promise<string[]> {
  const events = await readTranscript(transcriptRoot, sessionId);
  const kept = events?.filter((e): e is Extract<DelegateEvent, { type: 'worktree_kept' }> => e.type === 'worktree_kept' && e.agentId === agentId && e.commit !== undefined).at(-1);
  if (!kept) return [];
  const left: string[] = [];
  for (const f of kept.files.filter((x) => x.status !== 'D')) {
    const version = await keptVersion(transcriptRoot, sessionId, agentId, f.path);
    if (!('error' in version) && markerLine(version.content) !== undefined) left.push(f.path);
  }
  return left;
}

async function record(root: string, sessionId: string, events: readonly DelegateEvent[], body: LandedBody): Promise<DelegateEvent> {
  const store = await createTranscriptStore(root, sessionId, ROOT_AGENT_ID);
  const bus = new EventBus(sessionId, events.reduce((max, e) => Math.max(max, e.seq), 0));
  bus.subscribe(store.listener);
  try {
    return await bus.emit(ROOT_AGENT_ID, null, body as never);
  } finally {
    store.close();
  }
}
