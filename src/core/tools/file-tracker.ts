/**
 * The seams the file tools and bash declare for whoever keeps track of changes (changes/change-tracker.ts
 * implements both), as tools/bash.ts declares CommandLauncher for the sandbox:
 *
 *   read_file ─noteRead─▶            ┐
 *   write_file / edit_file ─checkWrite, recordWrite─▶ FileTracker  ├─ ChangeRecorder (the session's ChangeTracker)
 *   bash ─wrapCommands─▶ the same tool, watched    ┘   + the lock table both writing tools share
 *
 * Every call names the acting agent; paths are real absolute paths already confined to the workspace.
 */
import type { BashInput } from './bash';
import type { PathLocks } from './path-locks';
import type { Tool } from './types';

export interface FileTracker {
  /** read_file read these bytes (the whole file, whatever window it returned). */
  noteRead(agentId: string, absPath: string, bytes: Buffer): Promise<void>;
  /**
   * Under the path's lock, before a write or edit: a short refusal when the agent has not read the file's
   * current content (`current` undefined: there is no file, nothing to guard).
   */
  checkWrite(agentId: string, absPath: string, displayPath: string, current: Buffer | undefined, verb: 'write' | 'edit'): Promise<string | undefined>;
  /** Under the path's lock: journals `before`, runs `write`, then records the change (its own write counts as read). */
  recordWrite(change: { agentId: string; toolUseId: string; absPath: string; before: Buffer | undefined; after: Buffer }, write: () => Promise<void>): Promise<void>;
}

/** What the base tools need from the session's change tracker: the guard, its lock table, and bash watched. */
export interface ChangeRecorder extends FileTracker {
  readonly locks: PathLocks;
  wrapCommands(tool: Tool<BashInput>): Tool<BashInput>;
}
