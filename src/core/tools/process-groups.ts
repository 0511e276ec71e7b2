/**
 * Every process group a session's `bash` calls started, until it is known to be gone, so that no exit
 * path leaves one running under init:
 *
 *   bash call ──beforeSpawn (the watchdog up)──spawn (own group)──▶ add(pgid) ── command ends ──▶ TERM group ─grace─▶ KILL ──▶ remove
 *   Stop / Ctrl-C / SIGHUP / crash / deactivate ──▶ terminateAll(): TERM every group, wait ≤ grace, KILL the rest
 *   process 'exit' (last resort, synchronous)   ──▶ killAllNow(): KILL every group still listed
 *
 *   this process killed (kill -9: no handler runs) ──▶ the watchdog (group-watchdog.ts) KILLs every group listed
 *
 * A group whose TERM finds nobody (ESRCH) is removed at once, so a pid reused later is never signalled.
 */
import { processWatchdog, type GroupWatch } from './group-watchdog';

export class ProcessGroups {
  private readonly groups = new Map<number, string>();

  constructor(private readonly watchdog: GroupWatch = processWatchdog) {}

  /** Called before each spawn of a group (its watchdog is then up when the group starts). */
  beforeSpawn(): void {
    this.watchdog.ready();
  }

  /** Records a group (its leader's pid) with a label for diagnostics (the command). */
  add(pgid: number, label: string): void {
    this.groups.set(pgid, label);
    this.watchdog.watch(pgid);
  }

  remove(pgid: number): void {
    this.groups.delete(pgid);
    this.watchdog.unwatch(pgid);
  }

  /** Sends `signal` to the group; false (and the group forgotten) when it no longer exists. */
  signal(pgid: number, signal: NodeJS.Signals | 0): boolean {
    try {
      process.kill(-pgid, signal);
      return true;
    } catch {
      // ESRCH: the whole group is gone.
      this.remove(pgid);
      return false;
    }
  }

  /** Groups still listed whose members are alive. */
  alive(): number[] {
    return [...this.groups.keys()].filter((pgid) => this.signal(pgid, 0));
  }

  /** Labels of the groups still listed (for a log line). */
  labels(): string[] {
    return [...this.groups.values()];
  }

  /** TERM every group, wait up to `graceMs` for them to go, KILL what is left. Resolves when done. */
  async terminateAll(graceMs: number): Promise<void> {
    for (const pgid of [...this.groups.keys()]) this.signal(pgid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (this.alive().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    this.killAllNow();
  }

  /** KILL every listed group, synchronously (safe inside a process 'exit' handler). */
  killAllNow(): void {
    for (const pgid of [...this.groups.keys()]) {
      this.signal(pgid, 'SIGKILL');
      this.remove(pgid);
    }
  }

  get size(): number {
    return this.groups.size;
  }
}
