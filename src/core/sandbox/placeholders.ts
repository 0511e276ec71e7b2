/**
 * Placeholders: what holds the place of a protected path that does not exist yet (.mcp.json, .claude, git's
 * commondir…) while a sandboxed command runs, so that the command cannot create it. A bind mount needs something to
 * mount on, and in the writable workspace that something is on the host: so it is made just before the command and
 * removed just after, with a mark (its mtime) that says it is ours.
 *
 *   hold(list) ─▶ each path: made now (an empty folder, or a file git reads as absent) and marked; or, already there
 *                 with the mark (another command of ours, another process's, one a crash left), taken as it is.
 *                 Counted per path: parallel commands share one placeholder.
 *   release()  ─▶ count 0, still marked, and no other process's sandbox has it mounted ─▶ removed
 *   exit       ─▶ what is still counted is removed (our commands are gone by then)
 *   kill -9    ─▶ the watchdog (tools/group-watchdog.ts) removes what it was told of, after killing the groups
 *
 * Why ask about other sandboxes: removing a mount point on the host detaches that mount in every namespace (Linux
 * ≥ 3.18), so a command of another Delegate process in the same folder would lose its hold. Such a placeholder is
 * left; that process takes it (the mark) and removes it after its own command.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmdirSync, unlinkSync, utimesSync, writeFileSync, type Stats } from 'node:fs';
import { processPathWatch, type PathWatch } from '../tools/group-watchdog';
import type { Placeholder } from '../policy/protected-paths';

/** The mark: an mtime of 2001-09-09T01:46:47Z (whole seconds: coarse file systems keep it). */
const MARK_S = 1_000_000_007;

/** Whether a file or folder carries the mark (an empty folder, or a file of at most a line like ".\n"). */
export function isPlaceholder(st: Stats): boolean {
  return Math.floor(st.mtimeMs / 1000) === MARK_S && (st.isDirectory() || (st.isFile() && st.size <= 2));
}

export interface HeldPaths {
  /** The paths held (each now exists): what to bind read-only. */
  paths: string[];
  /** After the command: removes what no one holds any more. Safe to call twice. */
  release(): void;
}

/** Mount points of the sandboxes this process did not start: bwrap processes' mount tables (readable by their user). */
export function otherSandboxMounts(self = process.pid): Set<string> {
  const points = new Set<string>();
  let pids: string[];
  try {
    pids = readdirSync('/proc');
  } catch {
    return points;
  }
  const parentOf = (pid: number | string): number => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  };
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8') !== 'bwrap\n') continue;
      // Ours: bwrap's outer process is our child, the namespace's (pid 1 inside) its child.
      const parent = parentOf(pid);
      if (parent === self || parentOf(parent) === self) continue;
      for (const line of readFileSync(`/proc/${pid}/mountinfo`, 'utf8').split('\n')) {
        const point = line.split(' ')[4];
        if (point) points.add(point.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))));
      }
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return points;
}

export class Placeholders {
  private readonly counts = new Map<string, number>();
  private exitHook = false;

  constructor(
    private readonly watch: PathWatch = processPathWatch,
    private readonly mountedElsewhere: () => Set<string> = otherSandboxMounts,
  ) {}

  /** Makes (or takes) each placeholder; one that cannot be made is left out (the command cannot make it either). */
  hold(list: readonly { path: string; placeholder: Placeholder }[]): HeldPaths {
    const paths: string[] = [];
    for (const { path, placeholder } of list) {
      const count = this.counts.get(path) ?? 0;
      if (count > 0 || this.take(path, placeholder)) {
        this.counts.set(path, count + 1);
        paths.push(path);
      }
    }
    if (paths.length > 0 && !this.exitHook) {
      this.exitHook = true;
      process.once('exit', () => this.removeAll());
    }
    let released = false;
    return {
      paths,
      release: () => {
        if (released) return;
        released = true;
        this.release(paths);
      },
    };
  }

  /** How many commands hold each path now (for tests). */
  get held(): ReadonlyMap<string, number> {
    return this.counts;
  }

  private take(path: string, placeholder: Placeholder): boolean {
    try {
      if (placeholder.kind === 'dir') mkdirSync(path);
      else writeFileSync(path, placeholder.content, { flag: 'wx', mode: 0o444 });
      utimesSync(path, MARK_S, MARK_S);
    } catch (err) {
      // Already there: ours if marked (it is then held and removed like one we made); anyone else's is held as it is
      // by the plan's next command, not here. Not creatable (a read-only folder, a file above it): neither can the command.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
      try {
        if (!isPlaceholder(lstatSync(path))) return false;
      } catch {
        return false;
      }
    }
    this.watch.watchPath(path);
    return true;
  }

  private release(paths: readonly string[]): void {
    const free = paths.filter((p) => {
      const count = (this.counts.get(p) ?? 1) - 1;
      if (count > 0) this.counts.set(p, count);
      else this.counts.delete(p);
      return count <= 0;
    });
    if (free.length > 0) this.remove(free, this.mountedElsewhere());
  }

  private removeAll(): void {
    const all = [...this.counts.keys()];
    this.counts.clear();
    this.remove(all, this.mountedElsewhere());
  }

  private remove(paths: readonly string[], elsewhere: Set<string>): void {
    for (const p of paths) {
      this.watch.unwatchPath(p);
      if (elsewhere.has(p)) continue;
      try {
        const st = lstatSync(p);
        if (!isPlaceholder(st)) continue; // someone put something there: theirs now
        if (st.isDirectory()) rmdirSync(p);
        else unlinkSync(p);
      } catch {
        // Gone already, or not empty (rmdir refuses): left as it is.
      }
    }
  }
}

/** The process's placeholders: every session's sandboxed commands in a folder share the same paths. */
export const processPlaceholders = new Placeholders();
