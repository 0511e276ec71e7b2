/**
 * What ends our process groups when this process dies without running a single handler (`kill -9`, the OOM killer,
 * a crash of the runtime): a tiny `sh`, started once per process just before the first group is forked, in a
 * session of its own (a terminal's Ctrl-C or hang-up does not reach it), reading a pipe whose write end only this
 * process holds.
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
  /** Starts the watchdog if it is not running: called before a group is forked, since starting it is itself a fork
   *  (ms under load) during which a kill -9 of ours would leave the group just started unwatched. */
  ready(): void;
  watch(pgid: number): void;
  unwatch(pgid: number): void;
}

/** Placeholders the sandbox made in the workspace (sandbox/placeholders.ts): removed if this process dies first. */
export interface PathWatch {
  watchPath(path: string): void;
  unwatchPath(path: string): void;
}

/**
 * POSIX sh (dash here): builtins only for the groups, so it needs no PATH; the list is " 12 34 " with one space
 * around each id. Placeholders: one per line, removed after the groups are killed (rmdir takes an empty folder
 * only; a file only while it is empty or the one line "."), by absolute paths to rm and rmdir.
 */
const SCRIPT = `g=' '
p='
'
while read -r op pg; do
  case $op in
    +) g="$g$pg " ;;
    -) case $g in *" $pg "*) g="\${g%%" $pg "*} \${g#*" $pg "}" ;; esac ;;
    p) p="$p$pg
" ;;
    u) case $p in *"
$pg
"*) p="\${p%%"
$pg
"*}
\${p#*"
$pg
"}" ;; esac ;;
  esac
done
for pg in $g; do kill -9 -"$pg" 2>/dev/null; done
set -f
IFS='
'
for f in $p; do
  if [ -d "$f" ]; then /bin/rmdir -- "$f" 2>/dev/null
  elif [ -f "$f" ] && { [ ! -s "$f" ] || { read -r c < "$f" && [ "$c" = . ]; }; }; then /bin/rm -f -- "$f"
  fi
done`;

/** A path the line protocol can carry unchanged (read strips surrounding blanks; a newline ends the line). */
const carried = (path: string): boolean => !/[\n\r]/.test(path) && path.trim() === path;

class ShellWatchdog implements GroupWatch, PathWatch {
  private child: ChildProcess | undefined;
  private unavailable = process.platform === 'win32';
  /** What the watchdog lists, so that a new one (the old one was killed) is told again. */
  private readonly listed = new Set<number>();
  private readonly paths = new Set<string>();

  ready(): void {
    this.start();
  }

  watch(pgid: number): void {
    if (this.listed.has(pgid)) return;
    this.listed.add(pgid);
    const fresh = !this.child;
    const stdin = this.start()?.stdin;
    // A fresh watchdog hears every listed group (this one included); a running one only this one.
    if (stdin && !stdin.destroyed) stdin.write(fresh ? this.told() : `+ ${pgid}\n`);
  }

  unwatch(pgid: number): void {
    if (!this.listed.delete(pgid)) return;
    const stdin = this.child?.stdin;
    if (stdin && !stdin.destroyed) stdin.write(`- ${pgid}\n`);
  }

  watchPath(path: string): void {
    if (!carried(path) || this.paths.has(path)) return;
    this.paths.add(path);
    const fresh = !this.child;
    const stdin = this.start()?.stdin;
    if (stdin && !stdin.destroyed) stdin.write(fresh ? this.told() : `p ${path}\n`);
  }

  unwatchPath(path: string): void {
    if (!this.paths.delete(path)) return;
    const stdin = this.child?.stdin;
    if (stdin && !stdin.destroyed) stdin.write(`u ${path}\n`);
  }

  /** Everything listed, for a watchdog just started. */
  private told(): string {
    return [...[...this.listed].map((g) => `+ ${g}\n`), ...[...this.paths].map((p) => `p ${p}\n`)].join('');
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

const shellWatchdog = new ShellWatchdog();
/** The process's one watchdog (a process dies once, and every session's groups die with it). */
export const processWatchdog: GroupWatch = shellWatchdog;
/** The same watchdog, told of the sandbox's placeholders. */
export const processPathWatch: PathWatch = shellWatchdog;
