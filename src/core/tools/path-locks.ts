/**
 * Serialises read-modify-write of one file across every agent of a session:
 *
 *   child A: edit x ──lock(x)──▶ read ▶ change ▶ write ──unlock──┐
 *   child B: edit x ──lock(x)── waits ──────────────────────────┴──▶ read (sees A's change) ▶ change ▶ write
 *
 * Parallel subagents otherwise both read the old text and the second write silently drops the first
 * edit while both are told "Edited". Keys are real (symlink-resolved) absolute paths; calls on
 * different files never wait for each other.
 */
export class PathLocks {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `fn` once every earlier call for `key` has finished (whether it succeeded or failed). */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      // The last holder removes the entry, so the map does not grow with every file ever touched.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** Files with a pending or running call (for tests and diagnostics). */
  get size(): number {
    return this.tails.size;
  }
}
