/**
 * Placeholders: what holds the place of a protected path that does not exist yet (.mcp.json, .claude, git's
 * commondir…) while a sandboxed command runs, so that the command cannot create it. A bind mount needs something to
 * mount on, and in the writable workspace that something is on the host: so it is made just before the command and
 * removed just after, with a mark that says it is ours: no write permission for anyone (a folder 0555, a file 0444),
 * and a file holds nothing or the line ".". Set by mkdir/open themselves: a utimes() for a date mark was one more
 * metadata write per placeholder, ~0.1–1 ms each on a loaded disk.
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
 * left; that process takes it (the mark) and removes it after its own command. Asking means reading every bwrap's
 * mount table (0.7 ms of CPU at 100 processes, more on a desktop), so it is done only when another live process has
 * placeholders: each one that makes one says so with an empty file named by its pid in REGISTRY (removed at exit,
 * or by the watchdog after a kill -9).
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processPathWatch, type PathWatch } from '../tools/group-watchdog';
import type { Placeholder } from '../policy/protected-paths';

/** The mark: no write bit for anyone, and a file of at most two bytes. */
const DIR_MODE = 0o555;
const FILE_MODE = 0o444;

/** What a file placeholder holds (git reads either as the file's absence). */
const FILE_CONTENTS = new Set(['', '.\n']);

/**
 * Whether a file or folder carries the mark (whatever read bits a umask took away); a file must also hold what a
 * placeholder holds (a user's read-only `{}` is two bytes too).
 */
export function isPlaceholder(path: string, st: Stats): boolean {
  if ((st.mode & 0o222) !== 0) return false;
  if (st.isDirectory()) return true;
  if (!st.isFile() || st.size > 2) return false;
  try {
    return FILE_CONTENTS.has(readFileSync(path, 'utf8'));
  } catch {
    return false;
  }
}

export interface HeldPaths {
  /** The paths held (each now exists): what to bind read-only (release removes only those it made or took). */
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
      // Ours: bwrap's outer process is our child, the namespace's (pid 1 inside) its child — and while it sets up, a
      // bwrap a level deeper (seen once in a loaded run): climb the bwrap chain to the first process that is not one.
      let above = parentOf(pid);
      for (let depth = 0; depth < 8 && above > 1 && readFileSync(`/proc/${above}/comm`, 'utf8') === 'bwrap\n'; depth++) above = parentOf(above);
      if (above === self) continue;
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

/** One empty file per process that holds placeholders, named by its pid (per user: another's are not ours to read). */
const REGISTRY = join(tmpdir(), `delegate-placeholders-${process.getuid?.() ?? 'user'}`);

/** Whether another live process of this user holds placeholders (unknown counts as yes). */
export function othersHold(registry = REGISTRY, self = process.pid): boolean {
  let names: string[];
  try {
    names = readdirSync(registry);
  } catch {
    return true;
  }
  return names.some((name) => {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 0 || pid === self) return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
  });
}

/** The mount points other processes' sandboxes hold, when there may be any. */
const elsewhere = (): Set<string> => (othersHold() ? otherSandboxMounts() : new Set());

export class Placeholders {
  private readonly counts = new Map<string, number>();
  private exitHook = false;
  private registered = false;

  constructor(
    private readonly watch: PathWatch = processPathWatch,
    private readonly mountedElsewhere: () => Set<string> = elsewhere,
    /** Where this process says it holds placeholders; null: nowhere (tests). */
    private readonly registry: string | null = REGISTRY,
  ) {}

  /**
   * Makes (or takes) each placeholder; one that cannot be made is left out (the command cannot make it either), and
   * one that someone else made since the plan looked is held as it is, without being counted.
   */
  hold(list: readonly { path: string; placeholder: Placeholder }[]): HeldPaths {
    const paths: string[] = [];
    const counted: string[] = [];
    for (const { path, placeholder } of list) {
      const count = this.counts.get(path) ?? 0;
      const got = count > 0 ? 'ours' : this.take(path, placeholder);
      if (got === 'ours') {
        this.counts.set(path, count + 1);
        counted.push(path);
      }
      // Someone else's, made since the plan looked: bound read-only like any existing path, and not removed.
      if (got !== 'none') paths.push(path);
    }
    if (counted.length > 0 && !this.exitHook) {
      this.exitHook = true;
      this.register();
      atExit(() => this.removeAll());
    }
    let released = false;
    return {
      paths,
      release: () => {
        if (released) return;
        released = true;
        this.release(counted);
      },
    };
  }


  /** Says in the registry that this process holds placeholders, until it exits (or the watchdog clears it). */
  private register(): void {
    if (this.registered || this.registry === null) return;
    this.registered = true;
    const own = join(this.registry, String(process.pid));
    try {
      mkdirSync(this.registry, { recursive: true, mode: 0o700 });
      rmSync(own, { force: true }); // a dead process's, whose pid this one got
      writeFileSync(own, '', { mode: FILE_MODE });
      this.watch.watchPath(own);
      atExit(() => rmSync(own, { force: true }));
    } catch {
      // Not registered: others do not look for this process's sandboxes (a temp folder that is not writable).
    }
  }

  /** Makes the placeholder (or finds one of ours there): 'ours'; something else is there: 'theirs'; neither: 'none'. */
  private take(path: string, placeholder: Placeholder): 'ours' | 'theirs' | 'none' {
    try {
      // A umask only takes bits away: never a write bit to add, so the mark holds whatever it is.
      if (placeholder.kind === 'dir') mkdirSync(path, { mode: DIR_MODE });
      else writeFileSync(path, placeholder.content, { flag: 'wx', mode: FILE_MODE });
    } catch (err) {
      // Already there: ours if marked (it is then held and removed like one we made). Not creatable (a read-only
      // folder, a file above it): neither can the command create it.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return 'none';
      try {
        if (!isPlaceholder(path, lstatSync(path))) return 'theirs';
      } catch {
        return 'none';
      }
    }
    this.watch.watchPath(path);
    return 'ours';
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
        if (!isPlaceholder(p, st)) continue; // someone put something there: theirs now
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

/**
 * What runs when this process exits: one 'exit' listener for every Placeholders of the process (a session each; a
 * listener apiece passed Node's 10-listener warning in a process that opens many sessions: the editor, the tests).
 */
const exitTasks: (() => void)[] = [];
function atExit(task: () => void): void {
  if (exitTasks.length === 0) {
    process.once('exit', () => {
      for (const t of exitTasks.splice(0)) {
        try {
          t();
        } catch {
          // The next one still runs: exiting is no time to stop cleaning up.
        }
      }
    });
  }
  exitTasks.push(task);
}
