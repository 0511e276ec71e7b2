/**
 * Carries out a revert plan (revert-plan.ts) file by file, each one atomically and on its own:
 *
 *   lock(file) ─▶ hash what is there now ─┬─ = what it was before     ─▶ unchanged (unless another agent changed it since)
 *                                          ├─ ≠ what the agent left    ─▶ refused (+ diff: the agent's → now)
 *                                          └─ = what the agent left    ─▶ put the old bytes back (temp + rename)
 *                                                                          or delete the file it had created
 *
 * A file someone else also changed between the subagent's changes is refused without a look (undoing it
 * would undo theirs). A shared file (another agent's call overlapped and may have made the change) is
 * skipped unless the user included it. Nothing here throws for one file: every file gets an outcome and a reason.
 */
import { rm } from 'node:fs/promises';
import { describeFsError } from '../tools/file-access';
import { createNodeFileOps } from '../tools/node-file-ops';
import { resolveInside } from '../tools/path-confinement';
import type { PathLocks } from '../tools/path-locks';
import { type BlobStore, contentHash } from './blob-store';
import { textOf } from './change-manifest';
import { unifiedDiff } from './line-diff';
import type { RevertPlan, RevertPlanFile, SharedWith } from './revert-plan';
import type { ContentHash, RevertedFile } from './types';

export interface RevertReport {
  /** Per file what was done; `diff` for a refusal (what changed that the revert would have undone). */
  files: (RevertedFile & { diff?: string })[];
  alreadyReverted: string[];
  commands: string[];
}

export interface RevertDeps {
  blobs: BlobStore;
  /** A session live in this process: its write locks, and news of each file put back (for its guard). */
  locks?: PathLocks;
  onRestored?(absPath: string, hash: ContentHash | undefined): Promise<void>;
}

/** What the user chose: shared files to put back too (true: all of them; default: none). */
export interface RevertChoices {
  includeShared?: boolean | readonly string[];
}

const ops = createNodeFileOps();

export async function applyRevert(plan: RevertPlan, deps: RevertDeps, choices: RevertChoices = {}): Promise<RevertReport> {
  const files: RevertReport['files'] = [];
  const chosen = choices.includeShared;
  const include = (path: string): boolean => chosen === true || (Array.isArray(chosen) && chosen.includes(path));
  for (const file of plan.files) files.push(await revertFile(plan.workdir, file, deps, include(file.path)));
  return { files, alreadyReverted: plan.alreadyReverted, commands: plan.commands };
}

/** Why a shared file was left alone, in one line: whose calls ran at the same time. */
export function sharedReason(shared: readonly SharedWith[]): string {
  const calls = shared.slice(0, 3).map((s) => `\`${oneLine(s.command)}\` of ${s.who}`);
  const more = shared.length > 3 ? ` and ${shared.length - 3} more calls` : '';
  return `shared: ${calls.join(' and ')}${more} ran at the same time and may have changed it`;
}

function oneLine(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

async function revertFile(workdir: string, file: RevertPlanFile, deps: RevertDeps, includeShared: boolean): Promise<RevertReport['files'][number]> {
  const refused = (reason: string, extra: Partial<RevertedFile> & { diff?: string } = {}): RevertReport['files'][number] => ({
    path: file.path,
    outcome: 'refused',
    reason,
    ...(file.expected ? { expected: file.expected } : {}),
    ...extra,
  });
  if (file.lost) return refused(`${file.lost}: it cannot be put back`);
  if (file.between) {
    const diff = await diffOf(deps.blobs, file.between.before, file.between.after, file.path);
    return refused(`${file.between.who} also changed it in between: reverting would undo that change too`, diff ? { diff } : {});
  }
  if (file.shared && !includeShared) return { path: file.path, outcome: 'skipped', reason: sharedReason(file.shared) };
  const where = await resolveInside(workdir, file.path);
  if (!where.ok) return refused(where.reason);
  const absPath = where.absPath;
  const run = (): Promise<RevertReport['files'][number]> => restore(absPath, file, deps, refused);
  return deps.locks ? deps.locks.run(absPath, run) : run();
}

async function restore(
  absPath: string,
  file: RevertPlanFile,
  deps: RevertDeps,
  refused: (reason: string, extra?: Partial<RevertedFile> & { diff?: string }) => RevertReport['files'][number],
): Promise<RevertReport['files'][number]> {
  let current: Buffer | undefined;
  try {
    current = (await ops.stat(absPath)) ? await ops.readFile(absPath) : undefined;
  } catch (err) {
    return refused(describeFsError(err, file.path));
  }
  const now = current ? contentHash(current) : undefined;
  const from = now ? { from: now } : {};
  // Back to its old content by itself (the user undid it) — unless another agent changed it since: then what is there
  // is that agent's work (A created it, B deleted it), and a revert of B would bring A's content back.
  if (now === file.restore && (now === file.expected || !file.changedSince)) return { path: file.path, outcome: 'unchanged', reason: 'it already holds what it held before', ...from };
  if (now !== file.expected) {
    const reason = now === undefined ? 'it was deleted since' : 'it was changed since by someone else';
    const diff = await diffOf(deps.blobs, file.expected, current, file.path);
    return refused(reason, { ...from, ...(diff ? { diff } : {}) });
  }
  try {
    if (file.restore === undefined) {
      await rm(absPath);
      await deps.onRestored?.(absPath, undefined);
      return { path: file.path, outcome: 'deleted', ...from };
    }
    const bytes = await deps.blobs.get(file.restore);
    if (!bytes) return refused('its previous content was not kept (the session folder lost it)', from);
    await ops.writeFileAtomic(absPath, bytes);
    await deps.onRestored?.(absPath, file.restore);
    return { path: file.path, outcome: now === undefined ? 'recreated' : 'restored', ...from, to: file.restore };
  } catch (err) {
    return refused(describeFsError(err, file.path), from);
  }
}

/** A unified diff of two contents (a hash looked up in the store, or bytes at hand); empty when unknown. */
async function diffOf(blobs: BlobStore, before: ContentHash | undefined, after: ContentHash | Buffer | undefined, path: string): Promise<string> {
  const load = async (x: ContentHash | Buffer | undefined): Promise<Buffer | undefined> => (x === undefined ? undefined : Buffer.isBuffer(x) ? x : blobs.get(x));
  return unifiedDiff(textOf(await load(before)), textOf(await load(after)), { from: `a/${path}`, to: `b/${path}` });
}
