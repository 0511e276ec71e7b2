/**
 * The five workspace tools every agent gets (the `task` tool is added by the agent layer).
 * Order matters only for how the model sees the list: bash, read_file, write_file, edit_file, glob, grep.
 */
import { createBashTool, type BashToolOptions } from './bash';
import { createEditFileTool } from './edit-file';
import type { ChangeRecorder } from './file-tracker';
import { createGlobTool } from './glob';
import { createGrepTool } from './grep';
import { lazyDefaultRipgrepPath } from './ripgrep';
import { createNodeFileOps } from './node-file-ops';
import { PathLocks } from './path-locks';
import { createReadFileTool } from './read-file';
import { ToolRegistry, type FileOps } from './types';
import { createWriteFileTool } from './write-file';

export interface BaseToolOptions extends BashToolOptions {
  /** File access port; node:fs when omitted. */
  ops?: FileOps;
  /** The ripgrep binary under grep and glob (the host finds it); `rg` on PATH when omitted. */
  ripgrepPath?: string;
  /** The session's change tracker: the stale-write guard, the journal, commands and their exit codes. */
  changes?: ChangeRecorder;
}

export function createBaseTools(workdir: string, opts: BaseToolOptions): ToolRegistry {
  const ops = opts.ops ?? createNodeFileOps();
  const rg = opts.ripgrepPath ?? lazyDefaultRipgrepPath();
  // One lock table for both writing tools: a write racing an edit of the same file is ordered too.
  const changes = opts.changes;
  const locks = changes?.locks ?? new PathLocks();
  const bash = createBashTool(workdir, opts);
  return new ToolRegistry([
    changes ? changes.wrapCommands(bash) : bash,
    createReadFileTool(workdir, ops, changes),
    createWriteFileTool(workdir, ops, locks, changes),
    createEditFileTool(workdir, ops, locks, changes),
    createGlobTool(workdir, rg),
    createGrepTool(workdir, rg),
  ]);
}
