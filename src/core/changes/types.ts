/**
 * What Delegate knows about the changes agents make to the workspace: the per-file changes its own file
 * tools journal and those found around each bash command and MCP call (command-watch.ts), the commands
 * agents ran, the manifest a finished subagent's result carries, and what a revert did file by file.
 * Content is named by its SHA-256 (`ContentHash`); the bytes live in the session folder (blob-store.ts).
 */

/** Hex SHA-256 of a file's bytes. */
export type ContentHash = string;

export type FileAction = 'created' | 'modified' | 'deleted';

/**
 * A bash command or MCP call that changed a file. A change found while several calls overlapped (parallel
 * children) names each of them: any one could have made it.
 */
export interface ChangeCause {
  agentId: string;
  toolUseId: string;
  /** `bash`, or the MCP tool's name. */
  tool: string;
  /** The command line, or the MCP call's input summary. */
  command: string;
}

/** One file in a manifest: what the agent and its descendants did to it, net, with line counts. */
export interface ChangedFile {
  /** Relative to the workspace, with `/` separators. */
  path: string;
  action: FileAction;
  added: number;
  removed: number;
  /** Content before the first change (absent when created) and after the last (absent when deleted). */
  before?: ContentHash;
  after?: ContentHash;
  /** The calls that changed it (absent: only write_file / edit_file did). */
  by?: ChangeCause[];
  /**
   * Those of `by` made by agents outside this subtree: the calls overlapped and none or several named the file,
   * so any could have made a change. A revert leaves the file alone unless asked to include it.
   */
  sharedWith?: ChangeCause[];
  /** Why a revert cannot put it back (its content before was not kept). */
  lost?: string;
}

/** A bash command an agent ran; `exit_code` is null when it did not exit by itself (timed out, stopped, killed). */
export interface CommandRun {
  command: string;
  exit_code: number | null;
}

export interface ChangeManifest {
  files: ChangedFile[];
  commands: CommandRun[];
}

/**
 * What a revert did to one file: `restored` (previous content back), `deleted` (the agent had created it),
 * `recreated` (the agent had deleted it), `unchanged` (already as before), `refused` (someone changed it
 * afterwards or in between: left alone; `expected` is what the agent left, for a diff against the file now),
 * `skipped` (shared with another agent's overlapping call and not included: left alone, `reason` names who).
 */
export type RevertOutcome = 'restored' | 'deleted' | 'recreated' | 'unchanged' | 'refused' | 'skipped';

export interface RevertedFile {
  path: string;
  outcome: RevertOutcome;
  reason?: string;
  /** The content the revert replaced (absent: there was no file) and the content it put back (absent: removed). */
  from?: ContentHash;
  to?: ContentHash;
  /** For a refusal: the content the agent's last change left. */
  expected?: ContentHash;
}
