/**
 * A stat picture of the workspace's files, compared with the last one to find what changed:
 *
 *   git work tree   files = `git ls-files -co --exclude-standard` (tracked + untracked, nothing ignored)
 *   other folder    files = a walk of the folder, less SKIP_PLAIN (.git/, node_modules/…), at most MAX_PLAIN_FILES
 *   dirs            every folder holding a listed file (and the workspace itself)
 *
 *   scan():  lstat every file      ── size, mtime, inode, mode differ ─▶ modified;  gone ─▶ deleted
 *            lstat every folder    ── mtime differs (an entry came or went) ─▶ list that folder again
 *                                     (git: ls-files -- those folders; else readdir) ─▶ new files: created
 *
 * No file is read here: on this repository a scan is ~1 ms of lstat calls (docs/benchmarks.md, "changes"),
 * where a recursive fs.watch would first walk node_modules (1.4 s, 5,000 inotify watches). Only regular files
 * count; ignored files (dist/, node_modules/) are not watched.
 */
import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { listFiles } from './git-workspace';

const MAX_PLAIN_FILES = 20_000;
/** A work tree with more files is not watched at all: two scans would add ~0.2 s or more to every bash call. */
const MAX_GIT_FILES = 50_000;
/** Outside git nothing says what is ignored: these folders (dependencies, caches, VCS data) are not walked. */
const SKIP_PLAIN = new Set(['.git', '.hg', '.svn', 'node_modules', '.venv', 'venv', '__pycache__', '.cache', '.next', 'target']);

interface FileStat {
  /** The file's absolute path (joined once: a scan of 20,000 files spent more in path.join than in lstat). */
  abs: string;
  size: number;
  mtimeMs: number;
  ino: number;
  mode: number;
}

/** Equal size, mtime, inode and mode are taken to mean equal content (an atomic rename changes the inode). */
const same = (a: FileStat, b: FileStat): boolean => a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino && a.mode === b.mode;

export interface ScanDelta {
  path: string;
  kind: 'created' | 'modified' | 'deleted';
  /** The file now (absent when deleted). */
  stat?: FileStat;
  /** What the picture held before (absent when created). */
  was?: FileStat;
}

interface ScanOptions {
  /** Relative paths never to list (the session's own folder, should it be inside the workspace). */
  skip?: (path: string) => boolean;
  maxPlainFiles?: number;
  maxGitFiles?: number;
}

function statOf(abs: string): FileStat | undefined | 'other' {
  let st: Stats | undefined;
  try {
    st = lstatSync(abs, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (!st) return undefined;
  if (!st.isFile()) return 'other';
  return { abs, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, mode: st.mode };
}

function dirKey(abs: string): string | undefined {
  try {
    const st = lstatSync(abs, { throwIfNoEntry: false });
    return st?.isDirectory() ? `${st.mtimeMs}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

const parentOf = (path: string): string => {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
};

export class WorkspaceScan {
  readonly files = new Map<string, FileStat>();
  private readonly dirs = new Map<string, string | undefined>();
  /** Larger than the cap: a plain folder's files past it are not watched, a git work tree's none. */
  truncated = false;
  /** A git work tree past the cap: how many files git listed. */
  listed = 0;

  private constructor(
    readonly root: string,
    readonly git: boolean,
    private readonly opts: ScanOptions,
  ) {}

  /** The first picture (`git`: the workspace is in a git work tree). */
  static async open(root: string, git: boolean, opts: ScanOptions = {}): Promise<WorkspaceScan> {
    const scan = new WorkspaceScan(root, git, opts);
    scan.noteDir('');
    if (git) {
      const listed = await listFiles(root);
      // Past the cap nothing is watched (see command-watch.ts): the listing alone says so, no lstat needed.
      if (listed.length > (opts.maxGitFiles ?? MAX_GIT_FILES)) {
        scan.truncated = true;
        scan.listed = listed.length;
        return scan;
      }
      for (const path of listed) scan.add(path);
    } else scan.walk('');
    return scan;
  }

  private abs(path: string): string {
    return path === '' ? this.root : join(this.root, path);
  }

  /** Lists a file (and its folders); false when it is not a regular file. */
  private add(path: string): FileStat | undefined {
    if (this.opts.skip?.(path)) return undefined;
    const st = statOf(this.abs(path));
    if (st === undefined || st === 'other') return undefined;
    this.files.set(path, st);
    for (let dir = parentOf(path); !this.dirs.has(dir); dir = parentOf(dir)) this.noteDir(dir);
    return st;
  }

  private noteDir(dir: string): void {
    this.dirs.set(dir, dirKey(this.abs(dir)));
  }

  /** Plain folders: every file under `dir` not yet listed (bounded), returned as new. */
  private walk(dir: string, found: string[] = []): string[] {
    let entries;
    try {
      entries = readdirSync(this.abs(dir), { withFileTypes: true });
    } catch {
      return found;
    }
    if (!this.dirs.has(dir)) this.noteDir(dir);
    for (const e of entries) {
      const path = dir === '' ? e.name : `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (!SKIP_PLAIN.has(e.name) && !this.opts.skip?.(path)) this.walk(path, found);
      } else if (e.isFile() && !this.files.has(path)) {
        if (this.files.size >= (this.opts.maxPlainFiles ?? MAX_PLAIN_FILES)) {
          this.truncated = true;
          continue;
        }
        if (this.add(path)) found.push(path);
      }
    }
    return found;
  }

  /** Compares the workspace with the picture, and takes the new picture. */
  async scan(): Promise<ScanDelta[]> {
    const deltas: ScanDelta[] = [];
    for (const [path, was] of this.files) {
      const st = statOf(was.abs);
      if (st === undefined || st === 'other') {
        this.files.delete(path);
        deltas.push({ path, kind: 'deleted', was });
      } else if (!same(st, was)) {
        this.files.set(path, st);
        deltas.push({ path, kind: 'modified', stat: st, was });
      }
    }
    const changedDirs: string[] = [];
    for (const [dir, was] of this.dirs) {
      const key = dirKey(this.abs(dir));
      if (key === was) continue;
      if (key === undefined && dir !== '') this.dirs.delete(dir);
      else this.dirs.set(dir, key);
      if (key !== undefined) changedDirs.push(dir);
    }
    if (changedDirs.length > 0) {
      for (const path of await this.newFilesIn(changedDirs)) {
        const stat = this.files.get(path);
        if (stat) deltas.push({ path, kind: 'created', stat });
      }
    }
    return deltas;
  }

  private async newFilesIn(dirs: string[]): Promise<string[]> {
    if (!this.git) {
      const found: string[] = [];
      for (const dir of dirs) {
        let entries;
        try {
          entries = readdirSync(this.abs(dir), { withFileTypes: true });
        } catch {
          continue;
        }
        for (const e of entries) {
          const path = dir === '' ? e.name : `${dir}/${e.name}`;
          if (e.isDirectory() && !this.dirs.has(path) && !SKIP_PLAIN.has(e.name)) this.walk(path, found);
          else if (e.isFile() && !this.files.has(path) && this.files.size < (this.opts.maxPlainFiles ?? MAX_PLAIN_FILES) && this.add(path)) found.push(path);
        }
      }
      return found;
    }
    // One git process for all of them (the workspace's root lists it all: git walks, skipping what it ignores).
    const listed = await listFiles(this.root, dirs.includes('') || dirs.length > 64 ? undefined : dirs).catch(() => []);
    return listed.filter((path) => !this.files.has(path) && this.add(path) !== undefined);
  }

  /** Delegate itself wrote (or removed) the file: the picture takes it, so no scan reports it. */
  accept(path: string): FileStat | undefined {
    const st = statOf(this.abs(path));
    if (st === undefined || st === 'other') {
      this.files.delete(path);
      return undefined;
    }
    if (this.files.has(path)) {
      this.files.set(path, st);
      return st;
    }
    // A new file. Its folder's new mtime is not taken: the next scan lists the folder again, finds this file
    // known, and anything else a running command made there new.
    return this.add(path);
  }
}
