/**
 * What a bash command or an MCP call changed in the workspace, found by stat pictures around it
 * (workspace-scan.ts), with each file's before-content kept so a revert can put it back:
 *
 *   first call ─▶ picture + where each file's content can be had again:
 *                   a clean tracked file    its index blob (git keeps it: nothing copied)
 *                   dirty / untracked /     copied now into the session's blob store (bounded: COPY_FILE_MAX
 *                   not in git                each, COPY_TOTAL in all; past that the change is listed, not revertable)
 *   call start ─▶ scan: changes since the last scan are someone else's (the user, an editor) ─▶ new before-states
 *   call end   ─▶ scan: each change ─▶ before bytes (blob store, or `git cat-file` for a clean file), after bytes
 *                   kept, reported with its causes: every call running or ended since the last scan
 *                   (parallel children's calls that overlap), narrowed to the one call that names the file
 *                   when exactly one does (command-paths.ts); else all of them: any could have made it
 *
 * Scans and Delegate's own writes take turns (one chain), so write_file's change is never put down to a
 * command that happened to be running. A touch (new mtime, same bytes) is no change.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type BlobStore, contentHash } from './blob-store';
import { namingCall, type NamedWord, resolveWords } from './command-paths';
import { blobOid, dirtyFiles, indexOids, openGitWorkspace, readBlobs, type GitWorkspace } from './git-workspace';
import type { ChangeCause, ContentHash } from './types';
import { type ScanDelta, WorkspaceScan } from './workspace-scan';

/** A changed file larger than this is not read: its change is listed but cannot be reverted. */
const KEEP_FILE_MAX = 16 * 1024 * 1024;
/** Copied in advance (dirty, untracked, non-git files): at most this much a file, and in all per session. */
const COPY_FILE_MAX = 4 * 1024 * 1024;
const COPY_TOTAL = 64 * 1024 * 1024;

type Source = { kind: 'git'; oid: string } | { kind: 'blob'; hash: ContentHash } | { kind: 'lost'; reason: string };

/** One file a watched call changed. */
export interface DetectedChange {
  path: string;
  kind: ScanDelta['kind'];
  causes: ChangeCause[];
  before?: ContentHash;
  after?: ContentHash;
  beforeBytes?: Buffer;
  afterBytes?: Buffer;
  /** Why the content before (or after) is not kept: the change cannot be reverted. */
  lost?: string;
}

interface CommandWatchOptions {
  /** The workspace's real path. */
  root: string;
  blobs: BlobStore;
  onChange(change: DetectedChange): Promise<void>;
  /** Relative paths never watched (the session folder, when inside the workspace). */
  skip?: (path: string) => boolean;
  /** Files a plain folder's picture holds at most (default MAX_PLAIN_FILES), a git work tree's (MAX_GIT_FILES). */
  maxPlainFiles?: number;
  maxGitFiles?: number;
  /** Said once when part of the workspace goes unwatched. */
  onNotice?(text: string): Promise<void>;
}

interface Opened {
  scan: WorkspaceScan;
  repo: GitWorkspace | undefined;
}

export class CommandWatch {
  private opened: Promise<Opened | undefined> | undefined;
  /** The picture once taken (what `watches` reads without waiting). */
  private picture: Opened | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly running = new Set<ChangeCause>();
  private ended: ChangeCause[] = [];
  /** The words each call names (command-paths.ts), resolved when a change found while calls overlapped is reported. */
  private readonly words = new WeakMap<ChangeCause, readonly NamedWord[]>();
  private readonly sources = new Map<string, Source>();
  private kept = 0;

  constructor(private readonly opts: CommandWatchOptions) {}

  /** Runs one call watched: its changes (and those of calls overlapping it) are reported as it ends. */
  async around<T>(cause: ChangeCause, run: () => Promise<T>, words: readonly NamedWord[] = []): Promise<T> {
    this.words.set(cause, words);
    await this.settle();
    this.running.add(cause);
    try {
      return await run();
    } finally {
      this.running.delete(cause);
      this.ended.push(cause);
      await this.settle();
    }
  }

  /**
   * Whether the watch sees `path` (workspace-relative): a change a command made to it is in the manifest, so a claim
   * that one did cannot lean on the command's text. False for an ignored file, one outside, or no picture yet.
   */
  watches(path: string): boolean {
    return this.picture?.scan.files.has(path) ?? false;
  }

  /** Delegate's own write (write_file, edit_file, a revert): made between scans, its result taken as known. */
  async ownWrite<T>(path: string, after: ContentHash | undefined, write: () => Promise<T>): Promise<T> {
    if (!this.opened) return write();
    return this.exclusive(async () => {
      const state = await this.opened;
      const result = await write();
      if (state) {
        state.scan.accept(path);
        if (after) this.sources.set(path, { kind: 'blob', hash: after });
        else this.sources.delete(path);
      }
      return result;
    });
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private settle(): Promise<void> {
    // The picture is taken in the chain's turn, so a write made meanwhile waits for it (and is then known).
    this.opened ??= this.exclusive(() => this.open()).catch(() => undefined);
    return this.exclusive(async () => {
      const suspects = [...this.running, ...this.ended];
      this.ended = [];
      const state = await this.opened;
      if (!state) return;
      let deltas: ScanDelta[];
      try {
        deltas = await state.scan.scan();
      } catch {
        return;
      }
      if (deltas.length === 0) return;
      // Finding changes never fails the call it watches: a change it could not keep is simply not journalled.
      try {
        if (suspects.length === 0) for (const d of deltas) await this.rebase(d);
        else await this.report(state, deltas, suspects);
      } catch {
        // (the next scan starts from the picture already taken)
      }
    });
  }

  private async open(): Promise<Opened> {
    const root = this.opts.root;
    const repo = await openGitWorkspace(root);
    const { skip, maxPlainFiles, maxGitFiles } = this.opts;
    const scan = await WorkspaceScan.open(root, repo !== undefined, { ...(skip ? { skip } : {}), ...(maxPlainFiles ? { maxPlainFiles } : {}), ...(maxGitFiles ? { maxGitFiles } : {}) });
    if (scan.truncated && repo) {
      await this.opts.onNotice?.(`This work tree has ${scan.listed} files, too many to watch at every bash call: files changed by commands and MCP tools are not listed or reverted in this session (write_file and edit_file are).`);
      throw new Error('not watched');
    }
    if (scan.truncated) await this.opts.onNotice?.(`This folder is not a git work tree and has more than ${scan.files.size} files: changes commands make to the others are not found, listed or reverted.`);
    const [oids, dirty] = repo ? await Promise.all([indexOids(root), dirtyFiles(root, repo)]) : [new Map<string, string>(), new Set<string>()];
    for (const [path, stat] of scan.files) {
      const oid = oids.get(path);
      if (oid && !dirty.has(path)) this.sources.set(path, { kind: 'git', oid });
      else this.sources.set(path, await this.keep(path, stat.size));
    }
    this.picture = { scan, repo };
    return this.picture;
  }

  /** Copies the file's bytes now into the blob store, within the budget. */
  private async keep(path: string, size: number): Promise<Source> {
    if (size > COPY_FILE_MAX) return { kind: 'lost', reason: `it is larger than ${COPY_FILE_MAX / 1024 / 1024} MiB, so its content was not kept` };
    if (this.kept + size > COPY_TOTAL) return { kind: 'lost', reason: `the session's budget for copies of files git does not have (${COPY_TOTAL / 1024 / 1024} MiB) was spent` };
    try {
      const bytes = await readFile(join(this.opts.root, path));
      this.kept += bytes.length;
      return { kind: 'blob', hash: await this.opts.blobs.put(bytes) };
    } catch (err) {
      return { kind: 'lost', reason: `its content could not be kept (${err instanceof Error ? err.message : String(err)})` };
    }
  }

  /** A change no watched call made: its new content is the before of the next one. */
  private async rebase(d: ScanDelta): Promise<void> {
    if (d.kind === 'deleted' || !d.stat) this.sources.delete(d.path);
    else this.sources.set(d.path, await this.keep(d.path, d.stat.size));
  }

  private async report(state: Opened, deltas: ScanDelta[], causes: ChangeCause[]): Promise<void> {
    const oids = deltas.map((d) => this.sources.get(d.path)).flatMap((s) => (s?.kind === 'git' ? [s.oid] : []));
    const gitBlobs = oids.length ? await readBlobs(this.opts.root, oids).catch(() => new Map<string, Buffer>()) : new Map<string, Buffer>();
    const named = new Map<ChangeCause, ReadonlySet<string>>();
    const namedBy = (c: ChangeCause): ReadonlySet<string> => {
      let paths = named.get(c);
      if (!paths) named.set(c, (paths = resolveWords(this.words.get(c) ?? [], this.opts.root)));
      return paths;
    };
    for (const d of deltas) {
      const source = d.kind === 'created' ? undefined : this.sources.get(d.path);
      let afterBytes: Buffer | undefined;
      let lost = source?.kind === 'lost' ? source.reason : d.kind !== 'created' && !source ? 'its content before was not kept' : undefined;
      if (d.kind !== 'deleted') {
        if ((d.stat?.size ?? 0) > KEEP_FILE_MAX) lost ??= `it is larger than ${KEEP_FILE_MAX / 1024 / 1024} MiB, so its content was not kept`;
        else afterBytes = await readFile(join(this.opts.root, d.path)).catch(() => undefined);
      }
      const after = afterBytes ? contentHash(afterBytes) : undefined;
      // Touched, not changed: the picture's new stat is all there is to take.
      if (source?.kind === 'git' && afterBytes && blobOid(afterBytes, state.repo?.objectFormat ?? 'sha1') === source.oid) continue;
      if (source?.kind === 'blob' && after === source.hash) continue;
      let beforeBytes: Buffer | undefined;
      let before: ContentHash | undefined;
      if (source?.kind === 'git') {
        beforeBytes = gitBlobs.get(source.oid);
        if (beforeBytes) before = await this.opts.blobs.put(beforeBytes).catch(() => undefined);
        if (!before) lost ??= 'its previous content could not be read back from git';
      } else if (source?.kind === 'blob') {
        before = source.hash;
        beforeBytes = await this.opts.blobs.get(source.hash);
      }
      if (afterBytes) await this.opts.blobs.put(afterBytes, after).catch(() => undefined);
      if (d.kind === 'deleted') this.sources.delete(d.path);
      else this.sources.set(d.path, after ? { kind: 'blob', hash: after } : { kind: 'lost', reason: lost ?? 'its content was not kept' });
      const namer = causes.length > 1 ? namingCall(causes, d.path, namedBy) : undefined;
      await this.opts.onChange({
        path: d.path,
        kind: d.kind,
        causes: namer ? [namer] : causes,
        ...(before ? { before } : {}),
        ...(after ? { after } : {}),
        ...(beforeBytes ? { beforeBytes } : {}),
        ...(afterBytes ? { afterBytes } : {}),
        ...(lost ? { lost } : {}),
      });
    }
  }
}
