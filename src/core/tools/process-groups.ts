/**
 * Every process group a session's `bash` calls started, until it is known to be gone, so that no exit
 * path leaves one running under init:
 *
 *   bash call ──spawn (own group)──▶ add(pgid) ── command ends ──▶ TERM group ─grace─▶ KILL ──▶ remove
 *   Stop / Ctrl-C / SIGHUP / crash / deactivate ──▶ terminateAll(): TERM every group, wait ≤ grace, KILL the rest
 *   process 'exit' (last resort, synchronous)   ──▶ killAllNow(): KILL every group still listed
 *
 *   this process killed (kill -9: no handler runs) ──▶ the watchdog (group-watchdog.ts) KILLs every group listed
 *
 * A group whose TERM finds nobody (ESRCH) is removed at once, so a pid reused later is never signalled.
 *
 * A group's first process is held before it runs anything until the watchdog has been told of its group
 * (heldCommand): spawn returns once the child exec'd, and on a loaded machine this process could be killed in the
 * gap before its "+ pgid" line reached the watchdog — the kill -9 test saw a command's sleeps outlive the CLI 3 times
 * in 9 runs at load 14. Held, a process of a group nobody was told of never runs the command.
 */
import { processWatchdog, type GroupWatch } from './group-watchdog';

export class ProcessGroups {
  private readonly groups = new Map<number, string>();

  constructor(private readonly watchdog: GroupWatch = processWatchdog) {}

  /**
   * Forks a group through `start` (a spawn with `detached: true`) and records it: the watchdog is started first, so
   * that it is already running when the group's commands are (a kill -9 of ours while the watchdog itself was being
   * forked left a bash call's sleeps running; seen under load).
   */
  spawn<C extends { pid?: number | undefined; stdio?: readonly unknown[] }>(label: string, start: () => C, releaseFd?: number): C {
    this.watchdog.ready();
    const child = start();
    if (child.pid !== undefined) this.add(child.pid, label);
    // The watchdog has the group now: let the held command run (heldCommand's fd).
    if (releaseFd !== undefined) release(child.stdio?.[releaseFd]);
    return child;
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

/**
 * The command to spawn so that it waits until released: /bin/sh reads one line on fd `fd` (a pipe the spawner
 * ends once the group is listed: ProcessGroups.spawn's `releaseFd`), closes it and becomes the command (same pid,
 * exit status and signals). At end of file instead — the spawner died first — it exits 125 having run nothing.
 * Costs one exec of /bin/sh. Not on Windows (no watchdog there either).
 */
export function heldCommand(file: string, args: readonly string[], fd: number): { file: string; args: string[]; held: boolean } {
  if (process.platform === 'win32') return { file, args: [...args], held: false };
  return { file: '/bin/sh', args: ['-c', `read -r _ <&${fd} || exit 125; exec ${fd}<&-; exec "$0" "$@"`, file, ...args], held: true };
}

function release(stream: unknown): void {
  const s = stream as { end?: (line: string) => void; on?: (event: 'error', f: () => void) => void } | null | undefined;
  // A child that died before reading it: EPIPE is nothing to report.
  s?.on?.('error', () => undefined);
  s?.end?.('\n');
}
