/**
 * Who last changed a file, as far as Delegate can know, so a refused stale write can name them.
 *
 *   write_file / edit_file ──▶ known[path] = { hash, stat, by: that agent }
 *   read_file              ──▶ known[path] = { hash, stat, by: unknown }   (only when the content is news)
 *   bash start / end       ──▶ stat every known path: what differs ──▶ by: the command(s) running or just ended
 *                                                                   (none running: by unknown, i.e. the user)
 *   guard asks (under lock) ─▶ the current content is the known one? its `by` : unknown
 *
 * Commands run in a sandbox Delegate cannot watch file by file, so their writes are found afterwards by
 * stat (size, mtime, inode: cheap, no reads); a change made while a command ran is put down to it.
 */
import { stat } from 'node:fs/promises';
import type { PathLocks } from '../tools/path-locks';
import type { ContentHash } from './types';

/** A command that may have changed files, and who ran it (for the message). */
export interface CommandRef {
  command: string;
  by: string;
}

export type Changer =
  | { kind: 'agent'; agentId: string; name: string }
  | { kind: 'command'; commands: CommandRef[] }
  | { kind: 'revert' }
  | { kind: 'unknown' };

interface Known {
  /** Unknown after a command changed the file (it was stat'ed, not read). */
  hash?: ContentHash;
  statKey: string;
  by: Changer;
}

const UNKNOWN: Changer = { kind: 'unknown' };

/** Size, mtime and inode (an atomic rename changes it), or "absent". */
async function statKey(absPath: string): Promise<string> {
  try {
    const st = await stat(absPath, { bigint: true });
    return `${st.size}:${st.mtimeNs}:${st.ino}`;
  } catch {
    return 'absent';
  }
}

export class ChangeAttribution {
  private readonly known = new Map<string, Known>();
  private readonly running = new Set<CommandRef>();
  /** Commands that ended since the last scan: their changes are found by the scan after them. */
  private ended: CommandRef[] = [];

  constructor(private readonly locks: PathLocks) {}

  /** A read saw this content: new content of unknown origin starts a fresh record. */
  async sawContent(absPath: string, hash: ContentHash): Promise<void> {
    const old = this.known.get(absPath);
    if (old?.hash === hash) return;
    const key = await statKey(absPath);
    this.known.set(absPath, { hash, statKey: key, by: UNKNOWN });
  }

  /** Delegate itself wrote `hash` (call under the path's lock, after the write). */
  async wrote(absPath: string, hash: ContentHash | undefined, by: Changer): Promise<void> {
    this.known.set(absPath, { ...(hash ? { hash } : {}), statKey: await statKey(absPath), by });
  }

  /** Who made the file's current content (call under the path's lock). */
  async whoMade(absPath: string, hash: ContentHash | undefined): Promise<Changer> {
    const k = this.known.get(absPath);
    if (!k) return UNKNOWN;
    if (k.hash !== undefined) return k.hash === hash ? k.by : UNKNOWN;
    return k.statKey === (await statKey(absPath)) ? k.by : UNKNOWN;
  }

  /** Wraps a command: changes found before it are not its own, changes found after it are (or a parallel one's). */
  async aroundCommand<T>(ref: CommandRef, run: () => Promise<T>): Promise<T> {
    await this.scan();
    this.running.add(ref);
    try {
      return await run();
    } finally {
      this.running.delete(ref);
      this.ended.push(ref);
      await this.scan();
    }
  }

  private async scan(): Promise<void> {
    const suspects = [...this.running, ...this.ended];
    this.ended = [];
    const by: Changer = suspects.length ? { kind: 'command', commands: suspects } : UNKNOWN;
    await Promise.all(
      [...this.known.keys()].map((absPath) =>
        this.locks.run(absPath, async () => {
          const k = this.known.get(absPath);
          if (!k) return;
          const key = await statKey(absPath);
          if (key !== k.statKey) this.known.set(absPath, { statKey: key, by });
        }),
      ),
    );
  }
}
