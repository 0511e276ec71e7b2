/**
 * The session's one record of what its agents do to the workspace, shared by every agent:
 *
 *   read_file ──noteRead──▶ stamps (stale-guard.ts), attribution
 *   write/edit ─checkWrite─▶ refuse a stale or unread target          ┐ all under the file's lock
 *              ─recordWrite▶ keep the old bytes (blob-store.ts) ─▶ write ─▶ stamp, `file_changed` event
 *   bash ──────wrapCommands▶ command + exit code kept (not a look: read-only-command.ts); the files it changed
 *   MCP call ──wrapCall────▶ found by stat pictures around the call (command-watch.ts), each one journalled
 *                            like a write, with every overlapping call as a possible cause (or the one
 *                            that names the file: command-paths.ts); a manifest marks what is shared
 *   task tool ─manifestOf──▶ what a finished subagent and its descendants changed (change-manifest.ts)
 *
 * `file_changed` events are the journal: with the kept contents they are what a revert works from,
 * in this process or any later one (apply-revert.ts reads them back from the transcript).
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { EventBus } from '../events';
import type { BashInput } from '../tools/bash';
import { PathLocks } from '../tools/path-locks';
import type { Tool, ToolResult } from '../tools/types';
import { BlobStore, contentHash } from './blob-store';
import { ChangeAttribution, type Changer } from './change-attribution';
import { buildManifest, textOf, type RecordedChange } from './change-manifest';
import { commandWords, inputWords } from './command-paths';
import { CommandWatch, type DetectedChange } from './command-watch';
import { changeDiff } from './line-diff';
import { isReadOnlyCommand } from './read-only-command';
import { describeChanger, notReadMessage, ReadStamps, staleMessage } from './stale-guard';
import type { ChangeRecorder } from '../tools/file-tracker';
import type { ChangeCause, ChangeManifest, CommandRun, ContentHash } from './types';

export interface ChangeTrackerOptions {
  workdir: string;
  /** Where old contents are kept (the session folder); without it nothing can be reverted (tests). */
  blobs?: BlobStore;
  /** Agent starts name the agents; `file_changed` events go out on it. */
  bus?: EventBus;
  /**
   * False: no `file_changed` events (an isolated subagent's worktree: its paths are not the workspace's, so a revert
   * must not read them; its changes are kept by git). The manifest is kept all the same.
   */
  journal?: boolean;
  /** Watch the files bash commands and MCP calls change (default: yes, when there is a blob store). */
  watchCommands?: boolean;
  /** Files a non-git workspace's picture holds at most, and a git work tree watched at all (command-watch.ts; tests). */
  maxPlainFiles?: number;
  maxGitFiles?: number;
}

interface AgentInfo {
  parentId: string | null;
  name: string;
}

export class ChangeTracker implements ChangeRecorder {
  /** The per-path lock table of the session's write and edit tools (and of a revert made in this process). */
  readonly locks = new PathLocks();
  private readonly stamps = new ReadStamps();
  private readonly attribution = new ChangeAttribution(this.locks);
  private readonly agents = new Map<string, AgentInfo>();
  private readonly changes: RecordedChange[] = [];
  private readonly commands: { agentId: string; run: CommandRun }[] = [];
  /** The workspace's real path (paths in the journal are relative to it). */
  private readonly root: string;
  private readonly watch: CommandWatch | undefined;

  constructor(private readonly opts: ChangeTrackerOptions) {
    this.root = realRoot(opts.workdir);
    const blobs = opts.blobs;
    if (blobs && opts.watchCommands !== false) {
      // The session's own folder is never the workspace's change, should the data folder be inside it.
      const own = relative(this.root, dirname(dirname(blobs.dir))).split(sep).join('/');
      const skip = own === '' || own.startsWith('..') || isAbsolute(own) ? undefined : (path: string): boolean => path === own || path.startsWith(`${own}/`);
      this.watch = new CommandWatch({
        root: this.root,
        blobs,
        onChange: (c) => this.commandChanged(c),
        onNotice: (text) => this.notice(text),
        ...(skip ? { skip } : {}),
        ...(opts.maxPlainFiles ? { maxPlainFiles: opts.maxPlainFiles } : {}),
        ...(opts.maxGitFiles ? { maxGitFiles: opts.maxGitFiles } : {}),
      });
    }
    opts.bus?.subscribe((e) => {
      if (e.type !== 'agent_started') return;
      const name = e.parentId === null ? 'the main agent' : `the subagent "${e.description ?? e.agentId}" (${e.agentId})`;
      this.agents.set(e.agentId, { parentId: e.parentId, name });
    });
  }

  get blobs(): BlobStore | undefined {
    return this.opts.blobs;
  }

  async noteRead(agentId: string, absPath: string, bytes: Buffer): Promise<void> {
    const hash = contentHash(bytes);
    this.stamps.stamp(agentId, absPath, hash);
    await this.attribution.sawContent(absPath, hash);
  }

  async checkWrite(agentId: string, absPath: string, displayPath: string, current: Buffer | undefined, verb: 'write' | 'edit'): Promise<string | undefined> {
    if (current === undefined) return undefined;
    const hash = contentHash(current);
    const stamp = this.stamps.get(agentId, absPath);
    if (stamp === hash) return undefined;
    const who = describeChanger(await this.attribution.whoMade(absPath, hash), this.nameOf(agentId));
    return stamp === undefined ? notReadMessage(displayPath, verb, who) : staleMessage(displayPath, verb, who);
  }

  async recordWrite(change: { agentId: string; toolUseId: string; absPath: string; before: Buffer | undefined; after: Buffer }, write: () => Promise<void>): Promise<void> {
    const { agentId, absPath, before, after } = change;
    const beforeHash = before ? contentHash(before) : undefined;
    const blobs = this.opts.blobs;
    if (before && blobs) {
      // Kept before the write: a change that cannot be undone is not made.
      await blobs.put(before, beforeHash).catch((err: unknown) => {
        throw new Error(`its previous content could not be kept for revert (${err instanceof Error ? err.message : String(err)}); nothing was written`);
      });
    }
    const afterHash = contentHash(after);
    const path = this.relativePath(absPath);
    const writeAndKeep = async (): Promise<void> => {
      await write();
      // The new content serves diffs and conflict checks; without it a revert still works (hashes suffice).
      if (blobs) await blobs.put(after, afterHash).catch(() => undefined);
    };
    // Taken as known by the command watch: a command running meanwhile is not blamed for it.
    await (this.watch ? this.watch.ownWrite(path, afterHash, writeAndKeep) : writeAndKeep());
    this.stamps.stamp(agentId, absPath, afterHash);
    await this.attribution.wrote(absPath, afterHash, { kind: 'agent', agentId, name: this.nameOf(agentId) });
    const { added, removed, hunks } = changeDiff(textOf(before), textOf(after));
    const recorded: RecordedChange = { agentId, path, ...(beforeHash ? { before: beforeHash } : {}), after: afterHash, added, removed };
    this.changes.push(recorded);
    if (this.opts.journal !== false) await this.opts.bus?.emit(agentId, this.agents.get(agentId)?.parentId ?? null, {
      type: 'file_changed',
      toolUseId: change.toolUseId,
      path,
      action: beforeHash ? 'modified' : 'created',
      ...(beforeHash ? { before: beforeHash } : {}),
      after: afterHash,
      added,
      removed,
      ...(hunks ? { diff: hunks } : {}),
    });
  }

  /** The bash tool, with its commands kept (and their exit codes) and the files each one changed found. */
  wrapCommands(tool: Tool<BashInput>): Tool<BashInput> {
    return {
      ...tool,
      execute: async (input, ctx) => {
        // A look (ls, wc, git status) changes nothing: no scans around it, not listed with the changes.
        const look = isReadOnlyCommand(input.command);
        const run = (): Promise<ToolResult> => this.attribution.aroundCommand({ command: input.command, by: this.nameOf(ctx.agentId) }, () => tool.execute(input, ctx));
        const cause: ChangeCause = { agentId: ctx.agentId, toolUseId: ctx.toolUseId, tool: tool.name, command: input.command };
        const result = this.watch && !look ? await this.watch.around(cause, run, commandWords(input.command)) : await run();
        // A command refused or cancelled before it started has no exit code: it did not run.
        if (result.exitCode !== undefined && !look) this.commands.push({ agentId: ctx.agentId, run: { command: input.command, exit_code: result.exitCode } });
        return result;
      },
    };
  }

  /** Any other tool that may change files (an MCP tool): its calls watched like commands. */
  wrapCall<I>(tool: Tool<I>): Tool<I> {
    const watch = this.watch;
    if (!watch || tool.readOnly) return tool;
    return {
      ...tool,
      execute: (input, ctx) =>
        watch.around({ agentId: ctx.agentId, toolUseId: ctx.toolUseId, tool: tool.name, command: `${tool.name} ${tool.describe(input).summary}`.trim() }, () => tool.execute(input, ctx), inputWords(input)),
    };
  }

  /** What the command watch cannot cover, as a warning the hosts show (on the main agent). */
  private async notice(text: string): Promise<void> {
    const root = [...this.agents].find(([, a]) => a.parentId === null)?.[0];
    if (root) await this.opts.bus?.emit(root, null, { type: 'notice', level: 'warning', text });
  }

  /** A file a watched call changed: journalled as a write is, with its causes. */
  private async commandChanged(c: DetectedChange): Promise<void> {
    const first = c.causes[0] as ChangeCause;
    const { added, removed, hunks } = changeDiff(textOf(c.beforeBytes), textOf(c.afterBytes));
    const action = c.kind;
    this.changes.push({
      agentId: first.agentId,
      path: c.path,
      ...(c.before ? { before: c.before } : {}),
      ...(c.after ? { after: c.after } : {}),
      added,
      removed,
      causes: c.causes,
      action,
      ...(c.lost ? { lost: c.lost } : {}),
    });
    const commands = c.causes.map((k) => ({ command: k.command, by: this.nameOf(k.agentId) }));
    await this.attribution.wrote(join(this.root, c.path), c.after, { kind: 'command', commands });
    if (this.opts.journal !== false) await this.opts.bus?.emit(first.agentId, this.agents.get(first.agentId)?.parentId ?? null, {
      type: 'file_changed',
      toolUseId: first.toolUseId,
      path: c.path,
      action,
      ...(c.before ? { before: c.before } : {}),
      ...(c.after ? { after: c.after } : {}),
      added,
      removed,
      ...(hunks ? { diff: hunks } : {}),
      causes: c.causes,
      ...(c.lost ? { lost: c.lost } : {}),
    });
  }

  /** Whether the command watch sees this workspace-relative file (a change to it by a command would be journalled). */
  watches(path: string): boolean {
    return this.watch?.watches(path) ?? false;
  }

  /** What `agentId` and its descendants changed and ran, so far. */
  async manifestOf(agentId: string): Promise<ChangeManifest> {
    const inTree = (id: string): boolean => {
      let cur: string | null | undefined = id;
      for (let depth = 0; cur && depth < 64; depth++) {
        if (cur === agentId) return true;
        cur = this.agents.get(cur)?.parentId;
      }
      return false;
    };
    const blobs = this.opts.blobs;
    const manifest = await buildManifest(
      // A change found while calls overlapped is in the manifest of each agent that could have made it.
      this.changes.filter((c) => inTree(c.agentId) || c.causes?.some((k) => inTree(k.agentId))),
      this.commands.filter((c) => inTree(c.agentId)).map((c) => c.run),
      async (hash) => blobs?.get(hash),
    );
    for (const file of manifest.files) {
      const others = file.by?.filter((c) => !inTree(c.agentId)) ?? [];
      if (others.length) file.sharedWith = others;
    }
    return manifest;
  }

  /** A revert in this process put `hash` back (undefined: removed the file); call under the path's lock. */
  async restored(absPath: string, hash: ContentHash | undefined): Promise<void> {
    const by: Changer = { kind: 'revert' };
    await this.attribution.wrote(absPath, hash, by);
    await this.watch?.ownWrite(this.relativePath(absPath), hash, async () => undefined);
  }

  private nameOf(agentId: string): string {
    return this.agents.get(agentId)?.name ?? `the agent ${agentId}`;
  }

  private relativePath(absPath: string): string {
    return relative(this.root, absPath).split(sep).join('/');
  }
}

function realRoot(workdir: string): string {
  try {
    return realpathSync(workdir);
  } catch {
    return workdir;
  }
}
