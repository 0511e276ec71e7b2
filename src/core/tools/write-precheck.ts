/**
 * The read-before-write guard (FileTracker.checkWrite), asked before the permission question: a write or edit of a
 * file the agent has not read, or that changed since it read it, would be refused anyway — asking the user first
 * only to throw the answer away. The guard runs again under the file's lock when the call runs (this look is
 * not locked: what it sees may change before then).
 *
 *   write_file / edit_file ─▶ PreToolUse hooks ─▶ precheck (this) ─▶ permission ─▶ execute (the guard again, locked)
 */
import type { FileTracker } from './file-tracker';
import { resolveInside } from './path-confinement';
import type { FileOps, ToolContext } from './types';

/** A tool's `precheck` for a file it writes: the guard's refusal, or undefined (anything odd is left to execute). */
export function writePrecheck(workdir: string, ops: FileOps, tracker: FileTracker | undefined, verb: 'write' | 'edit') {
  return async (input: { path: string }, ctx: ToolContext): Promise<string | undefined> => {
    if (!tracker) return undefined;
    const where = await resolveInside(workdir, input.path);
    if (!where.ok) return undefined;
    const info = await ops.stat(where.absPath).catch(() => undefined);
    if (info?.type !== 'file') return undefined;
    const current = await ops.readFile(where.absPath, ctx.signal).catch(() => undefined);
    if (current === undefined) return undefined;
    return tracker.checkWrite(ctx.agentId, where.absPath, input.path, current, verb);
  };
}
