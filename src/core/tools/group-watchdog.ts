/**
 * What ends our process groups when this process dies without running a single handler (`kill -9`, the OOM killer,
 * a crash of the runtime): a tiny `sh`, started once per process before the first group, in a session of its own (a
 * terminal's Ctrl-C or hang-up does not reach it), reading a pipe whose write end only this process holds.
 *
 *   ProcessGroups.add(pgid)      ──"+ pgid"──▶  sh: adds it to its list
 *   the group is forgotten       ──"- pgid"──▶  sh: drops it
 *   this process dies, any way   ──end of file─▶ sh: kill -9 every group still listed, then exit
 *
 * The bubblewrap sandbox has its own lifeline (bubblewrap.ts); this covers what runs outside it: unsandboxed
 * `bash`, hooks' commands, MCP servers (which need not exit when their stdin closes). The whole group goes, so
 * background and disowned jobs too; only a process that left the group (setsid) escapes, as from every other kill
 * path. A normal exit closes the pipe as well, by when the exit paths have already emptied the list.
 * Why not `setpriv --pdeathsig`: it signals the direct child only, not the group it starts.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** Where groups are registered: the watchdog, or nothing (tests, platforms without /bin/sh). */
export interface GroupWatch {
  /** Called before a group is spawned: the watchdog is up by the time the group's command runs. */
  ready(): void;
  watch(pgid: number): void;
  unwatch(pgid: number): void;
}

/** POSIX sh (dash here): builtins only, so it needs no PATH; the list is " 12 34 " with one space around each id. */
const SCRIPT = `g=' '
while read -r op pg; do
  case $op in
    +) g="$g$pg " ;;
    -) case $g in *" $pg "*) g="\${g%%" $pg "*} \${g#*" $pg "}" ;; esac ;;
  esac
done
for pg in $g; do kill -9 -"$pg" 2>/dev/null; done`;

class ShellWatchdog implements GroupWatch {
  private child: ChildProcess | undefined;
  private unavailable = process.platform === 'win32';
  /** What the watchdog lists, so that a new one (the old one was killed) is told again. */
  private readonly listed = new Set<number>();

  ready(): void {
    // Started after the first group's spawn, its own spawn (a few ms, more under load) would be a window in which
    // that group runs unlisted, and a kill -9 then would leave it running.
    this.start();
  }

  watch(pgid: number): void {
    if (this.listed.has(pgid)) return;
    this.listed.add(pgid);
    const fresh = !this.child;
    const stdin = this.start()?.stdin;
    // A fresh watchdog hears every listed group (this one included); a running one only this one.
    if (stdin && !stdin.destroyed) stdin.write(fresh ? [...this.listed].map((g) => `+ ${g}\n`).join('') : `+ ${pgid}\n`);
  }

  unwatch(pgid: number): void {
    if (!this.listed.delete(pgid)) return;
    const stdin = this.child?.stdin;
    if (stdin && !stdin.destroyed) stdin.write(`- ${pgid}\n`);
  }

  private start(): ChildProcess | undefined {
    if (this.child || this.unavailable) return this.child;
    try {
      // A minimal environment: its /proc/<pid>/environ is readable by the user's other processes for as long as it lives.
      const child = spawn('/bin/sh', ['-c', SCRIPT, 'delegate-watchdog'], { cwd: '/', env: {}, stdio: ['pipe', 'ignore', 'ignore'], detached: true });
      child.on('error', () => {
        this.unavailable = true;
        this.child = undefined;
      });
      // Killed by someone else: the next group starts a new one, which is told every group still listed.
      child.on('exit', () => {
        if (this.child === child) this.child = undefined;
      });
      child.stdin?.on('error', () => undefined);
      // It must not keep this process alive: it lives exactly as long as we do.
      child.unref();
      (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
      this.child = child;
    } catch {
      this.unavailable = true;
    }
    return this.child;
  }
}

/** The process's one watchdog (a process dies once, and every session's groups die with it). */
export const processWatchdog: GroupWatch = new ShellWatchdog();
