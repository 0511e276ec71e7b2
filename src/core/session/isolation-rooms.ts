/**
 * The session's ChildIsolation (delegation/child-isolation.ts): a subagent's own worktree (isolation/worktree.ts)
 * with the session's tools made over it, and a change record of its own.
 *
 *   open(agent)  ─▶ planWorktree: the cheap refusals, the WORKDIR's path ─▶ the room (the child's first request goes out)
 *                   └▶ in the background, one at a time: makeWorktree(<session>/worktrees/<agent>) ─▶ `worktree_created`
 *                      (the base stamp) ─▶ room.ready resolves (rejected: IsolationRefused, nothing left)
 *                ─▶ tools over the worktree (bash's sandbox binds it), a ChangeTracker without a journal
 *   open(resolver) ─▶ the same, then seedConflicts: the conflicting child's changes merged in, conflicts as markers
 *   close        ─▶ finishWorktree ─▶ `worktree_kept` (branch, patch, files; or none and no worktree left)
 *   start        ─▶ prune: worktrees of this folder's dead sessions removed (their work salvaged to a branch)
 *
 * The permission policy reads `workdirOf` (an isolated agent's paths stay inside its worktree); the rest of the core
 * sees a WORKDIR only.
 */
import { lstat, realpath } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import type { EventBus } from '../events';
import type { BlobStore } from '../changes/blob-store';
import { ChangeTracker } from '../changes/change-tracker';
import { IsolationRefused, type ChildIsolation, type ChildRoom, type KeptWork } from '../delegation/child-isolation';
import { finishWorktree, IsolationError, makeWorktree, planWorktree, pruneWorktrees, removeWorktree, reopenWorktree, type PruneReport, type WorktreePlan } from '../isolation/worktree';
import { seedConflicts } from '../isolation/landing';
import type { ToolRegistry } from '../tools/types';
import type { IsolationMode } from '../vocabulary';

export interface IsolationRoomsOptions {
  mode: IsolationMode;
  /** The session's land check, recorded with each kept change for `delegate land`. */
  landCheck?: string;
  sessionId: string;
  sessionDir: string;
  bus: EventBus;
  blobs: BlobStore | undefined;
  /** The session's tools made over another folder, recording into `changes`. */
  toolsFor(workdir: string, changes: ChangeTracker): ToolRegistry;
}

export interface IsolationRooms extends ChildIsolation {
  /** An isolated agent's WORKDIR (its room's), for the permission policy. */
  workdirOf(agentId: string): string | undefined;
}

/** The branch an isolated subagent's changes are kept on. */
const keptBranch = (sessionId: string, agentId: string): string => `delegate/${sessionId.slice(0, 8)}/${agentId}`;

export function createIsolationRooms(o: IsolationRoomsOptions): IsolationRooms {
  const rooms = new Map<string, ChildRoom>();
  // What each isolated subagent kept (this process): a resume reopens its worktree at that commit.
  const keptBy = new Map<string, KeptWork>();
  const under = join(o.sessionDir, 'worktrees');
  // One worktree made or closed at a time: concurrent `git worktree add`s of one repository race on its locks.
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(step: () => Promise<T>): Promise<T> => {
    const next = queue.then(step, step);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    mode: o.mode,
    roomOf: (agentId) => rooms.get(agentId),
    workdirOf: (agentId) => rooms.get(agentId)?.workdir,
    join: (agentId, room) => void rooms.set(agentId, room),
    kept: (agentId) => keptBy.has(agentId),
    async open(agentId, parentId, from, recorded, resolves) {
      const before = keptBy.get(agentId) ?? recorded;
      // A resolver (or a resumed one) stands in for that child's changes.
      const standsFor = resolves?.agentId ?? before?.resolves;
      let plan: WorktreePlan;
      let realSession: string;
      try {
        // The session's folder (its transcript is there): its real path asked beside the plan.
        [plan, realSession] = await Promise.all([planWorktree(from, under, agentId), realpath(o.sessionDir).catch(() => o.sessionDir)]);
      } catch (err) {
        throw refused(err);
      }
      // The checkout runs while the child's first request goes out; `worktree_created` once it is verified.
      const made = inTurn(async () => {
        const wt = before ? await reopenWorktree(plan, before) : await makeWorktree(plan);
        if (resolves) {
          await seedConflicts(wt.dir, wt.repo, resolves).catch(async (err: unknown) => {
            await removeWorktree(wt.repo, wt.dir);
            throw new IsolationError(`${resolves.agentId}'s changes could not be merged into it (${err instanceof Error ? err.message : String(err)})`);
          });
        }
        return wt;
      }).then(
        async (wt) => {
          await o.bus.emit(agentId, parentId, { type: 'worktree_created', workdir: wt.workdir, base: wt.base });
          return wt;
        },
        (err: unknown) => {
          throw refused(err);
        },
      );
      // Its tracker's root is the worktree's real path (the session's folder may sit behind a symlink), before it exists.
      const changes = new ChangeTracker({ workdir: join(realSession, relative(o.sessionDir, plan.workdir)), ...(o.blobs ? { blobs: o.blobs } : {}), bus: o.bus, journal: false });
      let tools: ToolRegistry | undefined;
      const leave = (): void => {
        for (const [id, r] of rooms) if (r === room) rooms.delete(id);
      };
      const room: ChildRoom = {
        workdir: plan.workdir,
        ready: made.then(() => undefined),
        tools: () => (tools ??= o.toolsFor(plan.workdir, changes)),
        changes,
        async close(description) {
          // Refused: what was half made is gone already; the child ran nothing there.
          const wt = await made.catch(() => undefined);
          if (!wt) {
            leave();
            return '';
          }
          const kept = await inTurn(() => finishWorktree(wt, { branch: keptBranch(o.sessionId, agentId), patch: join(under, `${agentId}.patch`), message: `delegate: ${description} (${agentId})` })).finally(leave);
          const body = kept
            ? { type: 'worktree_kept' as const, base: wt.base, snapshot: kept.snapshot, files: kept.files, branch: kept.branch, commit: kept.commit, patch: kept.patch, ...(o.landCheck ? { landCheck: o.landCheck } : {}), ...(standsFor ? { resolves: standsFor } : {}) }
            : { type: 'worktree_kept' as const, base: wt.base, snapshot: wt.snapshot, files: [] };
          await o.bus.emit(agentId, parentId, body);
          if (kept) keptBy.set(agentId, { base: wt.base, snapshot: kept.snapshot, commit: kept.commit, ...(standsFor ? { resolves: standsFor } : {}) });
          if (!kept) return '[Isolated in its own worktree: it changed no file there; nothing is kept.]';
          return `[Isolated in its own worktree: its changes to ${kept.files.length} file${kept.files.length === 1 ? '' : 's'} (${kept.files.map((f) => f.path).join(', ')}) are kept on branch ${kept.branch}, NOT in your folder. ${standsFor ? `They stand in for ${standsFor}'s conflicting changes and land like any subagent's.` : `The main agent's land tool (where offered) lands them, or the user with \`delegate land --session ${o.sessionId} --agent ${agentId}\`.`}]`;
        },
      };
      // Nobody may be left holding an unhandled rejection: the child's run reads `ready`, and close() reads `made`.
      room.ready.catch(() => undefined);
      rooms.set(agentId, room);
      return room;
    },
  };
}

/** Any failure to make a room, as the refusal its parent reads. */
function refused(err: unknown): IsolationRefused {
  if (err instanceof IsolationRefused) return err;
  return new IsolationRefused(err instanceof IsolationError ? err.message : `its worktree could not be made (${err instanceof Error ? err.message : String(err)})`);
}

/** At a session's start: the worktrees dead sessions of `root` left in `workdir`'s repository (a kill -9). Never throws. */
export async function pruneDeadWorktrees(workdir: string, root: string, isLive: (sessionId: string) => boolean): Promise<PruneReport> {
  const none = { removed: [], salvaged: [] };
  // Outside any repository there is nothing to prune, and asking git costs two spawns (openRepo's second says why).
  if (!(await mayBeInRepository(workdir))) return none;
  return pruneWorktrees(workdir, root, isLive, keptBranch).catch(() => none);
}

/**
 * Whether git could find a repository from `dir`, without running it: a `.git` (folder or file) in `dir` or above,
 * or GIT_DIR naming one. Git's own search finds nothing else but a bare repository, which has no work tree to
 * have worktrees pruned from (openRepo's `--show-toplevel` fails there).
 */
async function mayBeInRepository(dir: string): Promise<boolean> {
  if (process.env.GIT_DIR) return true;
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (await lstat(join(at, '.git')).then(() => true, () => false)) return true;
    if (dirname(at) === at) return false;
  }
}
